"""Victory points (8.2) and sentinel bonuses (2.9), recomputed from scratch."""

from __future__ import annotations

from operator import mul

from .data import ART_VP, GEM_VP, LEVEL4_VP, MAX_LEVEL, SENT_BASE_VP, SENT_BONUS
from .player import Player

_GV0, _GV1, _GV2, _GV3, _GV4 = GEM_VP


def gem_vp(p: Player) -> int:
    a = p.active
    return a[0] * _GV0 + a[1] * _GV1 + a[2] * _GV2 + a[3] * _GV3 + a[4] * _GV4


def sentinel_bonus(p: Player, sentinel: int) -> int:
    what, which, per, cap = SENT_BONUS[sentinel]
    if what == "types":
        n = sum(1 for x in p.active if x)
    elif what == "level4":
        n = sum(1 for lv in p.levels if lv >= MAX_LEVEL)
    elif what == "active":
        n = sum(p.active[g] for g in which)
    else:  # "arts"
        n = sum(p.arts[k] for k in which)
    bonus = per * n
    return min(bonus, cap) if cap else bonus


def breakdown(p: Player) -> dict[str, int]:
    """Each part of the score, as a player would count it on the board."""
    return dict(zip(("gems", "knowledge", "artifacts", "sentinels"), parts(p), strict=True))


def parts(p: Player) -> tuple[int, int, int, int]:
    """``breakdown(p)``'s values in its order: gems, knowledge, artifacts, sentinels."""
    if p.out:
        return 0, 0, 0, 0
    sents = 0
    for s in p.sents:
        sents += SENT_BASE_VP + sentinel_bonus(p, s)
    # (a level never passes MAX_LEVEL: the tracks at level 4 are those equal to it)
    return gem_vp(p), LEVEL4_VP * p.levels.count(MAX_LEVEL), sum(map(mul, p.arts, ART_VP)), sents


def score(p: Player) -> int:
    """The sum of ``breakdown(p)``, without building it (phase 4 runs this for every player)."""
    if p.out:
        return 0
    # (a level never passes MAX_LEVEL: the tracks at level 4 are those equal to it)
    a = p.active                        # gem_vp(p), unrolled: phase 4 scores every player
    v = (a[0] * _GV0 + a[1] * _GV1 + a[2] * _GV2 + a[3] * _GV3 + a[4] * _GV4
         + LEVEL4_VP * p.levels.count(MAX_LEVEL))
    arts = p.arts
    if any(arts):
        v += sum(map(mul, arts, ART_VP))
    for s in p.sents:
        v += SENT_BASE_VP + sentinel_bonus(p, s)
    return v

