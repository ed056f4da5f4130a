"""The gladiators' duel, for the search's leaf values: who wins a slugfest of alternating blows.

Once a gladiator can reach the other in his next step, the game is mostly decided by the exchange
of blows that follows (one blow per gladiator step, the gladiators' steps alternate). ``duel`` gives
each side's chance to fell the other within the blows left before the round cap (E19.1: then the
game is a draw), from the exact d10 odds of each blow (C10.3, C10.4, D12.1) and who strikes first.
Standing out of reach (the stand-off), a lead in damage is worth less the nearer the cap: nobody
wins a game by points.
"""

from __future__ import annotations

from functools import cache

from ..damage import effective_sfe
from ..values import te, ve
from .ctx import can_strike

MAX_BLOWS = 16                # the exchange looked at when no round cap is near (about 8 rounds)
FADE_ROUNDS = 6.0             # out of reach, a lead counts fully this many rounds before the cap
PLAN_BLOWS = 10               # the exchange the planner looks at (about five rounds)


@cache
def blow(margin: int, sfe: int, round_up: bool) -> tuple[tuple[int, float], ...]:
    """The distribution of Ep one blow takes: (Ep, probability), misses as 0."""
    out: dict[int, float] = {}
    for x in range(1, 11):
        for y in range(1, 11):
            d = margin + x - y
            ep = 0
            if d > 0:
                raw = (d + 1) // 2 if round_up else d // 2
                ep = max(0, raw - sfe)
            out[ep] = out.get(ep, 0.0) + 0.01
    return tuple(sorted(out.items()))


@cache
def duel(a_ep: int, b_ep: int, a_blow: tuple, b_blow: tuple, order: tuple[bool, ...]) -> tuple[float, float]:
    """(P(A fells B), P(B fells A)) with the blows still to come before the cap in ``order`` (True:
    A's blow), A's Ep ``a_ep`` and B's ``b_ep``."""
    if not order:
        return 0.0, 0.0
    if not order[0]:
        lose, win = duel(b_ep, a_ep, b_blow, a_blow, tuple(not x for x in order))
        return win, lose
    win = lose = 0.0
    rest = order[1:]
    for ep, p in a_blow:
        if ep >= b_ep:
            win += p
        elif ep or rest:
            w2, l2 = duel(a_ep, b_ep - ep, a_blow, b_blow, rest)
            win += p * w2
            lose += p * l2
    return win, lose


def glad_steps_left(s) -> list[int]:
    """The seats of the gladiator steps still to come before the round cap (at most MAX_BLOWS), in
    order, from the current step on."""
    out: list[int] = []
    cap = s.flags.max_rounds
    rnd, i = s.round, s.step_i
    while len(out) < MAX_BLOWS and (cap is None or rnd <= cap):
        if i >= len(s.sched):
            rnd, i = rnd + 1, 0
            continue
        seat, kind = s.sched[i]
        if kind == "glad":
            out.append(seat)
        i += 1
    return out


def duel_value(s, seat: int) -> tuple[float, float] | None:
    """(P(seat's gladiator fells the other), P(he falls)) when the gladiator who acts next can reach
    the other; None out of reach, with more or fewer than two gladiators, or outside play."""
    if s.phase != "play" or not s.sched:
        return None
    glads = [f for f in s.figs if f is not None and f.is_gladiator and f.alive and f.field >= 0]
    if len(glads) != 2 or not s.enemies(glads[0].seat, glads[1].seat):
        return None
    order = glad_steps_left(s)
    if not order:
        return None
    by_seat = {g.seat: g for g in glads}
    first = by_seat.get(order[0])
    if first is None:
        return None
    other = glads[1] if first is glads[0] else glads[0]
    if not can_strike(s, first, other):
        return None
    ru = s.flags.round_up
    fb = blow(te(s, first) - ve(s, other), effective_sfe(s, other), ru)
    ob = blow(te(s, other) - ve(s, first), effective_sfe(s, first), ru)
    win, lose = duel(first.ep, other.ep, fb, ob, tuple(x == first.seat for x in order))
    return (win, lose) if first.seat == seat else (lose, win)


def lead_weight(s) -> float:
    """How much a lead in damage counts out of reach: fully far from the round cap, nothing at it."""
    cap = s.flags.max_rounds
    if cap is None:
        return 1.0
    return max(0.0, min(1.0, (cap - s.round + 1) / FADE_ROUNDS))


def exchange(s, f, e, f_first: bool, blows: int = PLAN_BLOWS) -> float:
    """P(f fells e) - P(e fells f) in ``blows`` alternating blows, f striking first or not (the
    planner's look at the duel: whether to close in although the other then strikes first)."""
    ru = s.flags.round_up
    fb = blow(te(s, f) - ve(s, e), effective_sfe(s, e), ru)
    eb = blow(te(s, e) - ve(s, f), effective_sfe(s, f), ru)
    order = tuple((i % 2 == 0) == f_first for i in range(blows))
    win, lose = duel(max(1, f.ep), max(1, e.ep), fb, eb, order)
    return win - lose
