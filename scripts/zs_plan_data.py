"""Plan-ranking data for the Zauberschmiede planner: at the first decision of every round but the
last, the ``--plans`` best plans of the round by the potential (the planner's own beam), each played to
the game's end by a cheap planner (beam ``--beam`` / ``--pilots``, the last round by its exact final
score) on the same sampled dice of the later rounds (``--rolls`` of them). So the data hold the
plans the planner rejects next to the one it takes, with what each led to. The game goes on along one
of the 3 best plans at random. One JSON line per game (appends; a rerun skips the games written):

    python scripts/zs_plan_data.py --games 100 --seed 9500000 --out runs/zsp/a.jsonl

With ``--rank`` (a second generation: labels from a policy closer to the expert's) the learned plan ranker
chooses instead of the potential wherever the data's policy chooses: in the cheap planner's rounds (among
its ``RANK_TOP`` best plans by the potential) and in the game's walk (one of the ranker's 3 best of the
position's plans). The position's plans themselves are still the potential's ``--plans`` best, as the
planner's own beam offers them to the ranker.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

import grimoire
from grimoire.core.episode import derive_seed
from grimoire.games.zauberschmiede import rules
from grimoire.games.zauberschmiede.actions import SIDES
from grimoire.games.zauberschmiede.planner import RANK_TOP, beam_plans, final_score, rank_values
from grimoire.games.zauberschmiede.player import Player
from grimoire.games.zauberschmiede.sheet import SHEET


def roll(rng: random.Random) -> tuple[int, ...]:
    return tuple(rng.randint(1, SIDES) for _ in range(SHEET.dice_per_round))


def ranked_first(var: rules.Variant, sheets: list[Player], rnd: int, k: int) -> list[int]:
    """The indices of the ranker's ``k`` best of ``sheets`` (ended in round ``rnd``), best first (the
    first among equals, as the planner sorts)."""
    vals = rank_values(var, sheets, rnd)
    return sorted(range(len(sheets)), key=lambda i: (-vals[i], i))[:k]


def finish(var: rules.Variant, e: Player, rnd: int, rolls: list[tuple[int, ...]], beam: int, pilots: int,
           rank: bool = False) -> int:
    """The final score when the cheap planner plays the rounds after ``rnd`` from ended sheet ``e``
    (``rank``: each round's plan chosen by the ranker among the potential's ``RANK_TOP`` best)."""
    q = e
    for r in range(rnd + 1, var.last_round + 1):
        q = q.copy()
        rules.start_round(q, rolls[r - rnd - 1])
        plans = beam_plans(var, q, r, beam, pilots)
        if r == var.last_round:
            return max(final_score(var, t[2]) for t in plans)
        if rank:
            top = plans[:RANK_TOP]
            q = top[ranked_first(var, [t[2] for t in top], r, 1)[0]][2]
        else:
            q = plans[0][2]
    return final_score(var, q)


def play(seed: int, k: int, n_rolls: int, beam: int, pilots: int, rank: bool = False) -> dict[str, Any]:
    state: Any = grimoire.new_game("zauberschmiede", 1, seed)
    var, p = state.var, state.players[0].copy()
    rng = random.Random(derive_seed(seed, "plan-data"))
    positions = []
    for rnd in range(1, var.last_round):
        if rnd > 1:
            rules.start_round(p, roll(rng))
        plans = beam_plans(var, p, rnd, 24, 4)
        top = plans[:k]
        rolls = [[roll(rng) for _ in range(var.last_round - rnd)] for _ in range(n_rolls)]
        rows = []
        for v, _seq, e in top:
            outs = [finish(var, e, rnd, rs, beam, pilots, rank) for rs in rolls]
            rows.append({"potential": v, "sheet": e.to_dict(False), "scores": outs})
        positions.append({"round": rnd, "plans": rows})
        walk = ranked_first(var, [t[2] for t in top], rnd, 3) if rank else list(range(min(3, len(top))))
        p = top[walk[rng.randrange(len(walk))]][2]
    return {"seed": seed, "positions": positions}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=9500000)
    ap.add_argument("--first", type=int, default=0, help="the first game number (to split a run)")
    ap.add_argument("--plans", type=int, default=6)
    ap.add_argument("--rolls", type=int, default=1)
    ap.add_argument("--beam", type=int, default=8)
    ap.add_argument("--pilots", type=int, default=1)
    ap.add_argument("--rank", action="store_true",
                    help="the ranker chooses the data policy's plans (a second generation)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = set()
    if out.exists():
        done = {json.loads(line)["game"] for line in out.read_text().splitlines() if line.strip()}
    with out.open("a") as f:
        for g in range(args.first, args.first + args.games):
            if g in done:
                continue
            t0 = time.process_time()
            rec = play(derive_seed(args.seed, "game", g), args.plans, args.rolls, args.beam, args.pilots, args.rank)
            rec.update(game=g, cpu=round(time.process_time() - t0, 2),
                       config={"plans": args.plans, "rolls": args.rolls, "beam": args.beam, "pilots": args.pilots,
                               "rank": args.rank})
            f.write(json.dumps(rec) + "\n")
            f.flush()
            print(g, rec["cpu"], flush=True)


if __name__ == "__main__":
    main()
