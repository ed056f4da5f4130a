"""Spec 5: setup — the deal, the secret assignments, the side choice, the starting weapon and the
deployment; what stays secret (S5.7)."""

from __future__ import annotations

import pytest

import grimoire
from grimoire.core.errors import IllegalAction
from grimoire.games.shuluri import board as B

from .helpers import F, fig, setup_done


def _to(s, kind):
    while s.stack.top.kind != kind:
        s.apply(s.legal_actions()[0])


def test_deal_three_traps_and_six_discs_each():
    s = grimoire.new_game("shuluri", 2, 5)
    hands = [c for t in s.teams for c, _h in t.hand]
    assert [len(t.hand) for t in s.teams] == [3, 3]
    assert len(set(hands)) == 6 and all(1 <= c <= 16 for c in hands)
    assert [len(t.discs) for t in s.teams] == [6, 6]
    both = [lv for t in s.teams for lv in t.discs]
    for lv, n in zip(range(1, 6), (8, 7, 6, 5, 4), strict=True):
        assert both.count(lv) <= n


def test_secret_choices_come_first_in_seat_order():
    s = grimoire.new_game("shuluri", 2, 5)
    kinds = []
    while s.stack.top.kind in ("traps", "amulets", "resist"):
        kinds.append((s.current_player, s.stack.top.kind))
        s.apply(s.legal_actions()[0])
    assert kinds == [(0, "traps"), (0, "amulets"), (0, "resist"), (1, "traps"), (1, "amulets"), (1, "resist")]


def test_trap_cards_go_to_the_named_holders():
    s = grimoire.new_game("shuluri", 2, 5)
    s.apply("traps xb d1 wl")
    assert [h for _c, h in s.teams[0].hand] == [2, 3, 1]


def test_amulets_one_per_character_and_resistances_not_for_the_warlock():
    s = grimoire.new_game("shuluri", 2, 5)
    _to(s, "amulets")
    with pytest.raises(IllegalAction):
        s.apply("amulets xb xb d1")
    s.apply("amulets xb d1 gl")
    assert [fig(s, n).amulet for n in ("axb", "ad1", "agl")] == [0, 1, 2]
    with pytest.raises(IllegalAction):
        s.apply("resist wl xb")
    with pytest.raises(IllegalAction):
        s.apply("resist xb xb")
    s.apply("resist gl xb")         # R: a gladiator may receive one
    assert fig(s, "agl").me_extra == 2 and fig(s, "axb").me_extra == 3


def test_secret_choices_are_hidden_from_the_other_seat():
    s = grimoire.new_game("shuluri", 2, 5)
    s.apply("traps xb d1 wl")
    s.apply("amulets xb d1 gl")
    s.apply("resist gl xb")
    assert s.visible_history(1)[:3] == [None, None, None]
    assert s.visible_history(0)[:3] == ["traps xb d1 wl", "amulets xb d1 gl", "resist gl xb"]
    assert s.visible_history(None)[:3] == [None, None, None]
    o1 = s.observation(1)["shuluri"]
    axb = next(f for f in o1["figures"] if f["name"] == "axb")
    assert axb["amulet"] == "?" and axb["me"] == 0
    assert "hand" not in o1["teams"][0] and "discs" not in o1["teams"][0]
    o0 = s.observation(0)["shuluri"]
    axb0 = next(f for f in o0["figures"] if f["name"] == "axb")
    assert axb0["amulet"] == "poison" and axb0["me"] == 3
    assert [h["holder"] for h in o0["teams"][0]["hand"]] == ["axb", "ad1", "awl"]


def test_roll_winner_chooses_side_and_the_opponent_takes_the_first_step():
    s = grimoire.new_game("shuluri", 2, 5, dice=[4, 4, 3, 8])      # a tie is rolled again
    _to(s, "side")
    assert s.current_player == 1
    assert [a.text for a in s.legal_actions()] == ["side 0", "side 1", "side 2", "side 3", "first"]
    s.apply("side 2")
    assert s.teams[1].half == 2 and s.teams[0].half == 0
    assert s.first == 0                                             # S5.5: the chooser's opponent
    assert s.teams[1].inner_gates == (B.GATE_BY_ID["I2"], B.GATE_BY_ID["I3"])
    assert s.teams[1].heaps == (B.HEAPS[2],)


def test_taking_the_first_step_lets_the_opponent_choose_the_side():
    s = grimoire.new_game("shuluri", 2, 5, dice=[9, 2])
    _to(s, "side")
    assert s.current_player == 0
    s.apply("first")
    assert s.current_player == 1
    with pytest.raises(IllegalAction):
        s.apply("first")
    s.apply("side 1")
    assert s.first == 0 and s.teams[1].half == 1 and s.teams[0].half == 3


def test_deployment_a_first_at_the_gates_of_the_half():
    s = grimoire.new_game("shuluri", 2, 5, dice=[2, 9])
    _to(s, "side")
    s.apply("side 0")               # seat 1 takes half 0 (gates I0, I1); seat 0 (A) half 2 (I2, I3)
    _to(s, "deploy")
    assert s.current_player == 0
    legal = {a.text for a in s.legal_actions()}
    assert "deploy gl 0,-4" in legal and "deploy gl 5,-3" in legal and "deploy gl 0,4" not in legal
    assert "deploy xb 0,-5" in legal and "deploy xb 0,-4" not in legal
    for r in ("xb", "d1", "d2"):
        s.apply(f"deploy {r} 0,-5")
    with pytest.raises(IllegalAction, match="FIELD_FULL"):
        s.apply("deploy wl 0,-5")
    s.apply("deploy wl 1,-5")
    s.apply("deploy gl 0,-4")
    assert s.current_player == 1 and s.stack.top.kind == "deploy"


def _seen(s, seat, name):
    return next(f for f in s.observation(seat)["shuluri"]["figures"] if f["name"] == name)


def test_starting_weapon_is_secret_until_the_first_step():
    s = grimoire.new_game("shuluri", 2, 5)
    _to(s, "weapon")
    while s.stack.top.kind == "weapon":
        s.apply("weapon halberd")
    for seat, other in ((0, "bgl"), (1, "agl")):
        assert _seen(s, seat, other)["weapon"] == "?"
        assert _seen(s, 1 - seat, other)["weapon"] == "halberd"
    while s.phase == "setup":
        s.apply(s.legal_actions()[0])
    assert _seen(s, 1, "agl")["weapon"] == "halberd"        # R17: public from the first step


def test_weapon_reveal_at_first_exchange():
    s = setup_done(2, 5, weapon_reveal="first_exchange")
    assert _seen(s, 1, "agl")["weapon"] == "?"


def test_gladiator_deploys_in_c_the_rest_in_r1():
    s = setup_done(2, 8)
    for f in s.figs[:10]:
        assert B.IN_C[f.field] == f.is_gladiator
        assert B.ZONE[f.field] in ((B.C,) if f.is_gladiator else (B.R1,))
    assert max(s.count_at(f.field) for f in s.figs[:10]) <= 3


def test_four_player_teams_deploy_at_their_quarter():
    s = setup_done(4, 2)
    for seat, q in enumerate((0, 1, 2, 3)):
        t = s.teams[seat]
        assert t.quarters == (q,) and t.heaps == (B.HEAPS[q],)
        assert s.figs[seat * 5].field in B.DEPLOY_C[q]
    s = setup_done(4, 2, mode="pairs")
    assert [t.quarters[0] for t in s.teams] == [0, 2, 1, 3]
    assert s.alliance == (0, 1, 0, 1)


def test_field_index_helper():
    assert B.COORDS[F(3, -2)] == (3, -2)
