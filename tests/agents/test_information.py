"""Information discipline: an agent decides only from what its seat may know.

For positions of every kind (own turn, bids in others' auctions, payments, gem losses), the choice
of an agent must be identical — same agent seed — when the real state is replaced by another
determinization of the same observation (``state.sample_hidden``): the hidden parts (the other
players' card values, the decks, the RNG) then differ, so any peek at them would show. The agents
also get the state through a guard that fails on any access outside the contract.
"""

from __future__ import annotations

import pytest

import grimoire
from grimoire.agents import make_agent
from grimoire.agents.mcts import ISMCTSAgent

from .helpers import Guarded, differs_in_hidden, other_determinization, zavandor_positions


def _zav_agent(name: str, seed: int):
    if name == "hard":
        a = make_agent("zavandor", "hard", seed)
        a.iterations, a.time_limit = 12, None                       # a budget that does not depend on time
        return a
    if name == "mcts":
        return ISMCTSAgent(seed, iterations=15, time_limit=None, max_rollout_steps=30)
    return make_agent("zavandor", name, seed)


POSITIONS = {4: zavandor_positions(4, 3, every=7, limit=28), 2: zavandor_positions(2, 8, every=11, limit=16)}


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", ["random", "easy", "medium", "heuristic", "naive", "mcts", "hard"])
def test_zavandor_choice_is_the_same_on_another_determinization(name, players):
    positions = POSITIONS[players]
    if name in ("hard", "mcts"):
        positions = positions[::3]
    kinds = set()
    meaningful = 0
    for i, state in enumerate(positions):
        seat = state.current_player
        kinds.add(state.pending.top.kind if state.pending else "turn")
        real = _zav_agent(name, 40 + i).choose(Guarded(state), seat)
        assert real in state.legal_actions()
        for k in range(2):
            det = other_determinization(state, seat, k)
            assert det.observation(seat) == state.observation(seat)
            meaningful += differs_in_hidden(det, state)
            again = _zav_agent(name, 40 + i).choose(Guarded(det), seat)
            assert str(again) == str(real), (f"{name} chose {real} on the real state but {again} on a "
                                             f"determinization (position {i}, seat {seat})")
    assert meaningful > len(positions)          # the hidden parts really were different
    if name not in ("hard", "mcts"):
        assert {"turn", "bid"} <= kinds


def test_positions_cover_the_decision_kinds():
    kinds = {s.pending.top.kind if s.pending else "turn" for s in POSITIONS[4] + POSITIONS[2]}
    assert {"turn", "bid", "apay"} <= kinds


def _zs_positions(players: int, seed: int):
    state = grimoire.new_game("zauberschmiede", players, seed)
    agents = [make_agent("zauberschmiede", "greedy", i) for i in range(players)]
    out = []
    n = 0
    while not state.is_terminal() and len(out) < 8:
        cp = state.current_player
        if len(state.legal_actions()) > 1 and n % 7 == 3:
            out.append(state.clone())
        state.apply(agents[cp].choose(state, cp))
        n += 1
    return out


@pytest.mark.parametrize("name", ["random", "easy", "medium", "greedy", "mcts-small", "hard-small"])
def test_zauberschmiede_choice_is_the_same_on_another_determinization(name):
    for i, state in enumerate(_zs_positions(3, 5)):
        seat = state.current_player

        def agent(i=i):
            if name == "mcts-small":
                return ISMCTSAgent(7 + i, iterations=8, time_limit=None, max_rollout_steps=6)
            if name == "hard-small":
                a = make_agent("zauberschmiede", "hard", 7 + i)
                a.iterations, a.time_limit = 12, None
                return a
            return make_agent("zauberschmiede", name, 7 + i)

        real = agent().choose(Guarded(state), seat)
        det = other_determinization(state, seat, i)
        assert det.observation(seat) == state.observation(seat)
        assert str(agent().choose(Guarded(det), seat)) == str(real)
