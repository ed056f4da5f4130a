"""Phase 3c: auctions (7.4), the curse of the 9 Sages (7.5) and the effects of what is won (11)."""

from __future__ import annotations

from . import decisions as D
from .data import (
    ART_DISCOUNT,
    ART_DISCOUNTS,
    ARTS_T,
    FREE_ADVANCES,
    FREE_GEM,
    GEM_LOSS,
    ITEM_MIN_BID,
    ITEM_NAMES,
    MASK,
    MASK_SENT_DISCOUNT,
    N_ART,
    ONE_PER_PLAYER,
    SENT_DISCOUNT,
)
from .flow import eliminate, victims_after
from .player import Player
from .turn import enter_group, settle, settled_energy, tab_credit, tab_owed, why_not_group


def price_for(s, seat: int, item: int, bid: int) -> int:
    """7.4.4: price = max(0, bid + turn-order modifier - discounts); modifiers are not in the bid."""
    p = s.players[seat]
    if item < N_ART:
        disc = ART_DISCOUNT[p.levels[ARTS_T]]
        for owned, amount in ART_DISCOUNTS[item]:
            disc += p.arts[owned] * amount
        return max(0, bid + s.art_mod[seat] - disc)
    disc = SENT_DISCOUNT[p.levels[ARTS_T]] + MASK_SENT_DISCOUNT * p.arts[MASK]
    return max(0, bid + s.sent_mod[seat] - disc)


def capacity(s, p: Player) -> int:
    """7.5: energy in hand + sale value of every gem (+ an open tab's balance)."""
    return p.capacity() + tab_credit(s, p) - tab_owed(s, p)


def max_bid(s, seat: int, item: int) -> int:
    """The highest bid whose price this seat can pay (price is monotone in the bid)."""
    cap = capacity(s, s.players[seat])
    zero = price_for(s, seat, item, 0)
    if zero > cap:
        return -1
    # price(b) = max(0, b + mod - disc): the largest b with b + mod - disc <= cap
    offset = price_for(s, seat, item, 10**6) - 10**6      # mod - disc
    return cap - offset


def may_own(p: Player, item: int) -> bool:
    return not (item < N_ART and item in ONE_PER_PLAYER and p.arts[item])


def item_on_offer(s, item: int) -> bool:
    return item in s.display if item < N_ART else (item - N_ART) in s.sent_avail


def why_not_open(s, p: Player, item: int):
    r = why_not_group(s, "c")
    if r:
        return r
    if not item_on_offer(s, item):
        what = "on display" if item < N_ART else "still unsold"
        return (f"{ITEM_NAMES[item]} is not {what}", "7.4")
    if not may_own(p, item):
        return (f"you already own a {ITEM_NAMES[item]} (at most one per player)", "7.4")
    if item in GEM_LOSS and not any(p.active):
        return (f"opening a {ITEM_NAMES[item]} auction needs at least one active gem", "11")
    return None


def tab_settles_at_open(s) -> bool:
    """Opening an auction pays the open tab first (auction prices are paid on their own, 7.6) —
    except in the combine_with_auction variant, where only a tab holding an auction price must be
    paid before the next auction opens."""
    return s.tab_seat >= 0 and (not s.combine or s.tab_auc)


def opening_capacity(s, p: Player) -> int:
    """The opener's payment capacity once the auction is open (the tab paid if it must be)."""
    if s.tab_seat == p.seat and tab_settles_at_open(s):
        return settled_energy(s, p) + p.gems_sale_total()
    return capacity(s, p)


def do_open(s, p: Player, item: int) -> None:
    enter_group(s, "c")
    if tab_settles_at_open(s):
        settle(s)                        # auction prices are paid on their own (7.6)
    s.auc = [item, None, -1, 0]
    s.pending.push(D.bid(p.seat))


def why_not_bid(s, seat: int, amount: int):
    item, high, _hs, _passed = s.auc
    if high is None:
        if amount < ITEM_MIN_BID[item]:
            return (f"the opening bid must be at least the minimum bid {ITEM_MIN_BID[item]}", "7.4")
    elif amount <= high:
        return (f"a bid must be higher than the current bid {high}", "7.4")
    return None


def do_bid(s, seat: int, amount: int) -> None:
    item = s.auc[0]
    p = s.players[seat]
    if price_for(s, seat, item, amount) > capacity(s, p):
        eliminate(s, seat)              # 7.5: the curse; the auction is broken off
        return
    s.auc[1] = amount
    s.auc[2] = seat
    _next_bidder(s, seat)


def why_not_pass(s, seat: int):
    if s.auc[1] is None:
        return ("the player who opens an auction must make the opening bid", "7.4")
    return None


def do_pass(s, seat: int) -> None:
    s.auc[3] |= 1 << seat
    _next_bidder(s, seat)


def _next_bidder(s, seat: int) -> None:
    """7.4.2: the next player in turn order (wrapping) who is still in, or the end of the auction."""
    item, _high, high_seat, passed = s.auc
    order = s.order
    n = len(order)
    i = order.index(seat)
    for k in range(1, n + 1):
        cand = order[(i + k) % n]
        if cand == high_seat or passed >> cand & 1:
            continue
        q = s.players[cand]
        if q.out or not may_own(q, item):
            continue
        s.pending.replace_top(D.bid(cand))
        return
    _won(s)


def _won(s) -> None:
    item, high, seat, _passed = s.auc
    s.auc = None
    s.pending.pop()
    price = price_for(s, seat, item, high)
    active = s.order[s.turn_idx] if s.turn_idx < len(s.order) else -1
    p = s.players[seat]
    if s.combine and seat == active and p.energy() + tab_credit(s, p) >= tab_owed(s, p) + price:
        # FAQ variant: paid together with his other purchases, before the next auction (7.6). Only
        # when his energy covers it, so that the tab never needs a gem sale (turn.py's invariant).
        s.tab_seat = seat
        s.tab_owed += price
        s.tab_auc = True
        acquire(s, seat, item)
    elif s.tab_seat == seat:
        # (combine variant) his energy does not cover tab + price: he pays both now, in one payment,
        # selling gems as needed — as the curse check counted them (nothing lost to a split payment)
        s.tab_owed += price
        s.tab_auc = False
        s.pending.push(D.won(seat, item))
    else:
        s.tab_seat, s.tab_owed, s.tab_credit, s.tab_auc = seat, price, 0, False
        s.pending.push(D.won(seat, item))


def do_auction_payment(s, seat: int, item: int, items) -> None:
    """The winner pays (the default payment, or exactly ``items``) and gets the item."""
    s.pending.pop()
    settle(s, items)
    acquire(s, seat, item)


# --- what is won (11, 12) ------------------------------------------------------------------------
def acquire(s, seat: int, item: int) -> None:
    p = s.players[seat]
    effects = []
    if item < N_ART:
        p.arts[item] += 1
        s.display.remove(item)
        if FREE_ADVANCES[item]:
            effects.append(D.free(seat, FREE_ADVANCES[item]))
        if item in GEM_LOSS:
            effects.append(D.ftoken(seat))
            effects += [D.lose(v) for v in victims_after(s, seat) if not s.players[v].out]
        gem = FREE_GEM[item]
        if gem >= 0 and s.gem_supply[gem] > 0:
            s.gem_supply[gem] -= 1          # the Elixir's diamond goes to the pentagon
            p.inactive[gem] += 1
    else:
        p.sents.append(item - N_ART)
        s.sent_avail.remove(item - N_ART)
        s.sent_sold += 1
    s.pending.push_many(effects)          # decided in this order, before anything pending


def do_free_token(s, seat: int, price: int) -> None:
    p = s.players[seat]
    p.tokens.remove(price)
    p.pentagon += 1
    s.pending.pop()


def do_lose(s, seat: int, gem: int) -> None:
    p = s.players[seat]
    p.active[gem] -= 1
    s.gem_supply[gem] += 1
    s.pending.pop()
