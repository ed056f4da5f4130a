"""Time the learning interface of Zavandor on mid-game positions: legal_action_ids, observation_tensor,
observation (and legal_actions, for comparison).

    .venv/bin/python scripts/zavandor_learning_timing.py --players 4 --games 5 --seed 1

Positions: every decision of rounds 6-10 of games between medium AIs (an auction, a payment or a
discard is as likely as in a real game). Prints microseconds per call (mean over all positions,
the best of several passes). Run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import time

import grimoire
from grimoire.agents import make_agent


def positions(players: int, games: int, seed: int) -> list:
    out = []
    for g in range(games):
        state = grimoire.new_game("zavandor", players, seed + g, max_rounds=10)
        agents = [make_agent("zavandor", "medium", seed + g * 10 + i) for i in range(players)]
        while not state.is_terminal():
            if state.round >= 6:
                out.append(state.clone())
            cp = state.current_player
            state.apply(agents[cp].choose(state, cp))
    return out


def per_call_us(states: list, fn, repeat: int) -> float:
    """The best of ``repeat`` passes over all positions (CPU time of this process: the machine may be shared)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        for s in states:
            fn(s)
        best = min(best, time.process_time() - t)
    return best / len(states) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    states = positions(args.players, args.games, args.seed)
    for s in states[:1]:                   # warm the caches (tensor layout, interned actions)
        s.observation_tensor(s.current_player)
    print(f"{len(states)} positions, {args.players} players")
    calls = {
        "legal_actions": lambda s: s.legal_actions(),
        "legal_action_ids": lambda s: s.legal_action_ids(),
        "observation": lambda s: s.observation(s.current_player),
        "observation_tensor": lambda s: s.observation_tensor(s.current_player),
        "hints": lambda s: s.hints(s.current_player),
    }
    for name, fn in calls.items():
        print(f"{name:20s} {per_call_us(states, fn, args.repeat):8.1f} µs")


if __name__ == "__main__":
    main()
