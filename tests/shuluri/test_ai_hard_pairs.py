"""Hard at four players plays the pairs options (issue 20: hard apart from medium in pairs). Until now only
the expert had them (``search.PAIRS``); each position below is one where the level's own hooks, as
``make_agent`` builds them, do what the option does, and where hard before it (``BARE``) did not. At two
players hard's leaf value stays as it was measured (the lasting spells count only in pairs)."""

from __future__ import annotations

from grimoire.agents import make_agent
from grimoire.games.shuluri.ai.chase import strike_reach
from grimoire.games.shuluri.ai.ctx import gladiator_walk
from grimoire.games.shuluri.ai.expert import ExpertSearch
from grimoire.games.shuluri.ai.search import PAIRS, ShuluriSearch
from grimoire.games.shuluri.data import SPELL_BY_KEY
from grimoire.games.shuluri.magic import add_effect

from .helpers import arena, fig
from .test_ai_effects import _first_step
from .test_ai_pairs import BARE, _hard_step, _hunt, _hurt
from .test_ai_pairs_standoff import _close
from .test_ai_ranks import _pos


def _hard() -> ShuluriSearch:
    """The hard level's hooks, as the game's search spec makes them."""
    hooks = make_agent("shuluri", "hard", 7).hooks
    assert type(hooks) is ShuluriSearch
    return hooks


def _value(hooks: ShuluriSearch, s) -> list[float]:
    """The hooks' leaf value of s, searching as seat 0."""
    hooks.seat = 0
    return hooks.evaluate(s)


def test_hard_and_the_expert_play_pairs_with_the_same_options():
    hard, expert = _hard(), make_agent("shuluri", "expert", 7).hooks
    assert isinstance(expert, ExpertSearch)
    for k in PAIRS:
        assert getattr(hard, k) is True and getattr(expert, k) is True
    assert expert.net is not None                    # the expert stays apart at two players: its network


def test_hard_counts_its_partners_losses_as_its_own():
    """alliance: before, hard's seat counted 3 Ep off itself and 3 off its partner differently."""
    own = _value(_hard(), _hurt({"agl": 3}))[0]
    partner = _value(_hard(), _hurt({"cgl": 3}))[0]
    assert own < 0.5 and abs(own - partner) < 1e-9
    bare = ShuluriSearch(7, **BARE)
    assert abs(_value(bare, _hurt({"agl": 3}))[0] - _value(bare, _hurt({"cgl": 3}))[0]) > 0.01


def test_hard_stays_by_its_partner_instead_of_hunting_away():
    """corner_last (seed 68's traced position): before, bgl hunted agl away from his partner dgl."""
    s = _hunt()
    before = gladiator_walk(fig(s, "bgl").field, fig(s, "dgl").field)
    _hard_step(s, 1, _hard())
    assert gladiator_walk(fig(s, "bgl").field, fig(s, "dgl").field) <= before


def test_hard_rallies_to_strike_the_enemy_who_reaches_its_partner():
    """rally: cgl can strike hard's dgl; hard's bgl ends where he can strike cgl (before: out of reach)."""
    s = _hunt(cgl=(-5, 3))
    _hard_step(s, 1, _hard())
    assert gladiator_walk(fig(s, "bgl").field, fig(s, "cgl").field) <= strike_reach(s, fig(s, "bgl"))


def test_hard_closes_ranks():
    """close_ranks: hard's gladiator six fields from his partner ends within reach of him (before: six)."""
    s = _pos()
    _hard_step(s, 0, _hard())
    assert gladiator_walk(fig(s, "agl").field, fig(s, "cgl").field) <= strike_reach(s, fig(s, "agl"))


def test_hard_breaks_the_pairs_standoff_from_the_press_round():
    """A guard, not a change (hard before it also closed in here: its cornering hunted any beaten
    gladiator): with corner_last, hunting only the last one, hard still breaks the stand-off of seed 9304,
    round 10, at the press round's margin — its step ends nearer than the five fields both sides kept."""
    s = _close(10)
    _hard_step(s, 0, _hard())
    assert min(gladiator_walk(fig(s, "agl").field, fig(s, e).field) for e in ("bgl", "dgl")) < 5


def test_hard_dances_the_enemy_gladiator_in_round_one():
    """effects (seed 7301, round 1): medium's warlocks danced hard's gladiators; hard now dances too
    (before: it named its crossbowman)."""
    first = _first_step(_hard())
    assert "wl cast dance dgl" in first and first[0].startswith("name wl")


def test_at_two_players_hards_leaf_ignores_the_lasting_spells():
    """Hard at two players is the level measured there: a Death Dance on the enemy gladiator changes
    nothing in its leaf value, while in pairs it does."""
    two = arena({"agl": (-3, 2), "bgl": (2, -1)}, kind="glad", active=0)
    before = _value(_hard(), two)
    add_effect(two, fig(two, "bgl"), SPELL_BY_KEY["dance"], fig(two, "awl").id, flags=("no_man",))
    assert _value(_hard(), two) == before
    four = _pos()
    before = _value(_hard(), four)[0]
    add_effect(four, fig(four, "bgl"), SPELL_BY_KEY["dance"], fig(four, "awl").id, flags=("no_man",))
    assert _value(_hard(), four)[0] > before
