"""Spec 14: magic in general — discs, resistance, amulets, durations, range and touch, lightning."""

from __future__ import annotations

import pytest

from grimoire.core.errors import IllegalAction
from grimoire.games.shuluri.values import te

from .helpers import arena, fig, no_dodge, roll, texts

# the warlock at (1,6) and targets at (0,7) / (1,7) share block (1,2): lines of fire with B = W = 0
WL_AT = (1, 6)


def _wl(place=None, discs=(1, 2, 3, 4, 5), **kw):
    places = {"awl": WL_AT, "bxb": (0, 7)}
    places.update(place or {})
    s = arena(places, named=("wl",), **kw)
    s.teams[0].discs = list(discs)
    return s


def test_a_disc_of_the_level_is_needed_and_spent_even_when_resisted():
    s = _wl(discs=(2,))
    with pytest.raises(IllegalAction, match="NO_DISC_OF_LEVEL"):
        s.apply("wl cast gut bxb")
    roll(s, 1, 10)                                  # Pain: 6 + 1 against 4 + 10: resisted
    s.apply("wl cast pain bxb")
    assert s.teams[0].discs == [] and s.teams[0].cast == [2]
    assert fig(s, "bxb").ep == 12
    assert s.observation(1)["shuluri"]["teams"][0]["discs_cast"] == [2]
    assert s.observation(1)["shuluri"]["teams"][0]["discs_left"] == 0


def test_resistance_tie_resists():
    s = _wl(discs=(1,))
    roll(s, 5, 5)                                   # Gut Wasting: 4 + 5 = 9 against Eg 4 + 5 = 9
    s.apply("wl cast gut bxb")
    assert fig(s, "bxb").ep == 12
    s = _wl(discs=(1,))
    roll(s, 6, 5)                                   # 10 against 9: it takes effect, 3 Ep
    s.apply("wl cast gut bxb")
    assert fig(s, "bxb").ep == 9


def test_curse_averter_blocks_curses_and_is_revealed():
    s = _wl(discs=(1, 1))
    fig(s, "bxb").amulet = 2                        # curse-averter
    s.apply("wl cast gut bxb")
    assert fig(s, "bxb").ep == 12 and fig(s, "bxb").amulet_shown
    seen = next(f for f in s.observation(0)["shuluri"]["figures"] if f["name"] == "bxb")
    assert seen["amulet"] == "curse"


def test_typeless_spells_pass_every_amulet():
    s = _wl(discs=(1,))
    fig(s, "bxb").amulet = 2
    roll(s, 10, 1)                                  # Malediction (no type): 14 against 5
    s.apply("wl cast malediction bxb")
    assert te(s, fig(s, "bxb")) == 9 - 4


def test_poison_neutralizer_blocks_both_poison_effects():
    s = _wl(discs=(5,))
    fig(s, "bxb").amulet = 0
    s.apply("wl cast fatal bxb")                    # would always deal 5 Ep
    assert fig(s, "bxb").ep == 12 and fig(s, "bxb").effects == ()


def test_me_roll_reveals_the_resistance():
    s = _wl(discs=(5,))
    fig(s, "bxb").me_extra = 3
    roll(s, 1, 10)                                  # Death Dance: 6 + 1 against ME 3 + 10
    s.apply("wl cast dance bxb")
    assert fig(s, "bxb").me_shown
    seen = next(f for f in s.observation(0)["shuluri"]["figures"] if f["name"] == "bxb")
    assert seen["me"] == 3


def test_durations_count_from_the_casting_round():
    s = _wl(discs=(1,))
    s.round = 4
    roll(s, 10, 1)
    s.apply("wl cast malediction bxb")              # 2 rounds: through round 5
    e = fig(s, "bxb").effects[0]
    assert (e.start, e.end) == (4, 5)


def test_range_in_blocks():
    s = _wl(place={"bxb": (0, 11)}, discs=(1,))       # blocks (1,2) -> (2,3): distance 2; Dizzying Poison 2
    assert "wl cast dizzy bxb" in texts(s)
    s = _wl(place={"bxb": (12, -6)}, discs=(1,))
    with pytest.raises(IllegalAction, match="OUT_OF_RANGE"):
        s.apply("wl cast dizzy bxb")


def test_touch_needs_the_same_field_and_a_hit():
    s = _wl(discs=(1,))
    with pytest.raises(IllegalAction, match="TOUCH_NEEDS_SAME_FIELD"):
        s.apply("wl cast sap bxb")
    s = _wl(place={"bxb": WL_AT}, discs=(1,))
    roll(s, 1, 10)                                  # 8 + 5 + 1 = 14 against 9 + 10: miss
    s.apply("wl cast sap bxb")
    assert fig(s, "bxb").ep == 12 and s.teams[0].discs == []
    assert fig(s, "awl").attacked is False and fig(s, "awl").cast_other


def test_one_spell_per_step_unless_unlimited():
    s = _wl(discs=(1, 1))
    roll(s, 1, 10)
    s.apply("wl cast gut bxb")
    with pytest.raises(IllegalAction, match="ONE_SPELL_PER_STEP"):
        s.apply("wl cast gut bxb")
    s = _wl(discs=(1, 1), spells_per_step="unlimited")
    roll(s, 1, 10, 1, 10)
    s.apply("wl cast gut bxb")
    s.apply("wl cast gut bxb")
    assert s.teams[0].cast == [1, 1]


def test_lightning_uses_the_spells_ce_against_the_ranged_defence():
    s = _wl(discs=(1,))
    roll(s, 4, 10)                                  # Lightning Bolt: CE 7 + 4 = 11 against 0 + 10: hit
    s.apply("wl cast bolt bxb")
    no_dodge(s)
    assert fig(s, "bxb").ep == 12 - (3 - 1)         # fixed 3 Sp, leather SFE 1


def test_lightning_needs_a_line_of_fire_but_other_spells_do_not():
    s = _wl(place={"awl": (4, 3), "bxb": (7, 0)}, discs=(1,))
    with pytest.raises(IllegalAction, match="NO_LINE_OF_FIRE"):
        s.apply("wl cast bolt bxb")
    assert "wl cast gut bxb" in texts(s)
    s2 = _wl(place={"awl": (4, 3), "bxb": (7, 0)}, discs=(1,), spells_need_line_of_fire=True)
    assert "wl cast gut bxb" not in texts(s2)


def test_lightning_on_the_unexposed_gladiator_and_metal():
    s = _wl(place={"awl": (0, 5), "bgl": (0, 4)}, discs=(3,), gates_open=("I0",))
    roll(s, 10, 1)                                  # Terrible Lightning CE 11: 5 Sp, metal SFE does not count
    s.apply("wl cast terrible bgl")
    no_dodge(s)
    assert fig(s, "bgl").ep == 18 - 5 and fig(s, "bgl").stp == 6


def test_lightning_negator_and_denial():
    s = _wl(discs=(1,))
    fig(s, "bxb").amulet = 1
    roll(s, 10, 1)
    s.apply("wl cast bolt bxb")
    no_dodge(s)
    assert fig(s, "bxb").ep == 12 and fig(s, "bxb").amulet_shown


@pytest.mark.parametrize("spell", ["bolt", "mighty", "terrible", "turning", "chain"])
def test_lightning_strikes_like_a_ranged_weapon_never_at_the_warlocks_own_field(spell):
    """The seed: lightning spells "work by the same rule" as ranged attacks, and a ranged attack targets another
    field (C11.7): a figure sharing the warlock's field is out, as for bolts and daggers."""
    s = _wl(place={"bxb": WL_AT, "bd1": (0, 7)})
    with pytest.raises(IllegalAction, match=r"\[TARGET_SAME_FIELD\].*rule G14\.6"):
        s.apply(f"wl cast {spell} bxb")
    listed = texts(s)
    assert f"wl cast {spell} bxb" not in listed and f"wl cast {spell} awl" not in listed
    assert f"wl cast {spell} bd1" in listed          # the next field is fine
    assert "wl cast gut bxb" in listed               # other spells still reach his own field
