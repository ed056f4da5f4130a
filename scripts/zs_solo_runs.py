"""Zauberschmiede solo runs of any agent specification (parameters included, e.g.
``hard:iterations=600,time=0``) on the arena schedule of ``--seed``: the same games as
``grimoire arena zauberschmiede --agents NAME -p 1 --seed S``. Writes the arena's JSON (read it with
``scripts/solo_ladder.py``) with the process CPU seconds per decision added to the config.

    python scripts/zs_solo_runs.py --agent hard:iterations=600,time=0 --games 8 --seed 2231 --json h600.json
"""

from __future__ import annotations

import argparse
import statistics
import time

from grimoire.agents import make_agent, parse_agent
from grimoire.agents.arena import run_arena, summarize, write_json
from grimoire.agents.measure import check_games_and_json
from grimoire.core.agent import Agent

CPU: list[float] = []          # this thread's CPU seconds of every decision


class Timed(Agent):
    """Another agent, its decisions timed in CPU seconds (the arena's own figures are wall time)."""

    def __init__(self, base: Agent):
        super().__init__(0)
        self.base = base
        self.name = base.name

    def choose(self, state, seat):
        t0 = time.thread_time()
        a = self.base.choose(state, seat)
        CPU.append(time.thread_time() - t0)
        return a


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agent", required=True)
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seed", type=int, default=2231)
    ap.add_argument("--json", required=True)
    args = ap.parse_args()
    check_games_and_json(ap, args.games, args.json)               # before the games, so that none is lost
    label = parse_agent("zauberschmiede", args.agent).label      # one clear line for a bad specification
    t0 = time.process_time()
    results = run_arena("zauberschmiede", [label], args.games, args.seed,
                        on_result=lambda r: print(r["seed"], r["scores"][0], flush=True),
                        factories={label: lambda seed: Timed(make_agent("zauberschmiede", label, seed))})
    cpu = time.process_time() - t0
    decisions = sum(sum(r.get("decisions", [0])) for r in results) or None
    summary = summarize(results)
    config = {"game": "zauberschmiede", "agents": [label], "players": 1, "games": args.games,
              "seed": args.seed, "cpu_seconds": round(cpu, 1), "decision_cpu_mean": round(statistics.fmean(CPU), 4),
              "decision_cpu_max": round(max(CPU), 3)}
    write_json(args.json, config, results)
    print(label, "mean", round(summary["agents"][0]["mean_score"], 1), "cpu", round(cpu, 1), "s,",
          "decisions", decisions, "CPU s per decision: mean", config["decision_cpu_mean"], "max",
          config["decision_cpu_max"])


if __name__ == "__main__":
    main()
