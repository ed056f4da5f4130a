"""Old code against new code, side by side: random self-play speed in CPU time, interleaved.

    git worktree add --detach ../base <old commit>
    .venv/bin/python scripts/bench_interleaved.py zavandor --old ../base --players 2 4 --games 400

The machine is shared and its load changes by the second, so the two trees run at the same time
in two long-lived worker processes (PYTHONPATH the tree; the venv's editable install bypassed) and
take turns on small blocks of games (the old one first in even blocks, the new one in odd ones):
each block's pair of figures is measured under the same load. Only CPU time of the worker counts
(``time.process_time``), and only the play (new states and agents are made before the clock starts).
Game ``g`` has the seed ``derive_seed(seed, g)`` and ``max_rounds`` the descriptor's round cap unless
given. Two ways of playing, each block in both:

- loop: a plain loop, ``legal_actions()`` and ``apply()`` of a uniformly random one;
- agents: ``run_episode`` with the ``random`` agent on every seat (seat seeds as ``grimoire bench``'s),
  which is how ``grimoire bench`` plays.

- pettingzoo, gymnasium (``--ways pettingzoo gymnasium``): the adapters stepped with random masked ids
  (PettingZoo: every seat's step; Gymnasium: the learner's steps, seat 0, ``random`` opponents); the
  figure is steps/s, the digest covers every observation.
- batch (``--ways batch``, native engines): ``rl.selfplay_vector_env(..., backend="native")`` of
  ``--envs`` games stepped with random masked ids chosen in the core (``random_actions``); a block is
  ``--block`` batch steps, ``--games`` the batch steps in all, the figure env steps/s (observations
  and masks written). The digest covers every observation, mask and reward the batch wrote.

``--old-backend`` / ``--new-backend`` name each tree's engine (new_game's backend, e.g. ``native``); one
tree given as both ``--old`` and ``--new`` then times Python against a native engine side by side.

``--bench`` also runs ``grimoire bench``'s own function (``bench_games``: the same games, plus clones
of mid-game positions) once per tree and repeat, alternating, in fresh processes.

Every game's moves are hashed: the trees must play the same moves (equal digests), else the script
says so and exits 1 — a speed-up that changes a move is no speed-up. Printed: per player count and
way, each tree's actions/s over all blocks, the ratio new/old of those, and the median and range of
the per-block ratios.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

# --- inside a worker (the tree under test) ----------------------------------------------------------


def _round_cap(cmd: dict) -> tuple[int | None, dict]:
    """A block's round cap (the game's own when none was given; 0 = none) and the game options for it
    (with the worker's engine, ``backend``, if one was named)."""
    from grimoire.core.registry import game_info

    max_rounds = cmd["max_rounds"] if cmd["max_rounds"] is not None else game_info(cmd["game"]).round_cap
    opts: dict = {"max_rounds": max_rounds} if max_rounds else {}
    if cmd.get("backend"):
        opts["backend"] = cmd["backend"]
    return max_rounds, opts


def _play_block(cmd: dict) -> dict:
    import grimoire
    from grimoire.agents import make_agent
    from grimoire.core.episode import derive_seed, run_episode
    from grimoire.core.rng import Rng

    game, players, seed = cmd["game"], cmd["players"], cmd["seed"]
    max_rounds, opts = _round_cap(cmd)
    clock = time.process_time
    digest = hashlib.sha256()
    actions = 0
    cpu = 0.0
    for g in range(cmd["first"], cmd["first"] + cmd["count"]):
        state = grimoire.new_game(game, players, derive_seed(seed, g), **opts)
        if cmd["way"] == "loop":
            rng = Rng(derive_seed(seed, g, 3))
            t0 = clock()
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply(legal[rng.below(len(legal))])
            cpu += clock() - t0
        else:
            agents = [make_agent(game, "random", derive_seed(seed, g, 2, i)) for i in range(players)]
            t0 = clock()
            run_episode(state, agents, timed=False)
            cpu += clock() - t0
        actions += state._hist_len
        digest.update("\n".join(state.history).encode() + b"\n\n")
    return {"actions": actions, "seconds": cpu, "digest": digest.hexdigest(), "max_rounds": max_rounds,
            "tree": str(Path(grimoire.__file__).resolve().parent.parent)}


_BATCHES: dict = {}


def _batch_block(cmd: dict) -> dict:
    """``count`` steps of a persistent self-play batch (made and reset on the first block)."""
    import numpy as np

    import grimoire
    import grimoire.rl as rl
    from grimoire.core.registry import game_info

    key = (cmd["game"], cmd["players"], cmd["envs"], cmd["seed"])
    if key not in _BATCHES:
        env = rl.selfplay_vector_env(cmd["game"], num_envs=cmd["envs"], players=cmd["players"], backend="native",
                                     seed=cmd["seed"])
        env.reset()
        _BATCHES[key] = env
    env = _BATCHES[key]
    core, acts = env._core, np.zeros(cmd["envs"], np.int64)
    clock = time.process_time
    digest = hashlib.sha256()
    cpu = 0.0
    for k in range(cmd["first"], cmd["first"] + cmd["count"]):
        t0 = clock()
        core.random_actions(acts, k)
        obs, mask, rewards, _term, _trunc, _to_move = env.step(acts)
        cpu += clock() - t0
        digest.update(obs.tobytes() + mask.tobytes() + rewards.tobytes())
    return {"actions": cmd["envs"] * cmd["count"], "seconds": cpu, "digest": digest.hexdigest(),
            "max_rounds": game_info(cmd["game"]).round_cap,       # the vector env's default cap
            "tree": str(Path(grimoire.__file__).resolve().parent.parent)}


def _adapter_block(cmd: dict) -> dict:
    """``count`` games through an adapter, a uniformly random id of the mask at every step: PettingZoo
    (``pettingzoo_env`` as users wrap it, ``env.last()`` + ``env.step``: every seat's step) or
    Gymnasium (seat 0 learns against the ``random`` agent: ``env.step`` per learner step, the
    opponents' moves inside it). Only those calls are timed; the digest covers every observation."""
    import numpy as np

    import grimoire
    import grimoire.rl as rl
    from grimoire.core.episode import derive_seed

    game, players, seed = cmd["game"], cmd["players"], cmd["seed"]
    max_rounds, opts = _round_cap(cmd)
    clock = time.process_time
    digest = hashlib.sha256()
    steps = 0
    cpu = 0.0
    for g in range(cmd["first"], cmd["first"] + cmd["count"]):
        rng = np.random.default_rng(derive_seed(seed, g, 3))
        if cmd["way"] == "pettingzoo":
            env = rl.pettingzoo_env(game, players=players, **opts)
            env.reset(seed=derive_seed(seed, g))
            while True:
                t0 = clock()
                obs, _r, term, trunc, _info = env.last()
                cpu += clock() - t0
                if term or trunc:
                    break
                digest.update(obs["observation"].tobytes())
                i = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                t0 = clock()
                env.step(i)
                cpu += clock() - t0
                steps += 1
        else:
            genv = rl.gymnasium_env(game, players=players, seat=0, opponents="random", **opts)
            obs, info = genv.reset(seed=derive_seed(seed, g))
            done = False
            while not done:
                digest.update(obs["observation"].tobytes())
                i = int(rng.choice(np.flatnonzero(info["action_mask"])))
                t0 = clock()
                obs, _r, term, trunc, info = genv.step(i)
                cpu += clock() - t0
                done = term or trunc
                steps += 1
    return {"actions": steps, "seconds": cpu, "digest": digest.hexdigest(), "max_rounds": max_rounds,
            "tree": str(Path(grimoire.__file__).resolve().parent.parent)}


def _bench(cmd: dict) -> dict:
    import grimoire
    from grimoire.cli.bench import bench_games
    max_rounds, _ = _round_cap(cmd)
    r = bench_games(cmd["game"], cmd["players"], cmd["count"], cmd["seed"], max_rounds or None, None, {},
                    backend=cmd.get("backend"))
    return {"actions": r["actions"], "seconds": r["seconds"], "clones_per_s": r["clones_per_s"],
            "digest": hashlib.sha256(json.dumps(r["games"], sort_keys=True).encode()).hexdigest(),
            "tree": str(Path(grimoire.__file__).resolve().parent.parent)}


def serve() -> None:
    """A worker: one JSON command a line on stdin, one JSON answer a line on stdout."""
    for line in sys.stdin:
        cmd = json.loads(line)
        way = cmd["way"]
        out = _bench(cmd) if way == "bench" else _batch_block(cmd) if way == "batch" else \
            _adapter_block(cmd) if way in ("pettingzoo", "gymnasium") else _play_block(cmd)
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


# --- the driver ---------------------------------------------------------------------------------------
_BOOT = ("import sys\n"
         # the venv's editable install would shadow PYTHONPATH: drop its finder
         "sys.meta_path[:] = [f for f in sys.meta_path\n"
         "                    if not getattr(f, '__module__', '').startswith('__editable__')]\n"
         "sys.path.insert(0, sys.argv[1])\n"
         "from bench_interleaved import serve\n"
         "serve()\n")


class Worker:
    def __init__(self, tree: Path):
        self.tree = tree.resolve()
        env = dict(os.environ, PYTHONPATH=str(self.tree))
        self.proc = subprocess.Popen([sys.executable, "-c", _BOOT, str(Path(__file__).resolve().parent)],
                                     env=env, cwd="/", stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, cmd: dict) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the worker for {self.tree} failed (its error is above)")
        out = json.loads(line)
        if Path(out["tree"]) != self.tree:
            raise SystemExit(f"the worker imported {out['tree']}, not {self.tree}")
        return out

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def _rate(rs: list[dict]) -> float:
    return sum(r["actions"] for r in rs) / sum(r["seconds"] for r in rs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("--old", required=True, type=Path, help="the old tree (e.g. a git worktree of the old commit)")
    ap.add_argument("--new", type=Path, default=Path(__file__).resolve().parent.parent, help="default: this tree")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--games", type=int, default=400, help="games per player count (each tree plays them all)")
    ap.add_argument("--block", type=int, default=10, help="games per block")
    ap.add_argument("--ways", nargs="+", default=["loop", "agents"],
                    choices=["loop", "agents", "batch", "pettingzoo", "gymnasium"])
    ap.add_argument("--envs", type=int, default=1024, help="batch: games stepped together")
    ap.add_argument("--bench", type=int, default=0, metavar="N",
                    help="also run grimoire bench's bench_games N times per tree (fresh processes, alternating)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-rounds", type=int, default=None, help="default: the descriptor's round cap")
    ap.add_argument("--json", type=Path, help="also write every block's figures")
    ap.add_argument("--old-backend", default=None, help="the old tree's engine (new_game's backend; default Python)")
    ap.add_argument("--new-backend", default=None, help="the new tree's engine, e.g. native (the same tree as "
                                                        "--old with another backend: Python against native)")
    a = ap.parse_args()
    engine = {"old": a.old_backend, "new": a.new_backend}
    workers = {"old": Worker(a.old), "new": Worker(a.new)}
    results: dict = {}
    ok = True
    try:
        for players in a.players:
            base = {"game": a.game, "players": players, "seed": a.seed, "max_rounds": a.max_rounds, "envs": a.envs}
            blocks: dict[str, dict[str, list]] = {w: {"old": [], "new": []} for w in a.ways}
            for b, first in enumerate(range(0, a.games, a.block)):
                for way in a.ways:
                    cmd = dict(base, way=way, first=first, count=min(a.block, a.games - first))
                    for name in (("old", "new") if b % 2 == 0 else ("new", "old")):
                        blocks[way][name].append(workers[name].ask(dict(cmd, backend=engine[name])))
            mr = blocks[a.ways[0]]["new"][0]["max_rounds"]
            print(f"\n{a.game}, {players} players, {a.games} games in blocks of {a.block}, max_rounds {mr} "
                  f"(CPU time, the trees taking turns)")
            print(f"{'way':10} {'old actions/s':>14} {'new actions/s':>14} {'new/old':>8} {'block median':>13} "
                  f"{'block range':>14}")
            for way in a.ways:
                old, new = blocks[way]["old"], blocks[way]["new"]
                ratios = [(n["actions"] / n["seconds"]) / (o["actions"] / o["seconds"])
                          for o, n in zip(old, new, strict=True)]
                print(f"{way:10} {_rate(old):14,.0f} {_rate(new):14,.0f} {_rate(new) / _rate(old):8.3f} "
                      f"{statistics.median(ratios):13.3f} {min(ratios):6.3f}-{max(ratios):.3f}")
                same = all(o["digest"] == n["digest"] for o, n in zip(old, new, strict=True))
                ok = ok and same
                if not same:
                    print(f"  the trees played different games ({way}): the moves changed")
            actions = sum(r["actions"] for r in blocks[a.ways[0]]["new"])
            print(f"actions per game: {actions / a.games:.0f}; same moves: {'yes' if ok else 'NO'}")
            results[players] = blocks
            if a.bench:
                runs: dict[str, list] = {"old": [], "new": []}
                cmd = dict(base, way="bench", first=0, count=a.games)
                for rep in range(a.bench):
                    for name in (("old", "new") if rep % 2 == 0 else ("new", "old")):
                        w = Worker(a.old if name == "old" else a.new)
                        runs[name].append(w.ask(dict(cmd, backend=engine[name])))
                        w.close()
                old_r = [r["actions"] / r["seconds"] for r in runs["old"]]
                new_r = [r["actions"] / r["seconds"] for r in runs["new"]]
                ratios = [n / o for n, o in zip(new_r, old_r, strict=True)]
                print(f"{'bench':7} {statistics.median(old_r):14,.0f} {statistics.median(new_r):14,.0f} "
                      f"{statistics.median(ratios):8.3f} (grimoire bench's bench_games, median of {a.bench})")
                print(f"{'clones':7} {statistics.median(r['clones_per_s'] for r in runs['old']):14,.0f} "
                      f"{statistics.median(r['clones_per_s'] for r in runs['new']):14,.0f}   (clones/s)")
                if len({r["digest"] for r in runs["old"] + runs["new"]}) != 1:
                    ok = False
                    print("  the trees played different games (bench): the moves changed")
                results[f"{players}-bench"] = runs
    finally:
        for w in workers.values():
            w.close()
    if a.json:
        a.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
