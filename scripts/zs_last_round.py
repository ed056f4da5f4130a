"""The Zauberschmiede solo planner's last round at several beam widths, on the same positions: an
agent plays each game of the arena schedule of ``--seed`` up to the start of the last round, then
every ``--widths`` entry (beam/pilots, or ``exact``: the last round solved exactly, lastround.py) plans
that round and its plan's exact final score and CPU seconds are printed. The last round has no chance
left, so the paired difference per game is exact; and as the last round's planner changes nothing
before it, each entry's mean is the mean final score of the agent with that last round.

    python scripts/zs_last_round.py --agent expert --games 24 --seed 7703 --widths 96/8,192/12,exact
"""

from __future__ import annotations

import argparse
import statistics
import time
from functools import partial
from typing import Any

from grimoire.agents import make_agent
from grimoire.agents.arena import game_spec
from grimoire.core.registry import new_game
from grimoire.games.zauberschmiede import lastround
from grimoire.games.zauberschmiede.planner import beam_plans, final_score


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agent", default="expert")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seed", type=int, default=7703)
    ap.add_argument("--widths", default="24/4,96/8")
    args = ap.parse_args()
    widths = [(0, 0) if w == "exact" else tuple(int(x) for x in w.split("/")) for w in args.widths.split(",")]
    rows: list[list[int]] = []
    cpu: list[list[float]] = [[] for _ in widths]
    for g in range(args.games):
        spec = game_spec("zauberschmiede", [args.agent], g, args.seed)
        state: Any = new_game("zauberschmiede", 1, spec.seed, **spec.options)     # a ZauberschmiedeState
        agent = make_agent("zauberschmiede", args.agent, spec.agent_seeds[0])
        while not (state.round == state.var.last_round and all(not u for u in state.players[0].used)):
            state.apply(agent.choose(state, 0))
        p, var = state.players[0], state.var
        row = []
        for i, (beam, pilots) in enumerate(widths):
            t0 = time.thread_time()
            if beam:
                plans = beam_plans(var, p, var.last_round, beam, pilots)
                row.append(max(final_score(var, e) for _v, _s, e in plans))
            else:
                row.append(int(lastround.solve(var, p, partial(final_score, var), 0)[0]))
            cpu[i].append(time.thread_time() - t0)
        rows.append(row)
        print(spec.seed, *row, flush=True)
    names = [f"{b}/{k}" if b else "exact" for b, k in widths]
    for i, name in enumerate(names):
        diff = [r[i] - r[0] for r in rows]
        print(f"{name}: mean {statistics.fmean(r[i] for r in rows):.2f}, - {names[0]} "
              f"{statistics.fmean(diff):+.2f} (better in {sum(d > 0 for d in diff)}, worse in "
              f"{sum(d < 0 for d in diff)} of {len(rows)}), CPU mean {statistics.fmean(cpu[i]):.2f} s, "
              f"max {max(cpu[i]):.2f} s")


if __name__ == "__main__":
    main()
