"""A few numbers that describe a 2-player position for one seat: the expert's network reads them.

They are the evaluator's own terms (``evaluate.py``: the damage each side has done, what its
shooters and warlock threaten), the gladiators' state (Ep, armour, who can reach whom, the duel of
``duel.py`` and the exchange of blows either way) and the clock (rounds left, who acts next, the
side). Everything is read from the position the search stands on — a determinization of the seat
that searches — so the network sees nothing the heuristic does not.
"""

from __future__ import annotations

import numpy as np

from .ctx import Ctx, can_strike, gladiator_walk
from .duel import duel_value, exchange, lead_weight
from .evaluate import SCALE, THREAT_LATER, THREAT_NEXT, _next_actor, damage_done_to

NAMES = (
    "done_to_me", "done_to_enemy", "threat_on_me", "threat_on_enemy", "lead",
    "my_ep", "enemy_ep", "my_stp", "enemy_stp", "my_ring", "enemy_ring",
    "duel_win", "duel_lose", "duel_in_reach", "i_reach", "enemy_reaches", "walk",
    "exchange_first", "exchange_second", "rounds_left", "lead_weight", "i_act_next", "i_am_first",
)
SIZE = len(NAMES)


def features(s, seat: int) -> np.ndarray:
    """The numbers of ``NAMES`` for ``seat`` on ``s`` (2 players, in play), float32."""
    enemy = 1 - seat
    ctx = Ctx(s, seat)
    done = [0.0, 0.0]
    threat = [0.0, 0.0]
    nxt = _next_actor(s)
    ring = [0, 0]
    for f in s.figs:
        if f is None:
            continue
        done[f.seat] += damage_done_to(ctx, f)
        if f.alive and f.field >= 0:
            w = THREAT_NEXT if nxt is not None and nxt != f.seat else THREAT_LATER
            threat[f.seat] += w * ctx.threat(f, f.field, hidden=f.sneak > 0)
            ring[f.seat] += not f.is_gladiator
    lead = (done[enemy] + threat[enemy] - done[seat] - threat[seat]) / SCALE
    mine, theirs = s.figs[seat * 5], s.figs[enemy * 5]
    both = mine.alive and theirs.alive and mine.field >= 0 and theirs.field >= 0
    d = duel_value(s, seat)
    cap = s.flags.max_rounds
    out = [
        done[seat] / 10.0, done[enemy] / 10.0, threat[seat] / 10.0, threat[enemy] / 10.0, lead,
        max(0, mine.ep) / max(1, mine.max_ep), max(0, theirs.ep) / max(1, theirs.max_ep),
        mine.stp / max(1, mine.stp_max), theirs.stp / max(1, theirs.stp_max),
        ring[seat] / 4.0, ring[enemy] / 4.0,
        d[0] if d else 0.0, d[1] if d else 0.0, float(d is not None),
        float(both and can_strike(s, mine, theirs)), float(both and can_strike(s, theirs, mine)),
        min(12, gladiator_walk(mine.field, theirs.field)) / 12.0 if both else 1.0,
        exchange(s, mine, theirs, True) if both else 0.0, exchange(s, mine, theirs, False) if both else 0.0,
        (cap - s.round) / cap if cap else 1.0, lead_weight(s),
        float(nxt == seat), float(s.first == seat),
    ]
    return np.asarray(out, dtype=np.float32)
