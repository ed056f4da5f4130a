"""A ladder of Zavandor's expert level: ``grimoire arena``'s schedule (seats and characters rotated, a
duplicate schedule per block) with agents that take parameters, one per seat separated by ``+``:

    nice .venv/bin/python scripts/zavandor_expert_ladder.py \\
        --agents "expert:time=0,iterations=500+medium+medium+medium" --games 60 --seed 2201 --workers 2

Prints each agent's win rate with its 95% Wilson interval and mean score; ``--json`` keeps the games.
``--engine native`` (the default) plays on the compiled core, where medium, hard and expert all decide
inside it; the Python engine gives the same games (the core is its differential twin) many times slower,
hard's search above all.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from grimoire.agents.arena import play_game, run_arena, schedule, summarize, write_json
from grimoire.games.zavandor.ai import expert
from grimoire.games.zavandor.data import CHARACTERS


def _first_agent_role(spec) -> str | None:
    """The character of the seat where the schedule put its first agent (the agents rotate by one a game)."""
    seat = -spec.index % spec.players
    return spec.roles[seat] if spec.roles else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agents", required=True, help="one agent per seat, separated by +")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--engine", choices=["native", "python"], default="native")
    ap.add_argument("--net", action="append", default=[], metavar="PLAYERS=FILE",
                    help="play the expert with this network file at that player count instead of the shipped one")
    ap.add_argument("--skip", type=int, default=0,
                    help="leave out the schedule's first N games (resume a stopped --jsonl run; --workers 1)")
    ap.add_argument("--role", help="play only the games of the schedule (after --skip) where the first agent's "
                    "seat has this character: a per-character study on the games the others would also play")
    ap.add_argument("--json")
    ap.add_argument("--jsonl", help="append each finished game here (a stopped run keeps its games)")
    a = ap.parse_args(argv)
    agents = [x.strip() for x in a.agents.split("+")]
    for spec in a.net:                  # (in this process: --workers 1 only)
        players, _, path = spec.partition("=")
        if not players.isdigit() or not Path(path).is_file() or a.workers > 1:
            ap.error(f"--net {spec}: expected PLAYERS=FILE of an existing file, with --workers 1")
        expert.NETWORKS[int(players)] = str(Path(path).resolve())
        expert.shipped_net.cache_clear()
        expert.shipped_net(int(players))          # a bad file fails here, before any game
    t0 = time.perf_counter()
    done = [a.skip]
    total = [a.games]

    def tick(r) -> None:
        done[0] += 1
        if a.jsonl:
            with open(a.jsonl, "a", encoding="utf-8") as f:
                f.write(json.dumps(r) + "\n")
        print(f"\r{done[0]}/{total[0]} games, {time.perf_counter() - t0:.0f}s", end="", flush=True)

    options = {"backend": a.engine}
    if a.role and a.role not in CHARACTERS:
        ap.error(f"--role {a.role}: expected one of {', '.join(CHARACTERS)}")
    if a.skip or a.role:
        if a.workers > 1 or not 0 <= a.skip < a.games:
            ap.error("--skip N, --role: with --workers 1 and fewer than --games")
        results = []
        specs = schedule("zavandor", agents, a.games, a.seed, options)[a.skip:]
        if a.role:                      # (the counter then counts the kept games only)
            specs = [s for s in specs if _first_agent_role(s) == a.role]
            done[0], total[0] = 0, len(specs)
        for spec in specs:
            results.append(play_game(spec))
            tick(results[-1])
    else:
        results = run_arena("zavandor", agents, a.games, a.seed, options, a.workers, on_result=tick)
    print()
    s = summarize(results)
    for ag in sorted(s["agents"], key=lambda x: -x["win_rate"]):
        lo, hi = ag["ci95"]
        print(f"{ag['agent']:40s} {ag['seat_games']:4d} seat-games  win {100 * ag['win_rate']:5.1f}% "
              f"[{100 * lo:.1f}, {100 * hi:.1f}]  mean score {ag['mean_score']:.1f}")
    if a.json:
        write_json(a.json, {"game": "zavandor", "agents": agents, "games": a.games, "seed": a.seed}, results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
