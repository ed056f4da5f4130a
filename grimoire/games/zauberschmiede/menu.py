"""The terminal's grouped picker for Zauberschmiede (cli/picker.py): first what to do with a die, then
the artifact or colour, then the die itself. A round offers ~100 actions; as one list they fill three
screens at 80x24, in words even more."""

from __future__ import annotations

from typing import Any

P = "zauberschmiede."
_BY_ARTIFACT = ("charge", "pay", "amplify")       # the second word names an artifact
_BY_COLOUR = ("upgrade",)                         # the second word names a colour


def menu(obs: dict, prefix: list[str], options: list[str], t=None, hints: dict | None = None) -> dict[str, Any]:
    """The question at ``prefix`` and its options in words (whole actions get the log's words)."""
    if t is None:
        return {}
    n = len(prefix)
    head = prefix[0] if prefix else ""
    if any(" " in o for o in options):                    # whole actions, listed as they are played
        return {"title": t(P + ("term.menu.root" if n == 0 else "term.menu.which"))}
    if n == 0:
        return {"title": t(P + "term.menu.root"),
                "labels": {o: t(f"{P}term.menu.verb.{o}") for o in options if t.has(f"{P}term.menu.verb.{o}")}}
    if n == 1 and head in _BY_ARTIFACT:
        return {"title": t(P + "term.menu.artifact"), "labels": {o: t(P + "art." + o) for o in options}}
    if (n == 1 and head in _BY_COLOUR) or (n == 2 and head == "charge"):
        return {"title": t(P + "term.menu.colour"), "labels": {o: t(P + "colour." + o) for o in options}}
    if head == "transmute" and n == 1:                   # the die's value, not to be read as its number
        return {"title": t(P + "term.menu.die"), "labels": {o: t(P + "term.menu.die_value", v=o) for o in options}}
    if head == "transmute":
        return {"title": t(P + "term.menu.into")}
    return {"title": t(P + "term.menu.which")}
