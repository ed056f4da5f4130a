"""Spec 22: the configuration flags (the ones not already covered by the chapter tests), the
optional rules (20.8) and option validation."""

from __future__ import annotations

import pytest

import grimoire
from grimoire.core.errors import IllegalAction
from grimoire.games.shuluri import board as B
from grimoire.games.shuluri.flow import advance
from grimoire.games.shuluri.movement import relocate

from .helpers import F, arena, fig, no_dodge, roll, setup_done, texts


def test_bad_options_are_config_errors():
    for bad in ({"no_such": 1}, {"mode": "pairs"}, {"gladiator_types": ["heavy"]}, {"dice": [11]},
                {"zsibbaszto_rounds": 4}, {"spells_per_step": 0}, {"heaps_per_gladiator": 3}):
        with pytest.raises(grimoire.GameConfigError):
            grimoire.new_game("shuluri", 2, 1, **bad)
    assert grimoire.new_game("shuluri", 2, 1, spells_per_step="unlimited").options["spells_per_step"] is None
    s = grimoire.new_game("shuluri", 2, 1, gladiator_types=["heavy", "sword_artist"])
    assert s.teams[1].gtype == "sword_artist" and s.figs[5].max_ep == 16


def test_two_heaps_per_gladiator():
    s = setup_done(2, 3, heaps_per_gladiator=2)
    for t in s.teams:
        assert t.heaps == (B.HEAPS[t.half], B.HEAPS[(t.half + 1) % 4])


def test_cage_fixed_at_casting_hurts_its_caster_leaving_it():
    s = arena({"awl": (1, 6)}, named=("wl",), cage_follows_caster=False)
    s.teams[0].discs = [5]
    s.apply("wl cast prison")
    assert not s.areas[0].follows
    relocate(s, [(fig(s, "awl"), F(3, 6))])
    assert fig(s, "awl").ep == 10 - 7
    s = arena({"awl": (1, 6)}, named=("wl",), cage_follows_caster=False, cage_exempts_caster=True)
    s.teams[0].discs = [5]
    s.apply("wl cast prison")
    relocate(s, [(fig(s, "awl"), F(3, 6))])
    assert fig(s, "awl").ep == 10


def test_lightning_armour_melee_only():
    from grimoire.games.shuluri.data import SPELL_BY_KEY
    from grimoire.games.shuluri.magic import add_effect
    for melee_only, expected in ((False, 12 - 3), (True, 12)):
        s = arena({"axb": (0, 8), "bd1": (0, 6)}, named=("xb",), villamvert_melee_only=melee_only)
        add_effect(s, fig(s, "bd1"), SPELL_BY_KEY["armour"], fig(s, "bd1").id, flags=("lightning_armour",))
        roll(s, 10, 1)
        s.apply("xb shoot bd1")
        assert fig(s, "axb").ep == expected


def test_entering_may_oblige_an_attack():
    s = arena({"axb": (1, 6), "bd2": (1, 7)}, named=("xb",), enter_forces_attack=True)
    s.apply("xb move ne")
    with pytest.raises(IllegalAction, match="must attack"):
        s.apply("end")
    roll(s, 1, 10)
    s.apply("xb attack bd2")
    no_dodge(s)
    s.apply("end")


def test_madman_acts_first_and_hunts_its_mortal_enemy():
    from grimoire.games.shuluri.data import SPELL_BY_KEY
    from grimoire.games.shuluri.magic import madness
    s = arena({"bxb": (0, 8), "ad1": (0, 6), "bd1": (3, 4)}, active=1, named=("xb", "d1"))
    madness(s, fig(s, "bxb"), fig(s, "bwl").id, fig(s, "ad1").id)
    fig(s, "bxb").mad_man = 4
    s.stack.clear()
    s.sub = "mad"
    roll(s, 10, 1)
    advance(s)                                      # it shoots at once: 13 + 10 against 1
    no_dodge(s)
    assert fig(s, "ad1").ep < 12 and fig(s, "bxb").attacked and fig(s, "bxb").mad_man == 2
    assert s.stack.top.kind == "act"
    assert not [t for t in texts(s) if t.startswith("xb ")]     # the player cannot command it
    assert SPELL_BY_KEY["madness"].params["man_per_step"] == 4


def test_madness_from_the_pool():
    from grimoire.games.shuluri.magic import madness
    from grimoire.games.shuluri.values import available
    s = arena({"bxb": (0, 8), "ad1": (0, 6)}, active=1, named=("xb",), madness_from_pool=True)
    madness(s, fig(s, "bxb"), fig(s, "bwl").id, fig(s, "ad1").id)
    assert available(s, fig(s, "bxb")) == s.pool + s.teams[1].strat


def test_optional_vial_and_potion():
    s = grimoire.new_game("shuluri", 2, 1, optional_poison_vial=True, optional_magic_potion=True)
    kinds = []
    while s.stack.top.kind in ("traps", "amulets", "resist", "vials", "potions"):
        kinds.append(s.stack.top.kind)
        s.apply(s.legal_actions()[0])
    assert kinds[:5] == ["traps", "amulets", "resist", "vials", "potions"]
    s = arena({"axb": (1, 6), "bd1": (1, 6)}, named=("xb",), optional_poison_vial=True,
              optional_magic_potion=True)
    fig(s, "axb").vial = True
    fig(s, "axb").potion = True
    fig(s, "axb").ep = 5
    s.apply("xb drink")
    assert fig(s, "axb").ep == 9 and not fig(s, "axb").potion
    s.apply("xb coat")
    roll(s, 10, 1, 10, 1)                          # the attack hits, then the poison (5 + 10 against 4 + 1)
    s.apply("xb attack bd1")
    assert fig(s, "bd1").ep == 12 - 3 - 3 and not fig(s, "axb").coat    # 4 Sp - SFE 1, then 3 Ep


def test_preset_dice_are_used_first():
    s = arena({"axb": (1, 6), "bd1": (1, 6)}, named=("xb",))
    roll(s, 6, 5)
    s.apply("xb attack bd1")
    assert "rolls 6" in s.observation(0)["shuluri"]["events"][-1]
