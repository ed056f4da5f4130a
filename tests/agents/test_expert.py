"""The network-guided search (``expert``): it plays only legal actions, decides from what its seat may
know (through the contract's guard, and identically on another determinization of the same
observation), is deterministic given its seed, and its visit distribution is a policy over legal ids."""

from __future__ import annotations

import pytest

import grimoire
from grimoire.agents import make_agent
from grimoire.agents.expert import ExpertAgent
from grimoire.agents.net import init
from grimoire.core.registry import game_info

from .helpers import Guarded, other_determinization

CASES = [("zauberschmiede", 1, {}), ("zauberschmiede", 3, {}), ("shuluri", 2, {"max_rounds": 4})]


def _net(game: str, players: int, options: dict, seed: int = 1):
    info = game_info(game)
    return init(info.tensor_spec(players, options).size, info.num_distinct_actions, [16], seed)


def _positions(game: str, players: int, options: dict, count: int = 4):
    state = grimoire.new_game(game, players, 11, **options)
    agents = [make_agent(game, "medium", i) for i in range(players)]
    out, n = [], 0
    while not state.is_terminal() and len(out) < count:
        cp = state.current_player
        if len(state.legal_actions()) > 1 and n % 5 == 2:
            out.append(state.clone())
        state.apply(agents[cp].choose(state, cp))
        n += 1
    return out


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_expert_decides_legally_from_its_seats_information(game, players, options):
    net = _net(game, players, options)
    for i, state in enumerate(_positions(game, players, options)):
        seat = state.current_player
        agent = ExpertAgent(7 + i, net, simulations=6, time=0)
        real = agent.choose(Guarded(state), seat)
        assert real in state.legal_actions()
        legal_ids = set(state.legal_action_ids())
        assert agent.last_policy and set(agent.last_policy) <= legal_ids
        assert abs(sum(agent.last_policy.values()) - 1.0) < 1e-6
        assert agent.last_stats["simulations"] == 6
        for k in range(2):
            det = other_determinization(state, seat, k)
            assert det.observation(seat) == state.observation(seat)
            again = ExpertAgent(7 + i, net, simulations=6, time=0).choose(Guarded(det), seat)
            assert str(again) == str(real)


def test_expert_plays_a_whole_game_with_the_policy_alone_and_with_search():
    info = game_info("zauberschmiede")
    net = _net("zauberschmiede", 1, {})
    for sims in (0, 3):
        state = grimoire.new_game("zauberschmiede", 1, 4)
        agent = ExpertAgent(3, net, simulations=sims, time=0)
        while not state.is_terminal():
            a = agent.choose(Guarded(state), 0)
            assert state.is_legal(a)
            state.apply(a)
        assert info.score_bounds[0] <= state.scores()[0] <= info.score_bounds[1]


def test_expert_without_a_network_for_the_table_plays_its_fallback():
    state = grimoire.new_game("zauberschmiede", 2, 4)
    agent = ExpertAgent(3, lambda players: None, fallback=lambda s: make_agent("zauberschmiede", "medium", s))
    a = agent.choose(state, state.current_player)
    assert a in state.legal_actions()
    with pytest.raises(ValueError, match="no network"):
        ExpertAgent(3, lambda players: None).choose(state, state.current_player)


def test_a_network_of_another_game_is_refused():
    state = grimoire.new_game("zauberschmiede", 1, 4)
    with pytest.raises(ValueError, match="action ids"):
        ExpertAgent(3, init(state.observation_tensor(0).size, 5, [4], 0)).choose(state, 0)
