"""Positions for the Shuluri expert's network: 2-player games, the features of ``ai/features.py`` at the
start of every step for both seats, and each seat's final result.

    nice -n 10 .venv/bin/python scripts/shuluri_expert_data.py --agents medium,medium --games 400 \\
        --seed 3000000 --shard 50 --out runs/shu-data/mm

The games are the arena's schedule (``grimoire arena shuluri --agents A,B --seed S``: seeds, agent
seeds, seats swapped every game); any agent specification works (``hard:iterations=30,time=0``: a
fixed budget, so the data depend only on the seed). The result is the search's reward
(``ai/search.py``): 1 for a win, 0 for a loss, ``DRAW`` for the round cap. One ``.npz`` per
``--shard`` games (``x``: features, ``z``: result, ``game``: the game's index), written atomically; a
rerun of the same command skips the shards already written.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

from grimoire import new_game
from grimoire.agents import make_agent, parse_agents, split_specs
from grimoire.agents.arena import schedule
from grimoire.agents.measure import pin_hash_seed
from grimoire.core.episode import run_episode
from grimoire.core.errors import GameConfigError
from grimoire.games.shuluri.ai.features import SIZE, features
from grimoire.games.shuluri.ai.search import DRAW


def play(spec) -> tuple[list[np.ndarray], list[float]]:
    """One game: the feature rows (both seats at the start of each step in play) and their results."""
    state = new_game("shuluri", spec.players, spec.seed, **spec.options)
    agents = [make_agent("shuluri", a, s) for a, s in zip(spec.agents, spec.agent_seeds, strict=True)]
    rows: list[tuple[int, np.ndarray]] = []
    last: list[tuple] = [()]

    def on_step(s, seat, action) -> None:
        key = (s.round, s.step_i)
        if s.phase == "play" and key != last[0]:
            last[0] = key
            rows.extend((p, features(s, p)) for p in range(2))

    run_episode(state, agents, on_step=on_step, timed=False)
    w = set(state.winners())
    result = [(DRAW if len(w) > 1 else 1.0) if p in w else 0.0 for p in range(2)]
    return [x for _p, x in rows], [result[p] for p, _x in rows]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agents", default="medium,medium", help="two agent specifications")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=3000000)
    ap.add_argument("--shard", type=int, default=50, help="games per file")
    ap.add_argument("--max-rounds", type=int, default=None, help="end a game after this round (a draw)")
    ap.add_argument("--out", required=True, help="a directory")
    args = ap.parse_args(argv)
    try:
        parse_agents("shuluri", args.agents)
    except GameConfigError as e:
        raise SystemExit(f"--agents: {e}") from None
    agents = split_specs(args.agents)
    if len(agents) != 2:
        raise SystemExit("--agents: two agents (2 players)")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    options = {"max_rounds": args.max_rounds} if args.max_rounds else {}
    specs = schedule("shuluri", agents, args.games, args.seed, options)
    for k in range(0, args.games, args.shard):
        path = out / f"games-{k:06d}.npz"
        if path.exists():
            continue
        t0 = time.process_time()
        xs: list[np.ndarray] = []
        zs: list[float] = []
        gs: list[int] = []
        for sp in specs[k:k + args.shard]:
            x, z = play(sp)
            xs += x
            zs += z
            gs += [sp.index] * len(x)
        tmp = out / f".games-{k:06d}.tmp.npz"
        np.savez(tmp, x=np.asarray(xs, dtype=np.float32).reshape(-1, SIZE), z=np.asarray(zs, dtype=np.float32),
                 game=np.asarray(gs, dtype=np.int32))
        os.replace(tmp, path)
        print(f"{path.name}: {len(zs)} rows, {time.process_time() - t0:.0f} s of CPU", flush=True)
    return 0


if __name__ == "__main__":
    pin_hash_seed()
    raise SystemExit(main())
