"""Playing one batch of a simulation: the same pure function on every backend.

``play_batch(config, b)`` plays the games of batch ``b`` and returns their rows as columns (one row
per game and seat). The rows depend only on the configuration and the game indices, so every
backend and every number of workers produce the same rows (agents with a wall-time budget, such as
the search level, are the exception: how far they search depends on the machine).
"""

from __future__ import annotations

import os
import time
from typing import Any

from ..agents import make_agent
from ..agents.arena import GameSpec, game_spec
from ..core.episode import MAX_ACTIONS, run_episode
from ..core.registry import game_info, new_game
from ..core.state import GameState
from .config import SimConfig

GAME_STAT = "stat_"     # column prefix of the game's per-game statistics (the same on each seat's row)
SEAT_STAT = "seat_"     # column prefix of the game's per-seat statistics

# the fixed columns, in order (the game's statistics follow, sorted by name)
COLUMNS = ("game", "seed", "players", "seat", "turn_position", "agent", "agent_seed", "role", "score",
           "rank", "winner", "win_share", "rounds", "actions", "decisions")


def spec_of(cfg: SimConfig, g: int) -> GameSpec:
    """Game ``g``: the arena's schedule with the roles rotating through the seats along with the agents."""
    return game_spec(cfg.game, list(cfg.agents), g, cfg.seed, cfg.options, cfg.rotate_roles,
                     roles_follow_agents=True)


def ranks(scores: list[float], winners: list[int]) -> list[int]:
    """1 for the winners, then by score; seats that tie share the better rank."""
    keys = [(i in winners, s) for i, s in enumerate(scores)]
    return [1 + sum(1 for other in keys if other > k) for k in keys]


def play_game(cfg: SimConfig, g: int) -> list[dict[str, Any]]:
    """The rows of game ``g`` (one per seat)."""
    spec = spec_of(cfg, g)
    state = new_game(spec.game, spec.players, spec.seed, backend=cfg.engine, **spec.options)
    agents = [make_agent(spec.game, name, s) for name, s in zip(spec.agents, spec.agent_seeds, strict=True)]
    n = spec.players
    first_seen: list[int] = []      # the seats in the order they first had to decide

    def note(_state: GameState, seat: int, _action) -> None:
        if len(first_seen) < n and seat not in first_seen:
            first_seen.append(seat)

    ep = run_episode(state, agents, max_actions=MAX_ACTIONS, on_step=note, timed=False)
    hooks = game_info(spec.game).arena
    stats: dict[str, float] = dict(hooks.stats(state)) if hooks.stats is not None else {}
    rnd = stats.pop("rounds", None)
    if rnd is None:
        rnd = state.observation(None).get("round")
    seat_stats = hooks.seat_stats(state) if hooks.seat_stats is not None else [{} for _ in range(n)]
    roles = hooks.roles_of(state) if hooks.roles_of is not None else spec.roles
    scores = [float(x) for x in state.scores()]
    winners = list(state.winners())
    share = 1.0 / len(winners) if winners else 0.0
    rank = ranks(scores, winners)
    order = first_seen + [s for s in range(n) if s not in first_seen]
    rows = []
    for i in range(n):
        row: dict[str, Any] = {
            "game": g, "seed": spec.seed, "players": n, "seat": i, "turn_position": order.index(i),
            "agent": spec.agents[i], "agent_seed": spec.agent_seeds[i], "role": roles[i] if roles else None,
            "score": scores[i], "rank": rank[i], "winner": i in winners, "win_share": share if i in winners else 0.0,
            "rounds": int(rnd) if isinstance(rnd, (int, float)) else None, "actions": ep.actions,
            "decisions": ep.decisions[i],
        }
        row.update({GAME_STAT + k: float(v) for k, v in stats.items() if isinstance(v, (int, float))})
        row.update({SEAT_STAT + k: float(v) for k, v in seat_stats[i].items() if isinstance(v, (int, float))})
        rows.append(row)
    return rows


def play_batch(cfg_dict: dict[str, Any], b: int) -> dict[str, Any]:
    """Batch ``b``: its rows as columns, and how long it took where (for the throughput log)."""
    cfg = SimConfig.from_dict(cfg_dict)
    t0, c0 = time.perf_counter(), time.process_time()
    rows: list[dict[str, Any]] = []
    for g in cfg.batch_range(b):
        rows.extend(play_game(cfg, g))
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    keys = list(COLUMNS) + sorted({k for r in rows for k in r if k not in COLUMNS})
    columns = {k: [r.get(k) for r in rows] for k in keys}
    return {"batch": b, "games": len(cfg.batch_range(b)), "seconds": seconds, "cpu_seconds": cpu, "pid": os.getpid(),
            "host": os.uname().nodename, "columns": columns}
