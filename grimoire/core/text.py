"""Filling a catalog text: ``{name}`` takes the parameter, ``{n|seat|seats}`` the singular or the plural
by the number ``n`` ("1 seat", "2 seats"; German "1 Platz", "2 Plätze"). Languages whose nouns do not
change after a number (Hungarian, Chinese) simply write no such choice. The web's ``t()`` (common.js)
reads the same syntax."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

_CHOICE = re.compile(r"\{(\w+)\|([^{}|]*)\|([^{}|]*)\}")


def _one(value: Any) -> bool:
    try:
        return abs(float(value)) == 1
    except (TypeError, ValueError):
        return False


def reason_text(key: str, params: dict[str, Any], t: Callable[..., str]) -> str:
    """A refusal in words (``GameInfo.reason``): the catalog text ``key`` with its values, a value
    ``{"key": k}`` shown as the catalog text ``k``."""
    return t(key, **{n: t(v["key"]) if isinstance(v, dict) else v for n, v in params.items()})


def fill(text: str, params: dict[str, Any]) -> str:
    if params:
        text = _CHOICE.sub(lambda m: (m.group(2) if _one(params.get(m.group(1))) else m.group(3))
                           if m.group(1) in params else m.group(0), text)
    for k, v in params.items():
        text = text.replace("{" + k + "}", str(v))
    return text
