"""Figures that act by themselves: zombies (spell 15, R31) and madmen (spell 28, R35)."""

from __future__ import annotations

from grimoire.games.shuluri import board as B
from grimoire.games.shuluri.damage import hurt_ep
from grimoire.games.shuluri.flow import advance
from grimoire.games.shuluri.magic import madness

from .helpers import F, arena, fig, roll


def _zombie(s, body: str, at: tuple[int, int]):
    """Raise a zombie for seat 0 from ``body`` lying at ``at`` (its creator: awl)."""
    b = fig(s, body)
    b.field = F(*at)
    if b.alive:
        hurt_ep(s, b, 99)
    from grimoire.games.shuluri.data import ZOMBIE_MAN
    from grimoire.games.shuluri.fig import new_zombie
    zid = 5 * s.num_players + b.id
    z = new_zombie(zid, b, 0, fig(s, "awl").id, b.field)
    z.zman = ZOMBIE_MAN
    b.raised = True
    s.figs[zid] = z
    return z


def test_zombie_moves_at_most_three_fields_per_round():
    s = arena({"awl": (1, 6), "ad2": (1, 5), "bxb": (5, 2)}, named=("wl",))
    z = _zombie(s, "ad2", (1, 5))
    s.apply("end")
    assert z.zfields == 3 and z.zman == 0
    assert B.distance(z.field, F(1, 5)) == 3


def test_zombie_of_a_dead_creator_acts_in_the_owners_first_step():
    s = arena({"awl": (1, 6), "ad2": (1, 5), "ad1": (2, 5), "bxb": (4, 3)}, named=("d1",), kind="pair2")
    z = _zombie(s, "ad2", (1, 5))
    hurt_ep(s, fig(s, "awl"), 99)
    start = z.field
    s.apply("end")                  # the creator is dead: the zombie acts in its owner's first step only
    assert z.field == start
    while not (s.round == 2 and s.active == 0 and s.stack.top.kind == "act"):
        s.apply("end" if s.stack.top.kind == "act" else s.legal_actions()[0].text)
    assert z.field == start
    s.apply("end")
    assert z.field != start


def test_zombie_guards_a_field():
    s = arena({"awl": (1, 6), "ad2": (1, 5), "bd1": (0, 8), "bxb": (3, 4)}, named=("wl",))
    z = _zombie(s, "ad2", (1, 5))
    z.order = ("guard", F(0, 7))
    s.apply("end")
    assert z.field == F(0, 7) and not z.attacked
    assert z.order == ("guard", F(0, 7))           # a guard order is never fulfilled


def test_zombie_goto_is_fulfilled_on_arrival():
    s = arena({"awl": (1, 6), "ad2": (1, 5), "bxb": (4, 3)}, named=("wl",))
    z = _zombie(s, "ad2", (1, 5))
    z.order = ("goto", F(0, 6))
    s.apply("end")
    assert z.order is None          # reached (0,6) with its first field: fulfilled, back to its default


def test_madman_shoots_when_it_can():
    s = arena({"bd1": (0, 7), "ad1": (0, 10), "bd2": (3, 4)}, active=1, named=("d1", "d2"))
    madness(s, fig(s, "bd1"), fig(s, "bwl").id, fig(s, "ad1").id)
    v = fig(s, "bd1")
    v.mad_man = 4
    s.stack.clear()
    s.sub = "mad"
    roll(s, 1, 10)
    advance(s)
    assert v.attacked and v.ammo == 7 and v.mad_man == 2


def test_madman_walks_and_opens_gates_towards_its_enemy():
    s = arena({"bd1": (0, 7), "ad1": (0, 10), "bd2": (3, 4)}, active=1, named=("d1", "d2"))
    madness(s, fig(s, "bd1"), fig(s, "bwl").id, fig(s, "ad1").id)
    v = fig(s, "bd1")
    v.mad_man = 4
    v.ammo = 0
    s.stack.clear()
    s.sub = "mad"
    advance(s)
    # (0,8) for 1, gate M0 for 1, (0,9) for 1; entering ad1's field would leave no MAN to attack
    assert s.gate_open[B.GATE_BY_ID["M0"]] and v.field == F(0, 9) and v.mad_man == 1
    assert s.stack.top.kind == "act"


def test_madman_stands_still_when_its_enemy_is_dead():
    s = arena({"bd1": (0, 7), "ad1": (0, 10), "bd2": (3, 4)}, active=1, named=("d1", "d2"))
    madness(s, fig(s, "bd1"), fig(s, "bwl").id, fig(s, "ad1").id)
    hurt_ep(s, fig(s, "ad1"), 99)
    v = fig(s, "bd1")
    v.mad_man = 4
    s.stack.clear()
    s.sub = "mad"
    advance(s)
    assert v.field == F(0, 7) and v.mad_man == 4 and s.stack.top.kind == "act"
