"""Zauberschmiede at a table of several agents (e.g. ``expert,hard,hard,hard``) on the arena schedule
of ``--seed`` (seats rotated: the same games as ``grimoire arena zauberschmiede --agents ... --seed S``),
one JSON line per finished game (every seat's score by part too) appended to ``--jsonl`` as it ends
(a stopped run keeps its games; the same command continues it), then the first agent's win share
with its 95% Wilson interval. ``--summary`` only reads the file.

``--seed A-B`` plays the schedule of every seed from A to B, ``--games`` each. ``--one-per-deal``
plays one game of each deal (each block of the schedule's seat rotations) instead of all, the first
agent's seat turning with the deal: a deal's rotations repeat much of one game when the agents are
deterministic, so more deals tell more. ``--against OTHER.jsonl`` adds the first agent's score
against the first agent's of another run on the same games (the same deals and seats), paired.

    python scripts/zs_table_runs.py --agents expert,hard:iterations=150,time=0,hard:iterations=150,time=0,... \\
        --games 32 --seed 2271 --jsonl expert4.jsonl
    python scripts/zs_table_runs.py --agents expert:table=0,medium,medium,medium --games 8 --one-per-deal \\
        --seed 7801-7810 --jsonl old.jsonl
    python scripts/zs_table_runs.py --agents expert,medium,medium,medium --games 8 --one-per-deal \\
        --seed 7801-7810 --jsonl new.jsonl --against old.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from grimoire.agents import parse_agents
from grimoire.agents.arena import game_spec, play_game
from grimoire.agents.stats import mean_interval, wilson

PARTS = ("S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "dust_produced")   # kept per seat, to see where games are won


def seeds(text: str) -> list[int]:
    """``"7801"`` or ``"7801-7810"``."""
    lo, _, hi = text.partition("-")
    first, last = int(lo), int(hi or lo)
    if last < first:
        raise ValueError(f"--seed {text}: the range ends before it starts")
    return list(range(first, last + 1))


def games(labels: list[str], n: int, one_per_deal: bool) -> list[int]:
    """The schedule's game numbers to play: all ``n``, or game ``d`` of each of ``n`` deals."""
    k = len(labels)
    return [k * d + d % k for d in range(n)] if one_per_deal else list(range(n))


def read(path: str) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def first_seat(r: dict) -> int:
    """The seat of the run's first agent in game ``r`` (the schedule turns the agents one seat a game)."""
    return -r["index"] % len(r["agents"])


def summary(path: str) -> str:
    rows = read(path)
    if not rows:
        return f"no finished games in {path}"
    share = 0.0
    scores: list[int] = []
    others: list[int] = []
    for r in rows:
        i = first_seat(r)
        share += r["win_share"][i]
        scores.append(r["scores"][i])
        others.extend(s for j, s in enumerate(r["scores"]) if j != i)
    lo, hi = wilson(share, len(rows))
    label = rows[0]["agents"][first_seat(rows[0])]
    return (f"{label}: {share:g} wins of {len(rows)} games = {100 * share / len(rows):.1f}% "
            f"[{100 * lo:.1f}, {100 * hi:.1f}] (par {100 / len(rows[0]['agents']):.0f}%); mean score "
            f"{statistics.fmean(scores):.1f}, the others' {statistics.fmean(others):.1f}")


def paired(path: str, other: str) -> str:
    """The first agent's score here minus the other run's first agent's on the games both played."""
    mine = {(r["seed"], r["index"]): r for r in read(path)}
    theirs = {(r["seed"], r["index"]): r for r in read(other)}
    common = sorted(set(mine) & set(theirs))
    if len(common) < 2:
        return f"fewer than two games in common with {other}"
    a, b = (t[common[0]]["agents"][first_seat(t[common[0]])] for t in (mine, theirs))
    d = [mine[k]["scores"][first_seat(mine[k])] - theirs[k]["scores"][first_seat(theirs[k])] for k in common]
    m, lo, hi = mean_interval(d)
    wins = [sum(t[k]["win_share"][first_seat(t[k])] for k in common) for t in (mine, theirs)]
    return (f"{a} - {b} on the same {len(common)} games: {m:+.2f} [{lo:+.2f}, {hi:+.2f}] "
            f"({sum(x > 0 for x in d)} better, {sum(x < 0 for x in d)} worse, {sum(x == 0 for x in d)} equal); "
            f"wins {wins[0]:g} against {wins[1]:g}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agents", required=True)
    ap.add_argument("--games", type=int, default=32)
    ap.add_argument("--seed", default="2271", help="an arena seed, or a range A-B")
    ap.add_argument("--one-per-deal", action="store_true")
    ap.add_argument("--jsonl", required=True)
    ap.add_argument("--against", help="another run's --jsonl: the first agents' scores paired")
    ap.add_argument("--summary", action="store_true")
    args = ap.parse_args()
    try:
        labels = [s.label for s in parse_agents("zauberschmiede", args.agents)]
        run_seeds = seeds(args.seed)
        for name, given in (("--against", args.against), ("--jsonl", args.jsonl if args.summary else None)):
            if given and not Path(given).exists():
                raise ValueError(f"{name} {given}: no such file")
    except ValueError as e:
        sys.exit(f"error: {e}")
    if not args.summary:
        path = Path(args.jsonl)
        done = {(r["seed"], r["index"]) for r in read(args.jsonl)} if path.exists() else set()
        with path.open("a") as f:
            for s in run_seeds:
                for g in games(labels, args.games, args.one_per_deal):
                    spec = game_spec("zauberschmiede", labels, g, s)
                    if (spec.seed, spec.index) in done:
                        continue
                    r = play_game(spec)
                    row = {k: r[k] for k in ("index", "seed", "agents", "scores", "win_share")}
                    row["parts"] = [{k: int(d[k]) for k in PARTS} for d in r["seat_stats"]]
                    f.write(json.dumps(row) + "\n")
                    f.flush()
                    print(s, r["index"], r["agents"], r["scores"], flush=True)
    print(summary(args.jsonl))
    if args.against:
        print(paired(args.jsonl, args.against))


if __name__ == "__main__":
    main()
