"""Hints for the deciding seat (``GameInfo.hints``), taken from that seat's own observation.

When a seat must pay or discard, the interfaces preselect the engine's own choice (the default
``pay`` / ``discard``). The engine puts it into the deciding seat's observation
(``default_payment`` / ``default_discard``: the cards, concentrated cards and dust the default hands
over, and an explicit action text with exactly the default's effect); this module only reshapes it
into the interfaces' hint format. Nothing is replayed here, and only the deciding seat ever receives it
(the observation of any other seat does not contain it).
"""

from __future__ import annotations

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


def hints(state, seat: int) -> dict[str, Any]:
    """The hints of the deciding ``seat`` (the core calls this only for the current player): the same
    parts of its observation, built without the rest of it."""
    from .view import _defaults
    obs: dict[str, Any] = {"legal_actions": [a.text for a in state.legal_actions()],
                           "tab": ({"seat": state.tab_seat, "owed": state.tab_owed, "credit": state.tab_credit}
                                   if state.tab_seat >= 0 else None)}
    obs.update(_defaults(state, seat))
    return zavandor_hints(seat, obs)
