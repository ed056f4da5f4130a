"""Sections 7.4 (auctions) and 7.5 (the curse of the 9 Sages) of the Zavandor spec."""

import pytest

from grimoire.games.zavandor import decisions as D

from .helpers import (
    ARTS_T,
    BALL,
    BELT,
    CHALICE,
    ELIXIR,
    EMERALD,
    FOX,
    MASK,
    OPAL,
    OWL,
    PHOENIX,
    RUNESTONE,
    SENTS,
    SPEC_CARDS,
    SPELLBOOK,
    TALISMAN,
    TOAD,
    act,
    clear_gems,
    end_round,
    energy,
    fresh,
    give_art,
    give_gem,
    give_sentinel,
    illegal,
    set_display,
    set_hand,
    set_level,
    set_order,
    texts,
)


def bids_of(s):
    return [int(t.split()[1]) for t in texts(s) if t.startswith("bid ")]


# --- 7.4 auctions -------------------------------------------------------------------------------------------
def test_s7_4_opening_bid_at_least_minimum():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [ELIXIR])
    set_hand(s, 0, dust=300)
    act(s, "auction elixir")
    assert s.current_player == 0 and bids_of(s)[0] == 60
    illegal(s, "bid 59", "7.4")
    illegal(s, "pass", "7.4")
    illegal(s, "end")
    act(s, "bid 75")
    assert s.observation(1)["zavandor"]["auction"]["high_bid"] == 75


def test_s7_4_only_items_on_offer():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [SPELLBOOK, RUNESTONE])
    set_hand(s, 0, dust=300)
    illegal(s, "auction talisman", "7.4")
    give_sentinel(s, 1, OWL)
    illegal(s, "auction owl", "7.4")


def test_s7_4_one_auction_at_a_time():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [SPELLBOOK, RUNESTONE])
    set_hand(s, 0, dust=300)
    act(s, "auction spellbook", "bid 20")
    illegal(s, "auction runestone")
    act(s, "pass", "pay")
    act(s, "auction runestone")                # when it ends, the active player may open another
    assert s.auc is not None


def test_s7_4_bidding_cyclic_in_turn_order_and_passing_is_final():
    s = fresh(4, ["witch", "elf", "druid", "fairy"])
    set_order(s, [2, 0, 3, 1])
    for seat in range(4):
        set_hand(s, seat, dust=300)
    set_display(s, [SPELLBOOK])
    seq = []

    def step(text):
        seq.append(s.current_player)
        s.apply(text)

    act(s, "auction spellbook")
    for text in ["bid 20", "bid 21", "bid 22", "bid 23", "bid 24", "pass", "bid 25", "pass", "bid 30", "pass"]:
        step(text)
    # 2 opens, 0 3 1 raise, 2 raises again (wrap), 0 passes, 3 raises, 1 passes, 2 raises, 0 is out: 3 ...
    assert seq == [2, 0, 3, 1, 2, 0, 3, 1, 2, 3]
    assert s.pending.top == D.won(2, SPELLBOOK)     # 1 and 0 passed earlier, 3 just passed
    act(s, "pay")
    assert s.players[2].arts[SPELLBOOK] == 1 and s.players[2].dust == 270
    assert all(s.players[x].dust == 300 for x in (0, 1, 3))


def test_s7_4_players_who_already_had_their_turn_may_bid():
    s = fresh(3, ["witch", "elf", "druid"])
    set_display(s, [SPELLBOOK])
    act(s, "end")                                     # seat 0's turn is over
    set_hand(s, 0, dust=300)
    set_hand(s, 1, dust=300)
    act(s, "auction spellbook", "bid 20")
    assert s.current_player == 2
    act(s, "pass")
    assert s.current_player == 0                      # wraps round to card I
    act(s, "bid 21", "pass", "pay")
    assert s.players[0].arts[SPELLBOOK] == 1 and s.players[0].dust == 279
    assert s.current_player == 1                      # back to the active player


def test_s7_4_a_raise_must_be_higher():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [SPELLBOOK])
    set_hand(s, 0, dust=300)
    set_hand(s, 1, dust=300)
    act(s, "auction spellbook", "bid 25")
    assert bids_of(s)[0] == 26 and "pass" in texts(s)
    illegal(s, "bid 25", "7.4")
    illegal(s, "bid 24", "7.4")
    act(s, "bid 26")


def test_s7_4_forced_purchase_when_nobody_bids():
    s = fresh(3, ["witch", "elf", "druid"])
    set_display(s, [ELIXIR])
    for seat in range(3):
        set_hand(s, seat, dust=300)
    act(s, "auction elixir", "bid 77", "pass", "pass")
    assert s.pending.top == D.won(0, ELIXIR)
    act(s, "pay")
    assert s.players[0].arts[ELIXIR] == 1 and s.players[0].dust == 300 - 77


def test_s7_4_bids_are_compared_bare_modifiers_only_in_the_price():
    # seat 1 holds card VI (-10, and Artifacts L4 -10), seat 0 card I (+10): the bare bids decide
    s = fresh(6, ["witch", "elf", "druid", "fairy", "mage", "kobold"])
    set_order(s, [0, 2, 3, 4, 5, 1], art_mod=[10, -10, 5, 0, 0, -5], sent_mod=[20, -20, 10, 0, 0, -10])
    set_display(s, [SPELLBOOK])
    set_level(s, 1, ARTS_T, 4)
    set_hand(s, 0, dust=300)
    set_hand(s, 1, dust=300)
    act(s, "auction spellbook", "bid 40", "pass", "pass", "pass", "pass", "bid 41", "pass")
    assert s.pending.top == D.won(1, SPELLBOOK)
    act(s, "pay")
    assert s.players[1].dust == 300 - (41 - 10 - 10)
    act(s, "auction fox", "bid 120", "pass", "pass", "pass", "pass", "pass")
    act(s, "pay")
    assert s.players[0].dust == 300 - 140


def test_s7_4_price_floored_at_zero():
    s = fresh(6, ["witch", "elf", "druid", "fairy", "mage", "kobold"])
    set_order(s, [1, 2, 3, 4, 5, 0], art_mod=[-10, 10, 5, 0, 0, -5], sent_mod=[-20, 20, 10, 0, 0, -10])
    s.turn_idx = 5
    set_display(s, [SPELLBOOK])
    set_level(s, 0, ARTS_T, 4)
    set_hand(s, 0, dust=12)
    act(s, "auction spellbook", "bid 20")
    for _ in range(5):
        act(s, "pass")
    assert s.pending.top == D.won(0, SPELLBOOK)
    assert "pay" in texts(s)
    act(s, "pay")
    p = s.players[0]
    assert p.arts[SPELLBOOK] == 1 and p.dust == 12 and p.active == [2, 1, 0, 0, 0]


def test_s7_4_price_zero_winner_without_gems_can_continue():
    s = fresh(6, ["witch", "elf", "druid", "fairy", "mage", "kobold"])
    set_order(s, [1, 2, 3, 4, 5, 0], art_mod=[-10, 10, 5, 0, 0, -5], sent_mod=[-20, 20, 10, 0, 0, -10])
    s.turn_idx = 5
    set_display(s, [SPELLBOOK])
    set_level(s, 0, ARTS_T, 4)
    set_hand(s, 0, dust=20)
    clear_gems(s, 0)
    act(s, "auction spellbook", "bid 20")
    for _ in range(5):
        act(s, "pass")
    assert s.legal_actions(), "no legal action: the game is stuck"


def test_s7_4_winner_pays_at_once_selling_gems_in_another_players_turn():
    def game():
        s = fresh(2, ["witch", "elf"])
        set_display(s, [ELIXIR])
        set_hand(s, 0, dust=300)
        set_hand(s, 1, dust=31)
        give_gem(s, 1, OPAL, 2, active=False)
        return s
    # seat 1 (elf, Gems 0): capacity 31 + 5+5 (active opals) + 10 (sapphire) + 5+5 (inactive) = 61
    s = game()
    act(s, "auction elixir", "bid 60", "bid 62")
    assert s.players[1].out                             # 62 > 61: cursed (see 7.5)
    s = game()
    act(s, "auction elixir", "bid 60", "bid 61", "pass")
    assert s.pending.top == D.won(1, ELIXIR) and s.current_player == 1
    assert "pay" not in texts(s)
    assert {"sell opal", "sell active opal", "sell active sapphire"} <= set(texts(s))
    act(s, "sell opal", "sell opal", "sell active opal", "sell active opal", "sell active sapphire", "pay")
    p = s.players[1]
    assert p.arts[ELIXIR] == 1 and p.dust == 0 and p.active == [0] * 5
    assert p.inactive == [0, 0, 0, 1, 0]                # only the Elixir's free diamond
    assert s.current_player == 0 and not s.pending      # back to the active player's turn


def test_s7_4_effects_apply_before_the_next_auction():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [RUNESTONE, BALL])
    set_hand(s, 0, dust=300)
    act(s, "auction runestone", "bid 20", "pass", "pay")
    assert s.pending.top.kind == "free"
    illegal(s, "auction crystal-ball")
    act(s, "advance gems")
    act(s, "auction crystal-ball")


def test_s7_4_several_items_and_copies_per_round():
    s = fresh(3, ["witch", "elf", "druid"])
    set_display(s, [SPELLBOOK, SPELLBOOK, BALL])
    set_hand(s, 0, dust=500)
    for item in ("spellbook", "spellbook", "crystal-ball", "fox", "owl"):
        act(s, f"auction {item}", "bid " + ("120" if item in SENTS else "20"), "pass", "pass", "pay")
    p = s.players[0]
    assert p.arts[SPELLBOOK] == 2 and p.arts[BALL] == 1 and sorted(p.sents) == [OWL, FOX]
    assert p.dust == 500 - 60 - 240


def test_s7_4_ineligible_players_neither_open_nor_bid():
    s = fresh(3, ["witch", "elf", "druid"])
    set_display(s, [BELT])
    for seat in range(3):
        set_hand(s, seat, dust=300)
    give_art(s, 2, BELT)
    act(s, "auction belt", "bid 30")
    assert s.pending.top == D.bid(1)
    act(s, "pass")
    assert s.pending.top == D.won(0, BELT)


# --- 7.5 the curse ------------------------------------------------------------------------------------------
def _curse_game():
    """3 players, order 0 1 2, seat 0 opens a Spellbook at 20 and seat 1 bids 25."""
    s = fresh(3, ["witch", "elf", "druid"])
    set_display(s, [SPELLBOOK, BALL, RUNESTONE])
    set_hand(s, 0, dust=100)
    set_hand(s, 1, dust=100)
    set_hand(s, 2, cards="10w 15r", dust=12)
    act(s, "auction spellbook", "bid 20", "bid 25")
    return s


def test_s7_5_curse_eliminates_and_breaks_off_auction():
    s = _curse_game()
    # seat 2 (druid, Gems 0): capacity 10 + 15 + 12 + 5 + 5 + 10 = 57
    act(s, "bid 58")
    assert s.players[2].out
    assert s.auc is None and not s.pending
    assert SPELLBOOK in s.display                      # the item stays on offer
    assert s.players[0].dust == 100 and s.players[1].dust == 100   # nobody pays
    assert s.players[0].arts[SPELLBOOK] == s.players[1].arts[SPELLBOOK] == 0
    assert s.current_player == 0                       # the active player goes on
    assert s.observation(0)["zavandor"]["players"][2]["eliminated"] is True
    act(s, "auction spellbook", "bid 20", "pass", "pay")   # the cursed player takes no part
    assert s.players[0].arts[SPELLBOOK] == 1


def test_s7_5_bid_equal_to_capacity_is_safe():
    s = _curse_game()
    assert max(bids_of(s)) == 57
    act(s, "bid 57")
    assert not s.players[2].out and s.observation(0)["zavandor"]["auction"]["high_bid"] == 57
    act(s, "pass", "pass")
    assert s.pending.top == D.won(2, SPELLBOOK)
    assert {"sell active opal", "sell active sapphire"} <= set(texts(s))
    act(s, "sell active opal", "sell active opal", "sell active sapphire", "pay")
    p = s.players[2]
    assert p.arts[SPELLBOOK] == 1 and energy(p) == 0 and p.active == [0] * 5


def test_s7_5_capacity_excludes_what_waits_under_the_turn_order_card():
    s = _curse_game()
    s.players[2].under_dust = 50
    act(s, "bid 58")
    assert s.players[2].out


def test_s7_5_capacity_counts_inactive_gems_and_uses_the_net_price():
    s = fresh(2, ["witch", "mage"])
    set_display(s, [SPELLBOOK])
    set_hand(s, 0, dust=100)
    set_hand(s, 1, dust=12)
    give_gem(s, 1, OPAL, 1, active=False)
    set_level(s, 1, ARTS_T, 4)                          # -10 on artifact prices
    # mage, Gems 0: capacity 12 + 5 + 5 + 10 + 5 = 37; price = bid - 10 -> bids up to 47 are safe
    act(s, "auction spellbook", "bid 20")
    assert max(bids_of(s)) == 47
    act(s, "bid 47")
    assert not s.players[1].out
    act(s, "pass")
    act(s, "sell opal", "sell active opal", "sell active opal", "sell active sapphire", "pay")
    assert s.players[1].arts[SPELLBOOK] == 1 and energy(s.players[1]) == 0


def test_s7_5_belongings_leave_the_game_sentinels_still_count_as_sold():
    s = _curse_game()
    give_gem(s, 2, EMERALD, 2, active=False)
    give_art(s, 2, BALL)
    give_art(s, 2, MASK)
    give_sentinel(s, 2, PHOENIX)
    give_sentinel(s, 2, TOAD)
    supply = s.gem_supply[:]
    pile = s.art_pile[:]
    display = s.display[:]
    red_disc = sum(s.disc[3])
    act(s, "bid 500")
    p = s.players[2]
    assert p.out
    assert p.active == [0] * 5 and p.inactive == [0] * 5
    assert s.gem_supply == [supply[0] + 2, supply[1] + 1, supply[2] + 2, supply[3], supply[4]]
    assert p.cards == [] and p.dust == 0 and p.conc == [0] * 4
    assert sum(s.disc[3]) == red_disc + 1               # his cards go to their discard piles
    for c in range(4):
        held = sum(1 for q in s.players for k in q.cards + q.under_cards if k & 3 == c)
        assert sum(s.deck[c]) + sum(s.disc[c]) + held == sum(SPEC_CARDS[c].values())
    assert p.arts == [0] * 12 and s.art_pile == pile and s.display == display   # removed from the game
    assert p.sents == [] and s.sent_sold == 2
    assert PHOENIX not in s.sent_avail and TOAD not in s.sent_avail
    assert s.scores()[2] == 0


def test_s7_5_eliminated_active_players_turn_ends():
    s = fresh(3, ["witch", "elf", "druid"])
    set_order(s, [1, 0, 2])
    set_display(s, [SPELLBOOK])
    set_hand(s, 1, dust=20)
    act(s, "auction spellbook", "bid 200")
    assert s.players[1].out
    assert s.current_player == 0 and s.active_seat == 0 and not s.pending
    assert SPELLBOOK in s.display


def test_s7_5_eliminated_player_gets_no_income_no_turn_no_rank():
    s = _curse_game()
    act(s, "bid 500")                                  # seat 2, still to play this round, is out
    act(s, "end")
    assert s.current_player == 1
    act(s, "end")
    while s.pending:
        act(s, "discard")
    assert s.round == 2                                # seat 2 got no turn
    assert sorted(s.order) == [0, 1]
    assert s.observation(0)["zavandor"]["players"][2]["turn_order_card"] is None
    p = s.players[2]
    assert p.dust == 0 and p.cards == [] and p.vp == 0
    r = s.round
    seen = set()
    while s.round == r:
        if s.pending:
            s.apply("discard")
        else:
            seen.add(s.current_player)
            s.apply("end")
    assert seen == {0, 1}


def test_s7_5_display_target_shrinks_next_round():
    s = _curse_game()
    act(s, "bid 500")                                  # seat 2 out: 2 players remain
    act(s, "auction spellbook", "bid 20", "pass", "pay")
    assert sorted(s.display) == sorted([BALL, RUNESTONE])
    pile = sum(s.art_pile)
    end_round(s)
    assert len(s.display) == 2 and sum(s.art_pile) == pile   # already 2 = the players left: no draw
    set_order(s, [0, 1])
    set_hand(s, 0, dust=100)
    act(s, "auction crystal-ball", "bid 20", "pass", "pay")
    end_round(s)
    assert len(s.display) == 2 and sum(s.art_pile) == pile - 1


def test_s7_5_last_player_left_wins_when_a_bidder_is_cursed():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [SPELLBOOK])
    set_hand(s, 0, dust=100)
    act(s, "auction spellbook", "bid 20", "bid 400")
    assert s.is_terminal() and s.winners() == [0] and s.current_player is None
    assert s.legal_actions() == []


def test_s7_5_last_player_left_wins_when_the_opener_is_cursed():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [SPELLBOOK])
    set_hand(s, 0, dust=20)
    set_hand(s, 1, dust=100)
    give_art(s, 0, TALISMAN)                           # more VP does not save him
    act(s, "auction spellbook", "bid 100")
    assert s.is_terminal() and s.winners() == [1]


def test_s7_5_curse_in_3_player_game_does_not_end_it():
    s = _curse_game()
    act(s, "bid 500")
    assert not s.is_terminal()


def test_s7_5_cursed_players_sentinels_count_for_the_game_end():
    s = fresh(3, ["witch", "elf", "druid"])
    set_display(s, [SPELLBOOK])
    for sid in (PHOENIX, OWL, FOX, TOAD):
        give_sentinel(s, 2, sid)
    set_hand(s, 0, dust=300)
    act(s, "auction spellbook", "bid 20", "pass", "bid 500")
    assert s.players[2].out
    act(s, "auction unicorn", "bid 120", "pass", "pay")
    assert s.sent_sold == 5
    end_round(s)
    assert s.is_terminal() and s.end_reason == "sentinels"
    assert s.winners() == [0]


def test_s7_5_opening_bid_beyond_capacity_brings_the_curse():
    s = fresh(3, ["witch", "elf", "druid"])
    set_display(s, [ELIXIR])
    set_hand(s, 0, dust=10)                            # capacity 10 + 4 + 4 + 9 = 27 < 60
    act(s, "auction elixir")                           # 7.4.1 sets no condition on the opener's means
    act(s, "bid 60")
    assert s.players[0].out and s.current_player == 1
    assert ELIXIR in s.display


@pytest.mark.parametrize("item,bid", [("chalice", 80), ("raven", 120)])
def test_s7_5_curse_applies_to_sentinels_and_artifacts_alike(item, bid):
    s = fresh(3, ["witch", "elf", "druid"])
    set_display(s, [CHALICE])
    set_hand(s, 0, dust=300)
    act(s, f"auction {item}", f"bid {bid}", f"bid {bid + 100}")
    assert s.players[1].out and s.auc is None
    assert s.current_player == 0


def test_s7_4_exactly_affordable_opening_is_listed_with_an_open_purchase():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=108)
    act(s, "buy opal inactive")                        # owes 9: after paying, 99 dust + gems 4+4+9+4 = 120
    assert "auction phoenix" in texts(s)
    act(s, "auction phoenix", "bid 120")
    assert not s.players[0].out


def test_s7_4_exactly_affordable_opening_is_not_cursed():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=108)
    act(s, "buy opal inactive", "auction phoenix", "bid 120", "pass")
    assert not s.players[0].out and s.pending.top == D.won(0, 12 + PHOENIX)
    act(s, "sell opal", "sell active opal", "sell active opal", "sell active sapphire", "pay")
    assert s.players[0].sents == [PHOENIX] and energy(s.players[0]) == 0


@pytest.mark.parametrize("level", range(5))
def test_s9_5_knowledge_of_artifacts_discounts(level):
    art_disc = [0, 0, 5, 5, 10][level]
    sent_disc = [0, 0, 10, 10, 20][level]
    s = fresh(2, ["witch", "elf"])
    if level:
        set_level(s, 0, ARTS_T, level)
    set_display(s, [ELIXIR])
    set_hand(s, 0, dust=400)
    act(s, "auction elixir", "bid 70", "pass", "pay")
    assert s.players[0].dust == 400 - (70 - art_disc)
    act(s, "auction salamander", "bid 130", "pass", "pay")
    assert s.players[0].dust == 400 - (70 - art_disc) - (130 - sent_disc)


def test_s7_1_gem_sales_while_paying_do_not_close_the_auction_group():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [SPELLBOOK, BALL])
    set_hand(s, 0, dust=30)
    give_gem(s, 0, OPAL, 3, active=False)
    act(s, "auction spellbook", "bid 40", "pass")
    act(s, "sell opal", "sell opal")                     # 30 + 4 + 4 = 38 < 40: not yet
    illegal(s, "pay", "7.6")
    act(s, "sell opal", "pay")                            # 42: change 2
    assert s.players[0].dust == 2
    act(s, "auction crystal-ball")                        # still 3c: another auction may follow
    assert s.auc is not None


def test_s7_5_curse_while_the_active_player_has_an_unpaid_purchase():
    s = fresh(3, ["witch", "elf", "druid"])
    set_display(s, [SPELLBOOK])
    set_hand(s, 0, dust=100)
    set_hand(s, 1, dust=10)
    act(s, "buy sapphire inactive", "auction spellbook")  # the purchase is paid before the auction opens
    assert s.players[0].dust == 82
    act(s, "bid 20", "bid 300")
    assert s.players[1].out and s.players[0].dust == 82 and s.current_player == 0
