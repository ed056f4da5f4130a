"""Trace a searching level's decisions against medium at 2 players, each next to medium's choice in the
same position (the arena's schedule: seats and characters rotated), and sum them up per won and lost game:

    nice .venv/bin/python scripts/zavandor_expert_trace.py --agent "expert:time=0,iterations=500" \\
        --games 31 --seed 3304 --out trace.jsonl

Per game: decisions with a choice by kind (turn, bid, other), how many were searched (not the
shortcut's), how many differ from medium's, and bids raised where medium would pass.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

from grimoire.agents import make_agent
from grimoire.agents.arena import schedule
from grimoire.core.registry import new_game
from grimoire.core.rng import Rng


def trace_game(spec, name: str) -> dict:
    """One scheduled game: the traced level's decisions with medium's choice beside each."""
    state = new_game("zavandor", 2, spec.seed, **spec.options)
    agents = [make_agent("zavandor", n, s) for n, s in zip(spec.agents, spec.agent_seeds, strict=True)]
    me = spec.agents.index(name)
    medium = make_agent("zavandor", "medium", 0)
    recs = []
    while not state.is_terminal():
        seat = state.current_player
        many = seat == me and len(state.legal_actions()) > 1
        a = agents[seat].choose(state, seat)
        if many:
            medium.rng = Rng(spec.index * 100_000 + len(recs))      # its own draws, the game's untouched
            m = medium.choose(state, seat)
            kind = state.pending.top.kind if state.pending else "turn"
            recs.append({"round": state.round, "kind": kind if kind in ("turn", "bid") else "other",
                         "action": a.text, "medium": m.text,
                         "searched": not agents[seat].last_stats.get("shortcut", False)
                         and agents[seat].last_stats.get("iterations", 0) > 0})
        state.apply(a)
    scores, winners = state.scores(), state.winners()
    return {"index": spec.index, "roles": spec.roles, "seat": me, "scores": scores,
            "share": 1 / len(winners) if me in winners else 0.0, "decisions": recs}


def summary(games: list[dict]) -> list[str]:
    out = []
    won, lost = [g for g in games if g["share"] > 0.5], [g for g in games if g["share"] < 0.5]
    for label, sel in (("won", won), ("lost", lost)):
        if not sel:
            continue
        n = len(sel)
        margins = sorted(g["scores"][g["seat"]] - g["scores"][1 - g["seat"]] for g in sel)
        out.append(f"{label}: {n} games, margins {margins}")
        count, searched, differ = Counter(), Counter(), Counter()
        raises = 0
        for g in sel:
            for r in g["decisions"]:
                count[r["kind"]] += 1
                searched[r["kind"]] += r["searched"]
                differ[r["kind"]] += r["action"] != r["medium"]
                raises += r["kind"] == "bid" and r["action"].startswith("bid") and r["medium"] == "pass"
        for k in ("turn", "bid", "other"):
            out.append(f"  {k:5s} per game {count[k] / n:5.1f}, searched {searched[k] / n:5.1f}, "
                       f"unlike medium {differ[k] / n:5.1f}")
        out.append(f"  raises where medium passes: {raises / n:.1f} per game")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agent", default="expert:time=0,iterations=500")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-rounds", type=int, default=0, help="end the games early (tests)")
    ap.add_argument("--out", help="one line per game (its decisions) here")
    a = ap.parse_args(argv)
    if a.agent == "medium" or a.games < 1:
        ap.error("--agent: a level other than medium, and at least one game")
    options: dict = {"backend": "native"}
    if a.max_rounds:
        options["max_rounds"] = a.max_rounds
    games = []
    for spec in schedule("zavandor", [a.agent, "medium"], a.games, a.seed, options):
        games.append(trace_game(spec, a.agent))
        if a.out:
            with open(a.out, "a", encoding="utf-8") as f:
                f.write(json.dumps(games[-1]) + "\n")
    print("\n".join(summary(games)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
