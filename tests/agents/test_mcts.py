"""The generic IS-MCTS: budgets, legality, rewards, determinism, pluggable hooks."""

from __future__ import annotations

import pytest

import grimoire
from grimoire.agents import make_agent
from grimoire.agents.mcts import ISMCTSAgent, PolicyHooks, SearchHooks, score_rewards, terminal_rewards
from grimoire.core.rng import Rng

from .helpers import zavandor_positions

POSITIONS = zavandor_positions(3, 21, every=13, limit=10)


def _turn_position():
    return next(s for s in POSITIONS if not s.pending and len(s.legal_actions()) > 3)


def test_iteration_budget_is_exact_and_the_move_is_legal():
    state = _turn_position()
    agent = ISMCTSAgent(3, iterations=40, time_limit=None, max_rollout_steps=25)
    a = agent.choose(state, state.current_player)
    assert a in state.legal_actions()
    assert agent.last_stats["iterations"] == 40
    assert sum(n for n, _w in agent.last_stats["children"].values()) == 40


class TickClock:
    """A clock that advances by ``tick`` seconds each time it is read: the budget logic is tested by
    counting, never by measuring wall time."""

    def __init__(self, tick: float):
        self.t = 0.0
        self.tick = tick

    def __call__(self) -> float:
        self.t += self.tick
        return self.t


def test_time_budget_is_respected():
    state = _turn_position()
    agent = ISMCTSAgent(3, iterations=None, time_limit=0.25, max_rollout_steps=40)
    agent.clock = TickClock(1 / 64)                       # exact in binary: no rounding at the deadline
    a = agent.choose(state, state.current_player)
    assert a in state.legal_actions()
    # the start reads the clock once, then once before every iteration after the first: the search
    # stops at the first reading at or past the deadline (0.25 s = 16 ticks after the start)
    assert agent.last_stats["iterations"] == 16


def test_both_budgets_stop_at_the_first_reached():
    state = _turn_position()
    agent = ISMCTSAgent(3, iterations=5, time_limit=30.0, max_rollout_steps=10)
    agent.choose(state, state.current_player)
    assert agent.last_stats["iterations"] == 5


def test_a_budget_is_required():
    with pytest.raises(ValueError):
        ISMCTSAgent(1, iterations=None, time_limit=None)


def test_single_legal_action_needs_no_search():
    state = grimoire.new_game("zavandor", 2, 4)
    while len(state.legal_actions()) != 1:
        state.apply(state.legal_actions()[0])
    agent = ISMCTSAgent(1, iterations=50)
    assert agent.choose(state, state.current_player) == state.legal_actions()[0]
    assert agent.last_stats["iterations"] == 0


def test_same_seed_same_choice():
    state = _turn_position()
    seat = state.current_player
    picks = {str(ISMCTSAgent(9, iterations=30, time_limit=None, max_rollout_steps=20).choose(state, seat))
             for _ in range(2)}
    assert len(picks) == 1


def test_terminal_rewards_split_ties_and_reward_margins():
    state = grimoire.new_game("zavandor", 3, 2, max_rounds=1)
    while not state.is_terminal():
        acts = state.legal_actions()
        state.apply(next((a for a in acts if a.text == "end"), acts[0]))
    r = terminal_rewards(state)
    winners = state.winners()
    assert len(r) == 3 and all(0.0 <= x <= 1.0 for x in r)
    losers = [i for i in range(3) if i not in winners]
    for w in winners:
        assert all(r[w] > r[i] for i in losers)
    if len(winners) > 1:
        assert r[winners[0]] == pytest.approx(r[winners[1]])
    solo = grimoire.new_game("zauberschmiede", 1, 3)
    assert score_rewards(solo, [0]) == [0.5]


def test_hooks_are_used_candidates_rollout_cutoff_evaluate():
    calls = {"candidates": 0, "rollout": 0, "cutoff": 0, "evaluate": 0, "begin": 0}

    class Counting(SearchHooks):
        def begin(self, root, seat):
            calls["begin"] += 1
            super().begin(root, seat)

        def candidates(self, state, seat, actions, cache):
            calls["candidates"] += 1
            return actions[:2]

        def rollout(self, state, rng):
            calls["rollout"] += 1
            return super().rollout(state, rng)

        def cutoff(self, state, depth):
            calls["cutoff"] += 1
            return depth >= 4

        def evaluate(self, state):
            calls["evaluate"] += 1
            return [1.0 / state.num_players] * state.num_players

    state = _turn_position()
    agent = ISMCTSAgent(2, iterations=20, time_limit=None, hooks=Counting())
    a = agent.choose(state, state.current_player)
    assert a in state.legal_actions()[:2]                  # only the candidates are ever played
    assert set(agent.last_stats["children"]) <= {x.text for x in state.legal_actions()[:2]}
    assert calls["begin"] == 1 and all(calls[k] > 0 for k in calls)


def test_policy_playouts_and_widening():
    state = _turn_position()
    hooks = PolicyHooks(make_agent("zavandor", "naive", 1))
    agent = ISMCTSAgent(4, iterations=12, time_limit=None, hooks=hooks, max_rollout_steps=15, widening=(1.0, 0.5))
    assert agent.choose(state, state.current_player) in state.legal_actions()
    assert len(agent.last_stats["children"]) <= 4          # ceil(1 * 13**0.5) = 4 candidates at most


@pytest.mark.parametrize("game,players", [("zavandor", 2), ("zauberschmiede", 2), ("zauberschmiede", 1)])
def test_generic_mcts_plays_legal_moves_to_the_end(game, players):
    opts = {"max_rounds": 2} if game == "zavandor" else {"max_rounds": 1}
    state = grimoire.new_game(game, players, 6, **opts)
    agents = [ISMCTSAgent(10 + i, iterations=6, time_limit=None, max_rollout_steps=8) for i in range(players)]
    rng = Rng(1)
    while not state.is_terminal():
        cp = state.current_player
        acts = state.legal_actions()
        a = agents[cp].choose(state, cp) if rng.below(3) == 0 else acts[rng.below(len(acts))]
        assert a in acts
        state.apply(a)
