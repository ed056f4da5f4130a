"""End-of-game scoring (spec §10): S1-S8 separately, then the total."""

from __future__ import annotations

from .player import Player
from .rules import NC, NK, Variant
from .sheet import SHEET

LABELS = {
    "S1": "artifacts", "S2": "dust", "S3": "amplifier", "S4": "colour upgrades", "S5": "sets",
    "S6": "all colours of power", "S7": "harmony", "S8": "dust creator",
}
_SET_MASKS = tuple(SHEET.category_mask[c] for c in SHEET.set_categories)
_SET_BASES = tuple(sum(SHEET.base[a] for a in SHEET.category_artifacts[c]) for c in SHEET.set_categories)
_NA = len(SHEET.artifacts)
_COLOUR_FIELDS = tuple(tuple(tuple(f for f in a.fields if SHEET.field_colour[f] == c) for c in range(NC))
                       for a in SHEET.artifacts)
_HARMONY_GROUPS = tuple(tuple(fs for fs in groups if fs) for groups in _COLOUR_FIELDS)   # per artifact
_COLOUR_COUNT = tuple(a.colour_count for a in SHEET.artifacts)
_BASE = SHEET.base
_KMASK = (1 << NK) - 1


def _popcount(x: int) -> int:
    return bin(x).count("1")


def dust_metric(var: Variant, p: Player) -> int:
    """R10.2 / A10: what the dust creator compares: dust produced, or (variant) dust still unspent."""
    if var.metric == "unspent":
        return p.fresh + sum(amt for _r, amt in p.unspent_stocks())
    return sum(p.boxes)


def harmony(var: Variant, p: Player) -> int:
    """S7 (R10.1): per artifact and colour (default) or per colour over all complete artifacts."""
    paid, fields, hmin = p.paid, p.fields, var.hmin
    total = 0
    if var.hmode == "per_artifact":
        for a in range(_NA):
            if not paid >> a & 1:
                continue
            base = _BASE[a]
            for fs in _HARMONY_GROUPS[a]:
                if len(fs) >= hmin:
                    v = fields[fs[0]]
                    if all(fields[f] == v for f in fs):
                        total += base
        return total
    for c in range(NC):
        vals = []
        bases = 0
        for a in range(_NA):
            if paid >> a & 1 and _COLOUR_FIELDS[a][c]:
                vals.extend(fields[f] for f in _COLOUR_FIELDS[a][c])
                bases += SHEET.base[a]
        if len(vals) >= hmin and len(set(vals)) == 1:
            total += bases
    return total


def breakdown(var: Variant, p: Player, metrics: list[int], seat: int) -> dict[str, int]:
    """Score of player p as if the game ended now. ``metrics`` are every seat's dust-creator metric
    (solo: a list of one); ``seat`` is p's index in it."""
    paid = p.paid
    s1 = 0
    fields_of = [0] * NC            # fields of each colour on complete artifacts
    for a in range(_NA):
        if paid >> a & 1:
            s1 += _BASE[a]
            cc = _COLOUR_COUNT[a]
            for c in range(NC):
                fields_of[c] += cc[c]
    s2 = sum(p.boxes)
    s3 = p.amp_level * _popcount(p.amped & paid)
    s4 = 0
    upg = p.upg
    for c in range(NC):
        level = _popcount(upg >> (c * NK) & _KMASK)
        if level:
            s4 += level * fields_of[c]
    s5 = sum(b for m, b in zip(_SET_MASKS, _SET_BASES, strict=True) if m & ~paid == 0)
    s6 = SHEET.bonus_all_colour * sum(1 for m in SHEET.colour_mask if m & ~paid == 0)
    s7 = harmony(var, p)
    if len(metrics) == 1:
        # solo: "mehr als zehn (10) Zauberstaub erwirtschaftet" -- always the dust produced
        s8 = SHEET.bonus_dust_creator if s2 > SHEET.solo_dust_more_than else 0
    else:
        top = max(metrics)
        mine = metrics[seat]
        winners = sum(1 for m in metrics if m == top)
        s8 = SHEET.bonus_dust_creator if (top > 0 and mine == top and (var.ties == "all_tied" or winners == 1)) else 0
    out = {"S1": s1, "S2": s2, "S3": s3, "S4": s4, "S5": s5, "S6": s6, "S7": s7, "S8": s8}
    out["total"] = s1 + s2 + s3 + s4 + s5 + s6 + s7 + s8
    return out


def breakdowns(var: Variant, players: list[Player]) -> list[dict[str, int]]:
    metrics = [dust_metric(var, p) for p in players]
    return [breakdown(var, p, metrics, i) for i, p in enumerate(players)]
