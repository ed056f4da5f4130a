"""Where a gladiator in pairs would stand alone within reach of two enemy gladiators (``two_on_one.py``)."""

from __future__ import annotations

from .ctx import can_strike


def exposed(s, g, fld: int, foes: list, partners: list) -> bool:
    """Whether two or more of the enemy gladiators ``foes`` could walk up and strike g on ``fld`` in their next
    steps while none of his ``partners`` could walk up and strike there (down and standing up, danced, or
    too far)."""
    if sum(1 for d in foes if can_strike(s, d, g, fld)) < 2:
        return False
    return not any(can_strike(s, p, g, fld) for p in partners)
