"""Time every decision of the hard Zavandor AI in real games (hard against medium seats).

    .venv/bin/python scripts/zavandor_hard_timing.py --games 4 --players 4 --seed 1

Prints the number of decisions, how many were searched, and the mean / median / 90th / 99th
percentile / maximum seconds per decision. Run it on a quiet machine (one process per core at most):
the hard level must stay under 3 s per move; its search budget is 300 iterations or 2 s.
"""

from __future__ import annotations

import argparse
import statistics
import time

import grimoire
from grimoire.agents import make_agent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    times: list[float] = []
    searched = 0
    for g in range(args.games):
        state = grimoire.new_game("zavandor", args.players, args.seed + g)
        hard_seat = g % args.players
        agents = [make_agent("zavandor", "hard" if i == hard_seat else "medium", 100 * g + i)
                  for i in range(args.players)]
        while not state.is_terminal():
            cp = state.current_player
            if cp == hard_seat:
                t0 = time.perf_counter()
                a = agents[cp].choose(state, cp)
                times.append(time.perf_counter() - t0)
            else:
                a = agents[cp].choose(state, cp)
            state.apply(a)
        searched += agents[hard_seat].hooks.searched
        print(f"game {g + 1}: {state.round} rounds, scores {state.scores()}, hard in seat {hard_seat}", flush=True)
    times.sort()

    def pct(q: float) -> float:
        return times[min(len(times) - 1, int(q * len(times)))]

    print(f"decisions {len(times)}, searched {searched}, mean {statistics.mean(times):.3f} s, "
          f"median {pct(0.5):.3f} s, p90 {pct(0.9):.3f} s, p99 {pct(0.99):.3f} s, max {times[-1]:.3f} s")


if __name__ == "__main__":
    main()
