"""Hidden information, in one place: what a seat may see, and determinizations.

Public: everything on the table — gems, knowledge, artifacts, sentinels, dust, concentrated cards,
the number and colour of each player's energy cards (the backs show the colour), the discard piles,
deck sizes, the artifact stack's letters. Private: the values of energy cards in a hand or under a
turn-order card (only their owner sees them), the order of the decks, and the RNG.
"""

from __future__ import annotations

from typing import Any

from ...core.parts import Kept
from ...core.rng import Rng
from .auction import capacity, price_for
from .data import (
    ART_LETTER,
    ARTIFACTS,
    CARD_AVG,
    CARD_MAX,
    CARD_MIN,
    CHARACTERS,
    COLOURS,
    GEM_COST_BY_LEVEL,
    GEM_SALE_BY_LEVEL,
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

_LETTER_KINDS = tuple(tuple(k for k in range(12) if ART_LETTER[k] == L) for L in range(len(LETTERS)))

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


def _player_view(s, p) -> dict[str, Any]:
    """Everything about one player that every seat may see."""
    seat = p.seat
    active, inactive, levels = p.active, p.inactive, p.levels
    gl = levels[0]
    sentinel_price = price_for(s, seat, N_ART, ITEM_MIN_BID[N_ART])
    prices = {ITEMS[i]: price_for(s, seat, i, ITEM_MIN_BID[i]) for i in sorted(set(s.display))}
    prices["sentinel"] = sentinel_price
    return {
        "seat": seat,
        "character": CHARACTERS[p.char],
        "eliminated": p.out,
        "vp": p.vp,
        "score_now": breakdown(p),
        "turn_order_card": ROMAN[s.card_of[seat]] if s.card_of[seat] >= 0 else None,
        "dust": p.dust,
        "concentrated": dict(zip(COLOURS, p.conc, strict=True)),
        "cards": _by_colour(p.cards),
        "card_value_bounds": _bounds(p.cards),
        "under_card": {"cards": _by_colour(p.under_cards), "dust": p.under_dust},
        "gems_active": dict(zip(GEMS, active, strict=True)),
        "gems_inactive": dict(zip(GEMS, inactive, strict=True)),
        "slots": p.slots(),
        "knowledge": dict(zip(TRACKS, levels, strict=True)),
        "tokens_left": p.tokens[:],
        "pentagon_tokens": p.pentagon,
        "artifacts": {ARTIFACTS[k]: n for k, n in enumerate(p.arts) if n},
        "sentinels": [SENTINELS[x] for x in p.sents],
        "hand_limit": p.hand_limit(),
        "hand_count": p.hand_count(),
        "paid_advance_used": p.advanced,
        "druid_ruby_used": p.druid_ruby,
        "gem_costs": dict(zip(GEMS, GEM_COST_BY_LEVEL[gl], strict=True)),
        # what this player would pay for each item on offer at its minimum bid (modifiers and discounts)
        "prices_at_min": prices,
        "sale_values": dict(zip(GEMS, GEM_SALE_BY_LEVEL[gl], strict=True)),
    }


# A player's public view is a function of the player (every slot) and of three things of the state: its
# turn-order card, its auction modifiers and the items on display (its prices at the minimum bid). An action
# changes one player or two, so the views are kept by that key and handed out again (``Kept``: never changed
# once built; the server writes each one's JSON once while it comes back, web/viewjson.py). ~1.5 KB an
# entry: the cache starts afresh rather than grow (at 1,000 games an entry is needed again within an action).
_KEPT: dict[tuple, Kept] = {}
_KEPT_MAX = 8192


def _kept_player_view(s, p) -> Kept:
    seat = p.seat
    key = (seat, p.char, p.dust, tuple(p.cards), tuple(p.conc), tuple(p.active), tuple(p.inactive),
           tuple(p.levels), tuple(p.tokens), p.pentagon, tuple(p.arts), tuple(p.sents), tuple(p.under_cards),
           p.under_dust, p.vp, p.advanced, p.druid_ruby, p.out,
           s.card_of[seat], s.art_mod[seat], s.sent_mod[seat], tuple(s.display))
    got = _KEPT.get(key)
    if got is None:
        if len(_KEPT) >= _KEPT_MAX:
            _KEPT.clear()
        got = _KEPT[key] = Kept(_player_view(s, p))
    return got


# The owner's view adds what the public one does not show: a function of the player (as the public view's)
# and of what it can pay, which may count an open tab. Kept by the public view and that amount.
_OWN: dict[tuple[int, int], tuple[Kept, Kept]] = {}


def _kept_own_view(s, p, public: Kept) -> Kept:
    cap = capacity(s, p)
    got = _OWN.get((id(public), cap))
    if got is None or got[0] is not public:
        if len(_OWN) >= _KEPT_MAX:
            _OWN.clear()
        got = _OWN[(id(public), cap)] = (public, Kept({**public, **_private_view(s, p, cap)}))
    return got[1]


def _private_view(s, p, cap: int | None = None) -> dict[str, Any]:
    """What only the player himself sees: his card values and what he can pay."""
    return {
        "card_values": [[code >> 2, COLOURS[code & 3]] for code in p.cards],
        "under_card_values": [[code >> 2, COLOURS[code & 3]] for code in p.under_cards],
        "energy": p.energy(),
        "capacity": capacity(s, p) if cap is None else cap,
    }


# --- the decision stack, read through this helper only (its representation is the rules' business) ---
def _decision(s) -> dict[str, Any] | None:
    if s.over:
        return None
    if not s.pending:
        seat = s.order[s.turn_idx]
        return {"kind": "turn", "seat": seat, "group": s.group, "groups_done": s.groups_done,
                "actions_left": max(0, s.turn_limit - s.turn_actions)}
    d = s.pending.top
    out = {"kind": d.kind, "seat": d.seat}
    if d.kind == "apay":
        out["item"] = ITEMS[d.payload.item]
    if d.kind == "free":
        out["advances"] = d.payload.left
    return out


def observe(s, seats: list[int | None]) -> list[dict[str, Any]]:
    """Zavandor's own part of the observations of several seats (the core adds the envelope: game,
    seat, round, current player, scores, winners, legal actions). The public parts are built once
    and shared between the seats' dicts: treat them as read-only (serialize, don't modify)."""
    base = _public(s)
    players = [_kept_player_view(s, p) for p in s.players]
    out = []
    for seat in seats:
        obs = dict(base)
        if seat is None:
            obs["players"] = players
        else:
            mine = list(players)
            mine[seat] = _kept_own_view(s, s.players[seat], players[seat])
            obs["players"] = mine
        out.append(obs)
    return out


def _public(s) -> dict[str, Any]:
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
    return {
        "options": dict(s.options),
        "stage": STAGE_NAMES[s.stage],
        "active_player": s.active_seat,
        "turn_order": list(s.order),
        "modifiers": [{"artifact": s.art_mod[x], "sentinel": s.sent_mod[x]} for x in range(s.num_players)],
        "display": [ARTIFACTS[k] for k in s.display],
        "artifact_stack": {LETTERS[L]: sum(s.art_pile[k] for k in _LETTER_KINDS[L]) for L in range(len(LETTERS))},
        "sentinels_available": [SENTINELS[x] for x in s.sent_avail],
        "sentinels_sold": s.sent_sold,
        "gem_supply": dict(zip(GEMS, s.gem_supply, strict=True)),
        "decks": {COLOURS[c]: {"cards": sum(s.deck[c]),
                               "discards": {str(CARD_MIN[c] + i): n for i, n in enumerate(s.disc[c]) if n}}
                  for c in range(4)},
        "auction": auction,
        "decision": _decision(s),
        "tab": ({"seat": s.tab_seat, "owed": s.tab_owed, "credit": s.tab_credit}
                if s.tab_seat >= 0 else None),
        "players": None,
        "end_reason": s.end_reason or None,
        "history_length": s._hist_len,
    }


def _known_lower_bounds(s) -> dict[int, int]:
    """Energy some players are known to hold, from what they did in public (a bid they stand by, a
    tab or an auction price they must be able to pay): seat -> minimum energy in hand."""
    need: dict[int, int] = {}
    if s.auc is not None:
        item, high, hs, _passed = s.auc
        if high is None:
            seat = s.current_player          # the opener, who must make the opening bid
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
