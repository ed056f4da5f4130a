"""The hard level's leaf value for the gladiators' duel (``ai/duel.py``): the blows' odds from the d10
rules (C10.3, C10.4, D12.1), who strikes first, the blows left before the round cap (E19.1), and the
search's evaluation built on it."""

from __future__ import annotations

import pytest

from grimoire.core.rng import Rng
from grimoire.games.shuluri.ai.duel import blow, duel, duel_value, glad_steps_left, lead_weight
from grimoire.games.shuluri.ai.search import ShuluriSearch

from .helpers import arena, fig

KILL = ((99, 1.0),)           # a blow that always fells


def test_a_blow_takes_half_the_margin_less_armour():
    # equal values, no armour: Ep are lost only when x - y >= 2 (8 + 7 + ... + 1 = 36 of the 100 pairs)
    dist = dict(blow(0, 0, False))
    assert dist[0] == pytest.approx(0.64)
    assert sum(dist.values()) == pytest.approx(1.0)
    # 4 raw Sp need x - y = 8 or 9 (3 pairs); armour 1 leaves 3 Ep
    assert dict(blow(0, 1, False))[3] == pytest.approx(0.03)


def test_the_first_blow_decides_when_every_blow_fells():
    assert duel(5, 5, KILL, KILL, (True, False)) == (1.0, 0.0)
    assert duel(5, 5, KILL, KILL, (False, True)) == (0.0, 1.0)
    assert duel(5, 5, KILL, KILL, ()) == (0.0, 0.0)          # no blow left before the cap: a draw


def test_equal_gladiators_favour_the_one_who_strikes_first():
    b = blow(13, 2, False)                   # the base gladiators: TE 21 against VE 8, SFE 2
    win, lose = duel(18, 18, b, b, (True, False) * 8)
    assert win > 0.55 > 0.45 > lose
    assert win + lose == pytest.approx(1.0, abs=0.01)         # 16 blows almost always decide
    # one blow each cannot take 18 Ep (at most (13 + 9) // 2 - 2 = 9): nobody falls
    assert duel(18, 18, b, b, (True, False)) == (0.0, 0.0)
    # a badly hurt gladiator loses even with the first strike
    win, lose = duel(4, 18, b, b, (True, False) * 8)
    assert lose > win


def test_the_duel_counts_only_when_the_next_gladiator_can_reach_the_other():
    near = arena({"agl": (0, 2), "bgl": (0, -2)}, active=0, kind="glad")       # 4 fields: in reach
    assert glad_steps_left(near)[:2] == [0, 1]
    win, lose = duel_value(near, 0)
    assert win > lose
    assert duel_value(near, 1) == (lose, win)
    far = arena({"agl": (0, 4), "bgl": (0, -4)}, active=0, kind="glad")        # 8 fields: out of reach
    assert duel_value(far, 0) is None


def test_the_round_cap_ends_the_duel_and_fades_a_lead():
    s = arena({"agl": (0, 2), "bgl": (0, -2)}, active=0, kind="glad", max_rounds=1)
    assert glad_steps_left(s) == [0, 1]                       # this round's two gladiator steps, then the cap
    assert duel_value(s, 0) == (0.0, 0.0)                     # 18 Ep each: nobody falls in one blow each
    assert lead_weight(s) == pytest.approx(1 / 6)
    assert lead_weight(arena({}, max_rounds=15)) == 1.0
    assert lead_weight(arena({})) == 1.0


def test_the_search_values_an_engaged_healthier_gladiator_above_a_stand_off():
    hooks = ShuluriSearch(1, prefer=0.0, use_duel=True)
    engaged = arena({"agl": (0, 2), "bgl": (0, -2)}, active=0, kind="glad")
    fig(engaged, "bgl").ep = 8
    apart = arena({"agl": (0, 4), "bgl": (0, -4)}, active=0, kind="glad")
    fig(apart, "bgl").ep = 8
    for s in (engaged, apart):
        hooks.begin(s.sample_hidden(0, Rng(1)), 0)
    v_engaged = hooks.evaluate(engaged)
    v_apart = hooks.evaluate(apart)
    assert v_engaged[0] + v_engaged[1] == pytest.approx(1.0)
    # striking first at a gladiator with 8 Ep left almost surely wins the game; out of reach it is a lead
    assert v_engaged[0] > 0.85
    assert v_engaged[0] > v_apart[0] > 0.5
    # in the last round before the cap the stand-off is nearly a draw whatever the lead
    capped = arena({"agl": (0, 4), "bgl": (0, -4)}, active=0, kind="glad", max_rounds=1)
    fig(capped, "bgl").ep = 8
    v_capped = hooks.evaluate(capped)
    assert v_apart[0] > v_capped[0] > 0.5
    assert v_capped[0] - 0.5 == pytest.approx((v_apart[0] - 0.5) / 6)


def test_the_heuristics_choice_at_the_root_earns_the_preference():
    # the crossbowman's close shot (test_ai: it aims first): that is the heuristic's choice at the root
    s = arena({"axb": (2, 5), "bwl": (4, 5)}, active=0, named=("xb",))
    hooks = ShuluriSearch(1, prefer=0.05)
    hooks.begin(s.sample_hidden(0, Rng(1)), 0)
    assert hooks.pref == "xb aim"
    aimed = s.clone()
    aimed.apply("xb aim")
    aimed.apply("xb shoot bwl")
    other = s.clone()
    other.apply(next(a for a in other.legal_actions() if a.text.startswith("xb move")))
    assert hooks._root_action(aimed) == "xb aim"
    assert hooks._root_action(s) is None
    plain = ShuluriSearch(1, prefer=0.0)
    plain.begin(s.sample_hidden(0, Rng(1)), 0)
    assert plain.pref is None
    assert hooks.evaluate(aimed)[0] == pytest.approx(plain.evaluate(aimed)[0] + 0.05)
    assert hooks.evaluate(other) == pytest.approx(plain.evaluate(other))


def test_the_searchs_caches_follow_the_enemies_positions():
    # the threats a side weighs come from its enemies' figures: a cache is shared while they stay put
    s = arena({"axb": (2, 5), "bwl": (4, 5)}, active=0, named=("xb",))
    hooks = ShuluriSearch(1)
    hooks.begin(s.sample_hidden(0, Rng(1)), 0)
    first = hooks._shared(s, 0)
    first["threat"] = {"kept": 1.0}
    moved_own = s.clone()
    fig(moved_own, "axb").field = fig(s, "axb").field + 1
    assert hooks._shared(moved_own, 0) is first
    moved_enemy = s.clone()
    fig(moved_enemy, "bwl").field = fig(s, "bwl").field + 1
    assert hooks._shared(moved_enemy, 0) is not first
    fallen = s.clone()
    fig(fallen, "bwl").alive = False
    assert hooks._shared(fallen, 0) is not first
    assert hooks._shared(s, 1) is not first                   # the other side's view: other enemies
