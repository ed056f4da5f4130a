"""The stand-off at two players (issue 22: draws at the round cap): the option ``press`` of ``ShuluriSearch``
closes in on an enemy gladiator whom ours beats even if he strikes first, from a given round on.
The position is the stand-off traced in an expert game against medium (arena seed 5501, game 2):
13 Ep against 10, five fields apart, from round 5 to the cap."""

from __future__ import annotations

from grimoire.agents import make_agent
from grimoire.games.shuluri.ai.chase import PRESS_EDGE, strike_reach
from grimoire.games.shuluri.ai.ctx import gladiator_walk
from grimoire.games.shuluri.ai.duel import exchange
from grimoire.games.shuluri.ai.search import PRESS, ShuluriSearch

from .helpers import arena, fig, wield
from .test_ai_pairs import _hard_step


def _standoff(rnd: int = 12, ours: int = 13, theirs: int = 10):
    s = arena({"agl": (-3, 2), "bgl": (2, -1)}, kind="glad", active=0)
    for name, ep in (("agl", ours), ("bgl", theirs)):
        wield(s, name, "greatsword")
        fig(s, name).ep = ep
    s.round = rnd
    return s


def _walk_after(s, hooks: ShuluriSearch) -> int:
    _hard_step(s, 0, hooks)
    return gladiator_walk(fig(s, "agl").field, fig(s, "bgl").field)


def test_the_traced_stand_off():
    s = _standoff()
    a, b = fig(s, "agl"), fig(s, "bgl")
    assert gladiator_walk(a.field, b.field) > strike_reach(s, b)        # neither can strike the other
    assert exchange(s, a, b, False) > 0.05                              # ours wins although he strikes first


def test_press_closes_in_where_the_search_alone_stands_off():
    assert _walk_after(_standoff(), ShuluriSearch(7, press=0)) == 5
    s = _standoff()
    assert _walk_after(s, ShuluriSearch(7, press=4)) <= strike_reach(s, fig(s, "agl")) - 2


def test_press_waits_for_its_round():
    assert _walk_after(_standoff(rnd=2), ShuluriSearch(7, press=4)) == 5


def test_press_keeps_away_from_a_stronger_gladiator():
    s = _standoff(ours=10, theirs=13)
    assert exchange(s, fig(s, "agl"), fig(s, "bgl"), False) < PRESS_EDGE
    assert _walk_after(s, ShuluriSearch(7, press=4)) > strike_reach(s, fig(s, "bgl"))


def test_hard_and_the_expert_press():
    """Hard presses since the fourth round of this work (docs/ai.md), as the expert did before."""
    for level in ("hard", "expert"):
        assert make_agent("shuluri", level, 1).hooks.press == PRESS > 0
    s = _standoff()
    agent = make_agent("shuluri", "hard", 7)
    assert _walk_after(s, agent.hooks) <= strike_reach(s, fig(s, "agl")) - 2
