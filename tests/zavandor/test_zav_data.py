"""Sections 1 and 2.1-2.7 of the Zavandor spec: components, gems, cards, dust, tracks, characters."""

import pytest

from grimoire.games.zavandor.energy import dust_tokens

from .helpers import (
    ACCUM,
    ARTS_T,
    BALL,
    BLUE,
    CHARS,
    DIAMOND,
    ELIXIR,
    EMERALD,
    FIRE,
    FLOW,
    GEMS,
    GEMS_T,
    OPAL,
    RUBY,
    SAGES,
    SAPPHIRE,
    SPEC_CANONICAL,
    SPEC_CARDS,
    SPEC_CHAR,
    SPEC_CONC,
    SPEC_COST,
    SPEC_ENTRY,
    SPEC_EXTRA_SLOTS,
    SPEC_FLOW_DUST,
    SPEC_GEM_SUPPLY,
    SPEC_SALE,
    SPEC_TRACK_COST,
    SPELLBOOK,
    TOKEN_UNITS,
    TRACKS,
    WAND,
    act,
    bank_pays,
    clear_gems,
    dust_units,
    end_round,
    fresh,
    give_art,
    give_gem,
    give_pentagon_token,
    illegal,
    new,
    obs_player,
    set_hand,
    set_level,
    set_order,
    texts,
)


# --- 1 components -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_s1_components_gem_supply_counts(players):
    s = new(players)
    for g in range(5):
        owned = sum(p.active[g] + p.inactive[g] for p in s.players)
        assert s.gem_supply[g] + owned == SPEC_GEM_SUPPLY[g]
    obs = s.observation(None)["zavandor"]
    assert obs["gem_supply"]["opal"] == 28 - 2 * players
    assert obs["gem_supply"]["sapphire"] == 28 - players
    assert obs["gem_supply"]["emerald"] == 24 and obs["gem_supply"]["diamond"] == 24
    assert obs["gem_supply"]["ruby"] == 20


def test_s1_gems_are_limited_by_the_supply():
    s = fresh(2)
    set_hand(s, 0, dust=200)
    s.gem_supply[OPAL] = 0
    illegal(s, "buy opal inactive", "1")
    illegal(s, "buy opal", "1")
    s.gem_supply[OPAL] = 1
    act(s, "buy opal inactive")
    illegal(s, "buy opal inactive", "1")


# --- 2.1 gems -----------------------------------------------------------------------------------------------
def test_s2_1_spec_tables_are_consistent():
    bases = [10, 20, 30, 40, 60]
    for g in range(5):
        for lv in range(5):
            assert SPEC_COST[g][lv] == bases[g] * (10 - lv) // 10
            assert SPEC_SALE[g][lv] == SPEC_COST[g][lv] // 2


def _gem_buyer(s, gem, level):
    """seat 0 (a druid, Gems level 0) gets Knowledge of Gems `level` and the permission for `gem`."""
    if level:
        set_level(s, 0, GEMS_T, level)
    if gem == EMERALD:
        give_art(s, 0, SPELLBOOK)
    if gem == DIAMOND:
        give_art(s, 0, ELIXIR)
    if gem == RUBY:
        set_level(s, 0, FIRE, 4)


@pytest.mark.parametrize("level", range(5))
@pytest.mark.parametrize("gem", range(5))
def test_s2_1_gem_cost_table(gem, level):
    s = fresh(2, ["druid", "elf"])
    _gem_buyer(s, gem, level)
    set_hand(s, 0, dust=200)
    assert obs_player(s, 0)["gem_costs"][GEMS[gem]] == SPEC_COST[gem][level]
    act(s, f"buy {GEMS[gem]} inactive", "pay")
    p = s.players[0]
    assert p.inactive[gem] == 1
    assert p.dust == 200 - SPEC_COST[gem][level]


@pytest.mark.parametrize("level", range(5))
@pytest.mark.parametrize("gem", range(5))
def test_s2_1_gem_sale_value_table(gem, level):
    s = fresh(2, ["druid", "elf"])
    if level:
        set_level(s, 0, GEMS_T, level)
    give_gem(s, 0, gem, 1, active=False)        # no permission needed to sell (2.1 [R], 14.36)
    supply = s.gem_supply[gem]
    assert obs_player(s, 0)["sale_values"][GEMS[gem]] == SPEC_SALE[gem][level]
    act(s, f"sell {GEMS[gem]}", "pay")
    p = s.players[0]
    assert p.inactive[gem] == 0 and s.gem_supply[gem] == supply + 1
    assert p.dust == bank_pays(SPEC_SALE[gem][level])


def test_s2_1_sale_value_of_a_gem_the_player_may_not_buy():
    # 14.36: the druid's ruby before Fire 4 sells at half his current cost (Gems level 0: 30)
    s = fresh(2, ["druid", "elf"])
    give_gem(s, 0, RUBY, 1, active=False)
    assert "buy ruby inactive" not in texts(s)
    act(s, "sell ruby", "pay")
    assert s.players[0].dust == 30


def test_s2_1_emerald_needs_a_spellbook():
    s = fresh(2)
    set_hand(s, 0, dust=100)
    illegal(s, "buy emerald inactive", "2.1")
    illegal(s, "buy emerald", "2.1")
    give_art(s, 0, SPELLBOOK)
    assert "buy emerald" in texts(s) and "buy emerald inactive" in texts(s)
    act(s, "buy emerald")
    assert s.players[0].active[EMERALD] == 1


def test_s2_1_diamond_needs_an_elixir():
    s = fresh(2)
    set_hand(s, 0, dust=100)
    illegal(s, "buy diamond", "2.1")
    give_art(s, 0, SPELLBOOK)
    illegal(s, "buy diamond", "2.1")
    give_art(s, 0, ELIXIR)
    act(s, "buy diamond")
    assert s.players[0].active[DIAMOND] == 1


def test_s2_1_opal_and_sapphire_anyone_may_buy():
    for ch in CHARS:
        s = fresh(2, [ch, "elf" if ch != "elf" else "witch"])
        set_hand(s, 0, dust=100)
        assert {"buy opal", "buy sapphire", "buy opal inactive", "buy sapphire inactive"} <= set(texts(s))


@pytest.mark.parametrize("fire", [0, 1, 2, 3])
def test_s2_1_ruby_needs_fire_level_4(fire):
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=200)
    if fire:
        set_level(s, 0, FIRE, fire)
    illegal(s, "buy ruby inactive")
    set_level(s, 0, FIRE, 4)
    act(s, "buy ruby inactive")
    assert s.players[0].inactive[RUBY] == 1


def test_s2_1_ruby_cap_five_owned_active_and_inactive():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=400)
    set_level(s, 0, FIRE, 4)
    give_gem(s, 0, RUBY, 2, active=True)
    give_gem(s, 0, RUBY, 2, active=False)
    give_art(s, 0, 9)                            # a Chalice of Fire does not count toward the limit
    act(s, "buy ruby inactive")
    assert s.players[0].active[RUBY] + s.players[0].inactive[RUBY] == 5
    illegal(s, "buy ruby inactive", "2.1")
    illegal(s, "buy ruby", "2.1")
    act(s, "sell ruby")                          # back to 4 owned: may buy again
    assert "buy ruby inactive" in texts(s)


def test_s2_1_druid_level3_ruby_once():
    s = fresh(2, ["druid", "elf"])
    set_hand(s, 0, dust=400)
    set_level(s, 0, FIRE, 2)
    illegal(s, "buy ruby inactive")
    set_level(s, 0, FIRE, 3)
    act(s, "buy ruby inactive")
    assert s.players[0].inactive[RUBY] == 1
    illegal(s, "buy ruby inactive")              # one ruby in total under the privilege (9.3)
    act(s, "sell ruby")                          # selling it does not restore the privilege
    illegal(s, "buy ruby inactive")
    end_round(s)
    set_order(s, [0, 1])
    set_hand(s, 0, dust=400)
    illegal(s, "buy ruby inactive")              # not in a later round either
    set_level(s, 0, FIRE, 4)                     # at Fire 4 the ordinary rule applies
    act(s, "buy ruby inactive", "buy ruby inactive")
    assert s.players[0].inactive[RUBY] == 2


def test_s2_1_druid_level3_ruby_counts_toward_the_cap():
    s = fresh(2, ["druid", "elf"])
    set_hand(s, 0, dust=400)
    set_level(s, 0, FIRE, 3)
    give_gem(s, 0, RUBY, 5, active=False)
    illegal(s, "buy ruby inactive", "2.1")


def test_s2_1_only_the_druid_has_the_level3_privilege():
    for ch in ["witch", "elf", "fairy", "mage", "kobold"]:
        s = fresh(2, [ch, "druid"])
        set_hand(s, 0, dust=400)
        set_level(s, 0, FIRE, 3)
        illegal(s, "buy ruby inactive")


def test_s2_1_option_druid_level3_ruby_false():
    s = fresh(2, ["druid", "elf"], druid_level3_ruby=False)
    set_hand(s, 0, dust=400)
    set_level(s, 0, FIRE, 3)
    illegal(s, "buy ruby inactive")
    set_level(s, 0, FIRE, 4)
    act(s, "buy ruby inactive")
    assert s.players[0].inactive[RUBY] == 1


def test_s2_1_inactive_gems_produce_nothing_and_score_nothing():
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 0)
    give_gem(s, 0, OPAL, 3, active=False)
    give_gem(s, 0, SAPPHIRE, 3, active=False)
    end_round(s)
    p = s.players[0]
    assert p.vp == 0
    assert p.dust == 0 and p.cards == [] and p.conc == [0, 0, 0, 0]


# --- 2.2 energy cards ---------------------------------------------------------------------------------------
def test_s2_2_deck_composition():
    assert sum(sum(d.values()) for d in SPEC_CARDS.values()) == 126
    assert [sum(SPEC_CARDS[c].values()) for c in range(4)] == [30, 36, 30, 30]
    avgs = [sum(v * n for v, n in SPEC_CARDS[c].items()) / sum(SPEC_CARDS[c].values()) for c in range(4)]
    assert avgs == [5, 7.5, 10, 15]
    for players in (2, 6):
        s = new(players, seed=3)
        for c in range(4):
            lo = min(SPEC_CARDS[c])
            held = {}
            for p in s.players:
                for k in p.cards + p.under_cards:
                    if k & 3 == c:
                        held[k >> 2] = held.get(k >> 2, 0) + 1
            for v, n in SPEC_CARDS[c].items():
                assert s.deck[c][v - lo] + s.disc[c][v - lo] + held.get(v, 0) == n
            assert len(s.deck[c]) == len(SPEC_CARDS[c])


def test_s2_2_colour_only_matters_when_received():
    # any card pays for anything: a red 15 pays for an opal
    s = fresh(2, ["druid", "elf"])
    set_hand(s, 0, cards="15r")
    act(s, "buy opal inactive", "pay 15r")
    assert s.players[0].cards == [] and s.players[0].dust == 5


# --- 2.3 concentrated energy --------------------------------------------------------------------------------
def test_s2_3_concentrated_values_and_hand_count():
    s = fresh(2, ["druid", "elf"])
    set_hand(s, 0, conc=(1, 1, 1, 1))
    o = obs_player(s, 0, 0)
    assert o["energy"] == sum(SPEC_CONC) == 150
    assert o["hand_count"] == 12
    # each pays its printed value: c60 for a 60 purchase leaves nothing
    set_level(s, 0, FIRE, 4)
    act(s, "buy ruby inactive", "pay c60")
    assert s.players[0].conc == [1, 1, 1, 0] and s.players[0].dust == 0


# --- 2.4 opal income ----------------------------------------------------------------------------------------
def test_s2_4_opal_income_formula_matches_the_table():
    for n, dust in {1: 2, 2: 5, 3: 10, 4: 12, 5: 15, 6: 20, 7: 22, 8: 25, 9: 30, 10: 32, 11: 35}.items():
        assert 10 * (n // 3) + [0, 2, 5][n % 3] == dust


@pytest.mark.parametrize("n", range(0, 12))
def test_s2_4_opal_income_table(n):
    s = fresh(2, ["druid", "elf"])
    clear_gems(s, 0)
    set_level(s, 0, ACCUM, 4)
    give_art(s, 0, 3)                    # belt
    give_art(s, 0, WAND)
    give_gem(s, 0, OPAL, n)
    end_round(s)
    expected = {0: 0, 1: 2, 2: 5, 3: 10, 4: 12, 5: 15, 6: 20, 7: 22, 8: 25, 9: 30, 10: 32, 11: 35}[n]
    p = s.players[0]
    assert p.dust == expected
    assert p.cards == []


# --- 2.5 hand-limit counts ----------------------------------------------------------------------------------
def test_s2_5_canonical_examples_are_the_fewest_units():
    for v, toks in SPEC_CANONICAL.items():
        paid = bank_pays(v)
        assert sum(toks) == paid
        if paid:
            assert sum(TOKEN_UNITS[t] for t in toks) == dust_units(paid)


@pytest.mark.parametrize("v", sorted(SPEC_CANONICAL))
def test_s2_5_canonical_dust_payout_examples(v):
    assert sorted(dust_tokens(v), reverse=True) == sorted(SPEC_CANONICAL[v], reverse=True)


@pytest.mark.parametrize("v", [v for v in sorted(SPEC_CANONICAL) if v not in (1, 3)] + [21, 23, 27, 33, 47, 100])
def test_s2_5_hand_limit_counts_of_dust(v):
    s = fresh(2)
    set_hand(s, 0, dust=v)
    expected = dust_units(v)
    if v in SPEC_CANONICAL:
        assert expected == sum(TOKEN_UNITS[t] for t in SPEC_CANONICAL[v])
    assert obs_player(s, 0)["hand_count"] == expected


def test_s2_5_hand_limit_counts_cards_conc_dust_gems():
    s = fresh(2, ["druid", "elf"])
    set_hand(s, 0, cards="3 17r 10w", dust=17, conc=(0, 2, 0, 0))
    give_gem(s, 0, OPAL, 3, active=False)
    give_art(s, 0, SPELLBOOK)
    # 3 cards (1 each) + 2 concentrated (3 each) + 17 dust = 10+5+2 (3+2+1); gems/artifacts count 0
    assert obs_player(s, 0)["hand_count"] == 3 + 6 + 6


# --- 2.6 knowledge tracks -----------------------------------------------------------------------------------
def _char_not_on(track):
    return next(c for c in CHARS if SPEC_CHAR[c][0] != track)


@pytest.mark.parametrize("level", [1, 2, 3, 4])
@pytest.mark.parametrize("track", range(6))
def test_s2_6_track_level_costs(track, level):
    ch = _char_not_on(track)
    s = fresh(2, [ch, next(c for c in CHARS if c != ch)])
    if level == 1:
        give_pentagon_token(s, 0)
    else:
        set_level(s, 0, track, level - 1)
    set_hand(s, 0, dust=200)
    act(s, f"advance {TRACKS[track]}", "pay")
    p = s.players[0]
    assert p.levels[track] == level
    assert p.dust == 200 - SPEC_TRACK_COST[track][level - 1]


@pytest.mark.parametrize("track", range(6))
def test_s2_6_hand_limit_entry_modifier_applies_once_on_entering(track):
    ch = _char_not_on(track)
    s = fresh(2, [ch, next(c for c in CHARS if c != ch)])
    base = SPEC_CHAR[ch][2]
    assert obs_player(s, 0)["hand_limit"] == base
    give_pentagon_token(s, 0)
    for level in range(1, 5):
        set_hand(s, 0, dust=200)
        act(s, f"advance {TRACKS[track]}")
        assert s.players[0].levels[track] == level
        assert obs_player(s, 0)["hand_limit"] == base + SPEC_ENTRY[track]
        end_round(s)
        set_order(s, [0, 1])
    assert obs_player(s, 0)["hand_limit"] == base + SPEC_ENTRY[track]


@pytest.mark.parametrize("track", range(6))
def test_s2_6_level4_is_worth_2_vp(track):
    ch = _char_not_on(track)
    s = fresh(2, [ch, next(c for c in CHARS if c != ch)])
    set_level(s, 0, track, 3)
    set_hand(s, 0, dust=200)
    act(s, f"advance {TRACKS[track]}")
    end_round(s)
    assert s.players[0].vp == 3 + 2
    assert s.players[1].vp == 3


def test_s2_6_gems_level_discount_applies_at_once_to_buy_and_sale():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=200)
    give_gem(s, 0, SAPPHIRE, 1, active=False)
    assert obs_player(s, 0)["gem_costs"]["opal"] == 9
    act(s, "advance gems", "pay")                 # 3b first (4), then 3a
    assert s.players[0].dust == 196
    act(s, "buy opal inactive", "pay")
    assert s.players[0].dust == 196 - 8
    act(s, "sell sapphire", "pay")
    assert s.players[0].dust == 196 - 8 + 8       # sapphire at Gems 2: cost 16, sale 8


@pytest.mark.parametrize("level", range(5))
def test_s2_6_energy_flow_dust_in_income(level):
    s = fresh(2, ["witch", "elf"])
    if level:
        set_level(s, 0, FLOW, level)
    end_round(s)
    assert s.players[0].dust == 5 + SPEC_FLOW_DUST[level]


def test_s2_6_energy_flow_level_reached_in_phase3_pays_from_next_income():
    s = fresh(2, ["elf", "witch"])
    set_hand(s, 0, dust=200)
    act(s, "advance flow", "pay")
    assert s.players[0].levels[FLOW] == 2 and s.players[0].dust == 194
    set_hand(s, 0)
    end_round(s)
    assert s.players[0].dust == 5 + 2


@pytest.mark.parametrize("level", range(5))
def test_s2_6_accumulation_slots(level):
    s = fresh(2, ["witch", "elf"])
    if level:
        set_level(s, 0, ACCUM, level)
    give_gem(s, 0, OPAL, 8, active=False)
    expected = 5 + SPEC_EXTRA_SLOTS[level]
    assert obs_player(s, 0)["slots"] == expected
    while "activate opal" in texts(s):
        act(s, "activate opal")
    assert sum(s.players[0].active) == expected
    illegal(s, "activate opal", "7.2")
    set_hand(s, 0, dust=100)
    illegal(s, "buy opal", "7.2")
    assert "buy opal inactive" in texts(s)


def test_s2_6_accumulation_slot_gained_in_3b_is_usable_at_once():
    s = fresh(2, ["kobold", "elf"])
    give_gem(s, 0, OPAL, 2, active=True)
    give_gem(s, 0, OPAL, 1, active=False)
    set_hand(s, 0, dust=100)
    illegal(s, "activate opal", "7.2")
    act(s, "advance accumulation")               # level 2: +1 slot at once (7.3)
    act(s, "activate opal")
    assert sum(s.players[0].active) == 6


# --- 2.7 characters -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("ch", CHARS)
def test_s2_7_character_start(ch):
    other = "elf" if ch != "elf" else "witch"
    s = new(2, [ch, other], seed=5)
    p = s.players[0]
    track, dust, limit = SPEC_CHAR[ch]
    assert p.levels == [1 if t == track else 0 for t in range(6)]
    assert p.tokens == [20, 25, 30, 35, 40] and p.pentagon == 0
    # round 1 income already collected: 2 opals -> 5 dust, 1 sapphire -> 1 blue card
    assert p.dust == dust + 5
    blue = [k for k in p.cards if k & 3 == BLUE]
    assert len(p.cards) == len(blue) == (3 if ch == "fairy" else 1)
    assert p.under_cards == [] and p.under_dust == 0
    o = obs_player(s, 0)
    assert o["hand_limit"] == limit == 5 + SPEC_ENTRY[track]
    assert o["character"] == ch
    assert p.active == [2, 1, 0, 0, 0] and p.inactive == [0] * 5
    assert p.vp == 3


def test_s2_7_fairy_sapphire_cards_usable_in_round_1():
    s = new(2, ["fairy", "witch"], seed=9)
    set_order(s, [0, 1])
    p = s.players[0]
    values = [k >> 2 for k in p.cards]
    assert len(values) == 3
    set_hand(s, 0, cards=" ".join(f"{v}b" for v in values), dust=0)
    set_level(s, 0, GEMS_T, 3)                    # opal costs 7 <= 9 <= the three cards together
    act(s, "buy opal inactive", "pay " + " ".join(f"{v}b" for v in values))
    assert p.cards == [] and p.inactive[OPAL] == 1
    assert p.dust == bank_pays(sum(values) - 7)


def test_s2_7_hand_limit_formula_without_cap():
    s = fresh(6, CHARS)
    p0 = 4                                       # the mage: 5 + 1 (artifacts)
    give_art(s, p0, BALL, 3)
    give_art(s, p0, WAND)
    set_level(s, p0, ACCUM, 1)
    set_level(s, p0, GEMS_T, 1)
    assert obs_player(s, p0)["hand_limit"] == 5 + 1 + 1 - 1 + 9 + 3 == 18


def test_s2_6_artifacts_track_does_not_add_slots():
    s = fresh(2, ["mage", "elf"])
    set_level(s, 0, ARTS_T, 4)
    assert obs_player(s, 0)["slots"] == 5


def test_s2_6_sages_and_fire_entry_modifiers_are_zero():
    s = fresh(2, ["witch", "elf"])
    give_pentagon_token(s, 0, 20)
    give_pentagon_token(s, 0, 25)
    set_hand(s, 0, dust=100)
    before = obs_player(s, 0)["hand_limit"]
    act(s, "advance sages")
    assert obs_player(s, 0)["hand_limit"] == before
    assert s.players[0].levels[SAGES] == 1
