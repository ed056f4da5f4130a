"""Sections 7, 7.1-7.3 and 7.6 of the Zavandor spec: the player's turn, gems, knowledge, paying."""

import pytest

from grimoire.games.zavandor import decisions as D

from .helpers import (
    ACCUM,
    ARTS_T,
    DIAMOND,
    ELIXIR,
    FIRE,
    GEMS_T,
    OPAL,
    RUBY,
    SAPPHIRE,
    SPELLBOOK,
    WHITE,
    act,
    bank_pays,
    clear_gems,
    end_round,
    energy,
    fresh,
    give_art,
    give_gem,
    give_pentagon_token,
    illegal,
    obs_player,
    set_display,
    set_hand,
    set_level,
    set_order,
    texts,
)


# --- 7 phase 3: only the active player acts -----------------------------------------------------------------
def test_s7_turns_in_turn_order_one_full_turn_each():
    s = fresh(3, ["witch", "elf", "druid"])
    set_order(s, [2, 0, 1])
    seen = []
    r = s.round
    while s.round == r:
        if s.pending:
            s.apply("discard")
            continue
        seen.append(s.current_player)
        s.apply("end")
    assert seen == [2, 0, 1]


def test_s7_only_the_active_player_acts():
    s = fresh(2, ["witch", "elf"])
    assert s.current_player == 0
    assert s.observation(1).get("legal_actions") is None
    assert "legal_actions" in s.observation(0)


def test_s7_groups_may_be_skipped_and_actions_are_unlimited():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=200)
    act(s, "buy opal inactive", "buy opal inactive", "buy opal inactive", "buy sapphire inactive", "pay")
    assert s.players[0].inactive[OPAL] == 3 and s.players[0].inactive[SAPPHIRE] == 1
    act(s, "end")
    assert s.current_player == 1


# --- 7.1 sub-phases -----------------------------------------------------------------------------------------
def test_s7_1_strict_subphases_a_b_a_forbidden():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=200)
    act(s, "sell active opal", "advance gems")
    illegal(s, "buy opal", "7.1")
    illegal(s, "buy opal inactive", "7.1")
    illegal(s, "sell active sapphire", "7.1")
    assert not any(t.startswith(("buy ", "sell ")) for t in texts(s))


def test_s7_1_strict_subphases_b_a_b_forbidden():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=200)
    act(s, "token 20", "buy opal inactive")
    illegal(s, "token 25", "7.1")
    illegal(s, "advance gems", "7.1")


def test_s7_1_strict_subphases_c_a_c_forbidden():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [SPELLBOOK, 1])
    set_hand(s, 0, dust=300)
    act(s, "auction spellbook", "bid 20", "pass", "pay", "buy opal inactive")
    illegal(s, "auction runestone", "7.1")
    illegal(s, "auction owl", "7.1")


def test_s7_1_groups_in_any_order_each_once():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [SPELLBOOK, 1])
    set_hand(s, 0, dust=300)
    act(s, "auction spellbook", "bid 20", "pass", "pay")       # 3c
    act(s, "advance gems")                                   # 3b
    act(s, "buy emerald inactive", "buy opal inactive")      # 3a
    p = s.players[0]
    assert p.inactive[2] == 1 and p.inactive[OPAL] == 1 and p.levels[GEMS_T] == 2


def test_s7_1_several_auctions_are_one_group():
    s = fresh(3, ["witch", "elf", "druid"])
    set_display(s, [SPELLBOOK, 1, SPELLBOOK])
    set_hand(s, 0, dust=300)
    act(s, "auction spellbook", "bid 20", "pass", "pass", "pay")
    act(s, "auction spellbook", "bid 20", "pass", "pass", "pay")
    act(s, "auction runestone", "bid 20", "pass", "pass", "pay", "skip")
    assert s.players[0].arts[SPELLBOOK] == 2 and s.players[0].arts[1] == 1


def test_s7_1_activation_allowed_at_any_time_of_the_turn():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=200)
    give_gem(s, 0, OPAL, 1, active=False)
    act(s, "buy sapphire inactive", "advance gems")          # 3a closed, now in 3b
    act(s, "activate opal", "deactivate sapphire", "activate sapphire")
    act(s, "token 20")                                        # still 3b
    assert s.players[0].active == [3, 1, 0, 0, 0] and s.players[0].inactive == [0, 1, 0, 0, 0]


def test_s7_1_strict_subphases_false_allows_a_b_a():
    s = fresh(2, ["witch", "elf"], strict_subphases=False)
    set_hand(s, 0, dust=200)
    act(s, "sell active opal", "advance gems", "buy opal", "token 20", "buy sapphire inactive")
    p = s.players[0]
    assert p.active[OPAL] == 2 and p.inactive[SAPPHIRE] == 1 and p.levels[GEMS_T] == 2 and p.pentagon == 1


def test_s7_1_gem_sales_to_pay_an_auction_after_3a_was_closed():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [SPELLBOOK])
    set_hand(s, 0, dust=10)
    give_gem(s, 0, OPAL, 1, active=False)
    act(s, "buy opal inactive", "pay")                       # 3a done: 10 - 9, the 1 is lost
    assert s.players[0].dust == 0
    act(s, "auction spellbook", "bid 20", "pass")            # capacity: 4+4+4+4 (opals) + 9 = 25
    assert s.pending.top == D.won(0, SPELLBOOK)
    assert "pay" not in texts(s)                             # no energy: he must sell gems first
    act(s, "sell active sapphire", "sell opal", "sell opal")
    assert "pay" not in texts(s)                             # 17 < 20
    illegal(s, "pay", "7.6")
    act(s, "sell active opal")
    assert "pay" in texts(s)
    act(s, "pay")
    p = s.players[0]
    assert p.arts[SPELLBOOK] == 1 and p.dust == 0            # 21 - 20: the 1 is lost
    assert p.active == [1, 0, 0, 0, 0] and p.inactive == [0] * 5


# --- 7.2 gems -----------------------------------------------------------------------------------------------
def test_s7_2_buy_active_or_inactive():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=100)
    supply = s.gem_supply[:]
    act(s, "buy sapphire", "buy sapphire inactive", "pay")
    p = s.players[0]
    assert p.active[SAPPHIRE] == 2 and p.inactive[SAPPHIRE] == 1
    assert s.gem_supply[SAPPHIRE] == supply[SAPPHIRE] - 2
    assert p.dust == 100 - 36


def test_s7_2_active_gems_never_exceed_slots():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=200)
    act(s, "buy opal", "buy opal")
    assert sum(s.players[0].active) == 5
    assert "buy opal" not in texts(s) and "buy opal inactive" in texts(s)
    illegal(s, "buy opal", "7.2")
    act(s, "buy opal inactive")
    illegal(s, "activate opal", "7.2")
    act(s, "deactivate sapphire", "activate opal")
    assert s.players[0].active == [5, 0, 0, 0, 0] and s.players[0].inactive == [0, 1, 0, 0, 0]


def test_s7_2_activation_changes_vp_only_in_phase4():
    s = fresh(2, ["witch", "elf"])
    act(s, "deactivate sapphire", "deactivate opal")
    assert s.players[0].vp == 3 and s.observation(0)["zavandor"]["players"][0]["vp"] == 3
    end_round(s)
    assert s.players[0].vp == 1


def test_s7_2_sale_value_paid_as_dust_3_gives_2():
    s = fresh(2, ["witch", "elf"])
    set_level(s, 0, GEMS_T, 3)                   # opal cost 7, sale 3
    act(s, "sell active opal", "pay")
    assert s.players[0].dust == 2
    assert s.gem_supply[OPAL] == 28 - 4 + 1


def test_s7_2_sale_value_used_directly_in_a_payment():
    s = fresh(2, ["witch", "elf"])             # Gems 1: sapphire sells for 9, an opal costs 9
    act(s, "sell active sapphire", "buy opal inactive", "pay")
    p = s.players[0]
    assert p.dust == 0 and p.cards == [] and p.inactive[OPAL] == 1 and p.active[SAPPHIRE] == 0


def test_s7_2_sell_active_and_inactive():
    s = fresh(2, ["witch", "elf"])
    give_gem(s, 0, OPAL, 1, active=False)
    act(s, "sell opal")
    assert s.players[0].inactive[OPAL] == 0 and s.players[0].active[OPAL] == 2
    illegal(s, "sell opal", "7.2")
    act(s, "sell active opal")
    assert s.players[0].active[OPAL] == 1


def test_s7_2_cannot_buy_beyond_means():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=8)
    illegal(s, "buy opal inactive", "7.6")
    set_hand(s, 0, dust=9)
    act(s, "buy opal inactive")
    illegal(s, "buy opal inactive", "7.6")


# --- 7.3 knowledge ------------------------------------------------------------------------------------------
def test_s7_3_one_paid_advance_per_round():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=200)
    give_pentagon_token(s, 0, 20)
    act(s, "advance gems")
    illegal(s, "advance gems", "7.3")
    illegal(s, "advance fire", "7.3")
    act(s, "pay")
    illegal(s, "advance fire", "7.3")
    end_round(s)
    set_order(s, [0, 1])
    set_hand(s, 0, dust=200)
    act(s, "advance fire")
    assert s.players[0].levels[FIRE] == 1 and s.players[0].levels[GEMS_T] == 2


def test_s7_3_tokens_any_order_any_number():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=200)
    act(s, "token 40", "token 20", "token 30", "pay")
    p = s.players[0]
    assert p.tokens == [25, 35] and p.pentagon == 3 and p.dust == 110
    assert p.levels == [1, 0, 0, 0, 0, 0]       # buying a token is not an advance
    act(s, "advance artifacts")
    assert p.levels[ARTS_T] == 1 and p.pentagon == 2


def test_s7_3_new_track_costs_token_plus_level1():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=100)
    illegal(s, "advance fire", "7.3")            # no token on the pentagon
    act(s, "token 25", "advance fire", "pay")
    p = s.players[0]
    assert p.levels[FIRE] == 1 and p.pentagon == 0 and p.dust == 100 - 25 - 5


def test_s7_3_bought_token_waits_on_pentagon_for_a_later_turn():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=100)
    act(s, "advance gems", "token 35", "pay")
    assert s.players[0].pentagon == 1
    end_round(s)
    set_order(s, [0, 1])
    set_hand(s, 0, dust=100)
    act(s, "advance accumulation", "pay")
    p = s.players[0]
    assert p.levels[ACCUM] == 1 and p.pentagon == 0 and p.dust == 98


def test_s7_3_no_level_beyond_4():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=200)
    set_level(s, 0, GEMS_T, 4)
    illegal(s, "advance gems", "2.6")


def test_s7_3_at_most_six_tracks_one_token_each():
    s = fresh(2, ["witch", "elf"])
    for t in range(1, 6):
        set_level(s, 0, t, 1)
    set_hand(s, 0, dust=400)
    assert not any(t.startswith("token") for t in texts(s))
    assert s.players[0].tokens == []


def test_s7_3_advance_needs_the_energy():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=2)
    illegal(s, "advance gems", "7.6")
    set_hand(s, 0, dust=4)
    act(s, "advance gems", "pay")
    assert s.players[0].dust == 0


# --- 7.6 paying ---------------------------------------------------------------------------------------------
def test_s7_6_change_is_returned_in_dust():
    s = fresh(2, ["druid", "elf"])
    set_hand(s, 0, cards="16r")
    act(s, "buy opal inactive", "pay")
    assert s.players[0].cards == [] and s.players[0].dust == 6


def test_s7_6_change_of_1_is_lost():
    s = fresh(2, ["witch", "elf"])             # opal costs 9
    set_hand(s, 0, cards="10w")
    act(s, "buy opal inactive", "pay")
    assert s.players[0].dust == 0 and s.players[0].cards == []


def test_s7_6_change_of_3_gives_one_2_dust():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="12w")
    act(s, "buy opal inactive", "pay")
    assert s.players[0].dust == 2


def test_s7_6_default_payment_wastes_nothing_when_possible():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="10w 9g")
    act(s, "buy opal inactive", "pay")
    p = s.players[0]
    assert [c >> 2 for c in p.cards] == [10] and p.dust == 0


def test_s7_6_default_payment_smallest_hand_count():
    s = fresh(2, ["druid", "elf"])             # opal costs 10
    set_hand(s, 0, cards="5b 5g 10w")
    act(s, "buy opal inactive", "pay")
    assert [c >> 2 for c in s.players[0].cards] == [10]


def test_s7_6_explicit_payment_text():
    s = fresh(2, ["witch", "elf"])
    give_art(s, 0, ELIXIR)
    set_hand(s, 0, cards="15r 8g 8w", dust=14, conc=(0, 0, 1, 0))
    act(s, "buy diamond inactive", "buy opal inactive", "buy sapphire inactive")   # 36 + 9 + 18 = 63
    act(s, "pay 15 8g c40 d12")                                                   # 75: change 12
    p = s.players[0]
    assert [(c >> 2, c & 3) for c in p.cards] == [(8, WHITE)]
    assert p.conc == [0, 0, 0, 0]
    assert p.dust == 14 - 12 + 12
    assert p.inactive[DIAMOND] == 1


def test_s7_6_explicit_payment_must_cover_the_price():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="8g 7g", dust=4)
    act(s, "buy sapphire inactive")            # 18
    illegal(s, "pay 8g 7g", "7.6")
    illegal(s, "pay 9", "7.6")                 # not held
    illegal(s, "pay c20", "7.6")               # not held
    illegal(s, "pay 8g 7g d5", "7.6")          # only 4 dust
    illegal(s, "pay 8g 7g d3", "7.6")          # 3 dust cannot be handed over (no 1-dust)
    act(s, "pay 8g 7g d4")
    assert s.players[0].cards == [] and s.players[0].dust == 0


def test_s7_6_explicit_payment_change_3_and_1():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="12w 10w")
    act(s, "buy opal inactive", "pay 12w")
    assert s.players[0].dust == bank_pays(3) == 2
    act(s, "buy opal inactive", "pay 10w")
    assert s.players[0].dust == 2 + bank_pays(1) == 2


def test_s7_6_dust_cannot_leave_1_behind():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="9g", dust=5)
    act(s, "buy opal inactive")
    illegal(s, "pay 9g d4", "7.6")             # would leave 1 dust
    act(s, "pay 9g")
    assert s.players[0].dust == 5


def test_s7_6_combined_purchases_paid_together():
    # two opals (9 + 9) with a 10 and an 8: only possible paid together (separately: 1 lost, then 8 < 9)
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="10w 8g")
    act(s, "buy opal inactive", "buy opal inactive", "pay")
    p = s.players[0]
    assert p.inactive[OPAL] == 2 and p.cards == [] and p.dust == 0


def test_s7_6_combined_purchases_only_within_one_group_when_strict():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=100)
    act(s, "buy opal inactive")
    assert s.observation(0)["zavandor"]["tab"]["owed"] == 9
    act(s, "token 20")                          # 3b: the 3a purchase is paid first
    assert s.players[0].dust == 91
    assert s.observation(0)["zavandor"]["tab"]["owed"] == 20
    act(s, "advance fire")
    assert s.observation(0)["zavandor"]["tab"]["owed"] == 25
    act(s, "end")
    assert s.players[0].dust == 66 and s.observation(0)["zavandor"]["tab"] is None


def test_s7_6_auction_price_is_paid_on_its_own():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [SPELLBOOK])
    set_hand(s, 0, dust=100)
    act(s, "buy opal inactive")
    act(s, "auction spellbook")
    assert s.players[0].dust == 91 and s.observation(0)["zavandor"]["tab"] is None
    act(s, "bid 20", "pass")
    assert s.pending.top.kind == "apay"
    act(s, "pay")
    assert s.players[0].dust == 71


def test_s7_6_end_pays_an_open_purchase_the_default_way():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="10w 9g")
    act(s, "buy opal inactive", "end")
    p = s.players[0]
    assert [c >> 2 for c in p.cards] == [10] and s.current_player == 1


def test_s7_6_energy_is_fungible_across_colours():
    s = fresh(2, ["witch", "elf"])
    set_level(s, 0, FIRE, 4)
    set_hand(s, 0, cards="5b 10g 12w 13r", dust=14)
    act(s, "buy ruby inactive", "pay 5b 10g 12w 13r d14")
    assert s.players[0].inactive[RUBY] == 1 and s.players[0].dust == 0


@pytest.mark.parametrize("dust", [0, 2, 4, 5, 7, 10, 12])
def test_s7_6_final_dust_never_1_or_3(dust):
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="10w 11w", dust=dust)
    act(s, "buy opal inactive", "pay")
    d = s.players[0].dust
    assert d not in (1, 3)
    before = dust + 21
    assert energy(s.players[0]) in (before - 9, before - 10)


def test_s7_6_obs_capacity_and_energy():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="10w", dust=12, conc=(1, 0, 0, 0))
    o = obs_player(s, 0, 0)
    assert o["energy"] == 42
    assert o["capacity"] == 42 + 4 + 4 + 9
    assert "energy" not in obs_player(s, 0, 1) and "card_values" not in obs_player(s, 0, 1)
    assert obs_player(s, 0, 1)["cards"]["white"] == 1                    # colour and count are public
    give_gem(s, 0, SAPPHIRE, 1, active=False)
    assert obs_player(s, 0, 0)["capacity"] == 42 + 4 + 4 + 9 + 9
    set_level(s, 0, GEMS_T, 4)
    assert obs_player(s, 0, 0)["capacity"] == 42 + 3 + 3 + 6 + 6


def test_s7_1_sale_value_carried_into_another_group_never_dead_ends():
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 0)
    give_gem(s, 0, OPAL, 1)
    set_level(s, 0, GEMS_T, 3)                      # an opal sells for 3
    give_pentagon_token(s, 0)
    act(s, "sell active opal")
    for t in texts(s):
        c = s.clone()
        c.apply(t)
        assert c.legal_actions(), f"after {t!r} the player has no legal action"


def test_s7_1_sale_value_is_paid_out_when_the_group_closes():
    s = fresh(2, ["witch", "elf"])
    set_level(s, 0, GEMS_T, 3)
    give_pentagon_token(s, 0)
    set_hand(s, 0, dust=10)
    act(s, "sell active opal", "advance flow")      # 3a closes: the sale (3) is paid out as a 2-dust (7.2)
    assert s.players[0].dust == 12 and s.observation(0)["zavandor"]["tab"]["owed"] == 3
    act(s, "pay")
    assert s.players[0].dust == 9
