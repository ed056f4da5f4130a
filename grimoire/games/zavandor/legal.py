"""Legal actions, checks and dispatch: one handler per kind of decision, and the loop that runs the
automatic steps until somebody must decide.

The current decision is the top of ``state.pending`` (see ``decisions.py``), or the active player's
ordinary turn when nothing is pending. Its handler (a :class:`~grimoire.core.decisions.DecisionKind`)
lists the actions that answer it, checks one and carries it out.

Every check goes through the same ``why_not_*`` functions that decide what is listed, so that the
listed actions are exactly those that apply (the tests probe the whole vocabulary to prove it).
Not listed but legal (documented): explicit payments/discards ('pay 15 8 d5', 'discard 3 4'), their
factored forms one item at a time ('give 8g', 'drop c20', 'keep d12'; factored.py), and
bids above what the bidder can pay — those bring the curse of the 9 Sages (7.5).
"""

from __future__ import annotations

from typing import Any

from ...core.action import Action
from ...core.decisions import Decision, DecisionKind
from ...core.errors import IllegalAction
from . import actions as A
from . import decisions as D
from .auction import (
    do_auction_payment,
    do_bid,
    do_free_token,
    do_lose,
    do_open,
    do_pass,
    max_bid,
    opening_capacity,
    why_not_bid,
    why_not_open,
    why_not_pass,
)
from .data import (
    ART_COPIES_BY_PLAYERS,
    ART_DISCOUNT,
    ART_DISCOUNTS,
    ARTS_T,
    GEM_COST_BY_LEVEL,
    GEM_LOSS,
    GEMS,
    GEMS_T,
    ITEM_MIN_BID,
    ITEMS,
    MASK,
    MASK_SENT_DISCOUNT,
    MAX_LEVEL,
    N_ART,
    ONE_PER_PLAYER,
    SENT_DISCOUNT,
    SENT_MIN_BID,
    TOKEN_PRICES,
    TRACK_COST,
)
from .energy import dust_tokens, hand_units, keep_best, keepable_dust
from .factored import do_drop, do_give, factored_actions, why_not_drop, why_not_give
from .flow import can_raise, discard_cards, end_turn, raise_level, step
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
    why_not_free_level,
    why_not_pay,
    why_not_sell,
    why_not_token,
)


# --- the handlers ------------------------------------------------------------------------------------
class Kind(DecisionKind):
    """A Zavandor decision kind. ``void``: the decision lapses without an answer (``run`` drops it)."""

    def void(self, s, d: Decision) -> bool:
        return s.players[d.seat].out

    def not_now(self, s, d: Decision | None, a: Action) -> str:
        seat = s.current_player if d is None else d.seat
        return f"'{a.text}' is not possible now: seat {seat + 1} must {self.prompt}"      # a person reads it: from 1


class Bid(Kind):
    kind = D.BID
    answers = ("bid", "pass")
    prompt = "bid in the auction ('bid <n>' or 'pass')"

    def legal(self, s, d):
        item, high = s.auc[0], s.auc[1]
        lo = ITEM_MIN_BID[item] if high is None else high + 1
        hi = max_bid(s, d.seat, item)
        if high is None:
            # the opener must bid; if even the minimum is beyond his means it is his only bid
            return A.bid_actions(max(hi, lo))[lo:max(hi, lo) + 1]
        return [A.PASS] + (A.bid_actions(hi)[lo:hi + 1] if hi >= lo else [])

    def check(self, s, d, a):
        return why_not_bid(s, d.seat, a.args[0]) if a.kind == "bid" else why_not_pass(s, d.seat)

    def do(self, s, d, a):
        if a.kind == "bid":
            do_bid(s, d.seat, a.args[0])
        else:
            do_pass(s, d.seat)


class AuctionPayment(Kind):
    kind = D.APAY
    answers = ("pay", "sell", "give")
    prompt = "pay for what they won ('pay', 'pay <items>' or sell gems)"

    def legal(self, s, d):
        p = s.players[d.seat]
        out = [A.PAY] if why_not_pay(s, d.seat, auction=True) is None else []
        for g in range(5):
            if p.inactive[g]:
                out.append(A.SELL[g])
            if p.active[g]:
                out.append(A.SELL_ACTIVE[g])
        return out

    def check(self, s, d, a):
        if a.kind == "pay":
            return why_not_pay(s, d.seat, a.args, auction=True)
        if a.kind == "give":
            return why_not_give(s, d.seat, *a.args)
        return why_not_sell(s, s.players[d.seat], a.args[0], a.args[1], True)

    def do(self, s, d, a):
        p = s.players[d.seat]
        if a.kind == "pay":
            do_auction_payment(s, d.seat, d.payload.item, None if a.args is None else resolve_items(p, a.args)[0])
        elif a.kind == "give":
            do_give(s, d.seat, *a.args)
        else:
            do_sell(s, p, a.args[0], a.args[1], True)

    def dump_payload(self, payload: D.Won) -> Any:
        return {"item": payload.item}

    def load_payload(self, data: Any) -> D.Won:
        return D.Won(_field(data, "item", 0, len(ITEMS) - 1))


class FreeAdvance(Kind):
    kind = D.FREE
    answers = ("advance", "skip")
    prompt = "use a free knowledge advance ('advance <track>' or 'skip')"

    def legal(self, s, d):
        p = s.players[d.seat]
        new = s.free_new_track
        return [A.ADVANCE[t] for t in range(6) if can_raise(p, t, new)] + [A.SKIP]

    def check(self, s, d, a):
        return why_not_free_level(s, s.players[d.seat], a.args[0]) if a.kind == "advance" else None

    def do(self, s, d, a):
        if a.kind == "advance":
            raise_level(s, s.players[d.seat], a.args[0])
            left = d.payload.left - 1
            if left:
                s.pending.replace_top(D.free(d.seat, left))
                return
        s.pending.pop()

    def void(self, s, d):
        p = s.players[d.seat]
        new = s.free_new_track
        return p.out or not any(can_raise(p, t, new) for t in range(6))     # 11: no legal advance -> lost

    def dump_payload(self, payload: D.FreeAdvances) -> Any:
        return {"left": payload.left}

    def load_payload(self, data: Any) -> D.FreeAdvances:
        return D.FreeAdvances(_field(data, "left", 1, MAX_LEVEL * 6))


class FreeToken(Kind):
    """11: the buyer of a Mirror or Cloak *may* put one of his unbought tokens on his pentagon for
    free ("ingyen leteheti"): he takes one, or declines with ``skip``."""

    kind = D.FTOKEN
    answers = ("token", "skip")
    prompt = "take a free knowledge token ('token <price>') or decline it ('skip')"

    def legal(self, s, d):
        return [A.TOKEN[price] for price in s.players[d.seat].tokens] + [A.SKIP]

    def check(self, s, d, a):
        p = s.players[d.seat]
        if a.kind == "skip" or a.args[0] in p.tokens:
            return None
        return (f"no unbought token of price {a.args[0]}; left: " + ", ".join(map(str, p.tokens)), "11")

    def do(self, s, d, a):
        if a.kind == "skip":
            s.pending.pop()
        else:
            do_free_token(s, d.seat, a.args[0])

    def void(self, s, d):
        p = s.players[d.seat]
        return p.out or not p.tokens                  # all 5 tokens bought: nothing to take


class LoseGem(Kind):
    kind = D.LOSE
    answers = ("lose",)
    prompt = "give up one active gem ('lose <gem>')"

    def legal(self, s, d):
        p = s.players[d.seat]
        return [A.LOSE[g] for g in range(5) if p.active[g]]

    def check(self, s, d, a):
        return None if s.players[d.seat].active[a.args[0]] else (f"you have no active {GEMS[a.args[0]]}", "11")

    def do(self, s, d, a):
        do_lose(s, d.seat, a.args[0])

    def void(self, s, d):
        p = s.players[d.seat]
        return p.out or not any(p.active)             # players without active gems are unaffected


class Discard(Kind):
    kind = D.DISCARD
    answers = ("discard", "drop", "keep")
    prompt = "discard down to the hand limit ('discard' or 'discard <items>')"

    def legal(self, s, d):
        return [A.DISCARD]

    def check(self, s, d, a):
        if a.kind != "discard":
            return why_not_drop(s, d.seat, *a.args)
        return _why_not_discard(s, s.players[d.seat], a.args)

    def do(self, s, d, a):
        if a.kind != "discard":
            do_drop(s, d.seat, *a.args)             # the decision stays until 'discard'
            return
        _do_discard(s, s.players[d.seat], a.args)
        s.pending.pop()


class Turn(Kind):
    """The active player's ordinary turn (phase 3), when nothing is pending (``d`` is None)."""

    kind = D.TURN
    answers = ("end", "pay", "buy", "sell", "activate", "deactivate", "token", "advance", "auction", "give")
    prompt = "buy, sell, (de)activate, take tokens, advance, auction, pay or end"

    def not_now(self, s, d, a):
        return (f"'{a.text}' is not possible now: it is seat {s.order[s.turn_idx] + 1}'s turn (phase 3): "
                f"{self.prompt}")

    def legal(self, s, d):
        return _turn_actions(s, s.players[s.order[s.turn_idx]])

    def check(self, s, d, a):
        k, args = a.kind, a.args
        if k == "end":
            return None                                 # an open tab is always payable (turn.py)
        seat = s.order[s.turn_idx]
        p = s.players[seat]
        if k == "pay":
            return why_not_pay(s, seat, args)
        if k == "give":
            return why_not_give(s, seat, *args)
        if s.turn_actions >= s.turn_limit:
            return (f"this turn has had its {s.turn_limit} actions (option turn_action_limit): only "
                    f"'pay' and 'end' remain", None)
        if k == "buy":
            return why_not_buy(s, p, args[0], args[1])
        if k == "sell":
            return why_not_sell(s, p, args[0], args[1], False)
        if k == "activate":
            return why_not_activate(s, p, args[0])
        if k == "deactivate":
            return why_not_deactivate(s, p, args[0])
        if k == "token":
            return why_not_token(s, p, args[0])
        if k == "advance":
            return why_not_advance(s, p, args[0])
        return why_not_open(s, p, args[0])             # auction

    def do(self, s, d, a):
        k, args = a.kind, a.args
        if k == "give":                     # part of a payment: not a turn action of its own
            do_give(s, s.order[s.turn_idx], *args)
            return
        s.turn_actions += 1                 # every other action of the turn counts (end resets the count)
        if k == "end":
            if s.tab_seat >= 0:
                settle(s)
            end_turn(s)
            return
        p = s.players[s.order[s.turn_idx]]
        if k == "pay":
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


def _field(data: Any, name: str, lo: int, hi: int) -> int:
    if not isinstance(data, dict) or set(data) != {name}:
        raise ValueError(f"a decision payload must be {{{name!r}: number}}")
    v = data[name]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError(f"bad {name} {v!r} in a decision payload")
    return v


KINDS: dict[str, Kind] = {h.kind: h for h in (Bid(), AuctionPayment(), FreeAdvance(), FreeToken(), LoseGem(),
                                               Discard())}
TURN = Turn()


# --- the contract -------------------------------------------------------------------------------------
def legal_actions(s) -> list[Action]:
    if s.over:
        return []
    items = s.pending.items
    if items:
        d = items[-1]
        out = KINDS[d.kind].legal(s, d)
    else:
        out = _turn_actions(s, s.players[s.order[s.turn_idx]])      # TURN.legal(s, None), one call less
    s.listed = out
    return out


def factored_legal(s) -> list[Action]:
    """The legal factored payment and discard actions ('give', 'drop', 'keep'; not listed, with ids)."""
    if s.over:
        return []
    items = s.pending.items
    if not items:
        return factored_actions(s, "pay", s.order[s.turn_idx])
    d = items[-1]
    if d.kind == D.APAY:
        return factored_actions(s, "pay", d.seat)
    if d.kind == D.DISCARD and not KINDS[d.kind].void(s, d):
        return factored_actions(s, "discard", d.seat)
    return []


def check(s, action: Action) -> None:
    listed = s.listed
    if listed is not None:
        for a in listed:            # (a plain loop by identity: the fastest test in CPython)
            if a is action:
                return              # this very object was just listed for this position: legal
    if s.over:
        raise IllegalAction("the game is over", "8.3")
    items = s.pending.items
    d = items[-1] if items else None
    h = TURN if d is None else KINDS[d.kind]
    if action.kind not in h.answers:
        raise IllegalAction(h.not_now(s, d, action))
    r = h.check(s, d, action)
    if r:
        raise IllegalAction(*r)


def do(s, action: Action) -> None:
    s.listed = None                 # the listing belongs to the position before this action
    items = s.pending.items
    if items:
        d = items[-1]
        KINDS[d.kind].do(s, d, action)
    else:
        TURN.do(s, None, action)
    run(s)


def run(s) -> None:
    """Advance automatic steps until a player must decide or the game is over: decisions that lapsed
    (``void``) are dropped, phases 3 and 4 end when nobody is left to act."""
    items = s.pending.items        # the stack's list (game_over clears it in place)
    while not s.over:
        if items:
            d = items[-1]
            if KINDS[d.kind].void(s, d):
                items.pop()
                continue
            return
        if not step(s):
            return


# --- the active player's options ----------------------------------------------------------------
# below these nothing of the kind is affordable (the loops that list them are skipped)
_CHEAPEST_GEM = tuple(min(row) for row in GEM_COST_BY_LEVEL)        # per gems-track level
_CHEAPEST_TOKEN = min(TOKEN_PRICES)
_CHEAPEST_ADVANCE = min(min(row) for row in TRACK_COST)
_CHEAPEST_RAISE = min(min(row[1:]) for row in TRACK_COST)      # of a token already on a track
# no artifact opens below this plus the opener's price offset: each item's minimum bid less the most its
# own discounts can take off (every copy of the discounting artifacts owned)
_OPENING_FLOOR = min(ITEM_MIN_BID[k] - sum(amount * max(ART_COPIES_BY_PLAYERS) for _owned, amount in ART_DISCOUNTS[k])
                     for k in range(N_ART))


def _turn_actions(s, p) -> list[Action]:
    """The active player's options, in a fixed order: end, pay, 3a buys, sells, (de)activations, 3b
    tokens and advances, 3c auction openings.

    Written for speed: the context (energy, the tab, the sub-phase) is computed once and the checks are
    inlined. The conditions are those of the ``why_not_*`` checks, and an opening is listed when its
    minimum bid's price (``auction.price_for``) is within the opener's ``auction.opening_capacity``;
    tests/zavandor/test_zav_listing.py compares this list with one built from those functions."""
    seat = p.seat
    mine = s.tab_seat == seat
    if s.turn_actions >= s.turn_limit:      # the turn's actions are used up: pay what is owed, end
        return [A.END, A.PAY] if mine else [A.END]
    strict = s.strict
    group = s.group
    done = s.groups_done
    ok_a = not strict or group == "a" or not done & 1
    ok_b = not strict or group == "b" or not done & 2
    ok_c = not strict or group == "c" or not done & 4
    energy = p.energy()
    if mine:
        out = [A.END, A.PAY]
        same = energy + s.tab_credit - s.tab_owed     # purchases in the open tab's group combine
        # another group pays the tab first (strict sub-phases), when another group is open to him
        other_open = (ok_a and group != "a") or (ok_b and group != "b")
        other = settled_energy(s, p) if strict and other_open else same
    else:
        out = [A.END]
        same = other = energy
    active, inactive = p.active, p.inactive
    n_active = active[0] + active[1] + active[2] + active[3] + active[4]
    has_inactive = inactive[0] or inactive[1] or inactive[2] or inactive[3] or inactive[4]
    has_gems = n_active or has_inactive
    have = same if group == "a" else other
    costs = GEM_COST_BY_LEVEL[p.levels[GEMS_T]]
    buying = ok_a and have >= _CHEAPEST_GEM[p.levels[GEMS_T]]
    # a free active slot, to buy a gem onto the spiral or activate one (7.2)
    free_slot = (buying or has_inactive) and n_active < p.slots()
    if ok_a:
        if buying:
            supply = s.gem_supply
            for g in range(5):
                if supply[g] <= 0 or costs[g] > have:
                    continue
                if g >= 2 and may_buy_kind(s, p, g) is not None:
                    continue
                if free_slot:
                    out.append(A.BUY[g])
                out.append(A.BUY_INACTIVE[g])
        if has_gems:
            for g in range(5):
                if inactive[g]:
                    out.append(A.SELL[g])
                if active[g]:
                    out.append(A.SELL_ACTIVE[g])
    if has_gems:
        for g in range(5):
            if inactive[g] and free_slot:
                out.append(A.ACTIVATE[g])
            if active[g]:
                out.append(A.DEACTIVATE[g])
    if ok_b:
        have = same if group == "b" else other
        if have >= _CHEAPEST_TOKEN:
            for price in p.tokens:
                if price <= have:
                    out.append(A.TOKEN[price])
        pentagon = p.pentagon
        if not p.advanced and have >= (_CHEAPEST_ADVANCE if pentagon else _CHEAPEST_RAISE):
            for t, lv in enumerate(p.levels):
                if lv < MAX_LEVEL and (lv or pentagon) and TRACK_COST[t][lv] <= have:
                    out.append(A.ADVANCE[t])
    if ok_c:
        # without a tab of his, the capacity is energy + the gems' sale value (7.5)
        cap = opening_capacity(s, p) if mine else energy + (p.gems_sale_total() if has_gems else 0)
        if cap >= 0:                        # (a price is never negative: max(0, x) <= cap is x <= cap)
            # price_for's terms (7.4.4) that do not depend on the item, taken out of the loop
            arts = p.arts
            arts_level = p.levels[ARTS_T]
            art_offset = s.art_mod[seat] - ART_DISCOUNT[arts_level]
            seen = 0                        # (the display may show two copies: one opening each kind)
            for k in s.display if cap >= _OPENING_FLOOR + art_offset else ():
                price = ITEM_MIN_BID[k] + art_offset
                discounts = ART_DISCOUNTS[k]
                if discounts:
                    for owned, amount in discounts:
                        price -= arts[owned] * amount
                if price > cap or seen >> k & 1:
                    continue
                seen |= 1 << k
                if (k in ONE_PER_PLAYER and arts[k]) or (k in GEM_LOSS and not n_active):
                    continue
                out.append(A.AUCTION[k])
            sent_avail = s.sent_avail
            if sent_avail and (SENT_MIN_BID + s.sent_mod[seat] - SENT_DISCOUNT[arts_level]
                               - MASK_SENT_DISCOUNT * arts[MASK]) <= cap:
                for sid in sent_avail:
                    out.append(A.AUCTION[N_ART + sid])
    return out


# --- discards (8.1) ---------------------------------------------------------------------------------
def _why_not_discard(s, p, items):
    limit = p.hand_limit()
    if items is None:
        return None
    resolved, err = resolve_items(p, items, discarding=True)
    if err:
        return (err, "8.1")
    cards, conc, d = resolved
    if s.whole_dust and d and p.dust - d not in keepable_dust(p.dust):
        keep = keepable_dust(p.dust)
        return (f"your dust is tokens {' '.join(map(str, dust_tokens(p.dust)))}: whole tokens go back (they may "
                f"only be exchanged upwards), so you can keep {', '.join(map(str, keep[:-1]))} or {keep[-1]} "
                f"dust, not {p.dust - d}", "8.1")
    left_cards = p.cards[:]
    for c in cards:
        left_cards.remove(c)
    left_conc = [p.conc[c] - conc[c] for c in range(4)]
    units = hand_units(left_cards, left_conc, p.dust - d)
    if units > limit:
        return (f"that leaves a hand of {units} and your hand limit is {limit}", "8.1")
    return None


def _do_discard(s, p, items) -> None:
    if items is None:
        cards, conc, kept_dust = keep_best(p.cards, p.conc, p.dust, p.hand_limit(), s.whole_dust)
    else:
        cards, conc, d = resolve_items(p, items, discarding=True)[0]
        kept_dust = p.dust - d
    p.remove_cards(cards)
    discard_cards(s, cards)
    for c in range(4):
        p.conc[c] -= conc[c]
    p.dust = kept_dust


