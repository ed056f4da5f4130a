"""Spec 11: ranged combat — range in blocks, the ranged defence 2 x (B + W + N + L) + d10, blocked
shots, the gladiator's armour against bolts and daggers, ammunition, javelins and nets."""

from __future__ import annotations

import pytest

from grimoire.core.errors import IllegalAction

from .helpers import arena, fig, no_dodge, roll, texts, wield


def _exposed_b(s, lost=2):
    fig(s, "bgl").stp = fig(s, "bgl").stp_max - lost


def test_ranged_defence_over_walls_and_block_borders():
    """20.1.10's check line (0,11) -> (0,3): B = 4, W = 2: defence 12 + d10."""
    s = arena({"axb": (0, 11), "bgl": (0, 3)}, named=("xb",))
    _exposed_b(s)
    roll(s, 10, 1)                  # 13 + 10 = 23 against 12 + 1 = 13: 5 Sp, metal SFE 2 -> 3 Ep
    s.apply("xb shoot bgl")
    no_dodge(s)
    assert fig(s, "bgl").ep == 18 - 3
    assert fig(s, "bgl").stp == 4   # ranged weapons never cost STP (D12.4)
    assert fig(s, "axb").ammo == 9


def test_open_gates_add_no_wall():
    s = arena({"axb": (0, 11), "bgl": (0, 3)}, named=("xb",), gates_open=("M0", "I0"))
    _exposed_b(s)
    roll(s, 1, 5)                   # 14 against 2 x 4 + 5 = 13: a hit
    s.apply("xb shoot bgl")
    no_dodge(s)
    s2 = arena({"axb": (0, 11), "bgl": (0, 3)}, named=("xb",))
    _exposed_b(s2)
    roll(s2, 1, 5)                  # walls closed: 14 against 2 x 6 + 5 = 17: a miss
    s2.apply("xb shoot bgl")
    no_dodge(s2)
    assert "14 against bgl's 5: 13 -> hit" in s.observation(0)["shuluri"]["events"][-1]
    assert "14 against bgl's 5: 17 -> miss" in s2.observation(0)["shuluri"]["events"][-1]


def test_others_on_the_target_field_and_figures_in_line():
    # target bd1 at (0,5), two more on its field (N = 2), one in the line at (0,7) (L = 1)
    s = arena({"axb": (0, 8), "bd1": (0, 5), "bd2": (0, 5), "bwl": (0, 5), "ad1": (0, 7)}, named=("xb",))
    from grimoire.games.shuluri.sight import line_of_fire, others_on_field

    from .helpers import F
    shot = line_of_fire(s, F(0, 8), F(0, 5), fig(s, "axb").id, fig(s, "bd1").id)
    assert shot.in_line == 1
    assert others_on_field(s, F(0, 5), fig(s, "bd1").id) == 2
    fig(s, "ad1").sneak = 1         # sneaking figures do not count in the line
    shot = line_of_fire(s, F(0, 8), F(0, 5), fig(s, "axb").id, fig(s, "bd1").id)
    assert shot.in_line == 0


def test_n_is_at_most_two():
    from grimoire.games.shuluri.sight import others_on_field

    from .helpers import F
    s = arena({"bd1": (0, 5), "bd2": (0, 5), "bwl": (0, 5)})
    assert others_on_field(s, F(0, 5), fig(s, "bd1").id) == 2


def test_quarter_wall_blocks_the_shot():
    s = arena({"axb": (4, 3), "bd1": (7, 0)}, named=("xb",))
    with pytest.raises(IllegalAction, match="NO_LINE_OF_FIRE"):
        s.apply("xb shoot bd1")


def test_a_body_in_an_open_gate_blocks():
    s = arena({"axb": (0, 11), "bd1": (0, 6), "ad2": (0, 8)}, named=("xb",), gates_open=("M0",))
    with pytest.raises(IllegalAction, match="blocks gate M0"):
        s.apply("xb shoot bd1")
    fig(s, "ad2").sneak = 2                 # unless it hides there
    assert "xb shoot bd1" in texts(s)


def test_range_in_blocks():
    s = arena({"ad1": (0, 5), "bxb": (0, 9)}, named=("d1",))       # blocks (1,1) and (1,3): distance 2
    assert "d1 shoot bxb" in texts(s)
    s = arena({"ad1": (0, 5), "bxb": (0, 11)}, named=("d1",))      # blocks (1,1) and (2,3): distance 3
    with pytest.raises(IllegalAction, match="OUT_OF_RANGE"):
        s.apply("d1 shoot bxb")


def test_target_on_own_field_is_melee():
    s = arena({"axb": (1, 6), "bd1": (1, 6)}, named=("xb",))
    with pytest.raises(IllegalAction, match="TARGET_SAME_FIELD"):
        s.apply("xb shoot bd1")


@pytest.mark.parametrize("gtype,xb_after,dagger_after", [("heavy", 2, 4), ("sword_artist", 1, 2)])
def test_gladiator_armour_against_bolts_and_daggers(gtype, xb_after, dagger_after):
    s = arena({"axb": (0, 6), "ad1": (0, 5), "bgl": (0, 3)}, named=("xb", "d1"), gladiator_type=gtype)
    g = fig(s, "bgl")
    for lost in range(0, g.stp_max + 1):
        g.stp = g.stp_max - lost
        assert ("xb shoot bgl" in texts(s)) == (lost >= xb_after)
        assert ("d1 shoot bgl" in texts(s)) == (lost >= dagger_after)
    g.stp = g.stp_max
    with pytest.raises(IllegalAction, match="GLADIATOR_NOT_EXPOSED"):
        s.apply("xb shoot bgl")


def test_futile_shots_with_the_flag():
    s = arena({"axb": (0, 6), "bgl": (0, 3)}, named=("xb",), allow_futile_ranged=True)
    roll(s, 10, 1)
    s.apply("xb shoot bgl")
    assert fig(s, "bgl").ep == 18


def test_ammunition_runs_out():
    s = arena({"axb": (0, 8), "bd1": (0, 5)}, named=("xb",))
    fig(s, "axb").ammo = 0
    with pytest.raises(IllegalAction, match="NO_AMMO"):
        s.apply("xb shoot bd1")


def test_aiming_adds_three():
    # (0,8), (0,7), (0,6) share block (1,2): no border, no wall, nobody in line: defence = d10
    s = arena({"axb": (0, 8), "bd1": (0, 6)}, named=("xb",))
    s.apply("xb aim")
    roll(s, 1, 10)                  # 13 + 3 + 1 = 17 against 10: 3 Sp, leather SFE 1 -> 2 Ep
    s.apply("xb shoot bd1")
    assert fig(s, "bd1").ep == 10
    assert not fig(s, "axb").aim    # used up by that attack


def test_sneaking_target_only_from_within_one_block():
    s = arena({"axb": (0, 11), "bd1": (0, 6)}, named=("xb",), gates_open=("M0",))
    fig(s, "bd1").sneak = 1
    with pytest.raises(IllegalAction, match="within 1 block"):
        s.apply("xb shoot bd1")


def test_javelin_needs_a_free_hand_and_uses_melee_values():
    s = arena({"agl": (0, 0), "bgl": (0, 3)}, kind="glad")
    with pytest.raises(IllegalAction, match="free hand"):
        s.apply("gl javelin bgl")
    s.apply("gl drop")              # the shield: sword in hand, one hand free
    roll(s, 10, 1)                  # 15 + 10 = 25 against the sword-and-shield's VE 13 + 1 = 14
    s.apply("gl javelin bgl")
    no_dodge(s)
    assert fig(s, "agl").javelins == 2
    assert fig(s, "bgl").ep == 18 - (11 // 2 - 2)
    assert s.gpool == 4


def test_gladiator_throws_only_into_the_central_circle():
    s = arena({"agl": (0, 4), "bxb": (0, 5)}, kind="glad")
    wield(s, "agl", "halberd")
    s.apply("gl drop")
    with pytest.raises(IllegalAction, match="ZONE_FORBIDDEN"):
        s.apply("gl javelin bxb")


def test_net_takes_the_next_step():
    s = arena({"agl": (0, 0), "bgl": (0, 2)}, kind="glad")
    s.apply("gl drop")
    roll(s, 10, 1)
    s.apply("gl net bgl")
    no_dodge(s)
    assert fig(s, "bgl").netted and fig(s, "bgl").ep == 18
    from grimoire.games.shuluri.values import available
    s.apply("end")
    while not (s.active == 1 and s.sched[s.step_i][1] == "glad" and s.stack.top.kind == "act"):
        s.apply("end")
    assert available(s, fig(s, "bgl")) == 0
    assert set(texts(s)) <= {"end", "gl drop"}          # dropping is free (R36)
