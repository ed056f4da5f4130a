"""CPU time of every decision of Zavandor's expert level in real games against medium (native engine).

    nice -n 10 .venv/bin/python scripts/zavandor_expert_timing.py --agent "expert:time=0,iterations=1000" \\
        --players 2 --games 10 --seed 1

Prints, for the searched decisions (those the shortcut left to the search) and for all of them, the
count and the mean / median / 99th percentile / maximum CPU seconds of the deciding thread
(``time.thread_time``: what the search itself costs, whatever else the machine runs). The expert sits
in seat ``g % players`` of game g; game g has the seed ``derive_seed(seed, g)``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import grimoire
from grimoire.agents import make_agent


def summary(label: str, times: list[float]) -> str:
    if not times:
        return f"{label}: none"
    t = sorted(times)
    p99 = t[min(len(t) - 1, int(0.99 * len(t)))]
    return (f"{label}: {len(t)}, mean {1000 * statistics.fmean(t):.1f} ms, median {1000 * t[len(t) // 2]:.1f} ms, "
            f"p99 {1000 * p99:.1f} ms, max {1000 * t[-1]:.1f} ms")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agent", default="expert", help="the timed agent's specification")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    searched: list[float] = []
    every: list[float] = []
    for g in range(a.games):
        state = grimoire.new_game("zavandor", a.players, grimoire.derive_seed(a.seed, g), backend="native")
        seat = g % a.players
        agents = [make_agent("zavandor", a.agent if i == seat else "medium", grimoire.derive_seed(a.seed, g, 2, i))
                  for i in range(a.players)]
        timed = agents[seat]
        while not state.is_terminal():
            cp = state.current_player
            if cp != seat:
                state.apply(agents[cp].choose(state, cp))
                continue
            t0 = time.thread_time()
            action = timed.choose(state, cp)
            dt = time.thread_time() - t0
            every.append(dt)
            stats = getattr(timed, "last_stats", {})
            if stats.get("iterations") and not stats.get("shortcut"):
                searched.append(dt)
            state.apply(action)
        print(f"game {g + 1}: scores {state.scores()}, expert in seat {seat}", flush=True)
    print(summary("searched decisions", searched))
    print(summary("all decisions", every))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
