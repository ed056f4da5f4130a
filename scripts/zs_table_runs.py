"""Zauberschmiede at a table of several agents (e.g. ``expert,hard,hard,hard``) on the arena schedule
of ``--seed`` (seats rotated: the same games as ``grimoire arena zauberschmiede --agents ... --seed S``),
one JSON line per finished game appended to ``--jsonl`` as it ends (a stopped run keeps its games; the
same command continues it), then the first agent's win share with its 95% Wilson interval.
``--summary`` only reads the file.

    python scripts/zs_table_runs.py --agents expert,hard:iterations=150,time=0,hard:iterations=150,time=0,... \\
        --games 32 --seed 2271 --jsonl expert4.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from grimoire.agents import parse_agents
from grimoire.agents.arena import play_game, schedule
from grimoire.agents.stats import wilson


def summary(path: str, label: str) -> str:
    rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    share = 0.0
    scores: list[int] = []
    others: list[int] = []
    for r in rows:
        i = r["agents"].index(label)
        share += r["win_share"][i]
        scores.append(r["scores"][i])
        others.extend(s for j, s in enumerate(r["scores"]) if j != i)
    lo, hi = wilson(share, len(rows))
    return (f"{label}: {share:g} wins of {len(rows)} games = {100 * share / len(rows):.1f}% "
            f"[{100 * lo:.1f}, {100 * hi:.1f}] (par {100 / len(rows[0]['agents']):.0f}%); mean score "
            f"{statistics.fmean(scores):.1f}, the others' {statistics.fmean(others):.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agents", required=True)
    ap.add_argument("--games", type=int, default=32)
    ap.add_argument("--seed", type=int, default=2271)
    ap.add_argument("--jsonl", required=True)
    ap.add_argument("--summary", action="store_true")
    args = ap.parse_args()
    labels = [s.label for s in parse_agents("zauberschmiede", args.agents)]
    if not args.summary:
        path = Path(args.jsonl)
        lines = path.read_text().splitlines() if path.exists() else []
        done = {json.loads(ln)["index"] for ln in lines if ln.strip()}
        with path.open("a") as f:
            for spec in schedule("zauberschmiede", labels, args.games, args.seed):
                if spec.index in done:
                    continue
                r = play_game(spec)
                f.write(json.dumps({k: r[k] for k in ("index", "seed", "agents", "scores", "win_share")}) + "\n")
                f.flush()
                print(r["index"], r["agents"], r["scores"], flush=True)
    print(summary(args.jsonl, labels[0]))


if __name__ == "__main__":
    main()
