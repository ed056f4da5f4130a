"""Shuluri Viadal's computer players, registered in the game's descriptor.

- ``heuristic`` / ``medium``: the tactical heuristic (``heuristic.py``: the step planner in
  ``planner.py``, the odds and values in ``odds.py``, ``ctx.py``, ``attacks.py``, the other decisions
  in ``choices.py``).
- ``easy``: the same with Gumbel noise on its choices (``EASY_NOISE``, in Ep of an enemy gladiator).
- ``hard``: IS-MCTS with this package's search hooks (``search.py``, with the pairs options of
  ``search.PAIRS`` at 4 players, ``ranks.py``, ``two_on_one.py``, ``exposure.py``), declared as the
  game's ``SearchSpec``;
  ``grimoire.agents`` builds the agent from it.
- ``expert``: hard's search with a learned leaf value at 2 players (``expert.py``, ``features.py``,
  ``data/expert-2p.npz``), hard's search at 4; its factory returns a ``SearchSpec``, built by
  ``grimoire.agents`` too.
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


def expert_agent(seed: int = 0, iterations: int = 120, time: float = 1.5, weight: float = 0.5, cpu: bool = False):
    """The learned level (``expert:weight=0.5``; the budget defaults are hard's, ``SEARCH_ITERATIONS`` and
    ``SEARCH_SECONDS``; ``weight`` defaults to ``expert.WEIGHT``): a ``SearchSpec``."""
    from .expert import expert_spec
    return expert_spec(seed, iterations, time, weight, cpu)


def agent_factories() -> dict:
    return {"heuristic": heuristic_agent, "medium": medium_agent, "easy": easy_agent, "expert": expert_agent}


def arena_roles(state) -> list[str]:
    """The side each seat played: "A" takes the first step of every round, "B" chose the side (S5.5);
    with four players the position in the step order."""
    if state.num_players == 2:
        return ["A" if seat == state.first else "B" for seat in range(2)]
    return [f"P{state.order.index(seat) + 1}" for seat in range(state.num_players)]
