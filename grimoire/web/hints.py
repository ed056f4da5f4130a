"""Per-seat hints for the browser, taken from that seat's own observation.

Zavandor: when a seat must pay or discard, the UI preselects the engine's own choice (the default
``pay`` / ``discard``). The engine puts it into the deciding seat's observation
(``default_payment`` / ``default_discard``: the cards, concentrated cards and dust the default hands
over, and an explicit action text with exactly the default's effect); this module only reshapes it
into the web's hint format. Nothing is replayed here, and only the deciding seat ever receives it
(the observation of any other seat does not contain it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

HINT_KEYS = ("cards", "concentrated", "dust", "text")


def zavandor_hints(seat: int, obs: dict) -> dict[str, Any]:
    legal = obs.get("legal_actions") or ()
    out: dict[str, Any] = {}
    tab = obs.get("tab")
    if "pay" in legal and tab and tab["seat"] == seat:
        need = tab["owed"] - tab["credit"]
        out["pay"] = {"need": need}
        default = obs.get("default_payment")
        if need > 0 and default:
            out["pay"].update({k: default[k] for k in HINT_KEYS})
    if "discard" in legal:
        default = obs.get("default_discard")
        out["discard"] = {k: default[k] for k in HINT_KEYS} if default else {}
    return out


HINTS: dict[str, Callable[[int, dict], dict[str, Any]]] = {"zavandor": zavandor_hints}


def hints_for(game: str, seat: int | None, obs: dict) -> dict[str, Any]:
    """The hints of ``seat`` given its observation ``obs`` ({} for spectators and waiting seats)."""
    fn = HINTS.get(game)
    if seat is None or fn is None or obs.get("current_player") != seat:
        return {}
    return fn(seat, obs)
