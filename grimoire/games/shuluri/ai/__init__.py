"""Shuluri Viadal's computer players, registered in the game's descriptor.

- ``heuristic`` / ``medium``: the tactical heuristic (``heuristic.py``: the step planner in
  ``planner.py``, the odds and values in ``odds.py``, ``ctx.py``, ``attacks.py``, the other decisions
  in ``choices.py``).
- ``easy``: the same with Gumbel noise on its choices (``EASY_NOISE``, in Ep of an enemy gladiator).
- ``hard``: IS-MCTS with this package's search hooks (``search.py``), declared as the game's
  ``SearchSpec``; ``grimoire.agents`` builds the agent from it.
"""

from __future__ import annotations

EASY_NOISE = 1.5


def heuristic_agent(seed: int = 0):
    from .heuristic import HeuristicAgent
    return HeuristicAgent(seed)


def medium_agent(seed: int = 0):
    a = heuristic_agent(seed)
    a.name = "medium"
    return a


def easy_agent(seed: int = 0):
    from .heuristic import HeuristicAgent
    a = HeuristicAgent(seed, noise=EASY_NOISE)
    a.name = "easy"
    return a


def agent_factories() -> dict:
    return {"heuristic": heuristic_agent, "medium": medium_agent, "easy": easy_agent}


def arena_roles(state) -> list[str]:
    """The side each seat played: "A" takes the first step of every round, "B" chose the side (S5.5);
    with four players the position in the step order."""
    if state.num_players == 2:
        return ["A" if seat == state.first else "B" for seat in range(2)]
    return [f"P{state.order.index(seat) + 1}" for seat in range(state.num_players)]
