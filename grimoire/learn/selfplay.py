"""Games that make training positions, and games that compare two networks (gating).

Jobs are plain functions of a picklable configuration and a job number, so that the simulation
runner's backends (this process, a process pool, Ray) run them. Every game's seed and every agent's
seed derive from the run's seed, the generation and the game number: a job gives the same positions
wherever and whenever it runs.
"""

from __future__ import annotations

import io
from typing import Any

from ..agents import make_agent
from ..agents.expert import ExpertAgent
from ..agents.net import Network, load
from ..core.agent import Agent
from ..core.episode import derive_seed
from ..core.registry import game_info, new_game, with_round_cap
from .samples import Recorder, Samples


def net_from_bytes(data: bytes) -> Network:
    return load(io.BytesIO(data))


def expert(cfg: dict[str, Any], net: Network, seed: int, selfplay: bool) -> ExpertAgent:
    return ExpertAgent(seed, net, simulations=cfg["simulations"], time=0, c=cfg["c"],
                       noise=cfg["noise"] if selfplay else 0.0, explore=cfg["explore"] if selfplay else 0)


def scaled_results(state, players: int) -> list[float]:
    lo, hi = game_info(state.game).utility_bounds(players)
    return [(r - lo) / ((hi - lo) or 1.0) for r in state.returns()]


def _new(cfg: dict[str, Any], seed: int):
    info = game_info(cfg["game"])
    return new_game(cfg["game"], cfg["players"], seed, **with_round_cap(info, cfg["options"]))


def play_games(cfg: dict[str, Any], job: int) -> dict[str, Any]:
    """Job ``job`` of a generation's self-play: games ``job * chunk ...``, their positions.
    ``cfg["net"]``: the best network's file bytes, or None for the teacher (generation 0)."""
    info = game_info(cfg["game"])
    players, gen = cfg["players"], cfg["generation"]
    net = net_from_bytes(cfg["net"]) if cfg["net"] is not None else None
    spec = info.tensor_spec(players, cfg["options"])
    parts = []
    first = job * cfg["chunk"]
    for g in range(first, min(first + cfg["chunk"], cfg["games"])):
        state = _new(cfg, derive_seed(cfg["seed"], "game", gen, g))
        agents: list[Agent] = []
        for s in range(players):
            aseed = derive_seed(cfg["seed"], "agent", gen, g, s)
            agents.append(expert(cfg, net, aseed, True) if net is not None
                          else make_agent(info.name, cfg["teacher"], aseed))
        rec = Recorder(spec.size, info.num_distinct_actions)
        while not state.is_terminal():
            cp = state.current_player
            a = agents[cp].choose(state, cp)
            if isinstance(agents[cp], ExpertAgent):
                policy = agents[cp].last_policy
            else:
                i = info.codec.encode(a, state) if info.codec else None
                policy = {i: 1.0} if i is not None else {}
            if len(state.legal_actions()) > 1:
                rec.add(state, cp, policy)
            state.apply(a)
        parts.append(rec.finish(scaled_results(state, players)))
    data = Samples.concat(parts) if parts else Samples.empty(spec.size, info.num_distinct_actions)
    return {"job": job, "samples": data, "games": len(parts)}


def gate_game(cfg: dict[str, Any], job: int) -> dict[str, Any]:
    """Gate game ``job``: the candidate against the best network. Alone at the table each plays the
    same seed once (job = 2 g + which); with others, the candidate sits at seat ``job % players``
    and the best network everywhere else. Returns the candidate's result (scaled into [0, 1])."""
    players, gen = cfg["players"], cfg["generation"]
    new, best = net_from_bytes(cfg["net"]), net_from_bytes(cfg["best"])
    if players == 1:
        g, which = divmod(job, 2)
        state = _new(cfg, derive_seed(cfg["seed"], "gate", gen, g))
        agent = expert(cfg, new if which == 0 else best, derive_seed(cfg["seed"], "gate-agent", gen, g), False)
        seat = 0
        agents = [agent]
    else:
        g, seat = divmod(job, players)
        state = _new(cfg, derive_seed(cfg["seed"], "gate", gen, g))
        agents = [expert(cfg, new if s == seat else best, derive_seed(cfg["seed"], "gate-agent", gen, g, s), False)
                  for s in range(players)]
        which = 0
    while not state.is_terminal():
        cp = state.current_player
        state.apply(agents[cp].choose(state, cp))
    return {"job": job, "which": which, "result": scaled_results(state, players)[seat]}
