"""The arena: many games between agents, seats and roles rotated fairly, in parallel processes.

Scheduling. Games are played in blocks of ``players`` games. Within a block every game uses the
same game seed and the same roles per seat (for Zavandor: characters), and the agents rotate one
seat further each game, so that every agent plays every seat and every role of the block once with
the same shuffles and dice (a "duplicate" schedule: luck cancels out within a block). Each block
draws a fresh seed and a fresh set of roles from the arena seed. The schedule, the agents' seeds
and therefore the results depend only on the arena seed, never on the number of worker processes
(agents with a wall-time budget are the exception: their search depends on the machine's speed).

Game hooks. A game may provide a module ``grimoire.games.<game>.ai`` with any of:
``ARENA_ROLE_OPTION`` and ``ARENA_ROLES`` (the option rotated per seat and its pool, e.g.
"characters" and the six characters), ``arena_stats(state) -> dict`` (numbers per game, e.g. rounds
and sentinels sold) and ``arena_roles(state) -> list[str]`` (the role of each seat).
"""

from __future__ import annotations

import csv
import importlib
import json
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import GameConfigError, GrimoireError
from ..core.registry import game_info, new_game
from ..core.rng import Rng
from . import make_agent
from .stats import mean, wilson

MAX_ACTIONS = 20_000       # a game that runs longer is a bug somewhere (typical: under 1000); stop it


def game_hooks(game: str):
    """The optional arena hooks of a game (its ``ai`` module), or None."""
    try:
        return importlib.import_module(f"grimoire.games.{game}.ai")
    except ModuleNotFoundError as e:
        if e.name and e.name.startswith(f"grimoire.games.{game}"):
            return None
        raise


def _derive(*parts: int) -> int:
    r = Rng(0)
    for x in parts:
        r = Rng((r.next64() ^ (int(x) * 0x9E3779B97F4A7C15)) & ((1 << 64) - 1))
    return r.next64() & 0x7FFFFFFF


@dataclass
class GameSpec:
    index: int
    game: str
    players: int
    seed: int
    options: dict
    agents: list[str]          # agent name per seat
    agent_seeds: list[int]
    roles: list[str] | None    # role per seat (set through options), if the game has roles


def schedule(game: str, agents: list[str], games: int, seed: int, options: dict | None = None,
             rotate_roles: bool = True) -> list[GameSpec]:
    """The games of an arena (see the module text). ``agents`` has one name per seat."""
    players = len(agents)
    options = dict(options or {})
    hooks = game_hooks(game)
    role_opt = getattr(hooks, "ARENA_ROLE_OPTION", None) if hooks else None
    pool = list(getattr(hooks, "ARENA_ROLES", []) or []) if hooks else []
    use_roles = rotate_roles and role_opt and len(pool) >= players and role_opt not in options
    specs = []
    for g in range(games):
        block, r = divmod(g, players)
        game_seed = _derive(seed, block)
        roles = None
        opts = dict(options)
        if use_roles:
            rr = Rng(_derive(seed, block, 1))
            avail = pool[:]
            roles = [avail.pop(rr.below(len(avail))) for _ in range(players)]
            opts[role_opt] = roles
        seat_agents = [agents[(i + r) % players] for i in range(players)]
        specs.append(GameSpec(g, game, players, game_seed, opts, seat_agents,
                              [_derive(seed, g, 2, i) for i in range(players)], roles))
    return specs


def _build(game: str, name: str, seed: int, factories: dict | None):
    if factories and name in factories:
        return factories[name](seed)
    return make_agent(game, name, seed)


def play_game(spec: GameSpec, factories: dict | None = None) -> dict[str, Any]:
    """Play one scheduled game; return its result (JSON-safe). ``factories`` (name -> picklable
    callable(seed) -> Agent) adds agents that are not registered (experiments, tests)."""
    state = new_game(spec.game, spec.players, spec.seed, **spec.options)
    agents = [_build(spec.game, name, s, factories) for name, s in zip(spec.agents, spec.agent_seeds, strict=True)]
    n = spec.players
    t_sum = [0.0] * n
    t_max = [0.0] * n
    decisions = [0] * n
    actions = 0
    t_start = time.perf_counter()
    while not state.is_terminal():
        cp = state.current_player
        t0 = time.perf_counter()
        action = agents[cp].choose(state, cp)
        dt = time.perf_counter() - t0
        state.apply(action)
        t_sum[cp] += dt
        if dt > t_max[cp]:
            t_max[cp] = dt
        decisions[cp] += 1
        actions += 1
        if actions >= MAX_ACTIONS:
            raise GrimoireError(f"game {spec.index} (seed {spec.seed}) did not end after {MAX_ACTIONS} actions")
    scores = state.scores()
    winners = state.winners()
    obs = state.observation(None)
    hooks = game_hooks(spec.game)
    stats: dict[str, Any] = {}
    if isinstance(obs.get("round"), int):
        stats["rounds"] = obs["round"]
    if hooks is not None and hasattr(hooks, "arena_stats"):
        stats.update(hooks.arena_stats(state))
    roles = spec.roles
    if hooks is not None and hasattr(hooks, "arena_roles"):
        roles = hooks.arena_roles(state)
    share = 1.0 / len(winners) if winners else 0.0
    return {
        "index": spec.index,
        "seed": spec.seed,
        "options": spec.options,
        "agents": spec.agents,
        "agent_seeds": spec.agent_seeds,
        "roles": roles,
        "scores": scores,
        "winners": winners,
        "win_share": [share if i in winners else 0.0 for i in range(n)],
        "actions": actions,
        "decisions": decisions,
        "think_seconds": [round(t, 6) for t in t_sum],
        "max_decision_seconds": [round(t, 6) for t in t_max],
        "seconds": round(time.perf_counter() - t_start, 4),
        "stats": stats,
    }


@dataclass
class AgentSummary:
    name: str
    seat_games: int = 0
    wins: float = 0.0
    scores: list = field(default_factory=list)
    think: float = 0.0
    decisions: int = 0
    max_decision: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games if self.seat_games else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.wins, self.seat_games)

    def as_dict(self) -> dict[str, Any]:
        lo, hi = self.ci
        return {"agent": self.name, "seat_games": self.seat_games, "wins": self.wins,
                "win_rate": self.win_rate, "ci95": [lo, hi], "mean_score": mean(self.scores),
                "decisions": self.decisions,
                "mean_decision_seconds": self.think / self.decisions if self.decisions else 0.0,
                "max_decision_seconds": self.max_decision}


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Per agent name (pooled over the seats it holds): win rate with a 95% Wilson interval, mean
    score, decision times; per game: mean length and the game's own stats; per role: win share."""
    agents: dict[str, AgentSummary] = {}
    roles: dict[str, list[float]] = {}
    role_agent: dict[tuple[str, str], list[float]] = {}
    game_stats: dict[str, list[float]] = {}
    winner_scores = []
    for r in results:
        for i, name in enumerate(r["agents"]):
            a = agents.setdefault(name, AgentSummary(name))
            a.seat_games += 1
            a.wins += r["win_share"][i]
            a.scores.append(r["scores"][i])
            a.think += r["think_seconds"][i]
            a.decisions += r["decisions"][i]
            a.max_decision = max(a.max_decision, r["max_decision_seconds"][i])
            if r.get("roles"):
                role = r["roles"][i]
                roles.setdefault(role, []).append(r["win_share"][i])
                role_agent.setdefault((role, name), []).append(r["win_share"][i])
        if r["winners"]:
            winner_scores.append(max(r["scores"]))
        for k, v in r.get("stats", {}).items():
            if isinstance(v, (int, float)):
                game_stats.setdefault(k, []).append(v)
        game_stats.setdefault("actions", []).append(r["actions"])
    role_rows = {}
    for role, shares in sorted(roles.items()):
        lo, hi = wilson(sum(shares), len(shares))
        role_rows[role] = {"seat_games": len(shares), "win_rate": sum(shares) / len(shares), "ci95": [lo, hi],
                           "by_agent": {ag: {"seat_games": len(v), "win_rate": sum(v) / len(v)}
                                        for (ro, ag), v in sorted(role_agent.items()) if ro == role}}
    return {
        "games": len(results),
        "agents": [a.as_dict() for a in agents.values()],
        "game_means": {k: mean(v) for k, v in game_stats.items()},
        "winner_score_mean": mean(winner_scores),
        "roles": role_rows,
    }


def run_arena(game: str, agents: list[str], games: int, seed: int = 1, options: dict | None = None,
              workers: int = 1, on_result: Callable[[dict], None] | None = None,
              rotate_roles: bool = True, factories: dict | None = None) -> list[dict[str, Any]]:
    """Play the scheduled games (in ``workers`` processes); results in game order."""
    info = game_info(game)
    if len(agents) not in info.player_counts:
        raise GameConfigError(f"{info.title} is played by {', '.join(map(str, info.player_counts))} players, "
                              f"not {len(agents)}")
    if games < 1:
        raise GameConfigError("the arena needs at least one game")
    for name in sorted(set(agents)):
        if not (factories and name in factories):
            make_agent(game, name, 0)       # unknown names fail here, with the list of known ones
    specs = schedule(game, agents, games, seed, options, rotate_roles)
    new_game(game, len(agents), specs[0].seed, **specs[0].options)   # bad options fail here, once
    results: list[dict[str, Any] | None] = [None] * len(specs)
    if workers <= 1:
        for spec in specs:
            res = play_game(spec, factories)
            results[spec.index] = res
            if on_result:
                on_result(res)
    else:
        with ProcessPoolExecutor(max_workers=workers) as ex:
            futures = {ex.submit(play_game, spec, factories): spec.index for spec in specs}
            try:
                for fut in as_completed(futures):
                    res = fut.result()
                    results[res["index"]] = res
                    if on_result:
                        on_result(res)
            except BaseException:
                for f in futures:
                    f.cancel()
                raise
    return [r for r in results if r is not None]


def write_csv(path: str, results: list[dict[str, Any]]) -> None:
    """One row per seat and game."""
    stat_keys = sorted({k for r in results for k in r.get("stats", {})})
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["game", "seed", "seat", "agent", "role", "score", "win_share", "winner_score",
                    "actions", "decisions", "think_seconds", "max_decision_seconds", *stat_keys])
        for r in results:
            for i, name in enumerate(r["agents"]):
                w.writerow([r["index"], r["seed"], i, name, (r.get("roles") or [""] * len(r["agents"]))[i],
                            r["scores"][i], r["win_share"][i], max(r["scores"]), r["actions"], r["decisions"][i],
                            r["think_seconds"][i], r["max_decision_seconds"][i],
                            *[r.get("stats", {}).get(k, "") for k in stat_keys]])


def write_json(path: str, config: dict[str, Any], results: list[dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"config": config, "summary": summarize(results), "games": results}, f, indent=1)
