"""Zavandor's observation tensor (``GameInfo.tensor``), built only from a seat's observation dict.

Seats are relative to the observer: index 0 is the observer's own seat, 1 the next seat, and so on
(a spectator sees the table from seat 0). A number is divided by its scale (``[tensor.scale]`` in
``data/learning.toml``); counts of kinds are one-hot or per-kind vectors. Every field is documented in
docs/games/zavandor.md ("Observation tensor"); a test keeps that table and this layout in step.
"""

from __future__ import annotations

import math
from typing import Any

from ...core.tensor import TensorField, TensorSpec, TensorWriter
from .codec import LEARNING
from .data import (
    ARTIFACTS,
    CARD_MIN,
    CARD_VALUES,
    CHARACTERS,
    COLOURS,
    GEMS,
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
        ("tab", 0, 2, "the open purchase: owed, credit from gem sales", s["money"]),
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


def tensor_spec(players: int, options: dict) -> TensorSpec:
    return TensorSpec(fields(players), fill)
