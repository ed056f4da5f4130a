"""The numbers of a balance report, computed from a run's rows (``analyse``) and compared between
runs (``compare``). Everything here is JSON-safe; the plots and the HTML only present it.

Win rates are win shares (a tie of k winners gives each 1/k) over seat-games with 95% Wilson
intervals (``grimoire.agents.stats.wilson``); differences of two rates have Newcombe's interval,
which is built from the two Wilson intervals; means have normal intervals (1.96 standard errors).
A rate is flagged when par (1 / players) lies outside its interval. Seat-games of one game are not
independent (their shares add up to 1), which makes these intervals slightly conservative.
"""

from __future__ import annotations

import json
import math
import shlex
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from ...agents.stats import Z95, wilson
from ...core.registry import game_info
from ..config import SimConfig, read_manifest
from ..play import GAME_STAT, SEAT_STAT
from ..store import read_rows

GROUP_MIN = 3           # seat statistics sharing a prefix ("artifact_cloak", ...) form an item group
RARE = 0.05             # an item held in fewer seat-games than this is "almost never taken"
MIN_N = 10              # a group of fewer seat-games (or games) gets no interval: "too few games"


def p_vs_par(wins: float, n: int, par: float) -> float:
    """Two-sided p-value of the score test of a rate against par (the test the Wilson interval inverts)."""
    if n <= 0 or not 0 < par < 1:
        return 1.0
    z = (wins / n - par) / math.sqrt(par * (1 - par) / n)
    return math.erfc(abs(z) / math.sqrt(2))


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error): compare each with 0.05."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adj = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adj[i] = running
    return adj


def pct_bound(x: float, par: float | None = None, digits: int = 1) -> str:
    """A rate as a percentage with as many decimals as it takes not to land on par when it is not
    par: an upper bound of 24.95% prints as 24.95%, never as a misleading 25.0%."""
    if par is not None and x != par:
        while digits < 4 and f"{100 * x:.{digits}f}" == f"{100 * par:.{digits}f}":
            digits += 1
    return f"{100 * x:.{digits}f}%"


def newcombe(w1: float, n1: int, w2: float, n2: int) -> tuple[float, float, float]:
    """p1 - p2 and its 95% interval (Newcombe's hybrid score interval, method 10)."""
    p1, p2 = w1 / n1, w2 / n2
    l1, u1 = wilson(w1, n1)
    l2, u2 = wilson(w2, n2)
    d = p1 - p2
    return d, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def mean_ci(x: np.ndarray) -> dict[str, Any]:
    n = int(x.size)
    if n == 0:
        return {"n": 0, "mean": None, "ci95": None, "sd": None}
    m = float(x.mean())
    sd = float(x.std(ddof=1)) if n > 1 else 0.0
    h = Z95 * sd / math.sqrt(n) if n > 1 else 0.0
    return {"n": n, "mean": m, "sd": sd, "ci95": [m - h, m + h]}


def mean_diff(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any] | None:
    """a - b with a 95% normal interval (unequal variances)."""
    if not a["n"] or not b["n"] or a.get("sd") is None or b.get("sd") is None:
        return None
    d = a["mean"] - b["mean"]
    se = math.sqrt((a["sd"] ** 2) / a["n"] + (b["sd"] ** 2) / b["n"])
    return {"diff": d, "ci95": [d - Z95 * se, d + Z95 * se]}


def rate_row(key: Any, shares: np.ndarray, scores: np.ndarray, par: float | None) -> dict[str, Any]:
    """A group's win rate against par; under MIN_N seat-games no interval and no verdict."""
    n = int(shares.size)
    wins = float(shares.sum())
    few = n < MIN_N
    lo, hi = wilson(wins, n)
    row = {"key": key, "seat_games": n, "wins": wins, "rate": wins / n if n else 0.0,
           "ci95": None if few else [lo, hi], "score": mean_ci(scores) if not few else
           {"n": n, "mean": float(scores.mean()) if n else None, "sd": None, "ci95": None}, "too_few": few}
    row["significant"] = bool(par is not None and not few and not lo <= par <= hi)
    row["p"] = p_vs_par(wins, n, par) if par is not None and not few else None
    return row


def distribution(x: np.ndarray, bins: int = 30, integer: bool = True) -> dict[str, Any]:
    if x.size == 0:
        return {"n": 0}
    lo, hi = float(x.min()), float(x.max())
    if integer and hi - lo + 1 <= bins * 2:
        edges = np.arange(lo - 0.5, hi + 1.5, max(1.0, math.ceil((hi - lo + 1) / bins)))
    else:
        edges = np.linspace(lo, hi if hi > lo else lo + 1, bins + 1)
    counts, edges = np.histogram(x, bins=edges)
    q = np.percentile(x, [10, 25, 50, 75, 90])
    return {"n": int(x.size), **mean_ci(x), "min": lo, "max": hi,
            "p10": float(q[0]), "p25": float(q[1]), "median": float(q[2]), "p75": float(q[3]), "p90": float(q[4]),
            "hist": {"edges": [float(e) for e in edges], "counts": [int(c) for c in counts]}}


def command_of(cfg: SimConfig, out: str) -> str:
    """The command that makes (or resumes) this run."""
    agents = cfg.agents[0] if len(set(cfg.agents)) == 1 else ",".join(cfg.agents)
    parts = ["grimoire", "simulate", cfg.game, "--players", str(cfg.players), "--agents", agents,
             "--games", str(cfg.games), "--seed", str(cfg.seed)]
    for k, v in sorted(cfg.options.items()):
        parts += ["-o", f"{k}={v if isinstance(v, str) else json.dumps(v)}"]
    if not cfg.rotate_roles:
        parts.append("--no-rotate-roles")
    parts += ["--batch-size", str(cfg.batch_size), "--engine", cfg.engine, "--out", out]
    return shlex.join(parts)


def agent_params(cfg: SimConfig, manifest: dict[str, Any]) -> dict[str, Any]:
    """Each agent's parameters (those given; an agent without any plays with its defaults)."""
    stored = (manifest.get("provenance") or {}).get("agents")
    if stored:
        return {k: v.get("params", {}) for k, v in stored.items()}
    from ...agents import parse_agent
    return {a: parse_agent(cfg.game, a).params for a in dict.fromkeys(cfg.agents)}


def _col(t: pa.Table, name: str, dtype=np.float64) -> np.ndarray:
    return t.column(name).to_numpy(zero_copy_only=False).astype(dtype)


def _by(t: pa.Table, key: str, shares: np.ndarray, scores: np.ndarray, par: float | None) -> list[dict[str, Any]]:
    col = t.column(key)
    if col.null_count == len(col):
        return []
    keys = np.asarray(col.to_pylist(), dtype=object)
    out = []
    for k in sorted(set(keys.tolist()), key=lambda v: (v is None, v)):
        m = keys == k
        out.append(rate_row(k, shares[m], scores[m], par))
    return out


def item_groups(seat_keys: list[str]) -> dict[str, list[str]]:
    """Per-seat statistics that share a prefix of at least GROUP_MIN keys ("artifact_*") form a group
    of items; the rest are single measures (group "")."""
    prefix_of: dict[str, list[str]] = {}
    for k in seat_keys:
        if "_" in k:
            prefix_of.setdefault(k.split("_", 1)[0], []).append(k)
    groups = {p: ks for p, ks in prefix_of.items() if len(ks) >= GROUP_MIN}
    grouped = {k for ks in groups.values() for k in ks}
    singles = [k for k in seat_keys if k not in grouped]
    return {**dict(sorted(groups.items())), **({"": singles} if singles else {})}


def item_row(key: str, value: np.ndarray, shares: np.ndarray, scores: np.ndarray, solo: bool) -> dict[str, Any]:
    """How often a seat had the item (value > 0) and how it fared with it and without it."""
    has = value > 0
    n, k = int(value.size), int(has.sum())
    lo, hi = wilson(k, n)
    row: dict[str, Any] = {"key": key, "seat_games": n, "with": k, "popularity": k / n if n else 0.0,
                           "popularity_ci95": [lo, hi], "mean_value": float(value.mean()) if n else 0.0,
                           "score_with": mean_ci(scores[has]), "score_without": mean_ci(scores[~has])}
    # no interval for a group under MIN_N seat-games ("too few games")
    row["score_diff"] = mean_diff(row["score_with"], row["score_without"]) if min(k, n - k) >= MIN_N else None
    if not solo:
        w1, w0 = float(shares[has].sum()), float(shares[~has].sum())
        row["rate_with"] = w1 / k if k else None
        row["rate_with_ci95"] = list(wilson(w1, k)) if k else None
        row["rate_without"] = w0 / (n - k) if n - k else None
        row["rate_without_ci95"] = list(wilson(w0, n - k)) if n - k else None
        if min(k, n - k) >= MIN_N:
            d, dl, dh = newcombe(w1, k, w0, n - k)
            row["rate_diff"] = {"diff": d, "ci95": [dl, dh]}
        else:
            row["rate_diff"] = None
    return row


def analyse(run: Path | str) -> dict[str, Any]:
    """The report's numbers for one run directory."""
    run = Path(run)
    manifest = read_manifest(run)
    t = read_rows(run)
    if manifest is None:
        raise FileNotFoundError(f"{run} has no run.json")
    cfg = SimConfig.from_dict(manifest)
    info = game_info(cfg.game)
    players = cfg.players
    solo = players == 1
    par = None if solo else 1.0 / players
    shares = _col(t, "win_share")
    scores = _col(t, "score")
    games_done = int(np.unique(_col(t, "game", np.int64)).size)
    blocks_complete = games_done % players == 0
    res: dict[str, Any] = {
        "run": {"path": str(run), "game": cfg.game, "title": info.title, "players": players,
                "agents": list(cfg.agents), "options": cfg.options, "seed": cfg.seed, "games_planned": cfg.games,
                "games": games_done, "seat_games": int(t.num_rows), "batch_size": cfg.batch_size, "engine": cfg.engine,
                "rotate_roles": cfg.rotate_roles, "role_option": info.arena.role_option,
                "command": command_of(cfg, str(run)), "complete_blocks": blocks_complete,
                "agent_params": agent_params(cfg, manifest), "provenance": manifest.get("provenance") or {},
                "created": manifest.get("created"), "extended_from": list(cfg.extended_from)},
        "solo": solo, "par": par,
    }
    res["by_role"] = _by(t, "role", shares, scores, par)
    res["by_seat"] = _by(t, "seat", shares, scores, par)
    res["by_turn_position"] = _by(t, "turn_position", shares, scores, par)
    res["by_agent"] = _by(t, "agent", shares, scores, par) if len(set(cfg.agents)) > 1 else []
    res["tests"] = correct([r for k in ("by_role", "by_seat", "by_turn_position", "by_agent") for r in res[k]])
    winners = _col(t, "rank", np.int64) == 1
    res["scores"] = distribution(scores)
    res["winner_scores"] = distribution(scores[winners]) if not solo else None
    first_seat = _col(t, "seat", np.int64) == 0           # one row per game for per-game numbers
    length: dict[str, Any] = {"actions": distribution(_col(t, "actions")[first_seat])}
    if t.column("rounds").null_count < t.num_rows:
        length["rounds"] = distribution(_col(t, "rounds")[first_seat])
    res["length"] = length
    names = t.column_names
    res["game_stats"] = {k[len(GAME_STAT):]: mean_ci(_col(t, k)[first_seat])
                         for k in names if k.startswith(GAME_STAT)}
    seat_keys = [k[len(SEAT_STAT):] for k in names if k.startswith(SEAT_STAT)]
    role_col = t.column("role")
    roles = None if role_col.null_count == len(role_col) else np.asarray(role_col.to_pylist(), dtype=object)
    if roles is not None and not solo:
        from .within import head_to_head
        res["head_to_head"] = head_to_head(roles, _col(t, "rank", np.int64), players)
    items: dict[str, list[dict[str, Any]]] = {}
    for group, keys in item_groups(seat_keys).items():
        items[group] = [item_row(k, np.nan_to_num(_col(t, SEAT_STAT + k)), shares, scores, solo) for k in keys]
        if not solo and roles is not None:
            from .within import within_roles
            for row in items[group]:
                row["within_roles"] = within_roles(np.nan_to_num(_col(t, SEAT_STAT + row["key"])), shares, roles)
    res["items"] = items
    from .words import findings
    res["findings"] = findings(res)                   # (in English; the terminal words them in its language)
    return res


def correct(rows: list[dict[str, Any]]) -> int:
    """Holm's correction over every rate tested against par in one run: each row gets ``p_holm`` and
    ``significant_holm``; returns the number of tests."""
    tested = [r for r in rows if r.get("p") is not None]
    for r, adj in zip(tested, holm([r["p"] for r in tested]), strict=True):
        r["p_holm"] = adj
        r["significant_holm"] = adj < 0.05
    return len(tested)


def compare(base: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """``other`` minus ``base``: win rates (Newcombe intervals), mean scores, lengths, item rates."""

    def rate_diffs(rows_a, rows_b):
        a = {r["key"]: r for r in rows_a}
        out = []
        for r in rows_b:
            if r["key"] in a and r["seat_games"] and a[r["key"]]["seat_games"]:
                d, lo, hi = newcombe(r["wins"], r["seat_games"], a[r["key"]]["wins"], a[r["key"]]["seat_games"])
                out.append({"key": r["key"], "base": a[r["key"]]["rate"], "other": r["rate"], "diff": d,
                            "ci95": [lo, hi], "significant": not lo <= 0 <= hi,
                            "score_diff": mean_diff(r["score"], a[r["key"]]["score"])})
        return out

    d: dict[str, Any] = {"base": base["run"]["path"], "other": other["run"]["path"]}
    for k in ("by_role", "by_seat", "by_turn_position", "by_agent"):
        d[k] = rate_diffs(base[k], other[k]) if not (base["solo"] or other["solo"]) else []
    d["score"] = mean_diff(other["scores"], base["scores"])
    d["length"] = {k: mean_diff(other["length"][k], base["length"][k])
                   for k in base["length"] if k in other["length"]}
    items = {}
    for group, rows in other["items"].items():
        a = {r["key"]: r for r in base["items"].get(group, [])}
        lst = []
        for r in rows:
            if r["key"] not in a:
                continue
            b = a[r["key"]]
            pd, plo, phi = newcombe(r["with"], r["seat_games"], b["with"], b["seat_games"])
            lst.append({"key": r["key"], "popularity_diff": {"diff": pd, "ci95": [plo, phi]},
                        "score_with_diff": mean_diff(r["score_with"], b["score_with"])})
        items[group] = lst
    d["items"] = items
    from .words import compare_findings
    d["findings"] = compare_findings(d, base, other)
    return d
