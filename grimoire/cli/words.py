"""The terminal's command words in the reader's language.

The English words (``help``, ``board``, ...) always work, so scripts and the docs stay valid in every
language; each language adds its own words (``term.word.<command>`` in the terminal's catalog) and
each game's detail views theirs (the catalog key of the view's description with ``_word`` appended,
in the game's catalog). Help and hints show the reader's words."""

from __future__ import annotations

from collections.abc import Callable

COMMANDS = ("help", "rules", "log", "undo", "board", "save", "quit")
SHORT = {"exit": "quit", "q": "quit", "?": "help"}


class CommandWords:
    """Typed word -> command or view name, for one language and one game's views."""

    def __init__(self, t: Callable[..., str], views: dict[str, str], has: Callable[[str], bool]):
        self.commands: dict[str, str] = {c: c for c in COMMANDS} | SHORT
        self.shown: dict[str, str] = {c: t(f"term.word.{c}") for c in COMMANDS}
        for c, w in self.shown.items():
            self.commands.setdefault(w.lower(), c)
        self.views: dict[str, str] = {v: v for v in views}
        self.view_shown: dict[str, str] = {}
        for v, key in views.items():
            w = t(key + "_word") if has(key + "_word") else v
            self.view_shown[v] = w
            self.views.setdefault(w.lower(), v)

    def command(self, word: str) -> str | None:
        return self.commands.get(word.lower())

    def view(self, word: str) -> str | None:
        return self.views.get(word.lower())

    def word(self, command: str) -> str:
        """The command as the reader types it."""
        return self.shown[command]

    def view_word(self, view: str) -> str:
        return self.view_shown[view]

    def canonical_view(self, text: str) -> str:
        """``teljes`` -> ``full``, ``nagyít 3,-2`` -> ``zoom 3,-2`` (unknown words unchanged)."""
        name, sep, rest = text.strip().partition(" ")
        return (self.view(name) or name) + sep + rest

    def completions(self) -> list[str]:
        board = self.shown["board"]
        words = list(dict.fromkeys([*COMMANDS, *self.shown.values(), *self.views]))
        return words + [f"{b} {w}" for b in dict.fromkeys(["board", board]) for w in self.views]
