"""How much the RL adapters add to the engine's own time per step (docs/rl.md, "Speed").

    .venv/bin/python scripts/rl_bench.py --game zavandor --players 4 --games 20 --max-rounds 10

Trajectories are made first (random legal ids, seeded), then replayed on every path, so that each
path times the same states and actions:

- engine: ``legal_actions()`` + ``apply()`` (what a random agent costs per step);
- encoding: the game's ``observation_tensor(seat)`` + ``legal_mask()`` (the descriptor's tensor and
  codec: work every learning interface needs, done by the game's code);
- pettingzoo: ``env.last()`` + ``env.step(id)``;
- openspiel: ``state.legal_actions()`` + ``state.observation_tensor(seat)`` + ``state.apply_action(id)``;
- gymnasium: ``env.step(id)`` of the learning seat, the others replayed by scripted opponents (one
  seat's observation per learner step, as in training).

"adapter's own code" is a path's time minus the same work written straight against the contract
(tensor, mask or legal ids, decode, apply), both timed with the game's encoding served from a table
(it is far larger than the adapters' code and its noise would hide it), compared with the engine step.
``--profile pettingzoo`` (or openspiel, gymnasium) prints where that path spends its time.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections import deque
from pathlib import Path

import numpy as np

import grimoire
import grimoire.rl as rl
from grimoire.core.agent import Agent
from grimoire.core.registry import game_info
from grimoire.rl.openspiel_bridge import SEEDS_PER_GAME, deal_digits


def trajectories(game: str, players: int, games: int, seed: int, options: dict) -> list[tuple[int, list[int]]]:
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        s = grimoire.new_game(game, players, seed + g, **options)
        ids = []
        bound = game_info(game).game_length_bound(players, options)
        while not s.is_terminal() and len(ids) < bound:
            i = int(rng.choice(s.legal_action_ids()))
            ids.append(i)
            s.apply(s.action_from_id(i))
        out.append((seed + g, ids))
    return out


def run_engine(game, players, trajs, options) -> float:
    t = 0.0
    clock = time.process_time   # CPU time: robust to the other loads of a shared machine
    for seed, ids in trajs:
        s = grimoire.new_game(game, players, seed, **options)
        t0 = clock()
        for i in ids:
            s.legal_actions()
            s.apply(s.action_from_id(i))
        t += clock() - t0
    return t


def run_encoding(game, players, trajs, options) -> float:
    t = 0.0
    clock = time.process_time   # CPU time: robust to the other loads of a shared machine
    for seed, ids in trajs:
        s = grimoire.new_game(game, players, seed, **options)
        for i in ids:
            t0 = clock()
            s.observation_tensor(s.current_player)
            s.legal_mask()
            t += clock() - t0
            s.apply(s.action_from_id(i))
    return t


def run_direct(game, players, trajs, options, mask: bool) -> float:
    """The same work as an adapter's step, written straight against the contract: the deciding seat's
    tensor, its mask (or legal ids), decode and apply. An adapter's own cost is its time minus this."""
    t = 0.0
    clock = time.process_time   # CPU time: robust to the other loads of a shared machine
    for seed, ids in trajs:
        s = grimoire.new_game(game, players, seed, **options)
        t0 = clock()
        for i in ids:
            s.observation_tensor(s.current_player)
            s.legal_mask() if mask else s.legal_action_ids()
            s.apply(s.action_from_id(i))
        t += clock() - t0
    return t


def run_pettingzoo(game, players, trajs, options) -> float:
    env = rl.pettingzoo_raw_env(game, players=players, **options)     # (without PettingZoo's wrappers)
    t = 0.0
    clock = time.process_time   # CPU time: robust to the other loads of a shared machine
    for seed, ids in trajs:
        env.reset(seed=seed)
        t0 = clock()
        for i in ids:
            env.last()
            env.step(i)
        t += clock() - t0
    return t


def run_openspiel(game, players, trajs, options) -> float:
    g = rl.openspiel_game(game, players=players, seed=0, chance="seed", **options)   # the engine's own draws
    t = 0.0
    clock = time.process_time   # CPU time: robust to the other loads of a shared machine
    for seed, ids in trajs:
        assert seed < SEEDS_PER_GAME
        state = g.new_initial_state()
        for d in deal_digits(seed):      # the chance nodes deal grimoire seed `seed`
            state.apply_action(d)
        t0 = clock()
        for i in ids:
            state.legal_actions()
            state.observation_tensor(state.current_player())
            state.apply_action(i)
        t += clock() - t0
    return t


class Scripted(Agent):
    """Replays the other seats' ids of a trajectory."""

    def __init__(self, queue):
        super().__init__(0)
        self.queue = queue

    def choose(self, state, seat):
        return state.action_from_id(self.queue.popleft())


def run_gymnasium(game, players, trajs, options) -> tuple[float, int]:
    t = 0.0
    learner_steps = 0
    clock = time.process_time   # CPU time: robust to the other loads of a shared machine
    for seed, ids in trajs:
        ref = grimoire.new_game(game, players, seed, **options)
        seats = []
        for i in ids:
            seats.append(ref.current_player)
            ref.apply(ref.action_from_id(i))
        learner = seats[0]                # the seat that opens the game learns: no opponent moves at reset
        env = rl.gymnasium_env(game, players=players, seat=learner, **options)
        env.reset(seed=seed)
        queue = deque(i for i, s in zip(ids, seats, strict=True) if s != learner)
        mine = [i for i, s in zip(ids, seats, strict=True) if s == learner]
        for s in env.opponents:
            env.opponents[s] = Scripted(queue)
        t0 = clock()
        for i in mine:
            env.step(i)
        t += clock() - t0
        learner_steps += len(mine)
    return t, learner_steps


PATHS = {"pettingzoo": (run_pettingzoo, True), "openspiel": (run_openspiel, False)}


class CachedEncoding:
    """Serves the game's tensors, masks and legal ids of the trajectories from a table (one dict
    lookup, the same in every path), so that the difference between an adapter and the direct loop
    is the adapter's own code, not noise of the game's much larger encoding cost."""

    NAMES = ("observation_tensor", "legal_mask", "legal_action_ids")

    def __init__(self, game, players, trajs, options):
        self.table: dict = {}
        for seed, ids in trajs:
            s = grimoire.new_game(game, players, seed, **options)
            for i in [*ids, None]:
                seats = range(players) if i is None else [s.current_player]
                for seat in seats:
                    self.table[("t", seed, s._hist_len, seat)] = s.observation_tensor(seat)
                self.table[("m", seed, s._hist_len)] = s.legal_mask()
                self.table[("i", seed, s._hist_len)] = s.legal_action_ids()
                if i is not None:
                    s.apply(s.action_from_id(i))
        self.cls = type(s)
        self.saved = {n: self.cls.__dict__.get(n) for n in self.NAMES}

    def __enter__(self):
        table = self.table
        self.cls.observation_tensor = lambda st, seat: table[("t", st.seed, st._hist_len, seat)]
        self.cls.legal_mask = lambda st: table[("m", st.seed, st._hist_len)]
        self.cls.legal_action_ids = lambda st: table[("i", st.seed, st._hist_len)]
        return self

    def __exit__(self, *exc):
        for n, f in self.saved.items():
            if f is None:
                delattr(self.cls, n)
            else:
                setattr(self.cls, n, f)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="zavandor")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-rounds", type=int, default=None)
    ap.add_argument("--profile", choices=["pettingzoo", "openspiel", "gymnasium"], default=None)
    ap.add_argument("--repeat", type=int, default=5, help="time every path this often, keep the fastest")
    ap.add_argument("--toy", action="store_true", help="register the tests' toy game (rltoy) first")
    args = ap.parse_args(argv)
    if args.toy:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from grimoire.core.registry import register
        from tests.rl.toygame import INFO
        register(INFO)
    options = {} if args.max_rounds is None else {"max_rounds": args.max_rounds}
    trajs = trajectories(args.game, args.players, args.games, args.seed, options)
    steps = sum(len(ids) for _, ids in trajs)

    def best(fn, *extra):      # the machine is shared: the fastest of several runs is the least disturbed
        return min(fn(args.game, args.players, trajs, options, *extra) for _ in range(args.repeat))

    engine = best(run_engine) / steps
    encoding = best(run_encoding) / steps
    us = 1e6
    print(f"{args.game}, {args.players} players, {args.games} games, {steps} steps, options {options}")
    print(f"  engine (legal_actions + apply)     {engine * us:8.1f} us/step  ({1 / engine:7.0f} steps/s)")
    print(f"  encoding (tensor + mask)           {encoding * us:8.1f} us/step")
    if args.profile:
        prof = cProfile.Profile()
        fn = PATHS[args.profile][0] if args.profile in PATHS else (lambda *a: run_gymnasium(*a)[0])
        prof.runcall(fn, args.game, args.players, trajs, options)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return
    rows = []
    for name, (fn, mask) in PATHS.items():
        rows.append((name, best(fn) / steps, steps, mask))
    t, learner = min(run_gymnasium(args.game, args.players, trajs, options) for _ in range(args.repeat))
    rows.append(("gymnasium", t / learner, learner, True))
    # the adapters' own code, with the game's encoding served from a table in both loops
    with CachedEncoding(args.game, args.players, trajs, options):
        for k, (name, per, count, mask) in enumerate(rows):
            direct = best(run_direct, mask) / steps
            if name == "gymnasium":
                total, _ = min(run_gymnasium(args.game, args.players, trajs, options) for _ in range(args.repeat))
                # the direct loop encodes every action; the gymnasium env only the learner's
                over = (total - direct * steps) / steps
            else:
                over = best(PATHS[name][0]) / steps - direct
            rows[k] = (name, per, count, over)
    for name, per, _count, over in rows:
        unit = "learner step" if name == "gymnasium" else "step"
        print(f"  {name:<11} {per * us:8.1f} us/{unit} ({1 / per:7.0f} steps/s); adapter's own code "
              f"{over * us:5.1f} us/action = {over / engine:5.2f} x engine")

if __name__ == "__main__":
    main()
