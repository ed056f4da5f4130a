"""Typed game options: one mechanism for every game (pydantic models).

A game declares its options as a subclass of :class:`GameOptions`: each field has a type, a default
and a description (the help text the CLI and the lobby show). ``validate_options`` turns whatever a
caller passed (keyword arguments, JSON from the web, ``-o key=value`` on the command line) into the
plain, normalized dict that the game state keeps, or raises :class:`GameConfigError` with one line
for a person. Validation needs the player count for some options (one character per seat), so it
is passed to the validators as the pydantic context ``{"players": n}``.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import GameConfigError


class GameOptions(BaseModel):
    """Base of every game's options. Every game accepts ``max_rounds`` (contract: the game ends and
    is scored as at a normal end when that round is over)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    max_rounds: int | None = Field(None, ge=1, description="end (and score) the game after this round; "
                                                           "none = only the rules end it")


def _one_line(game: str, cls: type[GameOptions], e: ValidationError) -> str:
    err = e.errors()[0]
    where = ".".join(str(x) for x in err.get("loc", ())) or "options"
    if err.get("type") == "extra_forbidden":
        return f"unknown option {where!r} for {game}; options are: {', '.join(cls.model_fields)}"
    msg = err.get("msg", "invalid value")
    msg = msg.removeprefix("Value error, ")
    value = err.get("input")
    shown = "" if isinstance(value, dict) else f", not {value!r}"
    return f"option {where}: {msg}{shown}"


def validate_options(game: str, cls: type[GameOptions], players: int, options: dict[str, Any]) -> dict[str, Any]:
    """The normalized options (every field, defaults filled in) as a plain JSON-safe dict."""
    if not isinstance(options, dict):
        raise GameConfigError(f"options must be an object of key: value, not {type(options).__name__}")
    bad = [k for k in options if not isinstance(k, str)]
    if bad:
        raise GameConfigError(f"option names must be text, not {bad[0]!r}")
    try:
        model = cls.model_validate(options, context={"players": players})
    except ValidationError as e:
        raise GameConfigError(_one_line(game, cls, e)) from None
    return model.model_dump(mode="json")


def options_help(cls: type[GameOptions]) -> dict[str, str]:
    """Option name -> its description with the default, for help texts."""
    out = {}
    for name, f in cls.model_fields.items():
        default = f.default
        shown = "none" if default is None else str(default).lower() if isinstance(default, bool) else default
        out[name] = f"{f.description or ''} (default {shown})".strip()
    return out


def options_schema(cls: type[GameOptions]) -> dict[str, Any]:
    """The JSON schema of a game's options (for the web lobby and API docs)."""
    return cls.model_json_schema()


def split_option_pair(pair: str) -> tuple[str, str]:
    """``key=value`` as the command lines take it (``max-rounds`` means ``max_rounds``); one clear error
    for anything else."""
    key, sep, value = pair.partition("=")
    key = key.strip().replace("-", "_")
    if not sep or not key:
        raise GameConfigError(f"options are given as key=value, not {pair!r}")
    return key, value
