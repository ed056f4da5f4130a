"""Zavandor's observation tensor (``GameInfo.tensor``), built only from a seat's observation dict.

Seats are relative to the observer: index 0 is the observer's own seat, 1 the next seat, and so on
(a spectator sees the table from seat 0). A number is divided by its scale (``[tensor.scale]`` in
``data/learning.toml``); counts of kinds are one-hot or per-kind vectors. Every field is documented in
docs/games/zavandor.md ("Observation tensor"); a test keeps that table and this layout in step.
"""

from __future__ import annotations

import functools
import math
import struct
from typing import Any

import numpy as np

from ...core.tensor import TensorField, TensorSpec, TensorWriter
from .codec import LEARNING
from .data import (
    ART_LETTER,
    ARTIFACTS,
    CARD_AVG,
    CARD_MAX,
    CARD_MIN,
    CARD_VALUES,
    CHARACTERS,
    COLOURS,
    GEMS,
    ITEM_MIN_BID,
    ITEMS,
    LETTERS,
    ORDER_CARDS,
    ROMAN,
    SENTINELS,
    TOKEN_PRICES,
    TRACKS,
)

SCALE: dict[str, float] = {k: float(v) for k, v in LEARNING["tensor"]["scale"].items()}
DECISION_KINDS = ("turn", "bid", "apay", "free", "ftoken", "lose", "discard")
STAGES = ("phase 3", "phase 4", "game over")          # the observation's stage text starts with one
GROUPS = ("a", "b", "c")
SCORE_PARTS = ("gems", "knowledge", "artifacts", "sentinels")
FLAG_OPTIONS = ("strict_subphases", "combine_with_auction", "nine_sages_dust", "druid_level3_ruby")
N_VALUES = sum(len(v) for v in CARD_VALUES)                       # 21 card values over the 4 colours
_VALUE_BASE = [sum(len(v) for v in CARD_VALUES[:c]) for c in range(4)]
_COLOUR = {c: i for i, c in enumerate(COLOURS)}
_ITEM = {x: i for i, x in enumerate(ITEMS)}
_ART = {x: i for i, x in enumerate(ARTIFACTS)}
_SENT = {x: i for i, x in enumerate(SENTINELS)}
_ROMAN = {x: i for i, x in enumerate(ROMAN)}
_CHAR = {x: i for i, x in enumerate(CHARACTERS)}
_TOKEN = {p: i for i, p in enumerate(TOKEN_PRICES)}
_KIND = {k: i for i, k in enumerate(DECISION_KINDS)}
PER_SEAT = ("p_in_game", "p_active", "p_character", "p_order_card", "p_modifiers", "p_score_now", "p_dust",
            "p_cards", "p_card_bounds", "p_concentrated", "p_under", "p_gems_active", "p_gems_inactive", "p_slots",
            "p_knowledge", "p_tokens_left", "p_pentagon_tokens", "p_artifacts", "p_sentinels", "p_hand", "p_flags")


def _layout() -> list[tuple[str, int, int, str, str]]:
    """(name, per-seat size a, fixed size b, meaning, scaling): the field has a * players + b numbers.
    docs/games/zavandor.md shows this table (``doc_table``)."""
    s = {k: f"/ {v:g}" for k, v in SCALE.items()}
    one, flag = "one-hot", "0/1"
    return [
        ("round", 0, 1, "the round", s["round"]),
        ("terminal", 0, 1, "the game is over", flag),
        ("to_move", 1, 0, "the seat that must decide (all 0 at the end)", one),
        ("scores", 1, 0, "VP as of the last phase 4 (the envelope's scores)", s["vp"]),
        ("stage", 0, len(STAGES), "phase 3 (actions), phase 4 (hand limit), game over", one),
        ("decision_kind", 0, len(DECISION_KINDS), "the decision now: " + ", ".join(DECISION_KINDS), one),
        ("decision_group", 0, len(GROUPS), "the turn's current group 3a / 3b / 3c (all 0 before any)", one),
        ("groups_done", 0, len(GROUPS), "groups 3a / 3b / 3c already closed this turn", flag),
        ("decision_item", 0, len(ITEMS), "the item being paid for (decision apay): 12 artifacts, 9 sentinels", one),
        ("free_advances", 0, 1, "free knowledge advances left (decision free)", s["advances"]),
        ("tab_seat", 1, 0, "the seat with an open purchase (all 0: none)", one),
        ("tab", 0, 2, "the open purchase: owed, credit (gem sales, items given)", s["money"]),
        ("auction_open", 0, 1, "an auction runs", flag),
        ("auction_item", 0, len(ITEMS), "its item (12 artifacts, then 9 sentinels, data order)", one),
        ("auction_bids", 0, 3, "minimum bid, high bid (0 before the opening bid), 1 once there is a high bid",
         s["bid"] + " (the flag 0/1)"),
        ("auction_high_bidder", 1, 0, "the high bidder", one),
        ("auction_passed", 1, 0, "seats that passed", flag),
        ("auction_price", 1, 0, "what each seat would pay for the high (else the minimum) bid, with its "
                                "modifier and discounts (0 for a seat not in the turn order)", s["bid"]),
        ("display", 0, len(ARTIFACTS), "artifacts on display, per kind", s["copies"]),
        ("artifact_stack", 0, len(LETTERS), "artifacts left in the stack per letter A-D", s["stack"]),
        ("sentinels_available", 0, len(SENTINELS), "sentinels still on offer", flag),
        ("sentinels_sold", 0, 1, "sentinels sold (5 end the game)", s["copies"]),
        ("gem_supply", 0, len(GEMS), "gems in the supply per kind", s["supply"]),
        ("deck_cards", 0, len(COLOURS), "cards left in each energy deck", s["deck"]),
        ("discards", 0, N_VALUES, "discarded cards per colour and value (blue 3-7, green 5-10, white 8-12, "
                                  "red 13-17)", s["copies"]),
        ("options", 0, len(FLAG_OPTIONS), "rule flags: " + ", ".join(FLAG_OPTIONS), flag),
        ("p_in_game", 1, 0, "not eliminated", flag),
        ("p_active", 1, 0, "the seat whose phase-3 turn it is", flag),
        ("p_character", len(CHARACTERS), 0, ", ".join(CHARACTERS), one),
        ("p_order_card", len(ROMAN), 0, "turn-order card I..VI (all 0: none)", one),
        ("p_modifiers", 2, 0, "artifact and sentinel price modifier of the card", s["modifier"]),
        ("p_score_now", len(SCORE_PARTS), 0, "VP if counted now, from gems, knowledge, artifacts, sentinels",
         s["score_part"]),
        ("p_dust", 1, 0, "dust", s["dust"]),
        ("p_cards", len(COLOURS), 0, "energy cards in hand per colour", s["cards"]),
        ("p_card_bounds", 3, 0, "least, average, greatest total those cards can be worth", s["card_bounds"]),
        ("p_concentrated", len(COLOURS), 0, "concentrated cards per colour", s["copies"]),
        ("p_under", len(COLOURS) + 1, 0, "under the turn-order card: cards per colour, then dust",
         f"cards {s['cards']}, dust {s['dust']}"),
        ("p_gems_active", len(GEMS), 0, "active gems per kind", s["gems"]),
        ("p_gems_inactive", len(GEMS), 0, "inactive gems per kind", s["gems"]),
        ("p_slots", 1, 0, "active slots", s["gems"]),
        ("p_knowledge", len(TRACKS), 0, "level per track (" + ", ".join(TRACKS) + ")", "/ 4"),
        ("p_tokens_left", len(TOKEN_PRICES), 0, "unbought knowledge tokens 20, 25, 30, 35, 40", flag),
        ("p_pentagon_tokens", 1, 0, "bought, unplaced tokens", s["copies"]),
        ("p_artifacts", len(ARTIFACTS), 0, "artifacts owned per kind", s["copies"]),
        ("p_sentinels", len(SENTINELS), 0, "sentinels owned", flag),
        ("p_hand", 2, 0, "hand count, hand limit", s["hand"]),
        ("p_flags", 2, 0, "paid advance used this round, the druid's ruby privilege used", flag),
        ("own_card_values", 0, N_VALUES, "own cards in hand per colour and value (as discards)", s["copies"]),
        ("own_under_values", 0, N_VALUES, "own cards under the turn-order card per colour and value", s["copies"]),
        ("own_energy", 0, 2, "own energy in hand, payment capacity (7.5)",
         f"{s['energy']}, {s['capacity']}"),
    ]


def fields(n: int) -> list[TensorField]:
    """The layout for ``n`` players. Per-seat fields (p_*, and the seat vectors) hold ``n`` blocks,
    own seat first."""
    return [TensorField(name, a * n + b, f"{meaning} ({scaling})", *_bounds(name, scaling))
            for name, a, b, meaning, scaling in _layout()]


def _bounds(name: str, scaling: str) -> tuple[float, float]:
    """A field's least and greatest value: flags, one-hots and knowledge levels (/ 4) lie in [0, 1];
    the modifiers within the turn-order cards' range; other numbers are counts, prices and points
    divided by a typical size (learning.toml), never negative but not bounded by 1 (dust, money, the
    round without a cap ...)."""
    if scaling in ("one-hot", "0/1", "/ 4"):
        return 0.0, 1.0
    if name == "p_modifiers":
        mods = [m for a, b, _ in ORDER_CARDS for m in (a, b)]
        return min(mods) / SCALE["modifier"], max(mods) / SCALE["modifier"]
    return 0.0, math.inf


def doc_table() -> str:
    """The field table of docs/games/zavandor.md (n = number of players)."""
    rows = ["| field | size | meaning | scaling |", "|---|---|---|---|"]
    for name, a, b, meaning, scaling in _layout():
        size = " + ".join(x for x in ((f"{a}n" if a > 1 else "n") if a else "", str(b) if b else "") if x)
        rows.append(f"| `{name}` | {size} | {meaning} | {scaling} |")
    return "\n".join(rows)


def _value_index(value: int, colour: str) -> int:
    c = _COLOUR[colour]
    return _VALUE_BASE[c] + value - CARD_MIN[c]


def fill(obs: dict[str, Any], w: TensorWriter) -> None:
    s = SCALE
    n = obs["num_players"]
    me = obs["seat"] if obs["seat"] is not None else 0
    z = obs["zavandor"]

    def rel(seat: int | None) -> int | None:
        return None if seat is None else (seat - me) % n

    def per_seat(values_of) -> list[float]:
        out: list[float] = []
        for k in range(n):
            out.extend(values_of((me + k) % n))
        return out

    def seats_flag(seats) -> list[float]:
        v = [0.0] * n
        for x in seats:
            v[(x - me) % n] = 1.0
        return v

    w.put("round", obs["round"] / s["round"])
    w.put("terminal", float(obs["terminal"]))
    w.one_hot("to_move", rel(obs["current_player"]))
    w.put("scores", per_seat(lambda x: [obs["scores"][x] / s["vp"]]))
    w.one_hot("stage", next(i for i, p in enumerate(STAGES) if z["stage"].startswith(p)))
    d = z["decision"]
    w.one_hot("decision_kind", _KIND[d["kind"]] if d else None)
    turn = d is not None and d["kind"] == "turn"
    w.one_hot("decision_group", GROUPS.index(d["group"]) if turn and d["group"] in GROUPS else None)
    w.put("groups_done", [float(turn and bool(d["groups_done"] >> i & 1)) for i in range(len(GROUPS))])
    w.one_hot("decision_item", _ITEM[d["item"]] if d and "item" in d else None)
    w.put("free_advances", (d.get("advances", 0) if d else 0) / s["advances"])
    tab = z["tab"]
    w.one_hot("tab_seat", rel(tab["seat"]) if tab else None)
    w.put("tab", [tab["owed"] / s["money"], tab["credit"] / s["money"]] if tab else [0.0, 0.0])
    a = z["auction"]
    w.put("auction_open", float(a is not None))
    w.one_hot("auction_item", _ITEM[a["item"]] if a else None)
    if a:
        high = a["high_bid"]
        w.put("auction_bids", [a["min_bid"] / s["bid"], (high or 0) / s["bid"], float(high is not None)])
        w.one_hot("auction_high_bidder", rel(a["high_bidder"]))
        w.put("auction_passed", seats_flag(a["passed"]))
        w.put("auction_price", per_seat(lambda x: [a["price_for"].get(str(x), 0) / s["bid"]]))
    else:
        w.put("auction_bids", [0.0] * 3)
        w.one_hot("auction_high_bidder", None)
        w.put("auction_passed", [0.0] * n)
        w.put("auction_price", [0.0] * n)
    display = [0.0] * len(ARTIFACTS)
    for k in z["display"]:
        display[_ART[k]] += 1.0 / s["copies"]
    w.put("display", display)
    w.put("artifact_stack", [z["artifact_stack"][L] / s["stack"] for L in LETTERS])
    avail = set(z["sentinels_available"])
    w.put("sentinels_available", [float(x in avail) for x in SENTINELS])
    w.put("sentinels_sold", z["sentinels_sold"] / s["copies"])
    w.put("gem_supply", [z["gem_supply"][g] / s["supply"] for g in GEMS])
    decks = z["decks"]
    w.put("deck_cards", [decks[c]["cards"] / s["deck"] for c in COLOURS])
    disc = [0.0] * N_VALUES
    for c in COLOURS:
        for value, count in decks[c]["discards"].items():
            disc[_value_index(int(value), c)] = count / s["copies"]
    w.put("discards", disc)
    w.put("options", [float(bool(z["options"][k])) for k in FLAG_OPTIONS])

    ps = z["players"]
    mods = z["modifiers"]
    active = z["active_player"]
    cols: dict[str, list[float]] = {name: [] for name in PER_SEAT}
    for k in range(n):                      # one pass over the seats, own seat first
        x = (me + k) % n
        p = ps[x]
        cols["p_in_game"].append(float(not p["eliminated"]))
        cols["p_active"].append(float(x == active))
        cols["p_character"].extend(_one_hot(len(CHARACTERS), _CHAR[p["character"]]))
        cols["p_order_card"].extend(_one_hot(len(ROMAN), _ROMAN.get(p["turn_order_card"])))
        cols["p_modifiers"].extend((mods[x]["artifact"] / s["modifier"], mods[x]["sentinel"] / s["modifier"]))
        now = p["score_now"]
        cols["p_score_now"].extend(now[part] / s["score_part"] for part in SCORE_PARTS)
        cols["p_dust"].append(p["dust"] / s["dust"])
        cards = p["cards"]
        cols["p_cards"].extend(cards[c] / s["cards"] for c in COLOURS)
        b = p["card_value_bounds"]
        cols["p_card_bounds"].extend((b["min"] / s["card_bounds"], b["avg"] / s["card_bounds"],
                                      b["max"] / s["card_bounds"]))
        conc = p["concentrated"]
        cols["p_concentrated"].extend(conc[c] / s["copies"] for c in COLOURS)
        under = p["under_card"]
        cols["p_under"].extend(under["cards"][c] / s["cards"] for c in COLOURS)
        cols["p_under"].append(under["dust"] / s["dust"])
        ga, gi = p["gems_active"], p["gems_inactive"]
        cols["p_gems_active"].extend(ga[g] / s["gems"] for g in GEMS)
        cols["p_gems_inactive"].extend(gi[g] / s["gems"] for g in GEMS)
        cols["p_slots"].append(p["slots"] / s["gems"])
        know = p["knowledge"]
        cols["p_knowledge"].extend(know[t] / 4 for t in TRACKS)
        cols["p_tokens_left"].extend(_flags(len(TOKEN_PRICES), (_TOKEN[price] for price in p["tokens_left"])))
        cols["p_pentagon_tokens"].append(p["pentagon_tokens"] / s["copies"])
        arts = p["artifacts"]
        cols["p_artifacts"].extend(arts.get(kind, 0) / s["copies"] for kind in ARTIFACTS)
        cols["p_sentinels"].extend(_flags(len(SENTINELS), (_SENT[y] for y in p["sentinels"])))
        cols["p_hand"].extend((p["hand_count"] / s["hand"], p["hand_limit"] / s["hand"]))
        cols["p_flags"].extend((float(p["paid_advance_used"]), float(p["druid_ruby_used"])))
    for name, values in cols.items():
        w.put(name, values)

    own = ps[obs["seat"]] if obs["seat"] is not None else {}
    w.put("own_card_values", _histogram(own.get("card_values", ())))
    w.put("own_under_values", _histogram(own.get("under_card_values", ())))
    w.put("own_energy", [own.get("energy", 0) / s["energy"], own.get("capacity", 0) / s["capacity"]])


def _one_hot(size: int, index: int | None) -> list[float]:
    v = [0.0] * size
    if index is not None:
        v[index] = 1.0
    return v


def _flags(size: int, indices) -> list[float]:
    v = [0.0] * size
    for i in indices:
        v[i] = 1.0
    return v


def _histogram(cards) -> list[float]:
    v = [0.0] * N_VALUES
    step = 1.0 / SCALE["copies"]
    for value, colour in cards:
        v[_value_index(value, colour)] += step
    return v


@functools.lru_cache(maxsize=8)
def size(players: int) -> int:
    """The tensor's length for ``players`` players."""
    return sum(f.size for f in fields(players))


def tensor_spec(players: int, options: dict) -> TensorSpec:
    return TensorSpec(fields(players), fill)


# --- the same tensor written from a Python-engine state, without the observation dict -----------------
# Written for speed (an RL step is mostly this): one flat list of Python floats in the layout's order,
# packed into the float32 buffer at once. Every number is computed as ``fill`` computes it from the
# dict (the same divisions; tables hold the same quotients), so the tensor is the same bit for bit
# (tests/rl/test_tensor_into.py, and a differential test over many random games).
_N_ITEMS = len(ITEMS)
_N_SENT = len(SENTINELS)
_PER_SEAT_SIZE = {name: a for name, a, _b, _m, _s in _layout() if name in PER_SEAT}
_STAGE = {"turn": 0, "hand": 1, "over": 2}
_LETTER_KINDS = tuple(tuple(k for k in range(len(ARTIFACTS)) if ART_LETTER[k] == L) for L in range(len(LETTERS)))
_S_ROUND, _S_VP, _S_PART, _S_MOD, _S_BID, _S_MONEY, _S_DUST, _S_CARDS, _S_BOUNDS, _S_COPIES, _S_GEMS, _S_HAND, \
    _S_DECK, _S_SUPPLY, _S_STACK, _S_ADV, _S_ENERGY, _S_CAP = (
        SCALE[k] for k in ("round", "vp", "score_part", "modifier", "bid", "money", "dust", "cards", "card_bounds",
                           "copies", "gems", "hand", "deck", "supply", "stack", "advances", "energy", "capacity"))
# the quotients of the small counts (artifacts, discards, gems, ...; far above what the game's pieces allow)
_COPIES = tuple(k / _S_COPIES for k in range(256))
_GEMS = tuple(k / _S_GEMS for k in range(256))
_LEVEL = tuple(lv / 4 for lv in range(5))             # knowledge levels / 4
# the artifacts of each stack letter are consecutive kinds: a letter's count is a slice's sum
_LETTER_SPANS = tuple((kinds[0], kinds[-1] + 1) for kinds in _LETTER_KINDS)
assert all(kinds == tuple(range(a, b)) for kinds, (a, b) in zip(_LETTER_KINDS, _LETTER_SPANS, strict=True))
_CHAR_HOT = tuple(tuple(_one_hot(len(CHARACTERS), c)) for c in range(len(CHARACTERS)))
_CARD_HOT = tuple(tuple(_one_hot(len(ROMAN), c)) for c in range(len(ROMAN)))
_NO_CARD = tuple(_one_hot(len(ROMAN), None))
_TOKEN_HOT = {price: i for i, price in enumerate(TOKEN_PRICES)}
_ORDERS = {n: tuple(tuple((me + k) % n for k in range(n)) for me in range(n)) for n in range(1, 7)}
_PACK: dict[int, struct.Struct] = {}
_F32 = np.dtype(np.float32)         # (numpy's built-in dtypes are singletons: others take the slow path)


def write_state(s, seat: int | None, out) -> None:
    """``fill`` of the seat's observation written from the state into ``out``: the same numbers bit for
    bit (each a Python float, rounded to float32 once, as the dict path), in the layout's order."""
    n = s.num_players
    me = 0 if seat is None else seat
    order = _ORDERS[n][me]
    ps = s.players
    seats = [ps[x] for x in order]
    v: list[float] = [s.round / _S_ROUND, float(s.over)]
    cp = s.current_player
    oh = [0.0] * n
    if cp is not None:
        oh[(cp - me) % n] = 1.0
    v += oh
    v += [p.vp / _S_VP for p in seats]
    st = [0.0] * 3
    st[_STAGE[s.stage]] = 1.0
    v += st
    kind = [0.0] * len(DECISION_KINDS)
    group = [0.0] * 3
    done = [0.0] * 3
    item = [0.0] * _N_ITEMS
    adv = 0
    if not s.over:
        items = s.pending.items
        if not items:
            kind[0] = 1.0
            if s.group in GROUPS:
                group[GROUPS.index(s.group)] = 1.0
            g = s.groups_done
            done = [1.0 if g & 1 else 0.0, 1.0 if g & 2 else 0.0, 1.0 if g & 4 else 0.0]
        else:
            d = items[-1]
            kind[_KIND[d.kind]] = 1.0
            if d.kind == "apay":
                item[d.payload.item] = 1.0
            elif d.kind == "free":
                adv = d.payload.left
    v += kind
    v += group
    v += done
    v += item
    v.append(adv / _S_ADV)
    tab = [0.0] * n
    if s.tab_seat >= 0:
        tab[(s.tab_seat - me) % n] = 1.0
        v += tab
        v += (s.tab_owed / _S_MONEY, s.tab_credit / _S_MONEY)
    else:
        v += tab
        v += (0.0, 0.0)
    auc_item = [0.0] * _N_ITEMS
    if s.auc is not None:
        it, high, hs, passed = s.auc
        auc_item[it] = 1.0
        v.append(1.0)
        v += auc_item
        v += (ITEM_MIN_BID[it] / _S_BID, (high or 0) / _S_BID, float(high is not None))
        hb = [0.0] * n
        if hs >= 0:
            hb[(hs - me) % n] = 1.0
        v += hb
        v += [1.0 if passed >> x & 1 else 0.0 for x in order]
        bid = high if high is not None else ITEM_MIN_BID[it]
        in_order = s.order
        v += [(price_for(s, x, it, bid) if x in in_order else 0) / _S_BID for x in order]
    else:
        v.append(0.0)
        v += auc_item
        v += [0.0] * (3 + 3 * n)
    display = [0.0] * len(ARTIFACTS)
    for k in s.display:
        display[k] += 1.0 / _S_COPIES
    v += display
    pile = s.art_pile
    v += [sum(pile[a:b]) / _S_STACK for a, b in _LETTER_SPANS]
    avail = [0.0] * _N_SENT
    for x in s.sent_avail:
        avail[x] = 1.0
    v += avail
    v.append(s.sent_sold / _S_COPIES)
    v += [x / _S_SUPPLY for x in s.gem_supply]
    v += [sum(d) / _S_DECK for d in s.deck]
    copies = _COPIES
    for d in s.disc:
        v += [copies[x] for x in d]
    opts = s.options
    v += [1.0 if opts[k] else 0.0 for k in FLAG_OPTIONS]
    active = s.active_seat
    v += [0.0 if p.out else 1.0 for p in seats]
    v += [1.0 if x == active else 0.0 for x in order]
    for p in seats:
        v += _CHAR_HOT[p.char]
    card_of = s.card_of
    for x in order:
        c = card_of[x]
        v += _CARD_HOT[c] if c >= 0 else _NO_CARD
    art_mod, sent_mod = s.art_mod, s.sent_mod
    for x in order:
        v += (art_mod[x] / _S_MOD, sent_mod[x] / _S_MOD)
    for p in seats:
        gems, knowledge, arts, sents = score_parts(p)
        v += (gems / _S_PART, knowledge / _S_PART, arts / _S_PART, sents / _S_PART)
    v += [p.dust / _S_DUST for p in seats]
    # cards per colour: one pass over each hand (the bounds follow from the counts: the averages are
    # halves, so their sum is exact in any order, as the dict's card-by-card sum)
    counts = [_colour_counts(p.cards) for p in seats]
    for k in counts:
        v += (k[0] / _S_CARDS, k[1] / _S_CARDS, k[2] / _S_CARDS, k[3] / _S_CARDS)
    for k in counts:
        lo = k[0] * _MIN0 + k[1] * _MIN1 + k[2] * _MIN2 + k[3] * _MIN3
        hi = k[0] * _MAX0 + k[1] * _MAX1 + k[2] * _MAX2 + k[3] * _MAX3
        avg = k[0] * _AVG0 + k[1] * _AVG1 + k[2] * _AVG2 + k[3] * _AVG3
        v += (lo / _S_BOUNDS, avg / _S_BOUNDS, hi / _S_BOUNDS)      # (a half is its own round(avg, 2))
    for p in seats:
        v += [copies[x] for x in p.conc]
    for p in seats:
        k = _colour_counts(p.under_cards)
        v += (k[0] / _S_CARDS, k[1] / _S_CARDS, k[2] / _S_CARDS, k[3] / _S_CARDS, p.under_dust / _S_DUST)
    gems_of = _GEMS
    for p in seats:
        v += [gems_of[x] for x in p.active]
    for p in seats:
        v += [gems_of[x] for x in p.inactive]
    v += [gems_of[p.slots()] for p in seats]
    level = _LEVEL
    for p in seats:
        v += [level[lv] for lv in p.levels]
    for p in seats:
        t = [0.0] * len(TOKEN_PRICES)
        for price in p.tokens:
            t[_TOKEN_HOT[price]] = 1.0
        v += t
    v += [copies[p.pentagon] for p in seats]
    for p in seats:
        v += [copies[k] for k in p.arts]
    for p in seats:
        t = [0.0] * _N_SENT
        for x in p.sents:
            t[x] = 1.0
        v += t
    for p in seats:
        v += (p.hand_count() / _S_HAND, p.hand_limit() / _S_HAND)
    for p in seats:
        v += (float(p.advanced), float(p.druid_ruby))
    if seat is None:
        v += [0.0] * (2 * N_VALUES + 2)
    else:
        p = ps[seat]
        v += _code_histogram(p.cards)
        v += _code_histogram(p.under_cards)
        v += (p.energy() / _S_ENERGY, capacity(s, p) / _S_CAP)
    _put(v, out)


def _put(v: list[float], out) -> None:
    """``out[:] = v`` (float64 -> float32 rounding to nearest, as numpy's), through struct when ``out``
    is a contiguous float32 vector of that size: several times faster than numpy's list conversion."""
    if getattr(out, "dtype", None) is _F32 and out.flags.c_contiguous and out.shape == (len(v),):
        pack = _PACK.get(len(v))
        if pack is None:
            pack = _PACK[len(v)] = struct.Struct(f"={len(v)}f")
        pack.pack_into(out, 0, *v)
    else:
        out[:] = v


_MIN0, _MIN1, _MIN2, _MIN3 = CARD_MIN
_MAX0, _MAX1, _MAX2, _MAX3 = CARD_MAX
_AVG0, _AVG1, _AVG2, _AVG3 = CARD_AVG
assert all(a * 2 == int(a * 2) for a in CARD_AVG), "the bounds' averages must be halves (exact sums)"


def _colour_counts(codes) -> list[int]:
    k = [0, 0, 0, 0]
    for code in codes:
        k[code & 3] += 1
    return k


def _code_histogram(codes) -> list[float]:
    v = [0.0] * N_VALUES
    step = 1.0 / SCALE["copies"]
    for code in codes:
        c = code & 3
        v[_VALUE_BASE[c] + (code >> 2) - CARD_MIN[c]] += step
    return v


from .auction import capacity, price_for  # noqa: E402  (after the layout: auction imports the rules)
from .scoring import parts as score_parts  # noqa: E402
