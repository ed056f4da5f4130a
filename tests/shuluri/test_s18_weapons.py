"""Spec 18 and 20.3: the gladiator's weapons and the sword-artist."""

from __future__ import annotations

import pytest

from grimoire.core.errors import IllegalAction
from grimoire.games.shuluri.damage import hurt_sp
from grimoire.games.shuluri.values import has_skill, te, ve, wield_key

from .helpers import F, arena, fig, no_dodge, roll, texts, wield


@pytest.mark.parametrize("key,te_,ve_", [("sword_shield", 16, 13), ("two_swords", 18, 11), ("greatsword", 21, 8),
                                         ("mace_shield", 17, 12), ("halberd", 18, 10)])
def test_weapon_values(key, te_, ve_):
    s = arena({})
    wield(s, "agl", key)
    g = fig(s, "agl")
    assert (te(s, g), ve(s, g)) == (te_, ve_)


def test_dropping_frees_a_hand_and_picking_up_restores():
    s = arena({}, kind="glad")
    g = fig(s, "agl")
    s.apply("gl drop")
    assert wield_key(g) == "sword" and (te(s, g), ve(s, g)) == (16, 10)
    s.apply("gl move e")
    assert "gl pickup" not in texts(s)              # the shield lies on the field he left
    s.apply("gl move w")
    s.apply("gl pickup")
    assert wield_key(g) == "sword_shield"


def test_a_two_handed_weapon_dropped_leaves_the_dagger():
    s = arena({}, kind="glad")
    wield(s, "agl", "greatsword")
    s.apply("gl drop")
    g = fig(s, "agl")
    assert wield_key(g) == "dagger" and (te(s, g), ve(s, g)) == (12, 7)
    assert not has_skill(s, g, "dodge")


def test_dagger_cannot_be_broken():
    s = arena({"agl": (0, 1), "bgl": (0, 1)}, kind="glad")
    wield(s, "agl", "greatsword")
    wield(s, "bgl", "greatsword")
    fig(s, "bgl").sets = [-3] * 5                   # all destroyed: the belt dagger
    with pytest.raises(IllegalAction, match="cannot be broken"):
        s.apply("gl attack bgl break")


def test_javelins_and_nets_run_out():
    s = arena({"agl": (0, 0), "bgl": (0, 3)}, kind="glad")
    s.apply("gl drop")
    fig(s, "agl").javelins = 0
    with pytest.raises(IllegalAction, match="NO_AMMO"):
        s.apply("gl javelin bgl")


def test_changing_at_the_heap_needs_the_dropped_part_back():
    s = arena({}, kind="glad")
    g = fig(s, "agl")
    g.field = s.teams[0].heaps[0]
    s.apply("gl drop")
    with pytest.raises(IllegalAction, match="pick it up first"):
        s.apply("gl wield halberd")


def test_sword_artist_values():
    s = arena({}, gladiator_type="sword_artist")
    g = fig(s, "agl")
    assert (g.max_ep, g.sfe, g.stp) == (16, 1, 2)
    assert te(s, g) == 16 + 2


def test_golden_bell_adds_sfe_even_against_lightning_until_his_next_step():
    s = arena({}, kind="glad", gladiator_type="sword_artist")
    g = fig(s, "agl")
    s.apply("gl bell")
    assert s.gpool == 5 and g.bell
    assert hurt_sp(s, g, 4, "lightning", 1) == 3    # metal SFE does not count, the bell's +1 does
    s2 = arena({}, kind="glad")
    with pytest.raises(IllegalAction, match="SKILL_NOT_AVAILABLE"):
        s2.apply("gl bell")


def test_sword_artist_exposure_uses_his_thresholds():
    s = arena({"axb": (0, 6), "bgl": (0, 3)}, named=("xb",), gladiator_type="sword_artist")
    fig(s, "bgl").stp = 1
    roll(s, 10, 1)
    s.apply("xb shoot bgl")
    no_dodge(s)
    assert fig(s, "bgl").ep < 16


def test_halberd_allows_no_skill():
    s = arena({})
    wield(s, "agl", "halberd")
    g = fig(s, "agl")
    for sk in ("dodge", "weapon_break", "takedown"):
        assert not has_skill(s, g, sk)


def test_field_helper():
    assert F(0, 0) >= 0
