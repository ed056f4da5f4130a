"""Sections 2.10, 3, 4, 5, 6 and 8 of the Zavandor spec: setup, the round, income, phase 4, game end."""

import itertools

import pytest

import grimoire
from grimoire.games.zavandor import decisions as D

from .helpers import (
    BALL,
    BLUE,
    CHALICE,
    CHARS,
    CLOAK,
    DIAMOND,
    EMERALD,
    FLOW,
    GREEN,
    MASK,
    OPAL,
    PHOENIX,
    PROTECTION,
    RED,
    RUBY,
    RUNESTONE,
    SAPPHIRE,
    SPEC_ART,
    SPEC_CARDS,
    SPEC_CONC,
    SPELLBOOK,
    TALISMAN,
    WHITE,
    act,
    all_subsets,
    card_units_of_hand,
    clear_gems,
    dust_units,
    end_round,
    energy,
    fresh,
    give_art,
    give_gem,
    give_sentinel,
    illegal,
    keepable_by_tokens,
    new,
    obs_player,
    representable,
    set_display,
    set_hand,
    set_level,
    set_order,
    spec_tokens,
    spec_vp,
    take_card,
    texts,
)


# --- 3 setup ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players,per_kind", [(2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_s3_artifact_copies_and_display_per_player_count(players, per_kind):
    s = new(players, seed=4)
    assert len(s.display) == players
    for k in range(12):
        assert s.art_pile[k] + s.display.count(k) == per_kind
    assert all(SPEC_ART[k][0] == "A" for k in s.display)      # A is on top, and A holds >= 6 per count
    letters = {"A": 3, "B": 4, "C": 3, "D": 2}
    stack = s.observation(None)["zavandor"]["artifact_stack"]
    for L, kinds in letters.items():
        assert stack[L] + sum(1 for k in s.display if SPEC_ART[k][0] == L) == kinds * per_kind


@pytest.mark.parametrize("players", [2, 5])
def test_s3_artifact_stack_a_on_top_d_at_the_bottom(players):
    s = new(players, seed=8)
    drawn = [SPEC_ART[k][0] for k in s.display]
    total = 12 * {2: 1, 5: 3}[players]
    for _ in range(40):
        if len(drawn) == total:
            break
        for k in s.display:                                   # the display is sold out every round
            s.players[0].arts[k] += 1
        s.display = []
        end_round(s)
        drawn += [SPEC_ART[k][0] for k in s.display]
    assert len(drawn) == total
    assert drawn == sorted(drawn)                             # A ... B ... C ... D
    per = total // 12
    assert [drawn.count(L) for L in "ABCD"] == [3 * per, 4 * per, 3 * per, 2 * per]
    assert sum(s.art_pile) == 0
    for k in s.display:
        s.players[0].arts[k] += 1
    s.display = []
    end_round(s)
    assert s.display == []                                    # never reshuffled


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_s3_setup_gems_vp_and_round_1(players):
    s = new(players, seed=11)
    assert s.round == 1 and sorted(s.order) == list(range(players))
    for p in s.players:
        assert p.active == [2, 1, 0, 0, 0] and p.inactive == [0] * 5
        assert p.vp == 3
        assert p.arts == [0] * 12 and p.sents == []
    assert s.sent_avail == list(range(9)) and s.sent_sold == 0


def test_s3_random_characters_are_distinct():
    seen = set()
    for seed in range(30):
        s = grimoire.new_game("zavandor", players=6, seed=seed)
        chars = [CHARS[p.char] for p in s.players]
        assert sorted(chars) == sorted(CHARS)
        seen.add(tuple(chars))
        s = grimoire.new_game("zavandor", players=3, seed=seed, characters=["fairy", "random", "random"])
        assert CHARS[s.players[0].char] == "fairy" and len({p.char for p in s.players}) == 3
    assert len(seen) > 1


def test_s3_public_and_hidden_information():
    s = new(3, ["fairy", "witch", "elf"], seed=2)
    o1 = s.observation(1)["zavandor"]
    fairy = o1["players"][0]
    assert fairy["cards"]["blue"] == 3                       # number and colour are public
    assert "card_values" not in fairy and "energy" not in fairy
    assert fairy["dust"] == s.players[0].dust and fairy["gems_active"]["opal"] == 2
    own = s.observation(0)["zavandor"]["players"][0]
    assert sorted(v for v, _c in own["card_values"]) == sorted(k >> 2 for k in s.players[0].cards)
    assert "rng" not in s.observation(1) and "seed" not in s.observation(1)
    assert s.observation(1)["zavandor"]["decks"]["blue"]["cards"] == sum(s.deck[BLUE])   # deck sizes public, order not


# --- 4 / 5 phase 1 ------------------------------------------------------------------------------------------
def test_s5_turn_order_by_vp_then_gem_vp():
    s = fresh(3, ["witch", "elf", "druid"])
    give_art(s, 0, TALISMAN)                     # seat 0: 3 (gems) + 8 + 1 = 12
    give_art(s, 0, SPELLBOOK)
    clear_gems(s, 1)                             # seat 1: 2 + 2 + 2 + 2 (emeralds) + 3 + 1 (opal) = 12, 11 from gems
    give_gem(s, 1, EMERALD, 4)
    give_gem(s, 1, RUBY, 1)
    give_art(s, 1, RUNESTONE)
    end_round(s)
    assert [p.vp for p in s.players] == [12, 12, 3]
    assert list(s.order) == [1, 0, 2]
    assert [obs_player(s, x)["turn_order_card"] for x in range(3)] == ["II", "I", "III"]


def test_s5_turn_order_ties_broken_at_random():
    firsts = set()
    for seed in range(12):
        s = fresh(3, ["witch", "elf", "druid"], seed=seed)
        give_art(s, 2, SPELLBOOK)
        end_round(s)
        assert s.order[0] == 2                   # 4 VP beats 3
        firsts.add(tuple(s.order))
    assert firsts == {(2, 0, 1), (2, 1, 0)}


def test_s5_round_1_order_is_random():
    orders = {tuple(new(4, seed=seed).order) for seed in range(20)}
    assert len(orders) > 3


def test_s5_artifact_refill_only_what_was_sold():
    s = fresh(4, ["witch", "elf", "druid", "fairy"])
    set_display(s, [SPELLBOOK, RUNESTONE, BALL, SPELLBOOK])
    pile = s.art_pile[:]
    end_round(s)
    assert s.display == [SPELLBOOK, RUNESTONE, BALL, SPELLBOOK] and s.art_pile == pile   # nothing drawn
    set_order(s, [0, 1, 2, 3])
    set_hand(s, 0, dust=200)
    act(s, "auction runestone", "bid 20", "pass", "pass", "pass", "pay", "skip")
    end_round(s)
    assert len(s.display) == 4 and sum(s.art_pile) == sum(pile) - 1
    assert s.display[:3] == [SPELLBOOK, BALL, SPELLBOOK]     # unsold artifacts stay


def test_s5_display_larger_than_players_is_not_reduced():
    s = fresh(3, ["witch", "elf", "druid"])
    set_display(s, [SPELLBOOK, RUNESTONE, BALL])
    set_hand(s, 0, dust=100)
    set_hand(s, 1, dust=10)
    act(s, "auction spellbook", "bid 20", "bid 300")           # seat 1 is cursed: 2 players, 3 artifacts
    end_round(s)
    assert len(s.display) == 3


# --- 2.10 turn-order surcharges and discounts ---------------------------------------------------------------
def _six_by_vp(vps_extra):
    """6 players; seat i gets artifacts worth vps_extra[i] VP on top of the 3 from gems."""
    s = fresh(6, CHARS)
    kit = {8: [TALISMAN], 9: [TALISMAN, SPELLBOOK], 17: [TALISMAN, TALISMAN, SPELLBOOK], 6: [CLOAK, SPELLBOOK],
           3: [MASK], 1: [RUNESTONE], 0: [], 2: [SPELLBOOK, RUNESTONE], 5: [CLOAK], 4: [CHALICE]}
    for seat, extra in enumerate(vps_extra):
        for k in kit[extra]:
            give_art(s, seat, k)
    end_round(s)
    return s


def test_s2_10_turn_order_modifiers_when_leader_has_10():
    s = _six_by_vp([17, 9, 6, 3, 1, 0])          # VP 20 12 9 6 4 3
    assert [p.vp for p in s.players] == [20, 12, 9, 6, 4, 3]
    assert list(s.order) == [0, 1, 2, 3, 4, 5]
    mods = s.observation(0)["zavandor"]["modifiers"]
    assert [(m["artifact"], m["sentinel"]) for m in mods] == [(10, 20), (5, 10), (0, 0), (0, 0), (-5, -10),
                                                             (-10, -20)]


def test_s2_10_card_ii_needs_its_holders_own_10_vp():
    s = _six_by_vp([17, 6, 5, 3, 1, 0])          # VP 20 9 8 6 4 3
    mods = s.observation(0)["zavandor"]["modifiers"]
    assert [(m["artifact"], m["sentinel"]) for m in mods] == [(10, 20), (0, 0), (0, 0), (0, 0), (-5, -10),
                                                             (-10, -20)]


def test_s2_10_no_modifiers_while_the_leader_has_less_than_10():
    s = _six_by_vp([6, 5, 4, 3, 1, 0])           # VP 9 8 7 6 4 3
    mods = s.observation(0)["zavandor"]["modifiers"]
    assert all(m == {"artifact": 0, "sentinel": 0} for m in mods)


def test_s2_10_modifiers_change_the_price_not_the_bid():
    s = _six_by_vp([17, 9, 6, 3, 1, 0])
    assert s.current_player == 0
    for seat in range(6):
        set_hand(s, seat, dust=400)
    set_display(s, [BALL, RUNESTONE])
    act(s, "auction crystal-ball", "bid 30", "pass", "pass", "pass", "pass", "bid 31", "pass")
    act(s, "pay")
    assert s.players[5].dust == 400 - 21          # VI: 31 - 10
    act(s, "auction phoenix", "bid 120", "pass", "pass", "pass", "pass", "pass", "pay")
    assert s.players[0].dust == 400 - 140         # I: 120 + 20
    act(s, "auction owl", "bid 120", "bid 121", "pass", "pass", "pass", "pass", "pass", "pay")
    assert s.players[1].dust == 400 - 131         # II with 12 VP: 121 + 10


def test_s2_10_modifiers_constant_during_the_round():
    s = _six_by_vp([17, 9, 6, 3, 1, 0])
    before = s.observation(0)["zavandor"]["modifiers"]
    give_art(s, 5, CLOAK)                         # seat 5 would have 8 VP now, but VP count only in phase 4
    set_hand(s, 0, dust=200)
    act(s, "deactivate opal", "deactivate opal", "deactivate sapphire")
    assert s.observation(0)["zavandor"]["modifiers"] == before
    assert [p.vp for p in s.players] == [20, 12, 9, 6, 4, 3]


# --- 6 income -----------------------------------------------------------------------------------------------
def test_s6_round_1_income():
    for seed in range(5):
        s = new(4, ["witch", "elf", "druid", "kobold"], seed=seed)
        for p, start in zip(s.players, [10, 10, 20, 20], strict=True):
            assert p.dust == start + 5
            assert len(p.cards) == 1 and p.cards[0] & 3 == BLUE
            assert p.conc == [0, 0, 0, 0]


def test_s6_cards_per_gem_colour():
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 0)
    give_gem(s, 0, SAPPHIRE, 2)
    give_gem(s, 0, EMERALD, 1)
    give_gem(s, 0, DIAMOND, 1)
    give_gem(s, 0, RUBY, 1)
    give_gem(s, 0, RUBY, 3, active=False)
    end_round(s)
    p = s.players[0]
    assert sorted(k & 3 for k in p.cards) == [BLUE, BLUE, GREEN, WHITE, RED]
    for k in p.cards:
        assert (k >> 2) in SPEC_CARDS[k & 3]
    assert p.dust == 0 and p.conc == [0] * 4


@pytest.mark.parametrize("n,conc,cards", [(3, 0, 3), (4, 1, 0), (5, 1, 1), (7, 1, 3), (8, 2, 0)])
def test_s6_mandatory_concentration(n, conc, cards):
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 0)
    set_level(s, 0, 5, 4)                         # accumulation 4 + belt: 9 slots
    give_art(s, 0, 3)
    give_gem(s, 0, SAPPHIRE, n)
    clear_gems(s, 1)
    deck = sum(s.deck[BLUE])
    end_round(s)
    p = s.players[0]
    assert p.conc == [conc, 0, 0, 0]
    assert len(p.cards) == cards and all(k & 3 == BLUE for k in p.cards)
    assert p.dust == 2 * conc
    assert sum(s.deck[BLUE]) == deck - cards      # the replaced cards are never drawn
    assert energy(p) == SPEC_CONC[BLUE] * conc + 2 * conc + sum(k >> 2 for k in p.cards)


def test_s6_combined_sources_opals_flow_concentration():
    s = fresh(2, ["elf", "witch"])
    clear_gems(s, 0)
    set_level(s, 0, FLOW, 3)
    give_gem(s, 0, OPAL, 1)
    give_gem(s, 0, EMERALD, 3)
    give_art(s, 0, PROTECTION)
    give_gem(s, 0, RUBY, 1)
    give_art(s, 0, CHALICE)
    end_round(s)
    p = s.players[0]
    assert p.dust == 2 + 5 + 2                    # 1 opal, Energy Flow 3, one concentration
    assert p.conc == [0, 1, 0, 0]
    assert sorted(k & 3 for k in p.cards) == [RED, RED]


def test_s6_no_exchange_of_cards_for_concentrated_cards():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="5b 5b 5b 5b")
    assert not any("conc" in t or t.startswith("exchange") for t in texts(s))
    end_round(s)
    assert s.players[0].conc == [0, 0, 0, 0]


# --- 8.1 hand limit -----------------------------------------------------------------------------------------
def brute_keep(cards, conc, dust, limit, whole_tokens=True):
    """The most energy that can be kept within the hand limit (8.1): the dust as whole canonical tokens,
    exchanged only upwards (7.6), or with ``whole_tokens`` False any representable amount of it."""
    best = 0
    items = [(v, 1) for v in cards] + [(SPEC_CONC[c], 3) for c in range(4) for _ in range(conc[c])]
    keepable = keepable_by_tokens(spec_tokens(dust)) if whole_tokens else range(dust + 1)
    for sub in all_subsets(items):
        value = sum(items[i][0] for i in sub)
        units = sum(items[i][1] for i in sub)
        if units > limit:
            continue
        for d in sorted(keepable, reverse=True):
            if representable(d) and units + dust_units(d) <= limit:
                best = max(best, value + d)
                break
    return best


def test_s8_1_hand_limit_only_in_phase4():
    s = fresh(2, ["witch", "elf"])               # hand limit 4
    set_hand(s, 0, cards="5 6 7 8g 9g 10w", dust=17)
    assert not s.pending
    act(s, "buy opal inactive")                  # phase 3 goes on normally
    assert s.current_player == 0 and not s.pending


def test_s8_1_default_discard_keeps_the_best():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="5 6 7 8g 9g", dust=0)
    clear_gems(s, 0)                                 # no income in round 2
    act(s, "end")
    act(s, "end")
    assert s.pending.items == [D.discard(0)] and s.current_player == 0
    assert texts(s) == ["discard"]
    act(s, "discard")
    p = s.players[0]
    assert s.round == 2
    assert sorted(k >> 2 for k in p.cards) == [6, 7, 8, 9] and p.dust == 0


@pytest.mark.parametrize("whole_tokens", [True, False])
@pytest.mark.parametrize("cards,conc,dust,limit_extra", [
    ("5 6 7 8g 9g", (0, 0, 0, 0), 0, 0),
    ("3 10w 17r", (1, 0, 0, 0), 17, 0),
    ("", (0, 0, 0, 0), 17, 0),
    ("", (0, 0, 0, 0), 25, 0),
    ("", (0, 0, 0, 0), 20, 0),
    ("4 4", (0, 1, 0, 1), 9, 0),
    ("12w 12w 12w", (2, 0, 0, 0), 5, 3),
    ("16r 15r 14r 13r 12w", (0, 0, 1, 1), 33, 3),
    ("9g", (0, 0, 0, 0), 30, 3),
])
def test_s8_1_default_discard_matches_brute_force(cards, conc, dust, limit_extra, whole_tokens):
    s = fresh(2, ["witch", "elf"], whole_dust_tokens=whole_tokens)
    if limit_extra:
        give_art(s, 0, BALL)
    set_hand(s, 0, cards=cards, dust=dust, conc=conc)
    clear_gems(s, 0)                             # no income afterwards: the hand after phase 4 stays visible
    p = s.players[0]
    limit = obs_player(s, 0)["hand_limit"]
    assert limit == 4 + limit_extra
    vals = [k >> 2 for k in p.cards]
    over = card_units_of_hand(p.cards, p.conc, p.dust) > limit
    best = brute_keep(vals, list(conc), dust, limit, whole_tokens)
    act(s, "end", "end")
    if over:
        assert s.pending.items == [D.discard(0)]
        act(s, "discard")
    assert s.round == 2 and not s.pending
    assert card_units_of_hand(p.cards, p.conc, p.dust) <= limit
    assert energy(p) == best


def test_s8_1_explicit_discard():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="5 6 7 8g 9g", dust=12)     # 5 cards + 12 dust (10+2: 4 units) = 9 > 4
    clear_gems(s, 0)
    act(s, "end", "end")
    illegal(s, "discard 5", "8.1")                   # still 8
    illegal(s, "discard 11", "8.1")                  # not held
    illegal(s, "discard d13", "8.1")                 # only 12 dust
    act(s, "discard 5 6 9g d12")
    p = s.players[0]
    assert sorted(k >> 2 for k in p.cards) == [7, 8] and p.dust == 0


def test_s8_1_explicit_discard_may_exchange_dust_down():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="5 6 7", dust=17)           # 3 + 6 = 9 units, limit 4
    clear_gems(s, 0)
    act(s, "end", "end")
    act(s, "discard 5 6 7 d5")                       # keep 12 = 10 + 2: 4 units
    assert s.players[0].dust == 12 and s.players[0].cards == []


def test_s8_1_dust_goes_back_as_whole_tokens():
    # 20 dust is two 10-tokens (6 units); the witch's limit is 4. Tokens are only exchanged upwards, so
    # she cannot keep 12 (a 10 and a 2 would need a 10 broken): she keeps one 10.
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=20)
    clear_gems(s, 0)
    act(s, "end", "end")
    assert s.pending.top == D.discard(0)
    default = s.hints(0)["discard"]                       # the engine's default, offered as a hint
    assert default["dust_kept"] == 10 and default["text"] == "discard d10"
    e = illegal(s, "discard d8", "8.1")                   # would keep 12
    assert "10 10" in str(e)
    illegal(s, "discard d6", "8.1")                       # would keep 14
    act(s, "discard")
    assert s.players[0].dust == 10 and s.round == 2


def test_s8_1_whole_tokens_may_be_exchanged_upwards_before_discarding():
    # 13 dust is 5+2+2+2+2 (6 units), limit 4: 5+2+2+2 go up into one 10 (1 lost), and a 2 stays: 12
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=13)
    clear_gems(s, 0)
    act(s, "end", "end")
    act(s, "discard")
    assert s.players[0].dust == 12


def test_s8_1_explicit_discard_of_whole_tokens():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=20)
    clear_gems(s, 0)
    act(s, "end", "end")
    act(s, "discard d10")
    assert s.players[0].dust == 10


def test_s8_1_dust_split_freely_with_the_option_off():
    # the integer model of 7.6 applied to the discard too: from 20 dust she keeps 12 (10 + 2, 4 units)
    s = fresh(2, ["witch", "elf"], whole_dust_tokens=False)
    set_hand(s, 0, dust=20)
    clear_gems(s, 0)
    act(s, "end", "end")
    c = s.clone()
    act(c, "discard")
    assert c.players[0].dust == 12
    act(s, "discard d8")
    assert s.players[0].dust == 12


def test_s8_1_items_under_the_turn_order_card_do_not_count():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="5 6 7 8g")
    s.players[0].under_cards = sorted([take_card(s, 10, WHITE), take_card(s, 11, WHITE), take_card(s, 12, WHITE)])
    s.players[0].under_dust = 20
    clear_gems(s, 0)
    act(s, "end", "end")
    assert s.round == 2 and not s.pending
    p = s.players[0]
    assert len(p.cards) == 7 and p.dust == 20 and p.under_cards == [] and p.under_dust == 0


def test_s8_1_within_the_limit_no_decision():
    s = fresh(2, ["mage", "elf"])
    set_hand(s, 0, cards="5 6 7 8g 9g 10w")          # 6 = the mage's limit
    act(s, "end", "end")
    assert s.round == 2


def test_s8_1_discards_go_to_their_discard_piles():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="3 4 5 6 7")
    clear_gems(s, 0)
    disc = sum(s.disc[BLUE])
    act(s, "end", "end", "discard")
    assert sum(s.disc[BLUE]) == disc + 1


# --- 8.2 victory points -------------------------------------------------------------------------------------
def test_s8_2_vp_from_scratch():
    s = fresh(2, ["witch", "elf"])
    p = s.players[0]
    clear_gems(s, 0)
    give_gem(s, 0, OPAL, 1)
    give_gem(s, 0, SAPPHIRE, 1)
    give_gem(s, 0, EMERALD, 1)
    give_gem(s, 0, DIAMOND, 1)
    give_gem(s, 0, RUBY, 1)
    give_gem(s, 0, RUBY, 2, active=False)            # inactive: 0
    give_gem(s, 0, DIAMOND, 2, active=False)
    set_level(s, 0, 0, 4)
    set_level(s, 0, 2, 4)
    set_level(s, 0, 3, 3)
    give_art(s, 0, PROTECTION)
    give_art(s, 0, CHALICE)
    give_sentinel(s, 0, PHOENIX)
    set_hand(s, 0, cards="17r", dust=40, conc=(0, 0, 0, 1))   # energy scores nothing
    end_round(s)
    expected = (1 + 1 + 2 + 2 + 3) + 2 * 2 + (2 + 4) + (5 + 10)
    assert p.vp == expected == spec_vp(p)
    assert s.scores()[0] == expected


def test_s8_2_vp_can_go_down():
    s = fresh(2, ["witch", "elf"])
    give_art(s, 0, TALISMAN)
    end_round(s)
    assert s.players[0].vp == 11
    set_order(s, [0, 1])
    act(s, "sell active sapphire", "deactivate opal")
    end_round(s)
    assert s.players[0].vp == 9


# --- 8.3 end of the game ------------------------------------------------------------------------------------
def test_s8_3_game_ends_after_the_round_with_5_sentinels_sold():
    s = fresh(3, ["witch", "elf", "druid"])
    for sid in range(4):
        give_sentinel(s, 1, sid)
    set_hand(s, 0, dust=200)
    set_hand(s, 2, dust=300)
    act(s, "auction unicorn", "bid 120", "pass", "pass", "pay")
    assert s.sent_sold == 5 and not s.is_terminal()
    act(s, "end", "end")                             # seat 1's turn
    assert s.current_player == 2 and not s.is_terminal()
    act(s, "auction tomcat", "bid 120", "pass", "pass", "pay")   # more may be sold in the final round
    act(s, "end")
    while s.pending:
        act(s, "discard")
    assert s.is_terminal() and s.end_reason == "sentinels" and s.round == 1
    assert s.sent_sold == 6
    vps = [spec_vp(p) for p in s.players]
    assert s.scores() == vps
    assert s.winners() == [i for i, v in enumerate(vps) if v == max(vps)] == [1]


def test_s8_3_four_sentinels_do_not_end_the_game():
    s = fresh(2, ["witch", "elf"])
    for sid in range(4):
        give_sentinel(s, 0, sid)
    end_round(s)
    assert not s.is_terminal() and s.round == 2


def test_s8_3_ties_share_the_victory():
    s = fresh(3, ["witch", "elf", "druid"])
    for sid in range(5):
        give_sentinel(s, 2, sid)
    give_art(s, 0, TALISMAN)
    give_art(s, 1, TALISMAN)
    clear_gems(s, 2)
    end_round(s)
    # seat 2: 5 sentinels: 5*5 + phoenix 0 + owl 0 + fox 0 + toad 0 + unicorn 0 = 25; seats 0, 1: 3 + 8 = 11
    assert [p.vp for p in s.players] == [11, 11, 25]
    assert s.is_terminal() and s.winners() == [2]


def test_s8_3_tie_for_first_two_winners():
    s = fresh(2, ["witch", "elf"])
    for sid in range(5):
        give_sentinel(s, sid % 2, sid)
    give_art(s, 1, TALISMAN)
    end_round(s)
    # seat 0: 3 + phoenix 5+4 (2 types) + fox 5+2 + unicorn 5 = 24; seat 1: 3 + 8 + owl 5 + toad 5 = 21
    assert [p.vp for p in s.players] == [24, 21]
    assert s.winners() == [0]
    s2 = fresh(2, ["witch", "elf"])
    for sid in (0, 2):
        give_sentinel(s2, 0, sid)
    for sid in (5, 6, 7):
        give_sentinel(s2, 1, sid)
    # seat 0: 3 + (5 + 4) + (5 + 2) = 19; seat 1: 3 + tomcat (5 + 4) + scarab 5 + raven 5 = 22
    give_art(s2, 0, SPELLBOOK)
    give_art(s2, 0, RUNESTONE)
    give_art(s2, 0, BALL)
    end_round(s2)
    assert [p.vp for p in s2.players] == [22, 22]
    assert s2.is_terminal() and s2.winners() == [0, 1]


# --- max_rounds ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("rounds", [1, 3])
def test_max_rounds_ends_after_that_round(rounds):
    s = fresh(2, ["witch", "elf"], max_rounds=rounds)
    give_art(s, 1, TALISMAN)
    for _ in range(rounds):
        assert not s.is_terminal()
        set_hand(s, 0, cards="5 6 7 8g 9g")
        end_round(s)
    assert s.is_terminal() and s.round == rounds and s.end_reason == "max_rounds"
    assert s.players[0].hand_count() <= 4             # phase 4 was played
    assert s.winners() == [1] and s.scores() == [3, 11]
    assert s.legal_actions() == [] and s.current_player is None
    illegal(s, "end")


def test_max_rounds_option_validation():
    for bad in (0, -1, True, 2.5, "3"):
        with pytest.raises(grimoire.GameConfigError):
            new(2, max_rounds=bad)


def test_s4_phases_in_order_each_round():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="5 6 7 8g 9g")
    obs = s.observation(0)
    assert obs["zavandor"]["stage"].startswith("phase 3") and obs["round"] == 1
    act(s, "end", "end")
    obs = s.observation(0)
    assert obs["zavandor"]["stage"].startswith("phase 4") and obs["zavandor"]["decision"]["kind"] == "discard"
    act(s, "discard")
    obs = s.observation(0)
    assert obs["round"] == 2 and obs["zavandor"]["stage"].startswith("phase 3")


def test_s3_characters_option_validation():
    for bad in (["witch"], ["witch", "witch"], ["witch", "wizard"], "witch", [1, 2]):
        with pytest.raises(grimoire.GameConfigError):
            grimoire.new_game("zavandor", players=2, seed=1, characters=bad)
    s = grimoire.new_game("zavandor", players=2, seed=1, characters="kobold, fairy")
    assert [CHARS[p.char] for p in s.players] == ["kobold", "fairy"]


def test_s3_every_player_count_and_character_combination_starts():
    for n in range(2, 7):
        for chars in itertools.islice(itertools.permutations(CHARS, n), 3):
            s = new(n, chars, seed=n)
            assert [CHARS[p.char] for p in s.players] == list(chars)
            assert not s.is_terminal() and s.legal_actions()
    for bad in (1, 7):
        with pytest.raises(grimoire.GameConfigError):
            grimoire.new_game("zavandor", players=bad, seed=1)


# --- 1 / 14.27 deck exhaustion ---------------------------------------------------------------------------------
def test_s1_empty_deck_reshuffles_its_discard_pile():
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 1)
    for i, n in enumerate(s.deck[BLUE]):           # every blue card not in a hand lies in the discard pile
        s.disc[BLUE][i] += n
        s.deck[BLUE][i] = 0
    end_round(s)
    p = s.players[0]
    assert [k & 3 for k in p.cards] == [BLUE]        # drawn from the reshuffled discards
    assert sum(s.deck[BLUE]) + sum(s.disc[BLUE]) == 29


def test_s1_no_card_when_deck_and_discards_are_empty():
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 1)
    # every blue card waits under seat 1's turn-order card (it does not count for this round's hand limit)
    s.players[1].under_cards = sorted(take_card(s, v, BLUE) for v, n in SPEC_CARDS[BLUE].items() for _ in range(n))
    end_round(s)
    assert len(s.players[1].cards) == 30
    assert s.players[0].cards == [] and s.players[0].dust == 5      # his sapphire finds no card to draw
    assert sum(s.deck[BLUE]) + sum(s.disc[BLUE]) == 0
