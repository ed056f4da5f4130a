"""Section 10 of the Zavandor spec: the Knowledge of the 9 Sages (and 9.4)."""

import pytest

from .helpers import (
    BLUE,
    CHALICE,
    ELIXIR,
    FIRE,
    GREEN,
    PROTECTION,
    RED,
    RUBY,
    RUNESTONE,
    SAGES,
    SPEC_CARDS,
    SPELLBOOK,
    TALISMAN,
    WHITE,
    act,
    card_units_of_hand,
    clear_gems,
    end_round,
    energy,
    fresh,
    give_art,
    give_gem,
    give_pentagon_token,
    illegal,
    new,
    obs_player,
    set_display,
    set_hand,
    set_level,
)

LEVEL_COLOUR = {1: BLUE, 2: GREEN, 3: WHITE, 4: RED}


def disc_snapshot(s):
    return [s.disc[c][:] for c in range(4)]


def discarded_since(s, before, colour):
    lo = min(SPEC_CARDS[colour])
    return [lo + i for i, (a, b) in enumerate(zip(before[colour], s.disc[colour], strict=True)) for _ in range(b - a)]


def reach(s, level):
    """Seat 0 reaches `level` of the 9 Sages by a paid advance (from level - 1)."""
    if level == 1:
        give_pentagon_token(s, 0)
    else:
        set_level(s, 0, SAGES, level - 1)
    set_hand(s, 0, dust=100)
    act(s, "advance sages", "pay")
    assert s.players[0].levels[SAGES] == level


# --- 10.1 two cards per new level ---------------------------------------------------------------------------
@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_s10_1_two_cards_of_the_levels_colour(level):
    s = fresh(2, ["druid", "elf"])
    give_art(s, 0, SPELLBOOK)
    give_art(s, 0, ELIXIR)
    set_level(s, 0, FIRE, 4)
    hand = s.players[0].cards[:]
    reach(s, level)
    p = s.players[0]
    assert len(p.under_cards) == 2 and all(k & 3 == LEVEL_COLOUR[level] for k in p.under_cards)
    assert p.under_dust == 0 and p.cards == hand
    o = obs_player(s, 0, 1)
    assert o["under_card"]["cards"][["blue", "green", "white", "red"][LEVEL_COLOUR[level]]] == 2
    assert "under_card_values" not in o                      # the values stay hidden
    assert len(obs_player(s, 0, 0)["under_card_values"]) == 2


# --- 10.2 useless cards become dust ------------------------------------------------------------------------
@pytest.mark.parametrize("level,setup,useful", [
    (1, (), True),                                   # sapphire: always
    (2, (), False),
    (2, ("spellbook",), True),
    (2, ("protection",), True),
    (2, ("elixir",), False),
    (3, (), False),
    (3, ("spellbook",), False),
    (3, ("elixir",), True),
    (4, (), False),
    (4, ("fire3",), False),                          # only the druid's Fire 3 counts
    (4, ("fire4",), True),
    (4, ("chalice",), True),
    (4, ("fire4", "five_rubies"), True),            # the 5-ruby limit is ignored
])
def test_s10_2_useless_sages_cards_become_dust(level, setup, useful):
    s = fresh(2, ["witch", "elf"])
    for what in setup:
        if what in ("spellbook", "protection", "elixir", "chalice"):
            give_art(s, 0, {"spellbook": SPELLBOOK, "protection": PROTECTION, "elixir": ELIXIR,
                            "chalice": CHALICE}[what])
        elif what == "fire3":
            set_level(s, 0, FIRE, 3)
        elif what == "fire4":
            set_level(s, 0, FIRE, 4)
        elif what == "five_rubies":
            give_gem(s, 0, RUBY, 5, active=False)
    before = disc_snapshot(s)
    reach(s, level)
    p = s.players[0]
    colour = LEVEL_COLOUR[level]
    if useful:
        assert len(p.under_cards) == 2 and p.under_dust == 0
        assert discarded_since(s, before, colour) == []
    else:
        gone = discarded_since(s, before, colour)
        assert len(gone) == 2 and p.under_cards == []
        assert p.under_dust == sum(gone) >= 10                 # same value, nothing lost


@pytest.mark.parametrize("druid_flag,useful", [(True, True), (False, False)])
def test_s10_2_druid_fire3_makes_ruby_cards_useful(druid_flag, useful):
    s = fresh(2, ["druid", "elf"], druid_level3_ruby=druid_flag)
    set_level(s, 0, FIRE, 3)
    reach(s, 4)
    p = s.players[0]
    assert (len(p.under_cards) == 2) is useful
    assert (p.under_dust == 0) is useful


def test_s10_2_druid_fire3_useful_even_after_using_the_privilege():
    s = fresh(2, ["druid", "elf"])
    set_level(s, 0, FIRE, 3)
    set_hand(s, 0, dust=200)
    act(s, "buy ruby inactive")
    assert s.players[0].druid_ruby
    set_level(s, 0, SAGES, 3)
    act(s, "advance sages", "pay")
    assert len(s.players[0].under_cards) == 2


def test_s10_2_check_made_when_the_level_is_reached():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [SPELLBOOK])
    set_level(s, 0, SAGES, 1)
    set_hand(s, 0, dust=100)
    act(s, "advance sages", "pay")                       # level 2 without a Spellbook: dust
    dust = s.players[0].under_dust
    assert dust >= 10 and s.players[0].under_cards == []
    act(s, "auction spellbook", "bid 20", "pass", "pay")  # a Spellbook now does not turn it back
    p = s.players[0]
    assert p.under_dust == dust and p.under_cards == []
    clear_gems(s, 0)
    set_hand(s, 0)
    end_round(s)
    assert p.dust == dust and p.cards == []


def test_s10_2_option_nine_sages_dust_false_keeps_the_cards():
    s = fresh(2, ["witch", "elf"], nine_sages_dust=False)
    before = disc_snapshot(s)
    reach(s, 2)
    p = s.players[0]
    assert len(p.under_cards) == 2 and all(k & 3 == GREEN for k in p.under_cards) and p.under_dust == 0
    assert discarded_since(s, before, GREEN) == []


# --- 10.3 under the turn-order card until the next round ------------------------------------------------------
def test_s10_3_not_usable_this_round():
    s = fresh(2, ["witch", "elf"])
    reach(s, 1)
    p = s.players[0]
    under = [k >> 2 for k in p.under_cards]
    set_hand(s, 0, dust=0)
    assert energy(p) == 0 and obs_player(s, 0, 0)["energy"] == 0
    illegal(s, "buy opal inactive", "7.6")
    assert obs_player(s, 0, 0)["card_values"] == [] and len(under) == 2
    assert obs_player(s, 0, 0)["capacity"] == 4 + 4 + 9          # gems only: nothing under the card


def test_s10_3_under_card_items_not_counted_for_this_rounds_hand_limit_and_back_next_round():
    s = fresh(2, ["witch", "elf"])
    set_level(s, 0, SAGES, 1)
    set_hand(s, 0, dust=100)
    act(s, "advance sages", "pay")                       # level 2, useless: dust under the card
    under_dust = s.players[0].under_dust
    set_hand(s, 0, cards="5 6 7 8g")                     # exactly the witch's hand limit
    clear_gems(s, 0)
    act(s, "end", "end")
    assert s.round == 2 and not s.pending                 # no discard: the dust under the card did not count
    p = s.players[0]
    assert p.under_dust == 0 and p.under_cards == []
    assert p.dust == under_dust and len(p.cards) == 4
    assert obs_player(s, 0)["hand_count"] == 4 + card_units_of_hand([], [0] * 4, under_dust)


def test_s10_3_cards_come_back_into_the_hand_next_round():
    s = fresh(2, ["witch", "elf"])
    reach(s, 1)
    under = s.players[0].under_cards[:]
    clear_gems(s, 0)
    set_hand(s, 0)
    end_round(s)
    p = s.players[0]
    assert p.cards == under and p.under_cards == []
    assert obs_player(s, 0, 0)["energy"] == sum(k >> 2 for k in under)


def test_s10_3_applies_to_free_advances_too():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [RUNESTONE])
    set_level(s, 0, SAGES, 1)
    give_art(s, 0, PROTECTION)
    set_hand(s, 0, dust=100)
    act(s, "auction runestone", "bid 20", "pass", "pay", "advance sages")
    p = s.players[0]
    assert p.levels[SAGES] == 2 and len(p.under_cards) == 2 and all(k & 3 == GREEN for k in p.under_cards)
    assert not p.advanced


# --- 10.4 the fairy's start ------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_s10_4_fairy_starting_cards_go_straight_to_hand(seed):
    s = new(3, ["elf", "fairy", "kobold"], seed=seed)
    f = s.players[1]
    assert f.levels[SAGES] == 1
    assert f.under_cards == [] and f.under_dust == 0
    assert len(f.cards) == 3 and all(k & 3 == BLUE for k in f.cards)
    assert obs_player(s, 1)["hand_count"] == 3 + 5   # 3 cards + 15 dust (10 + 5)


def test_s10_4_fairy_next_level_is_level_2():
    s = fresh(2, ["fairy", "elf"])
    give_art(s, 0, SPELLBOOK)
    set_hand(s, 0, dust=100)
    act(s, "advance sages", "pay")
    p = s.players[0]
    assert p.levels[SAGES] == 2 and len(p.under_cards) == 2 and all(k & 3 == GREEN for k in p.under_cards)
    assert p.dust == 94


# --- 10.5 Talisman +2 on the 9 Sages ----------------------------------------------------------------------------
def test_s10_5_talisman_plus_two_gives_both_levels_cards():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [TALISMAN])
    set_level(s, 0, SAGES, 1)
    give_art(s, 0, SPELLBOOK)                           # green useful, white useless
    set_hand(s, 0, dust=200)
    before = disc_snapshot(s)
    act(s, "auction talisman", "bid 100", "pass", "pay", "advance sages", "advance sages")
    p = s.players[0]
    assert p.levels[SAGES] == 3
    assert len(p.under_cards) == 2 and all(k & 3 == GREEN for k in p.under_cards)
    white = discarded_since(s, before, WHITE)
    assert len(white) == 2 and p.under_dust == sum(white)
