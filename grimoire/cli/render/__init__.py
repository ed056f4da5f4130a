"""Terminal rendering through the game's descriptor. A game's renderer (``GameInfo.renderer``, a
module of its package) provides

    render(obs: dict, seat: int | None, hints: dict | None) -> rich renderable   # one seat's view

and may accept the keywords ``t`` (a translator: ``t("key", n=3)``, the game's and the terminal's
catalogs in the player's language), ``view`` (None = the compact board that fits 80 columns, or
one of the names in the module's ``VIEWS``: detail views such as "full") and ``width`` (the
terminal's columns). Optionally also ``VIEWS: dict[str, str]`` (view name -> catalog key of its
one-line description), ``describe(action_text[, t]) -> str`` (a longer explanation of an action),
``warning(obs, action_text[, t]) -> str | None`` (a question before a legal but costly action) and
``label(action_text, t) -> str`` (an action in words, for logs). A view may take an argument after
its name (``"zoom 3,-2"``; ``VIEW_ARGS``: view name -> catalog key of the argument's syntax), and
``check_view(obs, view, seat, t) -> str | None`` says in one line why a view cannot be shown.
``menu(obs, prefix, options, t, hints) -> dict`` makes the terminal pick actions level by level
(cli/picker.py): the question at a level (``title``), its options in words (``labels``) and
optionally a ``view`` to show with them (a map with the target fields marked).
Games without a renderer are shown as their observation in JSON.
"""

from __future__ import annotations

import importlib
import inspect
import json
from collections.abc import Callable
from types import ModuleType
from typing import Any

from rich.pretty import Pretty

from ...core.registry import game_info


def renderer(game: str) -> ModuleType | None:
    path = game_info(game).renderer
    return importlib.import_module(path) if path else None


def _accepts(fn: Callable, name: str) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return name in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


def _call(fn: Callable, *args, **kwargs) -> Any:
    """Call a renderer function with the keywords it knows (older renderers take fewer)."""
    return fn(*args, **{k: v for k, v in kwargs.items() if v is not None and _accepts(fn, k)})


def views(game: str) -> dict[str, str]:
    """The game's detail views: name -> catalog key of its description."""
    mod = renderer(game)
    return dict(getattr(mod, "VIEWS", {}) or {}) if mod else {}


def view_args(game: str) -> dict[str, str]:
    """The views that take an argument: name -> catalog key of the argument's syntax (``VIEW_ARGS``)."""
    mod = renderer(game)
    return dict(getattr(mod, "VIEW_ARGS", {}) or {}) if mod else {}


def render(game: str, obs: dict, seat: int | None, hints: dict | None = None, *, t=None, view: str | None = None,
           width: int | None = None):
    mod = renderer(game)
    if mod is None:
        return Pretty(json.loads(json.dumps(obs)))
    return _call(mod.render, obs, seat, hints, t=t, view=view, width=width)


def warning(game: str, obs: dict, action_text: str, t=None) -> str | None:
    """A game's question before a legal but ruinous action (e.g. a bid that brings a curse)."""
    mod = renderer(game)
    if mod is None or not hasattr(mod, "warning"):
        return None
    return _call(mod.warning, obs, action_text, t=t)


def describe(game: str, text: str, t=None) -> str | None:
    mod = renderer(game)
    if mod is None or not hasattr(mod, "describe"):
        return None
    return _call(mod.describe, text, t=t)


def label(game: str, text: str, t=None) -> str:
    """An action text in words for the log (the text itself if the game has no words for it)."""
    mod = renderer(game)
    if mod is None or not hasattr(mod, "label") or t is None:
        return text
    return mod.label(text, t)


def check_view(game: str, obs: dict, view: str, seat: int | None, t=None) -> str | None:
    """Why the view (with its argument) cannot be shown, or None."""
    mod = renderer(game)
    if mod is None or not hasattr(mod, "check_view"):
        return None
    return _call(mod.check_view, obs, view, seat=seat, t=t)


def has_menu(game: str) -> bool:
    mod = renderer(game)
    return mod is not None and hasattr(mod, "menu")


def menu(game: str, obs: dict, prefix: list[str], options: list[str], t=None, hints: dict | None = None) -> dict:
    """The game's words for one level of the picker (empty when it has none)."""
    mod = renderer(game)
    if mod is None or not hasattr(mod, "menu"):
        return {}
    return _call(mod.menu, obs, prefix, options, t=t, hints=hints) or {}
