"""Paired comparisons of two runs played on the same seeds (a study's agents, a rule variant).

Game ``g`` of both runs has the same deal, dice and roles, so the difference of a role's win share
is taken game by game; its interval treats the rotation blocks (``players`` games that share one
deal) as the independent units: the mean of the per-seat-game differences, with the standard error
of a ratio estimator over blocks (a block bootstrap's normal approximation). Luck common to both
runs cancels, so the interval is narrower than Newcombe's for two independent samples.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from ...agents.stats import Z95
from ..store import read_rows


def _keyed(run: Path | str) -> dict[tuple[int, Any], tuple[float, int]]:
    t = read_rows(run)
    games = t.column("game").to_pylist()
    roles = t.column("role").to_pylist()
    shares = t.column("win_share").to_pylist()
    seats = t.column("seat").to_pylist()
    # (game, role) identifies a seat-game in both runs (roles rotate with the schedule, not the agents)
    return {(g, r if r is not None else f"seat {s}"): (w, g) for g, r, w, s in zip(games, roles, shares, seats,
                                                                                  strict=True)}


def paired_role_diffs(base: Path | str, other: Path | str, players: int) -> list[dict[str, Any]]:
    """Per role: other minus base, from the seat-games both runs played, with a block-clustered 95% CI."""
    a, b = _keyed(base), _keyed(other)
    common = sorted(set(a) & set(b), key=lambda k: (k[0], str(k[1])))
    by_role: dict[Any, list[tuple[int, float]]] = {}
    for k in common:
        by_role.setdefault(k[1], []).append((k[0] // players, b[k][0] - a[k][0]))
    out = []
    for role, pairs in sorted(by_role.items(), key=lambda kv: str(kv[0])):
        blocks: dict[int, list[float]] = {}
        for blk, d in pairs:
            blocks.setdefault(blk, []).append(d)
        sums = np.array([sum(v) for v in blocks.values()])
        counts = np.array([len(v) for v in blocks.values()], dtype=float)
        n, nb = int(counts.sum()), len(blocks)
        if nb < 10:
            out.append({"key": role, "pairs": n, "diff": float(sums.sum() / n), "ci95": None, "too_few": True})
            continue
        mean = float(sums.sum() / counts.sum())
        resid = sums - mean * counts
        se = math.sqrt(nb / (nb - 1) * float((resid ** 2).sum())) / float(counts.sum())
        out.append({"key": role, "pairs": n, "diff": mean, "ci95": [mean - Z95 * se, mean + Z95 * se],
                    "significant": not mean - Z95 * se <= 0 <= mean + Z95 * se})
    return out
