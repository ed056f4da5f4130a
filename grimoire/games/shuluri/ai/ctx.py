"""What the AI knows about a position, from one seat's point of view.

Every agent decides on a determinization (``state.sample_hidden(seat, rng)``); this context reads
only what that seat may know from it: the board, the figures' public values, its own secrets. The
other sides' secrets (amulets, extra ME) are never read from the determinization — they enter as
probabilities over what is still unseen (``p_amulet``, ``me_mix``), so a choice does not depend on
one sampled guess.

Values are in one unit: one Ep of an enemy gladiator. A figure is worth ``worth(f)``: what its
death is worth to the other side; each Ep it loses is worth half its worth spread over its Ep, the
rest comes with the kill. A gladiator's death decides the game (``WIN``).
"""

from __future__ import annotations

from functools import cache

from .. import board as B
from ..combat import exposed
from ..damage import effective_sfe
from ..data import (
    AIM_BONUS,
    AMULETS,
    COST,
    D1,
    D2,
    GL,
    MAN,
    RANGED_RANGE,
    RESIST_VALUES,
    ROLE_STATS,
    STAND_COST,
    WL,
    XB,
)
from ..sight import line_of_fire, others_on_field, storm_shields
from ..values import ce, effect_with, has_flag, mad_enemy, modifier, te, ve, weapon
from .odds import hit_table

WIN = 60.0                    # a gladiator's death (the game)
ROLE_WORTH = {WL: 5.0, XB: 5.0, D1: 4.0, D2: 4.0}
DISC_WORTH = 1.0              # each disc a living warlock still holds
ZOMBIE_WORTH = 2.0
EXPOSED_BONUS = 2.0           # a shooter that can already wound the other side's gladiator
TARGETING_SHARE = 0.5         # the chance that an enemy shooter picks this figure rather than another
POISON, LIGHTNING, CURSE = (AMULETS.index(k) for k in ("poison", "lightning", "curse"))


@cache
def _c_distances(src: int) -> tuple[int, ...]:
    dist = [99] * B.N_FIELDS
    dist[src] = 0
    frontier = [src]
    while frontier:
        nxt = []
        for a in frontier:
            for n in B.NEIGHBOURS[a]:
                if n >= 0 and B.IN_C[n] and dist[n] > dist[a] + 1:
                    dist[n] = dist[a] + 1
                    nxt.append(n)
        frontier = nxt
    return tuple(dist)


def gladiator_walk(a: int, b: int) -> int:
    """Fields a gladiator walks from a to b inside the central circle (no walls there)."""
    return _c_distances(a)[b]


def can_strike(s, a, b, field: int | None = None) -> bool:
    """Whether gladiator a can walk to b (standing on ``field`` if given) and still strike him in his next step."""
    if has_flag(s, a, "no_man") or mad_enemy(s, a) >= 0:
        return False
    w = weapon(a)
    reach = min(a.move if not has_flag(s, a, "double_move") else a.move // 2, MAN["gladiator"] - COST["attack"])
    if a.down:
        reach = max(0, reach - STAND_COST)
    d = gladiator_walk(a.field, b.field if field is None else field)
    if w is not None and w.reach:
        d = max(0, d - 1)
    return d <= reach


class Ctx:
    """A position seen by ``seat`` (on a determinization ``s``)."""

    def __init__(self, s, seat: int, shared: dict | None = None):
        self.s = s
        self.seat = seat
        self.live = [f for f in s.figs if f is not None and f.alive and f.field >= 0]
        self.enemies = [f for f in self.live if s.enemies(seat, f.seat)]
        self.friends = [f for f in self.live if not s.enemies(seat, f.seat)]
        self.count: dict[int, int] = {}
        for f in self.live:
            self.count[f.field] = self.count.get(f.field, 0) + 1
        self.round_up = s.flags.round_up
        self._worth: dict[int, float] = {}
        # a search shares these between the positions of one step (the other side does not move in it)
        self.shared = shared if shared is not None else {}
        self._threat: dict[tuple[int, int, bool], float] = self.shared.setdefault("threat", {})
        self._lof: dict[tuple[int, int, int, int, bool], tuple] = self.shared.setdefault("lof", {})

    # --- who is who ------------------------------------------------------------------------------------
    def is_enemy(self, f) -> bool:
        return self.s.enemies(self.seat, f.seat)

    def gladiator(self, seat: int):
        g = self.s.figs[seat * 5 + GL]
        return g if g.alive and g.field >= 0 else None

    def enemy_gladiators(self) -> list:
        return [f for f in self.enemies if f.is_gladiator]

    def own_gladiators(self) -> list:
        return [f for f in self.friends if f.is_gladiator]

    # --- worth -----------------------------------------------------------------------------------------
    def worth(self, f) -> float:
        """What this figure's death is worth to the side that kills it."""
        w = self._worth.get(f.id)
        if w is not None:
            return w
        s = self.s
        if f.is_gladiator:
            w = WIN
        elif f.zombie:
            w = ZOMBIE_WORTH
        else:
            w = ROLE_WORTH[f.role]
            if f.role == WL:
                w += DISC_WORTH * len(s.teams[f.seat].discs)
            elif f.ammo > 0:
                # a shooter that can already wound the other side's gladiator is worth more
                kind = ROLE_STATS[f.role].ranged_weapon
                for g in (x for x in self.live if x.is_gladiator and s.enemies(x.seat, f.seat)):
                    if exposed(s, g, kind):
                        w += EXPOSED_BONUS
                        break
            else:
                w *= 0.6
        self._worth[f.id] = w
        return w

    def per_ep(self, f) -> float:
        if f.is_gladiator:
            return 1.0
        return 0.5 * self.worth(f) / max(1, f.max_ep)

    def damage_value(self, f, ep: float, p_kill: float) -> float:
        """The value of an expected Ep loss ``ep`` with kill chance ``p_kill`` (for its enemies)."""
        ep = min(ep, f.ep)
        if f.is_gladiator:
            return ep + p_kill * WIN
        return self.per_ep(f) * ep + 0.5 * self.worth(f) * p_kill

    # --- secrets as probabilities ------------------------------------------------------------------------
    def p_amulet(self, t, kind: int) -> float:
        """P(t wears amulet ``kind``): known for one's own figures and revealed amulets, else the
        unseen amulets of its team spread evenly over the figures whose amulet is unseen."""
        if t.zombie:
            return 0.0
        if t.seat == self.seat or t.amulet_shown:
            return 1.0 if t.amulet == kind else 0.0
        team = [self.s.figs[t.seat * 5 + r] for r in range(5)]
        if any(f.amulet_shown and f.amulet == kind for f in team):
            return 0.0
        if not any(f.amulet >= 0 for f in team):
            return 0.0          # this team has no amulets at all (a test set-up; kept by sample_hidden)
        unseen = sum(1 for f in team if not f.amulet_shown)
        return 1.0 / unseen if unseen else 0.0

    def me_mix(self, t) -> list[tuple[int, float]]:
        """(ME, probability) for an ME roll of t: the extra ME (2 or 3) only as far as it is known."""
        base = t.me
        if t.zombie or t.role == WL:
            return [(base + t.me_extra, 1.0)]
        if t.seat == self.seat or t.me_shown:
            return [(base + t.me_extra, 1.0)]
        team = [self.s.figs[t.seat * 5 + r] for r in range(5) if r != WL]
        shown = [f.me_extra for f in team if f.me_shown and f.me_extra]
        hidden_values = [v for v in RESIST_VALUES if v not in shown]
        if not any(f.me_extra for f in team) and not shown:
            return [(base, 1.0)]
        unseen = [f for f in team if not f.me_shown]
        if not unseen:
            return [(base, 1.0)]
        p = 1.0 / len(unseen)
        out = [(base + v, p) for v in hidden_values]
        rest = 1.0 - p * len(hidden_values)
        if rest > 1e-9:
            out.append((base, rest))
        return out

    # --- lines of fire ---------------------------------------------------------------------------------
    def lof(self, a_field: int, t, shooter_id: int, ignore_walls: bool = False):
        """(blocked, ranged defence without modifiers, middle fields) from a field to figure t."""
        key = (a_field, t.field, shooter_id, t.id, ignore_walls)
        hit = self._lof.get(key)
        if hit is None:
            shot = line_of_fire(self.s, a_field, t.field, shooter_id, t.id, ignore_walls)
            if shot.blocked:
                hit = (True, 0, ())
            else:
                n = others_on_field(self.s, t.field, t.id)
                hit = (False, 2 * (shot.borders + shot.walls + n + shot.in_line), shot.middle)
            self._lof[key] = hit
        return hit

    def ranged_defence(self, a_field: int, t, shooter_id: int, ignore_walls: bool = False) -> int | None:
        blocked, base, middle = self.lof(a_field, t, shooter_id, ignore_walls)
        if blocked:
            return None
        extra = []
        if storm_shields(self.s, t.field, middle):
            extra.append(2)
        return base + modifier(self.s, t, "rve", tuple(extra))

    # --- threat: what the other side's shooters and warlocks may do to a figure on a field -------------
    def threat(self, f, field: int, hidden: bool = False) -> float:
        """The expected loss (in value for f's side) if f stands on ``field`` when the other side's
        ranged attackers act next, from where they stand now (one block of approach allowed)."""
        key = (f.id, field, hidden)
        v = self._threat.get(key)
        if v is not None:
            return v
        s = self.s
        old = f.field
        f.field = field
        try:
            total = 0.0
            for e in self.live:
                if e.zombie or not s.enemies(e.seat, f.seat) or e.id == f.id:
                    continue
                if e.is_gladiator:
                    v1 = self._gladiator_threat(e, f) if f.is_gladiator else 0.0
                elif e.role == WL:
                    v1 = self._warlock_threat(e, f, hidden)
                else:
                    v1 = self._shooter_threat(e, f, hidden)
                total += v1
        finally:
            f.field = old
        self._threat[key] = total
        return total

    def _shooter_threat(self, e, f, hidden: bool) -> float:
        s = self.s
        if e.ammo <= 0 or has_flag(s, e, "no_aimed"):
            return 0.0
        kind = ROLE_STATS[e.role].ranged_weapon
        if f.is_gladiator and not exposed(s, f, kind):
            return 0.0
        bd = B.block_distance(e.field, f.field)
        if bd > RANGED_RANGE[kind] + 1 or bd == 0 and e.field == f.field:
            return 0.0
        if hidden and bd > 1:
            return 0.0
        rd = self.ranged_defence(e.field, f, e.id)
        if rd is None:
            return 0.0
        margin = ce(s, e) + AIM_BONUS - rd
        p, ep, _ = hit_table(margin, effective_sfe(s, f), self.round_up)
        if has_flag(s, f, "fireform"):
            return 0.0
        return TARGETING_SHARE * self._loss_value(f, ep, margin)

    def _warlock_threat(self, e, f, hidden: bool) -> float:
        s = self.s
        discs = s.teams[e.seat].discs
        if not discs or has_flag(s, e, "fireform"):
            return 0.0
        bd = B.block_distance(e.field, f.field)
        if bd > 3 + 1 or (hidden and bd > 1):
            return 0.0
        rd = self.ranged_defence(e.field, f, e.id)
        if rd is None:
            return 0.0
        # a Lightning Bolt (CE 7, 3 Sp) as the typical danger; stronger ones are rarer
        from .odds import p_beat
        p = p_beat(9 - rd) * (1.0 - self.p_amulet(f, LIGHTNING))
        if effect_with(s, f, "denial") is not None:
            p = 0.0
        ep = max(0, 4 - effective_sfe(s, f, lightning=True))
        return TARGETING_SHARE * p * self._value_of_loss(f, ep)

    def gladiator_threat(self, f, field: int) -> float:
        """The part of ``threat`` that comes from the enemy gladiators' blows (the planner weighs a
        gladiator's duel instead)."""
        if not f.is_gladiator:
            return 0.0
        old = f.field
        f.field = field
        try:
            return sum(self._gladiator_threat(e, f) for e in self.enemy_gladiators() if e.id != f.id)
        finally:
            f.field = old

    def _gladiator_threat(self, e, f) -> float:
        """The enemy gladiator's blow, if he can walk to f and still attack in his next step (the one
        who ends his step in the other's reach gives him the first strike)."""
        s = self.s
        if not can_strike(s, e, f):
            return 0.0
        margin = te(s, e) - ve(s, f)
        p, ep, _ = hit_table(margin, effective_sfe(s, f), self.round_up)
        if has_flag(s, f, "fireform"):
            return 0.0
        return self._value_of_loss(f, ep)

    def _loss_value(self, f, ep: float, margin: int) -> float:
        return self._value_of_loss(f, ep)

    def _value_of_loss(self, f, ep: float) -> float:
        if f.is_gladiator:
            return ep * (1.0 + 3.0 / max(1, f.ep))
        return self.per_ep(f) * min(ep, f.ep) * (1.0 + 2.0 / max(1, f.ep))
