"""Lines of fire with the state applied (C11.3, C11.4, 20.1.10): gates open or closed, figures in
the way, areas crossed. The geometry itself is cached in ``board.line``."""

from __future__ import annotations

from typing import NamedTuple

from . import board as B


class Shot(NamedTuple):
    blocked: str | None     # why the line is blocked (None: it is clear)
    borders: int            # B
    walls: int              # W
    in_line: int            # L
    middle: tuple           # the intermediate fields


def line_of_fire(s, a: int, b: int, shooter: int, target: int, ignore_walls: bool = False) -> Shot:
    ln = B.line(a, b)
    why = _blocked(s, ln, shooter, target, ignore_walls)
    if why is not None:
        return Shot(why, 0, 0, 0, ln.middle)
    walls = 0
    if not ignore_walls:
        gate_open = s.gate_open
        for _kind, gate in ln.walls:
            if gate < 0 or not gate_open[gate]:     # (a quarter wall blocked the line above)
                walls += 1
    middle = ln.middle
    in_line = 0
    if middle:
        mids = set(middle)
        for f in s.figs:
            if f is not None and f.alive and f.sneak == 0 and f.field in mids:
                in_line += 1
    return Shot(None, ln.borders, walls, in_line, middle)


def line_blocked(s, a: int, b: int, shooter: int, target: int, ignore_walls: bool = False) -> bool:
    """``line_of_fire(...).blocked`` is not None (without counting what the line crosses)."""
    return _blocked(s, B.line(a, b), shooter, target, ignore_walls) is not None


def _blocked(s, ln: B.Line, shooter: int, target: int, ignore_walls: bool) -> str | None:
    if ln.off_board:
        return "the line of fire leaves the arena"
    if ignore_walls or not ln.walls:
        return None
    for kind, gate in ln.walls:
        if gate >= 0 and s.gate_open[gate]:
            g = B.GATES[gate]
            for f in s.figs:
                if (f is not None and f.alive and f.field in g.fields and f.sneak == 0
                        and f.id != shooter and f.id != target):
                    return f"{s.name(f.id)} blocks gate {g.id} with its body"
            continue
        if kind == B.QUARTER_WALL:
            return "a quarter wall is in the way" + (" (closed gate)" if gate >= 0 else "")
    return None


def others_on_field(s, field: int, target: int) -> int:
    """N (C11.3): every other person on the target's field, at most 2."""
    n = 0
    for f in s.figs:
        if f is not None and f.alive and f.field == field and f.id != target:
            n += 1
    return min(n, 2)


def areas_of(s, key: str):
    return [a for a in s.areas if a.key == key]


def cloud_hinders(s, shooter_field: int, middle: tuple) -> bool:
    """Acid Cloud (spell 7): a ranged attack from the area or through it."""
    for a in s.areas:
        if a.key == "acid":
            if shooter_field in a.fields or any(m in a.fields for m in middle):
                return True
    return False


def storm_shields(s, target_field: int, middle: tuple) -> bool:
    """Firestorm (spell 18): shooting through the storm or into it."""
    for a in s.areas:
        if a.key == "firestorm":
            if target_field in a.fields or any(m in a.fields for m in middle):
                return True
    return False


def in_own_cage(s, t) -> bool:
    """Imprisonment (spell 27): the warlock inside his cage."""
    for a in s.areas:
        if a.key == "prison" and a.caster == t.id and t.field in a.fields:
            return True
    return False
