"""Closing ranks in pairs (issue 22): a gladiator with no blow this step walks back within reach of his
partner (``ai/ranks.py``), on at 4 players for hard and the expert (``search.PAIRS``)."""

from __future__ import annotations

from grimoire.games.shuluri.ai.chase import corner, rally, strike_reach
from grimoire.games.shuluri.ai.ctx import gladiator_walk
from grimoire.games.shuluri.ai.expert import ExpertSearch
from grimoire.games.shuluri.ai.ranks import close_ranks
from grimoire.games.shuluri.ai.search import ShuluriSearch

from .helpers import arena, fig
from .test_ai_pairs import BARE, _hard_step

# seat 0's agl six fields from his partner cgl; the enemy gladiators on the far side, not yet in
# reach of cgl (so neither the cornering nor the rally acts)
APART = {"agl": (-2, 2), "cgl": (1, -4), "bgl": (4, -1), "dgl": (5, -2)}


def _pos(place: dict[str, tuple[int, int]] = APART):
    return arena(place, players=4, mode="pairs", kind="glad", active=0)


def _legal(s) -> set[str]:
    return {a.text for a in s.legal_actions()}


def test_the_position_is_one_no_other_rule_answers():
    s = _pos()
    a, c = fig(s, "agl"), fig(s, "cgl")
    assert gladiator_walk(a.field, c.field) > strike_reach(s, a)
    assert rally(s, 0, _legal(s)) is None
    assert corner(s, 0, _legal(s)) is None
    assert close_ranks(s, 0, _legal(s)) is not None


def test_closing_ranks_brings_the_gladiator_within_reach_of_his_partner():
    """The bare search stays six fields from its partner; with ``close_ranks`` its step ends where it
    can strike whoever walks up to strike the partner."""
    after = {}
    for opt in (False, True):
        s = _pos()
        _hard_step(s, 0, ShuluriSearch(7, **{**BARE, "close_ranks": opt}))
        after[opt] = gladiator_walk(fig(s, "agl").field, fig(s, "cgl").field)
    reach = strike_reach(_pos(), fig(_pos(), "agl"))
    assert after[False] > reach >= after[True]


def test_no_closing_ranks_when_the_partner_is_in_reach():
    s = _pos({**APART, "cgl": (-1, 0)})
    assert gladiator_walk(fig(s, "agl").field, fig(s, "cgl").field) <= strike_reach(s, fig(s, "agl"))
    assert close_ranks(s, 0, _legal(s)) is None


def test_a_blow_in_reach_comes_first():
    s = _pos({**APART, "bgl": (-1, 2)})           # an enemy gladiator next to agl
    assert close_ranks(s, 0, _legal(s)) is None


def test_no_closing_ranks_without_a_partner_or_at_two_players():
    s = _pos()
    fig(s, "cgl").alive = False
    fig(s, "cgl").field = -1
    assert close_ranks(s, 0, _legal(s)) is None
    two = arena({"agl": (-2, 2), "bgl": (4, -1)}, kind="glad", active=0)
    assert close_ranks(two, 0, _legal(two)) is None


def test_the_expert_closes_ranks_as_hard_does():
    """Both levels play pairs with the options (tests/shuluri/test_ai_hard_pairs.py for hard)."""
    s = _pos()
    _hard_step(s, 0, ExpertSearch(7))
    assert gladiator_walk(fig(s, "agl").field, fig(s, "cgl").field) <= strike_reach(s, fig(s, "agl"))
