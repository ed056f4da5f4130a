"""The observation tensor (grimoire/core/tensor.py) and the one-line summary, from an observation only.

Layout (every field is documented in docs/games/zauberschmiede.md): the game's clock and options,
the roll, the viewer's unused dice, then one block per sheet. The sheets are in seat order starting
with the viewer's own (slot 0 = the viewer, slot 1 = the next seat, ...), so that a network sees its
own sheet in the same place at every seat; a spectator's view starts with seat 0. The other sheets
are those of the observation: as at the start of the round until the round is over.
"""

from __future__ import annotations

import functools
from typing import Any

from ...core.tensor import TensorField, TensorSpec, TensorWriter
from .actions import SIDES
from .sheet import CONFIG, SHEET

GAME = "zauberschmiede"
R = SHEET.rounds
D = SHEET.dice_per_round
NF = SHEET.nfields
NA = len(SHEET.artifacts)
NC = len(SHEET.colours)
NK = len(SHEET.upgrade_values)
LEVELS = len(SHEET.amp_costs)
SCORE_KEYS = ("S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "total")
SCORE_SCALE = float(CONFIG["solo_score_bound"])     # bounds every seat's score (bounds.py)
ART_IDS = tuple(a.id for a in SHEET.artifacts)
ART_INDEX = {a: i for i, a in enumerate(ART_IDS)}
FIELD_OFFSET = tuple(a.fields[0] for a in SHEET.artifacts)      # fields of an artifact are consecutive
UPG_INDEX = {(c, v): ci * NK + k for ci, c in enumerate(SHEET.colours) for k, v in enumerate(SHEET.upgrade_values)}
MAX_AMP_COST = max(SHEET.amp_costs)

GLOBAL_FIELDS = (
    ("round", R, "the current round, one-hot"),
    ("last_round", R, "the round after which the game ends (7, or the max_rounds option), one-hot"),
    ("terminal", 1, "1 when the game is over"),
    ("to_move", 1, "1 when this seat decides now"),
    ("variant", 7, "rule options: field minimums on, fresh dust divisible, global harmony, "
                   "1 / harmony_min_fields, amplifier in instalments, dust creator by unspent dust, "
                   "no dust creator on ties (1 = yes)"),
    ("roll", SIDES, "dice of this round's roll showing 1..6 (count / dice per round)"),
    ("own_dice", SIDES, "the viewer's unused dice of this round showing 1..6 after its transmutations "
                        "(count / dice per round)"),
)
SHEET_FIELDS = (
    ("fields", NF * SIDES, "per energy field (sheet order), the value written in it, one-hot over 1..6; "
                           "all zero = empty"),
    ("complete", NA, "per artifact: complete (dust paid), 0/1"),
    ("amplified", NA, "per artifact: amplifier gem used, 0/1"),
    ("dust_boxes", R, "dust produced in each round (blue boxes) / dice per round"),
    ("fresh_dust", 1, "fresh dust of this round not yet spent / dice per round"),
    ("stocks", R, "unspent dust stock formed at the end of each round / dice per round (0: none or spent)"),
    ("amp_level", LEVELS + 1, "amplifier level 0..3, one-hot"),
    ("amp_paid", 1, "dice paid towards the next amplifier level / the highest level cost"),
    ("upgrades", NC * NK, "colour boxes marked, per colour (sheet order) and value 4, 5, 6, 0/1"),
    ("transmutations_left", 1, "transmutations left / transmutations per game"),
    ("decided", 1, "1 when this seat has ended the current round"),
    ("score", len(SCORE_KEYS), "S1..S8 and the total of the sheet as seen, as if the game ended now, "
                               "/ the score bound 370"),
)


def _fields(players: int) -> list[TensorField]:
    # every value is a flag, a one-hot entry or a count divided by its bound: all within [0, 1]
    out = [TensorField(name, size, doc, 0.0, 1.0) for name, size, doc in GLOBAL_FIELDS]
    for name, size, doc in SHEET_FIELDS:
        out.append(TensorField(f"sheets.{name}", players * size,
                               f"{doc}; one block per sheet, the viewer's first, then the next seats", 0.0, 1.0))
    return out


@functools.lru_cache(maxsize=8)
def size(players: int) -> int:
    """The tensor's length for ``players`` players."""
    return sum(f.size for f in _fields(players))


def _variant(opts: dict[str, Any]) -> list[float]:
    return [float(opts["field_min_constraints"]), float(opts["fresh_dust_divisible"]),
            float(opts["harmony_mode"] == "global"), 1.0 / opts["harmony_min_fields"],
            float(opts["amplifier_partial_payment"]), float(opts["dust_creator_metric"] == "unspent"),
            float(opts["dust_creator_ties"] == "none")]


def _counts(values, scale: float) -> list[float]:
    out = [0.0] * SIDES
    for v in values:
        out[v - 1] += 1.0
    return [x / scale for x in out]


def fill(obs: dict[str, Any], w: TensorWriter) -> None:
    g = obs[GAME]
    n = obs["num_players"]
    seat = obs["seat"]
    first = 0 if seat is None else seat
    order = [(first + k) % n for k in range(n)]
    sheets = g["sheets"]
    rnd, last = obs["round"], g["rounds"]
    w.one_hot("round", rnd - 1)
    w.one_hot("last_round", last - 1)
    w.put("terminal", float(obs["terminal"]))
    w.put("to_move", float(seat is not None and obs["current_player"] == seat))
    w.put("variant", _variant(g["options"]))
    w.put("roll", _counts(g["roll"], D))
    me = sheets[first]
    w.put("own_dice", _counts([v for v, u in zip(me["dice"], me["used"], strict=True) if not u], D))
    fields: list[float] = []
    complete: list[float] = []
    amplified: list[float] = []
    boxes: list[float] = []
    fresh: list[float] = []
    stocks: list[float] = []
    amp_level: list[float] = []
    amp_paid: list[float] = []
    upgrades: list[float] = []
    trans: list[float] = []
    decided: list[float] = []
    score: list[float] = []
    for i in order:
        sh = sheets[i]
        f = [0.0] * (NF * SIDES)
        for a, vals in sh["fields"].items():
            base = FIELD_OFFSET[ART_INDEX[a]]
            for k, v in enumerate(vals):
                if v is not None:
                    f[(base + k) * SIDES + v - 1] = 1.0
        fields += f
        c = [0.0] * NA
        for a in sh["complete"]:
            c[ART_INDEX[a]] = 1.0
        complete += c
        c = [0.0] * NA
        for a in sh["amplified"]:
            c[ART_INDEX[a]] = 1.0
        amplified += c
        boxes += [x / D for x in sh["dust_boxes"]]
        fresh.append(sh["fresh_dust"] / D)
        st = [0.0] * R
        for s in sh["stocks"]:
            if not s["spent"]:
                st[s["round"] - 1] = s["amount"] / D
        stocks += st
        lv = [0.0] * (LEVELS + 1)
        lv[sh["amp_level"]] = 1.0
        amp_level += lv
        amp_paid.append(sh["amp_paid"] / MAX_AMP_COST)
        u = [0.0] * (NC * NK)
        for colour, values in sh["upgrades"].items():
            for v in values:
                u[UPG_INDEX[colour, v]] = 1.0
        upgrades += u
        trans.append(sh["transmutations_left"] / SHEET.transmutations)
        decided.append(float(sh["decided"]))
        sc = sh["score"]
        score += [sc[k] / SCORE_SCALE for k in SCORE_KEYS]
    w.put("sheets.fields", fields)
    w.put("sheets.complete", complete)
    w.put("sheets.amplified", amplified)
    w.put("sheets.dust_boxes", boxes)
    w.put("sheets.fresh_dust", fresh)
    w.put("sheets.stocks", stocks)
    w.put("sheets.amp_level", amp_level)
    w.put("sheets.amp_paid", amp_paid)
    w.put("sheets.upgrades", upgrades)
    w.put("sheets.transmutations_left", trans)
    w.put("sheets.decided", decided)
    w.put("sheets.score", score)


def tensor_spec(players: int, options: dict[str, Any]) -> TensorSpec:
    return TensorSpec(_fields(players), fill)


def summary(obs: dict[str, Any]) -> str:
    """One short line: the roll and, per seat, its visible score, complete artifacts and dust."""
    g = obs[GAME]
    parts = [f"roll {''.join(map(str, g['roll']))}"]
    for sh in g["sheets"]:
        mark = "*" if sh["decided"] and not obs["terminal"] else ""
        parts.append(f"s{sh['seat']}{mark} {sh['score']['total']}p {len(sh['complete'])}art "
                     f"{sum(sh['dust_boxes'])}dust L{sh['amp_level']}")
    return " | ".join(parts)
