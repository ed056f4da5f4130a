"""Hidden information, in one place (ARCHITECTURE 4): what a seat may see, and determinizations.

Public: everything on the table — gems, knowledge, artifacts, sentinels, dust, concentrated cards,
the number and colour of each player's energy cards (the backs show the colour), the discard piles,
deck sizes, the artifact stack's letters. Private: the values of energy cards in a hand or under a
turn-order card (only their owner sees them), the order of the decks, and the RNG.
"""

from __future__ import annotations

from typing import Any

from ...core.rng import Rng
from .data import (
    ART_LETTER,
    ARTIFACTS,
    CARD_AVG,
    CARD_MAX,
    CARD_MIN,
    CHARACTERS,
    COLOURS,
    CONC_VALUE,
    GEMS,
    ITEM_MIN_BID,
    ITEMS,
    LETTERS,
    N_ART,
    ROMAN,
    SENTINELS,
    TRACKS,
)
from .scoring import breakdown

STAGE_NAMES = {"turn": "phase 3: player actions", "hand": "phase 4: hand limit", "over": "game over"}


def _by_colour(codes: list[int]) -> dict[str, int]:
    out = {c: 0 for c in COLOURS}
    for code in codes:
        out[COLOURS[code & 3]] += 1
    return out


def _bounds(codes: list[int]) -> dict[str, float]:
    lo = hi = 0
    avg = 0.0
    for code in codes:
        c = code & 3
        lo += CARD_MIN[c]
        hi += CARD_MAX[c]
        avg += CARD_AVG[c]
    return {"min": lo, "avg": round(avg, 2), "max": hi}


def _player_view(s, p, me: bool) -> dict[str, Any]:
    from .auction import capacity, price_for
    d: dict[str, Any] = {
        "seat": p.seat,
        "character": CHARACTERS[p.char],
        "eliminated": p.out,
        "vp": p.vp,
        "score_now": breakdown(p),
        "turn_order_card": ROMAN[s.card_of[p.seat]] if s.card_of[p.seat] >= 0 else None,
        "dust": p.dust,
        "concentrated": {COLOURS[c]: p.conc[c] for c in range(4)},
        "cards": _by_colour(p.cards),
        "card_value_bounds": _bounds(p.cards),
        "under_card": {"cards": _by_colour(p.under_cards), "dust": p.under_dust},
        "gems_active": {GEMS[g]: p.active[g] for g in range(5)},
        "gems_inactive": {GEMS[g]: p.inactive[g] for g in range(5)},
        "slots": p.slots(),
        "knowledge": {TRACKS[t]: p.levels[t] for t in range(6)},
        "tokens_left": p.tokens[:],
        "pentagon_tokens": p.pentagon,
        "artifacts": {ARTIFACTS[k]: p.arts[k] for k in range(12) if p.arts[k]},
        "sentinels": [SENTINELS[x] for x in p.sents],
        "hand_limit": p.hand_limit(),
        "hand_count": p.hand_count(),
        "paid_advance_used": p.advanced,
        "druid_ruby_used": p.druid_ruby,
        "gem_costs": {GEMS[g]: p.gem_cost(g) for g in range(5)},
        # what this player would pay for each item on offer at its minimum bid (modifiers and discounts)
        "prices_at_min": {**{ITEMS[i]: price_for(s, p.seat, i, ITEM_MIN_BID[i]) for i in sorted(set(s.display))},
                          "sentinel": price_for(s, p.seat, N_ART, ITEM_MIN_BID[N_ART])},
        "sale_values": {GEMS[g]: p.sale_value(g) for g in range(5)},
    }
    if me:
        d["card_values"] = [[code >> 2, COLOURS[code & 3]] for code in p.cards]
        d["under_card_values"] = [[code >> 2, COLOURS[code & 3]] for code in p.under_cards]
        d["energy"] = p.energy()
        d["capacity"] = capacity(s, p)
    return d


def _decision(s) -> dict[str, Any] | None:
    if s.over:
        return None
    if not s.pending:
        seat = s.order[s.turn_idx]
        return {"kind": "turn", "seat": seat, "group": s.group, "groups_done": s.groups_done}
    d = s.pending[0]
    out = {"kind": d[0], "seat": d[1]}
    if d[0] == "apay":
        out["item"] = ITEMS[d[2]]
    if d[0] == "free":
        out["advances"] = d[2]
    return out


def observation(s, seat: int | None) -> dict[str, Any]:
    from .auction import price_for
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < s.num_players):
        raise ValueError(f"no seat {seat!r} in a {s.num_players}-player game")
    auction = None
    if s.auc is not None:
        item, high, hs, passed = s.auc
        auction = {
            "item": ITEMS[item], "min_bid": ITEM_MIN_BID[item], "high_bid": high,
            "high_bidder": hs if hs >= 0 else None,
            "passed": [x for x in range(s.num_players) if passed >> x & 1],
            "price_for": {str(x): price_for(s, x, item, high if high is not None else ITEM_MIN_BID[item])
                          for x in s.order},
        }
    obs: dict[str, Any] = {
        "game": "zavandor",
        "seat": seat,
        "num_players": s.num_players,
        "options": {k: v for k, v in s.options.items()},
        "round": s.round,
        "stage": STAGE_NAMES[s.stage],
        "current_player": s.current_player,
        "active_player": s.active_seat,
        "turn_order": list(s.order),
        "modifiers": [{"artifact": s.art_mod[x], "sentinel": s.sent_mod[x]} for x in range(s.num_players)],
        "display": [ARTIFACTS[k] for k in s.display],
        "artifact_stack": {LETTERS[L]: sum(s.art_pile[k] for k in range(12) if ART_LETTER[k] == L)
                           for L in range(len(LETTERS))},
        "sentinels_available": [SENTINELS[x] for x in s.sent_avail],
        "sentinels_sold": s.sent_sold,
        "gem_supply": {GEMS[g]: s.gem_supply[g] for g in range(5)},
        "decks": {COLOURS[c]: {"cards": sum(s.deck[c]),
                               "discards": {str(CARD_MIN[c] + i): n for i, n in enumerate(s.disc[c]) if n}}
                  for c in range(4)},
        "concentrated_values": {COLOURS[c]: CONC_VALUE[c] for c in range(4)},
        "auction": auction,
        "decision": _decision(s),
        "tab": ({"seat": s.tab_seat, "owed": s.tab_owed, "credit": s.tab_credit}
                if s.tab_seat >= 0 else None),
        "players": [_player_view(s, p, p.seat == seat) for p in s.players],
        "over": s.over,
        "end_reason": s.end_reason or None,
        "winners": s.winners(),
        "history_length": s._hist_len,
    }
    if seat is not None and s.current_player == seat:
        obs["legal_actions"] = [a.text for a in s.legal_actions()]
        obs.update(_defaults(s, seat))
    return obs


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


def _defaults(s, seat: int) -> dict[str, Any]:
    """For the deciding seat: what the default 'pay' / 'discard' would hand over, and the explicit
    action text that does exactly the same (interfaces preselect it and let the player change it)."""
    from .energy import best_payment, keep_best, payout, representable
    p = s.players[seat]
    out: dict[str, Any] = {}
    if s.tab_seat == seat and s.tab_owed > s.tab_credit and p.energy() + s.tab_credit >= s.tab_owed:
        need = s.tab_owed - s.tab_credit
        cards, conc, final, lost = best_payment(p.cards, p.conc, p.dust, need)
        paid = sum(c >> 2 for c in cards) + sum(conc[c] * CONC_VALUE[c] for c in range(4))
        # the dust to hand over: just what the cards do not cover, when that is makeable; else all of it
        d = max(0, need - paid)
        if not (representable(d) and representable(p.dust - d)
                and p.dust - d + payout(paid + d - need) == final):
            d = p.dust
        out["default_payment"] = {**_items(cards, conc), "dust": d, "owed": need, "dust_after": final,
                                  "lost": lost, "text": _items_text("pay", cards, conc, d)}
    if s.pending and s.pending[0][0] == "discard" and s.pending[0][1] == seat:
        cards, conc, kept = keep_best(p.cards, p.conc, p.dust, p.hand_limit())
        out["default_discard"] = {**_items(cards, conc), "dust": p.dust - kept, "dust_kept": kept,
                                  "text": _items_text("discard", cards, conc, p.dust - kept)}
    return out


def _known_lower_bounds(s) -> dict[int, int]:
    """Energy some players are known to hold, from what they did in public (a bid they stand by, a
    tab or an auction price they must be able to pay): seat -> minimum energy in hand."""
    from .auction import price_for
    need: dict[int, int] = {}
    if s.auc is not None:
        item, high, hs, _passed = s.auc
        if high is None:
            seat = s.pending[0][1]
            need[seat] = price_for(s, seat, item, ITEM_MIN_BID[item])
        else:
            need[hs] = price_for(s, hs, item, high)
        for seat in list(need):
            need[seat] -= s.players[seat].gems_sale_total()
    if s.tab_seat >= 0:
        need[s.tab_seat] = max(need.get(s.tab_seat, 0), s.tab_owed - s.tab_credit
                               - (s.players[s.tab_seat].gems_sale_total() if s.pending else 0))
    return need


def sample_hidden(s, seat: int, rng: Rng):
    """A copy in which every card value ``seat`` cannot see is redrawn from the cards it has not
    seen (deck + other players' hidden cards, per colour), and the RNG is fresh.

    Draws that contradict what the other players have shown (a standing bid, a debt they must pay)
    are rejected; after a few tries those players get the highest unseen values instead, which
    satisfies the constraint whenever anything does and uses only public information.
    """
    bounds = {k: v for k, v in _known_lower_bounds(s).items() if k != seat}
    for attempt in range(12):
        c = _redraw(s, seat, rng, greedy=set(bounds) if attempt == 11 else ())
        if all(c.players[k].energy() >= v for k, v in bounds.items()):
            break
    c.rng = Rng(rng.next64())
    return c


def _redraw(s, seat: int, rng: Rng, greedy):
    c = s.clone()
    others = [p for p in c.players if p.seat != seat and (p.cards or p.under_cards)]
    # players constrained to hold much energy draw first (from the top when greedy)
    others.sort(key=lambda p: p.seat not in greedy)
    for colour in range(4):
        pool = c.deck[colour][:]
        base = CARD_MIN[colour]
        for p in others:
            for code in p.cards + p.under_cards:
                if code & 3 == colour:
                    pool[(code >> 2) - base] += 1
        for p in others:
            top = p.seat in greedy
            for attr in ("cards", "under_cards"):
                new = []
                for code in getattr(p, attr):
                    if code & 3 == colour:
                        if top:
                            i = max(j for j in range(len(pool)) if pool[j])
                        else:
                            i = rng.pick_weighted(pool)
                        pool[i] -= 1
                        new.append((base + i) * 4 + colour)
                    else:
                        new.append(code)
                new.sort()
                setattr(p, attr, new)
        c.deck[colour] = pool
    for p in others:
        p.cardsum = sum(code >> 2 for code in p.cards)
    return c
