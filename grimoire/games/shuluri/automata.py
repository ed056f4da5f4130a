"""Figures the rules move by themselves: zombies (spell 15, R31) and the victims of Assassin's Madness
(spell 28, R35).

Each call of a ``*_tick`` function carries out one atomic sub-action (a one-field move, a gate, an
attack) through the same rule functions as the players' actions, so trap windows and defence
decisions interrupt them like any move; the flow calls the tick again until it reports nothing
left to do. Every sub-action costs MAN, so the loop ends.
"""

from __future__ import annotations

from collections import deque

from . import board as B
from .combat import declare_melee, declare_shot, melee_reason, shot_reason
from .data import COST, ZOMBIE_FIELDS
from .fig import Fig
from .movement import do_gate, do_move, edge_reason, gate_reason, in_melee, move_reason
from .values import available, mad_enemy, no_man


# --- paths -------------------------------------------------------------------------------------------------
def distances(s, f: Fig, open_gates: bool = False) -> dict[int, tuple[int, int]]:
    """Shortest legal paths from f's field: field -> (distance, first direction). Full fields can be
    reached (as destinations) but not passed through (V9.5). The edges are board.STEPS of f's zone
    (zone_reason), through a gate only while it is open (or, with ``open_gates``, not jammed)."""
    start = f.field
    out: dict[int, tuple[int, int]] = {start: (0, -1)}
    q = deque([start])
    counts: dict[int, int] = {}
    for g in s.figs:
        if g is not None and g.alive and g.field >= 0:
            counts[g.field] = counts.get(g.field, 0) + 1
    steps = B.STEPS
    zone = f.is_gladiator
    gate_open, gate_jam, rnd = s.gate_open, s.gate_jam, s.round
    while q:
        a = q.popleft()
        dist, first = out[a]
        if a != start and counts.get(a, 0) >= B.CAPACITY:
            continue
        for d, n, g in steps[a][zone]:
            if n in out:
                continue
            if g >= 0 and not gate_open[g] and not (open_gates and gate_jam[g] < rnd):
                continue
            out[n] = (dist + 1, d if a == start else first)
            q.append(n)
    return out


# --- zombies ----------------------------------------------------------------------------------------------
def zombie_acts_now(s, z: Fig) -> bool:
    """A zombie acts in its creator's steps; with its creator dead, in its owner's first step (R31)."""
    if not z.alive or z.seat != s.active:
        return False
    kind = s.sched[s.step_i][1]
    if kind == "glad":
        return False
    creator = s.figs[z.creator]
    if creator.alive:
        return creator.id in s.named
    return kind == "pair1"


def zombies_now(s) -> list[Fig]:
    n5 = 5 * s.num_players
    return [z for z in s.figs[n5:] if z is not None and zombie_acts_now(s, z)]


def zombie_tick(s) -> bool:
    for z in zombies_now(s):
        if z.zdone:
            continue
        if _zombie_act(s, z):
            return True
        z.zdone = True
    return False


def _persons(s, z: Fig) -> list[Fig]:
    return [g for g in s.figs if g is not None and g.alive and g.field >= 0 and g.id not in (z.id, z.creator)]


def _zombie_goal(s, z: Fig) -> tuple[int, set[int]]:
    """(destination field or -1, figures it attacks when it shares their field)."""
    order = z.order
    if order is not None:
        kind, arg = order
        if kind == "goto":
            if z.field == arg:
                z.order = None
            else:
                return arg, set()
        elif kind == "guard":
            foes = {g.id for g in s.figs if g is not None and g.alive and g.field == arg
                    and s.enemies(g.seat, z.seat)}
            return arg, foes
        elif kind == "attack":
            t = s.figs[arg]
            if t.alive and t.field >= 0:
                return t.field, {t.id}
            z.order = None
    persons = _persons(s, z)
    if not persons:
        return -1, set()
    dist = distances(s, z)
    best = None
    best_key = None
    ties: list[Fig] = []
    for p in persons:
        if p.field not in dist:
            continue
        key = (dist[p.field][0], p.ep)
        if best_key is None or key < best_key:
            best_key, ties = key, [p]
        elif key == best_key:
            ties.append(p)
    if not ties:
        return -1, set()
    best = ties[s.rng.below(len(ties))] if len(ties) > 1 else ties[0]
    return best.field, {best.id}


def _zombie_act(s, z: Fig) -> bool:
    if no_man(s, z) or z.down:
        return False
    have = available(s, z)
    dest, foes = _zombie_goal(s, z)
    if not z.attacked and have >= COST["attack"]:
        for g in s.figs:
            if g is not None and g.alive and g.field == z.field and g.id in foes:
                declare_melee(s, z, g)
                return True
    if dest < 0 or dest == z.field or z.zfields >= ZOMBIE_FIELDS or z.stopped:
        return False
    dist = distances(s, z)
    if dest not in dist:
        return False
    d = dist[dest][1]
    n = B.NEIGHBOURS[z.field][d]
    mode = "disengage" if in_melee(s, z) else "move"
    cost = 1 + (COST["disengage"] if mode == "disengage" else 0)
    occupied = any(g is not None and g.alive and g.field == n for g in s.figs)
    if cost > have or (occupied and have - cost < COST["attack"]) or (mode == "disengage" and z.attacked):
        return False
    if edge_reason(s, z.field, d) or s.count_at(n) >= B.CAPACITY:
        return False
    z.zfields += 1
    do_move(s, z, d, mode)
    return True


# --- Assassin's Madness ------------------------------------------------------------------------------------------
def madmen_now(s) -> list[Fig]:
    out = []
    for cid in s.named:
        f = s.figs[cid]
        if f.alive and mad_enemy(s, f) >= 0:
            out.append(f)
    return out


def madman_tick(s) -> bool:
    for v in madmen_now(s):
        if v.zdone:
            continue
        if _madman_act(s, v):
            return True
        v.zdone = True
    return False


def _madman_act(s, v: Fig) -> bool:
    e = s.figs[mad_enemy(s, v)]
    if not e.alive or e.field < 0 or no_man(s, v) or available(s, v) <= 0:
        return False
    if melee_reason(s, v, e) is None:
        declare_melee(s, v, e)
        return True
    if shot_reason(s, v, e) is None:
        declare_shot(s, v, e)
        return True
    if v.attacked or v.down or v.stopped:
        return False
    dist = distances(s, v, open_gates=True)
    if e.field not in dist or e.field == v.field:
        return False
    d = dist[e.field][1]
    g = B.GATE_AT[v.field][d]
    if g >= 0 and not s.gate_open[g]:
        if gate_reason(s, v, g, True) is None:
            do_gate(s, v, g, True)
            return True
        return False
    mode = "disengage" if in_melee(s, v) else "move"
    if move_reason(s, v, d, mode) is None:
        do_move(s, v, d, mode)
        return True
    return False
