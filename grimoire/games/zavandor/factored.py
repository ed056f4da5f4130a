"""Factored payments and discards: one item at a time, so that every choice has an action id.

An explicit payment ('pay 15 8g d5') or discard ('discard 3 c20') names a whole set of items: too
many to number. The factored form hands the items over one at a time, for real:

    give <card> / give c<value> / give d<2|5|10>   hand one item toward the open purchase (7.6): it
        leaves the hand at once and its value joins the tab's credit (as a gem sale's does); 'pay'
        then settles the tab (the default payment of what is still owed, the change in dust).
    drop <card> / drop c<value>   discard one card at the hand limit (8.1);
    keep d<v>                     return dust down to v (whole tokens, exchanged upwards: a value of
                                  ``keepable_dust``); 'discard' then ends the discard (keeping the
                                  best of the rest: all of it when it fits).

So no state is added: the tab and the hand already hold everything (saved games and the tensor are
unchanged). The actions are legal but not listed (as explicit payments are): the agents and
playouts choose from the same lists as before, and the codec adds their ids to the mask
(``factored_actions``). 'give' does not count toward the turn's action limit.
"""

from __future__ import annotations

from ...core.action import Action
from . import actions as A
from .data import CONC_VALUE
from .energy import dust_units, keepable_dust, representable


def why_not_give(s, seat: int, what: int, x: int):
    if s.tab_seat != seat or s.tab_owed == 0:
        return ("there is nothing to pay now: 'give' hands one item toward an open purchase", "7.6")
    p = s.players[seat]
    if what == A.CARD:
        if x not in p.cards:
            return (f"you have no {x >> 2}{'bgwr'[x & 3]} card", "7.6")
    elif what == A.CONC:
        if not p.conc[x]:
            return (f"you have no concentrated card of value {CONC_VALUE[x]}", "7.6")
    elif not representable(p.dust - x):
        return (f"{x} dust cannot be handed over from {p.dust} (there is no 1-dust: what is left must be "
                f"0 or at least 2, never 1 or 3)", "7.6")
    return None


def do_give(s, seat: int, what: int, x: int) -> None:
    from .flow import discard_cards
    p = s.players[seat]
    if what == A.CARD:
        p.remove_cards([x])
        discard_cards(s, [x])
        s.tab_credit += x >> 2
    elif what == A.CONC:
        p.conc[x] -= 1                          # back to the supply
        s.tab_credit += CONC_VALUE[x]
    else:
        p.dust -= x
        s.tab_credit += x


def why_not_drop(s, seat: int, what: int, x: int):
    p = s.players[seat]
    if what == A.CARD:
        if x not in p.cards:
            return (f"you have no {x >> 2}{'bgwr'[x & 3]} card", "8.1")
    elif what == A.CONC:
        if not p.conc[x]:
            return (f"you have no concentrated card of value {CONC_VALUE[x]}", "8.1")
    elif x >= p.dust or not (x in keepable_dust(p.dust) if s.whole_dust else representable(x)):
        if x >= p.dust:
            return (f"you have {p.dust} dust: 'keep' returns some of it", "8.1")
        if not representable(x):
            return ("there is no 1-dust: keep 0 or at least 2 dust, never 1 or 3", "8.1")
        keep = keepable_dust(p.dust)
        return (f"your dust is whole tokens: you can keep {', '.join(map(str, keep[:-1]))} or {keep[-1]} "
                f"dust, not {x}", "8.1")
    elif dust_units(x) > p.hand_limit():
        return (f"{x} dust is more than your hand limit of {p.hand_limit()} holds", "8.1")
    return None


def do_drop(s, seat: int, what: int, x: int) -> None:
    from .flow import discard_cards
    p = s.players[seat]
    if what == A.CARD:
        p.remove_cards([x])
        discard_cards(s, [x])
    elif what == A.CONC:
        p.conc[x] -= 1
    else:
        p.dust = x


def factored_actions(s, kind: str, seat: int) -> list:
    """The factored actions legal now for ``seat`` answering a payment (kind 'pay') or a discard
    ('discard'), in id order within each group (cards, concentrated, dust)."""
    p = s.players[seat]
    out: list[Action] = []
    if kind == "pay":
        if s.tab_seat != seat or s.tab_owed == 0:
            return out
        cards, conc = A.GIVE_CARD, A.GIVE_CONC
    else:
        cards, conc = A.DROP_CARD, A.DROP_CONC
    out += [cards[c] for c in sorted(set(p.cards))]
    out += [conc[c] for c in range(4) if p.conc[c]]
    d = p.dust
    if kind == "pay":
        out += [a for k, a in A.GIVE_DUST.items() if representable(d - k)]
    elif d:
        limit = p.hand_limit()
        keep = keepable_dust(d) if s.whole_dust else range(d)
        out += [A.KEEP_DUST[v] for v in keep if v < d and representable(v) and dust_units(v) <= limit]
    return out
