"""Spec 9: movement — walls and gates, the central circle, field capacity, entering an enemy's field,
the melee situation, the Movement value, Futas and Lopakodas (20.4)."""

from __future__ import annotations

import pytest

from grimoire.core.errors import IllegalAction
from grimoire.games.shuluri import board as B

from .helpers import F, arena, fig, roll, texts


def test_a_move_is_one_field_for_one_man():
    s = arena({"axb": (1, 6)}, named=("xb",))
    s.apply("xb move ne")
    assert fig(s, "axb").field == F(1, 7) and s.pool == 2


def test_walls_cannot_be_crossed():
    s = arena({"axb": (1, 7)}, named=("xb",))
    assert B.EDGE[F(1, 7)][B.DIR_INDEX["ne"]] == B.MIDDLE_WALL
    with pytest.raises(IllegalAction, match="WALL"):
        s.apply("xb move ne")
    assert "xb move ne" not in texts(s)


def test_closed_gate_is_a_wall_open_gate_is_not():
    s = arena({"axb": (0, 8)}, named=("xb",))
    with pytest.raises(IllegalAction, match="GATE_CLOSED"):
        s.apply("xb move ne")
    s.apply("xb open M0")
    s.apply("xb move ne")
    assert fig(s, "axb").field == F(0, 9)


def test_gate_needs_a_figure_at_it():
    s = arena({"axb": (1, 6)}, named=("xb",))
    with pytest.raises(IllegalAction):
        s.apply("xb open M0")


def test_gladiator_stays_in_c_others_stay_out():
    s = arena({"agl": (0, 4)}, kind="glad", gates_open=("I0",))
    with pytest.raises(IllegalAction, match="ZONE_FORBIDDEN"):
        s.apply("gl move ne")
    s = arena({"axb": (0, 5)}, named=("xb",), gates_open=("I0",))
    with pytest.raises(IllegalAction, match="ZONE_FORBIDDEN"):
        s.apply("xb move sw")


def test_a_full_field_cannot_be_entered():
    s = arena({"axb": (1, 6), "awl": (1, 7), "ad1": (1, 7), "ad2": (1, 7)}, named=("xb", "d1"))
    with pytest.raises(IllegalAction, match="FIELD_FULL"):
        s.apply("xb move ne")


def test_entering_an_enemy_field_needs_man_for_the_attack():
    s = arena({"axb": (1, 6), "bd1": (1, 7)}, named=("xb",))
    s.pool = 3
    s.teams[0].strat = 0
    s.apply("xb move ne")                   # 3 - 1 = 2 left: enough to attack
    assert fig(s, "axb").field == F(1, 7)
    s = arena({"axb": (1, 6), "bd1": (1, 7)}, named=("xb",))
    s.pool = 2
    s.teams[0].strat = 0
    with pytest.raises(IllegalAction, match="ENTER_ENEMY_NEEDS_ATTACK_MAN"):
        s.apply("xb move ne")


def test_entering_an_enemy_field_needs_the_attack_still_open():
    s = arena({"axb": (1, 6), "bd1": (1, 7), "bd2": (2, 6)}, named=("xb",))
    fig(s, "axb").attacked = True
    with pytest.raises(IllegalAction, match="V9.6"):
        s.apply("xb move ne")


def test_warlock_with_a_level_one_touch_spell_enters_with_one_man_left():
    """R21: the cheapest touch spell he could cast there (Life Sap, level 1) counts."""
    s = arena({"awl": (1, 6), "bd1": (1, 7)}, named=("wl",))
    s.pool = 2
    s.teams[0].strat = 0
    s.teams[0].discs = [1]
    s.apply("wl move ne")
    s = arena({"awl": (1, 6), "bd1": (1, 7)}, named=("wl",))
    s.pool = 2
    s.teams[0].strat = 0
    s.teams[0].discs = [4]
    with pytest.raises(IllegalAction, match="ENTER_ENEMY"):
        s.apply("wl move ne")


def test_leaving_an_enemy_field_needs_disengaging():
    s = arena({"axb": (1, 6), "bd1": (1, 6)}, named=("xb",))
    with pytest.raises(IllegalAction, match="IN_MELEE_MUST_DISENGAGE"):
        s.apply("xb move ne")
    assert not [t for t in texts(s) if t.startswith("xb move")]
    s.apply("xb disengage ne")
    assert fig(s, "axb").field == F(1, 7) and fig(s, "axb").disengaged


def test_movement_value_limits_fields_per_step():
    s = arena({"axb": (1, 6)}, named=("xb",))      # Mozgas 4 (20.2)
    for d in ("ne", "sw", "ne", "sw"):
        s.apply(f"xb move {d}")
    with pytest.raises(IllegalAction, match="MOVE_LIMIT"):
        s.apply("xb move ne")


def test_running_moves_two_fields_per_man_and_two_further():
    s = arena({"ad1": (1, 5)}, named=("d1",))      # Mozgas 5, Futas
    s.apply("d1 run")
    spent = []
    for d in ("e", "w", "e", "w", "e", "w", "e"):
        before = s.pool + s.teams[0].strat
        s.apply(f"d1 move {d}")
        spent.append(before - s.pool - s.teams[0].strat)
    assert spent == [1, 0, 1, 0, 1, 0, 1]
    with pytest.raises(IllegalAction, match="MOVE_LIMIT"):
        s.apply("d1 move w")


def test_sneaking_costs_two_per_field_and_hiding_one():
    s = arena({"axb": (1, 6)}, named=("xb",))
    s.apply("xb sneak ne")
    assert s.pool == 1 and fig(s, "axb").sneak == 1
    s.apply("xb hide")
    assert s.pool == 0 and fig(s, "axb").sneak == 2


def test_only_sneakers_sneak():
    s = arena({"ad1": (1, 6)}, named=("d1",))
    with pytest.raises(IllegalAction, match="SKILL_NOT_AVAILABLE"):
        s.apply("d1 sneak ne")


def test_sneaking_lasts_until_the_figure_acts_again():
    s = arena({"axb": (1, 6), "ad1": (3, 4)}, named=("xb", "d1"))
    s.apply("xb sneak ne")
    s.apply("end")
    assert fig(s, "axb").sneak == 1                 # still sneaking during the enemy's steps
    while not (s.round == 2 and s.active == 0 and s.stack.top.kind == "act"):
        s.apply("end")
    assert s.round == 2 and fig(s, "axb").id in s.named
    assert fig(s, "axb").sneak == 0


@pytest.mark.parametrize("done,code", [("attacked", "ENTER_ENEMY_AFTER_ATTACK"),
                                       ("disengaged", "ENTER_ENEMY_AFTER_DISENGAGE")])
def test_entering_an_enemy_field_after_the_attack_is_refused_with_its_code(done, code):
    s = arena({"axb": (1, 6), "bd1": (1, 7)}, named=("xb",))
    setattr(fig(s, "axb"), done, True)
    with pytest.raises(IllegalAction, match=rf"\[{code}\].*rule V9\.6"):
        s.apply("xb move ne")
    assert "xb move ne" not in texts(s)


def test_entering_an_enemy_field_after_throwing_a_dagger():
    """The issue's case: a dagger thrown, then a step onto the enemy's field."""
    s = arena({"ad1": (1, 6), "bd1": (1, 7), "bxb": (0, 7)}, named=("d1",))
    roll(s, 1, 10)                                  # the dagger misses; the attack is spent all the same
    s.apply("d1 shoot bxb")
    with pytest.raises(IllegalAction, match=r"\[ENTER_ENEMY_AFTER_ATTACK\].*rule V9\.6"):
        s.apply("d1 move ne")


def test_warlock_after_a_spell_may_not_enter_an_enemy_field():
    s = arena({"awl": (1, 6), "bd1": (1, 7)}, named=("wl",))
    fig(s, "awl").cast_other = True
    with pytest.raises(IllegalAction, match=r"\[ENTER_ENEMY_AFTER_CAST\].*rule V9\.6"):
        s.apply("wl move ne")
