"""The agent interface. Generic agents live in grimoire.agents; game-specific ones next to their game
(registered through GameInfo.agents), so games never import the agents package.

An agent may read only ``state.observation(seat)``, ``state.legal_actions()`` and determinizations
from ``state.sample_hidden(seat, rng)`` — never the hidden parts of the real state.
"""

from __future__ import annotations

from .action import Action
from .rng import Rng
from .state import GameState


class Agent:
    name = "agent"

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def choose(self, state: GameState, seat: int) -> Action:  # pragma: no cover - interface
        raise NotImplementedError

    def fast_on(self, engine: str) -> bool:
        """Whether this agent decides at full speed on a state of ``engine``. An agent that reads a
        compiled engine's state through the Python reference view is slower there than on Python
        (``--engine auto`` of a simulation then chooses Python); agents that decide inside the
        engine, or only list legal actions, say True."""
        return engine == "python"


class RandomAgent(Agent):
    """Uniformly random among the legal actions."""

    name = "random"

    def choose(self, state: GameState, seat: int) -> Action:
        actions = state.legal_actions()
        return actions[self.rng.below(len(actions))]
