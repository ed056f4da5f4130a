"""The hard level's budget per engine: with a time limit each engine has its own iteration cap (the
native one searches as far as the time allows); without one, the same fixed iterations everywhere.

Every assertion here is about iteration counts that do not depend on how fast the machine is: the
caps are reached long before the (generous) time limits, and a zero time limit allows exactly the
first iteration.
"""

import pytest

import grimoire
from grimoire.agents import make_agent, search_agent
from grimoire.core.registry import game_info


@pytest.fixture(scope="module")
def positions():
    """Two turns of a 4-player game of medium players with a choice (where the hard level searches)."""
    state = grimoire.new_game("zavandor", 4, 31, max_rounds=10)
    agents = [make_agent("zavandor", "medium", 310 + i) for i in range(4)]
    out = []
    for _ in range(40):
        if not state.pending and len(state.legal_actions()) > 2:
            out.append(state.clone())
        state.apply(agents[state.current_player].choose(state, state.current_player))
    assert len(out) >= 2
    return out[-2:]


def _agent(seed: int = 5, **budget):
    agent = search_agent("zavandor", seed)
    agent.hooks.clear_gap = 99.0          # always search (no shortcut on a clear turn action)
    for k, v in budget.items():
        setattr(agent, k, v)
    return agent


def _searched(agent, state) -> int:
    agent.choose(state, state.current_player)
    assert not agent.last_stats.get("shortcut")
    return agent.last_stats["iterations"]


def test_the_declared_budget_lifts_the_cap_on_the_native_engine_only():
    spec = game_info("zavandor").search
    assert spec.iterations == 300 and spec.time_limit == 2.0
    assert spec.backend_iterations == {"native": None}
    agent = search_agent("zavandor", 1)
    assert agent.iteration_cap("native") is None          # as many as the 2 s allow
    assert agent.iteration_cap("python") == 300
    agent.time_limit = None                               # the fixed budget: the same on both engines
    assert agent.iteration_cap("native") == agent.iteration_cap("python") == 300


@pytest.mark.parametrize("backend, expected", [("python", 12), ("native", 30)])
def test_each_engine_stops_at_its_own_cap_within_the_time(positions, backend, expected):
    budget = {"iterations": 12, "time_limit": 60.0, "backend_iterations": {"native": 30}}
    for s in positions:
        state = grimoire.load_game(s.to_dict(), backend=backend)
        assert _searched(_agent(**budget), state) == expected


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_fixed_budget_ignores_the_engine_caps(positions, backend):
    budget = {"iterations": 17, "time_limit": None, "backend_iterations": {"native": None, "python": 3}}
    state = grimoire.load_game(positions[0].to_dict(), backend=backend)
    assert _searched(_agent(**budget), state) == 17


@pytest.mark.parametrize("backend", ["python", "native"])
@pytest.mark.parametrize("cpu_clock", [False, True])
def test_a_spent_time_budget_stops_after_the_first_iteration(positions, backend, cpu_clock):
    """Without an iteration cap the time limit alone ends the search, on either clock: with no time
    at all, the first iteration still runs (a search always has a move to return)."""
    budget = {"iterations": None, "time_limit": 0.0, "cpu_clock": cpu_clock, "backend_iterations": {"native": None}}
    state = grimoire.load_game(positions[0].to_dict(), backend=backend)
    action = _agent(**budget).choose(state, state.current_player)
    assert action in state.legal_actions()
    assert _searched(_agent(**budget), state) == 1
