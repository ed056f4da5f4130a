"""A true upper bound on the number of actions of a Zavandor game (``GameInfo.max_game_length``),
derived from the data tables; the reasoning is in docs/games/zavandor.md ("Game length").

The rules bound a game only through ``max_rounds`` (R) and the design limit ``turn_action_limit`` (L:
after L actions of one turn only paying and ending remain). What remains open are the auctions:
bids strictly increase (7.4), and a bid that its bidder could not pay brings the curse (7.5), so the
bids are bounded by the energy that exists — which this module bounds by everything a player can
ever receive in R rounds (his "inflow" W): nothing else creates energy (gem sales return at most
what the gem cost, payments and change only lose value).
"""

from __future__ import annotations

from .data import (
    ART_COPIES_BY_PLAYERS,
    ART_DISCOUNT,
    ART_DISCOUNTS,
    CARD_MAX,
    CHAR_DUST,
    CONC_DUST,
    CONC_GROUP,
    CONC_VALUE,
    FLOW_DUST,
    FREE_ADVANCES,
    FREE_GEM,
    GEM_LOSS,
    GEM_SALE,
    GEM_SUPPLY,
    INCOME_CARDS,
    ITEM_MIN_BID,
    MASK_SENT_DISCOUNT,
    MAX_SLOTS,
    OPAL_PER_THREE,
    OPAL_REMAINDER,
    ORDER_CARDS,
    SAGES_CARDS,
    SAGES_COLOUR,
    SENT_DISCOUNT,
    SENTINELS,
    STARTING_GEMS,
)

# concentrating 4 cards never yields more than 4 cards of the colour's highest value (2.3), so a
# bound that counts every new card at that value also covers concentrated cards and their dust
assert all(CONC_VALUE[c] + CONC_DUST <= CONC_GROUP * CARD_MAX[c] for c in range(4))


def _opal_income(k: int) -> int:
    return OPAL_PER_THREE * (k // 3) + OPAL_REMAINDER[k % 3]


def income_per_round(players: int) -> int:
    """Most energy one player can receive in one phase 2 (6): every active slot brings at most one card
    of the highest value (opals bring less per gem), plus the income artifacts (all their copies) and
    Energy Flow's top bonus."""
    copies = ART_COPIES_BY_PLAYERS[players]
    per_slot = max(max(CARD_MAX), max(_opal_income(k) / k for k in range(1, MAX_SLOTS + 1)))
    artifacts = sum(copies * CARD_MAX[c] for c in INCOME_CARDS if c >= 0)
    return int(MAX_SLOTS * per_slot) + artifacts + max(FLOW_DUST)


def inflow(players: int, rounds: int) -> int:
    """W: all one player can ever receive in ``rounds`` rounds: starting dust and gems, every free
    Elixir diamond, the four levels of 9 Sages cards (10), and the income of each round."""
    copies = ART_COPIES_BY_PLAYERS[players]
    start = max(CHAR_DUST) + sum(n * GEM_SALE[g][0] for g, n in enumerate(STARTING_GEMS))
    free_gems = sum(copies * GEM_SALE[g][0] for g in FREE_GEM if g >= 0)
    sages = sum(SAGES_CARDS * CARD_MAX[c] for c in SAGES_COLOUR)
    return start + free_gems + sages + rounds * income_per_round(players)


def bid_over_price(players: int) -> int:
    """D: how far a winning bid can exceed its price (7.4.4: price = bid + modifier - discounts)."""
    copies = ART_COPIES_BY_PLAYERS[players]
    art = max(ART_DISCOUNT) + max(sum(copies * amt for _owned, amt in d) for d in ART_DISCOUNTS)
    art -= min(a for a, _s, _c in ORDER_CARDS)
    sent = max(SENT_DISCOUNT) + copies * MASK_SENT_DISCOUNT - min(s for _a, s, _c in ORDER_CARDS)
    return max(art, sent)


def max_game_length(players: int, options: dict) -> int:
    R = options["max_rounds"]
    if R is None:
        from .codec import LEARNING
        R = LEARNING["episodes"]["round_cap"]
    L = options["turn_action_limit"]
    n = players
    W = inflow(n, R)
    D = bid_over_price(n)
    items = 12 * ART_COPIES_BY_PLAYERS[n] + len(SENTINELS)       # every auction sells one ...
    curses = n - 1                                               # ... or eliminates a bidder (the last one left wins)
    min_bid = min(ITEM_MIN_BID)
    effects = max(FREE_ADVANCES) + (1 + (n - 1) if GEM_LOSS else 0)   # free advances / free token + gem losses
    turns = R * n * (L + 2)                   # L actions, then at most 'pay' and 'end'
    discards = R * n                          # phase 4: one discard per player
    # a sold auction: its bids rise from the minimum to at most price + D; passes; payment (with gem sales)
    sold = n * W + items * (D - min_bid + 1 + (n - 1) + 1 + sum(GEM_SUPPLY) + effects)
    # a cursed auction: the last bid that could be paid is at most W + D, then the cursing bid
    cursed = curses * (W + D - min_bid + 2 + (n - 1))
    return turns + discards + sold + cursed
