"""Item effects within each role, and the head-to-head matrix of roles.

A pooled "win rate with an item" mixes roles: if weak roles buy an item more, the item looks bad
though it helps each of them (Zavandor's gems track: -8.4 points pooled, +18.6 within the druid).
So each item is also compared within every role (Newcombe's interval; groups under MIN_N seat-games
get none), and the within-role differences are combined with Mantel-Haenszel-style weights
``n_with * n_without / n`` into one role-adjusted difference with a normal interval.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...agents.stats import Z95
from .stats import MIN_N, newcombe


def within_roles(value: np.ndarray, shares: np.ndarray, roles: np.ndarray) -> dict[str, Any]:
    """Per role: how its seats fared with the item and without it; and the role-adjusted difference."""
    has = value > 0
    per: list[dict[str, Any]] = []
    num = den = var = 0.0
    for role in sorted({r for r in roles.tolist() if r is not None}):
        m = roles == role
        n1, n0 = int((has & m).sum()), int((~has & m).sum())
        w1, w0 = float(shares[has & m].sum()), float(shares[~has & m].sum())
        row: dict[str, Any] = {"role": role, "with": n1, "without": n0,
                               "rate_with": w1 / n1 if n1 else None, "rate_without": w0 / n0 if n0 else None}
        if n1 >= MIN_N and n0 >= MIN_N:
            d, lo, hi = newcombe(w1, n1, w0, n0)
            row["diff"] = {"diff": d, "ci95": [lo, hi], "significant": not lo <= 0 <= hi}
            p1, p0 = w1 / n1, w0 / n0
            w = n1 * n0 / (n1 + n0)
            num += w * d
            den += w
            var += w * w * (p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0)
        else:
            row["diff"] = None            # too few games for an interval
        per.append(row)
    adjusted = None
    if den > 0:
        d = num / den
        h = Z95 * math.sqrt(var) / den
        adjusted = {"diff": d, "ci95": [d - h, d + h], "significant": not d - h <= 0 <= d + h}
    return {"by_role": per, "adjusted": adjusted}


def head_to_head(roles: np.ndarray, ranks: np.ndarray, players: int) -> dict[str, Any] | None:
    """How often role a finished ahead of role b in the games where both played (ties count half):
    rows sorted by game and seat, ``players`` rows per game."""
    if players < 2 or roles.size % players or any(r is None for r in roles.tolist()):
        return None
    g = roles.reshape(-1, players)
    k = ranks.reshape(-1, players)
    names = sorted(set(roles.tolist()))
    idx = {r: i for i, r in enumerate(names)}
    ahead = np.zeros((len(names), len(names)))
    met = np.zeros((len(names), len(names)), dtype=np.int64)
    for i in range(players):
        for j in range(players):
            if i == j:
                continue
            a = np.array([idx[x] for x in g[:, i]])
            b = np.array([idx[x] for x in g[:, j]])
            score = (k[:, i] < k[:, j]) + 0.5 * (k[:, i] == k[:, j])
            np.add.at(ahead, (a, b), score)
            np.add.at(met, (a, b), 1)
    share = np.divide(ahead, met, out=np.full_like(ahead, np.nan), where=met > 0)
    return {"roles": names, "share": [[None if math.isnan(x) else float(x) for x in row] for row in share],
            "games": met.tolist()}
