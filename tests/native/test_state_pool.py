"""The core's StatePool: states addressed by index, the same games as the wrapper objects play."""

from __future__ import annotations

import numpy as np
import pytest

from grimoire.core.rng import Rng
from grimoire.games.zavandor.native import new_native, state_pool


def test_pool_states_play_exactly_as_the_wrapped_states():
    s = new_native(4, 21, max_rounds=3)
    pool = state_pool()
    root = pool.add(s._c)
    rng = Rng(5)
    for _ in range(40):                                   # clone, play the same ids on both, compare
        i = pool.clone(root)
        ref = s.clone()
        for _ in range(30):
            if ref.is_terminal():
                break
            ids = ref.legal_action_ids()
            a = ids[rng.below(len(ids))]
            assert pool.apply_id(i, a) is None
            ref.apply(ref.action_from_id(a))
        assert pool.core(i) == ref._c
        assert pool.current_player(i) == ref.current_player and pool.scores(i) == ref.scores()
        seat = ref.current_player if ref.current_player is not None else 0
        buf = np.empty(len(ref.observation_tensor(seat)), np.float32)
        pool.tensor_into(i, seat, buf)
        assert buf.tobytes() == ref.observation_tensor(seat).tobytes()
        pool.release(i)
    assert len(pool) == 1 and pool.core(root) == s._c        # the root was never changed


def test_slots_are_reused_and_bad_indices_refused():
    pool = state_pool()
    root = pool.add(new_native(3, 1)._c)
    a = pool.clone(root)
    pool.release(a)
    assert pool.clone(root) == a                              # the freed slot again
    many = pool.clone_many(root, 5)
    assert len(set(many)) == 5 and len(pool) == 7
    pool.copy_into(root, many[0])
    assert pool.core(many[0]) == pool.core(root)
    reason = pool.apply_id(root, 10**6)
    assert reason is not None and "not legal" in reason[0]
    pool.release(many[1])
    with pytest.raises(ValueError, match="no state"):
        pool.apply_id(many[1], 0)
    with pytest.raises(ValueError, match="no state"):
        pool.clone(99)
    assert pool.playout(root, 3) > 0 and pool.is_terminal(root)
