"""Spec 8: the cost of every action in MAN."""

from __future__ import annotations

from grimoire.games.shuluri import board as B

from .helpers import arena, fig, roll


def _spent(s, text):
    before = s.pool + s.teams[0].strat + s.gpool
    s.apply(text)
    return before - (s.pool + s.teams[0].strat + s.gpool)


def test_move_costs_one():
    s = arena({"axb": (1, 6)}, named=("xb",))
    assert _spent(s, "xb move ne") == 1


def test_gate_costs_one():
    s = arena({"axb": (0, 8)}, named=("xb",))
    assert _spent(s, "xb open M0") == 1
    assert s.gate_open[B.GATE_BY_ID["M0"]]
    assert _spent(s, "xb close M0") == 1


def test_attack_costs_two():
    s = arena({"axb": (1, 6), "bd1": (1, 6)}, named=("xb",))
    roll(s, 1, 10)
    assert _spent(s, "xb attack bd1") == 2


def test_disengage_costs_two_plus_the_move():
    s = arena({"axb": (1, 6), "bd1": (1, 6)}, named=("xb",))
    assert _spent(s, "xb disengage ne") == 3


def test_weapon_change_and_pick_up_cost_one_drop_is_free():
    s = arena({}, kind="glad")
    g = fig(s, "agl")
    g.field = s.teams[0].heaps[0]
    assert _spent(s, "gl drop") == 0
    assert _spent(s, "gl pickup") == 1
    other = next(a.text for a in s.legal_actions() if a.text.startswith("gl wield"))
    assert _spent(s, other) == 1


def test_cast_costs_the_level():
    s = arena({"awl": (1, 6), "bxb": (2, 6)}, named=("wl",))
    s.teams[0].discs = [2]
    roll(s, 1, 1)
    assert _spent(s, "wl cast pain bxb") == 2


def test_trap_costs_the_card():
    s = arena({"axb": (1, 5), "bd1": (3, 4)}, named=("xb",), hands={0: [[1, 2]]})
    s.apply("xb move ne")          # enters trap field 1 at (1,6)
    assert _spent(s, "trap 1 bd1") == 2
