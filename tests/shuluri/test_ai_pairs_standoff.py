"""The pairs stand-off (issue 20): with ``corner_last`` (the expert's pairs option) a gladiator still hunts
while two enemy gladiators stand when ours outmatch both of theirs (``chase.outmatched``). Set up from
the expert's drawn game (arena seed 9302 of scripts/shuluri_ab.py --players 4 --mode pairs, game 0):
round 10 to 30, every figure ending its step unmoved."""

from __future__ import annotations

from grimoire.games.shuluri.ai.chase import PRESS_EDGE, corner, outmatched
from grimoire.games.shuluri.ai.ctx import Ctx, gladiator_walk
from grimoire.games.shuluri.ai.expert import ExpertSearch
from grimoire.games.shuluri.ai.search import PAIRS

from .helpers import arena, fig, wield
from .test_ai_pairs import _hard_step

PLACE = {"agl": (0, 4), "bgl": (0, -3), "cgl": (0, 2), "dgl": (3, -3)}
EP = {"agl": 16, "bgl": 10, "cgl": 18, "dgl": 8}


def _standoff(ep: dict[str, int] = EP):
    s = arena(PLACE, players=4, mode="pairs", kind="glad", active=0)
    for name, e in ep.items():
        wield(s, name, "greatsword")
        fig(s, name).ep = e
    return s


def _legal(s) -> set[str]:
    return {a.text for a in s.legal_actions()}


def test_ours_outmatch_theirs_in_the_traced_position():
    s = _standoff()
    ctx = Ctx(s, 0)
    assert outmatched(s, ctx.own_gladiators(), ctx.enemy_gladiators())
    assert corner(s, 0, _legal(s), last_only=True) is not None


def test_no_hunt_while_one_enemy_gladiator_would_win_the_exchange():
    s = _standoff({**EP, "bgl": 18})
    ctx = Ctx(s, 0)
    assert not outmatched(s, ctx.own_gladiators(), ctx.enemy_gladiators())
    assert corner(s, 0, _legal(s), last_only=True) is None


def test_the_expert_closes_in_instead_of_standing_off():
    """Seat 0's agl (16 Ep), five fields from dgl (8 Ep) and bgl (10 Ep): the expert's step ends nearer."""
    s = _standoff()
    before = min(gladiator_walk(fig(s, "agl").field, fig(s, e).field) for e in ("bgl", "dgl"))
    _hard_step(s, 0, ExpertSearch(7, options=dict(PAIRS)))
    after = min(gladiator_walk(fig(s, "agl").field, fig(s, e).field) for e in ("bgl", "dgl"))
    assert after < before


def _close(rnd: int):
    """Seed 9304, game 0, round 10: hard's two gladiators (17 Ep each) on one field, medium's (14 and 13)
    five fields off; each exchange of ours +0.12 to +0.26 with the enemy striking first. Unmoved from
    round 6 to the cap: a draw."""
    s = arena({"agl": (-1, 2), "cgl": (-1, 2), "bgl": (0, -3), "dgl": (4, -1)}, players=4, mode="pairs",
              kind="glad", active=0)
    for name, e in (("agl", 17), ("cgl", 17), ("bgl", 14), ("dgl", 13)):
        wield(s, name, "greatsword")
        fig(s, name).ep = e
    s.round = rnd
    return s


def test_from_the_press_round_a_narrower_margin_breaks_the_standoff():
    s = _close(10)
    ctx = Ctx(s, 0)
    assert not outmatched(s, ctx.own_gladiators(), ctx.enemy_gladiators())
    assert outmatched(s, ctx.own_gladiators(), ctx.enemy_gladiators(), PRESS_EDGE)
    assert corner(s, 0, _legal(s), last_only=True) is None
    assert corner(s, 0, _legal(s), last_only=True, outmatch=PRESS_EDGE) is not None
    gap = {}
    for rnd in (3, 10):                           # the expert's press round is 4
        s = _close(rnd)
        _hard_step(s, 0, ExpertSearch(7))
        gap[rnd] = min(gladiator_walk(fig(s, "agl").field, fig(s, e).field) for e in ("bgl", "dgl"))
    assert gap[10] < 5 and gap[10] < gap[3]
