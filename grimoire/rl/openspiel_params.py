"""Game options as OpenSpiel game parameters, and back.

OpenSpiel parameters are ints, floats, bools and strings, each with a default, and no None; a game
string such as ``grimoire_zavandor(players=3,seed=7)`` must parse back to the same parameters.
The mapping, per option field of the game's pydantic model:

- bool, int, float, str (and a Literal of strings): the same type, the same default;
- an optional int or float (``max_rounds``): the same type, ``-1`` meaning none;
- anything else (lists, e.g. a list of characters or of preset dice rolls): a string holding
  JSON with ``;`` in place of ``,`` (OpenSpiel's game strings split at commas), e.g.
  ``characters=["witch";"elf"]`` or ``rolls=[[1;2;3;4;5;6]]``; ``""`` means none. A string that
  is not such JSON is passed to the game as it is (``characters=witch elf`` works too).
"""

from __future__ import annotations

import json
import types
import typing
from typing import Any, Literal

from ..core.registry import GameInfo

NONE_NUMBER = -1


def _kind(annotation: Any) -> tuple[str, bool]:
    """The parameter kind of an option ("bool", "int", "float", "str", "json") and whether None is allowed."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    optional = False
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        optional = len(rest) < len(args)
        if len(rest) != 1:
            return "json", optional
        annotation = rest[0]
        origin = typing.get_origin(annotation)
        args = typing.get_args(annotation)
    if annotation is bool:
        return ("json" if optional else "bool"), optional
    if annotation in (int, float):
        return annotation.__name__, optional
    if annotation is str or (origin is Literal and all(isinstance(a, str) for a in args)):
        return ("json" if optional else "str"), optional
    return "json", optional


def option_kinds(info: GameInfo) -> dict[str, tuple[str, bool]]:
    return {name: _kind(f.annotation) for name, f in info.options.model_fields.items()}


def encode_json(value: Any) -> str:
    return "" if value is None else json.dumps(value, separators=(";", ":"))


def to_param(kind: str, optional: bool, value: Any) -> Any:
    """An option's value as a parameter value."""
    if kind == "json":
        return encode_json(value)
    if value is None and optional:
        return NONE_NUMBER
    return value


def parameter_defaults(info: GameInfo) -> dict[str, Any]:
    """The parameter specification of a game's options (name -> default)."""
    out = {}
    for name, (kind, optional) in option_kinds(info).items():
        out[name] = to_param(kind, optional, info.options.model_fields[name].default)
    return out


def options_from_params(info: GameInfo, params: dict[str, Any]) -> dict[str, Any]:
    """The game options that the parameters stand for (unvalidated: the game validates them)."""
    out: dict[str, Any] = {}
    for name, (kind, optional) in option_kinds(info).items():
        if name not in params:
            continue
        v = params[name]
        if kind == "json":
            if isinstance(v, str):
                if v == "":
                    v = None
                else:
                    try:
                        v = json.loads(v.replace(";", ","))
                    except ValueError:
                        pass
        elif kind == "str":
            v = v if isinstance(v, str) else json.dumps(v)   # a game string may have parsed "1" as a number
        elif optional and v == NONE_NUMBER:
            v = None
        elif kind == "float" and isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
        out[name] = v
    return out
