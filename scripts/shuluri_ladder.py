"""The Shuluri Viadal ladder at 2 players: random < easy < medium < hard, head to head.

    nice -n 5 .venv/bin/python scripts/shuluri_ladder.py --games 200 --hard-games 160 --hard-iterations 60 \
        --max-rounds 15 --seed 1

Plays each neighbouring pair of levels in the arena (pair k with the arena seed ``--seed`` + k; one
process; sides swap every game, so each
level plays side A — the first step of every round — and side B equally often) and prints a
Markdown table: per pair the games, each level's win rate with its 95% Wilson interval, whether the
intervals are apart, and the share of wins by side. ``--pairs hard-medium`` plays only that pair
(with its own arena seed, so its games are the same as in the full ladder). ``--hard-iterations`` sets the hard level's
search budget in iterations without a wall-time cap (the game's own budget is SEARCH_ITERATIONS or
SEARCH_SECONDS per decision, whichever comes first): the results then depend only on the seed.
``--max-rounds`` ends a game after that round; both sides share it then (a draw, E19.1: no gladiator
has fallen), and the table gives the share of such games.
"""

from __future__ import annotations

import argparse
import functools
import json
import time

from grimoire.agents import search_agent
from grimoire.agents.arena import run_arena, summarize
from grimoire.games import shuluri

PAIRS = (("easy", "random"), ("medium", "easy"), ("hard", "medium"))


def hard_agent(seed: int, iterations: int):
    agent = search_agent("shuluri", seed)
    agent.iterations, agent.time_limit = iterations, None
    return agent


def pct(x: float) -> str:
    return f"{100 * x:.1f}"


def progress(r: dict) -> None:
    """One line per game: who won, in which round, and each seat's thinking (total s / decisions, max s)."""
    think = ", ".join(f"{t:.1f}/{d} max {m:.2f}" for t, d, m in
                      zip(r["think_seconds"], r["decisions"], r["max_decision_seconds"], strict=True))
    print(f"  {r['agents']} shares {r['win_share']} rounds {r['stats'].get('rounds')} roles {r['roles']} "
          f"think {think}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games per pair (even: both sides equally often)")
    ap.add_argument("--hard-games", type=int, default=None, help="games of the pair with hard (default: --games)")
    ap.add_argument("--hard-iterations", type=int, default=shuluri.SEARCH_ITERATIONS)
    ap.add_argument("--max-rounds", type=int, default=None, help="end a game after this round (a draw)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pairs", nargs="+", choices=[f"{u}-{lo}" for u, lo in PAIRS], default=None,
                    help="play only these pairs (e.g. hard-medium; each keeps its arena seed)")
    ap.add_argument("--json", default=None, help="write the summaries to this file")
    args = ap.parse_args()
    factories = {"hard": functools.partial(hard_agent, iterations=args.hard_iterations)}
    options = {"max_rounds": args.max_rounds} if args.max_rounds else {}
    rows, out = [], {}
    for k, (upper, lower) in enumerate(PAIRS):
        if args.pairs and f"{upper}-{lower}" not in args.pairs:
            continue
        games = args.hard_games if upper == "hard" and args.hard_games else args.games
        t0 = time.perf_counter()
        res = run_arena("shuluri", [upper, lower], games, seed=args.seed + k, options=options, factories=factories,
                        on_result=progress)
        s = summarize(res)
        by = {a["agent"]: a for a in s["agents"]}
        u, lo_ = by[upper], by[lower]
        apart = u["ci95"][0] > lo_["ci95"][1]
        side_a, side_b = (s["roles"].get(r, {}).get("win_rate", 0.0) for r in ("A", "B"))
        minutes = (time.perf_counter() - t0) / 60
        rows.append(f"| {upper} vs {lower} | {games} | {upper} {pct(u['win_rate'])}% [{pct(u['ci95'][0])}, "
                    f"{pct(u['ci95'][1])}] | {lower} {pct(lo_['win_rate'])}% [{pct(lo_['ci95'][0])}, "
                    f"{pct(lo_['ci95'][1])}] | {'yes' if apart else 'no'} | A {pct(side_a)}%, B {pct(side_b)}% "
                    f"| {s['game_means'].get('rounds', 0):.1f} | {pct(1 - s['game_means'].get('decided', 1.0))}% "
                    f"| {minutes:.1f} |")
        out[f"{upper}-{lower}"] = s
        print(rows[-1], flush=True)
    print("\n| pair | games | upper level | lower level | apart | wins by side | rounds | draws | minutes |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"args": vars(args), "pairs": out}, fh, indent=1, default=str)


if __name__ == "__main__":
    main()
