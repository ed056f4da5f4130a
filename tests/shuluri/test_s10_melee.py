"""Spec 10: melee — the roll, damage, one attack per step, disengaging, Kiteres, the gladiators'
push, the halberd, weapon breaking, takedowns and weapon changes."""

from __future__ import annotations

import pytest

from grimoire.core.errors import IllegalAction
from grimoire.games.shuluri import board as B

from .helpers import F, arena, fig, roll, texts, wield


def test_tie_is_a_successful_defence():
    s = arena({"axb": (1, 6), "bd1": (1, 6)}, named=("xb",))
    roll(s, 6, 5)                           # 9 + 6 = 15 against 10 + 5 = 15
    s.apply("xb attack bd1")
    assert fig(s, "bd1").ep == 12


def test_damage_is_half_the_difference_less_sfe_and_costs_stp():
    s = arena({"axb": (1, 6), "bd1": (1, 6)}, named=("xb",))
    roll(s, 10, 1)                          # 19 against 11: 4 Sp, leather SFE 1 -> 3 Ep; 4 >= 3: 1 STP
    s.apply("xb attack bd1")
    assert fig(s, "bd1").ep == 12 - 3
    assert fig(s, "bd1").stp == 2


def test_odd_difference_rounds_down_and_up_with_the_flag():
    s = arena({"axb": (1, 6), "bd1": (1, 6)}, named=("xb",))
    roll(s, 10, 2)                          # 19 against 12: 7 -> 3 Sp -> 2 Ep
    s.apply("xb attack bd1")
    assert fig(s, "bd1").ep == 10
    s = arena({"axb": (1, 6), "bd1": (1, 6)}, named=("xb",), damage_rounding="up")
    roll(s, 10, 2)                          # 7 -> 4 Sp -> 3 Ep
    s.apply("xb attack bd1")
    assert fig(s, "bd1").ep == 9


def test_one_attack_per_step():
    s = arena({"axb": (1, 6), "bxb": (1, 6)}, named=("xb",))
    roll(s, 1, 10)
    s.apply("xb attack bxb")
    with pytest.raises(IllegalAction, match="ALREADY_ATTACKED"):
        s.apply("xb attack bxb")


def test_attack_and_disengage_exclude_each_other():
    s = arena({"axb": (1, 6), "bxb": (1, 6)}, named=("xb",))
    roll(s, 1, 10)
    s.apply("xb attack bxb")
    with pytest.raises(IllegalAction, match="ATTACKED_NO_DISENGAGE"):
        s.apply("xb disengage ne")
    s = arena({"axb": (1, 6), "bxb": (1, 6), "bd2": (2, 6)}, named=("xb",))
    s.apply("xb disengage ne")
    with pytest.raises(IllegalAction, match="DISENGAGED_NO_ATTACK"):
        s.apply("xb shoot bd2")


def test_melee_needs_the_same_field():
    s = arena({"axb": (1, 6), "bd1": (1, 7)}, named=("xb",))
    with pytest.raises(IllegalAction, match="TARGET_NOT_IN_REACH"):
        s.apply("xb attack bd1")


def test_dodge_adds_three_to_the_defence_and_costs_two_later():
    s = arena({"axb": (1, 6), "bd2": (1, 6)}, named=("xb",))
    roll(s, 5, 3)                           # 14 against 10 + 3 = 13 (hit), with Kiteres 16 (miss)
    s.apply("xb attack bd2")
    assert s.stack.top.kind == "dodge" and s.current_player == 1
    assert texts(s) == ["dodge", "no dodge"]
    s.apply("dodge")
    assert fig(s, "bd2").ep == 12 and fig(s, "bd2").debt == 2


def _no_dodge(s):
    if s.stack.top.kind == "dodge":
        s.apply("no dodge")


def test_gladiator_push_by_the_higher_total():
    s = arena({"agl": (0, 1), "bgl": (0, 1)}, kind="glad")
    roll(s, 9, 1)                           # sword and shield: 16 + 9 = 25 against 13 + 1 = 14
    s.apply("gl attack bgl")
    _no_dodge(s)
    assert s.stack.top.kind == "push" and s.current_player == 0
    assert "no push" in texts(s)
    s.apply("push e")
    assert fig(s, "agl").field == fig(s, "bgl").field == F(1, 1)


def test_defender_pushes_when_he_rolls_higher():
    s = arena({"agl": (0, 1), "bgl": (0, 1)}, kind="glad")
    roll(s, 1, 10)                          # 17 against 23
    s.apply("gl attack bgl")
    _no_dodge(s)
    assert s.stack.top.kind == "push" and s.current_player == 1


def test_no_push_on_equal_totals_and_push_compare_d10():
    s = arena({"agl": (0, 1), "bgl": (0, 1)}, kind="glad")
    roll(s, 4, 7)                           # 20 against 20
    s.apply("gl attack bgl")
    _no_dodge(s)
    assert s.stack.top.kind == "act"
    s = arena({"agl": (0, 1), "bgl": (0, 1)}, kind="glad", push_compare="d10")
    roll(s, 4, 7)                           # the defender's bare d10 is higher
    s.apply("gl attack bgl")
    _no_dodge(s)
    assert s.stack.top.kind == "push" and s.current_player == 1


def test_halberd_attacks_from_the_adjacent_field_and_lures():
    """W18.2: back out (2 + 1), attack from the adjacent field (2), step one more (1)."""
    s = arena({"agl": (0, 1), "bgl": (0, 1)}, kind="glad")
    wield(s, "agl", "halberd")
    s.apply("gl disengage e")
    roll(s, 1, 10)
    s.apply("gl attack bgl")
    _no_dodge(s)
    if s.stack.top.kind == "push":
        s.apply("no push")
    s.apply("gl move e")
    assert s.gpool == 0 and fig(s, "agl").field == F(2, 1)


def test_weapon_breaking_leaves_the_dagger():
    s = arena({"agl": (0, 1), "bgl": (0, 1)}, kind="glad")
    wield(s, "agl", "greatsword")
    roll(s, 10, 1)
    s.apply("gl attack bgl break")
    _no_dodge(s)
    if s.stack.top.kind == "push":
        s.apply("no push")
    assert fig(s, "bgl").ep == 18                   # no damage
    from grimoire.games.shuluri.values import wield_key
    assert wield_key(fig(s, "bgl")) == "dagger"
    assert s.gpool == 6 - 4


def test_weapon_breaking_is_refused_against_the_dagger_and_without_the_skill():
    s = arena({"agl": (0, 1), "bgl": (0, 1)}, kind="glad")
    wield(s, "agl", "mace_shield")                  # takedown and dodge only
    with pytest.raises(IllegalAction, match="SKILL_NOT_AVAILABLE"):
        s.apply("gl attack bgl break")
    _no_dodge(s)


def test_takedown_and_standing_up():
    s = arena({"agl": (0, 1), "bgl": (0, 1)}, kind="glad")
    wield(s, "agl", "greatsword")
    roll(s, 10, 1)                                  # 31 against 14: 8 Sp, metal SFE 2 -> 6 Ep
    s.apply("gl attack bgl takedown")
    _no_dodge(s)
    if s.stack.top.kind == "push":
        s.apply("no push")
    b = fig(s, "bgl")
    assert b.down and b.ep == 12
    from grimoire.games.shuluri.values import ve
    assert ve(s, b) == 13 - 4
    s = arena({"agl": (0, 1), "bgl": (0, 1)}, kind="glad")
    fig(s, "agl").down = True
    with pytest.raises(IllegalAction):
        s.apply("gl move e")
    s.apply("gl stand")
    assert s.gpool == 4 and not fig(s, "agl").down


def test_halberd_wielder_cannot_be_taken_down():
    s = arena({"agl": (0, 1), "bgl": (0, 1)}, kind="glad")
    wield(s, "agl", "greatsword")
    wield(s, "bgl", "halberd")
    with pytest.raises(IllegalAction, match="halberd"):
        s.apply("gl attack bgl takedown")
    _no_dodge(s)


def test_weapon_change_only_on_his_own_heap():
    s = arena({}, kind="glad")
    g = fig(s, "agl")
    own = s.teams[0].heaps[0]
    other = next(h for h in B.HEAPS if h not in s.teams[0].heaps)
    g.field = other
    with pytest.raises(IllegalAction, match="NOT_ON_HEAP"):
        s.apply("gl wield halberd")
    g.field = own
    s.apply("gl wield halberd")
    from grimoire.games.shuluri.values import wield_key
    assert wield_key(g) == "halberd" and s.gpool == 5


def test_warlock_casting_and_attacking_exclude_each_other():
    s = arena({"awl": (1, 6), "bxb": (1, 6)}, named=("wl",))
    s.teams[0].discs = [1, 1]
    roll(s, 1, 10, 1, 10)
    s.apply("wl cast bolt bxb") if "wl cast bolt bxb" in texts(s) else s.apply("wl cast gut bxb")
    with pytest.raises(IllegalAction, match="CAST_NO_ATTACK"):
        s.apply("wl attack bxb")
    s = arena({"awl": (1, 6), "bxb": (1, 6)}, named=("wl",))
    s.teams[0].discs = [1]
    roll(s, 1, 10)
    s.apply("wl attack bxb")
    with pytest.raises(IllegalAction, match="ALREADY_ATTACKED"):
        s.apply("wl cast gut bxb")


def test_a_spell_on_himself_leaves_the_warlock_free():
    s = arena({"awl": (1, 6), "bd1": (1, 6)}, named=("wl",))
    s.teams[0].discs = [2]
    s.apply("wl cast armour awl")
    roll(s, 1, 10)
    s.apply("wl attack bd1")
    s = arena({"awl": (1, 6), "bd1": (1, 6)}, named=("wl",), self_spell_allows_attack=False)
    s.teams[0].discs = [2]
    s.apply("wl cast armour awl")
    with pytest.raises(IllegalAction, match="CAST_NO_ATTACK"):
        s.apply("wl attack bd1")


def test_acrobatics_push_for_the_deasta():
    s = arena({"ad1": (1, 6), "bxb": (1, 6)}, named=("d1",))
    roll(s, 9, 1)                                  # 19 against 10
    s.apply("d1 attack bxb")
    assert s.stack.top.kind == "push"
    before = s.pool
    s.apply("push ne")
    assert fig(s, "ad1").field == fig(s, "bxb").field == F(1, 7)
    assert s.pool == before - 1
