"""Cornering a beaten enemy gladiator (the hard level at more than two players; medium is unchanged).

In pairs the heuristic's gladiators chase a badly hurt enemy gladiator by walking toward him, both to
the same field; he steps out of their reach every round and the game runs to the round cap (seen in
hard-against-medium pairs games: two healthy gladiators circling after one with 3 Ep for 20 rounds).
Here a gladiator who would win the exchange of blows even if the other struck first (``exchange``,
duel.py) ends his step where the fields that enemy can flee to, and still be out of reach of every
gladiator of our side, are fewest; his partner, acting later, does the same around the new position,
so the two close the net from two sides. Fields where another enemy gladiator who would win the
exchange could strike him are never chosen.

The last enemy gladiator: his fall ends the game, and standing off ends it at the round cap as a draw,
worth half a win. Closing in, with the exchange at ``e`` (he striking first), is worth about
``(1 + e) / 2``; so against him any exchange won (``LAST_EDGE``) is hunted, not only a clear one (seen
in pairs games where both alliances' first gladiators fell in one round: the last two, 14 Ep against
11, stood five fields apart for 25 rounds).

Option ``last_only`` (ShuluriSearch's ``corner_last``): only the last enemy gladiator is hunted. Traced
in hard's lost pairs games (seed 68): a hard gladiator with 18 Ep cornered a fleeing medium gladiator
with 11-14 Ep for five rounds, four to six fields from his partner, while the other enemy gladiator and
both enemy warlocks wore the partner down; the partner fell, then he.

Unless each of our standing gladiators wins the exchange with each standing enemy gladiator by ``EDGE``
(``outmatched``): then leaving the partner risks little, and waiting is the stand-off. Traced in the
expert's pairs games (seed 9302, game 0): its gladiators with 16 and 18 Ep stood two fields apart, five
from medium's with 10 and 8, from round 6 to the round cap, every figure ending its step unmoved (the
exchanges +0.54 to +0.88); a draw. From ShuluriSearch's ``press`` round the margin is ``PRESS_EDGE``, as
at two players (seed 9304, game 0: 17 and 17 Ep against 14 and 13, each exchange +0.12 to +0.26 with
the enemy striking first, unmoved from round 6 to the cap).

Option ``pair`` (ShuluriSearch's ``exchange_hunt``): against the last enemy gladiator, our partner
near, the exchange that counts is the pair's (``pair_exchange``): after each of his blows both of ours
follow, so two healthy gladiators hunt an equal one although he strikes first (alone each would lose
that exchange, and the three may stand off to the round cap).
"""

from __future__ import annotations

from ..damage import effective_sfe
from ..data import COST, MAN
from ..movement import player_controls
from ..values import has_flag, te, ve, weapon
from .ctx import Ctx, _c_distances, gladiator_walk
from .duel import blow, duel, exchange
from .exposure import exposed
from .planner import Planner, reach

BLOWS = ("gl attack ", "gl javelin ", "gl net ")
EDGE = 0.25                   # the exchange's margin (P(win) - P(loss), he striking first) to hunt him
LAST_EDGE = 0.05              # the same against the last enemy gladiator (a draw is half; a small margin)
PRESS_EDGE = -0.05            # at two players, from ShuluriSearch's ``press`` round: within 2.5 points of the draw
PAIR_ROUNDS = 5               # the pair's exchange: this many rounds of his blow and our two


def strike_reach(s, g) -> int:
    """Fields gladiator g may walk in his next step and still strike (``ctx.can_strike``'s reach)."""
    r = min(g.move if not has_flag(s, g, "double_move") else g.move // 2, MAN["gladiator"] - COST["attack"])
    w = weapon(g)
    return r + (1 if w is not None and w.reach else 0)


def pair_exchange(s, g, p, e, rounds: int = PAIR_ROUNDS) -> float:
    """P(g and p fell e) - P(e fells one of them) when e strikes first and both of ours answer each of
    his blows. The worst case for us: all his blows at the one with fewer Ep, and that one's fall
    counted as the loss (the partner would fight on); our blows as the weaker of the two."""
    weak = min((g, p), key=lambda f: f.ep)
    ru = s.flags.round_up
    ours = min((blow(te(s, f) - ve(s, e), effective_sfe(s, e), ru) for f in (g, p)),
               key=lambda b: sum(ep * q for ep, q in b))
    his = blow(te(s, e) - ve(s, weak), effective_sfe(s, weak), ru)
    win, lose = duel(max(1, weak.ep), max(1, e.ep), ours, his, (False, True, True) * rounds)
    return win - lose


def _edges(s, g, foes: list, partners: list, pair: bool) -> dict[int, float]:
    """Per enemy gladiator: g's exchange with him if he strikes first; with ``pair``, against the last
    one, with a partner standing who can strike him after he walked up to strike g, the pair's exchange
    if better."""
    out = {}
    for e in foes:
        v = exchange(s, g, e, False)
        if pair and len(foes) == 1:
            for p in partners:
                if not p.down and not has_flag(s, p, "no_man") and \
                        gladiator_walk(p.field, e.field) <= strike_reach(s, p) + strike_reach(s, e):
                    v = max(v, pair_exchange(s, g, p, e))
        out[e.id] = v
    return out


def outmatched(s, ours: list, foes: list, need: float = EDGE) -> bool:
    """Whether each of our gladiators stands and wins the exchange with each enemy gladiator (he striking
    first) by ``need``."""
    return bool(ours) and all(not g.down and exchange(s, g, e, False) >= need for g in ours for e in foes)


def _covered(fld: int, hunters: list[tuple[int, int]]) -> bool:
    return any(gladiator_walk(h, fld) <= r for h, r in hunters)


def corner(s, seat: int, legal: set[str], pair: bool = False, last_only: bool = False,
           need: float | None = None, outmatch: float = EDGE, clear: bool = False) -> str | None:
    """The first action toward the cornering field of seat's gladiator in his step, or None (nobody to
    hunt, or the heuristic's best plan strikes this step: the search decides). ``last_only``: only the
    last enemy gladiator is hunted (while two stand, a hunt of one leaves the partner to the other),
    unless ours outmatch all of theirs by ``outmatch`` (``outmatched``; then that is the margin to hunt).
    ``need``: the exchange's margin to hunt (``EDGE``, or ``LAST_EDGE`` against the last one). ``clear``
    (ShuluriSearch's ``two_on_one``): never a field ``exposed`` to two enemy gladiators."""
    ctx = Ctx(s, seat)
    g = next((s.figs[c] for c in s.named if s.figs[c].is_gladiator and player_controls(s, s.figs[c])), None)
    if g is None or g.down or g.attacked or g.field < 0:
        return None
    foes = ctx.enemy_gladiators()
    own = [p for p in ctx.own_gladiators() if p.id != g.id]
    if last_only and len(foes) > 1:
        if not outmatched(s, [g] + own, foes, outmatch):
            return None
        need = min(EDGE, outmatch) if need is None else need
    edge = _edges(s, g, foes, own, pair)
    if need is None:
        need = LAST_EDGE if len(foes) == 1 else EDGE
    prey = [e for e in foes if not has_flag(s, e, "no_man") and edge[e.id] >= need]
    if not prey:
        return None
    e = min(prey, key=lambda p: (p.ep, gladiator_walk(g.field, p.field)))
    plans = Planner(ctx).plans(g)
    best_plan = max(plans, key=lambda p: p.value, default=None)
    if best_plan is not None and best_plan.act is not None and best_plan.act.startswith(BLOWS):
        return None                                  # a blow in reach this step: that comes first
    fields = reach(ctx, g)
    flee = [q for q, d in enumerate(_c_distances(e.field)) if d <= e.move]     # where he may walk next
    partners = [(p.field, strike_reach(s, p)) for p in own if not p.down]
    mine = strike_reach(s, g)
    best: tuple | None = None
    for fld, (cost, first, _dis) in fields.items():
        if any(gladiator_walk(d.field, fld) <= strike_reach(s, d) and edge[d.id] < need for d in foes):
            continue                                 # a dangerous enemy could strike first there
        if clear and exposed(s, g, fld, foes, own):
            continue
        hunters = partners + [(fld, mine)]
        free = sum(1 for q in flee if not _covered(q, hunters))
        key = (free, gladiator_walk(fld, e.field), cost)
        if best is None or key < best[0]:
            best = (key, first)
    if best is None:
        return None
    text = best[1] or "end"
    return text if text in legal else None


def rally(s, seat: int, legal: set[str], clear: bool = False) -> str | None:
    """Option ``rally`` (ShuluriSearch's): the first action toward a field from which seat's gladiator can
    strike, in his next step, the enemy gladiator who can strike his partner; None when no enemy
    gladiator can reach the partner, when he can already strike that enemy from where he stands, or when
    his best plan strikes this step (the search decides). Fields where another enemy gladiator who would
    win the exchange could strike him first are never chosen. Traced in hard's lost pairs games: one hard
    gladiator fought two enemies (and their warlocks) while his partner stood four to eight fields away,
    unhurt; medium's gladiators, three fields apart on average, took him together. ``clear``
    (ShuluriSearch's ``two_on_one``): never a field ``exposed`` to two enemy gladiators (seed 9602, game 2:
    rallying to a danced partner, he ended where both could strike him)."""
    ctx = Ctx(s, seat)
    g = next((s.figs[c] for c in s.named if s.figs[c].is_gladiator and player_controls(s, s.figs[c])), None)
    if g is None or g.down or g.attacked or g.field < 0:
        return None
    partner = next((p for p in ctx.own_gladiators() if p.id != g.id), None)
    foes = [e for e in ctx.enemy_gladiators() if not has_flag(s, e, "no_man")]
    if partner is None or not foes:
        return None
    mine = strike_reach(s, g)
    threats = [e for e in foes if gladiator_walk(e.field, partner.field) <= strike_reach(s, e)]
    if not threats or any(gladiator_walk(g.field, e.field) <= mine for e in threats):
        return None
    plans = Planner(ctx).plans(g)
    best_plan = max(plans, key=lambda p: p.value, default=None)
    if best_plan is not None and best_plan.act is not None and best_plan.act.startswith(BLOWS):
        return None
    e = min(threats, key=lambda t: (t.ep, gladiator_walk(g.field, t.field)))
    others = [d for d in foes if d.id != e.id and exchange(s, g, d, False) < 0]
    best: tuple | None = None
    for fld, (cost, first, _dis) in reach(ctx, g).items():
        if any(gladiator_walk(d.field, fld) <= strike_reach(s, d) for d in others):
            continue
        if clear and exposed(s, g, fld, foes, [partner]):
            continue
        key = (max(0, gladiator_walk(fld, e.field) - mine), cost)
        if best is None or key < best[0]:
            best = (key, first)
    if best is None or best[1] is None:
        return None
    return best[1] if best[1] in legal else None
