"""Old code against new code, side by side: random self-play speed in CPU time, interleaved.

    git worktree add --detach ../base <old commit>
    .venv/bin/python scripts/bench_interleaved.py zavandor --old ../base --players 2 4 --games 300 --repeats 5

The machine is shared, so one run of each tree is worth little: the two trees run alternately (the
old one first in odd repeats, the new one first in even ones), each repeat in a fresh worker process
whose PYTHONPATH is the tree (the venv's editable install is bypassed), and only CPU time of that
process counts (``time.process_time``). Each worker plays the same games (seed ``derive_seed(seed,
g)``; ``max_rounds`` the descriptor's round cap unless given) twice:

- loop: a plain loop, ``legal_actions()`` and ``apply()`` of a uniformly random one;
- bench: ``grimoire.cli.bench.bench_games``, what ``grimoire bench`` runs (random agents through
  ``run_episode``; it also times clones of mid-game positions);

and reports the play's CPU seconds, the actions and a digest of every game's moves. The trees must
play the same moves (equal digests), else the script says so and exits 1: a speed-up that changes a
move is no speed-up. Printed: per player count and way of playing, the median actions/s of each tree
and the median of the per-repeat ratios new/old (with their range).
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


def worker(cfg: dict) -> dict:
    """Runs inside the tree under test (PYTHONPATH): plays and times the games."""
    import grimoire
    from grimoire.core.episode import derive_seed
    from grimoire.core.registry import game_info
    from grimoire.core.rng import Rng

    game, players, games, seed = cfg["game"], cfg["players"], cfg["games"], cfg["seed"]
    max_rounds = cfg["max_rounds"] if cfg["max_rounds"] is not None else game_info(game).round_cap
    opts = {"max_rounds": max_rounds} if max_rounds else {}
    out: dict = {"tree": str(Path(grimoire.__file__).resolve().parent.parent), "max_rounds": max_rounds}
    digest = hashlib.sha256()
    actions = 0
    cpu = 0.0
    clock = time.process_time
    for g in range(games):
        state = grimoire.new_game(game, players, derive_seed(seed, g), **opts)
        rng = Rng(derive_seed(seed, g, 3))
        t0 = clock()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
        cpu += clock() - t0
        actions += state._hist_len
        digest.update("\n".join(state.history).encode() + b"\n\n")
    out["loop"] = {"actions": actions, "seconds": cpu, "digest": digest.hexdigest()}
    if not cfg["bench"]:
        return out
    from grimoire.cli.bench import bench_games
    r = bench_games(game, players, games, seed, max_rounds or None, None, {})
    out["bench"] = {"actions": r["actions"], "seconds": r["seconds"], "clones_per_s": r["clones_per_s"],
                    "digest": hashlib.sha256(json.dumps(r["games"], sort_keys=True).encode()).hexdigest()}
    return out


def run_worker(tree: Path, cfg: dict) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    code = ("import sys, json\n"
            # the venv's editable install would shadow PYTHONPATH: drop its finder
            "sys.meta_path[:] = [f for f in sys.meta_path\n"
            "                    if not getattr(f, '__module__', '').startswith('__editable__')]\n"
            f"sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})\n"
            "from bench_interleaved import worker\n"
            "print(json.dumps(worker(json.loads(sys.argv[1]))))\n")
    res = subprocess.run([sys.executable, "-c", code, json.dumps(cfg)], env=env, cwd="/", capture_output=True,
                         text=True, check=False)
    if res.returncode:
        raise SystemExit(f"the worker for {tree} failed:\n{res.stderr}")
    out = json.loads(res.stdout.strip().splitlines()[-1])
    if Path(out["tree"]) != tree.resolve():
        raise SystemExit(f"the worker imported {out['tree']}, not {tree}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("--old", required=True, type=Path, help="the old tree (e.g. a git worktree of the old commit)")
    ap.add_argument("--new", type=Path, default=Path(__file__).resolve().parent.parent, help="default: this tree")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-rounds", type=int, default=None, help="default: the descriptor's round cap")
    ap.add_argument("--loop-only", action="store_true", help="only the plain loop (quicker; no bench, no clones)")
    ap.add_argument("--json", type=Path, help="also write every worker's figures")
    a = ap.parse_args()
    trees = {"old": a.old, "new": a.new}
    results: dict = {}
    ok = True
    for players in a.players:
        cfg = {"game": a.game, "players": players, "games": a.games, "seed": a.seed, "max_rounds": a.max_rounds,
               "bench": not a.loop_only}
        runs: dict[str, list] = {"old": [], "new": []}
        for rep in range(a.repeats):
            for name in (("old", "new") if rep % 2 == 0 else ("new", "old")):
                runs[name].append(run_worker(trees[name], cfg))
        results[players] = runs
        mr = runs["new"][0]["max_rounds"]
        print(f"\n{a.game}, {players} players, {a.games} games, max_rounds {mr}, {a.repeats} repeats "
              f"(CPU time, interleaved)")
        print(f"{'way':6} {'old actions/s':>14} {'new actions/s':>14} {'new/old':>8} {'ratio range':>14}")
        for way in ("loop",) if a.loop_only else ("loop", "bench"):
            old = [r[way]["actions"] / r[way]["seconds"] for r in runs["old"]]
            new = [r[way]["actions"] / r[way]["seconds"] for r in runs["new"]]
            ratios = [n / o for n, o in zip(new, old, strict=True)]
            print(f"{way:6} {statistics.median(old):14,.0f} {statistics.median(new):14,.0f} "
                  f"{statistics.median(ratios):8.3f} {min(ratios):6.3f}-{max(ratios):.3f}")
            digests = {r[way]["digest"] for r in runs["old"] + runs["new"]}
            if len(digests) != 1:
                ok = False
                print(f"  the trees played different games ({way}): the moves changed")
        if not a.loop_only:
            print(f"{'clones':6} {statistics.median(r['bench']['clones_per_s'] for r in runs['old']):14,.0f} "
                  f"{statistics.median(r['bench']['clones_per_s'] for r in runs['new']):14,.0f}   (clones/s)")
        print(f"actions per game: {runs['new'][0]['loop']['actions'] / a.games:.0f}; same moves: "
              f"{'yes' if ok else 'NO'}")
    if a.json:
        a.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
