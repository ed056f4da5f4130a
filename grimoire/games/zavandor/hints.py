"""Hints for the deciding seat (``GameInfo.hints``): help for an interface, not part of what the seat
knows (that is the observation).

When a seat must pay or discard, the interfaces preselect the engine's own choice (the default
``pay`` / ``discard``): the cards, concentrated cards and dust it hands over, and an explicit action
text with exactly the default's effect, which the player may then change. Computed straight from the
state, reading only that seat's own hand and the public open purchase (tab): nothing another seat
hides, so resampling the hidden information leaves the hints unchanged. The core asks only for the
deciding seat (``state.hints``).

    {"pay": {"need", "cards", "concentrated", "dust", "text", "dust_after", "lost"},
     "discard": {"cards", "concentrated", "dust", "text", "dust_kept"}}

``pay`` appears when 'pay' is legal for the seat and it holds the open purchase (``need`` only, when
nothing more is owed); ``discard`` when it must discard down to its hand limit.
"""

from __future__ import annotations

from typing import Any

from . import actions as A
from .data import COLOURS, CONC_VALUE


def _items(cards, conc) -> dict[str, Any]:
    return {"cards": [[code >> 2, COLOURS[code & 3]] for code in sorted(cards, reverse=True)],
            "concentrated": {COLOURS[c]: conc[c] for c in range(4) if conc[c]}}


def _items_text(verb: str, cards, conc, dust: int) -> str:
    words = [f"{code >> 2}{COLOURS[code & 3][0]}" for code in sorted(cards, reverse=True)]
    for c in range(4):
        words += [f"c{CONC_VALUE[c]}"] * conc[c]
    if dust:
        words.append(f"d{dust}")
    return " ".join([verb] + words)


def default_payment(s, seat: int) -> dict[str, Any] | None:
    """What the default 'pay' hands over for ``seat``'s open purchase, or None if it owes nothing it
    could pay from its energy."""
    from .energy import best_payment, payout, representable
    p = s.players[seat]
    if not (s.tab_seat == seat and s.tab_owed > s.tab_credit and p.energy() + s.tab_credit >= s.tab_owed):
        return None
    need = s.tab_owed - s.tab_credit
    cards, conc, final, lost = best_payment(p.cards, p.conc, p.dust, need)
    paid = sum(c >> 2 for c in cards) + sum(conc[c] * CONC_VALUE[c] for c in range(4))
    # the dust to hand over: just what the cards do not cover, when that is makeable; else all of it
    d = max(0, need - paid)
    if not (representable(d) and representable(p.dust - d) and p.dust - d + payout(paid + d - need) == final):
        d = p.dust
    return {**_items(cards, conc), "dust": d, "dust_after": final, "lost": lost,
            "text": _items_text("pay", cards, conc, d)}


def default_discard(s, seat: int) -> dict[str, Any]:
    """What the default 'discard' gives up to bring ``seat``'s hand down to its limit."""
    from .energy import keep_best
    p = s.players[seat]
    cards, conc, kept = keep_best(p.cards, p.conc, p.dust, p.hand_limit(), s.whole_dust)
    return {**_items(cards, conc), "dust": p.dust - kept, "dust_kept": kept,
            "text": _items_text("discard", cards, conc, p.dust - kept)}


def hints(state, seat: int) -> dict[str, Any]:
    """The hints of the deciding ``seat`` (the core calls this only for the current player)."""
    out: dict[str, Any] = {}
    if state.tab_seat == seat and state.is_legal(A.PAY):
        need = state.tab_owed - state.tab_credit
        out["pay"] = {"need": need}
        default = default_payment(state, seat) if need > 0 else None
        if default:
            out["pay"].update(default)
    if state.is_legal(A.DISCARD):
        out["discard"] = default_discard(state, seat)
    return out
