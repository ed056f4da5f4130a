"""The hard Zauberschmiede player: IS-MCTS with the greedy potential (grimoire/games/zauberschmiede/search.py)."""

from __future__ import annotations

import pytest

import grimoire
from grimoire.agents import make_agent
from grimoire.games.zauberschmiede.agents import _Ctx, potential
from grimoire.games.zauberschmiede.search import TOP_K, ZauberschmiedeHooks


def _solo_position(seed: int, steps: int):
    s = grimoire.new_game("zauberschmiede", 1, seed)
    g = make_agent("zauberschmiede", "greedy", seed)
    for _ in range(steps):
        s.apply(g.choose(s, 0))
    return s


def test_candidates_start_with_the_greedy_choice_and_keep_end():
    s = _solo_position(3, 4)
    hooks = ZauberschmiedeHooks(1)
    hooks.begin(s.clone(), 0)
    actions = s.legal_actions()
    cands = hooks.candidates(s, 0, actions, {})
    greedy = make_agent("zauberschmiede", "greedy", 1).decide(s, 0, actions)
    assert cands[0] is greedy
    assert cands[-1].kind == "end"
    assert len(cands) <= TOP_K + 2
    assert all(a in actions for a in cands)
    assert len({a.text for a in cands}) == len(cands)


def test_rewards_are_each_seats_own_potential_normalized_by_the_search():
    s = _solo_position(5, 0)
    hooks = ZauberschmiedeHooks(1)
    hooks.begin(s.clone(), 0)
    assert hooks.normalize
    assert hooks._rewards([123.0]) == [123.0]
    two = grimoire.new_game("zauberschmiede", 2, 5)
    hooks.begin(two.clone(), 0)
    assert hooks.evaluate(two) == [pytest.approx(v) for v in
                                   (potential(_Ctx(two, i), two.players[i]) for i in range(2))]


def test_hard_plays_a_whole_solo_game_legally_and_is_deterministic():
    def play():
        s = grimoire.new_game("zauberschmiede", 1, 11, max_rounds=3)
        a = make_agent("zauberschmiede", "hard", 4)
        a.iterations, a.time_limit = 10, None
        while not s.is_terminal():
            act = a.choose(s, 0)
            assert act in s.legal_actions()
            s.apply(act)
        return [str(x) for x in s.history], s.scores()

    first = play()
    assert first == play()
    assert first[1][0] > 0
