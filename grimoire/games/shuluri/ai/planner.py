"""The acting player's step: a plan per figure, and the next action of the best plan.

For each character the player commands in this step the planner walks every field it can still
reach with the MAN it has (Dijkstra over the rules of movement: walls, gates it may open on the way,
full fields, the central circle, enemy fields only as a last field), and values standing there after
the best attack it could make from there — a shot (after aiming), a spell, a melee blow, a throw, a
ranged trap — minus what the enemy's shooters and warlock could do to it there next (cover: walls,
block borders, bodies in the line; hiding), plus how well placed it is for the next step, minus the
MAN it costs (the strategist's MAN dearer: it pays for direct traps too). The first action of the
best plan is played; after every action the plan is made again (the dice decide a lot).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from functools import cache

from .. import board as B
from ..data import (
    AIM_COST,
    COST,
    DIRECT_TRAPS,
    GL,
    HEAP_SETS,
    HIDE_COST,
    RANGED_RANGE,
    ROLES,
    SPELL_BY_KEY,
    SPELLS,
    TRAPS,
    WL,
)
from ..fig import IN_HEAP, Fig
from ..magic import cast_cost, may_cast_now
from ..movement import in_melee
from ..traps import _reach, card_in_hand
from ..values import available, has_skill, move_cost, move_limit, skill_blocked, weapon, wield_key
from . import attacks as X
from .ctx import WIN, Ctx, can_strike
from .duel import exchange

POOL_MAN = 0.08               # value of one MAN of the step pool (it lapses at the end of the step)
STRAT_MAN = 0.45              # ... of the strategist's (it lasts the round and pays for direct traps)
STRAT_MAN_TRAPS = 0.7         # ... when the side still holds direct trap cards
APPROACH = 0.04               # per field a shooter or warlock still has to walk toward a target
GL_APPROACH = 0.15            # per field between the gladiator and the enemy gladiator
STORM = 1.5                   # standing in a Firestorm at the end of the round
DUEL_SHARE = 0.5              # the gladiators' exchange decides this share of the game (ring fighters the rest)
MIN_GAIN = 0.05
REARM = ("greatsword", "two_swords", "mace_shield", "sword_shield", "halberd")
REARM_WORTH = 3.0             # a weapon again instead of the belt dagger


@dataclass
class Plan:
    value: float
    fig: Fig
    field: int
    first: str | None         # the first action toward the field (a move or a gate), None if there
    act: str | None           # the action on the field (attack, cast, trap, hide, ...)
    aim: bool = False


# --- walking ------------------------------------------------------------------------------------------------------
@cache
def walk_distances(src: int, glad: bool) -> tuple[int, ...]:
    """Fields walked from src when every gate may be opened (the shape of the arena, for approach)."""
    dist = [99] * B.N_FIELDS
    dist[src] = 0
    frontier = [src]
    while frontier:
        nxt = []
        for a in frontier:
            for d in range(6):
                n = B.NEIGHBOURS[a][d]
                if n < 0 or dist[n] <= dist[a] + 1 or B.IN_C[n] != glad:
                    continue
                if B.EDGE[a][d] != B.NO_WALL and B.GATE_AT[a][d] < 0:
                    continue
                dist[n] = dist[a] + 1
                nxt.append(n)
        frontier = nxt
    return tuple(dist)


def reach(ctx: Ctx, f) -> dict[int, tuple[int, str | None, bool]]:
    """field -> (MAN spent to get there, first action text, disengaged on the way)."""
    s = ctx.s
    rc = ROLES[f.role]
    start = f.field
    out: dict[int, tuple[int, str | None, bool]] = {start: (0, None, False)}
    if f.down or f.stopped:
        return out
    budget = available(s, f)
    steps_left = move_limit(s, f) - f.moved
    if budget <= 0 or steps_left <= 0:
        return out
    step_cost, _ = move_cost(s, f, False)
    melee = in_melee(s, f)
    may_attack = not (f.attacked or f.disengaged or f.cast_other)
    if melee and not may_attack and f.attacked:
        return out
    first_extra = COST["disengage"] if melee else 0
    glad = f.is_gladiator
    # the fields with an enemy of f, once (each field of the search asks)
    fid, fseat = f.id, f.seat
    enemy = {g.field for g in ctx.live if g.id != fid and s.enemies(g.seat, fseat)}
    # Dijkstra over (cost, steps): costs are small integers; the zone's passable edges from the step table
    count = ctx.count
    gate_open, gate_jam, rnd = s.gate_open, s.gate_jam, s.round
    cap, gate_cost, attack_cost = B.CAPACITY, COST["gate"], COST["attack"]
    steps_at = B.STEPS
    pop, push = heapq.heappop, heapq.heappush
    far = (99, 99)
    best: dict[int, tuple[int, int]] = {start: (0, 0)}
    queue: list[tuple[int, int, int, int, str | None]] = [(0, 0, 0, start, None)]
    tick = 0
    while queue:
        cost, steps, _t, a, first = pop(queue)
        if best.get(a, far) < (cost, steps):
            continue
        if a != start and a in enemy:
            continue                        # an enemy's field is the last one (V9.6, V9.7)
        if steps >= steps_left:
            continue
        at_start = a == start
        base = cost + step_cost + (first_extra if at_start else 0)
        nsteps = steps + 1
        for d, n, g in steps_at[a][glad]:
            if n == start:
                continue
            c = base
            if g >= 0 and not gate_open[g]:
                if gate_jam[g] >= rnd or melee and at_start:
                    continue
                c += gate_cost
            else:
                g = -1                      # no gate to open on the way
            if count.get(n, 0) >= cap or c > budget:
                continue
            if n in enemy and (not may_attack or (melee and at_start) or budget - c < attack_cost):
                continue
            key = (c, nsteps)
            if key < best.get(n, far):
                if first is not None:
                    fa = first
                elif g >= 0:
                    fa = f"{rc} open {B.GATES[g].id}"
                else:
                    fa = f"{rc} {'disengage' if melee else 'move'} {B.DIRS[d]}"
                best[n] = key
                out[n] = (c, fa, melee)
                tick += 1
                push(queue, (c, nsteps, tick, n, fa))
    return out


# --- the plans ----------------------------------------------------------------------------------------------------
class Planner:
    def __init__(self, ctx: Ctx):
        self.ctx = ctx
        s = ctx.s
        team = s.teams[ctx.seat]
        holds_direct = any(not _is_ranged(s, n) for n, _h in team.hand)
        self.strat_price = STRAT_MAN_TRAPS if holds_direct else STRAT_MAN
        self._stand: dict[tuple[int, int], float] = ctx.shared.setdefault("stand", {})
        self._spells_cache: dict[int, list] = {}

    def man_price(self, f, spent_before: int, cost: int) -> float:
        """What ``cost`` more MAN costs after ``spent_before`` (the step pool first, then the strategist)."""
        s = self.ctx.s
        if f.is_gladiator or f.zombie:
            return POOL_MAN * cost
        pool = max(0, s.pool - spent_before)
        from_pool = min(pool, cost)
        return POOL_MAN * from_pool + self.strat_price * (cost - from_pool)

    # the value of a figure ending the step on a field
    def stand(self, f, fld: int) -> float:
        key = (f.id, fld)
        v = self._stand.get(key)
        if v is None:
            ctx = self.ctx
            v = -ctx.threat(f, fld, hidden=f.sneak > 0) + self.position(f, fld)
            self._stand[key] = v
        return v

    def position(self, f, fld: int) -> float:
        ctx = self.ctx
        s = ctx.s
        v = 0.0
        for a in s.areas:
            if a.key == "firestorm" and fld in a.fields and a.end > s.round:
                v -= STORM * (1.0 if f.is_gladiator else ctx.per_ep(f) * 3)
        if f.is_gladiator:
            foes = ctx.enemy_gladiators()
            if foes:
                wd = walk_distances(fld, True)
                v -= GL_APPROACH * min(wd[g.field] for g in foes)
            if wield_key(f) == "dagger" and _intact_sets(f):
                heaps = s.teams[f.seat].heaps
                if heaps:
                    wd = walk_distances(fld, True)
                    v -= 0.3 * min(wd[h] for h in heaps)
            return v
        if f.zombie:
            return v
        rng = 3 if f.role == WL else (RANGED_RANGE.get(_kind(f), 0) if f.ammo > 0 else 0)
        targets = self._targets_for(f)
        if targets and rng:
            wd = walk_distances(fld, False)
            gap = min(max(0, _walk_to(wd, t) - 2 * rng) for t in targets)
            v -= APPROACH * gap * (1.5 if f.role == WL else 1.0)
        return v

    def duel(self, f, fld: int, act: str) -> float:
        """Gladiator f ending his step on fld after ``act``: the exchange of blows with each enemy
        gladiator who can reach him there (who strikes first matters: he if f only walked, f if ``act``
        is his blow at that one), in place of the mere threat of one blow. A healthy gladiator thus
        closes in on a badly hurt one although the other strikes first; out of reach it is 0."""
        ctx = self.ctx
        s = ctx.s
        struck = act.split()[2] if act.startswith("gl attack ") else ""
        v = ctx.gladiator_threat(f, fld)            # counted by stand(); the exchange replaces it
        for e in ctx.enemy_gladiators():
            if struck == s.name(e.id):
                v += DUEL_SHARE * WIN * exchange(s, f, e, True)
            elif can_strike(s, e, f, fld):
                v += DUEL_SHARE * WIN * exchange(s, f, e, False)
        return v

    def _targets_for(self, f) -> list:
        ctx = self.ctx
        out = []
        for e in ctx.enemies:
            if e.is_gladiator:
                if f.role == WL or X.exposed(ctx.s, e, _kind(f)):
                    out.append(e)
            else:
                out.append(e)
        return out

    # --- every plan of one figure -----------------------------------------------------------------------
    def plans(self, f) -> list[Plan]:
        ctx = self.ctx
        s = ctx.s
        out: list[Plan] = []
        fields = reach(ctx, f)
        budget = available(s, f)
        spent = f.spent if not f.is_gladiator else 0
        glad = f.is_gladiator and bool(ctx.enemy_gladiators())
        base_here = self.stand(f, f.field) + (self.duel(f, f.field, "") if glad else 0.0)
        may_attack = not (f.attacked or f.disengaged or f.cast_other or f.down)
        for fld, (cost, first, disengaged) in fields.items():
            left = budget - cost
            standing = self.stand(f, fld) - self.man_price(f, spent, cost)
            out.append(Plan(standing + (self.duel(f, fld, "") if glad else 0.0) - base_here, f, fld, first, None))
            if disengaged and fld != f.field:
                continue
            for value, act, extra, aim in self._acts(f, fld, left, may_attack):
                gain = standing + value - self.man_price(f, spent + cost, extra) - base_here
                if glad:
                    gain += self.duel(f, fld, act)
                out.append(Plan(gain, f, fld, first, act, aim))
        # hiding where it stands (Lopakodas, 20.4)
        if f.sneak == 0 and has_skill(s, f, "sneaking") and budget >= HIDE_COST and not f.is_gladiator:
            gain = ctx.threat(f, f.field) - ctx.threat(f, f.field, hidden=True) - self.man_price(f, spent, HIDE_COST)
            out.append(Plan(gain, f, f.field, None, f"{ROLES[f.role]} hide"))
        return out

    def _acts(self, f, fld: int, left: int, may_attack: bool):
        """(value, action text, MAN, aims first) of what f could do standing on fld with ``left`` MAN."""
        ctx = self.ctx
        s = ctx.s
        rc = ROLES[f.role]
        if f.is_gladiator:
            yield from self._gladiator_acts(f, fld, left, may_attack)
            return
        if may_attack and left >= COST["attack"]:
            for t in ctx.enemies:
                if t.field == fld:
                    v = X.melee(ctx, f, t)
                    yield v, f"{rc} attack {s.name(t.id)}", COST["attack"], False
            if f.ammo > 0 and _kind(f):
                aim_ok = (left >= COST["attack"] + AIM_COST and has_skill(s, f, "aiming") and not f.aim
                          and not skill_blocked(s, f, "aiming"))
                for t in ctx.enemies:
                    sv = X.shot(ctx, f, t, fld, aim_ok)
                    if sv is not None:
                        yield sv, f"{rc} shoot {s.name(t.id)}", COST["attack"] + (AIM_COST if aim_ok else 0), aim_ok
        if f.role == WL and not f.zombie:
            yield from self._spells(f, fld, left)
        yield from self._ranged_traps(f, fld, left)

    def _gladiator_acts(self, f, fld: int, left: int, may_attack: bool):
        ctx = self.ctx
        s = ctx.s
        if wield_key(f) == "dagger" and fld in s.teams[f.seat].heaps and left >= COST["weapon_change"]:
            for key in REARM:
                if f.sets[HEAP_SETS.index(key)] == IN_HEAP:
                    yield REARM_WORTH, f"gl wield {key}", COST["weapon_change"], False
                    break
        if not may_attack:
            return
        w = weapon(f)
        for t in ctx.enemies:
            if not B.IN_C[t.field]:
                continue
            name = s.name(t.id)
            same = t.field == fld
            adjacent = w is not None and w.reach and B.distance(fld, t.field) == 1
            if (same or adjacent) and left >= COST["attack"]:
                yield X.melee(ctx, f, t), f"gl attack {name}", COST["attack"], False
                if t.is_gladiator and left >= COST["attack"] + 2:
                    for skill in ("takedown", "break"):
                        if has_skill(s, f, "takedown" if skill == "takedown" else "weapon_break"):
                            if skill == "takedown" and (t.down or ((wp := weapon(t)) and wp.no_takedown)):
                                continue
                            yield X.melee(ctx, f, t, skill), f"gl attack {name} {skill}", COST["attack"] + 2, False
            elif not same and w is not None and w.hand_free and left >= COST["attack"]:
                for what in ("javelin", "net"):
                    if (f.javelins if what == "javelin" else f.nets) > 0:
                        v = X.throw(ctx, f, t, fld, what)
                        if v is not None:
                            yield v * 0.8, f"gl {what} {name}", COST["attack"], False

    def _spells(self, w, fld: int, left: int):
        ctx = self.ctx
        s = ctx.s
        table = self._spell_table(w)
        if not table:
            return
        for sp, cost, keep, t, value, text in table:
            if cost > left:
                continue
            if sp.target == "area":
                if B.block_distance(fld, t) <= sp.blocks:
                    yield value - keep, text, cost, False
                continue
            if sp.target == "corpse":
                if t.field == fld:
                    yield value - keep, text, cost, False
                continue
            if not X.in_spell_range(s, w, sp, t, fld):
                continue
            if value is None:           # lightning: depends on the line of fire from fld
                v = X.lightning(ctx, w, sp, t, fld)
                if v is None:
                    continue
                if sp.key == "chain":
                    v *= 1.3
                if v > keep:
                    yield v - keep, text, cost, False
            else:
                yield value - keep, text, cost, False

    def _spell_table(self, w) -> list:
        """(spell, MAN, value of keeping the disc, target, value or None for lightning, action text) of
        every cast worth considering, once per decision: only range and lines of fire depend on the
        field he casts from."""
        cached = self._spells_cache.get(w.id)
        if cached is not None:
            return cached
        ctx = self.ctx
        s = ctx.s
        out: list = []
        self._spells_cache[w.id] = out
        if not may_cast_now(s, w):
            return out
        held = set(s.teams[w.seat].discs)
        blocked_other = w.attacked or w.disengaged
        for sp in SPELLS:
            if sp.level not in held:
                continue
            cost = cast_cost(s, w, sp)
            key = sp.key
            keep = 0.6 * sp.level         # a disc is gone once cast: the value must beat keeping it
            if sp.target == "area":
                if blocked_other:
                    continue
                for c in {e.field for e in ctx.enemies}:
                    v = X.area_spell(ctx, w, sp, c)
                    if v > keep:
                        out.append((sp, cost, keep, c, v, f"wl cast {key} {B.field_name(c)}"))
                continue
            if sp.target == "self":
                continue
            if sp.target == "corpse":
                if blocked_other:
                    continue
                for b in s.figs[:5 * s.num_players]:
                    if b is not None and not b.alive and b.field >= 0 and not b.raised and not b.is_gladiator:
                        out.append((sp, cost, keep, b, 3.0, f"wl cast undead {s.name(b.id)}"))
                continue
            for t in ctx.live:
                if t.id == w.id and key not in ("armour", "denial"):
                    continue
                if blocked_other and t.id != w.id:
                    continue
                if sp.is_lightning_attack:
                    if s.enemies(w.seat, t.seat):
                        out.append((sp, cost, keep, t, None, f"wl cast {key} {s.name(t.id)}"))
                    continue
                tv = X.spell_value(ctx, w, sp, t)
                if tv is not None and tv > keep:
                    out.append((sp, cost, keep, t, tv, f"wl cast {key} {s.name(t.id)}"))
        return out

    def _ranged_traps(self, f, fld: int, left: int):
        """A ranged trap (T16.3): f enters the numbered field this step and springs it."""
        ctx = self.ctx
        s = ctx.s
        if fld == f.field and not (f.entered or not s.flags.trap_needs_entry):
            return
        n = B.TRAP_NUMBER_AT.get(fld)
        if n is None or not _is_ranged(s, n):
            return
        h = card_in_hand(s, f.seat, n)
        if h is None or (s.flags.traps_assigned and h[1] != f.id):
            return
        cost = TRAPS[n].cost
        if cost > left:
            return
        for t in ctx.enemies:
            if _reach(s, n, fld, t) is None:
                yield X.trap_value(ctx, n, t) - 0.5, f"trap {n} {s.name(t.id)}", cost, False

    # --- the decision ---------------------------------------------------------------------------------------
    def best(self, figs: list) -> Plan | None:
        plans = []
        for f in figs:
            plans.extend(self.plans(f))
        if not plans:
            return None
        plans.sort(key=lambda p: -p.value)
        return plans[0] if plans[0].value > MIN_GAIN else None

    def ranked(self, figs: list) -> list[Plan]:
        plans = []
        for f in figs:
            plans.extend(self.plans(f))
        plans.sort(key=lambda p: -p.value)
        return plans


def next_action(plan: Plan) -> str:
    """The next action text of a plan."""
    f = plan.fig
    if plan.field != f.field and plan.first:
        return plan.first
    if plan.aim and not f.aim:
        return f"{ROLES[f.role]} aim"
    return plan.act or "end"


def _is_ranged(s, n: int) -> bool:
    from ..traps import is_ranged
    return is_ranged(s, n)


def _kind(f) -> str:
    from ..combat import ranged_kind
    return ranged_kind(f)


def _walk_to(wd: tuple[int, ...], t) -> int:
    d = wd[t.field]
    if d < 99:
        return d
    # the target is where this figure cannot walk (a gladiator in C): the nearest ring field next to it
    best = 99
    for n in B.NEIGHBOURS[t.field]:
        if n >= 0 and wd[n] < best:
            best = wd[n]
    return best + 1 if best < 99 else B.distance(0, t.field) + 10


def _intact_sets(f) -> list[int]:
    return [i for i, st in enumerate(f.sets) if st == IN_HEAP]


def _area_centres(ctx: Ctx, w, fld: int, rng: int) -> list[int]:
    """Centres worth trying for an area spell: the fields of enemies within range."""
    out = set()
    for e in ctx.enemies:
        if B.block_distance(fld, e.field) <= rng:
            out.add(e.field)
    return sorted(out)


DIRECT = set(DIRECT_TRAPS)
_ = (GL, HEAP_SETS, SPELL_BY_KEY)
