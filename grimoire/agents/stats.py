"""Statistics for arena results: win rates with Wilson score intervals, means."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (``wins`` may be fractional: shared wins on ties).

    Returns (low, high); (0.0, 1.0) when n == 0. Better than the normal approximation for small n
    and for rates near 0 or 1 (never leaves [0, 1]).
    """
    if n <= 0:
        return 0.0, 1.0
    p = min(1.0, max(0.0, wins / n))
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if p <= 0.0 else max(0.0, min(p, centre - half))
    hi = 1.0 if p >= 1.0 else min(1.0, max(p, centre + half))
    return lo, hi


def mean(xs) -> float:
    xs = list(xs)
    return sum(xs) / len(xs) if xs else 0.0


def mean_interval(xs) -> tuple[float, float, float]:
    """The mean of ``xs`` and its 95% interval by the normal approximation (infinite with one value)."""
    xs = list(xs)
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, -math.inf, math.inf
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    half = Z95 * math.sqrt(var / len(xs))
    return m, m - half, m + half


def overlaps(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]
