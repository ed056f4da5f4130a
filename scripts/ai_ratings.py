"""Measure the fixed rating of every AI level of every game in the arena, for the web's rated games.

Every pair of levels plays ``--games`` games per pairing (seats rotated by the arena) at the game's
default player count; the results are rated in order with OpenSkill (Plackett-Luce, the model of
``grimoire/web/ratings.py``) from the newcomer's rating, ``--passes`` times over (sigma shrinks
with each pass, mu settles). Written to each game's package, data/ai_ratings.json (the web reads it
at start), or with --out DIR to DIR/<game>.json.

    python scripts/ai_ratings.py [--games 12] [--passes 3] [--levels random,easy,medium] [--cap hard=4]
                                 [--only zavandor] [--workers 2]
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import grimoire
from grimoire.agents import agent_names
from grimoire.agents.arena import run_arena
from grimoire.core.registry import game_info
from grimoire.web.ratings import MODEL, new_ratings, ratings_path, shown, team_ranks, teams_of


def out_path(game: str, out_dir: Path | None) -> Path:
    if out_dir is not None:
        return out_dir / f"{game}.json"
    return ratings_path(game)


def measure(game: str, levels: list[str], games: int, passes: int, workers: int, seed: int,
            caps: dict[str, int] | None = None) -> dict:
    info = game_info(game)
    players = 2 if 2 in info.player_counts else info.default_players
    results = []
    for a, b in itertools.combinations(levels, 2):
        seats = [(a, b)[i % 2] for i in range(players)]
        n = min([games] + [(caps or {}).get(x, games) for x in (a, b)])
        for r in run_arena(game, seats, n, seed=seed, workers=workers):
            results.append((r["agents"], r["scores"], r["winners"], r.get("options") or {}))
    ratings = {lvl: (MODEL.mu, MODEL.sigma) for lvl in levels}
    played = dict.fromkeys(levels, 0)
    for _ in range(passes):
        for agents, scores, winners, options in results:
            if len(set(agents)) < 2:
                continue
            teams = teams_of(game, players, options)
            current = [ratings[a] for a in agents]
            after = new_ratings(teams, team_ranks(teams, scores, winners), current)
            # a level on two seats of one game: the mean of its updates
            for lvl in set(agents):
                seats = [i for i, a in enumerate(agents) if a == lvl]
                n = len(seats)
                ratings[lvl] = (sum(after[i][0] for i in seats) / n, sum(after[i][1] for i in seats) / n)
    for agents, *_ in results:
        for a in set(agents):
            played[a] += 1
    return {lvl: {"mu": round(mu, 3), "sigma": round(sigma, 3), "shown": shown(mu, sigma), "games": played[lvl],
                  "players": players} for lvl, (mu, sigma) in ratings.items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=12, help="games per pair of levels (default 12)")
    p.add_argument("--passes", type=int, default=3, help="rating passes over the results (default 3)")
    p.add_argument("--levels", default="", help="levels to measure (default: every level of each game)")
    p.add_argument("--only", default="", help="games to measure (default: all)")
    p.add_argument("--cap", default="", help="slow levels play fewer games: hard=4,mcts=4 (pairs with them)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, default=None, help="a folder for <game>.json (default: each game's package)")
    a = p.parse_args(argv)
    if a.games < 1 or a.passes < 1 or a.workers < 1:
        print("--games, --passes and --workers must be at least 1", file=sys.stderr)
        return 2
    if a.out is not None and not a.out.is_dir():
        print(f"cannot write into {a.out}: it is not a folder", file=sys.stderr)
        return 2
    try:
        caps = {k: int(v) for k, v in (x.split("=", 1) for x in a.cap.split(",") if x)}
    except ValueError:
        print("--cap is level=games[,level=games...], e.g. hard=4", file=sys.stderr)
        return 2
    wanted = [g for g in a.only.split(",") if g] or grimoire.games()
    for game in wanted:
        if game not in grimoire.games():
            print(f"unknown game {game!r}; choose from {', '.join(grimoire.games())}", file=sys.stderr)
            return 2
        known = agent_names(game)
        levels = [x for x in a.levels.split(",") if x] or known
        bad = [x for x in levels if x not in known]
        if bad:
            print(f"{game}: unknown level(s) {', '.join(bad)}; choose from {', '.join(known)}", file=sys.stderr)
            return 2
        t0 = time.process_time()
        levels_rated = measure(game, levels, a.games, a.passes, a.workers, a.seed, caps)
        print(f"{game}: " + ", ".join(f"{k} {v['shown']}" for k, v in sorted(
            levels_rated.items(), key=lambda kv: -kv[1]["shown"])) + f"  ({time.process_time() - t0:.0f} s CPU)")
        measured = {
            "at": datetime.now(UTC).strftime("%Y-%m-%d"), "levels": levels, "games_per_pair": a.games, "caps": caps,
            "passes": a.passes, "seed": a.seed, "cpu_seconds": round(time.process_time() - t0),
            "command": "python scripts/ai_ratings.py " + " ".join(argv if argv is not None else sys.argv[1:])}
        out_path(game, a.out).write_text(json.dumps({"levels": levels_rated, "measured": measured}, indent=1,
                                                    sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
