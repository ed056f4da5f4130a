"""A position's value for each seat (the search's evaluation where a playout is cut off).

Each side's score is the damage it has done, in the AI's unit (an Ep of a gladiator is 1; a ring
figure's Ep half its worth spread over its Ep, its death the rest), plus what its ranged attackers
threaten to do next, less the same for its enemies. The seats' chances follow a logistic of the
difference (``SCALE`` Ep of gladiator for e = 2.7 : 1).

``alliance`` (pairs): a seat's score is its alliance's — everything the alliance did to its enemies less
everything done to either partner. Without it a seat counts its own losses at 1.5 and its partner's at
1 against the best enemy, and the less hurt of two enemies at 1.5 against the more hurt at 1, so each
hard gladiator would rather his partner took the blows and the search spreads its damage where medium
focuses it (traced in hard's lost pairs games: one hard gladiator fought two enemies alone while his
partner, unhurt, stood four to seven fields away).

``effects``: a figure's score also counts the lasting spells on it (``effects_worth``), at the planner's
own worth (``attacks.EFFECT_WORTH``) for the share of their rounds still to come. Without it a Death
Dance on the enemy gladiator is worth nothing at a leaf (no Ep lost), so hard's warlock cast Firestorm
where medium's danced; traced in pairs: medium danced both of hard's gladiators in round 1 and beat
them while they stood.
"""

from __future__ import annotations

import math

from ..fig import PERMANENT
from .attacks import EFFECT_WORTH, _lasting
from .ctx import WIN, Ctx

SCALE = 6.0
THREAT_NEXT = 0.6             # what the side to act next may still do, as a share of its threat
THREAT_LATER = 0.3            # ... and the side after it
STP_LOST = 0.8                # each STP a gladiator's armour has lost (bolts, then daggers get through)


def damage_done_to(ctx: Ctx, f) -> float:
    """What the enemies of f's side have gained on f."""
    if not f.alive:
        return ctx.worth(f) if not f.is_gladiator else WIN
    lost = f.max_ep - f.ep
    if f.is_gladiator:
        # the last Ep weigh more: a low gladiator is one lucky blow from the end
        frac = f.ep / max(1, f.max_ep)
        return lost + 6.0 * (1.0 - frac) ** 2 + STP_LOST * (f.stp_max - f.stp)
    return ctx.per_ep(f) * lost


def effects_worth(ctx: Ctx, f) -> float:
    """What the lasting spells on the living figure f still hold for its enemies: each one's worth to
    the planner by the share of its rounds not yet over (a permanent one in full)."""
    if not f.alive:
        return 0.0
    rnd = ctx.s.round
    out = 0.0
    for e in f.effects:
        key = "quintarha_fail" if e.key == "quintarha" and "no_man" in e.flags else e.key
        if e.src != "spell" or key not in EFFECT_WORTH or e.end < rnd:
            continue
        share = 1.0 if e.end >= PERMANENT else (e.end - max(rnd, e.start) + 1) / (e.end - e.start + 1)
        out += share * _lasting(ctx, f, key)
    return out


def side_scores(s, viewer: int, alliance: bool = False, effects: bool = False) -> list[float]:
    """Per seat: damage it (its alliance) has done minus damage done to it, plus threats (and with
    ``effects`` the lasting spells on its figures)."""
    n = s.num_players
    ctx = Ctx(s, viewer)
    done_to = [0.0] * n
    threat_on = [0.0] * n
    figs = [f for f in s.figs if f is not None]
    acting_next = _next_actor(s)
    for f in figs:
        done_to[f.seat] += damage_done_to(ctx, f)
        if effects:
            done_to[f.seat] += effects_worth(ctx, f)
        if f.alive and f.field >= 0:
            w = THREAT_NEXT if acting_next is not None and s.enemies(acting_next, f.seat) else THREAT_LATER
            threat_on[f.seat] += w * ctx.threat(f, f.field, hidden=f.sneak > 0)
    out = []
    for i in range(n):
        mine = done_to[i] + threat_on[i]
        theirs = [done_to[j] + threat_on[j] for j in range(n) if s.enemies(i, j)]
        friends = [done_to[j] + threat_on[j] for j in range(n) if j != i and not s.enemies(i, j)]
        if alliance and friends:
            out.append(sum(theirs) - mine - sum(friends))
            continue
        score = (sum(theirs) / max(1, len(theirs)) * (len(theirs) if n == 2 else 1.0)) - mine
        if friends:
            score -= sum(friends) / len(friends) * 0.5
        out.append(score)
    return out


def win_chances(s, viewer: int, rival_enemy: bool = True, alliance: bool = False,
                effects: bool = False) -> list[float]:
    """Rewards in [0, 1] per seat: a logistic of each seat's score against its best enemy's (in pairs
    the partner, whose score rises and falls with one's own, is no rival)."""
    scores = side_scores(s, viewer, alliance, effects)
    n = len(scores)
    out = []
    for i in range(n):
        best_other = max((scores[j] for j in range(n) if j != i and (s.enemies(i, j) or not rival_enemy)),
                         default=0.0)
        out.append(1.0 / (1.0 + math.exp(-(scores[i] - best_other) / SCALE)))
    return out


def _next_actor(s) -> int | None:
    """The seat whose step comes next (the threats of that side count most)."""
    if s.phase != "play" or not s.sched:
        return None
    i = s.step_i + 1
    if i >= len(s.sched):
        i = 0
    return s.sched[i][0]
