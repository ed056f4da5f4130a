"""A masked random policy playing a Grimoire game through the PettingZoo AEC adapter.

    python examples/pettingzoo_random.py --game zavandor --players 4 --episodes 3 --max-rounds 5

Each agent samples uniformly among the ids its action mask allows; the episode ends when every agent
is terminated (the game is over: rewards are the shares of the win) or truncated (the game reached
its length bound without ending).
"""

from __future__ import annotations

import argparse

import numpy as np

import grimoire.rl as rl


def play(game: str, players: int, episodes: int, seed: int, **options) -> list[dict[str, float]]:
    """Play ``episodes`` games; each agent's total reward per episode."""
    env = rl.pettingzoo_env(game, players=players, seed=seed, **options)
    rng = np.random.default_rng(seed)
    results = []
    for _ in range(episodes):
        env.reset()
        totals = {a: 0.0 for a in env.possible_agents}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _info = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)       # the finished agent leaves
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(rng.choice(legal)))
        results.append(totals)
    env.close()
    return results


def main(argv: list[str] | None = None) -> list[dict[str, float]]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="zavandor")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--episodes", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-rounds", type=int, default=None)
    args = ap.parse_args(argv)
    options = {} if args.max_rounds is None else {"max_rounds": args.max_rounds}
    results = play(args.game, args.players, args.episodes, args.seed, **options)
    for i, totals in enumerate(results):
        print(f"episode {i}: " + ", ".join(f"{a} {r:g}" for a, r in totals.items()))
    return results


if __name__ == "__main__":
    main()
