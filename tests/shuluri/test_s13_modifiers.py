"""Spec 13: spell and trap modifiers to TE, VE, CE and the ranged defence never stack."""

from __future__ import annotations

from grimoire.games.shuluri.fig import Effect
from grimoire.games.shuluri.values import ce, te, ve

from .helpers import arena, fig


def _give(s, f, *mods, src="spell"):
    f.effects = f.effects + tuple(Effect(f"e{i}", src, "curse", 1, 5, (m,), (), -1) for i, m in enumerate(mods))


def test_only_the_largest_penalty_applies():
    s = arena({"axb": (1, 6)})
    x = fig(s, "axb")
    _give(s, x, ("te", -4), ("te", -5), ("ve", -3))
    assert te(s, x) == 9 - 5 and ve(s, x) == 9 - 3


def test_a_bonus_never_offsets_a_penalty():
    s = arena({"axb": (1, 6)})
    x = fig(s, "axb")
    _give(s, x, ("te", 5), ("te", -4))
    assert te(s, x) == 9 - 4
    y = fig(s, "agl")
    _give(s, y, ("te", 5), ("te", 8))
    assert te(s, y) == 16 + 8


def test_alternative_mode_worst_penalty_plus_best_bonus():
    s = arena({"axb": (1, 6)}, modifier_mode="best_bonus_plus_worst_penalty")
    x = fig(s, "axb")
    _give(s, x, ("te", 5), ("te", 3), ("te", -4), ("te", -2))
    assert te(s, x) == 9 + 5 - 4


def test_spell_and_trap_modifiers_do_not_stack_with_each_other():
    s = arena({"axb": (1, 6)})
    x = fig(s, "axb")
    _give(s, x, ("ce", -2))
    _give(s, x, ("ce", -3), src="trap")
    assert ce(s, x) == 13 - 3


def test_skill_effects_always_add():
    s = arena({"agl": (0, 1)})
    g = fig(s, "agl")
    _give(s, g, ("ve", -3))
    g.down = True                                   # takedown: -4 VE, a skill effect
    assert ve(s, g) == 13 - 3 - 4


def test_expired_effects_no_longer_apply():
    s = arena({"axb": (1, 6)})
    x = fig(s, "axb")
    x.effects = (Effect("x", "spell", "curse", 1, 1, (("te", -4),), (), -1),)
    assert te(s, x) == 5
    s.round = 2
    assert te(s, x) == 9
