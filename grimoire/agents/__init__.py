"""Agents that play any game through the contract, and the lookup of agents by name."""

from __future__ import annotations

from ..core.agent import Agent, RandomAgent
from ..core.errors import GameConfigError
from ..core.registry import game_info

GENERIC_AGENTS = {"random": RandomAgent}


def agent_names(game: str) -> list[str]:
    return sorted(set(GENERIC_AGENTS) | set(game_info(game).agents))


def make_agent(game: str, name: str, seed: int = 0) -> Agent:
    specific = game_info(game).agents
    factory = specific.get(name) or GENERIC_AGENTS.get(name)
    if factory is None:
        raise GameConfigError(f"unknown agent {name!r} for {game}; choose from: human, "
                              + ", ".join(agent_names(game)))
    return factory(seed)


__all__ = ["Agent", "RandomAgent", "agent_names", "make_agent"]
