"""Movement (spec 9), disengaging (C10.7), gates (V9.8), pushes (C10.10) and the Imprisonment
cage's wall (spell 27). Checks return (message, rule) or None and never touch the state."""

from __future__ import annotations

from . import board as B
from .data import COST, GL, RUN_MOVE_BONUS, SNEAK_COST, SPELL_BY_KEY, SPELLS
from .fig import Fig
from .values import available, has_flag, mad_enemy, move_cost, move_limit, pay

Reason = tuple[str, str] | None
CAGE_SP = SPELL_BY_KEY["prison"].params["cross_sp"]
CAGE_LEVEL = SPELL_BY_KEY["prison"].level
_CAPACITY = B.CAPACITY
_ATTACK = COST["attack"]
_DISENGAGE = COST["disengage"]
_MOVE = COST["move"]


def in_melee(s, f: Fig) -> bool:
    """V9.7 (R19): sharing a field with an enemy."""
    fld = f.field
    for g in s.figs:
        if g is not None and g.alive and g.field == fld and g.id != f.id and s.enemies(g.seat, f.seat):
            return True
    return False


def enemy_on(s, f: Fig, fld: int) -> bool:
    for g in s.figs:
        if g is not None and g.alive and g.field == fld and g.id != f.id and s.enemies(g.seat, f.seat):
            return True
    return False


def may_attack_now(s, f: Fig) -> bool:
    """C10.2, C10.8, C10.9: one attack per step, none after disengaging or (warlock) casting."""
    return not (f.attacked or f.disengaged or f.cast_other or f.down)


def zone_reason(f: Fig, n: int) -> Reason:
    if f.is_gladiator and not B.IN_C[n]:
        return "a gladiator never leaves the central circle [ZONE_FORBIDDEN]", "V9.4"
    if not f.is_gladiator and B.IN_C[n]:
        return "only gladiators may enter the central circle [ZONE_FORBIDDEN]", "V9.4"
    return None


def edge_reason(s, a: int, d: int) -> Reason:
    n = B.NEIGHBOURS[a][d]
    if n < 0:
        return "that is the edge of the arena [WALL]", "A3.4"
    kind = B.EDGE[a][d]
    if kind == B.NO_WALL:
        return None
    g = B.GATE_AT[a][d]
    if g < 0:
        return "a wall is in the way [WALL]", "V9.3"
    if not s.gate_open[g]:
        return f"gate {B.GATES[g].id} is closed [GATE_CLOSED]", "V9.3"
    return None


def room_reason(s, n: int, leaving: int = 0) -> Reason:
    if s.count_at(n) - leaving >= B.CAPACITY:
        return f"field {B.field_name(n)} is full [FIELD_FULL]", "V9.5"
    return None


def touch_threshold(s, f: Fig, fld: int) -> int:
    """V9.6 for the warlock (R21): the cheapest weapon attack (2) or touch spell with a target there."""
    from .magic import cast_cost, may_cast_now
    best = COST["attack"]
    if not may_cast_now(s, f):
        return best
    held = set(s.teams[f.seat].discs)
    others = [g for g in s.figs if g is not None and g.alive and g.field == fld and g.id != f.id]
    if not others:
        return best
    for sp in SPELLS:
        if sp.is_touch and sp.target == "char" and sp.level in held:
            best = min(best, cast_cost(s, f, sp))
    return best


def move_reason(s, f: Fig, d: int, mode: str) -> Reason:
    """A one-field move: mode "move", "sneak" or "disengage" (C10.7: 2 MAN, then the move)."""
    if f.down:
        return "a figure that was taken down must stand up first", "20.4"
    if f.stopped:
        return "its movement has ended for this step", "20.5"
    a = f.field
    r = edge_reason(s, a, d)
    if r:
        return r
    n = B.NEIGHBOURS[a][d]
    r = zone_reason(f, n)
    if r:
        return r
    r = room_reason(s, n)
    if r:
        return r
    melee = in_melee(s, f)
    extra = 0
    if mode == "disengage":
        if not melee:
            return "it is not in a melee situation", "C10.7"
        if f.attacked:
            return "a figure that attacked this step cannot disengage [ATTACKED_NO_DISENGAGE]", "C10.8"
        if f.cast_other:
            return "after casting the warlock cannot disengage in this step [CAST_NO_DISENGAGE]", "C10.9"
        extra = COST["disengage"]
    elif melee:
        return "it shares its field with an enemy: disengage to leave [IN_MELEE_MUST_DISENGAGE]", "V9.7"
    if f.moved >= move_limit(s, f):
        return "it has moved as far as its Movement allows this step [MOVE_LIMIT]", "V9.1"
    cost, _credit = move_cost(s, f, mode == "sneak")
    cost += extra
    have = available(s, f)
    if cost > have:
        return f"that costs {cost} MAN and it has {have} [NOT_ENOUGH_MAN]", "M7.9"
    if enemy_on(s, f, n):
        if f.attacked:
            return "it attacked this step, so it may not enter an enemy's field [ENTER_ENEMY_AFTER_ATTACK]", "V9.6"
        if mode == "disengage" or f.disengaged:
            return ("it disengaged this step, so it may not enter an enemy's field "
                    "[ENTER_ENEMY_AFTER_DISENGAGE]"), "V9.6"
        if f.cast_other:
            return "he cast a spell this step, so he may not enter an enemy's field [ENTER_ENEMY_AFTER_CAST]", "V9.6"
        need = touch_threshold(s, f, n) if f.role == 1 and not f.zombie else COST["attack"]
        if have - cost < need:
            return (f"entering an enemy's field needs {need} MAN left for the attack "
                    "[ENTER_ENEMY_NEEDS_ATTACK_MAN]"), "V9.6"
    return None


def do_move(s, f: Fig, d: int, mode: str) -> None:
    a = f.field
    n = B.NEIGHBOURS[a][d]
    cost, credit = move_cost(s, f, mode == "sneak")
    if mode == "disengage":
        cost += COST["disengage"]
        f.disengaged = True
    pay(s, f, cost)
    f.run_credit = credit
    f.moved += 1
    f.entered = True
    f.sneak = 1 if mode == "sneak" else 0
    if s.flags.enter_forces_attack and enemy_on(s, f, n):
        f.must_attack = True
    gate = B.GATE_AT[a][d]
    s.log(f"{mode}s", fig=s.name(f.id), dir=B.DIRS[d], field=B.field_name(n))
    relocate(s, [(f, n)])
    if s.phase == "over" or not f.alive:
        return
    _open_windows(s, f, "move", gate, a)


_OPEN_WINDOWS: list = []


def _open_windows(s, f: Fig, event: str, gate: int, came: int) -> None:
    if not _OPEN_WINDOWS:
        from .traps import open_windows  # traps.py imports this module: bound on first use
        _OPEN_WINDOWS.append(open_windows)
    _OPEN_WINDOWS[0](s, f, event, gate, came)


def relocate(s, moves: list[tuple[Fig, int]]) -> None:
    """Put figures on new fields; anyone crossing a cage wall takes its damage (spell 27, R33)."""
    cages = [a for a in s.areas if a.key == "prison"]
    old = {f.id: f.field for f, _ in moves}
    for f, n in moves:
        f.field = n
    if not cages:
        return
    moved_ids = set(old)
    new_cages = {}
    for a in cages:
        if a.follows and a.caster in moved_ids:
            new_cages[a.id] = _recentre(s, a, s.figs[a.caster].field)
    from .damage import hurt_sp
    for a in cages:
        after = new_cages.get(a.id, a)
        for f, _n in moves:
            if not f.alive:
                continue
            if (old[f.id] in a.fields) != (f.field in after.fields):
                if f.id == a.caster and s.flags.cage_exempt:
                    continue
                s.log("crosses_cage", fig=s.name(f.id))
                hurt_sp(s, f, CAGE_SP, "lightning", CAGE_LEVEL)
                if s.phase == "over":
                    return
    if new_cages:
        s.areas = [new_cages.get(a.id, a) for a in s.areas]


def _recentre(s, a, centre: int):
    return a._replace(centre=centre, fields=B.area_fields(centre, s.gate_open))


def recompute_areas(s) -> None:
    """After a gate opened or closed: areas keep their centres, their fields follow the gates."""
    s.areas = [a._replace(fields=B.area_fields(a.centre, s.gate_open)) for a in s.areas]


# --- gates (V9.8, A3.6) -------------------------------------------------------------------------------
def gate_reason(s, f: Fig, g: int, opening: bool) -> Reason:
    gate = B.GATES[g]
    if f.field not in gate.fields:
        return f"{s.name(f.id)} does not stand at gate {gate.id}", "V9.8"
    if f.down:
        return "a figure that was taken down must stand up first", "20.4"
    if opening and s.gate_open[g]:
        return f"gate {gate.id} is already open", "V9.8"
    if not opening and not s.gate_open[g]:
        return f"gate {gate.id} is already closed", "V9.8"
    if opening and s.gate_jam[g] >= s.round:
        return f"gate {gate.id} is jammed shut until the end of round {s.gate_jam[g]}", "20.5"
    have = available(s, f)
    if COST["gate"] > have:
        return f"that costs {COST['gate']} MAN and it has {have} [NOT_ENOUGH_MAN]", "M7.9"
    return None


def do_gate(s, f: Fig, g: int, opening: bool) -> None:
    pay(s, f, COST["gate"])
    f.sneak = 0
    set_gate(s, g, opening)
    s.log("opens" if opening else "closes", fig=s.name(f.id), gate=B.GATES[g].id)
    _open_windows(s, f, "gate", g, f.field)


def set_gate(s, g: int, opening: bool) -> None:
    s.gate_open[g] = opening
    recompute_areas(s)


# --- pushes (C10.10, Akrobatika) -------------------------------------------------------------------------
def push_reason(s, pusher: Fig, other: Fig, d: int) -> Reason:
    """Both figures move one field in the same direction to legal fields with room."""
    dests = []
    for f in (pusher, other):
        if not f.alive:
            return "both figures must be alive", "C10.10"
        r = edge_reason(s, f.field, d)
        if r:
            return r
        n = B.NEIGHBOURS[f.field][d]
        r = zone_reason(f, n)
        if r:
            return r
        dests.append(n)
    for n in set(dests):
        arriving = dests.count(n)
        staying = s.count_at(n) - sum(1 for f in (pusher, other) if f.field == n)
        if staying + arriving > B.CAPACITY:
            return f"field {B.field_name(n)} has no room [FIELD_FULL]", "V9.5"
    return None


def push_dirs(s, pusher: Fig, other: Fig) -> list[int]:
    return [d for d in range(6) if push_reason(s, pusher, other, d) is None]


def do_push(s, pusher: Fig, other: Fig, d: int) -> None:
    moves = [(pusher, B.NEIGHBOURS[pusher.field][d]), (other, B.NEIGHBOURS[other.field][d])]
    s.log("pushes", fig=s.name(pusher.id), target=s.name(other.id), dir=B.DIRS[d])
    relocate(s, moves)


def player_controls(s, f: Fig) -> bool:
    """The acting player commands this figure in the current step (not a zombie or a madman)."""
    return f.alive and not f.zombie and f.id in s.named and mad_enemy(s, f) < 0


def hostile_fields(s, side: int) -> set[int]:
    """The fields where a living figure of another side than ``side`` stands."""
    alliance = s.alliance
    return {g.field for g in s.figs if g is not None and g.alive and alliance[g.seat] != side}


def move_options(s, f: Fig, counts: dict[int, int], sneak_ok: bool, hostile: set[int], have: int,
                 row: dict, add) -> None:
    """``add(row[mode][d])`` for every (mode, direction) for which ``move_reason`` is None, computed with
    the shared context once (the legal-action generator's fast path; the tests compare it with
    move_reason). ``counts``: the figures per field; ``hostile``: hostile_fields of f's side (f itself is
    never on it); ``have``: available(s, f); ``row``: acttab.MOVE of f's role."""
    if f.down or f.stopped:
        return
    effects = f.effects
    if effects or f.zombie:
        if f.moved >= move_limit(s, f):
            return
    elif f.moved >= max(0, f.move + (RUN_MOVE_BONUS if f.running else 0)):     # move_limit without effects
        return
    # move_cost spelled out: 1 MAN per field (2 sneaking), doubled by Muscle Wasting or Caltrops; a
    # running figure pays one MAN per two fields (nothing while it has run credit)
    double = f.cur_double or (effects and has_flag(s, f, "double_move"))
    c = 0 if f.running and f.run_credit > 0 else (2 * _MOVE if double else _MOVE)
    a = f.field
    if a in hostile:          # in_melee
        if f.attacked or f.cast_other:
            return
        c += _DISENGAGE
        if c > have:
            return
        free: tuple = (row["disengage"],)
        enemy: tuple = ()             # a disengaging step never enters an enemy's field
        costs: tuple = ()
    else:
        if sneak_ok:
            c2 = 2 * SNEAK_COST if double else SNEAK_COST
            if c <= have:
                free = (row["move"], row["sneak"]) if c2 <= have else (row["move"],)
                costs = (c, c2) if c2 <= have else (c,)
            elif c2 <= have:
                free = (row["sneak"],)
                costs = (c2,)
            else:
                return
        elif c <= have:
            free = (row["move"],)
            costs = (c,)
        else:
            return
        enemy = free if not (f.disengaged or f.attacked or f.cast_other) else ()
    need = -1
    gate_open = s.gate_open
    for d, n, g in B.STEPS[a][f.role == GL and not f.zombie]:     # (is_gladiator)
        if g >= 0 and not gate_open[g]:
            continue
        if counts.get(n, 0) >= _CAPACITY:
            continue
        if n in hostile:            # enemy_on
            if enemy:
                if need < 0:
                    need = touch_threshold(s, f, n) if f.role == 1 and not f.zombie else _ATTACK
                for acts, cost in zip(enemy, costs, strict=True):
                    if have - cost >= need:
                        add(acts[d])
        else:
            for acts in free:
                add(acts[d])
