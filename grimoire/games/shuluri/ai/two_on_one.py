"""Not alone within reach of two (pairs; ShuluriSearch's option ``two_on_one``, at more than two players).

Traced in hard's lost pairs games against medium (arena seed 9602, game 2; docs/ai.md, "sixth round"):
with his partner danced (no MAN for three rounds), a hard gladiator with 18 Ep walked toward the medium
gladiator who could reach the partner and ended his step where both medium gladiators could strike him
next; the first took him down, the second walked up and beat him on the ground, and the danced partner
fell after him (the traced losses of that seed were such melees, two gladiators on one).

A field is ``exposed`` (exposure.py) for our gladiator when two enemy gladiators could walk up and strike
him there in their next steps and no partner could walk up and strike there too. In his step the search
weighs only walks that do not end on such a field (``Guard.allows``; a blow this step is the search's to
weigh wherever it is struck from; standing on one, no 'end' either, while another candidate is left).
Our walks by rule (``chase.corner``, ``chase.rally``, ``ranks.close_ranks``) skip such fields themselves.
The heuristic (medium, and the playouts) is unchanged.
"""

from __future__ import annotations

from ..movement import player_controls
from .chase import BLOWS
from .ctx import Ctx
from .exposure import exposed
from .planner import Plan


class Guard:
    """Seat's gladiator in his step with two enemy gladiators standing, or ``active`` False."""

    def __init__(self, ctx: Ctx):
        s = ctx.s
        self.s = s
        self.g = next((s.figs[c] for c in s.named if s.figs[c].is_gladiator and player_controls(s, s.figs[c])), None)
        self.foes = ctx.enemy_gladiators()
        g = self.g
        self.partners = [p for p in ctx.own_gladiators() if g is None or p.id != g.id]
        self.active = (s.num_players > 2 and g is not None and not g.down and not g.attacked and g.field >= 0
                       and len(self.foes) >= 2)

    def exposed(self, fld: int) -> bool:
        return self.active and exposed(self.s, self.g, fld, self.foes, self.partners)

    def stands_exposed(self) -> bool:
        """Whether the gladiator stands on an exposed field now (ending his step here would leave him so)."""
        return self.g is not None and self.exposed(self.g.field)

    def allows(self, p: Plan) -> bool:
        """Whether plan p may be weighed: not a walk of the gladiator's that ends exposed."""
        if not self.active or p.fig is not self.g or (p.act is not None and p.act.startswith(BLOWS)):
            return True
        return not self.exposed(p.field)

