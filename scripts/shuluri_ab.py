"""Shuluri Viadal: variants of the hard level against medium, side by side on the same games.

    nice -n 5 .venv/bin/python scripts/shuluri_ab.py --games 20 --seed 40 --variant first_step=1 --variant ''

Every variant (keyword arguments of ``ai.search.ShuluriSearch``, ``''`` = the committed hard level;
``weight=W``: the expert's hooks, ``ai.expert.ExpertSearch``, with the network's share W and hard's
defaults (``ai.search.PAIRS`` and ``PRESS``), which further keys of the variant override: ``weight=0.5,press=0``;
``net=PATH`` with it: a candidate network file in the shipped one's place)
plays the same arena schedule (``grimoire arena shuluri --agents hard,medium --seed``: the same game
seeds, agent seeds and seat rotation) against medium, game by game in turn, so the load of the
machine falls on all variants alike. The budget is the game's own (``SEARCH_ITERATIONS`` and
``SEARCH_SECONDS``), the seconds counted in this thread's CPU time (``--cpu``, the default) so that
other work on the machine does not shrink it, or ``--iterations`` alone (no time limit: results then
depend only on the seed). ``--lower hard`` puts the committed hard level, with the same budget, in
medium's place (``--variant weight=0.5 --lower hard``: the expert against hard; ``--lower-iterations N``
gives it another iteration budget, to measure what a larger budget on the measured side is worth).
Prints one line per game and per variant: hard's share (its alliance's in pairs; a draw counts half),
draws, rounds, the share as alliance A and B, and its thinking time per decision (wall and this thread's
CPU time); with two or more variants, each one's paired difference from the first over the games both
finished (``paired``).
``--report RUN.json ...`` prints the table (the draws with their interval too) and the paired differences
of a run's json (one stopped early too) without playing; of several runs (seeds) also their games and
paired differences pooled. ``--skip N`` plays the schedule from its game N on (the same games as the
full run's from N: the schedule does not depend on the number of games), so a stopped run can be
continued without replaying the games it finished.
"""

from __future__ import annotations

import argparse
import functools
import json
import time
from concurrent.futures import ProcessPoolExecutor

from grimoire.agents import search_agent
from grimoire.agents.arena import game_spec, play_game
from grimoire.agents.measure import pin_hash_seed
from grimoire.agents.stats import mean_interval, wilson
from grimoire.games import shuluri
from grimoire.games.shuluri.ai.search import ShuluriSearch


def parse_variant(text: str) -> dict:
    out: dict = {}
    for item in filter(None, text.split(",")):
        k, v = item.split("=")
        number = k != "net" and v.replace(".", "", 1).lstrip("-").isdigit()      # else a text (a path, a weapon)
        out[k] = (float(v) if "." in v else int(v)) if number else v
    return out


@functools.cache
def candidate(path: str):
    """A network file other than the shipped one (``net=PATH``), loaded once per process."""
    from pathlib import Path

    from grimoire.games.shuluri.ai.expert import LeafNet
    return LeafNet(Path(path))


_SEEN: list = [None, 0.0]     # the game the measured level last saw, its CPU seconds (one game at a time per process)


def hard(seed: int, variant: dict, iterations: int, seconds: float | None, cpu: bool, measured: bool = True):
    """The measured level (``measured``: its thinking time counted) or, ``measured=False``, its opponent."""
    agent = search_agent("shuluri", seed)
    if "weight" in variant:         # the expert level's hooks with this share of the network
        from grimoire.games.shuluri.ai.expert import ExpertSearch, shipped
        options = {k: v for k, v in variant.items() if k not in ("weight", "net")}      # (over hard's defaults)
        net = candidate(variant["net"]) if "net" in variant else shipped()
        agent.hooks = ExpertSearch(seed, variant["weight"], net if variant["weight"] > 0 else None, options)
    else:
        agent.hooks = ShuluriSearch(seed, **variant)
    agent.iterations, agent.time_limit, agent.cpu_clock = iterations, seconds, cpu
    if not measured:
        return agent
    inner = agent.choose

    def choose(state, seat):
        _SEEN[0] = state
        t0 = time.thread_time()
        try:
            return inner(state, seat)
        finally:
            _SEEN[1] += time.thread_time() - t0
    agent.choose = choose
    return agent


def play(spec, factories: dict, every: bool = False) -> dict:
    """``play_game``, and for a game that reached the round cap (``every``: for every game) its actions,
    to replay and trace it."""
    _SEEN[1] = 0.0
    r = play_game(spec, factories)
    r["cpu_think"] = _SEEN[1]
    if (every or not r["stats"].get("decided", 1)) and _SEEN[0] is not None:
        r["history"] = _SEEN[0].history
    return r


def paired(log: list[dict], names: list[str]) -> list[str]:
    """Per variant after the first: the mean of its share minus the first's on the same games (both
    finished), a 95% normal interval of that mean, the games better / worse / equal, and each one's share
    with its 95% Wilson interval, draws and share as alliance A / B on those games."""
    by: dict[str, dict[int, dict]] = {n: {g["game"]: g for g in log if g["variant"] == n} for n in names}
    out = ["| variant | common games | share [95% Wilson] | draws | as A / B | paired difference from "
           f"{names[0] or 'base'} [95%] | better / worse / equal |", "|---|---|---|---|---|---|---|"]
    for name in names[1:]:
        common = sorted(set(by[names[0]]) & set(by[name]))
        n = len(common)
        if n == 0:
            continue
        diffs = [by[name][i]["share"] - by[names[0]][i]["share"] for i in common]
        mean, lo_d, _hi_d = mean_interval(diffs)
        half = mean - lo_d if n > 1 else 0.0
        for v in (names[0], name):
            gs = [by[v][i] for i in common]
            share = sum(g["share"] for g in gs)
            lo, hi = wilson(share, n)
            a = sum(g["share"] for g in gs if g["side"] == "A")
            b = sum(g["share"] for g in gs if g["side"] == "B")
            draws = sum(1 for g in gs if not g["decided"])
            pd = (f"{100 * mean:+.1f} [{100 * (mean - half):+.1f}, {100 * (mean + half):+.1f}] points"
                  if v == name else "–")
            bwe = (f"{sum(d > 0 for d in diffs)} / {sum(d < 0 for d in diffs)} / {sum(d == 0 for d in diffs)}"
                   if v == name else "–")
            out.append(f"| {v or 'base'} | {n} | {100 * share / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] | "
                       f"{draws} ({100 * draws / n:.0f}%) | {a:.1f} / {b:.1f} | {pd} | {bwe} |")
    return out


def summary(names: list[str], tally: list[dict]) -> list[str]:
    """Per variant: games, the measured level's share and its draws at the round cap, each with its 95%
    Wilson interval, rounds, the share as alliance A / B and the thinking time per decision."""
    out = ["| variant | games | hard's share [95%] | draws [95%] | rounds | as A / B (seat 0's side / other) "
           "| s/decision (wall, CPU) |", "|---|---|---|---|---|---|---|"]
    for name, t in zip(names, tally, strict=True):
        n = t["games"]
        if n == 0:
            continue
        lo, hi = wilson(t["share"], n)
        dlo, dhi = wilson(t["draws"], n)
        out.append(f"| {name or 'base'} | {n} | {100 * t['share'] / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] | "
                   f"{t['draws']} ({100 * t['draws'] / n:.1f}%) [{100 * dlo:.1f}, {100 * dhi:.1f}] | "
                   f"{t['rounds'] / n:.1f} | {t.get('A', 0.0):.1f} / {t.get('B', 0.0):.1f} | "
                   f"{t['think'] / max(1, t['searched']):.3f}, {t['cpu'] / max(1, t['searched']):.3f} |")
    return out


def pooled(runs: list[dict]) -> tuple[list[str], list[dict]]:
    """The variants of several runs (seeds) and their tallies summed, variant by variant (by name)."""
    names: list[str] = []
    tally: dict[str, dict] = {}
    for run in runs:
        for name, t in zip(run["args"]["variant"], run["tally"], strict=True):
            if name not in tally:
                names.append(name)
                tally[name] = {}
            for k, v in t.items():
                tally[name][k] = tally[name].get(k, 0) + v
    return names, [tally[n] for n in names]


def planned(agents: list[str], games: int, seed: int, options: dict, skip: int = 0) -> list:
    """Games ``skip`` to ``games - 1`` of the arena's schedule (a stopped run continued from its game ``skip``)."""
    return [game_spec("shuluri", agents, g, seed, options) for g in range(skip, games)]


def pooled_log(runs: list[dict]) -> list[dict]:
    """The games of several runs as one log, each game keyed by its run and index (for ``paired``)."""
    return [{**g, "game": (k, g["game"])} for k, run in enumerate(runs) for g in run["games"]]


def medium_first(seed: int):
    """medium that takes the first step when it wins the roll for the side (S5.5)."""
    from grimoire.games.shuluri.ai.heuristic import HeuristicAgent
    agent = HeuristicAgent(seed, side_pref="first")
    agent.name = "medium_first"
    return agent


HARD_OPPONENT = "hard_opponent"      # the schedule's name of ``--lower hard`` (the measured side is "hard")


def seats_and_factories(args, variants: list[dict]) -> tuple[list[str], list[dict]]:
    """The agents of the schedule's seats and, per variant, the factories of the names that are not
    registered levels. ``--lower hard``: the committed hard level (no variant) with the measured side's
    budget, under its own name so that only the measured side's share and time are counted."""
    lower = HARD_OPPONENT if args.lower == "hard" else args.lower
    if args.players == 4:
        up = args.upper
        agents = [up, lower, up, lower] if args.mode == "pairs" else [up, lower, lower, lower]
    else:
        agents = [args.upper, lower]
    budget = {"iterations": args.iterations, "seconds": args.seconds or None, "cpu": not args.wall}
    lower_budget = {**budget, "iterations": args.lower_iterations or args.iterations}
    facs = [{"hard": functools.partial(hard, variant=v, **budget), "medium_first": medium_first,
             HARD_OPPONENT: functools.partial(hard, variant={}, measured=False, **lower_budget)} for v in variants]
    return agents, facs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", action="append", default=[], help="k=v,... for ShuluriSearch ('' = default)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--players", type=int, default=2, choices=(2, 4))
    ap.add_argument("--mode", default="pairs", help="4 players: pairs or ffa")
    ap.add_argument("--iterations", type=int, default=shuluri.SEARCH_ITERATIONS)
    ap.add_argument("--seconds", type=float, default=shuluri.SEARCH_SECONDS, help="0: no time limit")
    ap.add_argument("--wall", action="store_true", help="count the seconds in wall time, not CPU time")
    ap.add_argument("--max-rounds", type=int, default=None)
    ap.add_argument("--json", default=None)
    ap.add_argument("--histories", action="store_true", help="keep every game's actions in the json")
    ap.add_argument("--upper", default="hard", help="the level measured: hard (with the variants), medium, easy")
    ap.add_argument("--lower", default="medium", help="its opponent: medium, easy, random, or hard (the committed hard "
                    "with the same budget; with --variant weight=0.5: the expert against hard)")
    ap.add_argument("--lower-iterations", type=int, default=None,
                    help="with --lower hard: its iterations per decision (default: the measured side's --iterations)")
    ap.add_argument("--skip", type=int, default=0, help="start at this game of the schedule (continue a stopped run)")
    ap.add_argument("--workers", type=int, default=1, help="processes (games in any order, results the same)")
    ap.add_argument("--report", nargs="+", default=None,
                    help="print these runs' tables and paired differences (several: also pooled), play nothing")
    args = ap.parse_args()
    if args.report:
        runs = []
        for path in args.report:
            with open(path) as fh:
                runs.append(json.load(fh))
        for path, run in zip(args.report, runs, strict=True):
            if len(runs) > 1:
                print(f"\n{path} (seed {run['args']['seed']})")
            print("\n".join(summary(run["args"]["variant"], run["tally"])))
            if len(run["args"]["variant"]) > 1:
                print()
                print("\n".join(paired(run["games"], run["args"]["variant"])))
        if len(runs) > 1:
            print(f"\npooled ({len(runs)} runs)")
            names, tally = pooled(runs)
            print("\n".join(summary(names, tally)))
            if len(names) > 1:
                print()
                print("\n".join(paired(pooled_log(runs), names)))
        return
    if not args.variant:
        ap.error("give at least one --variant ('' = the default hard)")
    variants = [parse_variant(v) for v in args.variant]
    options: dict = {"max_rounds": args.max_rounds} if args.max_rounds else {}
    if args.players == 4:
        options["mode"] = args.mode
    agents, facs = seats_and_factories(args, variants)
    specs = planned(agents, args.games, args.seed, options, args.skip)
    tally = [{"share": 0.0, "draws": 0, "games": 0, "rounds": 0.0, "think": 0.0, "cpu": 0.0, "searched": 0}
             for _ in variants]
    log = []
    jobs = [(spec, k) for spec in specs for k in range(len(variants))]
    if args.workers > 1:
        pool = ProcessPoolExecutor(args.workers)
        futs = [pool.submit(play, spec, facs[k], args.histories) for spec, k in jobs]
        results = (f.result() for f in futs)
    else:
        results = (play(spec, facs[k], args.histories) for spec, k in jobs)
    for (spec, k), r in zip(jobs, results, strict=True):
        up = args.upper
        share = sum(r["win_share"][i] for i, a in enumerate(r["agents"]) if a == up)
        t = tally[k]
        t["games"] += 1
        t["share"] += share
        t["draws"] += int(not r["stats"]["decided"])
        t["rounds"] += r["stats"]["rounds"]
        hs = [i for i, a in enumerate(r["agents"]) if a == up]
        t["think"] += sum(r["think_seconds"][i] for i in hs)
        t["searched"] += sum(r["decisions"][i] for i in hs)
        t["cpu"] += r["cpu_think"]
        side = "A" if 0 in hs else "B"           # pairs: alliance A holds seat 0 and acts first
        t[side] = t.get(side, 0.0) + share
        log.append({"game": spec.index, "variant": args.variant[k], "share": share, "side": side, **r["stats"],
                    **({"history": r["history"]} if "history" in r else {})})
        if args.json:                            # after every game: a run stopped early keeps its games
            with open(args.json, "w") as fh:
                json.dump({"args": vars(args), "games": log, "tally": tally}, fh, indent=1)
        print(f"game {spec.index:3d} variant {args.variant[k] or 'base':30s} hard {share:.2f} "
              f"rounds {r['stats']['rounds']:.0f} side {side} "
              f"max {max(r['max_decision_seconds'][i] for i in hs):.2f}s", flush=True)
    print()
    print("\n".join(summary(args.variant, tally)))
    if len(variants) > 1:
        print()
        print("\n".join(paired(log, args.variant)))


if __name__ == "__main__":
    pin_hash_seed()
    main()
