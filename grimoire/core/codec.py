"""Integer action ids for learning algorithms: the action codec of a game.

Every game declares a fixed number of distinct action ids (``num_distinct_actions``). Most ids
stand for one action text each, in a table that only ever grows at its end, so an id keeps its
meaning across versions of a game (a game keeps its table as a data file; a test checks that the
table covers the vocabulary). Open-ended amounts get a bounded encoding relative to the state
(e.g. an auction bid as "the lowest legal bid plus d" for a documented set of d): those ids need the
state to be decoded. Actions without an id (an explicit payment, an uncommon bid) stay available
through their text; the codec covers a subset of the legal actions that is never empty while the
game goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .action import Action
from .errors import IllegalAction

if TYPE_CHECKING:
    from .state import GameState


class ActionCodec:
    """A table of fixed texts (ids ``0 .. len(texts)-1``) plus, optionally, ``extra`` state-relative ids
    after them, which a subclass encodes and decodes (``_encode_relative`` / ``_decode_relative``)."""

    def __init__(self, texts: Sequence[str], extra: int = 0, parse: Callable[[str], Action] | None = None):
        self._parse = parse
        self.texts: tuple[str, ...] = tuple(texts)
        if len(set(self.texts)) != len(self.texts):
            dup = next(t for t in self.texts if self.texts.count(t) > 1)
            raise ValueError(f"action table lists {dup!r} twice")
        self._id: dict[str, int] = {t: i for i, t in enumerate(self.texts)}
        self.fixed = len(self.texts)
        self.num_distinct_actions = self.fixed + extra

    # --- encoding -----------------------------------------------------------------------------------
    def encode(self, action: Action | str, state: GameState | None = None) -> int | None:
        """The id of an action (None if it has none). Relative kinds need the state."""
        text = action if isinstance(action, str) else action.text
        i = self._id.get(text)
        if i is not None:
            return i
        if isinstance(action, str):
            if state is None:
                return None
            action = state._parse(action)
        return self._encode_relative(action, state)

    def decode(self, i: int, state: GameState | None = None) -> Action:
        """The action of id ``i`` (for a relative id: in ``state``). Raises IllegalAction for an id
        outside the table or a relative id without a state."""
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < self.num_distinct_actions:
            raise IllegalAction(f"no action id {i!r}: ids are 0..{self.num_distinct_actions - 1}")
        if i < self.fixed:
            if state is not None:
                return state._parse(self.texts[i])
            return self._fixed_action(i)
        if state is None:
            raise IllegalAction(f"action id {i} is relative to a position: decode it with the state")
        return self._decode_relative(i, state)

    def legal_ids(self, state: GameState) -> list[int]:
        """Ascending ids of the legal actions that have one (each id once)."""
        ids = set()
        enc = self.encode
        for a in state.legal_actions():
            i = enc(a, state)
            if i is not None:
                ids.add(i)
        return sorted(ids)

    # --- for subclasses -----------------------------------------------------------------------------
    def _fixed_action(self, i: int) -> Action:
        """A fixed id's action without a state (through the game's stateless parser, if it has one)."""
        if self._parse is not None:
            return self._parse(self.texts[i])
        raise IllegalAction(f"action id {i} must be decoded with the state of the game")

    def _encode_relative(self, action: Action, state: GameState | None) -> int | None:
        return None

    def _decode_relative(self, i: int, state: GameState) -> Action:
        raise IllegalAction(f"no action id {i}")

    def describe(self, i: int) -> str:
        """A person's name for an id (the text for fixed ids)."""
        return self.texts[i] if 0 <= i < self.fixed else f"relative action {i}"


def load_action_table(path) -> list[str]:
    """An action table kept as a data file: one action text per line, '#' comments and blank lines
    ignored; the id of a text is its position among the texts."""
    from pathlib import Path
    out = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(" ".join(line.split()))
    return out
