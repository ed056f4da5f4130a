"""Terminal rendering through the game's descriptor. A game's renderer (``GameInfo.renderer``, a
module of its package) provides

    render(obs: dict, seat: int | None, hints: dict | None) -> rich renderable   # one seat's view

and optionally ``describe(action_text: str) -> str`` (a longer explanation of an action) and
``warning(obs, action_text) -> str | None``. Games without a renderer are shown as their
observation in JSON.
"""

from __future__ import annotations

import importlib
import json
from types import ModuleType

from rich.pretty import Pretty

from ...core.registry import game_info


def renderer(game: str) -> ModuleType | None:
    path = game_info(game).renderer
    return importlib.import_module(path) if path else None


def render(game: str, obs: dict, seat: int | None, hints: dict | None = None):
    mod = renderer(game)
    if mod is None:
        return Pretty(json.loads(json.dumps(obs)))
    return mod.render(obs, seat, hints)


def warning(game: str, obs: dict, action_text: str) -> str | None:
    """A game's warning before a legal but ruinous action (e.g. a bid that brings a curse)."""
    mod = renderer(game)
    if mod is None or not hasattr(mod, "warning"):
        return None
    return mod.warning(obs, action_text)
