"""Filling a catalog text: ``{name}`` takes the parameter, ``{n|seat|seats}`` the singular or the plural
by the number ``n`` ("1 seat", "2 seats"; German "1 Platz", "2 Plätze"). Languages whose nouns do not
change after a number (Hungarian, Chinese) simply write no such choice. The web's ``t()`` (common.js)
reads the same syntax."""

from __future__ import annotations

import re
from typing import Any

_CHOICE = re.compile(r"\{(\w+)\|([^{}|]*)\|([^{}|]*)\}")


def _one(value: Any) -> bool:
    try:
        return abs(float(value)) == 1
    except (TypeError, ValueError):
        return False


def fill(text: str, params: dict[str, Any]) -> str:
    if params:
        text = _CHOICE.sub(lambda m: (m.group(2) if _one(params.get(m.group(1))) else m.group(3))
                           if m.group(1) in params else m.group(0), text)
    for k, v in params.items():
        text = text.replace("{" + k + "}", str(v))
    return text
