"""A level of this checkout against a level of an older commit, on the same seeded games (Shuluri by default).

    git worktree add --detach ../grimoire-93eed87 93eed87          # the old code, once
    nice -n 10 .venv/bin/python scripts/cross_version_ladder.py --old ../grimoire-93eed87 \\
        --new hard --old-agent hard --games 40 --seed 2301 --jsonl cross.jsonl

Both versions play one game in two processes: this one holds the game and its agent, the old checkout
runs a small bridge (``BRIDGE``, using only what the old API has) with its own copy of the same game
and its own agent. They exchange the action texts; the engine is deterministic given the seed and the
texts, so the two states stay the same. That is checked, not assumed: before every action both sides
compare a signature of the state (round, step, dice drawn, every figure's field, Ep, STP and state)
and the action must be legal in both; a difference stops the run with one line naming the game and
the action. Each agent decides on its own copy of the state with its own seed; ``hard`` gets the
game's budget (iterations or seconds, whichever ends first) with the seconds in CPU time of the
deciding thread, so the load of the machine does not shrink it. The schedule is the arena's
(``grimoire arena GAME --agents NEW,OLD --seed S``: game seeds, agent seeds, seats swapped every game).
Prints one line per game and a Markdown row: the new level's share (a draw counts half) with its 95%
Wilson interval, draws at the round cap, rounds, and each side's CPU seconds per decision.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from grimoire import new_game
from grimoire.agents import make_agent, search_agent
from grimoire.agents.arena import schedule
from grimoire.agents.stats import wilson
from grimoire.core.registry import game_info

# Runs inside the old checkout (its own Python path): only grimoire.new_game, agents.make_agent and
# search_agent and the state's public attributes, which the old versions have too.
BRIDGE = r'''
import json, sys, time
import grimoire
from grimoire.agents import make_agent, search_agent

def sig(s):
    return repr((s.round, s.step_i, s.dice_i, s.current_player,
                 [(f.id, f.field, f.ep, f.stp, f.alive, f.down) for f in s.figs if f is not None]))

def agent_of(game, spec, seed):
    if spec["name"] == "hard":
        a = search_agent(game, seed)
        a.iterations, a.time_limit, a.cpu_clock = spec["iterations"], spec["seconds"], True
        return a
    return make_agent(game, spec["name"], seed)

state = agent = None
for line in sys.stdin:
    m = json.loads(line)
    try:
        if m["cmd"] == "new":
            state = grimoire.new_game(m["game"], m["players"], m["seed"], **m["options"])
            agent = agent_of(m["game"], m["agent"], m["agent_seed"])
            out = {"sig": sig(state)}
        elif m["cmd"] in ("choose", "apply"):
            mine = sig(state)
            if mine != m["sig"]:
                out = {"error": "state differs: old " + mine + " new " + m["sig"]}
            elif m["cmd"] == "choose":
                t0 = time.thread_time()
                a = agent.choose(state, state.current_player)
                out = {"action": a.text, "cpu": time.thread_time() - t0}
                state.apply(a)
            else:
                by = {a.text: a for a in state.legal_actions()}
                if m["action"] not in by:
                    out = {"error": "not legal in the old version: " + m["action"]}
                else:
                    state.apply(by[m["action"]])
                    out = {"ok": True}
        elif m["cmd"] == "end":
            out = {"sig": sig(state), "winners": list(state.winners()), "terminal": state.is_terminal()}
        else:
            out = {"error": "unknown command " + str(m["cmd"])}
    except Exception as e:  # one line back to the runner, never a traceback on the pipe
        out = {"error": type(e).__name__ + ": " + str(e)}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
'''


class Diverged(RuntimeError):
    """The two versions' games are no longer the same (or the old side failed)."""


def signature(s) -> str:
    """What both versions must agree on before each action (the bridge's ``sig``)."""
    return repr((s.round, s.step_i, s.dice_i, s.current_player,
                 [(f.id, f.field, f.ep, f.stp, f.alive, f.down) for f in s.figs if f is not None]))


class OldSide:
    """The bridge process in the old checkout."""

    def __init__(self, old_dir: Path, python: str):
        env = dict(os.environ, PYTHONPATH=str(old_dir))
        self.proc = subprocess.Popen([python, "-c", BRIDGE], cwd=old_dir, env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def ask(self, msg: dict) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise Diverged("the old version's process ended")
        out = json.loads(line)
        if "error" in out:
            raise Diverged(out["error"])
        return out

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def agent_spec(text: str, iterations: int | None, seconds: float | None) -> dict:
    return {"name": text, "iterations": iterations, "seconds": seconds}


def new_agent(game: str, text: str, seed: int, iterations: int | None, seconds: float | None):
    if text == "hard":
        a = search_agent(game, seed)
        a.iterations, a.time_limit = iterations, seconds
    else:
        a = make_agent(game, text, seed)
    if hasattr(a, "cpu_clock"):
        a.cpu_clock = True
    return a


def play(old: OldSide, spec, new_text: str, old_text: str, iterations: int | None, seconds: float | None) -> dict:
    """One scheduled game; the seat of the agent named "new" plays this checkout's level."""
    game = spec.game
    new_seats = [i for i, a in enumerate(spec.agents) if a == "new"]
    old_seats = [i for i, a in enumerate(spec.agents) if a == "old"]
    state: Any = new_game(game, spec.players, spec.seed, **spec.options)
    agents = {i: new_agent(game, new_text, spec.agent_seeds[i], iterations, seconds) for i in new_seats}
    if len(old_seats) != 1:
        raise SystemExit("the bridge plays one old seat per game")
    first = old.ask({"cmd": "new", "game": game, "players": spec.players, "seed": spec.seed,
                     "options": spec.options, "agent": agent_spec(old_text, iterations, seconds),
                     "agent_seed": spec.agent_seeds[old_seats[0]]})
    if first["sig"] != signature(state):
        raise Diverged("the new games differ")
    cpu = {"new": 0.0, "old": 0.0}
    decisions = {"new": 0, "old": 0}
    step = 0
    while not state.is_terminal():
        seat = state.current_player
        sig = signature(state)
        by = {a.text: a for a in state.legal_actions()}
        if seat in agents:
            t0 = time.thread_time()
            action = agents[seat].choose(state, seat)
            cpu["new"] += time.thread_time() - t0
            decisions["new"] += 1
            old.ask({"cmd": "apply", "sig": sig, "action": action.text})
        else:
            reply = old.ask({"cmd": "choose", "sig": sig})
            if reply["action"] not in by:
                raise Diverged(f"not legal in the new version: {reply['action']}")
            action = by[reply["action"]]
            cpu["old"] += reply["cpu"]
            decisions["old"] += 1
        state.apply(action)
        step += 1
    end = old.ask({"cmd": "end"})
    winners = sorted(state.winners())
    # at the round cap the old code counts one round further before it ends: compare the figures there
    if end["sig"].split("[", 1)[1] != signature(state).split("[", 1)[1]:
        raise Diverged(f"the final positions differ: old {end['sig']} new {signature(state)}")
    if sorted(end["winners"]) != winners or not end["terminal"]:
        raise Diverged(f"the results differ: old winners {end['winners']} (terminal {end['terminal']}), "
                       f"new {winners} ({state.end_reason})")
    share = 1.0 / len(winners) if winners else 0.0
    stats = game_info(game).arena.stats(state) if game_info(game).arena.stats else {}
    return {"game": spec.index, "seed": spec.seed, "agents": spec.agents, "actions": step,
            "share_new": share * sum(1 for i in winners if i in agents),
            "decided": bool(stats.get("decided", 1.0)), "rounds": state.round,
            "cpu": cpu, "decisions": decisions}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, help="a checkout of the old commit (git worktree add --detach DIR COMMIT)")
    ap.add_argument("--new", default="hard", help="this checkout's level (hard, expert, medium, hard:...)")
    ap.add_argument("--old-agent", default="hard", help="the old checkout's level (a plain name)")
    ap.add_argument("--game", default="shuluri")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=2301)
    ap.add_argument("--max-rounds", type=int, default=None)
    ap.add_argument("--iterations", type=int, default=None, help="hard's iterations (default: the game's)")
    ap.add_argument("--seconds", type=float, default=None, help="hard's CPU seconds (default: the game's; 0: none)")
    ap.add_argument("--python", default=sys.executable, help="the interpreter for the old side")
    ap.add_argument("--jsonl", default=None, help="append one line per game")
    args = ap.parse_args()
    old_dir = Path(args.old).resolve()
    if not (old_dir / "grimoire" / "__init__.py").is_file():
        raise SystemExit(f"--old {args.old}: not a checkout of grimoire (no grimoire/__init__.py)")
    spec = game_info(args.game).search
    iterations = args.iterations if args.iterations is not None else (spec.iterations if spec else 120)
    seconds = args.seconds if args.seconds is not None else (spec.time_limit if spec else None)
    seconds = seconds or None
    # the cap given explicitly to both sides: old versions left it to the arena (no cap in the state)
    cap = args.max_rounds or game_info(args.game).round_cap
    options = {"max_rounds": cap} if cap else {}
    specs = schedule(args.game, ["new", "old"], args.games, args.seed, options)
    old = OldSide(old_dir, args.python)
    share = draws = rounds = 0.0
    cpu = {"new": 0.0, "old": 0.0}
    dec = {"new": 0, "old": 0}
    n = 0
    try:
        for sp in specs:
            try:
                r = play(old, sp, args.new, args.old_agent, iterations, seconds)
            except Diverged as e:
                raise SystemExit(f"game {sp.index} (seed {sp.seed}): the two versions diverged: {e}") from None
            n += 1
            share += r["share_new"]
            draws += not r["decided"]
            rounds += r["rounds"]
            for k in cpu:
                cpu[k] += r["cpu"][k]
                dec[k] += r["decisions"][k]
            print(f"game {sp.index:3d} new seat {sp.agents.index('new') + 1} share {r['share_new']:.2f} "
                  f"rounds {r['rounds']} {'decided' if r['decided'] else 'cap'} "
                  f"cpu/decision new {r['cpu']['new'] / max(1, r['decisions']['new']):.2f} "
                  f"old {r['cpu']['old'] / max(1, r['decisions']['old']):.2f}", flush=True)
            if args.jsonl:
                with open(args.jsonl, "a") as fh:
                    fh.write(json.dumps({"new": args.new, "old": args.old_agent, "arena_seed": args.seed, **r}) + "\n")
    finally:
        old.close()
    if n:
        lo, hi = wilson(share, n)
        print("\n| new vs old | games | new's share [95%] | draws at the cap | rounds | CPU s/decision new, old |")
        print("|---|---|---|---|---|---|")
        print(f"| {args.new} vs {args.old_agent} ({old_dir.name}) | {n} | {100 * share / n:.1f}% "
              f"[{100 * lo:.1f}, {100 * hi:.1f}] | {draws:.0f} ({100 * draws / n:.0f}%) | {rounds / n:.1f} | "
              f"{cpu['new'] / max(1, dec['new']):.3f}, {cpu['old'] / max(1, dec['old']):.3f} |")


if __name__ == "__main__":
    main()
