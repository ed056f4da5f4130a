"""The d10 arithmetic every AI estimate rests on: value + d10 against value + d10 (C10.3, C11.3,
G14.2), damage as half the margin (C10.4, R1) less the armour that counts (D12.1).

Everything is exact: the 100 pairs of rolls are enumerated once per margin and cached.
"""

from __future__ import annotations

from functools import cache

_ROLLS = [(x, y) for x in range(1, 11) for y in range(1, 11)]


@cache
def p_beat(margin: int) -> float:
    """P(A + d10 > D + d10) for margin = A - D (a tie is the defender's)."""
    return sum(1 for x, y in _ROLLS if margin + x - y > 0) / 100.0


@cache
def hit_table(margin: int, sfe: int, round_up: bool = False) -> tuple[float, float, tuple[float, ...]]:
    """(P(hit), E[Ep lost], P(raw Sp >= k) for k = 0..12) of a weapon hit with attack - defence =
    margin against armour ``sfe``: raw = (Attack - Defence) // 2, Ep lost = raw - sfe."""
    hits = 0
    ep = 0.0
    at_least = [0] * 13
    for x, y in _ROLLS:
        d = margin + x - y
        if d <= 0:
            continue
        hits += 1
        raw = (d + 1) // 2 if round_up else d // 2
        ep += max(0, raw - sfe)
        for k in range(min(raw, 12) + 1):
            at_least[k] += 1
    return hits / 100.0, ep / 100.0, tuple(c / 100.0 for c in at_least)


@cache
def ep_at_least(margin: int, sfe: int, need: int, round_up: bool = False) -> float:
    """P(a weapon hit takes at least ``need`` Ep): the chance that it kills a figure with ``need`` Ep."""
    if need <= 0:
        return 1.0
    n = 0
    for x, y in _ROLLS:
        d = margin + x - y
        if d <= 0:
            continue
        raw = (d + 1) // 2 if round_up else d // 2
        if raw - sfe >= need:
            n += 1
    return n / 100.0
