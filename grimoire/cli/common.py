"""Helpers shared by the commands: parsing options, building games and agents."""

from __future__ import annotations

import json
from typing import Any

from ..core.errors import GameConfigError
from ..core.registry import GameInfo, game_info, games

GAME_HELP = "the game: " + ", ".join(games())


def parse_option_pairs(pairs: list[str]) -> dict[str, Any]:
    """'key=value' pairs; the value is read as JSON when it can be (true, 3, ["a","b"]), else text."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise GameConfigError(f"options are given as key=value, not {pair!r}")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def split_list(text: str | None) -> list[str] | None:
    if text is None:
        return None
    return [x.strip().lower() for x in text.replace(";", ",").split(",") if x.strip()]


def require_game(game: str | None) -> GameInfo:
    """The descriptor of the game a command was given; a clear line listing the games if none was."""
    if game is None:
        raise GameConfigError("which game? " + ", ".join(games()))
    return game_info(game)
