"""Agents that play any game through the contract, and the lookup of agents by name.

Names: ``random`` and ``mcts`` (generic IS-MCTS with random playouts) work for every game; a game
registers its own agents (``GameInfo.agents``) and its search knowledge (``GameInfo.search``, from
which ``hard`` is built here). The levels ``easy``, ``medium`` and ``hard`` are the game's own when
it registers them; otherwise they are built here from what it has:
``medium`` is its heuristic agent (the first of ``heuristic``, ``greedy`` it registers, else random),
``easy`` that agent playing a random legal action a quarter of the time, ``hard`` IS-MCTS whose
playouts follow the medium agent. The parts of a level get their own seeds from the level's seed
(``derive_seed(seed, "epsilon")``, ``derive_seed(seed, "playout")``).
"""

from __future__ import annotations

from ..core.action import Action
from ..core.agent import Agent, RandomAgent
from ..core.episode import derive_seed
from ..core.errors import GameConfigError
from ..core.registry import game_info
from ..core.state import GameState

LEVELS = ("easy", "medium", "hard")
HEURISTIC_NAMES = ("heuristic", "greedy")


def _mcts(seed: int = 0) -> Agent:
    from .mcts import ISMCTSAgent
    return ISMCTSAgent(seed, iterations=200, time_limit=2.0, max_rollout_steps=200)


GENERIC_AGENTS = {"random": RandomAgent, "mcts": _mcts}


class EpsilonAgent(Agent):
    """Another agent that, with probability ``epsilon``, plays a uniformly random legal action."""

    def __init__(self, base: Agent, epsilon: float, seed: int = 0, name: str = "easy"):
        super().__init__(seed)
        self.base = base
        self.epsilon = epsilon
        self.name = name

    def choose(self, state: GameState, seat: int) -> Action:
        actions = state.legal_actions()
        if len(actions) > 1 and self.rng.random() < self.epsilon:
            return actions[self.rng.below(len(actions))]
        return self.base.choose(state, seat)


def _heuristic_factory(game: str):
    specific = game_info(game).agents
    for name in HEURISTIC_NAMES:
        if name in specific:
            return specific[name]
    return RandomAgent


def _generic_level(game: str, level: str, seed: int) -> Agent:
    base = _heuristic_factory(game)
    if level == "medium":
        a = base(seed)
        a.name = "medium"
        return a
    if level == "easy":
        return EpsilonAgent(base(seed), 0.25, derive_seed(seed, "epsilon"), "easy")
    from .mcts import ISMCTSAgent, PolicyHooks
    players_hint = 4
    agent = ISMCTSAgent(seed, iterations=100, time_limit=2.0, hooks=PolicyHooks(base(derive_seed(seed, "playout"))),
                        max_rollout_steps=3 * players_hint)
    agent.name = "hard"
    return agent


def agent_names(game: str) -> list[str]:
    return sorted(set(GENERIC_AGENTS) | set(LEVELS) | set(game_info(game).agents))


def search_agent(game: str, seed: int = 0) -> Agent:
    """The game's declared search (``GameInfo.search``) as an IS-MCTS agent."""
    from .mcts import ISMCTSAgent
    spec = game_info(game).search
    if spec is None:
        raise GameConfigError(f"{game} declares no search")
    agent = ISMCTSAgent(seed, iterations=spec.iterations, time_limit=spec.time_limit, c=spec.c,
                        hooks=spec.hooks(seed), max_rollout_steps=spec.max_rollout_steps, widening=spec.widening,
                        backend_iterations=spec.backend_iterations)
    agent.name = "hard"
    return agent


def make_agent(game: str, name: str, seed: int = 0) -> Agent:
    info = game_info(game)
    specific = info.agents
    factory = specific.get(name) or GENERIC_AGENTS.get(name)
    if factory is not None:
        return factory(seed)
    if name == "hard" and info.search is not None:
        return search_agent(game, seed)
    if name in LEVELS:
        return _generic_level(game, name, seed)
    raise GameConfigError(f"unknown agent {name!r} for {game}; choose from: human, " + ", ".join(agent_names(game)))


__all__ = ["GENERIC_AGENTS", "LEVELS", "Agent", "EpsilonAgent", "RandomAgent", "agent_names", "make_agent",
           "search_agent"]
