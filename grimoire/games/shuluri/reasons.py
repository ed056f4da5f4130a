"""Refusals in people's languages: the engine's English reason as a catalog key and parameters.

Every coded refusal ends its English text with ``[CODE]`` (e.g. "that costs 3 MAN and he has 1
[NOT_ENOUGH_MAN]"). The English catalog holds each of its wordings as ``shuluri.reject.<CODE>`` or
``shuluri.reject.<CODE>.<variant>`` with ``{placeholders}``; ``reason`` finds the wording the message
was made from and reads its values back, so the engine keeps making its English text in one place and
the other catalogs need only the same keys. Values are language-neutral: numbers, fields, trap and
gate numbers and figure names as they are; a spell or weapon as ``{"key": <its catalog key>}``, which
the interface shows in its language (``grimoire.core.text.reason_text``, ``common.js`` errorText).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from .data import SPELL_BY_KEY, WEAPONS

PREFIX = "shuluri.reject."
CODE = re.compile(r"\s*\[([A-Z][A-Z0-9_]*)\]")
RULE = re.compile(r"\s*\(rule [^()]*\)$")
NUMBERS = ("cost", "have", "blocks", "need", "n", "level", "trap", "seat")
PARAM = re.compile(r"\{(\w+)\}")


@functools.cache
def _words() -> dict[str, dict[str, str]]:
    """English names -> catalog keys, for the parameters that are words."""
    weapons = {w.name: f"shuluri.weapon.{k}" for k, w in WEAPONS.items()}
    weapons.update({k: f"shuluri.weapon.{k}" for k in WEAPONS})
    return {"spell": {sp.en: f"shuluri.spell.{k}" for k, sp in SPELL_BY_KEY.items()}, "weapon": weapons}


@functools.cache
def templates() -> dict[str, list[tuple[str, re.Pattern[str]]]]:
    """CODE -> [(catalog key, the English wording as a pattern)], from the English catalog."""
    from ...core.registry import game_info
    out: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
    for key, text in game_info("shuluri").catalog("en").items():
        if not key.startswith(PREFIX):
            continue
        code = key[len(PREFIX):].split(".")[0]
        pattern = ""
        pos = 0
        for m in PARAM.finditer(text):
            pattern += re.escape(text[pos:m.start()])
            name = m.group(1)
            pattern += rf"(?P<{name}>\d+)" if name in NUMBERS else rf"(?P<{name}>.+?)"
            pos = m.end()
        pattern += re.escape(text[pos:])
        out.setdefault(code, []).append((key, re.compile(pattern)))
    return out


def reason(message: str) -> tuple[str, dict[str, Any]] | None:
    """The catalog key and values of a refusal's text (with or without its "(rule ...)"), or None for a
    text without a code or in a wording the catalog does not know."""
    text = RULE.sub("", message)
    m = CODE.search(text)
    if m is None:
        return None
    text = (text[:m.start()] + text[m.end():]).strip()
    words = _words()
    for key, pattern in templates().get(m.group(1), []):
        found = pattern.fullmatch(text)
        if found is None:
            continue
        params: dict[str, Any] = {}
        for name, value in found.groupdict().items():
            if name in words:
                if value not in words[name]:
                    break
                params[name] = {"key": words[name][value]}
            else:
                params[name] = int(value) if name in NUMBERS else value
        else:
            return key, params
    return None
