"""The hard Zavandor level on the native engine against three hard seats on the Python engine.

    nice -n 5 .venv/bin/python scripts/zavandor_hard_ladder.py --games 60 --budget 0.25 --json ladder.json

Every seat is the game's ``hard`` level (``grimoire.agents.search_agent``) with the same time budget
per decision, measured in CPU seconds of this thread (``cpu_clock``: a budget that other work on the
machine does not shrink): one seat searches on the native engine (as many iterations as the budget
allows), the others on the Python reference (capped at the level's 300 iterations, as they play).
The native seat moves through all seats: in game g it sits at seat ``g % players``. The game itself
runs on the native engine; a Python seat decides on the reference state of the same position
(``NativeZavandorState.to_python()``). Game g has the seed ``derive_seed(seed, g)`` and seat i's
agent ``derive_seed(seed, g, 2, i)``. Needs the native core (docs/native.md).

Prints a line per game and the summary: the native seat's wins (ties shared) with a 95% Wilson
interval (par is 1/players), iterations per searched decision on each engine, and the median and
maximum move time (wall and CPU seconds of ``choose``) of searched decisions. ``--json`` writes
the summary and every game's record, rewritten after each game (an interrupted run keeps its games).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import grimoire
from grimoire.agents import search_agent
from grimoire.agents.stats import wilson
from grimoire.core.episode import derive_seed


def play(g: int, seed: int, players: int, budget: float, moves: dict[str, list[dict]], rivals: str = "python",
         open_mode: dict | None = None) -> dict:
    """One game; appends each decision's record (iterations, wall and CPU seconds) to ``moves``.
    ``rivals``: "python" (the reference engine) or "native-plain" (the core without the time-only
    search mode: ``open_mode={}``); ``open_mode``: the native seat's, instead of the declared one."""
    native_seat = g % players
    state = grimoire.new_game("zavandor", players, derive_seed(seed, g), backend="native")
    agents = []
    for i in range(players):
        a = search_agent("zavandor", derive_seed(seed, g, 2, i))
        a.time_limit, a.cpu_clock = budget, True
        if i == native_seat and open_mode is not None:
            a.hooks.open_mode = dict(open_mode)
        elif i != native_seat and rivals == "native-plain":
            a.hooks.open_mode = {}
        agents.append(a)
    while not state.is_terminal():
        seat = state.current_player
        engine = "native" if seat == native_seat else rivals
        view = state if engine != "python" else state.to_python()
        if len(view.legal_actions()) == 1:
            state.apply(view.legal_actions()[0])
            continue
        w0, c0 = time.perf_counter(), time.thread_time()
        action = agents[seat].choose(view, seat)
        wall, cpu = time.perf_counter() - w0, time.thread_time() - c0
        stats = agents[seat].last_stats
        moves.setdefault(engine, []).append({"searched": not stats.get("shortcut"),
                                             "iterations": stats.get("iterations", 0), "wall": wall, "cpu": cpu})
        state.apply(action)
    winners = state.winners()
    return {"game": g, "seed": derive_seed(seed, g), "native_seat": native_seat, "scores": state.scores(),
            "winners": winners, "native_win": (1.0 / len(winners)) if native_seat in winners else 0.0}


def summarize(games: list[dict], moves: dict[str, list[dict]], players: int, budget: float) -> dict:
    n = len(games)
    wins = sum(r["native_win"] for r in games)
    lo, hi = wilson(wins, n)
    out = {"games": n, "players": players, "budget_cpu_s": budget, "native_wins": wins,
           "native_win_rate": wins / n if n else 0.0, "wilson95": [lo, hi], "par": 1 / players, "engines": {}}
    for engine, ms in moves.items():
        searched = [m for m in ms if m["searched"]]
        if not searched:
            continue
        its = [m["iterations"] for m in searched]
        out["engines"][engine] = {
            "decisions": len(ms), "searched": len(searched),
            "iterations_median": statistics.median(its), "iterations_mean": statistics.fmean(its),
            "iterations_min": min(its), "iterations_max": max(its),
            "move_wall_median_s": statistics.median(m["wall"] for m in searched),
            "move_wall_max_s": max(m["wall"] for m in searched),
            "move_cpu_median_s": statistics.median(m["cpu"] for m in searched),
            "move_cpu_max_s": max(m["cpu"] for m in searched),
            "move_cpu_max_all_s": max(m["cpu"] for m in ms),
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--budget", type=float, default=0.25, help="CPU seconds per decision, every seat")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None, help="write the summary and the games here")
    ap.add_argument("--max-minutes", type=float, default=None, help="start no game after this many minutes")
    ap.add_argument("--rivals", choices=["python", "native-plain"], default="python",
                    help="the other seats: the Python engine, or the core without the time-only search mode")
    ap.add_argument("--open-mode", default=None,
                    help='the native seat\'s time-only search mode as JSON (e.g. \'{"horizon": "round"}\'), '
                         'instead of the declared one')
    args = ap.parse_args()
    open_mode = json.loads(args.open_mode) if args.open_mode is not None else None
    if "native" not in grimoire.core.backends("zavandor"):
        raise SystemExit("the native core is not built here (docs/native.md)")
    games: list[dict] = []
    moves: dict[str, list[dict]] = {"native": [], "python": []}
    t0 = time.perf_counter()
    for g in range(args.games):
        if args.max_minutes is not None and time.perf_counter() - t0 > 60 * args.max_minutes:
            break
        r = play(g, args.seed, args.players, args.budget, moves, args.rivals, open_mode)
        games.append(r)
        won = sum(x["native_win"] for x in games)
        print(f"game {g}: native at seat {r['native_seat']}, scores {r['scores']}, winners {r['winners']} — "
              f"native {won:g}/{len(games)} ({time.perf_counter() - t0:.0f} s)", flush=True)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"summary": summarize(games, moves, args.players, args.budget), "games": games}, f,
                          indent=1)
    s = summarize(games, moves, args.players, args.budget)
    lo, hi = s["wilson95"]
    if args.rivals != "python" or open_mode is not None:
        print(f"rivals {args.rivals}; native seat's open mode {open_mode}")
    print(f"\nnative hard wins {s['native_wins']:g} of {s['games']} = {s['native_win_rate']:.1%} "
          f"(95% Wilson {lo:.1%}-{hi:.1%}; par {s['par']:.0%}), budget {args.budget} CPU s per decision")
    for engine, e in s["engines"].items():
        print(f"{engine}: {e['searched']} searched of {e['decisions']} decisions; iterations median "
              f"{e['iterations_median']:.0f} (mean {e['iterations_mean']:.0f}, {e['iterations_min']}-"
              f"{e['iterations_max']}); move wall median {e['move_wall_median_s']:.3f} s max "
              f"{e['move_wall_max_s']:.3f} s; CPU median {e['move_cpu_median_s']:.3f} s "
              f"max {e['move_cpu_max_s']:.3f} s")


if __name__ == "__main__":
    main()
