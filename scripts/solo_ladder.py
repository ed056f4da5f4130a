"""Mean solo scores of arena runs with 95% intervals, and the paired difference of two runs played on the
same arena seed (the same games): ``python scripts/solo_ladder.py expert.json hard.json``.

Each file is the ``--json`` output of ``grimoire arena GAME --agents NAME --players 1 --seed S``."""

from __future__ import annotations

import json
import sys

from grimoire.agents.stats import mean_interval


def scores(path: str) -> tuple[str, dict[int, float]]:
    d = json.load(open(path, encoding="utf-8"))
    agent = d["games"][0]["agents"][0]
    return agent, {g["seed"]: float(g["scores"][0]) for g in d["games"]}


def interval(xs: list[float]) -> str:
    m, lo, hi = mean_interval(xs)
    return f"{m:.1f} [{lo:.1f}, {hi:.1f}] over {len(xs)} games"


def main(paths: list[str]) -> None:
    runs = [scores(p) for p in paths]
    for agent, s in runs:
        print(f"{agent}: mean {interval(list(s.values()))}")
    if len(runs) == 2:
        (a, sa), (b, sb) = runs
        common = sorted(set(sa) & set(sb))
        if len(common) > 1:
            print(f"{a} - {b} on the same {len(common)} games: {interval([sa[k] - sb[k] for k in common])}")


if __name__ == "__main__":
    main(sys.argv[1:])
