"""Spec §3-§9: round flow, dice, charging, dust, amplifier, colour upgrades, transmutation."""

import pytest
from zs_helpers import ART, complete, end_all, game, play, set_fields, texts

import grimoire
from grimoire import IllegalAction

R = [[1, 2, 3, 4, 5, 6]] * 7


def rejects(state, text, code=None, rule=None):
    before = state.to_dict()
    with pytest.raises(IllegalAction) as e:
        state.apply(text)
    assert state.to_dict() == before, f"rejected {text!r} changed the state"
    if code:
        assert f"[{code}]" in str(e.value), str(e.value)
    if rule:
        assert e.value.rule == rule, (e.value.rule, str(e.value))
    return e.value


# --- §3 game flow -----------------------------------------------------------------------------------

def test_s3_r3_2_seven_rounds_with_one_shared_roll_per_round():
    s = game(players=3, seed=5)
    rolls = []
    for rnd in range(1, 8):
        assert s.round == rnd
        assert len(s.roll) == 6 and all(1 <= v <= 6 for v in s.roll)
        rolls.append(s.roll)
        for seat in range(3):
            assert s.players[seat].vals == list(s.roll)     # everybody records the same values
            assert s.current_player == seat
            s.apply("end")
    assert s.is_terminal() and s.current_player is None and s.legal_actions() == []
    assert [list(p[0]) for p in s.players[0].past] == [list(r) for r in rolls]


def test_s3_r3_2_rolls_come_from_the_state_rng_and_can_be_injected():
    a, b = game(seed=9), game(seed=9)
    for _ in range(7):
        assert a.roll == b.roll
        a.apply("end")
        b.apply("end")
    s = game(rolls=[[6, 6, 6, 6, 6, 6], [1, 1, 2, 2, 3, 3]])
    assert s.roll == (6, 6, 6, 6, 6, 6)
    s.apply("end")
    assert s.roll == (1, 1, 2, 2, 3, 3)


def test_s3_r3_2_no_rerolls():
    s = game(rolls=R)
    with pytest.raises(IllegalAction):
        s.apply("reroll")
    assert not any(t.startswith("roll") or t.startswith("reroll") for t in texts(s))


def test_s3_r3_3_no_actions_after_round_7():
    s = game(rolls=R)
    for _ in range(7):
        s.apply("end")
    assert s.is_terminal()
    e = rejects(s, "end", "GAME_OVER", "R3.3")
    assert "over" in str(e)


def test_max_rounds_ends_and_scores_the_game_after_round_n():
    s = game(rolls=R, max_rounds=2)
    play(s, "dust 1", "end", "dust 2", "end")
    assert s.is_terminal()
    assert s.round == 2
    assert s.score_breakdown(0)["S2"] == 2
    assert s.scores() == [2]
    assert s.winners() == [0]


# --- §4 dice ----------------------------------------------------------------------------------------

def test_s4_r4_1_each_die_used_at_most_once():
    s = game(rolls=[[3, 3, 1, 1, 1, 1]])
    play(s, "dust 3", "charge am1 green 3")
    assert "dust 3" not in texts(s) and "charge am2 purple 3" not in texts(s)
    rejects(s, "dust 3", "DIE_USED", "R6.1")
    rejects(s, "charge am2 purple 3", "DIE_USED", "R4.1")
    rejects(s, "dust 5", "DIE_NOT_IN_ROUND")


def test_s4_r4_2_unused_dice_expire_at_the_end_of_the_round():
    s = game(rolls=[[1, 2, 3, 4, 5, 6], [1, 1, 1, 1, 1, 1]])
    play(s, "dust 6", "end")
    assert s.round == 2
    assert s.players[0].vals == [1] * 6
    rejects(s, "dust 6", "DIE_NOT_IN_ROUND")
    assert s.players[0].past[0][1] == ("", "", "", "", "", "dust")


def test_s4_r4_3_charge_last_field_make_dust_pay_and_amplify_in_one_round():
    s = game(rolls=[[1, 1, 1, 1, 2, 3]])
    play(s, "unlock 1", "charge am1 green 1", "charge am1 green 1", "dust 1", "pay am1", "amplify am1 2")
    p = s.players[0]
    assert p.complete(ART["AM1"].index) and p.amped == 1 << ART["AM1"].index
    assert p.amp_level == 1 and p.fresh == 0
    b = s.score_breakdown(0)
    # base 4 + dust 1 + amplifier 1 + harmony (1 = 1) 4
    assert (b["S1"], b["S2"], b["S3"], b["S7"]) == (4, 1, 1, 4)


def test_s4_r4_4_illegal_actions_leave_the_state_unchanged_and_name_the_rule():
    s = game(rolls=R)
    for t in ["charge re1 green 3", "pay am1", "amplify am1 1", "upgrade green 3", "transmute 1 to 1",
              "charge am1 red 1", "fly away", "", "pay am1 r1", "unlock 9"]:
        e = rejects(s, t)
        assert e.rule, t
    assert s.history == []


# --- §5 artifacts -----------------------------------------------------------------------------------

def test_s5_r5_1_charge_writes_the_value_and_respects_minimums():
    s = game(rolls=[[3, 4, 5, 6, 6, 2]])
    rejects(s, "charge re1 green 3", "VALUE_BELOW_MIN", "R5.1")
    rejects(s, "charge bk green 4", "VALUE_BELOW_MIN", "R5.1")
    rejects(s, "charge wa1 green 2", "VALUE_BELOW_MIN", "R5.1")
    play(s, "charge re1 green 4", "charge bk purple 5", "charge wa1 green 3", "charge po1 green 2")
    p = s.players[0]
    assert [p.fields[f] for f in ART["RE1"].fields] == [4, 0, 0, 0]
    assert [p.fields[f] for f in ART["BK"].fields] == [0, 5, 0]
    assert [p.fields[f] for f in ART["WA1"].fields] == [3, 0, 0]
    assert [p.fields[f] for f in ART["PO1"].fields] == [2, 0]


def test_s14_field_min_constraints_false_lets_any_value_fit():
    s = game(rolls=[[1, 1, 1, 1, 1, 1]], field_min_constraints=False)
    play(s, "charge bk green 1", "charge re1 purple 1")
    assert "charge sp1 green 1" in texts(s)


def test_s5_r5_1_field_filled_and_fields_in_any_order_over_several_rounds_and_artifacts():
    s = game(rolls=[[6, 6, 6, 1, 1, 1], [5, 5, 5, 5, 5, 5]])
    play(s, "charge bk yellow 6", "charge re1 purple 6", "charge am1 green 1", "charge am1 green 1")
    rejects(s, "charge am1 green 1", "FIELD_FILLED", "R5.1")
    rejects(s, "charge bk yellow 6", "FIELD_FILLED", "R5.1")
    play(s, "end", "charge bk green 5", "charge re1 green 5", "charge bk purple 5")
    p = s.players[0]
    assert [p.fields[f] for f in ART["BK"].fields] == [5, 5, 6]
    assert p.fully_charged(ART["BK"].index) and not p.complete(ART["BK"].index)


def test_s5_r5_1_no_charging_a_complete_artifact():
    s = game(rolls=R)
    p = s.players[0]
    complete(p, "AM1")
    set_fields(p, "AM1", [1, 0])      # an (impossible) hole, to reach the check
    rejects(s, "charge am1 green 1", "ARTIFACT_COMPLETE", "R5.1")


def test_s5_same_colour_fields_take_the_highest_minimum_the_die_meets():
    from grimoire.games.zauberschmiede.sheet import Sheet

    # on the default sheet same-coloured fields of an artifact share a minimum; check the ordering table
    for a in Sheet.__init__.__globals__["SHEET"].artifacts:
        for _c, fs in a.groups:
            mins = [Sheet.__init__.__globals__["SHEET"].field_min[f] for f in fs]
            assert mins == sorted(mins, reverse=True)


def test_s5_r5_2_r5_3_complete_when_fully_charged_and_paid_r5_4_values_permanent():
    s = game(rolls=[[2, 2, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]])
    play(s, "charge po1 green 2", "charge po1 purple 2")
    p = s.players[0]
    i = ART["PO1"].index
    assert p.fully_charged(i) and not p.complete(i)
    assert s.score_breakdown(0)["S1"] == 0          # R5.5 fully charged but unpaid scores nothing
    play(s, "dust 1", "pay po1")
    assert p.complete(i)
    assert s.score_breakdown(0)["S1"] == 5
    assert not any(t.startswith("charge po1") or t.startswith("pay po1") for t in texts(s))
    rejects(s, "pay po1", "ALREADY_PAID", "R5.3")
    assert [p.fields[f] for f in ART["PO1"].fields] == [2, 2]


def test_s5_r5_5_incomplete_artifacts_score_nothing_anywhere():
    s = game(rolls=R)
    p = s.players[0]
    set_fields(p, "RE1", [4, 4, 4, 4])       # fully charged, unpaid
    set_fields(p, "AM1", [1, 0])             # partly charged
    from zs_helpers import mark

    mark(p, "green", 4, 5, 6)
    assert s.score_breakdown(0) == {"S1": 0, "S2": 0, "S3": 0, "S4": 0, "S5": 0, "S6": 0, "S7": 0, "S8": 0,
                                    "total": 0}


# --- §6 dust ----------------------------------------------------------------------------------------

def test_s6_r6_1_produce_any_values_the_number_of_dice_goes_into_the_round_box():
    s = game(rolls=[[1, 6, 3, 1, 1, 1], [2, 2, 2, 2, 2, 2]])
    play(s, "dust 6", "dust 1", "dust 3")
    p = s.players[0]
    assert p.boxes[0] == 3 and p.fresh == 3         # several productions add up in one box
    play(s, "end", "dust 2")
    assert p.boxes == [3, 1, 0, 0, 0, 0, 0]


def test_s6_r6_2_fresh_dust_is_usable_at_once_and_divisible_within_its_round():
    s = game(rolls=[[1, 1, 1, 1, 1, 1]])
    p = s.players[0]
    set_fields(p, "AM1", [1, 1])
    set_fields(p, "AM2", [1, 1])
    play(s, "dust 1", "dust 1", "pay am1", "pay am2")
    assert p.complete(0) and p.complete(1) and p.fresh == 0


def test_s14_fresh_dust_divisible_false_makes_a_production_one_indivisible_unit():
    s = game(rolls=[[1, 1, 1, 1, 1, 1]], fresh_dust_divisible=False)
    p = s.players[0]
    set_fields(p, "AM1", [1, 1])
    set_fields(p, "AM2", [1, 1])
    play(s, "dust 1", "dust 1", "pay am1")
    assert p.fresh == 0                              # the whole unit went, the excess is lost
    rejects(s, "pay am2", "INSUFFICIENT_DUST", "R6.4")
    play(s, "dust 1", "pay am2")                     # new production after the payment is a new unit
    assert p.complete(1)


def test_s6_r6_3_unspent_fresh_dust_becomes_one_indivisible_stock_spent_whole():
    s = game(rolls=[[1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]])
    p = s.players[0]
    play(s, "dust 1", "dust 1", "dust 1", "end")
    assert p.stock[0] == 3 and p.fresh == 0 and p.unspent_stocks() == [(1, 3)]
    set_fields(p, "AM1", [1, 1])
    set_fields(p, "AM2", [1, 1])
    assert "pay am1 r1" in texts(s) and "pay am1" not in texts(s)   # no fresh dust yet this round
    play(s, "pay am1 r1")
    assert p.unspent_stocks() == [] and p.boxes[0] == 3       # 2 dust of excess lost, points kept
    rejects(s, "pay am2 r1", "STOCK_UNKNOWN", "R6.4")           # a stock never pays for two artifacts
    rejects(s, "pay am2", "INSUFFICIENT_DUST", "R6.4")


def test_s6_r6_4_stocks_and_fresh_dust_combine_for_one_payment():
    s = game(rolls=[[1] * 6, [1] * 6, [1] * 6])
    p = s.players[0]
    play(s, "dust 1", "end", "dust 1", "end")
    set_fields(p, "SP1", [3, 3])                    # spell: dust cost 2
    assert "pay sp1 r1 r2" in texts(s)
    assert "pay sp1 r1" not in texts(s)             # 1 + no fresh dust < 2
    play(s, "dust 1")
    # every payment that needs each stock it names, in round order (fresh dust alone is 1 < 2)
    assert [t for t in texts(s) if t.startswith("pay sp1")] == ["pay sp1 r1", "pay sp1 r1 r2", "pay sp1 r2"]
    c = s.clone()
    play(c, "pay sp1 r1")                           # stock 1 + 1 fresh
    assert c.players[0].complete(ART["SP1"].index) and c.players[0].fresh == 0
    assert c.players[0].unspent_stocks() == [(2, 1)]
    play(s, "pay sp1 r1 r2")                        # two stocks
    assert p.complete(ART["SP1"].index) and p.fresh == 1 and p.unspent_stocks() == []


def test_s6_r6_4_payment_checks():
    s = game(rolls=[[1] * 6, [1] * 6])
    p = s.players[0]
    play(s, "dust 1", "dust 1", "end")              # stock r1 = 2
    set_fields(p, "AM1", [1, 1])
    rejects(s, "pay am1 r2", "STOCK_UNKNOWN", "R6.4")
    rejects(s, "pay am1", "INSUFFICIENT_DUST", "R6.4")
    s2 = game(rolls=[[1] * 6, [1] * 6, [1] * 6])
    p2 = s2.players[0]
    play(s2, "dust 1", "end", "dust 1", "dust 1", "end")   # stocks r1 = 1, r2 = 2
    set_fields(p2, "AM1", [1, 1])
    # naming a stock the payment does not need would only throw it away
    rejects(s2, "pay am1 r1 r2", "STOCK_NOT_NEEDED", "R6.4")
    assert [t for t in texts(s2) if t.startswith("pay")] == ["pay am1 r1", "pay am1 r2"]


def test_s6_r6_5_dust_only_for_fully_charged_artifacts_at_the_moment_of_payment():
    s = game(rolls=[[1] * 6, [1] * 6])
    p = s.players[0]
    play(s, "dust 1", "charge am1 green 1")
    rejects(s, "pay am1", "NOT_FULLY_CHARGED", "R6.5")
    play(s, "end", "charge am1 green 1")            # charged later: the stock made before may pay
    play(s, "pay am1 r1")
    assert p.complete(0)


def test_s6_r6_6_dust_points_are_the_dust_produced_spent_or_not():
    s = game(rolls=[[1] * 6, [1] * 6])
    p = s.players[0]
    set_fields(p, "AM1", [1, 1])
    play(s, "dust 1", "dust 1", "dust 1", "pay am1", "end", "dust 1")
    assert s.score_breakdown(0)["S2"] == 4


# --- §7 amplifier -----------------------------------------------------------------------------------

def test_s7_r7_1_levels_cost_1_2_3_dice_in_order_paid_in_one_round():
    s = game(rolls=[[1, 2, 3, 4, 5, 6], [1, 1, 1, 1, 1, 1]])
    p = s.players[0]
    play(s, "unlock 1")
    assert p.amp_level == 1
    play(s, "unlock 2")
    assert p.amp_level == 1 and p.amp_paid == 1
    # a level in progress must be finished first (R7.1 / A14)
    assert texts(s) == ["unlock 3", "unlock 4", "unlock 5", "unlock 6"]
    rejects(s, "dust 3", "AMP_WRONG_DICE_COUNT", "R7.1")
    rejects(s, "end", "AMP_WRONG_DICE_COUNT", "R7.1")
    play(s, "unlock 3")
    assert p.amp_level == 2
    # level 3 needs 3 dice this round; only 3 are left: allowed
    play(s, "unlock 4", "unlock 5", "unlock 6")
    assert p.amp_level == 3
    play(s, "end")
    rejects(s, "unlock 1", "AMP_MAX", "R7.1")
    assert not any(t.startswith("unlock") for t in texts(s))


def test_s7_r7_1_a_level_cannot_be_started_without_enough_dice_left():
    s = game(rolls=[[1, 1, 1, 1, 1, 1]])
    play(s, "unlock 1", "dust 1", "dust 1", "dust 1", "dust 1")
    rejects(s, "unlock 1", "AMP_WRONG_DICE_COUNT", "R7.1")   # level 2 costs 2, one die left
    assert "unlock 1" not in texts(s)


def test_s14_amplifier_partial_payment_spreads_a_level_over_rounds():
    s = game(rolls=[[1] * 6, [1] * 6], amplifier_partial_payment=True)
    p = s.players[0]
    play(s, "unlock 1", "unlock 1", "end")
    assert p.amp_level == 1 and p.amp_paid == 1
    play(s, "unlock 1")
    assert p.amp_level == 2 and p.amp_paid == 0


def test_s7_r7_2_amplify_a_complete_artifact_once_with_level_1_or_more():
    s = game(rolls=[[1, 2, 3, 4, 5, 6]])
    p = s.players[0]
    complete(p, "AM1")
    set_fields(p, "AM2", [1, 1])
    rejects(s, "amplify am1 2", "AMP_LOCKED", "R7.2")
    play(s, "unlock 1")
    rejects(s, "amplify am2 2", "NOT_COMPLETE", "R7.2")
    play(s, "amplify am1 6")
    assert p.amped == 1
    rejects(s, "amplify am1 2", "ALREADY_AMPLIFIED", "R7.2")


def test_s7_r7_3_amplified_artifacts_score_the_final_level_backwards():
    s = game(rolls=[[1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]])
    p = s.players[0]
    complete(p, "AM1", [1, 2])
    complete(p, "AM2", [1, 2])
    play(s, "unlock 1", "amplify am1 1")
    assert s.score_breakdown(0)["S3"] == 1
    play(s, "unlock 1", "unlock 1", "end", "unlock 1", "unlock 1", "unlock 1", "amplify am2 1")
    assert p.amp_level == 3
    assert s.score_breakdown(0)["S3"] == 6          # both amplified artifacts give +3


# --- §8 colours -------------------------------------------------------------------------------------

def test_s8_r8_1_a_box_needs_a_die_of_exactly_its_value_once_any_order_several_per_round():
    s = game(rolls=[[6, 4, 5, 6, 3, 2]])
    p = s.players[0]
    rejects(s, "upgrade green 3", "UPGRADE_VALUE", "R8.1")
    rejects(s, "upgrade green 1", "UPGRADE_VALUE", "R8.1")
    play(s, "upgrade green 6", "upgrade green 4", "upgrade green 5", "upgrade purple 6")
    assert p.level(0) == 3 and p.level(1) == 1
    rejects(s, "upgrade green 6", "UPGRADE_BOX_TAKEN", "R8.1")
    assert not any(t.startswith("upgrade") for t in texts(s))   # only 3 and 2 are left


def test_s8_r8_3_level_times_colour_fields_on_complete_artifacts_excerpt_example():
    s = game(rolls=R)
    p = s.players[0]
    from zs_helpers import mark

    mark(p, "green", 4, 6)
    complete(p, "AM1", [1, 2])      # 2 green
    complete(p, "WA1", [3, 4, 5])   # 2 green, 1 purple
    complete(p, "RE1", [4, 5, 4, 6])  # 2 green, 2 purple
    set_fields(p, "RE3", [4, 4, 4, 4])  # green fields on an unpaid artifact do not count
    assert s.score_breakdown(0)["S4"] == 12         # 2 boxes x 6 green fields


# --- §9 transmutation -------------------------------------------------------------------------------

def test_s9_r9_1_twice_per_game_to_another_value():
    s = game(rolls=[[1, 1, 1, 1, 1, 1], [2, 2, 2, 2, 2, 2]])
    p = s.players[0]
    rejects(s, "transmute 1 to 1", "SAME_VALUE", "R9.1")
    play(s, "transmute 1 to 6", "end", "transmute 2 to 5")
    assert p.trans_left == 0
    rejects(s, "transmute 2 to 4", "NO_TRANSMUTATIONS", "R9.1")
    assert not any(t.startswith("transmute") for t in texts(s))


def test_s9_r9_2_only_an_unused_die_it_stays_unused_and_can_open_a_colour_box():
    s = game(rolls=[[1, 2, 2, 2, 2, 2]])
    p = s.players[0]
    play(s, "dust 1")
    rejects(s, "transmute 1 to 6", "DIE_USED", "R9.2")
    play(s, "transmute 2 to 6")
    assert p.vals == [1, 6, 2, 2, 2, 2] and p.used[1] == ""
    play(s, "upgrade yellow 6")
    assert p.level(2) == 1


def test_s9_r9_3_private_to_the_player_and_both_in_one_round():
    s = game(players=2, rolls=[[1, 1, 1, 1, 1, 1]])
    play(s, "transmute 1 to 5", "transmute 1 to 6", "end")
    assert s.players[0].vals == [5, 6, 1, 1, 1, 1]
    assert s.players[1].vals == [1, 1, 1, 1, 1, 1]
    assert "upgrade green 5" not in texts(s)


def test_s11_no_interaction_between_sheets():
    s = game(players=2, rolls=[[4, 4, 4, 4, 4, 4]])
    play(s, "upgrade green 4", "charge re1 green 4", "end")
    assert "upgrade green 4" in texts(s) and "charge re1 green 4" in texts(s)


def test_action_texts_forgive_case_and_spacing_but_list_canonical_forms():
    s = game(rolls=R)
    a = s.parse_action("  Charge  AM1 GREEN 1 ")
    assert str(a) == "charge am1 green 1"
    s.apply("DUST   2")
    assert s.history == ["dust 2"]


def test_unknown_options_and_bad_values_are_config_errors():
    for bad in ({"harmony_mode": "both"}, {"harmony_min_fields": 0}, {"fresh_dust_divisible": 1},
                {"max_rounds": 0}, {"max_rounds": True}, {"rolls": [[1, 2, 3]]}, {"rolls": [[0] * 6]},
                {"dust_creator_ties": "coin"}, {"dust_creator_metric": "most"}, {"colour": "red"}):
        with pytest.raises(grimoire.GameConfigError):
            grimoire.new_game("zauberschmiede", players=1, seed=1, **bad)
    with pytest.raises(grimoire.GameConfigError):
        grimoire.new_game("zauberschmiede", players=9, seed=1)
    assert grimoire.new_game("zauberschmiede", players=1, seed=7).num_players == 1
    assert grimoire.new_game("zauberschmiede", players=8, seed=7).num_players == 8


def test_every_flag_is_saved_in_the_record():
    s = game()
    opts = s.record()["options"]
    for k in ("field_min_constraints", "fresh_dust_divisible", "harmony_mode", "harmony_min_fields",
              "amplifier_partial_payment", "dust_creator_metric", "dust_creator_ties", "max_rounds", "rolls"):
        assert k in opts


def test_end_all_helper_finishes_the_round():
    s = game(players=3, rolls=R)
    end_all(s)
    assert s.round == 2
