"""The one undo policy of every interface (core/undo.py): for random positions of every game, an
action the policy lets its seat take back leaves the barrier and the deciding seat as they were, and the
state rebuilt without it is exactly the state before it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grimoire.core import undo as policy
from grimoire.core.registry import new_game

GAMES = ["zavandor", "shuluri", "zauberschmiede"]


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 40))
def test_undoable_actions_rebuild_the_state_before_them(game, seed, steps):
    state = new_game(game, 2, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        state.apply(rng.choice(state.legal_actions()))
    if state.is_terminal():
        return
    seat = state.current_player
    for action in state.legal_actions()[:12]:
        after = state.clone()
        after.apply(action)
        why, before = policy.last_action_refusal(after, seat, seat)
        assert why == policy.refusal(state, after, seat)
        if why is None:
            assert after.current_player == seat and after.undo_barrier() == state.undo_barrier()
            assert before is not None and before.to_dict() == state.to_dict()
        else:
            assert before is None
            assert why in (policy.CHANCE, policy.TURN_PASSED, policy.OVER)


def test_only_the_last_actions_own_seat_and_never_a_finished_game():
    state = new_game("zavandor", 2, 7)
    seat = state.current_player
    after = state.clone()
    after.apply("buy opal")
    assert policy.last_action_refusal(after, 1 - seat, seat) == (policy.NOTHING, None)
    assert policy.last_action_refusal(state, seat, None) == (policy.NOTHING, None)
    assert policy.last_action_refusal(after, seat, seat)[0] is None
    assert policy.refusal(after, after.clone(), 1 - seat) == policy.NOTHING
