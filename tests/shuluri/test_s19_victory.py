"""Spec 19 and 20.10: the end of the game."""

from __future__ import annotations

from grimoire.games.shuluri.damage import hurt_ep, hurt_sp
from grimoire.games.shuluri.flow import end_round

from .helpers import arena, fig, setup_done


def test_killing_the_enemy_gladiator_wins():
    s = arena({})
    hurt_ep(s, fig(s, "agl"), 30)
    assert s.winners() == [1] and s.returns() == [0.0, 1.0]


def test_the_owner_of_a_gladiator_killed_by_his_own_side_loses():
    """R37: e.g. by his own warlock's Chain Lightning."""
    s = arena({})
    fig(s, "agl").ep = 1
    hurt_sp(s, fig(s, "agl"), 5, "lightning", 5)
    assert s.winners() == [1]


def test_both_gladiators_dying_at_once_is_a_draw():
    s = arena({"agl": (0, 0), "bgl": (0, 0), "awl": (1, 6)}, named=("wl",))
    s.teams[0].discs = [3]
    for g in ("agl", "bgl"):
        fig(s, g).ep = 4
    s.apply("wl cast firestorm 0,0")                # 3 Sp each, no SFE: both at 1
    assert not s.is_terminal()
    end_round(s)
    end_round(s)                                    # next round's end: 3 Sp - metal SFE 2 kills both
    assert s.is_terminal() and s.winners() == [0, 1] and s.end_reason == "draw"
    assert s.returns() == [0.5, 0.5]


def test_nothing_else_ends_the_game():
    s = arena({})
    assert not s.is_terminal()
    for _ in range(3):
        end_round(s)
    assert not s.is_terminal()


def test_four_players_free_for_all_a_team_leaves_and_the_last_wins():
    s = setup_done(4, 2)
    hurt_ep(s, s.figs[5], 30)                       # seat 1's gladiator
    assert not s.is_terminal()
    assert all(not f.alive and f.field < 0 for f in s.figs[5:10])
    assert s.teams[1].out
    hurt_ep(s, s.figs[10], 30)
    hurt_ep(s, s.figs[15], 30)
    assert s.is_terminal() and s.winners() == [0]


def test_four_players_pairs_an_alliance_loses_with_both_gladiators():
    s = setup_done(4, 2, mode="pairs")              # alliances: seats 0 and 2 against 1 and 3
    hurt_ep(s, s.figs[5], 30)
    assert not s.is_terminal()
    hurt_ep(s, s.figs[15], 30)
    assert s.is_terminal() and s.winners() == [0, 2]
