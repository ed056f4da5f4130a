"""``reach``: the search's playouts go on through that many steps after the searched one before the leaf is
valued (0, the default: the step, and the enemy gladiator's step where that comes next)."""

from __future__ import annotations

import pytest

import grimoire
from grimoire.agents import make_agent
from grimoire.core.errors import GameConfigError
from grimoire.core.rng import Rng
from grimoire.games.shuluri.ai.expert import ExpertSearch, shipped
from grimoire.games.shuluri.ai.search import ShuluriSearch


def _first_step_of_round_2(seed: int):
    """A 2-player game (medium on both sides) at the first action of round 2 (side A's first pair step)."""
    s = grimoire.new_game("shuluri", 2, seed)
    agents = [make_agent("shuluri", "medium", k) for k in range(2)]
    while not s.is_terminal():
        top = s.stack.top
        if (s.phase == "play" and s.round == 2 and top is not None and top.kind == "act"
                and s.step_i == 0):
            return s, agents
        s.apply(agents[s.current_player].choose(s, s.current_player))
    raise AssertionError("the game ended before round 2")


def _steps_until_cut(hooks: ShuluriSearch, root, agents) -> list[tuple[int, str]]:
    """The (seat, kind) of each step a medium playout from ``root`` passes before ``hooks`` cut it."""
    hooks.begin(root, root.current_player)
    s = root.clone()
    seen = [root.sched[root.step_i]]
    while not s.is_terminal() and not hooks.cutoff(s, 0):
        if s.phase == "play" and s.sched[s.step_i] != seen[-1]:
            seen.append(s.sched[s.step_i])
        s.apply(agents[s.current_player].choose(s, s.current_player))
    return seen


def test_reach_carries_the_playout_through_the_enemy_s_answer():
    root, agents = _first_step_of_round_2(31)
    a = root.current_player
    b = 1 - a
    assert root.sched[:3] == ((a, "pair1"), (b, "pair1"), (a, "pair2"))
    assert _steps_until_cut(ShuluriSearch(1), root, agents) == [(a, "pair1")]          # as hard: the step only
    assert _steps_until_cut(ShuluriSearch(1, reach=1), root, agents) == [(a, "pair1"), (b, "pair1")]
    assert _steps_until_cut(ShuluriSearch(1, reach=2), root, agents) == [(a, "pair1"), (b, "pair1"), (a, "pair2")]


def test_the_expert_with_reach_plays_legal_moves_and_a_bad_reach_is_one_line():
    root, _agents = _first_step_of_round_2(32)
    hooks = ExpertSearch(3, 0.5, shipped(), {"reach": 1})
    legal = root.legal_actions()
    me = root.current_player
    hooks.begin(root, me)
    cands = hooks.candidates(root, me, legal, {})
    assert cands and all(a in legal for a in cands)
    rng = Rng(5)
    s = root.clone()
    while not hooks.cutoff(s, 0) and not s.is_terminal():
        s.apply(hooks.rollout(s, rng))
    assert s.step_i == root.step_i + 2 and 0.0 <= hooks.evaluate(s)[me] <= 1.0
    with pytest.raises(GameConfigError, match="reach") as err:
        ShuluriSearch(1, reach=-1)
    assert err.value.key == "term.err.agent.value"          # said in the reader's language, as the CLI's refusals
