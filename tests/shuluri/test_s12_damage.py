"""Spec 12: damage, armour and death."""

from __future__ import annotations

from grimoire.games.shuluri.damage import hurt_ep, hurt_sp

from .helpers import F, arena, fig


def test_sfe_reduces_sp_but_not_ep():
    s = arena({"axb": (1, 6)})
    x = fig(s, "axb")
    hurt_sp(s, x, 3, "ranged")
    assert x.ep == 12 - 2
    hurt_ep(s, x, 3)
    assert x.ep == 12 - 2 - 3


def test_lightning_ignores_metal_but_not_leather():
    s = arena({"axb": (1, 6)})
    hurt_sp(s, fig(s, "agl"), 3, "lightning", 1)
    hurt_sp(s, fig(s, "axb"), 3, "lightning", 1)
    assert fig(s, "agl").ep == 18 - 3
    assert fig(s, "axb").ep == 12 - 2


def test_stp_threshold_uses_raw_sp():
    s = arena({"axb": (1, 6), "ad1": (1, 6)})
    hurt_sp(s, fig(s, "axb"), 3, "melee")           # raw 3 >= 3 (ring figure)
    hurt_sp(s, fig(s, "ad1"), 2, "melee")
    hurt_sp(s, fig(s, "agl"), 3, "melee")           # a gladiator needs 4
    assert (fig(s, "axb").stp, fig(s, "ad1").stp, fig(s, "agl").stp) == (2, 3, 6)
    hurt_sp(s, fig(s, "agl"), 4, "melee")
    assert fig(s, "agl").stp == 5


def test_stp_threshold_after_sfe_flag():
    s = arena({"axb": (1, 6)}, stp_threshold_after_sfe=True)
    hurt_sp(s, fig(s, "axb"), 3, "melee")           # 3 - 1 = 2 < 3
    assert fig(s, "axb").stp == 3


def test_spells_and_ranged_weapons_never_cost_stp_but_sp_traps_do():
    s = arena({"axb": (1, 6)})
    x = fig(s, "axb")
    x.ep = 100
    hurt_sp(s, x, 5, "ranged")
    hurt_sp(s, x, 5, "spell")
    hurt_sp(s, x, 5, "lightning", 3)
    assert x.stp == 3
    hurt_sp(s, x, 3, "trap")
    assert x.stp == 2


def test_broken_armour_stops_absorbing_except_the_gladiators():
    s = arena({"axb": (1, 6)})
    x = fig(s, "axb")
    x.stp = 1
    x.ep = 12
    hurt_sp(s, x, 4, "melee")                       # the breaking hit is still reduced: 3 Ep
    assert x.stp == 0 and x.ep == 9
    hurt_sp(s, x, 2, "melee")                       # now 2 Sp -> 2 Ep
    assert x.ep == 7
    g = fig(s, "agl")
    g.stp = 0
    hurt_sp(s, g, 3, "melee")                       # the gladiator keeps SFE 2
    assert g.ep == 17


def test_death_at_zero_leaves_a_corpse_outside_the_capacity():
    s = arena({"axb": (1, 6), "ad1": (1, 6), "ad2": (1, 6)}, hands={0: [[5, 2], [9, 3]]})
    x = fig(s, "axb")
    x.amulet = 1
    x.me_extra = 3
    hurt_ep(s, x, 12)
    assert not x.alive and x.field == F(1, 6)
    assert s.count_at(F(1, 6)) == 2
    assert x.amulet_shown and x.me_shown
    assert s.teams[0].lost == [5] and [c for c, _h in s.teams[0].hand] == [9]
    o = s.observation(1)["shuluri"]
    assert {"name": "axb", "field": "1,6"} in o["corpses"]
    seen = next(f for f in o["figures"] if f["name"] == "axb")
    assert seen["amulet"] == "lightning" and seen["me"] == 3


def test_ep_never_exceeds_its_maximum():
    from grimoire.games.shuluri.damage import heal
    s = arena({"axb": (1, 6)})
    x = fig(s, "axb")
    x.ep = 10
    heal(s, x, 5)
    assert x.ep == 12


def test_gladiator_death_ends_the_game():
    s = arena({})
    hurt_ep(s, fig(s, "bgl"), 18)
    assert s.is_terminal() and s.winners() == [0] and s.scores() == [1, 0]
    assert s.legal_actions() == [] and s.current_player is None
