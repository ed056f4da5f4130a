"""Spec 15: every spell of the list, with the spec's numbers."""

from __future__ import annotations

import pytest

from grimoire.core.errors import IllegalAction
from grimoire.games.shuluri import board as B
from grimoire.games.shuluri.damage import hurt_ep, hurt_sp
from grimoire.games.shuluri.values import available, ce, modifier, move_limit, te, ve

from .helpers import F, arena, fig, no_dodge, roll, texts

WL_AT = (1, 6)          # (1,6), (0,7), (1,7) share block (1,2)


def _wl(place=None, discs=(1, 2, 3, 4, 5), **kw):
    places = {"awl": WL_AT, "bxb": (0, 7)}
    places.update(place or {})
    s = arena(places, named=("wl",), **kw)
    s.teams[0].discs = list(discs)
    return s


def _fail(s, text):
    roll(s, 10, 1)
    s.apply(text)


def test_01_malediction():
    s = _wl()
    _fail(s, "wl cast malediction bxb")
    x = fig(s, "bxb")
    assert te(s, x) == 9 - 4 and ce(s, x) == 13 - 2
    assert x.effects[0].end == s.round + 1


def test_02_gut_wasting():
    s = _wl()
    _fail(s, "wl cast gut bxb")
    assert fig(s, "bxb").ep == 9


def test_03_life_sap():
    s = _wl(place={"bxb": WL_AT})
    roll(s, 7, 10)                                  # 8 + 5 + 7 = 20 against 9 + 10: hit
    s.apply("wl cast sap bxb")
    assert fig(s, "bxb").ep == 12 - 4 and fig(s, "awl").ep == 10


def test_04_lightning_blade_on_himself_without_a_roll():
    s = _wl()
    s.apply("wl cast blade awl")
    w = fig(s, "awl")
    assert te(s, w) == 8 + 5 and w.effects[0].end == s.round + 2


def test_04_lightning_blade_on_a_teammate_needs_a_hit_with_plus_five():
    s = _wl(place={"axb": WL_AT})
    roll(s, 1, 10)                                  # 8 + 5 + 1 = 14 against 9 + 10: miss
    s.apply("wl cast blade axb")
    assert te(s, fig(s, "axb")) == 9
    s = _wl(place={"axb": WL_AT})
    roll(s, 6, 10)                                  # 19 against 19: a tie misses
    s.apply("wl cast blade axb")
    assert te(s, fig(s, "axb")) == 9
    s = _wl(place={"axb": WL_AT})
    roll(s, 7, 10)
    s.apply("wl cast blade axb")
    assert te(s, fig(s, "axb")) == 14


def test_05_dizzying_poison():
    s = _wl()
    _fail(s, "wl cast dizzy bxb")
    assert ve(s, fig(s, "bxb")) == 9 - 3 and fig(s, "bxb").effects[0].end == s.round + 2


def test_06_lightning_bolt():
    s = _wl()
    roll(s, 10, 1)
    s.apply("wl cast bolt bxb")
    no_dodge(s)
    assert fig(s, "bxb").ep == 12 - 2


def test_07_acid_cloud():
    s = _wl(place={"axb": (0, 7)})
    s.apply("wl cast acid 1,7")
    area = s.areas[0]
    assert area.key == "acid" and F(1, 6) in area.fields and F(0, 7) in area.fields
    assert fig(s, "bxb").ep == 11 and fig(s, "axb").ep == 11 and fig(s, "awl").ep == 10
    assert area.end == s.round + 2
    before = s.pool
    s.apply("wl cloud 1 ne")
    assert s.areas[0].centre == F(1, 8) and s.pool == before - 1
    # shooting out of the cloud: -2 CE
    from grimoire.games.shuluri.sight import cloud_hinders
    assert cloud_hinders(s, s.areas[0].fields[0], ())


def test_08_numbing_poison():
    s = _wl()
    _fail(s, "wl cast numb bxb")
    x = fig(s, "bxb")
    assert x.ep == 10 and ve(s, x) == 6
    assert x.effects[0].end == s.round + 1
    from grimoire.games.shuluri.values import has_flag
    assert has_flag(s, x, "no_aimed") and has_flag(s, x, "no_push")
    s = _wl(zsibbaszto_rounds=3)
    _fail(s, "wl cast numb bxb")
    assert fig(s, "bxb").effects[0].end == s.round + 2


def test_08_numbing_poison_always_deals_two():
    s = _wl()
    roll(s, 1, 10)
    s.apply("wl cast numb bxb")
    assert fig(s, "bxb").ep == 10 and fig(s, "bxb").effects == ()


def test_09_pain():
    s = _wl()
    _fail(s, "wl cast pain bxb")
    assert fig(s, "bxb").ep == 8


def test_10_mighty_lightning():
    s = _wl()
    roll(s, 10, 1)
    s.apply("wl cast mighty bxb")
    no_dodge(s)
    assert fig(s, "bxb").ep == 12 - 3


@pytest.mark.parametrize("choice", ["man", "defence"])
def test_11_burning_nerves(choice):
    s = _wl()
    _fail(s, "wl cast nerves bxb")
    assert s.stack.top.kind == "effect" and s.current_player == 0
    assert texts(s) == ["effect man", "effect defence"]
    s.apply(f"effect {choice}")
    x = fig(s, "bxb")
    if choice == "defence":
        assert ve(s, x) == 9 - 5
    else:
        assert ve(s, x) == 9
        s.named = (x.id,)
        s.pool = 6
        x.spent = 0
        assert available(s, x) == 2


def test_12_lightning_denial():
    s = _wl()
    s.apply("wl cast denial bxb")
    x = fig(s, "bxb")
    assert hurt_sp(s, x, 3, "lightning", 3) == 0
    assert hurt_sp(s, x, 6, "lightning", 4) == 5


def test_13_lightning_armour_discharges_into_a_successful_attacker():
    s = _wl()
    s.apply("wl cast armour awl")
    w = fig(s, "awl")
    assert w.effects[0].end == s.round + 2
    s2 = arena({"awl": WL_AT, "bxb": WL_AT}, active=1, named=("xb",))
    s2.figs[w.id].effects = w.effects
    roll(s2, 10, 1)                                 # 19 against 9: hit
    s2.apply("xb attack awl")
    no_dodge(s2)
    assert fig(s2, "bxb").ep == 12 - 3              # 4 Sp of lightning, leather SFE 1


def test_14_life_theft():
    s = _wl(place={"bxb": WL_AT})
    fig(s, "awl").ep = 4
    roll(s, 6, 10)                                  # 8 + 5 + 6 = 19 against 19: a tie misses
    s.apply("wl cast theft bxb")
    assert fig(s, "bxb").ep == 12
    s = _wl(place={"bxb": WL_AT})
    fig(s, "awl").ep = 4
    roll(s, 7, 10)
    s.apply("wl cast theft bxb")
    assert fig(s, "bxb").ep == 7 and fig(s, "awl").ep == 9


def test_15_raise_undead():
    s = _wl(place={"ad1": WL_AT})
    hurt_ep(s, fig(s, "ad1"), 12)
    assert "wl cast undead ad1" in texts(s)
    s.apply("wl cast undead ad1")
    z = fig(s, "zad1")
    assert z.alive and z.field == F(*WL_AT) and z.seat == 0
    assert (z.te, z.ve, z.ce, z.ep, z.sfe) == (10, 10, 11, 6, 0)
    assert fig(s, "ad1").raised
    assert "wl cast undead ad1" not in texts(s)


def test_15_zombie_attacks_the_nearest_person_in_its_creators_step():
    s = _wl(place={"ad1": WL_AT, "bd2": (1, 7)})
    hurt_ep(s, fig(s, "ad1"), 12)
    s.apply("wl cast undead ad1")
    roll(s, 10, 1)
    s.apply("end")                                  # the zombie acts when the step ends
    no_dodge(s)
    z = fig(s, "zad1")
    assert z.field == F(1, 7)                       # it walked to bd2 (nearest person, not its creator)
    assert z.attacked and z.zman == 0               # 1 MAN to move, 2 to attack
    assert fig(s, "bd2").ep == 12 - 3               # TE 10 + 10 against VE 10 + 1: 4 Sp, SFE 1


def test_15_zombie_orders():
    s = _wl(place={"ad1": WL_AT})
    hurt_ep(s, fig(s, "ad1"), 12)
    s.apply("wl cast undead ad1")
    with pytest.raises(IllegalAction, match="cast this step"):
        s.apply("wl order zad1")                    # an order only in a step he does not cast (R31)
    s.figs[fig(s, "awl").id].casts = 0
    s.apply("wl order zad1")
    assert s.stack.top.kind == "order"
    with pytest.raises(IllegalAction, match="ZONE_FORBIDDEN"):
        s.apply("order goto 0,0")
    s.apply("order goto 0,8")
    assert fig(s, "zad1").order == ("goto", F(0, 8))
    assert "wl cast gut bxb" not in texts(s)        # and no cast after ordering


@pytest.mark.parametrize("choice", ["legs", "strength"])
def test_16_muscle_wasting(choice):
    s = _wl()
    _fail(s, "wl cast wasting bxb")
    s.apply(f"effect {choice}")
    x = fig(s, "bxb")
    from grimoire.games.shuluri.values import has_flag, move_cost
    if choice == "legs":
        assert move_cost(s, x, False)[0] == 2 and has_flag(s, x, "no_running")
    else:
        assert (te(s, x), ve(s, x), ce(s, x)) == (5, 5, 11)


def test_17_quintarha_acts_in_the_next_round():
    s = _wl()
    _fail(s, "wl cast quintarha bxb")
    x = fig(s, "bxb")
    assert ve(s, x) == 9
    s.round += 1
    assert ve(s, x) == 9 - 4 and modifier(s, x, "rve") == -3
    from grimoire.games.shuluri.values import no_man
    assert no_man(s, x)
    s.round += 1
    assert ve(s, x) == 9 and not no_man(s, x)


def test_18_firestorm():
    s = _wl(place={"axb": (0, 7), "bd1": (1, 7)})
    s.apply("wl cast firestorm 1,7")
    assert fig(s, "awl").ep == 10                   # not the caster the first time
    assert fig(s, "bd1").ep == 12 - 3 and fig(s, "bxb").ep == 9 and fig(s, "axb").ep == 9
    assert fig(s, "bd1").stp == 3                   # spells never cost STP
    from grimoire.games.shuluri.flow import end_round
    end_round(s)                                    # the casting round: no blast
    assert fig(s, "bd1").ep == 9
    end_round(s)                                    # next round: 3 Sp, SFE counts, the caster too
    assert fig(s, "bd1").ep == 7 and fig(s, "awl").ep == 8
    end_round(s)
    assert fig(s, "bd1").ep == 5
    assert not s.areas


def test_18_firestorm_shields_against_shots_into_it():
    from grimoire.games.shuluri.sight import storm_shields
    s = _wl()
    s.apply("wl cast firestorm 0,7")
    assert storm_shields(s, F(0, 7), ())


def test_19_rending_poison():
    s = _wl()
    _fail(s, "wl cast rending bxb")
    assert fig(s, "bxb").ep == 9 and fig(s, "bxb").eg == 0


def test_20_terrible_lightning():
    s = _wl()
    roll(s, 10, 1)
    s.apply("wl cast terrible bxb")
    no_dodge(s)
    assert fig(s, "bxb").ep == 12 - 4


def test_21_agonising_poison():
    s = _wl()
    roll(s, 1, 10)                                  # resisted: 4 Sp, SFE 1
    s.apply("wl cast agony bxb")
    assert fig(s, "bxb").ep == 9
    s = _wl()
    _fail(s, "wl cast agony bxb")
    assert fig(s, "bxb").ep == 12 - 3 - 4


def test_22_turning_lightning_ignores_walls():
    s = _wl(place={"awl": (4, 3), "bxb": (7, 0)})
    assert "wl cast bolt bxb" not in texts(s)
    roll(s, 10, 1)
    s.apply("wl cast turning bxb")
    no_dodge(s)
    assert fig(s, "bxb").ep == 12 - 5


@pytest.mark.parametrize("choice", ["leg", "arm"])
def test_23_limb_withering(choice):
    s = _wl()
    _fail(s, "wl cast wither bxb")
    s.apply(f"effect {choice}")
    x = fig(s, "bxb")
    if choice == "leg":
        assert move_limit(s, x) == 4 - 2
    else:
        assert (ve(s, x), ce(s, x)) == (7, 12)
    assert x.effects[0].end >= 10**6


def test_23_withered_arm_costs_the_enemy_warlock_a_man_per_spell():
    from grimoire.games.shuluri.data import SPELL_BY_KEY
    from grimoire.games.shuluri.magic import cast_cost
    s = _wl(place={"bwl": (0, 7)})
    _fail(s, "wl cast wither bwl")
    s.apply("effect arm")
    assert cast_cost(s, fig(s, "bwl"), SPELL_BY_KEY["bolt"]) == 2


def test_24_fire_form():
    s = _wl(place={"bxb": WL_AT})
    s.apply("wl cast fireform")
    w = fig(s, "awl")
    assert te(s, w) == 8 + 8
    assert not [t for t in texts(s) if t.startswith("wl cast")]
    assert hurt_sp(s, w, 5, "melee") == 0
    assert hurt_sp(s, w, 5, "spell") == 4


def test_25_blood_curdling():
    s = _wl()
    _fail(s, "wl cast curdle bxb")
    x = fig(s, "bxb")
    assert (te(s, x), ve(s, x), ce(s, x)) == (4, 4, 11)
    from grimoire.games.shuluri.values import skill_blocked
    assert skill_blocked(s, x, "aiming") and skill_blocked(s, x, "running")


def test_26_haemophilia():
    s = _wl()
    roll(s, 10, 1)                                  # 8 + 10 against 4 + 1
    s.apply("wl cast haemophilia bxb")
    x = fig(s, "bxb")
    hurt_ep(s, x, 2)
    assert x.ep == 12 - 3


def test_27_imprisonment_cage():
    s = _wl(place={"bd1": (2, 6)})
    s.apply("wl cast prison")
    cage = s.areas[0]
    assert cage.centre == F(*WL_AT) and F(2, 6) in cage.fields and cage.follows
    from grimoire.games.shuluri.movement import relocate
    relocate(s, [(fig(s, "bd1"), F(3, 6))])         # crossing out: 8 Sp lightning, leather SFE 1
    assert fig(s, "bd1").ep == 12 - 7
    s.apply("wl move ne")                           # the cage follows its caster: no crossing for him
    assert fig(s, "awl").ep == 10 and s.areas[0].centre == F(1, 7)
    from grimoire.games.shuluri.sight import in_own_cage
    assert in_own_cage(s, fig(s, "awl"))


def test_28_assassins_madness():
    s = _wl()
    roll(s, 10, 1)                                  # 6 + 10 against ME 0 + 1
    s.apply("wl cast madness bxb")
    assert s.stack.top.kind == "enemy" and s.current_player == 0
    s.apply("enemy bgl")
    from grimoire.games.shuluri.values import mad_enemy
    assert mad_enemy(s, fig(s, "bxb")) == fig(s, "bgl").id


def test_29_fatal_poison():
    s = _wl()
    _fail(s, "wl cast fatal bxb")
    x = fig(s, "bxb")
    assert x.ep == 7 and (te(s, x), ve(s, x)) == (6, 6) and x.effects[0].end == s.round + 2


def test_30_chain_lightning():
    s = _wl(place={"bd1": (1, 7), "bd2": (0, 7)})
    roll(s, 10, 1)                                  # CE 11 + 10 against 1: 6 Sp -> 5 Ep
    s.apply("wl cast chain bxb")
    no_dodge(s)
    assert fig(s, "bxb").ep == 7
    assert s.stack.top.kind == "chain" and "chain stop" not in texts(s)
    roll(s, 10, 1)
    s.apply("chain bd1")                            # CE 9: 4 Sp -> 3 Ep
    no_dodge(s)
    assert fig(s, "bd1").ep == 9
    assert "chain stop" in texts(s) and "chain bd1" not in texts(s)
    roll(s, 1, 10)                                  # CE 7 + 1 against 10: the chain breaks
    s.apply("chain bxb")
    no_dodge(s)
    assert fig(s, "bxb").ep == 7 and s.stack.top.kind == "act"


def test_31_death_dance_full_rounds():
    s = _wl()
    _fail(s, "wl cast dance bxb")
    e = fig(s, "bxb").effects[0]
    assert "no_man" in e.flags and e.end == s.round + 2
    s = _wl(halaltanc_full_rounds=False)
    _fail(s, "wl cast dance bxb")
    assert fig(s, "bxb").effects[0].end == s.round + 1


def test_the_spell_list_counts():
    from grimoire.games.shuluri.data import SPELLS
    assert len(SPELLS) == 31
    assert [sum(1 for sp in SPELLS if sp.level == lv) for lv in range(1, 6)] == [7, 6, 7, 6, 5]


def test_warlock_fire_form_not_in_c():
    assert not B.IN_C[F(*WL_AT)]


def test_15_an_order_gives_the_zombie_two_of_the_warlocks_man():
    """Spell 15: "a boszorkánymester adhat neki kettőt saját MAN-jaiból" — the 2 MAN move from the warlock to the
    zombie, on top of its own 3 of the round; it still walks at most 3 fields."""
    s = _wl(place={"ad1": WL_AT, "bxb": (-8, 3)})
    hurt_ep(s, fig(s, "ad1"), 12)
    s.apply("wl cast undead ad1")
    s.figs[fig(s, "awl").id].casts = 0
    z = fig(s, "zad1")
    pool = s.pool + s.teams[0].strat
    s.apply("wl order zad1")
    assert s.pool + s.teams[0].strat == pool - 2
    assert z.zman == 3 + 2
    s.apply("order goto 5,2")
    s.apply("end")
    assert z.zfields == 3 and z.field == F(4, 3)    # at most 3 fields, even with 5 MAN
    assert z.zman == 5 - 3 and not z.attacked       # 2 MAN left: enough for an attack


def test_15_an_ordered_zombie_walks_three_fields_and_still_attacks():
    """With its 3 MAN alone it could walk only two of the three fields (it keeps 2 for the attack, V9.6); with the
    2 given it walks all three and strikes."""
    s = _wl(place={"ad1": WL_AT, "bd2": (4, 3)})
    hurt_ep(s, fig(s, "ad1"), 12)
    s.apply("wl cast undead ad1")
    s.figs[fig(s, "awl").id].casts = 0
    z = fig(s, "zad1")
    s.apply("wl order zad1")
    s.apply("order attack bd2")
    roll(s, 10, 1)
    s.apply("end")
    no_dodge(s)
    assert z.field == F(4, 3) and z.attacked and z.zman == 0
    assert fig(s, "bd2").ep < 12
