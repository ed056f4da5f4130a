"""Spec 16 and 20.5: ranged traps on the numbered fields, direct traps in the enemy's step, gate-bound
cards, the central circle, and the windows that let the other side spring them."""

from __future__ import annotations

import pytest

from grimoire.core.errors import IllegalAction
from grimoire.games.shuluri import board as B

from .helpers import F, arena, fig, roll, texts

XB = 2      # figure id of axb (seat 0 * 5 + role 2)


def test_ranged_trap_needs_its_holder_to_enter_the_field_this_step():
    s = arena({"axb": (1, 6), "bd1": (3, 4)}, named=("xb",), hands={0: [[1, XB]]})
    with pytest.raises(IllegalAction, match="TRAP_WRONG_FIELD"):
        s.apply("trap 1 bd1")                       # standing there since before the step (R11)
    s = arena({"axb": (1, 5), "bd1": (3, 4)}, named=("xb",), hands={0: [[1, XB]]})
    s.apply("xb move ne")
    assert "trap 1 bd1" in texts(s)
    s.apply("trap 1 bd1")                           # Dart Battery: 3 Sp, may cost STP
    assert fig(s, "bd1").ep == 10 and fig(s, "bd1").stp == 2
    assert s.teams[0].played == [1] and s.teams[0].hand == []


def test_ranged_trap_without_the_entry_rule():
    s = arena({"axb": (1, 6), "bd1": (3, 4)}, named=("xb",), hands={0: [[1, XB]]},
              ranged_trap_requires_entry=False)
    assert "trap 1 bd1" in texts(s)


def test_only_the_holder_activates_unless_cards_belong_to_the_team():
    s = arena({"ad1": (1, 5), "bd1": (3, 4)}, named=("d1",), hands={0: [[1, XB]]})
    s.apply("d1 move ne")
    assert "trap 1 bd1" not in texts(s)
    with pytest.raises(IllegalAction, match=r"\[TRAP_NOT_HOLDER\].*rule T16\.3"):
        s.apply("trap 1 bd1")                       # he entered the field: the card is not his (R20)
    s = arena({"ad1": (1, 5), "bd1": (3, 4)}, named=("d1",), hands={0: [[1, -1]]},
              traps_assigned_to_character=False)
    s.apply("d1 move ne")
    assert "trap 1 bd1" in texts(s)


def test_quarter_reach_and_no_trap_in_c():
    s = arena({"axb": (1, 5), "bd1": (-8, 3), "bxb": (0, 10)}, named=("xb",), hands={0: [[1, XB]]})
    s.apply("xb move ne")
    assert "trap 1 bxb" in texts(s)                 # R2 of quarter 0: same quarter
    assert "trap 1 bd1" not in texts(s)             # quarter 1
    assert "trap 1 bgl" not in texts(s)             # the central circle (T16.7)


def test_block_reach_cards():
    s = arena({"axb": (8, -4), "bd1": (8, -1)}, named=("xb",), hands={0: [[7, XB]]})
    s.apply("xb move ne")                           # (8,-3) is trap field 7
    assert B.block_distance(F(8, -3), F(8, -1)) <= 3
    roll(s, 10, 1)                                  # Sleeping Gas: 6 + 10 against Eg 4 + 1
    s.apply("trap 7 bd1")
    assert fig(s, "bd1").next_no_man


def test_swinging_beam_moves_the_target():
    s = arena({"axb": (12, -7), "bd1": (12, -4)}, named=("xb",), hands={0: [[8, XB]]})
    s.apply("xb move ne")
    s.apply("trap 8 bd1")
    assert fig(s, "bd1").ep == 12 - 3 and s.stack.top.kind == "shove" and s.current_player == 0
    d = texts(s)[0]
    s.apply(d)
    assert fig(s, "bd1").field != F(12, -4)


def test_direct_trap_window_after_each_enemy_move():
    s = arena({"axb": (1, 6)}, named=("xb",), hands={1: [[10, 5 + 2]]})
    s.apply("xb move ne")
    assert s.stack.top.kind == "react" and s.current_player == 1
    assert texts(s) == ["pass", "pass all", "trap 10"]
    s.apply("trap 10")                              # Scything Blade: 4 Sp from the strategist's MAN
    assert fig(s, "axb").ep == 12 - 3 and s.teams[1].strat == 1
    assert s.current_player == 0


def test_pass_all_closes_the_windows_for_the_step():
    s = arena({"axb": (1, 6)}, named=("xb",), hands={1: [[10, 7]]})
    s.apply("xb move ne")
    s.apply("pass all")
    s.apply("xb move sw")
    assert s.stack.top.kind == "act"


def test_windows_open_on_public_facts_only():
    """No cards in hand or no strategist MAN: no window (both facts are public)."""
    s = arena({"axb": (1, 6)}, named=("xb",), hands={1: [[10, 7]]})
    s.teams[1].strat = 0
    s.apply("xb move ne")
    assert s.stack.top.kind == "act"


def test_direct_trap_paid_only_by_the_strategist():
    s = arena({"axb": (1, 6)}, named=("xb",), hands={1: [[9, 7]]})
    s.teams[1].strat = 2
    s.apply("xb move ne")
    assert "trap 9" not in texts(s)                 # Pit costs 3


def test_pit_ends_the_movement():
    s = arena({"axb": (1, 6), "bd1": (2, 6)}, named=("xb",), hands={1: [[9, 7]]})
    s.apply("xb move ne")
    s.apply("trap 9")
    assert fig(s, "axb").stopped
    with pytest.raises(IllegalAction, match="movement has ended"):
        s.apply("xb move ne")


def test_gate_bound_traps_strike_at_gates():
    s = arena({"axb": (0, 8)}, named=("xb",), hands={1: [[11, 7], [10, 8]]})
    s.apply("xb open M0")
    assert texts(s) == ["pass", "pass all", "trap 11"]  # a gate action is no movement: not card 10
    s.apply("trap 11")
    assert fig(s, "axb").ep == 10


def test_falling_portcullis_slams_the_gate_and_sends_the_mover_back():
    s = arena({"axb": (0, 8)}, named=("xb",), hands={1: [[12, 7]]}, gates_open=("M0",))
    s.apply("xb move ne")                           # through M0 to (0,9)
    s.apply("trap 12")
    g = B.GATE_BY_ID["M0"]
    assert not s.gate_open[g] and s.gate_jam[g] == s.round + 1
    assert fig(s, "axb").field == F(0, 8) and fig(s, "axb").stopped
    with pytest.raises(IllegalAction, match="jammed"):
        s.apply("xb open M0")


def test_no_trap_in_c_except_the_erupting_spring():
    s = arena({}, kind="glad", hands={1: [[10, 7], [16, 8]]})
    s.apply("gl move e")
    assert texts(s) == ["pass", "pass all", "trap 16"]
    s.apply("trap 16")
    assert fig(s, "agl").ep == 15 and fig(s, "agl").stopped


def test_poison_needle_and_the_neutralizer():
    s = arena({"axb": (1, 6)}, named=("xb",), hands={1: [[14, 7]]})
    fig(s, "axb").amulet = 0
    s.apply("xb move ne")
    s.apply("trap 14")
    assert fig(s, "axb").ep == 12 and fig(s, "axb").amulet_shown


def test_oil_slick_until_the_end_of_the_round():
    from grimoire.games.shuluri.values import ve
    s = arena({"axb": (1, 6)}, named=("xb",), hands={1: [[15, 7]]})
    s.apply("xb move ne")
    s.apply("trap 15")
    assert ve(s, fig(s, "axb")) == 6 and fig(s, "axb").effects[0].end == s.round


def test_ranged_trap_cannot_be_played_as_direct_and_vice_versa():
    s = arena({"axb": (1, 6)}, named=("xb",), hands={0: [[10, XB]]})
    with pytest.raises(IllegalAction, match="TRAP_TIMING"):
        s.apply("trap 10")


def test_kitoro_forras_as_a_ranged_trap():
    s = arena({"axb": (1, 5)}, named=("xb",), hands={0: [[16, XB]]}, kitoro_forras_kind="ranged")
    s.apply("xb move ne")
    assert "trap 16 bgl" in texts(s)


def test_sixteen_cards_eight_of_each_kind():
    from grimoire.games.shuluri.data import DIRECT_TRAPS, RANGED_TRAPS, TRAPS
    assert len(TRAPS) == 16 and RANGED_TRAPS == tuple(range(1, 9)) and DIRECT_TRAPS == tuple(range(9, 17))
    assert all(t.cost <= 4 for t in TRAPS.values())


def test_a_non_holder_off_the_field_is_told_the_field_is_wrong():
    s = arena({"ad1": (2, 5), "bd1": (3, 4)}, named=("d1",), hands={0: [[1, XB]]})
    s.apply("d1 move ne")                           # (2,5) -> (2,6): not trap field 1
    with pytest.raises(IllegalAction, match="TRAP_WRONG_FIELD"):
        s.apply("trap 1 bd1")
