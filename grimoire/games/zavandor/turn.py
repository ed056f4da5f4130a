"""Phase 3a and 3b: gems and knowledge, the sub-phase blocks (7.1) and paying (7.6).

Non-auction purchases go on the active player's *tab*: the item is taken at once and the tab is
paid in one payment (combined purchases, 7.6) when the player pays, starts another sub-phase (with
strict_subphases), opens an auction or ends the turn. Gem sales add to the tab's credit.

Invariant: a tab can always be paid from the energy in hand plus its credit (a purchase is allowed
only then), so paying it never needs a gem sale and the player is never stuck with a debt.

Each ``why_not_*`` function returns None when the action is legal, else (message, rule).
"""

from __future__ import annotations

from .data import (
    CONC_VALUE,
    DIAMOND,
    DRUID,
    DRUID_RUBY_FIRE_LEVEL,
    ELIXIR,
    EMERALD,
    FIRE,
    GEMS,
    MAX_LEVEL,
    MAX_RUBIES,
    RUBY,
    RUBY_FIRE_LEVEL,
    SPELLBOOK,
    TRACK_COST,
    TRACK_NAMES,
)
from .energy import cached_payment, payout, representable
from .flow import discard_cards, raise_level
from .player import Player

GROUP_BIT = {"a": 1, "b": 2, "c": 4}
GROUP_NAME = {"a": "3a (gems)", "b": "3b (knowledge)", "c": "3c (auctions)"}


# --- sub-phase blocks (7.1) ----------------------------------------------------------------------
def why_not_group(s, g: str):
    if not s.strict or s.group == g:
        return None
    if s.groups_done & GROUP_BIT[g]:
        return (f"you already finished {GROUP_NAME[g]} this turn, and a group may not be split "
                f"(a-b-a is not allowed)", "7.1")
    return None


def enter_group(s, g: str) -> None:
    if s.strict and s.group != g:
        if s.group:
            s.groups_done |= GROUP_BIT[s.group]
            if s.tab_seat >= 0:
                settle(s)                 # combined purchases belong to one group (7.6)
        s.group = g


# --- the tab -------------------------------------------------------------------------------------
def tab_credit(s, p: Player) -> int:
    return s.tab_credit if s.tab_seat == p.seat else 0


def tab_owed(s, p: Player) -> int:
    return s.tab_owed if s.tab_seat == p.seat else 0


def settled_energy(s, p: Player) -> int:
    """The player's energy once his open tab is paid the default way (exact: a lost 1 included)."""
    e = p.energy()
    if s.tab_seat != p.seat:
        return e
    owed, credit = s.tab_owed, s.tab_credit
    if owed == 0:
        return e + payout(credit)                 # plain sales are paid out in dust (7.2)
    return e + credit - owed - cached_payment(p.cards, p.conc, p.dust, owed - credit)[3]


def spendable(s, p: Player, group: str) -> int:
    """What a further purchase in ``group`` may cost: starting another group (strict sub-phases)
    pays the open tab first, so what is left then counts; within the group, the tab combines."""
    if s.tab_seat == p.seat and s.strict and s.group != group:
        return settled_energy(s, p)
    return p.energy() + tab_credit(s, p) - tab_owed(s, p)


def why_not_afford(s, p: Player, cost: int, group: str):
    have = spendable(s, p, group)
    if have < cost:
        owed = tab_owed(s, p)
        extra = f" after paying the {owed} you owe" if owed else ""
        return (f"that costs {cost} and you have {have} energy{extra}; sell gems first", "7.6")
    return None


def add_to_tab(s, p: Player, cost: int) -> None:
    s.tab_seat = p.seat
    s.tab_owed += cost


def settle(s, explicit=None) -> None:
    """Pay the tab: the default payment, or exactly the items named (already checked)."""
    p = s.players[s.tab_seat]
    owed, credit = s.tab_owed, s.tab_credit
    s.tab_seat, s.tab_owed, s.tab_credit, s.tab_auc = -1, 0, 0, False
    if explicit is None:
        if owed == 0:
            p.dust += payout(credit)            # a plain sale is paid out in dust (7.2)
            return
        cards, conc, final_dust, _lost = cached_payment(p.cards, p.conc, p.dust, owed - credit)
        dust_paid_change = final_dust
    else:
        cards, conc, d = explicit
        total = sum(c >> 2 for c in cards) + sum(conc[c] * CONC_VALUE[c] for c in range(4)) + d
        dust_paid_change = p.dust - d + payout(total + credit - owed)
    p.remove_cards(cards)
    discard_cards(s, cards)
    for c in range(4):
        p.conc[c] -= conc[c]                     # concentrated cards go back to the supply
    p.dust = dust_paid_change


def resolve_items(p: Player, items, discarding: bool = False):
    """Turn parsed (value, colour) cards into this player's card codes; None if he lacks one.

    Paying hands over dust tokens, so both the amount handed over and the rest must be makeable
    from 2/5/10 tokens; discarding may first exchange at a loss (7.6), so only the rest must be.
    """
    cards_spec, conc, dust = items
    pool = p.cards[:]
    codes = []
    for value, colour in cards_spec:
        found = None
        for code in pool:
            if code >> 2 == value and (colour < 0 or code & 3 == colour):
                found = code
                break
        if found is None:
            return None, f"you have no {value}{'bgwr'[colour] if colour >= 0 else ''} card"
        pool.remove(found)
        codes.append(found)
    for c in range(4):
        if conc[c] > p.conc[c]:
            return None, f"you have only {p.conc[c]} concentrated card(s) of value {CONC_VALUE[c]}"
    if dust > p.dust:
        return None, f"you have only {p.dust} dust"
    if not representable(p.dust - dust) or not (discarding or representable(dust)):
        return None, (f"{dust} dust cannot be handed over from {p.dust} (there is no 1-dust: hand over "
                      f"an amount that leaves 0 or at least 2, never 1 or 3)")
    return (codes, list(conc), dust), None


def why_not_pay(s, seat: int, items=None, auction: bool = False):
    if s.tab_seat != seat or (not auction and s.tab_owed == 0 and s.tab_credit == 0):
        return ("there is nothing to pay now", "7.6")
    p = s.players[seat]
    owed, credit = s.tab_owed, s.tab_credit
    if items is None:
        if p.energy() + credit < owed:
            return (f"you owe {owed - credit} and have only {p.energy()} energy; sell gems first", "7.6")
        return None
    resolved, err = resolve_items(p, items)
    if err:
        return (err, "7.6")
    cards, conc, d = resolved
    if owed <= credit:
        return ("nothing more is owed (your gem sales cover it, or the price is 0); type 'pay'", "7.6")
    total = sum(c >> 2 for c in cards) + sum(conc[c] * CONC_VALUE[c] for c in range(4)) + d
    if total + credit < owed:
        return (f"that is {total} and you owe {owed - credit}", "7.6")
    return None


# --- 3a gems (7.2) ---------------------------------------------------------------------------------
def may_buy_kind(s, p: Player, gem: int):
    if gem == EMERALD and not p.arts[SPELLBOOK]:
        return ("emeralds can be bought only by the owner of a Spellbook", "2.1")
    if gem == DIAMOND and not p.arts[ELIXIR]:
        return ("diamonds can be bought only by the owner of an Elixir", "2.1")
    if gem == RUBY:
        if p.active[RUBY] + p.inactive[RUBY] >= MAX_RUBIES:
            return (f"a player may own at most {MAX_RUBIES} rubies", "2.1")
        if p.levels[FIRE] < RUBY_FIRE_LEVEL and not druid_privilege(s, p):
            return (f"rubies need Knowledge of Fire level {RUBY_FIRE_LEVEL}", "9.3")
    return None


def druid_privilege(s, p: Player) -> bool:
    return (s.druid_l3 and p.char == DRUID and not p.druid_ruby
            and p.levels[FIRE] >= DRUID_RUBY_FIRE_LEVEL)


def why_not_buy(s, p: Player, gem: int, active: bool):
    r = why_not_group(s, "a") or may_buy_kind(s, p, gem)
    if r:
        return r
    if s.gem_supply[gem] <= 0:
        return (f"no {GEMS[gem]} is left in the supply", "1")
    if active and p.n_active() >= p.slots():
        return ("no free active slot: buy it inactive, or deactivate a gem first", "7.2")
    return why_not_afford(s, p, p.gem_cost(gem), "a")


def do_buy(s, p: Player, gem: int, active: bool) -> None:
    enter_group(s, "a")
    cost = p.gem_cost(gem)
    if gem == RUBY and p.levels[FIRE] < RUBY_FIRE_LEVEL:
        p.druid_ruby = True                       # the druid's one level-3 ruby (9.3)
    s.gem_supply[gem] -= 1
    if active:
        p.active[gem] += 1
    else:
        p.inactive[gem] += 1
    add_to_tab(s, p, cost)


def why_not_sell(s, p: Player, gem: int, active: bool, paying_auction: bool):
    if not paying_auction:
        r = why_not_group(s, "a")
        if r:
            return r
    if (p.active if active else p.inactive)[gem] <= 0:
        where = "active" if active else "inactive (on your pentagon)"
        hint = "" if active or not p.active[gem] else f"; to sell an active one: 'sell active {GEMS[gem]}'"
        return (f"you have no {where} {GEMS[gem]}{hint}", "7.2")
    return None


def do_sell(s, p: Player, gem: int, active: bool, paying_auction: bool) -> None:
    if not paying_auction:
        enter_group(s, "a")
    if active:
        p.active[gem] -= 1
    else:
        p.inactive[gem] -= 1
    s.gem_supply[gem] += 1
    s.tab_seat = p.seat
    s.tab_credit += p.sale_value(gem)


def why_not_activate(s, p: Player, gem: int):
    if not p.inactive[gem]:
        return (f"you have no inactive {GEMS[gem]}", "7.2")
    if p.n_active() >= p.slots():
        return (f"all {p.slots()} active slots are full", "7.2")
    return None


def why_not_deactivate(s, p: Player, gem: int):
    if not p.active[gem]:
        return (f"you have no active {GEMS[gem]}", "7.2")
    return None


# --- 3b knowledge (7.3) ----------------------------------------------------------------------------
def why_not_token(s, p: Player, price: int):
    r = why_not_group(s, "b")
    if r:
        return r
    if price not in p.tokens:
        return (f"you have no unbought knowledge token of price {price}"
                + (f"; left: {', '.join(map(str, p.tokens))}" if p.tokens else ""), "7.3")
    return why_not_afford(s, p, price, "b")


def do_token(s, p: Player, price: int) -> None:
    enter_group(s, "b")
    p.tokens.remove(price)
    p.pentagon += 1
    add_to_tab(s, p, price)


def why_not_level(p: Player, track: int):
    lv = p.levels[track]
    if lv >= MAX_LEVEL:
        return (f"{TRACK_NAMES[track]} is already at level {MAX_LEVEL}", "2.6")
    if lv == 0 and p.pentagon == 0:
        return (f"to enter {TRACK_NAMES[track]} you need a knowledge token on your pentagon "
                f"(buy one: 'token <price>')", "7.3")
    return None


def why_not_free_level(s, p: Player, track: int):
    """A free advance (11): "moves one of his tokens one level up" (HU) — a token already on a track,
    unless the option free_advance_new_track lets it place a pentagon token on a new track."""
    if p.levels[track] == 0 and not s.free_new_track:
        return (f"a free advance moves a token already on a track one level up; you have none on "
                f"{TRACK_NAMES[track]}", "11")
    return why_not_level(p, track)


def why_not_advance(s, p: Player, track: int):
    r = why_not_group(s, "b")
    if r:
        return r
    if p.advanced:
        return ("you have already made your paid knowledge advance this round", "7.3")
    r = why_not_level(p, track)
    if r:
        return r
    return why_not_afford(s, p, TRACK_COST[track][p.levels[track]], "b")


def do_advance(s, p: Player, track: int) -> None:
    enter_group(s, "b")
    p.advanced = True
    add_to_tab(s, p, TRACK_COST[track][p.levels[track]])
    raise_level(s, p, track)


