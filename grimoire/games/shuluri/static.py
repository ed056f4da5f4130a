"""Fixed tables for interfaces (GameInfo.static_data): the arena geometry and the game's lists, so a
board view needs nothing but this and the observations."""

from __future__ import annotations

from functools import cache
from typing import Any

from . import board as B
from .data import (
    HEAP_SETS,
    JAVELIN_RANGE,
    NET_RANGE,
    RANGED_RANGE,
    ROLE_STATS,
    SKILLS,
    SNEAK_MAX_BLOCKS,
    SPELLS,
    TRAPS,
    WEAPONS,
)


@cache
def _static() -> dict[str, Any]:
    walls = []
    for f in range(B.N_FIELDS):
        for d in range(6):
            n = B.NEIGHBOURS[f][d]
            if n > f and B.EDGE[f][d] != B.NO_WALL:
                g = B.GATE_AT[f][d]
                walls.append({"a": B.field_name(f), "b": B.field_name(n),
                              "kind": {B.QUARTER_WALL: "quarter", B.INNER_WALL: "inner", B.MIDDLE_WALL: "middle"}[
                                  B.EDGE[f][d]], "gate": B.GATES[g].id if g >= 0 else None})
    return {
        "fields": [{"id": B.field_name(f), "q": q, "r": r, "zone": B.ZONES[B.ZONE[f]], "quarter": B.QUARTER[f],
                    "region": B.region_name(B.REGION[f]), "block": list(B.BLOCK[f])}
                   for f, (q, r) in enumerate(B.COORDS)],
        "directions": list(B.DIRS),
        "walls": walls,
        "gates": [{"id": g.id, "fields": [B.field_name(x) for x in g.fields]} for g in B.GATES],
        "heaps": [B.field_name(h) for h in B.HEAPS],
        "trap_fields": [B.field_name(t) for t in B.TRAP_FIELDS],
        "towers": {"angles": list(B.TOWER_ANGLES), "radius": B.TOWER_RADIUS},
        "deployment": {f"I{k}": {"c_side": [B.field_name(x) for x in B.DEPLOY_C[k]],
                                 "r1_side": [B.field_name(x) for x in B.DEPLOY_R1[k]]} for k in range(B.NQ)},
        "roles": [{"code": r.code, "name": r.name, "title": r.title, "te": r.te, "ve": r.ve, "ce": r.ce, "ep": r.ep,
                   "move": r.move, "skills": list(r.skills), "ranged_weapon": r.ranged_weapon} for r in ROLE_STATS],
        "weapons": {k: {"name": w.name, "te": w.te, "ve": w.ve, "skills": list(w.skills), "reach": w.reach}
                    for k, w in WEAPONS.items()},
        "heap_sets": list(HEAP_SETS),
        "skills": {k: {"cost": v.get("cost", v.get("cost_per_field"))} for k, v in SKILLS.items()},
        "spells": [{"key": s.key, "number": s.number, "en": s.en, "hu": s.hu, "level": s.level, "type": s.type,
                    "range": s.range, "target": s.target, "strength": s.strength, "resistance": s.resistance,
                    "duration": s.duration, "harmful": s.harmful,
                    **({"lightning": s.params["lightning"]} if "lightning" in s.params else {})} for s in SPELLS],
        "traps": [{"number": n, "en": t.en, "hu": t.hu, "kind": t.kind, "cost": t.cost,
                   **{k: v for k, v in t.params.items() if isinstance(v, (int, str, bool))}}
                  for n, t in sorted(TRAPS.items())],
        # for lines of fire drawn in the browser (20.1.10) and ranges in blocks (C11.1, W18.2, 20.4)
        "line_nudge": list(B.NUDGE),
        "ranges": {**RANGED_RANGE, "javelin": JAVELIN_RANGE, "net": NET_RANGE, "sneak_visible": SNEAK_MAX_BLOCKS},
    }


def static_data() -> dict[str, Any]:
    return _static()
