"""Numbers for the arena and balance studies (``GameInfo.arena``), read from a finished game."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import ZauberschmiedeState
from .sheet import SHEET


def stats(state: ZauberschmiedeState) -> dict[str, float]:
    """Per game: rounds played, the best score and how many seats got the dust creator bonus (S8)."""
    b = state.score_breakdowns()
    return {"rounds": float(state.round), "top_score": float(max(x["total"] for x in b)),
            "dust_creators": float(sum(1 for x in b if x["S8"]))}


def seat_stats(state: ZauberschmiedeState) -> list[dict[str, float]]:
    """Per seat: S1-S8 and the total; each artifact completed (0/1) and amplified; the level of each
    colour; the amplifier level; dust produced, left unspent and lost; transmutations and dice unused."""
    out = []
    for p, b in zip(state.players, state.score_breakdowns(), strict=True):
        d: dict[str, float] = {k: float(v) for k, v in b.items()}
        for a in SHEET.artifacts:
            d[f"complete_{a.id}"] = float(p.paid >> a.index & 1)
        d["artifacts_complete"] = float(bin(p.paid).count("1"))
        d["artifacts_amplified"] = float(bin(p.amped & p.paid).count("1"))
        for ci, c in enumerate(SHEET.colours):
            d[f"level_{c}"] = float(p.level(ci))
        d["colours_upgraded"] = float(sum(1 for ci in range(len(SHEET.colours)) if p.level(ci)))
        d["amp_level"] = float(p.amp_level)
        produced = sum(p.boxes)
        unspent = p.fresh + sum(amt for _r, amt in p.unspent_stocks())
        paid_dust = sum(a.dust for a in SHEET.artifacts if p.paid >> a.index & 1)
        d["dust_produced"] = float(produced)
        d["dust_unspent"] = float(unspent)
        d["dust_lost"] = float(produced - unspent - paid_dust)       # excess of stocks spent whole (R6.4)
        d["transmutations_used"] = float(SHEET.transmutations - p.trans_left)
        d["dice_unused"] = float(sum(1 for _v, used, _t in p.past for u in used if not u))
        out.append(d)
    return out
