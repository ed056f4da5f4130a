"""Sections 2.8, 11 (artifacts), 2.9 and 12 (sentinels) of the Zavandor spec."""

import pytest

from grimoire.games.zavandor import decisions as D

from .helpers import (
    ACCUM,
    ARTS,
    ARTS_T,
    BALL,
    BELT,
    BLUE,
    CHALICE,
    CLOAK,
    DIAMOND,
    ELIXIR,
    EMERALD,
    FIRE,
    FLOW,
    FOX,
    GEMS_T,
    GREEN,
    MASK,
    MIRROR,
    OPAL,
    OWL,
    PHOENIX,
    PROTECTION,
    RAVEN,
    RED,
    RUBY,
    RUNESTONE,
    SAGES,
    SALAMANDER,
    SAPPHIRE,
    SCARAB,
    SENTS,
    SPEC_ART,
    SPEC_TOKENS,
    SPELLBOOK,
    TALISMAN,
    TOAD,
    TOMCAT,
    UNICORN,
    WAND,
    act,
    clear_gems,
    end_round,
    energy,
    fresh,
    give_art,
    give_gem,
    give_pentagon_token,
    give_sentinel,
    illegal,
    obs_player,
    set_display,
    set_hand,
    set_level,
    set_order,
    spec_vp,
    texts,
)


def win(s, item: str, bid: int, pay: bool = True) -> None:
    """The active player opens an auction with this bid, everybody else passes, he pays by default."""
    act(s, f"auction {item}", f"bid {bid}")
    while s.pending and s.pending.top.kind == "bid":
        s.apply("pass")
    if pay:
        assert s.pending and s.pending.top.kind == "apay", s.pending
        s.apply("pay")


def resolve_effects(s) -> None:
    """Decline free advances, take the cheapest free token, lose the first listed gem."""
    while s.pending:
        kind = s.pending.top.kind
        if kind == "free":
            s.apply("skip")
        elif kind in ("ftoken", "lose"):
            s.apply(texts(s)[0])
        else:
            break


# --- 2.8 minimum bids and VP --------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", range(12))
def test_s2_8_artifact_min_bid_and_vp(kind):
    s = fresh(2, ["witch", "elf"])
    set_display(s, [kind])
    set_hand(s, 0, dust=300)
    act(s, f"auction {ARTS[kind]}")
    mn = SPEC_ART[kind][1]
    bids = [t for t in texts(s) if t.startswith("bid ")]
    assert bids[0] == f"bid {mn}"
    assert "pass" not in texts(s)
    illegal(s, f"bid {mn - 1}", "7.4")
    illegal(s, "pass", "7.4")
    act(s, f"bid {mn}", "pass", "pay")
    p = s.players[0]
    assert p.arts[kind] == 1 and kind not in s.display
    assert energy(p) == 300 - mn
    resolve_effects(s)
    clear_gems(s, 1)                      # keep seat 1 from interfering; seat 0 keeps its 3 gems
    end_round(s)
    assert p.vp == 3 + SPEC_ART[kind][2]


def test_s2_8_artifact_vp_table():
    assert [SPEC_ART[k][2] for k in range(12)] == [1, 1, 1, 2, 2, 2, 2, 3, 3, 4, 5, 8]
    s = fresh(2, ["witch", "elf"])
    for k in range(12):
        give_art(s, 0, k)
    clear_gems(s, 0)
    end_round(s)
    assert s.players[0].vp == 34


# --- free advances (Runestone, Mask, Talisman) --------------------------------------------------------------
@pytest.mark.parametrize("kind", [RUNESTONE, MASK])
def test_s2_8_free_advance_is_free_and_not_the_paid_advance(kind):
    s = fresh(2, ["witch", "elf"])
    set_display(s, [kind])
    set_hand(s, 0, dust=300)
    act(s, "advance gems", "pay")                   # 3b: the paid advance of the round (1 -> 2)
    assert s.players[0].dust == 296
    illegal(s, "advance gems")
    win(s, ARTS[kind], SPEC_ART[kind][1])
    assert s.pending.top.kind == "free" and s.current_player == 0
    assert set(texts(s)) == {"advance gems", "skip"}  # no token on another track, none on the pentagon
    before = energy(s.players[0])
    act(s, "advance gems")
    p = s.players[0]
    assert p.levels[GEMS_T] == 3
    assert energy(p) == before
    assert not s.pending


@pytest.mark.parametrize("kind", [RUNESTONE, MASK])
def test_s2_8_free_advance_leaves_the_paid_advance_available(kind):
    s = fresh(2, ["witch", "elf"], strict_subphases=True)
    set_display(s, [kind])
    set_hand(s, 0, dust=300)
    win(s, ARTS[kind], SPEC_ART[kind][1])
    act(s, "advance gems")
    assert s.players[0].levels[GEMS_T] == 2
    assert "advance gems" in texts(s)               # 3b after 3c: the paid advance is still there
    act(s, "advance gems")
    assert s.players[0].levels[GEMS_T] == 3


def test_s2_8_free_advance_is_optional():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [RUNESTONE])
    set_hand(s, 0, dust=300)
    win(s, "runestone", 20)
    act(s, "skip")
    assert s.players[0].levels == [1, 0, 0, 0, 0, 0] and not s.pending


def test_s11_free_advance_moves_a_token_already_on_a_track():
    # HU: the owner "may push one of his tokens one level up" — a token on a track, not a new one
    s = fresh(2, ["witch", "elf"])
    set_display(s, [RUNESTONE])
    set_hand(s, 0, dust=300)
    give_pentagon_token(s, 0, 40)
    set_level(s, 0, FIRE, 2)
    win(s, "runestone", 20)
    assert set(texts(s)) == {"advance gems", "advance fire", "skip"}     # the witch starts on Gems (2.7)
    illegal(s, "advance accumulation", "11")
    act(s, "advance fire")
    p = s.players[0]
    assert p.levels[FIRE] == 3 and p.levels[ACCUM] == 0 and p.pentagon == 1
    assert p.dust == 280 and not p.advanced                # nothing paid, the paid advance still free
    assert not s.pending


def test_s11_free_advance_with_only_a_pentagon_token_and_no_track_to_raise_is_lost():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [RUNESTONE])
    set_hand(s, 0, dust=300)
    set_level(s, 0, GEMS_T, 4)                             # her only track is full
    give_pentagon_token(s, 0, 40)
    win(s, "runestone", 20)
    assert not s.pending and s.players[0].pentagon == 1    # no legal advance: lost (11)


def test_s2_8_free_advance_places_a_pentagon_token_with_the_option():
    s = fresh(2, ["witch", "elf"], free_advance_new_track=True)
    set_display(s, [RUNESTONE])
    set_hand(s, 0, dust=300)
    give_pentagon_token(s, 0, 40)
    limit = obs_player(s, 0)["hand_limit"]
    win(s, "runestone", 20)
    assert set(texts(s)) == {f"advance {t}" for t in
                             ["gems", "flow", "fire", "sages", "artifacts", "accumulation"]} | {"skip"}
    act(s, "advance accumulation")
    p = s.players[0]
    assert p.levels[ACCUM] == 1 and p.pentagon == 0
    assert obs_player(s, 0)["hand_limit"] == limit + 1    # entering triggers the entry modifier
    assert p.dust == 280                                   # nothing paid for the level


def test_s2_8_free_advance_cannot_go_beyond_level_4_and_is_lost_if_impossible():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [RUNESTONE])
    set_hand(s, 0, dust=300)
    set_level(s, 0, GEMS_T, 4)
    win(s, "runestone", 20)
    assert not s.pending                                  # no legal advance: lost
    assert s.current_player == 0 and s.players[0].levels[GEMS_T] == 4


def test_s2_8_talisman_one_track_plus_two():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [TALISMAN])
    set_hand(s, 0, dust=300)
    win(s, "talisman", 100)
    act(s, "advance gems", "advance gems")
    assert s.players[0].levels[GEMS_T] == 3 and not s.pending
    assert s.players[0].dust == 200


def test_s2_8_talisman_two_tracks_plus_one_each():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [TALISMAN])
    set_hand(s, 0, dust=300)
    set_level(s, 0, FIRE, 1)
    win(s, "talisman", 100)
    act(s, "advance fire", "advance gems")
    p = s.players[0]
    assert p.levels[FIRE] == 2 and p.levels[GEMS_T] == 2
    assert not s.pending and not p.advanced


def test_s2_8_talisman_may_enter_a_new_track_with_the_option():
    s = fresh(2, ["witch", "elf"], free_advance_new_track=True)
    set_display(s, [TALISMAN])
    set_hand(s, 0, dust=300)
    give_pentagon_token(s, 0, 20)
    win(s, "talisman", 100)
    act(s, "advance fire", "advance gems")
    p = s.players[0]
    assert p.levels[FIRE] == 1 and p.levels[GEMS_T] == 2 and p.pentagon == 0
    assert not s.pending and not p.advanced


def test_s2_8_talisman_stops_at_level_4():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [TALISMAN])
    set_hand(s, 0, dust=300)
    set_level(s, 0, GEMS_T, 3)
    set_level(s, 0, FLOW, 1)
    win(s, "talisman", 100)
    act(s, "advance gems")
    assert s.players[0].levels[GEMS_T] == 4
    assert "advance gems" not in texts(s)
    illegal(s, "advance gems", "2.6")
    act(s, "advance flow")
    assert s.players[0].levels[FLOW] == 2


# --- Belt and Wand ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", [BELT, WAND])
def test_s2_8_belt_wand_slots_and_one_per_player(kind):
    s = fresh(3, ["witch", "elf", "druid"])
    set_display(s, [kind, kind])
    set_hand(s, 0, dust=300)
    give_gem(s, 0, OPAL, 4, active=False)
    limit = obs_player(s, 0)["hand_limit"]
    win(s, ARTS[kind], SPEC_ART[kind][1])
    assert obs_player(s, 0)["slots"] == 7
    assert obs_player(s, 0)["hand_limit"] == limit + (3 if kind == WAND else 0)
    # effects apply at once: the two new slots can be filled now
    act(s, "activate opal", "activate opal", "activate opal", "activate opal")
    assert sum(s.players[0].active) == 7
    illegal(s, "activate opal", "7.2")
    # a second one may not be auctioned by its owner
    assert f"auction {ARTS[kind]}" not in texts(s)
    illegal(s, f"auction {ARTS[kind]}", "7.4")


@pytest.mark.parametrize("kind", [BELT, WAND])
def test_s2_8_belt_wand_owner_skipped_in_bidding(kind):
    s = fresh(3, ["witch", "elf", "druid"])
    set_display(s, [kind])
    for seat in range(3):
        set_hand(s, seat, dust=300)
    give_art(s, 1, kind)                            # seat 1 already owns one
    act(s, f"auction {ARTS[kind]}", f"bid {SPEC_ART[kind][1]}")
    assert s.current_player == 2                     # seat 1 is skipped
    act(s, "bid 100")
    assert s.current_player == 0
    act(s, "pass")
    assert s.pending.top.kind == "apay" and s.current_player == 2
    act(s, "pay")
    assert s.players[2].arts[kind] == 1 and s.players[1].arts[kind] == 1


# --- Mirror and Cloak ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", [MIRROR, CLOAK])
def test_s2_8_mirror_cloak_opener_needs_an_active_gem(kind):
    s = fresh(2, ["witch", "elf"])
    set_display(s, [kind])
    set_hand(s, 0, dust=300)
    clear_gems(s, 0)
    give_gem(s, 0, OPAL, 1, active=False)
    assert f"auction {ARTS[kind]}" not in texts(s)
    illegal(s, f"auction {ARTS[kind]}", "11")
    act(s, "activate opal")
    assert f"auction {ARTS[kind]}" in texts(s)


@pytest.mark.parametrize("kind", [MIRROR, CLOAK])
def test_s2_8_mirror_cloak_bidders_need_no_active_gem(kind):
    s = fresh(2, ["witch", "elf"])
    set_display(s, [kind])
    set_hand(s, 0, dust=300)
    set_hand(s, 1, dust=300)
    clear_gems(s, 1)
    mn = SPEC_ART[kind][1]
    act(s, f"auction {ARTS[kind]}", f"bid {mn}")
    assert s.current_player == 1 and f"bid {mn + 1}" in texts(s)
    act(s, f"bid {mn + 1}", "pass", "pay")
    assert s.players[1].arts[kind] == 1


@pytest.mark.parametrize("kind", [MIRROR, CLOAK])
def test_s2_8_mirror_cloak_free_token_chosen_by_buyer_and_gem_loss(kind):
    s = fresh(4, ["witch", "elf", "druid", "fairy"])
    set_display(s, [kind])
    set_hand(s, 0, dust=300)
    give_pentagon_token(s, 0, 25)
    # seat 1: opal + sapphire active; seat 2: no active gem (one inactive); seat 3: the usual 2 opals + sapphire
    clear_gems(s, 1)
    give_gem(s, 1, OPAL)
    give_gem(s, 1, SAPPHIRE)
    clear_gems(s, 2)
    give_gem(s, 2, EMERALD, active=False)
    supply = s.gem_supply[:]
    win(s, ARTS[kind], SPEC_ART[kind][1])
    p = s.players[0]
    e = energy(p)
    decided = []
    while s.pending:
        kind_d, seat = s.pending.top.kind, s.pending.top.seat
        decided.append((kind_d, seat))
        if kind_d == "ftoken":
            assert seat == 0
            # any unbought token, or none: the buyer "may" place one (11)
            assert set(texts(s)) == {"token 20", "token 30", "token 35", "token 40", "skip"}
            act(s, "token 30")                    # the buyer's choice, not necessarily the dearest
        else:
            assert kind_d == "lose"
            if seat == 1:
                assert set(texts(s)) == {"lose opal", "lose sapphire"}
                illegal(s, "lose emerald", "11")
                act(s, "lose sapphire")          # the victim's choice
            else:
                assert seat == 3
                act(s, "lose opal")
    assert sorted(decided) == [("ftoken", 0), ("lose", 1), ("lose", 3)]
    assert p.tokens == [20, 35, 40] and p.pentagon == 2 and energy(p) == e
    assert p.active == [2, 1, 0, 0, 0]           # the buyer loses nothing
    assert s.players[1].active == [1, 0, 0, 0, 0]
    assert s.players[2].inactive[EMERALD] == 1   # inactive gems are safe
    assert s.players[3].active == [1, 1, 0, 0, 0]
    assert s.gem_supply[OPAL] == supply[OPAL] + 1 and s.gem_supply[SAPPHIRE] == supply[SAPPHIRE] + 1
    assert s.current_player == 0 and not s.pending


@pytest.mark.parametrize("kind", [MIRROR, CLOAK])
def test_s11_the_free_token_may_be_declined(kind):
    # HU: the buyer "ingyen leteheti" (may place for free) one unused token on his pentagon
    s = fresh(3, ["witch", "elf", "druid"])
    set_display(s, [kind])
    set_hand(s, 0, dust=300)
    win(s, ARTS[kind], SPEC_ART[kind][1])
    p = s.players[0]
    assert s.pending.top == D.ftoken(0) and "skip" in texts(s)
    illegal(s, "lose opal")                       # not his decision now
    act(s, "skip")
    assert p.tokens == SPEC_TOKENS and p.pentagon == 0     # nothing taken, nothing paid
    # the other half of the effect still happens: each other player gives up an active gem
    assert [d.kind for d in s.pending] == ["lose", "lose"]
    act(s, "lose opal", "lose opal")
    assert s.current_player == 0 and not s.pending
    assert s.players[1].active[OPAL] == 1 and s.players[2].active[OPAL] == 1
    illegal(s, "skip")                            # outside a free decision there is nothing to decline


def test_s2_8_mirror_with_all_tokens_bought_gives_no_token():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [MIRROR])
    set_hand(s, 0, dust=300)
    for price in [20, 25, 30, 35, 40]:
        give_pentagon_token(s, 0, price)
    win(s, "mirror", 40)
    assert [d.kind for d in s.pending] == ["lose"]
    act(s, "lose opal")
    assert s.players[0].pentagon == 5 and not s.pending


def test_s2_8_mirror_free_token_placing_costs_level1_and_is_the_paid_advance():
    s = fresh(2, ["witch", "elf"], strict_subphases=False)
    set_display(s, [MIRROR])
    set_hand(s, 0, dust=300)
    win(s, "mirror", 40)
    resolve_effects(s)
    assert s.players[0].pentagon == 1
    dust = s.players[0].dust
    act(s, "advance fire", "pay")
    p = s.players[0]
    assert p.levels[FIRE] == 1 and p.dust == dust - 5 and p.advanced
    illegal(s, "advance gems", "7.3")


def test_s2_8_mirror_bought_by_a_non_active_player_hits_the_active_player():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [MIRROR])
    set_hand(s, 0, dust=300)
    set_hand(s, 1, dust=300)
    act(s, "auction mirror", "bid 40", "bid 41", "pass", "pay")
    assert s.pending.top == D.ftoken(1)
    act(s, "token 40")
    assert s.pending.top == D.lose(0)
    act(s, "lose sapphire")
    assert s.players[0].active == [2, 0, 0, 0, 0]
    assert s.current_player == 0 and not s.pending


# --- income artifacts ---------------------------------------------------------------------------------------
def test_s2_8_protection_gives_a_green_card_each_income():
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 0)
    give_art(s, 0, PROTECTION)
    end_round(s)
    p = s.players[0]
    assert [k & 3 for k in p.cards] == [GREEN] and p.conc == [0, 0, 0, 0] and p.dust == 0


def test_s2_8_protection_combines_with_three_emeralds_into_concentration():
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 0)
    give_gem(s, 0, EMERALD, 3)
    give_art(s, 0, PROTECTION)
    green_deck = sum(s.deck[GREEN])
    end_round(s)
    p = s.players[0]
    assert p.conc == [0, 1, 0, 0] and p.cards == [] and p.dust == 2
    assert sum(s.deck[GREEN]) == green_deck          # the replaced cards are not drawn
    assert p.vp == 6 + 2                             # protection is not an emerald: only its own 2 VP


def test_s2_8_chalice_gives_a_red_card_each_income_and_is_not_a_ruby():
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 0)
    give_gem(s, 0, RUBY, 3)
    give_art(s, 0, CHALICE)
    end_round(s)
    p = s.players[0]
    assert p.conc == [0, 0, 0, 1] and p.cards == [] and p.dust == 2
    assert p.vp == 9 + 4


def test_s2_8_chalice_alone_gives_one_red_card():
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 0)
    give_art(s, 0, CHALICE)
    end_round(s)
    assert [k & 3 for k in s.players[0].cards] == [RED]


def test_s2_8_elixir_free_diamond_to_pentagon():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [ELIXIR])
    set_hand(s, 0, dust=300)
    supply = s.gem_supply[DIAMOND]
    win(s, "elixir", 60)
    p = s.players[0]
    assert p.inactive[DIAMOND] == 1 and p.active[DIAMOND] == 0
    assert s.gem_supply[DIAMOND] == supply - 1
    assert p.dust == 240
    act(s, "activate diamond")                       # during his own turn
    assert p.active[DIAMOND] == 1
    assert "buy diamond inactive" in texts(s)        # and he may buy diamonds now


def test_s2_8_elixir_won_outside_own_turn_diamond_waits_on_pentagon():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [ELIXIR])
    set_hand(s, 0, dust=300)
    set_hand(s, 1, dust=300)
    act(s, "auction elixir", "bid 60", "bid 61", "pass", "pay")
    assert s.players[1].inactive[DIAMOND] == 1
    assert s.current_player == 0
    assert "activate diamond" not in texts(s)
    act(s, "end")
    assert s.current_player == 1
    act(s, "activate diamond")
    assert s.players[1].active[DIAMOND] == 1


def test_s2_8_elixir_with_empty_diamond_supply_gives_none():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [ELIXIR])
    set_hand(s, 0, dust=300)
    give_gem(s, 1, DIAMOND, 24, active=False)
    win(s, "elixir", 60)
    assert s.players[0].inactive[DIAMOND] == 0 and s.gem_supply[DIAMOND] == 0


# --- discounts ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("owned,item,per_copy", [
    (BALL, ELIXIR, 5), (RUNESTONE, CHALICE, 10), (SPELLBOOK, CLOAK, 15),
])
@pytest.mark.parametrize("copies", [1, 2, 3])
def test_s2_8_artifact_discounts_stack(owned, item, per_copy, copies):
    s = fresh(6, ["witch", "elf", "druid", "fairy", "mage", "kobold"])
    set_display(s, [item])
    set_hand(s, 0, dust=400)
    give_art(s, 0, owned, copies)
    mn = SPEC_ART[item][1]
    win(s, ARTS[item], mn)
    resolve_effects(s)
    assert s.players[0].arts[item] == 1
    assert energy(s.players[0]) == 400 - (mn - per_copy * copies)


@pytest.mark.parametrize("owned,item", [(BALL, CHALICE), (RUNESTONE, CLOAK), (SPELLBOOK, ELIXIR),
                                        (MASK, TALISMAN)])
def test_s2_8_discounts_apply_only_to_their_item(owned, item):
    s = fresh(2, ["witch", "elf"])
    set_display(s, [item])
    set_hand(s, 0, dust=400)
    give_art(s, 0, owned)
    mn = SPEC_ART[item][1]
    win(s, ARTS[item], mn)
    resolve_effects(s)
    assert energy(s.players[0]) == 400 - mn


@pytest.mark.parametrize("masks", [1, 2, 3])
def test_s2_8_mask_discount_on_every_sentinel(masks):
    s = fresh(6, ["witch", "elf", "druid", "fairy", "mage", "kobold"])
    set_hand(s, 0, dust=400)
    give_art(s, 0, MASK, masks)
    win(s, "owl", 130)
    assert s.players[0].sents == [OWL]
    assert energy(s.players[0]) == 400 - (130 - 20 * masks)


def test_s2_8_discounts_stack_with_knowledge_and_turn_order_card():
    # 6 players, seat 0 holds card VI (-10 artifacts when the leader has >= 10 VP), Artifacts level 4 (-10),
    # 3 Crystal Balls (-15) on an Elixir bid of 75: price 75 - 10 - 10 - 15 = 40
    s = fresh(6, ["witch", "elf", "druid", "fairy", "mage", "kobold"])
    set_order(s, [1, 2, 3, 4, 5, 0], art_mod=[-10, 10, 5, 0, 0, -5], sent_mod=[-20, 20, 10, 0, 0, -10])
    s.turn_idx = 5
    set_display(s, [ELIXIR])
    set_hand(s, 0, dust=400)
    set_level(s, 0, ARTS_T, 4)
    give_art(s, 0, BALL, 3)
    win(s, "elixir", 75)
    assert energy(s.players[0]) == 400 - 40


# --- 2.9 / 12 sentinels -------------------------------------------------------------------------------------
def _scored(s, seat=0):
    clear_gems(s, 1)
    end_round(s)
    return s.players[seat].vp


def test_s2_9_phoenix_two_per_active_gem_type_cap_10():
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 0)
    for g in range(5):
        give_gem(s, 0, g)
    give_sentinel(s, 0, PHOENIX)
    assert _scored(s) == 9 + 5 + 10


def test_s2_9_phoenix_ignores_inactive_types():
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 0)
    give_gem(s, 0, OPAL, 2)
    give_gem(s, 0, SAPPHIRE)
    give_gem(s, 0, EMERALD, active=False)
    give_gem(s, 0, DIAMOND, active=False)
    give_art(s, 0, PROTECTION)                     # not an emerald: no type
    give_sentinel(s, 0, PHOENIX)
    assert _scored(s) == 3 + 2 + 5 + 4


def test_s2_9_owl_two_per_level4_track_cap_12():
    s = fresh(2, ["witch", "elf"])
    for t in range(6):
        set_level(s, 0, t, 4)
    give_sentinel(s, 0, OWL)
    assert _scored(s) == 3 + 12 + 5 + 12


def test_s2_9_owl_counts_only_level_4():
    s = fresh(2, ["witch", "elf"])
    set_level(s, 0, GEMS_T, 4)
    set_level(s, 0, FIRE, 4)
    set_level(s, 0, SAGES, 3)
    give_sentinel(s, 0, OWL)
    assert _scored(s) == 3 + 4 + 5 + 4


@pytest.mark.parametrize("n,bonus", [(5, 10), (6, 12), (7, 12)])
def test_s2_9_fox_two_per_active_sapphire_cap_12(n, bonus):
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 0)
    give_art(s, 0, BELT)
    give_gem(s, 0, SAPPHIRE, n)
    give_gem(s, 0, SAPPHIRE, 1, active=False)
    give_sentinel(s, 0, FOX)
    assert _scored(s) == n + 2 + 5 + bonus


def test_s2_9_toad_two_per_runestone_protection_spellbook_elixir_no_cap():
    s = fresh(6, ["witch", "elf", "druid", "fairy", "mage", "kobold"])
    for k in (RUNESTONE, PROTECTION, SPELLBOOK, ELIXIR):
        give_art(s, 0, k, 3)
    give_art(s, 0, BALL)                          # a Raven artifact: no Toad bonus
    give_sentinel(s, 0, TOAD)
    for seat in range(1, 6):
        clear_gems(s, seat)
    end_round(s)
    assert s.players[0].vp == 3 + (3 + 3 + 6 + 6 + 1) + 5 + 24


def test_s2_9_unicorn_one_per_active_diamond():
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 0)
    give_gem(s, 0, DIAMOND, 3)
    give_gem(s, 0, DIAMOND, 2, active=False)
    give_sentinel(s, 0, UNICORN)
    assert _scored(s) == 6 + 5 + 3


@pytest.mark.parametrize("n,bonus", [(5, 10), (6, 12), (7, 12)])
def test_s2_9_tomcat_two_per_active_opal_cap_12(n, bonus):
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 0)
    give_art(s, 0, BELT)
    give_gem(s, 0, OPAL, n)
    give_sentinel(s, 0, TOMCAT)
    assert _scored(s) == n + 2 + 5 + bonus


def test_s2_9_scarab_one_per_active_emerald_not_protection():
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 0)
    give_gem(s, 0, EMERALD, 3)
    give_gem(s, 0, EMERALD, 1, active=False)
    give_art(s, 0, PROTECTION)
    give_sentinel(s, 0, SCARAB)
    assert _scored(s) == 6 + 2 + 5 + 3


def test_s2_9_raven_two_per_ball_mask_belt_wand_no_cap():
    s = fresh(6, ["witch", "elf", "druid", "fairy", "mage", "kobold"])
    give_art(s, 0, BALL, 3)
    give_art(s, 0, MASK, 3)
    give_art(s, 0, BELT)
    give_art(s, 0, WAND)
    give_art(s, 0, SPELLBOOK)                     # a Toad artifact: no Raven bonus
    give_sentinel(s, 0, RAVEN)
    for seat in range(1, 6):
        clear_gems(s, seat)
    end_round(s)
    assert s.players[0].vp == 3 + (3 + 9 + 2 + 3 + 1) + 5 + 16


@pytest.mark.parametrize("n", [3, 5])
def test_s2_9_salamander_two_per_active_ruby_not_chalice(n):
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 0)
    give_gem(s, 0, RUBY, n)
    give_art(s, 0, CHALICE)
    give_sentinel(s, 0, SALAMANDER)
    assert _scored(s) == 3 * n + 4 + 5 + 2 * n


def test_s2_9_bonus_recomputed_every_phase4():
    s = fresh(2, ["witch", "elf"])
    give_sentinel(s, 0, TOMCAT)
    assert _scored(s) == 3 + 5 + 4
    set_order(s, [0, 1])
    act(s, "deactivate opal")
    end_round(s)
    assert s.players[0].vp == 2 + 5 + 2


def test_s2_9_several_sentinels_each_score():
    s = fresh(2, ["witch", "elf"])
    give_sentinel(s, 0, TOMCAT)
    give_sentinel(s, 0, FOX)
    give_sentinel(s, 0, UNICORN)
    p = s.players[0]
    assert _scored(s) == 3 + (5 + 4) + (5 + 2) + (5 + 0) == spec_vp(p)


def test_s12_all_nine_sentinels_on_offer_from_round_1_at_120():
    s = fresh(2, ["witch", "elf"])
    assert s.observation(0)["zavandor"]["sentinels_available"] == SENTS
    set_hand(s, 0, dust=400)
    assert all(f"auction {x}" in texts(s) for x in SENTS)
    act(s, "auction raven")
    assert [t for t in texts(s) if t.startswith("bid")][0] == "bid 120"
    illegal(s, "bid 119", "7.4")
    act(s, "bid 120", "pass", "pay")
    assert s.players[0].sents == [RAVEN] and s.players[0].dust == 280
    assert "auction raven" not in texts(s)
    illegal(s, "auction raven", "7.4")
    assert s.observation(0)["zavandor"]["sentinels_sold"] == 1


def test_s12_sentinels_have_no_in_game_effect():
    s = fresh(2, ["witch", "elf"])
    before = obs_player(s, 0)
    give_sentinel(s, 0, FOX)
    after = obs_player(s, 0)
    for key in ("slots", "hand_limit", "gem_costs", "sale_values"):
        assert before[key] == after[key]


def test_s2_9_sentinel_price_uses_sentinel_column_discounts():
    s = fresh(2, ["mage", "elf"])
    set_level(s, 0, ARTS_T, 2)
    set_hand(s, 0, dust=400)
    win(s, "phoenix", 120)
    assert s.players[0].dust == 400 - 110


def test_s2_8_income_artifacts_not_counted_as_gems_for_blue_or_opal():
    # sanity: protection/chalice never produce blue cards or dust by themselves
    s = fresh(2, ["witch", "elf"])
    clear_gems(s, 0)
    give_art(s, 0, PROTECTION)
    give_art(s, 0, CHALICE)
    end_round(s)
    assert sorted(k & 3 for k in s.players[0].cards) == [GREEN, RED]
    assert BLUE not in [k & 3 for k in s.players[0].cards] and s.players[0].dust == 0


def test_s2_8_accumulation_independent_of_belt_and_wand():
    s = fresh(2, ["kobold", "elf"])
    set_level(s, 0, ACCUM, 4)
    give_art(s, 0, BELT)
    give_art(s, 0, WAND)
    assert obs_player(s, 0)["slots"] == 11
