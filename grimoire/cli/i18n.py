"""The terminal's language: ``--lang`` or the environment's locale, and one translator that knows
the terminal's own catalog (``cli/i18n/<lang>.json``, keys ``term.*``) and every game's catalog.

A key that is missing in the chosen language falls back to English, then to the key itself; the
catalog tests keep every key in every language, so the fallback is a safety net, not a habit.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

from ..core.registry import game_info, games
from ..core.text import fill

HERE = Path(__file__).parent / "i18n"
ENV_VARS = ("GRIMOIRE_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


@functools.cache
def languages() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in HERE.glob("*.json")))


def detect_lang(explicit: str | None = None, environ: dict[str, str] | None = None) -> str:
    """The language to use: ``explicit`` (--lang) if given, else the first locale variable that names
    a language we have (``hu_HU.UTF-8`` -> ``hu``), else English."""
    from ..core.errors import GameConfigError
    if explicit:
        code = explicit.strip().lower().replace("-", "_").split("_")[0]
        if code not in languages():
            said = catalog(detect_lang(None, environ)).get("term.err.no_lang", "no language {lang}; available: {langs}")
            raise GameConfigError(fill(said, {"lang": repr(explicit), "langs": ", ".join(languages())}))
        return code
    env = os.environ if environ is None else environ
    for var in ENV_VARS:
        value = env.get(var, "")
        for part in value.split(":"):
            code = part.strip().lower().split(".")[0].replace("-", "_").split("_")[0]
            if code in languages():
                return code
            if code in ("c", "posix"):
                return "en"
    return "en"


@functools.cache
def catalog(lang: str) -> dict[str, str]:
    out = json.loads((HERE / f"{lang}.json").read_text(encoding="utf-8"))
    for name in games():
        out.update(game_info(name).catalog(lang))
    return out


class Translator:
    """``t("term.key", n=3)`` -> the text in the language (English, then the key, as fallbacks)."""

    def __init__(self, lang: str = "en"):
        self.lang = lang
        self._cat = catalog(lang)
        self._en = catalog("en")

    def __call__(self, key: str, **params) -> str:
        text = self._cat.get(key) or self._en.get(key) or key
        return fill(text, params)

    def has(self, key: str) -> bool:
        return key in self._cat or key in self._en

    def rules(self, game: str, topic: str, english: str) -> str:
        """A rules topic in the language (the game's catalog), else the engine's English text."""
        return self._cat.get(f"{game}.rules.{topic}") or english


def translator(lang: str | None = None) -> Translator:
    """``lang`` (a command's --lang), else ``grimoire --lang`` of this run, else the locale."""
    if lang is None:
        from typer._click.globals import get_current_context
        ctx = get_current_context(silent=True)
        lang = ctx.meta.get("grimoire.lang") if ctx is not None else None
    return Translator(detect_lang(lang))
