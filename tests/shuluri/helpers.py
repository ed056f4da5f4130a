"""Scenario builders for the Shuluri Viadal tests: a game past setup, figures placed where a test
wants them, a chosen step with chosen characters named, and preset d10 results."""

from __future__ import annotations

import grimoire
from grimoire.core.decisions import Decision
from grimoire.games.shuluri import board as B
from grimoire.games.shuluri.actions import fig_id
from grimoire.games.shuluri.data import ROLES
from grimoire.games.shuluri.flow import name as name_step
from grimoire.games.shuluri.flow import start_acting


def F(q: int, r: int) -> int:
    """The field index of axial (q, r)."""
    return B.INDEX[(q, r)]


def setup_done(players: int = 2, seed: int = 1, **opts):
    """A game whose setup was played with the first legal choice every time."""
    s = grimoire.new_game("shuluri", players, seed, **opts)
    while s.phase == "setup":
        s.apply(s.legal_actions()[0])
    return s


def fig(s, name: str):
    return s.figs[fig_id(s, name)]


def arena(place: dict[str, tuple[int, int]], players: int = 2, active: int = 0, kind: str = "pair1",
          named: tuple[str, ...] = (), dice: tuple[int, ...] = (), keep_others: bool = False, seed: int = 1,
          gates_open: tuple[str, ...] = (), hands: dict[int, list[list[int]]] | None = None, **opts):
    """A state in play: the listed figures on their fields, every other non-gladiator removed (unless
    keep_others), gladiators at (0,2) / (0,-2) unless placed; seat ``active``'s step of ``kind`` with
    ``named`` role codes named (the gladiator step names the gladiator); preset dice. Trap hands are
    empty (no trap windows) unless ``hands`` gives them: seat -> [[card, holder id], ...]."""
    s = setup_done(players, seed, **opts)
    s.stack.clear()
    defaults = {"agl": (0, 2), "bgl": (0, -2), "cgl": (-3, 2), "dgl": (3, -2)}
    for f in s.figs:
        if f is None:
            continue
        f.amulet = -1           # no amulets or extra resistances unless a test gives them
        f.me_extra = 0
        n = s.name(f.id)
        if n in place:
            f.field = F(*place[n])
        elif f.is_gladiator:
            f.field = F(*defaults[n])
        elif not keep_others:
            f.alive = False
            f.field = -1
    for t in s.teams:
        t.hand = [h[:] for h in (hands or {}).get(t.seat, [])]
    for gid in gates_open:
        s.gate_open[B.GATE_BY_ID[gid]] = True
    s.flags.dice = tuple(dice)
    s.dice_i = 0
    s.round = 1
    s.step_i = s.sched.index((active, kind))
    s.active = active
    if kind == "glad":
        g = s.figs[active * 5]
        s.named = (g.id,)
        s.gpool = 6
        start_acting(s, [g])
    else:
        name_step(s, tuple(ROLES.index(r) for r in named))
    s.sub = "act"
    s.stack.push(Decision("act", active))
    return s


def roll(s, *values: int) -> None:
    """The next d10 results."""
    s.flags.dice = tuple(values)
    s.dice_i = 0


def texts(s) -> list[str]:
    out = [a.text for a in s.legal_actions()]
    # these tests change the state by hand after listing (the engine never does): the listed objects
    # must not skip the check of a position they were not listed for (legal.check)
    s.listed = None
    return out


def wield(s, name: str, key: str) -> None:
    """Give a gladiator the heap set ``key`` in hand (the others in his heap)."""
    from grimoire.games.shuluri.data import HEAP_SETS
    from grimoire.games.shuluri.fig import IN_HAND, IN_HEAP
    g = fig(s, name)
    g.sets = [IN_HEAP] * len(HEAP_SETS)
    g.sets[HEAP_SETS.index(key)] = IN_HAND
    g.part_at = -1


def no_dodge(s) -> None:
    """Answer a pending Kiteres decision with 'no dodge'."""
    while s.stack.top is not None and s.stack.top.kind == "dodge":
        s.apply("no dodge")
