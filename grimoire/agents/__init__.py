"""Agents that play any game through the contract, and the lookup of agents by name.

Names: ``random`` and ``mcts`` (generic IS-MCTS with random playouts) work for every game; a game
registers its own agents (``GameInfo.agents``) and its search knowledge (``GameInfo.search``, from
which ``hard`` is built here). The levels ``easy``, ``medium`` and ``hard`` are the game's own when
it registers them; otherwise they are built here from what it has:
``medium`` is its heuristic agent (the first of ``heuristic``, ``greedy`` it registers, else random),
``easy`` that agent playing a random legal action a quarter of the time, ``hard`` IS-MCTS whose
playouts follow the medium agent. The parts of a level get their own seeds from the level's seed
(``derive_seed(seed, "epsilon")``, ``derive_seed(seed, "playout")``).

An agent is named with optional parameters, ``hard:iterations=100,time=0`` (``spec.py``):
``parse_agent`` checks a specification once, ``make_agent`` accepts either form.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.action import Action
from ..core.agent import Agent, RandomAgent
from ..core.episode import derive_seed
from ..core.errors import GameConfigError, GrimoireError, agent_budget_error
from ..core.registry import game_info
from ..core.search import SearchSpec
from ..core.state import GameState
from .spec import EPSILON_PARAMS, SEARCH_PARAMS, AgentSpec, check_params, factory_params, parse_text, split_specs

LEVELS = ("easy", "medium", "hard")
EXPERT_PARAMS: dict[str, type] = {"simulations": int, "time": float, "c": float}
HEURISTIC_NAMES = ("heuristic", "greedy")


def _mcts(seed: int = 0, iterations: int = 200, time: float = 2.0, c: float = 0.7) -> Agent:
    from .mcts import ISMCTSAgent
    return ISMCTSAgent(seed, iterations=iterations, time_limit=time or None, c=c, max_rollout_steps=200)


GENERIC_AGENTS: dict[str, Callable[..., Agent]] = {"random": RandomAgent, "mcts": _mcts}


class EpsilonAgent(Agent):
    """Another agent that, with probability ``epsilon``, plays a uniformly random legal action."""

    def __init__(self, base: Agent, epsilon: float, seed: int = 0, name: str = "easy"):
        super().__init__(seed)
        self.base = base
        self.epsilon = epsilon
        self.name = name

    def fast_on(self, engine: str) -> bool:
        return self.base.fast_on(engine)

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


def _generic_level(game: str, level: str, seed: int, params: dict | None = None) -> Agent:
    base = _heuristic_factory(game)
    p = params or {}
    if level == "medium":
        a = base(seed)
        a.name = "medium"
        return a
    if level == "easy":
        return EpsilonAgent(base(seed), p.get("epsilon", 0.25), derive_seed(seed, "epsilon"), "easy")
    from .mcts import ISMCTSAgent, PolicyHooks
    players_hint = 4
    agent = ISMCTSAgent(seed, iterations=p.get("iterations", 100), time_limit=p.get("time", 2.0) or None,
                        c=p.get("c", 0.7), hooks=PolicyHooks(base(derive_seed(seed, "playout"))),
                        max_rollout_steps=3 * players_hint)
    agent.name = "hard"
    return agent


def agent_names(game: str) -> list[str]:
    expert = {"expert"} if game_info(game).networks else set()
    return sorted(set(GENERIC_AGENTS) | set(LEVELS) | set(game_info(game).agents) | expert)


def expert_agent(game: str, seed: int = 0, params: dict | None = None) -> Agent:
    """The learned level: the network-guided search (``agents/expert.py``) with the game's shipped network
    for the table's player count (``GameInfo.networks``); at a count without one it plays as ``hard``."""
    from .expert import ExpertAgent
    from .networks import shipped
    p = params or {}
    agent = ExpertAgent(seed, lambda players: shipped(game, players), simulations=p.get("simulations", 200),
                        time=p.get("time", 0.5), c=p.get("c", 1.5),
                        fallback=lambda s: make_agent(game, "hard", s))
    return agent


def search_agent(game: str, seed: int = 0, params: dict | None = None) -> Agent:
    """The game's declared search (``GameInfo.search``) as an IS-MCTS agent; ``params`` (iterations,
    time, c) replace the declared budget (time 0 = no time limit)."""
    spec = game_info(game).search
    if spec is None:
        raise GameConfigError(f"{game} declares no search")
    return spec_agent(spec, seed, params, "hard")


def spec_agent(spec: SearchSpec, seed: int, params: dict | None = None, name: str = "hard") -> Agent:
    """The IS-MCTS agent a ``SearchSpec`` describes, named ``name`` (``params`` as in ``search_agent``)."""
    from .mcts import ISMCTSAgent
    p = params or {}
    time_limit = (p["time"] or None) if "time" in p else spec.time_limit
    agent = ISMCTSAgent(seed, iterations=p.get("iterations", spec.iterations), time_limit=time_limit,
                        c=p.get("c", spec.c),
                        hooks=spec.hooks(seed), max_rollout_steps=spec.max_rollout_steps, widening=spec.widening,
                        backend_iterations=spec.backend_iterations, cpu_clock=spec.cpu_clock)
    agent.name = name
    return agent


def accepted_params(game: str, name: str) -> dict[str, type]:
    """The parameters agent ``name`` of ``game`` takes (name -> type); an unknown name is an error."""
    info = game_info(game)
    factory = info.agents.get(name) or GENERIC_AGENTS.get(name)
    if factory is not None:
        return factory_params(factory)
    if name == "hard":
        return SEARCH_PARAMS
    if name == "expert" and info.networks:
        return EXPERT_PARAMS
    if name == "easy":
        return EPSILON_PARAMS
    if name in LEVELS:
        return {}
    raise GameConfigError(f"unknown agent {name!r} for {game}; choose from: human, " + ", ".join(agent_names(game)),
                          key="term.err.unknown_agent",
                          params={"agent": name, "game": game, "agents": ", ".join(["human", *agent_names(game)])})


def parse_agent(game: str, text: str | AgentSpec) -> AgentSpec:
    """One agent specification (``medium``, ``hard:iterations=100,time=0``), checked against what the
    agent takes: the parameters typed, one clear line when the name or a parameter is wrong."""
    spec = text if isinstance(text, AgentSpec) else parse_text(text)
    if spec.name == "human":
        return AgentSpec("human") if not spec.params else check_params(spec, {})
    spec = check_params(spec, accepted_params(game, spec.name))
    if spec.params.get("time") == 0 and spec.name == "hard" and "iterations" not in spec.params:
        info = game_info(game)
        if info.search is not None and info.search.iterations is None:
            raise agent_budget_error("hard")
    return spec


def parse_agents(game: str, text: str) -> list[AgentSpec]:
    """A comma-separated list of specifications (``medium,hard:iterations=100,time=0``)."""
    return [parse_agent(game, t) for t in split_specs(text)]


def make_agent(game: str, name: str | AgentSpec, seed: int = 0) -> Agent:
    """The agent a specification names (a plain name or one with parameters), seeded with ``seed``."""
    spec = parse_agent(game, name)
    name, params = spec.name, spec.params
    info = game_info(game)
    factory = info.agents.get(name) or GENERIC_AGENTS.get(name)
    if factory is not None:
        try:
            agent = factory(seed, **params)
        except GrimoireError:
            raise
        except ValueError as e:         # a game's check without a catalog text: still one line, not a traceback
            raise GameConfigError(f"agent {spec.label} cannot be built: {e}", key="term.err.agent.rejected",
                                  params={"agent": spec.label, "reason": str(e)}) from None
        # a game's level that is another search (its hooks and budget): built here, as hard is
        return spec_agent(agent, seed, None, name) if isinstance(agent, SearchSpec) else agent
    if name == "hard" and info.search is not None:
        return search_agent(game, seed, params)
    if name == "expert" and info.networks:
        return expert_agent(game, seed, params)
    if name in LEVELS:
        return _generic_level(game, name, seed, params)
    raise GameConfigError(f"unknown agent {name!r} for {game}; choose from: human, " + ", ".join(agent_names(game)),
                          key="term.err.unknown_agent",
                          params={"agent": name, "game": game, "agents": ", ".join(["human", *agent_names(game)])})


__all__ = ["GENERIC_AGENTS", "LEVELS", "Agent", "AgentSpec", "EpsilonAgent", "RandomAgent", "accepted_params",
           "agent_names", "expert_agent", "make_agent", "parse_agent", "parse_agents", "search_agent", "spec_agent",
           "split_specs"]
