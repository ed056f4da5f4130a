"""Actions are small immutable values with a stable text form.

Each game interns its actions (one object per distinct text), so generating legal actions and
comparing them stays cheap. Equality and hashing go by the text.
"""

from __future__ import annotations

from typing import Any


class Action:
    __slots__ = ("text", "kind", "args")
    text: str
    kind: str
    args: Any               # the parsed arguments (a tuple; None where the game has a default form)

    def __init__(self, text: str, kind: str, args: Any = ()):
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "args", args)

    def __setattr__(self, name, value):
        raise AttributeError("Action is immutable")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other) -> bool:
        if isinstance(other, Action):
            return self.text == other.text
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self):
        return (Action, (self.text, self.kind, self.args))


class ActionTable:
    """Interning table: text -> Action. ``get`` builds an action once and reuses it."""

    __slots__ = ("_by_text",)

    def __init__(self):
        self._by_text: dict[str, Action] = {}

    def get(self, text: str, kind: str, args: Any = ()) -> Action:
        a = self._by_text.get(text)
        if a is None:
            a = self._by_text[text] = Action(text, kind, args)
        return a

    def lookup(self, text: str) -> Action | None:
        return self._by_text.get(text)
