"""Interface help for the deciding seat (``GameInfo.hints``): what each unused die could go to now.

Derived from the seat's legal action texts alone, so it holds nothing the seat may not know; the
terminal renderer derives the same table from the ``legal_actions`` of an observation.
"""

from __future__ import annotations

from typing import Any

from ...core.state import GameState

_TARGET_LAST = ("charge", "amplify", "upgrade")      # "<target words> <value>"
_TARGET_FIRST = ("unlock", "dust")                   # "<kind> <value>"


def die_targets(texts: list[str]) -> dict[str, list[str]]:
    """Die value (as text) -> what a die showing it could go to now, in the order of the actions,
    e.g. ``{"4": ["charge re1 green", "upgrade green", "unlock", "dust", "transmute"]}``."""
    out: dict[str, list[str]] = {}
    for text in texts:
        t = text.split()
        kind = t[0]
        if kind in _TARGET_LAST:
            key, target = t[-1], " ".join(t[:-1])
        elif kind in _TARGET_FIRST:
            key, target = t[1], kind
        elif kind == "transmute":
            key, target = t[1], kind
        else:
            continue
        lst = out.setdefault(key, [])
        if target not in lst:
            lst.append(target)
    return out


def hints(state: GameState, seat: int) -> dict[str, Any]:
    """UI help for ``seat``, the deciding seat (the core asks only for it)."""
    return {"die_targets": die_targets([a.text for a in state.legal_actions()])}
