"""Positions for the Zauberschmiede planner's learned value: solo games of an agent (the planner,
``expert``, by default), the sheet at every round's end labelled with the game's final score. One JSON
line per game (appends; a rerun skips the games already written):

    python scripts/zs_value_data.py --games 400 --seed 7100 --out runs/zsv/gen0.jsonl
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import grimoire
from grimoire.agents import make_agent, parse_agent
from grimoire.core.episode import derive_seed


def play(agent_spec: str, seed: int) -> dict:
    """One solo game; the sheet at each round's end (as the planner sees an ended sheet: the round's
    dice spent or expired) and the final score."""
    state: Any = grimoire.new_game("zauberschmiede", 1, seed)
    agent = make_agent("zauberschmiede", agent_spec, derive_seed(seed, "agent"))
    rows = []
    while not state.is_terminal():
        rnd = state.round
        state.apply(agent.choose(state, 0))
        if state.round != rnd and not state.is_terminal():
            p = state.players[0].copy()
            p.used = ["-"] * len(p.used)
            rows.append({"round": rnd, "sheet": p.to_dict(False)})
    return {"seed": seed, "score": state.scores()[0], "agent": agent_spec, "rows": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agent", default="expert")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7100)
    ap.add_argument("--first", type=int, default=0, help="the first game number (to split a run)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    parse_agent("zauberschmiede", args.agent)
    out = Path(args.out)
    done = set()
    if out.exists():
        done = {json.loads(line)["game"] for line in out.read_text().splitlines() if line.strip()}
    with out.open("a") as f:
        for g in range(args.first, args.first + args.games):
            if g in done:
                continue
            rec = play(args.agent, derive_seed(args.seed, "game", g))
            rec["game"] = g
            f.write(json.dumps(rec) + "\n")
            f.flush()
            print(g, rec["score"], flush=True)


if __name__ == "__main__":
    main()
