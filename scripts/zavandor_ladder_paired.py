"""The paired difference of two ladder runs on the same seed (the same games): the win share of the
first-named agent (the first of ``--agents``) in run A minus in run B, game by game, with a 95%
interval (normal approximation over the games), and each run's win share with its Wilson interval;
then the same for its margin (its score minus the best other seat's), a finer measure where a change
moves a few points without turning many games (and the number of games whose scores differ at all).

    python scripts/zavandor_ladder_paired.py a.jsonl b.jsonl

Each file is the ``--jsonl`` (or ``--json``) output of scripts/zavandor_expert_ladder.py.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from grimoire.agents.stats import mean_interval, wilson


def first_agent_games(path: str) -> tuple[str, dict[int, tuple[float, float]]]:
    """(the first-named agent, game index -> (its win share, its margin)) of one run."""
    text = Path(path).read_text(encoding="utf-8")
    games = json.loads(text)["games"] if path.endswith(".json") else [json.loads(ln) for ln in text.splitlines() if ln]
    out: dict[int, tuple[float, float]] = {}
    name = ""
    for g in games:
        n = len(g["agents"])
        seat = (-g["index"]) % n       # the arena rotates the agents one seat per game of a block
        name = g["agents"][seat]
        best_other = max(x for i, x in enumerate(g["scores"]) if i != seat)
        out[g["index"]] = (float(g["win_share"][seat]), float(g["scores"][seat] - best_other))
    return name, out


def paired(d: list[float]) -> tuple[float, float]:
    """The mean of paired differences and the half-width of its 95% interval."""
    m, lo, _hi = mean_interval(d)
    return m, m - lo


def main(paths: list[str]) -> int:
    if len(paths) != 2:
        print("usage: zavandor_ladder_paired.py A.jsonl B.jsonl", file=sys.stderr)
        return 2
    (na, a), (nb, b) = (first_agent_games(p) for p in paths)
    for name, g in ((na, a), (nb, b)):
        wins = sum(share for share, _ in g.values())
        lo, hi = wilson(wins, len(g))
        print(f"{name}: {100 * wins / max(len(g), 1):.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] over {len(g)} games, "
              f"mean margin {statistics.fmean(m for _, m in g.values()) if g else 0:+.2f}")
    common = sorted(set(a) & set(b))
    if len(common) > 1:
        m, half = paired([a[k][0] - b[k][0] for k in common])
        print(f"A - B on the same {len(common)} games: {100 * m:+.1f} points "
              f"[{100 * (m - half):+.1f}, {100 * (m + half):+.1f}]")
        m, half = paired([a[k][1] - b[k][1] for k in common])
        moved = sum(a[k][1] != b[k][1] for k in common)
        print(f"margin A - B: {m:+.2f} [{m - half:+.2f}, {m + half:+.2f}] ({moved} games with another margin)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
