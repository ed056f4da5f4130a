"""The paired difference of two ladder runs on the same seed (the same games): the win share of the
first-named agent (the first of ``--agents``) in run A minus in run B, game by game, with a 95%
interval (normal approximation over the games), and each run's win share with its Wilson interval.

    python scripts/zavandor_ladder_paired.py a.jsonl b.jsonl

Each file is the ``--jsonl`` (or ``--json``) output of scripts/zavandor_expert_ladder.py.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path

from grimoire.agents.stats import wilson


def first_agent_shares(path: str) -> tuple[str, dict[int, float]]:
    """(the first-named agent, game index -> its win share) of one run."""
    text = Path(path).read_text(encoding="utf-8")
    games = json.loads(text)["games"] if path.endswith(".json") else [json.loads(ln) for ln in text.splitlines() if ln]
    out: dict[int, float] = {}
    name = ""
    for g in games:
        n = len(g["agents"])
        seat = (-g["index"]) % n       # the arena rotates the agents one seat per game of a block
        name = g["agents"][seat]
        out[g["index"]] = float(g["win_share"][seat])
    return name, out


def main(paths: list[str]) -> int:
    if len(paths) != 2:
        print("usage: zavandor_ladder_paired.py A.jsonl B.jsonl", file=sys.stderr)
        return 2
    (na, a), (nb, b) = (first_agent_shares(p) for p in paths)
    for name, s in ((na, a), (nb, b)):
        lo, hi = wilson(sum(s.values()), len(s))
        share = 100 * sum(s.values()) / max(len(s), 1)
        print(f"{name}: {share:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] over {len(s)} games")
    common = sorted(set(a) & set(b))
    if len(common) > 1:
        d = [a[k] - b[k] for k in common]
        m = statistics.fmean(d)
        half = 1.96 * statistics.stdev(d) / math.sqrt(len(d))
        print(f"A - B on the same {len(d)} games: {100 * m:+.1f} points "
              f"[{100 * (m - half):+.1f}, {100 * (m + half):+.1f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
