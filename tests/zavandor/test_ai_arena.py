"""The arena hooks Zavandor declares in its descriptor (roles rotated per seat, numbers per game and
per seat for balance studies)."""

from grimoire.core.registry import game_info

from .helpers import (
    BELT,
    CHARS,
    FIRE,
    OWL,
    RUNESTONE,
    SAPPHIRE,
    SPELLBOOK,
    act,
    fresh,
    give_art,
    give_gem,
    give_sentinel,
    set_display,
    set_hand,
    set_level,
)


def test_the_descriptor_declares_the_arena_hooks():
    arena = game_info("zavandor").arena
    assert arena.role_option == "characters"
    assert arena.roles == tuple(CHARS)          # the six characters of 2.7
    s = fresh(3, ["druid", "witch", "mage"])
    assert arena.roles_of(s) == ["druid", "witch", "mage"]


def test_seat_stats_count_what_each_seat_holds():
    s = fresh(3, ["witch", "elf", "druid"])
    give_art(s, 0, SPELLBOOK)
    give_art(s, 0, RUNESTONE, 2)
    give_art(s, 1, BELT)
    give_sentinel(s, 1, OWL)
    set_level(s, 2, FIRE, 4)                    # the druid starts on Fire 1 (2.7): now level 4
    give_gem(s, 2, SAPPHIRE, 2, active=False)
    set_hand(s, 1, "9 14", dust=12)
    stats = game_info("zavandor").arena.seat_stats(s)
    assert len(stats) == 3
    assert [x["artifacts"] for x in stats] == [3, 1, 0]
    assert [x["sentinels"] for x in stats] == [0, 1, 0]
    # setup (3.2): 2 opals and 1 sapphire active each; the witch and the elf start on one track
    assert [x["gems_active"] for x in stats] == [3, 3, 3]
    assert [x["gems_inactive"] for x in stats] == [0, 0, 2]
    assert [x["gems_vp"] for x in stats] == [3, 3, 3]
    assert [x["knowledge_levels"] for x in stats] == [1, 1, 4]
    assert [x["tracks_at_4"] for x in stats] == [0, 0, 1]
    assert stats[1]["energy"] == 9 + 14 + 12
    assert all(x["eliminated"] == 0 for x in stats)
    assert all(isinstance(v, int | float) for x in stats for v in x.values())


def test_an_eliminated_seat_is_marked():
    s = fresh(3, ["witch", "elf", "druid"])
    set_display(s, [SPELLBOOK])
    set_hand(s, 0, dust=10)
    act(s, "auction spellbook", "bid 200")      # far beyond what seat 0 could pay: the curse (7.5)
    assert s.players[0].out
    stats = game_info("zavandor").arena.seat_stats(s)
    assert [x["eliminated"] for x in stats] == [1, 0, 0]
    per_game = game_info("zavandor").arena.stats(s)
    assert per_game["eliminated"] == 1 and per_game["rounds"] == 1
