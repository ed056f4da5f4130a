"""Spec 2, 4 and 20.2: components, the teams and the base characters' values."""

from __future__ import annotations

import pytest

from grimoire.games.shuluri.data import (
    AMULETS,
    DISC_POOL,
    GLADIATOR_TYPES,
    RANGED_RANGE,
    RESIST_VALUES,
    ROLE_STATS,
    ROLES,
    TRAPS,
)

from .helpers import fig, setup_done


def test_components():
    assert len(TRAPS) == 16
    assert AMULETS == ("poison", "lightning", "curse")
    assert RESIST_VALUES == (2, 3)
    assert sum(DISC_POOL) == 30 and DISC_POOL == (8, 7, 6, 5, 4)
    assert ROLES == ("gl", "wl", "xb", "d1", "d2")
    assert [r.title for r in ROLE_STATS] == ["quicchures", "magitor", "iaciator", "deasta", "laeva"]


@pytest.mark.parametrize("role,te,ve,ce,ep,eg,me,move,armour,sfe,stp,ammo,skills", [
    ("wl", 8, 8, 0, 10, 3, 5, 4, "leather", 1, 3, 0, ("running", "dodge")),
    ("xb", 9, 9, 13, 12, 4, 0, 4, "leather", 1, 3, 10, ("aiming", "sneaking")),
    ("d1", 10, 10, 11, 12, 4, 0, 5, "leather", 1, 3, 8, ("aiming", "running", "acrobatics")),
    ("d2", 10, 10, 11, 12, 4, 0, 5, "leather", 1, 3, 8, ("aiming", "sneaking", "dodge")),
])
def test_base_team_values(role, te, ve, ce, ep, eg, me, move, armour, sfe, stp, ammo, skills):
    r = ROLE_STATS[ROLES.index(role)]
    assert (r.te, r.ve, r.ce, r.ep, r.eg, r.me, r.move, r.armour, r.sfe, r.stp, r.ammo) == \
        (te, ve, ce, ep, eg, me, move, armour, sfe, stp, ammo)
    assert r.skills == skills


def test_gladiators():
    g = ROLE_STATS[0]
    assert (g.ep, g.eg, g.me, g.move, g.armour, g.sfe, g.stp, g.javelins, g.nets) == (18, 5, 0, 5, "metal", 2, 6, 3, 2)
    h, sa = GLADIATOR_TYPES["heavy"], GLADIATOR_TYPES["sword_artist"]
    assert (h.ep, h.sfe, h.stp, h.te_bonus) == (18, 2, 6, 0)
    assert (sa.ep, sa.sfe, sa.stp, sa.te_bonus) == (16, 1, 2, 2)
    assert sa.extra_skills == ("golden_bell",)


def test_ranges():
    assert RANGED_RANGE == {"crossbow": 4, "daggers": 2}


def test_each_team_has_five_fighters_and_the_same_values():
    s = setup_done(2, 1)
    for seat in (0, 1):
        figs = s.team_figs(seat)
        assert [f.role for f in figs] == [0, 1, 2, 3, 4]
    assert fig(s, "axb").ep == fig(s, "bxb").ep == 12
