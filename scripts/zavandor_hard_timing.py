"""Time every decision of the hard Zavandor AI in real games (hard against medium seats).

    .venv/bin/python scripts/zavandor_hard_timing.py --games 4 --players 4 --seed 1

Prints the number of decisions, how many were searched, and the mean / median / 90th / 99th
percentile / maximum seconds per decision. Run it on a quiet machine (one process per core at most):
the hard level must stay under 3 s per move; its search budget is 300 iterations or 2 s.
Game g has the seed ``derive_seed(seed, g)`` and seat i's agent ``derive_seed(seed, g, 2, i)``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import grimoire
from grimoire.agents import make_agent


class Timed:
    """An agent that records how long each of its decisions took."""

    def __init__(self, agent, times: list[float]):
        self.agent, self.times = agent, times

    def choose(self, state, seat):
        t0 = time.perf_counter()
        action = self.agent.choose(state, seat)
        self.times.append(time.perf_counter() - t0)
        return action


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    times: list[float] = []
    searched = 0
    for g in range(args.games):
        state = grimoire.new_game("zavandor", args.players, grimoire.derive_seed(args.seed, g))
        hard_seat = g % args.players
        agents = [make_agent("zavandor", "hard" if i == hard_seat else "medium",
                             grimoire.derive_seed(args.seed, g, 2, i)) for i in range(args.players)]
        hard = agents[hard_seat]
        agents[hard_seat] = Timed(hard, times)
        grimoire.run_episode(state, agents, timed=False)
        searched += hard.hooks.searched
        print(f"game {g + 1}: {state.round} rounds, scores {state.scores()}, hard in seat {hard_seat}", flush=True)
    times.sort()

    def pct(q: float) -> float:
        return times[min(len(times) - 1, int(q * len(times)))]

    print(f"decisions {len(times)}, searched {searched}, mean {statistics.mean(times):.3f} s, "
          f"median {pct(0.5):.3f} s, p90 {pct(0.9):.3f} s, p99 {pct(0.99):.3f} s, max {times[-1]:.3f} s")


if __name__ == "__main__":
    main()
