"""Measurements for docs/simulation.md: throughput per core of every game and agent level, and the
scaling of the backends from 1 to 2 workers (with Ray's start-up and per-batch overhead).

    python scripts/sim_measure.py throughput [--budget 20] [--engine native] > throughput.json
    python scripts/sim_measure.py scaling > scaling.json

Throughput is counted in CPU time (games per CPU-second = games/s on one busy core), so that other
work on a shared machine changes it little; scaling is wall time and needs a quiet machine: the
load average is printed with every number.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from grimoire.agents import make_agent
from grimoire.core.episode import derive_seed, run_episode
from grimoire.core.registry import backends, new_game
from grimoire.sim import make_config, simulate
from grimoire.sim.play import play_game
from grimoire.sim.store import read_timings

CELLS = [("zavandor", 4), ("zavandor", 2), ("zauberschmiede", 1), ("zauberschmiede", 4), ("shuluri", 2)]
LEVELS = ("easy", "medium", "hard")


def load() -> float:
    return round(os.getloadavg()[0], 2)


def full_games(game: str, players: int, level: str, budget: float, max_games: int = 4000,
               engine: str = "python") -> dict:
    cfg = make_config(game, players, [level], max_games, seed=11, batch_size=max_games, engine=engine)
    c0, n, actions = time.process_time(), 0, 0
    while n < max_games and (time.process_time() - c0 < budget or n == 0):
        rows = play_game(cfg, n)
        actions += rows[0]["actions"]
        n += 1
    cpu = time.process_time() - c0
    return {"games": n, "cpu_seconds": round(cpu, 2), "games_per_cpu_second": round(n / cpu, 3),
            "actions_per_game": round(actions / n, 1), "load": load()}


def search_level(game: str, players: int, budget: float, actions_per_game: float, engine: str = "python") -> dict:
    """The search level thinks up to a wall-time limit per decision: measure CPU per action over the
    first part of a game and extrapolate to a whole game of the medium level's length."""
    state = new_game(game, players, derive_seed(11, 0), backend=engine)
    agents = [make_agent(game, "hard", derive_seed(11, 0, 2, i)) for i in range(players)]
    c0 = time.process_time()
    ep = run_episode(state, agents, stop=lambda _s: time.process_time() - c0 > budget, timed=False)
    cpu = time.process_time() - c0
    per_action = cpu / max(1, ep.actions)
    return {"games": 0, "actions": ep.actions, "cpu_seconds": round(cpu, 2),
            "cpu_seconds_per_action": round(per_action, 4),
            "games_per_cpu_second": round(1.0 / (per_action * actions_per_game), 5),
            "estimated_from_actions_per_game": actions_per_game, "load": load()}


def throughput(budget: float, engine: str = "python") -> list[dict]:
    out = []
    for game, players in CELLS:
        if engine not in backends(game):
            continue
        medium_len = None
        for level in ("easy", "medium"):
            r = {"game": game, "players": players, "agent": level, "engine": engine,
                 **full_games(game, players, level, budget, engine=engine)}
            if level == "medium":
                medium_len = r["actions_per_game"]
            out.append(r)
            print(json.dumps(r), file=sys.stderr, flush=True)
        r = {"game": game, "players": players, "agent": "hard", "engine": engine,
             **search_level(game, players, budget, medium_len or 1.0, engine)}
        out.append(r)
        print(json.dumps(r), file=sys.stderr, flush=True)
    return out


def timed_run(backend: str, workers: int, cfg, ray_started: bool = False) -> dict:
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        res = simulate(cfg, Path(d) / "run", backend=backend, workers=workers)
        wall = time.perf_counter() - t0
        busy = sum(t["seconds"] for t in read_timings(Path(d) / "run"))
    # occupancy: the share of the workers' time spent inside batches (the rest is the backend's
    # overhead and idle time); unlike games/s it hardly depends on other work on the machine
    return {"backend": backend, "workers": workers, "games": res.games_played, "wall_seconds": round(wall, 2),
            "games_per_second": round(res.games_played / wall, 3), "cpu_seconds": round(res.cpu_seconds, 2),
            "occupancy": round(busy / (workers * wall), 3), "load": load()}


def ray_run(workers: int, cfg) -> dict:
    import ray

    from grimoire.sim.backends import RAY_LOCAL_OBJECT_STORE
    os.environ.setdefault("RAY_worker_niceness", "0")      # as grimoire.sim.backends does
    t0 = time.perf_counter()
    ray.init(address="local", num_cpus=workers, include_dashboard=False, object_store_memory=RAY_LOCAL_OBJECT_STORE,
             log_to_driver=False, configure_logging=False)
    start = time.perf_counter() - t0
    try:
        r = timed_run("ray", workers, cfg)
    finally:
        ray.shutdown()
    return {**r, "ray_start_seconds": round(start, 2)}


def scaling(games: int, batch: int) -> dict:
    work = make_config("zauberschmiede", 1, ["medium"], games, seed=5, batch_size=batch)
    tiny = make_config("zavandor", 2, ["random"], 200, seed=5, options={"max_rounds": 1}, batch_size=1)
    out: dict = {"workload": {"game": "zauberschmiede", "players": 1, "agent": "medium", "games": games,
                              "batch_size": batch}, "runs": []}
    for backend, w in (("local", 1), ("local", 2), ("ray", 1), ("ray", 2)):
        r = ray_run(w, work) if backend == "ray" else timed_run(backend, w, work)
        out["runs"].append(r)
        print(json.dumps(r), file=sys.stderr, flush=True)
    # per-batch overhead: 200 batches of one tiny game each, one worker
    loc = timed_run("local", 1, tiny)
    ray1 = ray_run(1, tiny)
    out["overhead"] = {"batches": 200, "local": loc, "ray": ray1,
                       "ray_ms_per_batch": round(1000 * (ray1["wall_seconds"] - loc["wall_seconds"]) / 200, 2)}
    runs = {(r["backend"], r["workers"]): r for r in out["runs"]}
    for b in ("local", "ray"):
        out[f"{b}_efficiency_1_to_2"] = round(runs[(b, 2)]["games_per_second"]
                                              / (2 * runs[(b, 1)]["games_per_second"]), 3)
    out["ray_vs_local_1_worker"] = round(runs[("ray", 1)]["wall_seconds"] / runs[("local", 1)]["wall_seconds"], 3)
    return out


def main() -> None:
    what = sys.argv[1] if len(sys.argv) > 1 else "throughput"
    if what == "throughput":
        budget = float(sys.argv[sys.argv.index("--budget") + 1]) if "--budget" in sys.argv else 20.0
        engine = sys.argv[sys.argv.index("--engine") + 1] if "--engine" in sys.argv else "python"
        print(json.dumps(throughput(budget, engine), indent=1))
    elif what == "scaling":
        games = int(sys.argv[sys.argv.index("--games") + 1]) if "--games" in sys.argv else 240
        print(json.dumps(scaling(games, 12), indent=1))
    else:
        raise SystemExit("usage: sim_measure.py throughput|scaling")


if __name__ == "__main__":
    main()
