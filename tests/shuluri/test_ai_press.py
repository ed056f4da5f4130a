"""The AI presses an advantage (issue 20): a kill in reach is taken, a healthy gladiator closes in on a
badly hurt one instead of standing just out of his reach, and the search values a draw below a win."""

from __future__ import annotations

import pytest

from grimoire.agents import make_agent
from grimoire.games.shuluri import board as B
from grimoire.games.shuluri.ai.ctx import can_strike
from grimoire.games.shuluri.ai.search import DRAW, ShuluriSearch
from grimoire.games.shuluri.flow import finish

from .helpers import arena, fig, wield


def _play_step(s, seat: int, level: str = "medium") -> list[str]:
    """Let the level play seat's step to its end (its own pushes and dodges included)."""
    agent = make_agent("shuluri", level, 7)
    if level == "hard":
        agent.iterations, agent.time_limit = 16, None      # a budget that does not depend on time
    done = []
    while s.stack.top is not None and s.current_player == seat and s.stack.top.kind in ("act", "push", "dodge"):
        a = agent.choose(s, seat)
        done.append(a.text)
        s.apply(a)
        if a.text == "end":
            break
    return done


def _gladiators(place: dict, eps: dict, **kw):
    s = arena(place, kind="glad", active=0, keep_others=True, **kw)
    for name in place:
        wield(s, name, "greatsword")
    for name, ep in eps.items():
        fig(s, name).ep = ep
    return s


@pytest.mark.parametrize("enemy_ep,level", [(4, "medium"), (8, "medium"), (8, "hard")])
def test_a_healthy_gladiator_closes_in_on_a_badly_hurt_one(enemy_ep, level):
    """Six fields apart, out of each other's reach: the stand-off of the issue. The healthy gladiator
    ends his step where the other can reach him (the other strikes first, and still loses the exchange
    of blows), not six fields away again."""
    s = _gladiators({"agl": (-4, 2), "bgl": (2, -1)}, {"agl": 18, "bgl": enemy_ep})
    assert B.distance(fig(s, "agl").field, fig(s, "bgl").field) == 6
    assert not can_strike(s, fig(s, "bgl"), fig(s, "agl"))
    _play_step(s, 0, level)
    assert can_strike(s, fig(s, "bgl"), fig(s, "agl"))
    assert B.distance(fig(s, "agl").field, fig(s, "bgl").field) <= 3


def test_equal_gladiators_keep_out_of_reach():
    """Between equals the one who ends in the other's reach gives him the first strike and the better
    odds (duel.py): standing off stays right there, the ring fighters decide."""
    s = _gladiators({"agl": (-4, 2), "bgl": (2, -1)}, {"agl": 18, "bgl": 18})
    _play_step(s, 0)
    assert not can_strike(s, fig(s, "bgl"), fig(s, "agl"))


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_pairs_healthy_gladiators_attack_badly_hurt_enemies_four_fields_away(level):
    """The issue's four-player game: two healthy gladiators of one alliance, two badly hurt enemies four
    fields away. The gladiator walks in and strikes (before: he stepped back out of reach)."""
    place = {"agl": (-2, 1), "cgl": (-2, 2), "bgl": (2, -1), "dgl": (2, 0)}
    s = _gladiators(place, {"bgl": 8, "dgl": 9}, players=4, mode="pairs")
    done = _play_step(s, 0, level)
    assert any(t.startswith(("gl attack bgl", "gl attack dgl")) for t in done)


@pytest.mark.parametrize("level", ["medium", "easy"])
def test_a_kill_in_reach_is_taken_by_the_gladiator(level):
    s = _gladiators({"agl": (-3, 1), "bgl": (0, 0)}, {"agl": 8, "bgl": 3})
    done = _play_step(s, 0, level)
    assert any(t.startswith("gl attack bgl") for t in done)


def test_a_kill_in_reach_is_taken_by_a_shooter():
    """Two dagger throwers in the crossbow's reach, one with 1 Ep left: the bolt goes at him."""
    s = arena({"axb": (1, 6), "bd1": (0, 7), "bd2": (1, 7)}, named=("xb",))
    fig(s, "bd1").ep = 1
    done = _play_step(s, 0)
    assert "xb shoot bd1" in done


def test_the_search_counts_a_win_one_and_a_draw_less():
    hooks = ShuluriSearch(1)
    s = arena({"agl": (0, 2), "bgl": (0, -2)}, kind="glad", active=0)
    won = s.clone()
    finish(won, [0], "gladiator killed")
    assert hooks.terminal(won) == [1.0, 0.0]
    drawn = s.clone()
    finish(drawn, [0, 1], "round limit")
    assert hooks.terminal(drawn) == [DRAW, DRAW]
    assert DRAW < 0.5                      # below an even chance: the cap is worse than a fair fight


def test_partners_who_win_together_each_count_a_win():
    hooks = ShuluriSearch(1)
    s = arena({}, players=4, mode="pairs", kind="glad", active=0)
    finish(s, [0, 2], "gladiator killed")
    assert hooks.terminal(s) == [1.0, 0.0, 1.0, 0.0]


def _far_gladiator_pairs():
    """Pairs, round 2: agl stands at home while his partner cgl fights the two enemy gladiators."""
    place = {"agl": (-5, 3), "cgl": (1, 0), "bgl": (2, -1), "dgl": (2, 0)}
    return _gladiators(place, {"bgl": 12, "dgl": 13, "cgl": 12}, players=4, mode="pairs")


def test_pairs_the_heuristic_plays_the_hard_gladiators_step():
    """At four players hard's gladiator steps are the heuristic's (``glad_heuristic`` by default): the
    search's leaf value, which counts two enemy gladiators' threats but not the exchange of blows, kept
    hard's gladiators at home while their partners fought. At two players the search decides."""
    from grimoire.core.rng import Rng
    from grimoire.games.shuluri.ai.heuristic import decide
    s = _far_gladiator_pairs()
    acts = s.legal_actions()
    hooks = ShuluriSearch(3)
    quick = hooks.shortcut(s, 0, acts)
    assert quick is not None
    assert quick.text == decide(s.sample_hidden(0, Rng(1)), 0, acts).text
    assert ShuluriSearch(3, glad_heuristic=False)._heuristic_gladiator(s) is False
    duel = _gladiators({"agl": (-4, 2), "bgl": (2, -1)}, {"agl": 18, "bgl": 18})
    assert hooks._heuristic_gladiator(duel) is False


def test_pairs_a_hard_gladiator_at_home_joins_the_fight():
    """Seven fields from the enemies, the hard gladiator walks up to three (before: he stopped five away)."""
    s = _far_gladiator_pairs()
    assert min(B.distance(fig(s, "agl").field, fig(s, e).field) for e in ("bgl", "dgl")) == 7
    _play_step(s, 0, "hard")
    assert min(B.distance(fig(s, "agl").field, fig(s, e).field) for e in ("bgl", "dgl")) <= 3
