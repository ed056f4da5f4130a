"""Zauberschmiede solo: the planner with one round of foresight -- a diagnostic reference, not a player.

At each round's decision its lookahead is given the true dice of the next round, read from the game's
own RNG (which no player may see), in place of the rolls it samples, and it values every plan the ranker
orders (``la_candidates=24``) on that roll with a wider next-round beam (8, 2 pilots), without a time
limit. What it scores above the ``expert`` on the same games is what knowing the next round's dice is
worth to this planner, about what a better guess at them could hope to take (docs/ai.md, "The solo
target: what more search buys, and what foresight would").

    python scripts/zs_foresight.py --games 12 --seed 7767 --json foresight-7767.json
    python scripts/zs_solo_runs.py --agent expert --games 12 --seed 7767 --json expert-7767.json
    python scripts/solo_ladder.py foresight-7767.json expert-7767.json

Solo under the default rules only (at a table the RNG and the others' choices are not this simple).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from grimoire.agents.arena import run_arena, summarize, write_json
from grimoire.agents.measure import check_games_and_json
from grimoire.core.rng import Rng
from grimoire.games.zauberschmiede.planner import PlannerAgent
from grimoire.games.zauberschmiede.sheet import SHEET

NAME = "expert-foresight"


def next_roll(state: Any) -> tuple[int, ...]:
    """The dice the next round will roll, as ``ZauberschmiedeState._roll_dice`` will draw them: the preset
    roll of the ``rolls`` option, else the next draws of a copy of the state's RNG (the state is untouched)."""
    preset = state.var.preset
    if state.round < len(preset):
        return tuple(preset[state.round])
    rng = Rng.from_state(state.rng.state)
    return tuple(rng.randint(1, 6) for _ in range(SHEET.dice_per_round))


class ForesightPlanner(PlannerAgent):
    """The expert planner whose lookahead sees the true next roll (one roll, every ranked plan)."""

    name = NAME

    def __init__(self, seed: int = 0):
        super().__init__(seed, la_candidates=24, la_beam=8, la_pilots=2, la_time=0)
        self.true_next: tuple[int, ...] = ()

    def choose(self, state, seat):
        self.true_next = next_roll(state)
        return super().choose(state, seat)

    def next_rolls(self, rnd: int) -> list[tuple[int, ...]]:
        return [self.true_next]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--seed", type=int, default=7767)
    ap.add_argument("--json", required=True)
    args = ap.parse_args()
    check_games_and_json(ap, args.games, args.json)               # before the games, so that none is lost
    t0 = time.process_time()
    results = run_arena("zauberschmiede", [NAME], args.games, args.seed, factories={NAME: ForesightPlanner},
                        on_result=lambda r: print(r["seed"], r["scores"][0], flush=True))
    cpu = time.process_time() - t0
    config = {"game": "zauberschmiede", "agents": [NAME], "players": 1, "games": args.games, "seed": args.seed,
              "cpu_seconds": round(cpu, 1)}
    write_json(args.json, config, results)
    print(NAME, "mean", round(summarize(results)["agents"][0]["mean_score"], 1), "cpu", round(cpu, 1), "s")


if __name__ == "__main__":
    main()
