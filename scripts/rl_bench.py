"""How much the RL adapters add to the engine's own time per step (docs/rl.md, "Speed").

    .venv/bin/python scripts/rl_bench.py --game zavandor --players 4 --games 20 --max-rounds 10
    .venv/bin/python scripts/rl_bench.py --speed --repeat 3      # the fast paths, before/after, anchors
    .venv/bin/python scripts/rl_bench.py --game shuluri --players 2 --backend native   # another engine

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
``--backend native`` times the paths on that engine (the trajectories are made on the Python one; the
OpenSpiel bridge has no engine choice, so its row stays on Python).
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

    NAMES = ("observation_tensor", "legal_mask", "legal_action_ids", "observation_tensor_into", "legal_mask_into")

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
        # (the adapters write into their buffers: served from the same table)
        self.cls.observation_tensor_into = lambda st, seat, out: out.__setitem__(
            Ellipsis, table[("t", st.seed, st._hist_len, seat)])
        self.cls.legal_mask_into = lambda st, out: out.__setitem__(Ellipsis, table[("m", st.seed, st._hist_len)])
        return self

    def __exit__(self, *exc):
        for n, f in self.saved.items():
            if f is None:
                delattr(self.cls, n)
            else:
                setattr(self.cls, n, f)


# --- --speed: the fast paths side by side with the dict path and with OpenSpiel's anchors -----------------
class Legacy:
    """The tensor and mask as they were built before ``observation_tensor_into``: from the observation
    dict (``spec.encode``) and the codec over ``legal_actions`` (the base class's methods)."""

    NAMES = ("observation_tensor", "observation_tensor_into", "legal_mask", "legal_mask_into", "legal_action_ids")

    def __init__(self):
        from grimoire.games.zauberschmiede.state import ZauberschmiedeState
        from grimoire.games.zavandor.native import NativeZavandorState
        from grimoire.games.zavandor.state import ZavandorState
        self.classes = (ZavandorState, NativeZavandorState, ZauberschmiedeState)
        self.saved = [{n: c.__dict__.get(n) for n in self.NAMES} for c in self.classes]

    def __enter__(self):
        from grimoire.core.state import GameState
        for c in self.classes:
            for n in self.NAMES:
                setattr(c, n, GameState.__dict__[n])
        return self

    def __exit__(self, *exc):
        for c, saved in zip(self.classes, self.saved, strict=True):
            for n, f in saved.items():
                if f is None:
                    delattr(c, n)
                else:
                    setattr(c, n, f)


def _pz_rate(game, players, trajs, options, legacy: bool) -> float:
    import contextlib
    with Legacy() if legacy else contextlib.nullcontext():
        return sum(len(ids) for _, ids in trajs) / run_pettingzoo(game, players, trajs, options)


def _vector_rate(game, players, n, steps, backend, selfplay: bool, options) -> tuple[float, float]:
    """Env steps/s and engine actions/s of a batch of n games (random legal ids)."""
    if selfplay:
        env = rl.selfplay_vector_env(game, num_envs=n, players=players, backend=backend, seed=1, **options)
        env.reset()
    else:
        env = rl.vector_env(game, num_envs=n, players=players, backend=backend, seed=1, copy=False,
                            observation="flat", **options)
        env.reset()
    core = env._core
    acts = np.zeros(n, np.int64)
    rng = np.random.default_rng(0)
    t0 = time.process_time()
    for k in range(steps):
        if env.native:
            core.random_actions(acts, k)           # random masked ids, chosen in the core
        else:
            m = env._buf.mask
            acts[:] = [rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in m]
        env.step(acts)
    dt = time.process_time() - t0
    return n * steps / dt, 0.0


def _clone_rates(count: int) -> dict[str, float]:
    from grimoire.games.zavandor import _native as nat
    s = grimoire.new_game("zavandor", 4, 3, backend="native")
    rng = np.random.default_rng(3)
    for _ in range(150):
        legal = s.legal_actions()
        s.apply(legal[int(rng.integers(len(legal)))])
    out = {}
    clock = time.process_time
    t0 = clock()
    for _ in range(count):
        s.clone()
    out["state.clone() (a wrapper object per clone)"] = count / (clock() - t0)
    pool = nat.Pool()
    i = pool.add(s._c)
    clone, release = pool.clone, pool.release
    t0 = clock()
    for _ in range(count):
        release(clone(i))
    out["StatePool clone + release (an index per clone)"] = count / (clock() - t0)
    j = pool.clone(i)
    copy_into = pool.copy_into
    t0 = clock()
    for _ in range(count):
        copy_into(i, j)
    out["StatePool copy_into (overwrite a slot)"] = count / (clock() - t0)
    out["core copy alone (Core.time_clones, no Python)"] = count / s._c.time_clones(count)
    return out


def _openspiel_rate(name: str, steps: int) -> float:
    """A pyspiel game played at random from a Python loop: legal actions, observation tensor, apply."""
    import pyspiel
    if name.startswith("python_"):
        import open_spiel.python.games  # noqa: F401  (registers the Python games)
    g = pyspiel.load_game(name)
    rng = np.random.default_rng(0)
    done = 0
    t0 = time.process_time()
    while done < steps:
        st = g.new_initial_state()
        while not st.is_terminal() and done < steps:
            if st.is_chance_node():
                outs, probs = zip(*st.chance_outcomes(), strict=True)
                st.apply_action(int(rng.choice(outs, p=probs)))
                continue
            legal = st.legal_actions()
            st.observation_tensor(st.current_player())
            st.apply_action(legal[int(rng.integers(len(legal)))])
            done += 1
    return steps / (time.process_time() - t0)


def speed(repeat: int, scale: float) -> None:
    """Every fast path, each measured ``repeat`` times interleaved (best CPU-time rate kept)."""
    from grimoire.games.zavandor.native import AVAILABLE
    z4 = {"max_rounds": 10}
    trajs = {("zavandor", 4): trajectories("zavandor", 4, max(2, int(4 * scale)), 1, z4),
             ("zauberschmiede", 2): trajectories("zauberschmiede", 2, max(2, int(6 * scale)), 1, {})}
    steps = max(20, int(200 * scale))
    rows: dict[str, list[float]] = {}

    def add(name, value):
        rows.setdefault(name, []).append(value)

    for _ in range(repeat):
        for (game, p), tr in trajs.items():
            opts = z4 if game == "zavandor" else {}
            backends = [None, "native"] if game == "zavandor" and AVAILABLE else [None]
            for be in backends:
                o = dict(opts, backend=be) if be else opts
                tag = f"{game} {p}p {be or 'python'}"
                add(f"PettingZoo step, {tag}, BEFORE (observation dict)", _pz_rate(game, p, tr, o, True))
                add(f"PettingZoo step, {tag}, AFTER (observation_tensor_into)", _pz_rate(game, p, tr, o, False))
        if AVAILABLE:
            add("vector_env self-play, zavandor 4p native, batch 1024",
                _vector_rate("zavandor", 4, 1024, steps, "native", True, z4)[0])
            add("vector_env 1 learner + 3 random, zavandor 4p native, batch 1024",
                _vector_rate("zavandor", 4, 1024, steps, "native", False, z4)[0])
        add("vector_env self-play, zavandor 4p python, batch 64",
            _vector_rate("zavandor", 4, 64, max(5, steps // 8), None, True, z4)[0])
        add("vector_env self-play, zauberschmiede 2p, batch 64",
            _vector_rate("zauberschmiede", 2, 64, max(5, steps // 8), None, True, {})[0])
        if AVAILABLE:
            for k, v in _clone_rates(int(100_000 * scale)).items():
                add(f"clones/s: {k}", v)
        try:
            for g in ("leduc_poker", "backgammon", "python_tic_tac_toe"):
                add(f"OpenSpiel anchor: {g} (random play from Python)", _openspiel_rate(g, int(20_000 * scale)))
        except ModuleNotFoundError:
            pass
    print(f"best of {repeat} interleaved runs, CPU time (steps/s or clones/s)")
    for name, vals in rows.items():
        print(f"  {name:<80} {max(vals):>12,.0f}")


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
    ap.add_argument("--speed", action="store_true", help="the fast paths: tensors, vector envs, clones, "
                                                         "OpenSpiel anchors (before/after side by side)")
    ap.add_argument("--scale", type=float, default=1.0, help="--speed: the amount of work per measurement")
    ap.add_argument("--backend", default=None, help="the engine the paths run on (new_game's backend)")
    args = ap.parse_args(argv)
    if args.speed:
        speed(args.repeat, args.scale)
        return
    if args.toy:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from grimoire.core.registry import register
        from tests.rl.toygame import INFO
        register(INFO)
    rules = {} if args.max_rounds is None else {"max_rounds": args.max_rounds}
    trajs = trajectories(args.game, args.players, args.games, args.seed, rules)
    steps = sum(len(ids) for _, ids in trajs)
    options = dict(rules, backend=args.backend) if args.backend else rules

    def best(fn, *extra):      # the machine is shared: the fastest of several runs is the least disturbed
        opts = rules if fn is run_openspiel else options
        return min(fn(args.game, args.players, trajs, opts, *extra) for _ in range(args.repeat))

    engine = best(run_engine) / steps
    encoding = best(run_encoding) / steps
    us = 1e6
    print(f"{args.game}, {args.players} players, {args.games} games, {steps} steps, options {options}"
          + (" (openspiel on the Python engine)" if args.backend else ""))
    print(f"  engine (legal_actions + apply)     {engine * us:8.1f} us/step  ({1 / engine:7.0f} steps/s)")
    print(f"  encoding (tensor + mask)           {encoding * us:8.1f} us/step")
    if args.profile:
        prof = cProfile.Profile()
        fn = PATHS[args.profile][0] if args.profile in PATHS else (lambda *a: run_gymnasium(*a)[0])
        prof.runcall(fn, args.game, args.players, trajs, rules if args.profile == "openspiel" else options)
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
