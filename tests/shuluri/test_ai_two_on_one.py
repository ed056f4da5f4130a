"""Not alone within reach of two (issue 20, hard apart from medium in pairs): the position of hard's lost
pairs game traced in docs/ai.md ("sixth round"; arena seed 9602, game 2, round 3). Hard's agl (18 Ep) to
act; his partner cgl danced (no MAN), four fields away; medium's bgl (18 Ep) can reach cgl, medium's dgl
(12 Ep) stands five fields east. Hard walked to (-1, 2), where both medium gladiators could strike him; bgl
took him down there, dgl beat him on the ground, cgl fell after him."""

from __future__ import annotations

from grimoire.agents import make_agent
from grimoire.games.shuluri.ai.ctx import Ctx
from grimoire.games.shuluri.ai.search import ShuluriSearch
from grimoire.games.shuluri.ai.two_on_one import Guard
from grimoire.games.shuluri.data import SPELL_BY_KEY
from grimoire.games.shuluri.magic import add_effect

from .helpers import F, arena, fig, wield
from .test_ai_pairs import _hard_step

WALKED_INTO = (-1, 2)            # where hard ended his step in the traced game


def _alone(danced: bool = True, players: int = 4):
    place = {"agl": (-3, 4), "bgl": (-2, -1), "cgl": (-5, 2), "dgl": (2, 1)}
    opts = {"mode": "pairs"} if players == 4 else {}
    s = arena(place, players=players, kind="glad", active=0, keep_others=True, **opts)
    for name, ep in (("agl", 18), ("bgl", 18), ("cgl", 18), ("dgl", 12)):
        if players == 4 or name in ("agl", "bgl"):
            wield(s, name, "greatsword")
            fig(s, name).ep = ep
    s.round = 3
    if danced:
        add_effect(s, fig(s, "cgl"), SPELL_BY_KEY["dance"], fig(s, "dwl").id, flags=("no_man",))
    return s


def test_a_field_is_exposed_where_two_can_strike_and_the_partner_cannot():
    s = _alone()
    guard = Guard(Ctx(s, 0))
    assert guard.active
    assert guard.exposed(F(*WALKED_INTO))                  # bgl and dgl both reach it, cgl is danced
    assert not guard.exposed(F(-3, 3))                     # only bgl reaches it
    s = _alone(danced=False)
    assert not Guard(Ctx(s, 0)).exposed(F(*WALKED_INTO))   # cgl could walk up and strike back there


def test_hard_no_longer_walks_alone_into_reach_of_both():
    """Without the option hard ends where it did in the traced game; the level's own hooks (as the game's
    search spec makes them) end where at most one medium gladiator can strike."""
    s = _alone()
    _hard_step(s, 0, ShuluriSearch(7, two_on_one=False))
    assert fig(s, "agl").field == F(*WALKED_INTO)
    for seed in (7, 8):
        s = _alone()
        hooks = make_agent("shuluri", "hard", seed).hooks
        assert type(hooks) is ShuluriSearch and hooks.two_on_one
        _hard_step(s, 0, hooks)
        assert not Guard(Ctx(_alone(), 0)).exposed(fig(s, "agl").field)


def test_the_searched_walks_skip_exposed_fields_and_the_end_there():
    """Standing on an exposed field, the search weighs no 'end' and no walk that ends exposed."""
    s = _alone()
    g = fig(s, "agl")
    g.field = F(*WALKED_INTO)
    legal = {a.text for a in s.legal_actions()}
    hooks = ShuluriSearch(7)
    hooks.seat = 0
    texts = [t for _v, t in hooks._first_actions(s, 0, legal, {})]
    assert texts and "end" not in texts
    assert "end" in [t for _v, t in ShuluriSearch(7, two_on_one=False)._first_actions(s, 0, legal, {})]


def test_two_players_unchanged():
    """At two players there is one enemy gladiator: nothing is exposed and the candidates are as before."""
    s = _alone(danced=False, players=2)
    assert not Guard(Ctx(s, 0)).active
    legal = {a.text for a in s.legal_actions()}
    on, off = ShuluriSearch(7), ShuluriSearch(7, two_on_one=False)
    assert on._first_actions(s, 0, legal, {}) == off._first_actions(s, 0, legal, {})
