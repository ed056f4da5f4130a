"""Names the tools' tables show people, in the reader's language: agents (``ai.<name>``, keeping any
parameters), a game's title, its arena stats and roles (``<game>.arena.<key>``, roles also
``<game>.role.<key>``), and seats numbered from 1. The machine-readable outputs keep the raw keys."""

from __future__ import annotations

from .i18n import Translator


def agent_label(t: Translator, spec: str, game: str | None = None) -> str:
    """``hard:iterations=150`` -> ``困難:iterations=150`` (the parameters are typed as they are)."""
    name, sep, params = spec.partition(":")
    key = name.strip().lower()
    for k in ([f"{game}.ai.{key}"] if game else []) + [f"ai.{key}"]:
        if t.has(k):
            return t(k) + sep + params
    return spec


def agents_label(t: Translator, specs: list[str], game: str | None = None) -> str:
    return ", ".join(agent_label(t, s, game) for s in specs)


def game_title(t: Translator, game: str, english: str) -> str:
    key = f"{game}.title"
    return t(key) if t.has(key) else english


def stat_label(t: Translator, game: str, key: str) -> str:
    """A per-game or per-seat number of the arena hooks; the tests keep every key in the catalogs."""
    k = f"{game}.arena.{key}"
    return t(k) if t.has(k) else key.replace("_", " ")


def role_label(t: Translator, game: str, role: str) -> str:
    for k in (f"{game}.arena.role.{role}", f"{game}.role.{role}"):
        if t.has(k):
            return t(k)
    return role


def seat_label(t: Translator, seat: int) -> str:
    """Seat index 0 -> "seat 1": people count from 1."""
    return t("term.seat_n", n=seat + 1)


def joined(t: Translator, parts: list[str]) -> str:
    """Items of a line with the language's comma (Chinese writes "，")."""
    return t("term.list_sep").join(parts)
