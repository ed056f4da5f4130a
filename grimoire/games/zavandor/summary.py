"""One short line from a Zavandor observation (``GameInfo.summary``; the core puts the round, the seat
to move and the scores in front of it)."""

from __future__ import annotations

from typing import Any


def summary(obs: dict[str, Any]) -> str:
    z = obs["zavandor"]
    parts = []
    d = z["decision"]
    if d:
        what = d["kind"] + (f" {d['item']}" if "item" in d else "") + (f" {d['group']}" if d.get("group") else "")
        parts.append(f"seat {d['seat']} {what}")
    else:
        parts.append(f"over ({z['end_reason']})")
    a = z["auction"]
    if a:
        high = "no bid" if a["high_bid"] is None else f"{a['high_bid']} by {a['high_bidder']}"
        parts.append(f"auction {a['item']} {high}")
    if z["tab"]:
        parts.append(f"seat {z['tab']['seat']} owes {z['tab']['owed'] - z['tab']['credit']}")
    parts.append(f"display {len(z['display'])} sentinels sold {z['sentinels_sold']}")
    return " · ".join(parts)
