"""The arena: many games between agents, seats and roles rotated fairly, in parallel processes.

Scheduling. Games are played in blocks of ``players`` games. Within a block every game uses the
same game seed and the same roles per seat (e.g. the characters of a game that has them), and the
agents rotate one seat further each game, so that every agent plays every seat and every role of
the block once with the same shuffles and dice (a "duplicate" schedule: luck cancels out within a
block). Each block draws a fresh seed and a fresh set of roles from the arena seed. The schedule,
the agents' seeds and therefore the results depend only on the arena seed, never on the number of
worker processes (agents with a wall-time budget are the exception: their search depends on the
machine's speed).

Seeds (``grimoire.derive_seed``): the game of block ``b`` has ``derive_seed(seed, b)``, its roles
are drawn by ``Rng(derive_seed(seed, b, 1))``, and the agent of seat ``i`` in game ``g`` has
``derive_seed(seed, g, 2, i)``.

Game hooks come from the descriptor, ``game_info(game).arena`` (``ArenaHooks``): the option rotated
per seat and its pool (``role_option``, ``roles``), the role each seat played (``roles_of``), numbers
per game (``stats``, e.g. sentinels sold) and per seat (``seat_stats``).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from ..core.episode import MAX_ACTIONS, derive_seed, episode_result, run_episode
from ..core.errors import GameConfigError
from ..core.registry import game_info, new_game
from ..core.rng import Rng
from . import make_agent
from .stats import mean, wilson


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
    return [game_spec(game, agents, g, seed, options, rotate_roles) for g in range(games)]


def game_spec(game: str, agents: list[str], g: int, seed: int, options: dict | None = None,
              rotate_roles: bool = True, roles_follow_agents: bool = False) -> GameSpec:
    """Game ``g`` of the schedule, computed on its own (a simulation of a million games needs no list).

    ``roles_follow_agents``: the block's roles rotate through the seats together with the agents
    (every role plays every seat of the block once with the same shuffles and dice: the schedule of a
    balance study, where the agents are often all alike) instead of staying with their seats."""
    players = len(agents)
    opts = dict(options or {})
    hooks = game_info(game).arena
    role_opt = hooks.role_option
    pool = list(hooks.roles)
    use_roles = rotate_roles and role_opt and len(pool) >= players and role_opt not in opts
    block, r = divmod(g, players)
    game_seed = derive_seed(seed, block)
    roles = None
    if use_roles:
        rr = Rng(derive_seed(seed, block, 1))
        avail = pool[:]
        drawn = [avail.pop(rr.below(len(avail))) for _ in range(players)]
        roles = [drawn[(i + r) % players] for i in range(players)] if roles_follow_agents else drawn
        opts[role_opt] = roles
    seat_agents = [agents[(i + r) % players] for i in range(players)]
    return GameSpec(g, game, players, game_seed, opts, seat_agents,
                    [derive_seed(seed, g, 2, i) for i in range(players)], roles)


def _build(game: str, name: str, seed: int, factories: dict | None):
    if factories and name in factories:
        return factories[name](seed)
    return make_agent(game, name, seed)


def play_game(spec: GameSpec, factories: dict | None = None) -> dict[str, Any]:
    """Play one scheduled game; return its result (JSON-safe). ``factories`` (name -> picklable
    callable(seed) -> Agent) adds agents that are not registered (experiments, tests)."""
    state = new_game(spec.game, spec.players, spec.seed, **spec.options)
    agents = [_build(spec.game, name, s, factories) for name, s in zip(spec.agents, spec.agent_seeds, strict=True)]
    ep = run_episode(state, agents, max_actions=MAX_ACTIONS)
    hooks = game_info(spec.game).arena
    stats: dict[str, Any] = {}
    rnd = state.observation(None).get("round")
    if isinstance(rnd, int):
        stats["rounds"] = rnd
    if hooks.stats is not None:
        stats.update(hooks.stats(state))
    roles = hooks.roles_of(state) if hooks.roles_of is not None else spec.roles
    out = {
        "index": spec.index,
        "seed": spec.seed,
        "options": spec.options,
        "agents": spec.agents,
        "agent_seeds": spec.agent_seeds,
        "roles": roles,
        **episode_result(ep),
        "decisions": ep.decisions,
        "think_seconds": [round(t, 6) for t in ep.think_seconds],
        "max_decision_seconds": [round(t, 6) for t in ep.max_decision_seconds],
        "seconds": round(ep.seconds, 4),
        "stats": stats,
    }
    if hooks.seat_stats is not None:
        out["seat_stats"] = hooks.seat_stats(state)
    return out


@dataclass
class AgentSummary:
    name: str
    seat_games: int = 0
    wins: float = 0.0
    scores: list = field(default_factory=list)
    think: float = 0.0
    decisions: int = 0
    max_decision: float = 0.0
    seat_stats: dict[str, list[float]] = field(default_factory=dict)   # the game's per-seat numbers

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
                "max_decision_seconds": self.max_decision,
                **({"seat_stat_means": {k: mean(v) for k, v in sorted(self.seat_stats.items())}}
                   if self.seat_stats else {})}


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Per agent name (pooled over the seats it holds): win rate with a 95% Wilson interval, mean
    score, decision times and the means of the game's per-seat stats; per game: mean length and the
    game's own stats; per role: win share."""
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
            for k, v in (r["seat_stats"][i] if r.get("seat_stats") else {}).items():
                if isinstance(v, (int, float)):
                    a.seat_stats.setdefault(k, []).append(v)
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


SEAT_STAT_PREFIX = "seat_"     # CSV columns of the game's per-seat stats (apart from its per-game ones)
CSV_COLUMNS = ("game", "seed", "seat", "agent", "role", "score", "win_share", "winner_score", "actions", "decisions",
               "think_seconds", "max_decision_seconds")


def write_csv(path: str, results: list[dict[str, Any]]) -> None:
    """One row per seat and game: the seat's result, the game's stats and the seat's own stats."""
    # (a game stat named like a column of every game, e.g. winner_score, is that column already)
    stat_keys = sorted({k for r in results for k in r.get("stats", {})} - set(CSV_COLUMNS))
    seat_keys = sorted({k for r in results for row in r.get("seat_stats") or [] for k in row})
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow([*CSV_COLUMNS, *stat_keys, *(SEAT_STAT_PREFIX + k for k in seat_keys)])
        for r in results:
            seat_rows = r.get("seat_stats") or [{}] * len(r["agents"])
            for i, name in enumerate(r["agents"]):
                w.writerow([r["index"], r["seed"], i, name, (r.get("roles") or [""] * len(r["agents"]))[i],
                            r["scores"][i], r["win_share"][i], max(r["scores"]), r["actions"], r["decisions"][i],
                            r["think_seconds"][i], r["max_decision_seconds"][i],
                            *[r.get("stats", {}).get(k, "") for k in stat_keys],
                            *[seat_rows[i].get(k, "") for k in seat_keys]])


def write_json(path: str, config: dict[str, Any], results: list[dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"config": config, "summary": summarize(results), "games": results}, f, indent=1)
