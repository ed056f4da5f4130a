"""Spec §10: end-of-game scoring S1-S8, harmony and dust-creator variants, winners and ties."""

from zs_helpers import ART, complete, game, mark, set_fields

R = [[1, 2, 3, 4, 5, 6]] * 7


def bd(state, seat=0):
    return state.score_breakdown(seat)


def test_s10_s1_artifact_base_values_of_complete_artifacts():
    s = game(rolls=R)
    p = s.players[0]
    complete(p, "AM1", [1, 2])
    complete(p, "RE2", [4, 5, 6, 4])
    complete(p, "BK", [5, 6, 5])
    set_fields(p, "SP1", [3, 3])
    assert bd(s)["S1"] == 4 + 10 + 12


def test_s10_s2_dust_is_the_sum_of_the_seven_blue_boxes():
    s = game(rolls=R)
    s.players[0].boxes = [1, 0, 3, 0, 2, 0, 1]
    assert bd(s)["S2"] == 7


def test_s10_s3_final_level_times_amplified_artifacts():
    s = game(rolls=R)
    p = s.players[0]
    complete(p, "AM1", [1, 2], amplified=True)
    complete(p, "PO1", [2, 3], amplified=True)
    complete(p, "PO2", [2, 3])
    p.amp_level = 2
    assert bd(s)["S3"] == 4


def test_s10_s4_colour_upgrades_per_colour_level_times_fields():
    s = game(rolls=R)
    p = s.players[0]
    complete(p, "RE1", [4, 5, 4, 5])     # 2 green 2 purple
    complete(p, "BK", [5, 6, 5])         # 1 each
    mark(p, "green", 4, 5, 6)            # 3 x 3 green fields
    mark(p, "purple", 5)                 # 1 x 3 purple fields
    mark(p, "yellow", 4, 5)              # 2 x 1 yellow field
    assert bd(s)["S4"] == 9 + 3 + 2


def test_s10_s5_a_set_scores_the_sum_of_its_bases_only_when_all_are_complete():
    s = game(rolls=R)
    p = s.players[0]
    complete(p, "AM1", [1, 2])
    complete(p, "AM2", [1, 2])
    assert bd(s)["S5"] == 0
    complete(p, "AM3", [1, 2])
    assert bd(s)["S5"] == 12
    for a in ("SP1", "SP2", "SP3"):
        complete(p, a, [3, 4])
    assert bd(s)["S5"] == 12 + 24


def test_s10_s5_the_book_is_not_a_set():
    s = game(rolls=R)
    complete(s.players[0], "BK", [5, 6, 5])
    assert bd(s)["S5"] == 0


def test_s10_s6_all_artifacts_of_a_colour_30_per_colour_adding_up():
    s = game(rolls=R)
    p = s.players[0]
    green = ["AM1", "PO1", "PO3", "WA1", "WA3", "SP1", "SP3", "RE1", "RE3", "BK"]
    for a in green[:-1]:
        complete(p, a, [6] * len(ART[a].fields))
    assert bd(s)["S6"] == 0
    complete(p, "BK", [6, 6, 6])
    assert bd(s)["S6"] == 30
    for a in ART:
        complete(p, a, [6] * len(ART[a].fields))
    assert bd(s)["S6"] == 90


def test_s10_r10_1_harmony_per_artifact_and_colour_needs_two_equal_fields():
    s = game(rolls=R)
    p = s.players[0]
    complete(p, "AM1", [3, 3])            # harmony green: +4
    complete(p, "AM2", [3, 4])            # no
    complete(p, "RE1", [4, 4, 5, 5])      # green and purple: +10 +10
    complete(p, "WA1", [3, 3, 6])         # green pair: +7 (the single purple field does not count)
    complete(p, "PO1", [2, 2])            # single fields per colour: nothing
    complete(p, "BK", [5, 5, 5])          # single fields: nothing
    set_fields(p, "AM3", [2, 2])          # not complete: nothing
    assert bd(s)["S7"] == 4 + 20 + 7


def test_s14_harmony_min_fields_1_counts_single_fields():
    s = game(rolls=R, harmony_min_fields=1)
    p = s.players[0]
    complete(p, "PO1", [2, 3])            # green single and purple single: 2 x 5
    complete(p, "AM1", [3, 4])            # unequal pair: nothing
    assert bd(s)["S7"] == 10


def test_s14_harmony_global_all_fields_of_a_colour_on_complete_artifacts():
    s = game(rolls=R, harmony_mode="global")
    p = s.players[0]
    complete(p, "AM1", [3, 3])            # green 3 3
    complete(p, "PO1", [3, 2])            # green 3, purple 2
    complete(p, "AM2", [2, 4])            # purple 2 4 -> purple not harmonic
    # green: fields 3,3,3 on AM1 and PO1 -> bases 4 + 5
    assert bd(s)["S7"] == 9
    s2 = game(rolls=R, harmony_mode="global")
    complete(s2.players[0], "PO1", [3, 2])     # one green field only: below the 2-field minimum
    assert bd(s2)["S7"] == 0


def test_s10_r10_2_solo_dust_creator_more_than_ten():
    s = game(rolls=R)
    p = s.players[0]
    p.boxes = [2, 2, 2, 2, 2, 0, 0]
    assert bd(s)["S8"] == 0
    p.boxes = [2, 2, 2, 2, 2, 1, 0]
    assert bd(s)["S8"] == 15


def test_s10_r10_2_multiplayer_most_dust_ties_share_zero_gives_nothing():
    s = game(players=3, rolls=R)
    assert [b["S8"] for b in s.score_breakdown()] == [0, 0, 0]
    s.players[0].boxes[0] = 3
    s.players[1].boxes[0] = 2
    assert [b["S8"] for b in s.score_breakdown()] == [15, 0, 0]
    s.players[1].boxes[1] = 1
    assert [b["S8"] for b in s.score_breakdown()] == [15, 15, 0]


def test_s14_dust_creator_ties_none_awards_nobody_on_a_tie():
    s = game(players=2, rolls=R, dust_creator_ties="none")
    s.players[0].boxes[0] = 3
    s.players[1].boxes[0] = 3
    assert [b["S8"] for b in s.score_breakdown()] == [0, 0]
    s.players[1].boxes[1] = 1
    assert [b["S8"] for b in s.score_breakdown()] == [0, 15]


def test_s14_dust_creator_metric_unspent_compares_stocks_and_fresh_dust():
    s = game(players=2, rolls=R, dust_creator_metric="unspent")
    a, b = s.players
    a.boxes[0] = 5          # produced more ...
    a.stock[0] = 1          # ... but spent most
    b.boxes[0] = 3
    b.stock[0] = 3
    assert [x["S8"] for x in s.score_breakdown()] == [0, 15]
    solo = game(rolls=R, dust_creator_metric="unspent")
    solo.players[0].boxes = [11, 0, 0, 0, 0, 0, 0]        # solo always counts dust produced
    assert solo.score_breakdown(0)["S8"] == 15


def test_s10_total_is_the_sum_of_s1_to_s8():
    s = game(rolls=R)
    p = s.players[0]
    complete(p, "AM1", [3, 3], amplified=True)
    complete(p, "AM2", [1, 1])
    complete(p, "AM3", [2, 2])
    p.amp_level = 3
    mark(p, "green", 4)
    p.boxes = [6, 5, 0, 0, 0, 0, 0]
    b = bd(s)
    assert b == {"S1": 12, "S2": 11, "S3": 3, "S4": 2, "S5": 12, "S6": 0, "S7": 12, "S8": 15, "total": 67}
    assert s.scores() == [67]


def test_s10_r10_3_highest_total_wins_and_ties_are_shared():
    s = game(players=3, rolls=R)
    for _ in range(7):
        for _ in range(3):
            s.apply("end")
    assert s.is_terminal()
    assert s.winners() == [0, 1, 2]           # everybody 0
    s2 = game(players=2, rolls=[[1] * 6] * 7)
    s2.apply("dust 1")
    while not s2.is_terminal():
        s2.apply("end")
    assert s2.scores() == [1 + 15, 0]
    assert s2.winners() == [0]


def test_s10_winners_empty_until_the_end():
    s = game(players=2)
    assert s.winners() == []
