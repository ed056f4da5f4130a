"""End-of-game scoring (spec §10): S1-S8 separately, then the total."""

from __future__ import annotations

from .player import Player
from .rules import NC, NK, Variant
from .sheet import SHEET

LABELS = {
    "S1": "artifacts", "S2": "dust", "S3": "amplifier", "S4": "colour upgrades", "S5": "sets",
    "S6": "all colours of power", "S7": "harmony", "S8": "dust creator",
}
_SETS = tuple((SHEET.category_mask[c], sum(SHEET.base[a] for a in SHEET.category_artifacts[c]))
              for c in SHEET.set_categories)                     # (mask of the set's artifacts, its bonus)
_COLOUR_MASKS = SHEET.colour_mask
_NA = len(SHEET.artifacts)
_COLOUR_FIELDS = tuple(tuple(tuple(f for f in a.fields if SHEET.field_colour[f] == c) for c in range(NC))
                       for a in SHEET.artifacts)
_HARMONY_GROUPS = tuple(tuple(fs for fs in groups if fs) for groups in _COLOUR_FIELDS)   # per artifact
_FIELDS_OF_COLOUR = tuple(tuple(a.colour_count[c] for a in SHEET.artifacts) for c in range(NC))   # [c][a]
_BASE = SHEET.base
_LEVEL = tuple(bin(m).count("1") for m in range(1 << NK))        # marked boxes of one colour -> level
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
                    for f in fs:
                        if fields[f] != v:
                            break
                    else:
                        total += base
        return total
    for c in range(NC):
        vals: list[int] = []
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
    s1, s2, s3, s4, s5, s6, s7 = sheet_parts(var, p)
    s8 = dust_creator(var, s2, metrics, seat)
    out = {"S1": s1, "S2": s2, "S3": s3, "S4": s4, "S5": s5, "S6": s6, "S7": s7, "S8": s8}
    out["total"] = s1 + s2 + s3 + s4 + s5 + s6 + s7 + s8
    return out


def sheet_parts(var: Variant, p: Player) -> tuple[int, int, int, int, int, int, int]:
    """S1-S7: what depends on p's sheet alone (S8 compares the seats: ``dust_creator``)."""
    paid = p.paid
    if not paid:                # nothing complete: only the dust produced counts
        return 0, sum(p.boxes), 0, 0, 0, 0, 0
    done = [a for a in range(_NA) if paid >> a & 1]
    s1 = 0
    for a in done:
        s1 += _BASE[a]
    s2 = sum(p.boxes)
    s3 = p.amp_level * _popcount(p.amped & paid) if paid else 0
    s4 = 0
    upg = p.upg
    if upg and done:
        for c in range(NC):
            level = _LEVEL[upg >> (c * NK) & _KMASK]
            if level:
                n = _FIELDS_OF_COLOUR[c]
                for a in done:
                    s4 += level * n[a]
    s5 = s6 = s7 = 0
    if done:
        for m, b in _SETS:
            if m & ~paid == 0:
                s5 += b
        for m in _COLOUR_MASKS:
            if m & ~paid == 0:
                s6 += SHEET.bonus_all_colour
        s7 = harmony(var, p)
    return s1, s2, s3, s4, s5, s6, s7


def dust_creator(var: Variant, produced: int, metrics: list[int], seat: int) -> int:
    """S8 of ``seat`` (``produced``: its dust produced, S2)."""
    if len(metrics) == 1:
        # solo: "mehr als zehn (10) Zauberstaub erwirtschaftet" -- always the dust produced
        return SHEET.bonus_dust_creator if produced > SHEET.solo_dust_more_than else 0
    top = max(metrics)
    mine = metrics[seat]
    winners = sum(1 for m in metrics if m == top)
    return SHEET.bonus_dust_creator if (top > 0 and mine == top and (var.ties == "all_tied" or winners == 1)) else 0


def breakdowns(var: Variant, players: list[Player]) -> list[dict[str, int]]:
    metrics = [dust_metric(var, p) for p in players]
    return [breakdown(var, p, metrics, i) for i, p in enumerate(players)]
