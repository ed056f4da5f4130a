"""Closing ranks in pairs: a gladiator with no blow this step walks back within reach of his partner.

Traced in hard's lost pairs games (docs/ai.md, "Pairs: hard's losses traced"): hard's two gladiators
stood six to seven fields apart on average (medium's two to three), and one of them fought two enemy
gladiators and their warlocks alone while the other, unhurt, stood at home or hunted elsewhere.
``rally`` (chase.py) answers only once an enemy gladiator can already strike the partner, and from
seven fields away that is often a round too late. Here, earlier: a gladiator farther from his partner
than he can walk and still strike (``strike_reach``) ends his step at the reachable field nearest to
the partner, so that whoever walks up to strike one of them can be struck by the other next. Fields
where an enemy gladiator who would win the exchange of blows could strike him first are never chosen;
a blow in reach this step comes first (the search decides).
"""

from __future__ import annotations

from ..movement import player_controls
from ..values import has_flag
from .chase import BLOWS, strike_reach
from .ctx import Ctx, gladiator_walk
from .duel import exchange
from .exposure import exposed
from .planner import Planner, reach


def close_ranks(s, seat: int, legal: set[str], clear: bool = False) -> str | None:
    """The first action toward the field nearest to the partner of seat's gladiator in his step, or None:
    no partner or no enemy gladiator standing, the partner already within his strike reach, a blow in
    reach this step, or no step that brings him nearer. ``clear`` (ShuluriSearch's ``two_on_one``): never a
    field ``exposed`` to two enemy gladiators."""
    ctx = Ctx(s, seat)
    g = next((s.figs[c] for c in s.named if s.figs[c].is_gladiator and player_controls(s, s.figs[c])), None)
    if g is None or g.down or g.attacked or g.field < 0:
        return None
    partner = next((p for p in ctx.own_gladiators() if p.id != g.id), None)
    foes = ctx.enemy_gladiators()
    if partner is None or not foes:
        return None
    mine = strike_reach(s, g)
    apart = gladiator_walk(g.field, partner.field)
    if apart <= mine:
        return None
    best_plan = max(Planner(ctx).plans(g), key=lambda p: p.value, default=None)
    if best_plan is not None and best_plan.act is not None and best_plan.act.startswith(BLOWS):
        return None
    danger = [d for d in foes if not has_flag(s, d, "no_man") and exchange(s, g, d, False) < 0]
    best: tuple | None = None
    for fld, (cost, first, _dis) in reach(ctx, g).items():
        if any(gladiator_walk(d.field, fld) <= strike_reach(s, d) for d in danger):
            continue
        if clear and exposed(s, g, fld, foes, [partner]):
            continue
        key = (max(0, gladiator_walk(fld, partner.field) - mine), cost)
        if best is None or key < best[0]:
            best = (key, first)
    if best is None or best[1] is None or best[0][0] >= apart - mine:
        return None
    return best[1] if best[1] in legal else None
