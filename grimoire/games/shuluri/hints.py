"""Hints for the deciding seat (``GameInfo.hints``): help for an interface, not part of what the seat
knows (that is the observation). Computed from public facts (positions, gates, open decisions) and
the seat's own MAN only, so resampling the hidden information leaves them unchanged.

    {"man": {fig: MAN it may spend}, "reach": {fig: {field: MAN to get there}}, "lines": [text, ...]}

``reach`` lists, for each character the seat commands in its step, every field it can still get to
this step (opening closed gates on the way counts their MAN; a field with an enemy only as the last
one); ``lines`` is a short summary for the terminal.
"""

from __future__ import annotations

from typing import Any

from . import board as B
from .data import ROLES
from .movement import player_controls
from .values import available


def hints(state, seat: int) -> dict[str, Any]:
    s = state
    top = s.stack.top
    if s.phase != "play" or top is None or top.seat != seat or top.kind != "act":
        return {}
    from .ai.ctx import Ctx
    from .ai.planner import reach
    ctx = Ctx(s, seat)
    man: dict[str, int] = {}
    fields: dict[str, dict[str, int]] = {}
    lines = []
    for cid in s.named:
        f = s.figs[cid]
        if not player_controls(s, f) or f.seat != seat:
            continue
        name = s.name(f.id)
        man[name] = available(s, f)
        r = reach(ctx, f)
        fields[name] = {B.field_name(x): c for x, (c, _first, _dis) in sorted(r.items())}
        lines.append(f"{ROLES[f.role]}: {man[name]} MAN, reaches {len(r) - 1} other field(s) this step")
    return {"man": man, "reach": fields, "lines": lines}
