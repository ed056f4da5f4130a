"""Mean solo scores of arena runs with 95% intervals, and the paired difference of two runs played on the
same arena seed (the same games): ``python scripts/solo_ladder.py expert.json hard.json``. A run of several
seeds is its files joined by commas (``new-7921.json,new-7922.json``): the games are pooled.

Each file is the ``--json`` output of ``grimoire arena GAME --agents NAME --players 1 --seed S``."""

from __future__ import annotations

import json
import sys

from grimoire.agents.stats import mean_interval


def scores(paths: str) -> tuple[str, dict[tuple, float]]:
    """The agent's name and its score per game, keyed by (arena seed, game seed): one file or several."""
    out: dict[tuple, float] = {}
    for path in paths.split(","):
        d = json.load(open(path, encoding="utf-8"))
        agent = d["games"][0]["agents"][0]
        run = d.get("config", {}).get("seed")
        out.update({(run, g["seed"]): float(g["scores"][0]) for g in d["games"]})
    return agent, out


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
            d = [sa[k] - sb[k] for k in common]
            print(f"{a} - {b} on the same {len(common)} games: {interval(d)} "
                  f"({sum(x > 0 for x in d)} better, {sum(x < 0 for x in d)} worse, {sum(x == 0 for x in d)} equal)")


if __name__ == "__main__":
    main(sys.argv[1:])
