"""``GameState.history`` builds a state's list from its parent's (``core.state._LISTS``): the same list as
the plain walk of the cons list for every state of random games (clones and in place, and after a history
is set anew), and each call hands out a list of its own."""

from __future__ import annotations

import pytest

from grimoire.core import state as S
from grimoire.core.registry import games, new_game
from grimoire.core.rng import Rng


def _plain(s) -> list[str]:
    out, node = [], s._hist
    while node is not None:
        out.append(node[0])
        node = node[1]
    return out[::-1]


@pytest.mark.parametrize("game", games())
def test_history_is_the_plain_walk(game):
    s = new_game(game, 2, seed=3)
    r = Rng(3)
    for k in range(120):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        if k % 2:
            s = s.clone()
        s.apply(legal[r.below(len(legal))])
        if k % 7 == 0:
            S._LISTS.clear()                  # (the cache starts afresh when full)
        got = s.history
        assert got == _plain(s)
        got.append("x")                       # a list of its own
        assert s.history == _plain(s)
    s._set_history(s.history[:-1])            # new nodes (undo): the list follows
    assert s.history == _plain(s)
