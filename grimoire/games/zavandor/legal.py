"""Legal actions, checks and dispatch: what the current decision allows, and doing it.

Every check goes through the same ``why_not_*`` functions that decide what is listed, so that the
listed actions are exactly those that apply (the tests probe the whole vocabulary to prove it).
Not listed but legal (documented): explicit payments/discards ('pay 15 8 d5', 'discard 3 4'), and
bids above what the bidder can pay — those bring the curse of the 9 Sages (7.5).
"""

from __future__ import annotations

from ...core.action import Action
from ...core.errors import IllegalAction
from . import actions as A
from .auction import (
    do_auction_payment,
    do_bid,
    do_free_token,
    do_lose,
    do_open,
    do_pass,
    max_bid,
    opening_capacity,
    price_for,
    why_not_bid,
    why_not_open,
    why_not_pass,
)
from .data import GEM_COST, GEM_LOSS, GEMS, ITEM_MIN_BID, MAX_LEVEL, N_ART, ONE_PER_PLAYER, TRACK_COST
from .energy import hand_units, keep_best
from .flow import can_raise, discard_cards, end_turn, raise_level, run
from .turn import (
    do_advance,
    do_buy,
    do_sell,
    do_token,
    may_buy_kind,
    resolve_items,
    settle,
    settled_energy,
    why_not_activate,
    why_not_advance,
    why_not_buy,
    why_not_deactivate,
    why_not_level,
    why_not_pay,
    why_not_sell,
    why_not_token,
)

DECISION_TEXT = {
    "bid": "bid in the auction ('bid <n>' or 'pass')",
    "apay": "pay for what they won ('pay', 'pay <items>' or sell gems)",
    "free": "use a free knowledge advance ('advance <track>' or 'skip')",
    "ftoken": "take a free knowledge token ('token <price>')",
    "lose": "give up one active gem ('lose <gem>')",
    "discard": "discard down to the hand limit ('discard' or 'discard <items>')",
}
ALLOWED = {
    "bid": ("bid", "pass"),
    "apay": ("pay", "sell"),
    "free": ("advance", "skip"),
    "ftoken": ("token",),
    "lose": ("lose",),
    "discard": ("discard",),
    None: ("end", "pay", "buy", "sell", "activate", "deactivate", "token", "advance", "auction"),
}


# --- listing ---------------------------------------------------------------------------------------
def legal_actions(s) -> list[Action]:
    if s.over:
        return []
    if s.pending:
        d = s.pending[0]
        kind, seat = d[0], d[1]
        p = s.players[seat]
        if kind == "bid":
            item, high = s.auc[0], s.auc[1]
            lo = ITEM_MIN_BID[item] if high is None else high + 1
            hi = max_bid(s, seat, item)
            if high is None:
                # the opener must bid; if even the minimum is beyond his means it is his only bid
                return A.bid_actions(max(hi, lo))[lo:max(hi, lo) + 1]
            return [A.PASS] + (A.bid_actions(hi)[lo:hi + 1] if hi >= lo else [])
        if kind == "apay":
            out = [A.PAY] if why_not_pay(s, seat, auction=True) is None else []
            for g in range(5):
                if p.inactive[g]:
                    out.append(A.SELL[g])
                if p.active[g]:
                    out.append(A.SELL_ACTIVE[g])
            return out
        if kind == "free":
            return [A.ADVANCE[t] for t in range(6) if can_raise(p, t)] + [A.SKIP]
        if kind == "ftoken":
            return [A.TOKEN[price] for price in p.tokens]
        if kind == "lose":
            return [A.LOSE[g] for g in range(5) if p.active[g]]
        return [A.DISCARD]
    return _turn_actions(s, s.players[s.order[s.turn_idx]])


def _turn_actions(s, p) -> list[Action]:
    """The active player's options. Written for speed: the context (energy, capacity, sub-phase) is
    computed once; the same conditions as the why_not_* checks (the tests compare them)."""
    seat = p.seat
    strict = s.strict
    group = s.group
    done = s.groups_done
    ok_a = not strict or group == "a" or not done & 1
    ok_b = not strict or group == "b" or not done & 2
    ok_c = not strict or group == "c" or not done & 4
    mine = s.tab_seat == seat
    energy = p.energy()
    out = [A.END, A.PAY] if mine else [A.END]
    if mine:
        same = energy + s.tab_credit - s.tab_owed     # purchases in the open tab's group combine
        other = settled_energy(s, p) if strict else same  # another group pays the tab first
    else:
        same = other = energy
    active, inactive = p.active, p.inactive
    free_slot = active[0] + active[1] + active[2] + active[3] + active[4] < p.slots()
    if ok_a:
        have = same if group == "a" else other
        cost_row = p.levels[0]
        supply = s.gem_supply
        for g in range(5):
            if supply[g] <= 0 or GEM_COST[g][cost_row] > have:
                continue
            if g >= 2 and may_buy_kind(s, p, g) is not None:
                continue
            if free_slot:
                out.append(A.BUY[g])
            out.append(A.BUY_INACTIVE[g])
        for g in range(5):
            if inactive[g]:
                out.append(A.SELL[g])
            if active[g]:
                out.append(A.SELL_ACTIVE[g])
    for g in range(5):
        if inactive[g] and free_slot:
            out.append(A.ACTIVATE[g])
        if active[g]:
            out.append(A.DEACTIVATE[g])
    if ok_b:
        have = same if group == "b" else other
        for price in p.tokens:
            if price <= have:
                out.append(A.TOKEN[price])
        if not p.advanced:
            levels = p.levels
            for t in range(6):
                lv = levels[t]
                if lv < MAX_LEVEL and (lv or p.pentagon) and TRACK_COST[t][lv] <= have:
                    out.append(A.ADVANCE[t])
    if ok_c:
        cap = opening_capacity(s, p)
        any_active = any(active)
        seen = 0
        for k in s.display:
            if seen >> k & 1:
                continue
            seen |= 1 << k
            if k in ONE_PER_PLAYER and p.arts[k]:
                continue
            if k in GEM_LOSS and not any_active:
                continue
            if price_for(s, seat, k, ITEM_MIN_BID[k]) <= cap:
                out.append(A.AUCTION[k])
        if s.sent_avail:
            sent_price = price_for(s, seat, N_ART, ITEM_MIN_BID[N_ART])
            if sent_price <= cap:
                for sid in s.sent_avail:
                    out.append(A.AUCTION[N_ART + sid])
    return out


# --- checking --------------------------------------------------------------------------------------
def _raise(reason) -> None:
    raise IllegalAction(reason[0], reason[1])


def check(s, a: Action) -> None:
    if s.over:
        raise IllegalAction("the game is over", "8.3")
    if s.pending:
        d = s.pending[0]
        kind, seat = d[0], d[1]
    else:
        kind, seat = None, s.order[s.turn_idx]
    if a.kind not in ALLOWED[kind]:
        if kind is None:
            raise IllegalAction(f"'{a.text}' is not possible now: it is seat {seat}'s turn (phase 3): "
                                "buy, sell, (de)activate, take tokens, advance, auction, pay or end")
        raise IllegalAction(f"'{a.text}' is not possible now: seat {seat} must {DECISION_TEXT[kind]}")
    p = s.players[seat]
    args = a.args
    k = a.kind
    if kind == "bid":
        if k == "bid":
            r = why_not_bid(s, seat, args[0])
        else:
            r = why_not_pass(s, seat)
    elif kind == "apay":
        r = (why_not_pay(s, seat, args, auction=True) if k == "pay"
             else why_not_sell(s, p, args[0], args[1], True))
    elif kind == "free":
        r = why_not_level(p, args[0]) if k == "advance" else None
    elif kind == "ftoken":
        r = None if args[0] in p.tokens else (f"no unbought token of price {args[0]}; left: "
                                              + ", ".join(map(str, p.tokens)), "11")
    elif kind == "lose":
        r = None if p.active[args[0]] else (f"you have no active {GEMS[args[0]]}", "11")
    elif kind == "discard":
        r = _why_not_discard(p, args)
    elif k == "end":
        r = None                                    # an open tab is always payable (turn.py)
    elif k == "pay":
        r = why_not_pay(s, seat, args)
    elif k == "buy":
        r = why_not_buy(s, p, args[0], args[1])
    elif k == "sell":
        r = why_not_sell(s, p, args[0], args[1], False)
    elif k == "activate":
        r = why_not_activate(s, p, args[0])
    elif k == "deactivate":
        r = why_not_deactivate(s, p, args[0])
    elif k == "token":
        r = why_not_token(s, p, args[0])
    elif k == "advance":
        r = why_not_advance(s, p, args[0])
    else:  # auction
        r = why_not_open(s, p, args[0])
    if r:
        _raise(r)


def _why_not_discard(p, items):
    limit = p.hand_limit()
    if items is None:
        return None
    resolved, err = resolve_items(p, items, discarding=True)
    if err:
        return (err, "8.1")
    cards, conc, d = resolved
    left_cards = p.cards[:]
    for c in cards:
        left_cards.remove(c)
    left_conc = [p.conc[c] - conc[c] for c in range(4)]
    units = hand_units(left_cards, left_conc, p.dust - d)
    if units > limit:
        return (f"that leaves a hand of {units} and your hand limit is {limit}", "8.1")
    return None


# --- doing -----------------------------------------------------------------------------------------
def do(s, a: Action) -> None:
    k = a.kind
    args = a.args
    if s.pending:
        d = s.pending[0]
        kind, seat = d[0], d[1]
        p = s.players[seat]
        if kind == "bid":
            if k == "bid":
                do_bid(s, seat, args[0])
            else:
                do_pass(s, seat)
        elif kind == "apay":
            if k == "pay":
                do_auction_payment(s, seat, None if args is None else resolve_items(p, args)[0])
            else:
                do_sell(s, p, args[0], args[1], True)
        elif kind == "free":
            if k == "advance":
                raise_level(s, p, args[0])
                n = d[2] - 1
                if n:
                    s.pending[0] = ("free", seat, n)
                else:
                    s.pending.pop(0)
            else:
                s.pending.pop(0)
        elif kind == "ftoken":
            do_free_token(s, seat, args[0])
        elif kind == "lose":
            do_lose(s, seat, args[0])
        else:  # discard
            _do_discard(s, p, args)
            s.pending.pop(0)
        run(s)
        return
    p = s.players[s.order[s.turn_idx]]
    if k == "end":
        if s.tab_seat >= 0:
            settle(s)
        end_turn(s)
    elif k == "pay":
        settle(s, None if args is None else resolve_items(p, args)[0])
    elif k == "buy":
        do_buy(s, p, args[0], args[1])
    elif k == "sell":
        do_sell(s, p, args[0], args[1], False)
    elif k == "activate":
        p.inactive[args[0]] -= 1
        p.active[args[0]] += 1
    elif k == "deactivate":
        p.active[args[0]] -= 1
        p.inactive[args[0]] += 1
    elif k == "token":
        do_token(s, p, args[0])
    elif k == "advance":
        do_advance(s, p, args[0])
    else:
        do_open(s, p, args[0])
    run(s)


def _do_discard(s, p, items) -> None:
    if items is None:
        cards, conc, kept_dust = keep_best(p.cards, p.conc, p.dust, p.hand_limit())
    else:
        cards, conc, d = resolve_items(p, items, discarding=True)[0]
        kept_dust = p.dust - d
    p.remove_cards(cards)
    discard_cards(s, cards)
    for c in range(4):
        p.conc[c] -= conc[c]
    p.dust = kept_dust


