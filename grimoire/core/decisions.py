"""Pending decisions: who must decide what next, as a stack of typed records.

Games where one player's move makes another decide before play goes on (a victim choosing the gem
he loses, every seat bidding in an auction, a trap sprung during the enemy's move, a defender
choosing how to parry) keep those decisions on a :class:`DecisionStack`. The decision on top is
the current one: its seat is the current player and its kind's handler (a :class:`DecisionKind`)
lists, checks and carries out the actions that answer it. One handler per kind replaces parallel
if-chains over the kinds in the legal-action generator, the checker and the executor.

Decisions are immutable (``Decision``: kind, seat and a payload record of the kind's own type), so
copying a stack for a clone copies one list of references.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .action import Action

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Decision:
    kind: str
    seat: int
    payload: Any = None     # a small immutable record of the kind's own type (a NamedTuple, an int, None)


class DecisionKind(Generic[S]):
    """The rules of one kind of decision: which actions answer it, why one does not, what it does.

    ``check`` returns None when the action is legal, else the reason and the rule (the state is never
    touched); ``do`` carries a checked action out (it pops or replaces the decision as the rules say).
    ``d`` is None for a game's base handler (the ordinary turn, when nothing is pending).
    """

    kind: str = ""
    # the action kinds that answer this decision (Action.kind), for the generic "you must ..." error
    answers: tuple[str, ...] = ()
    prompt: str = ""

    def legal(self, state: S, d: Decision | None) -> list[Action]:  # pragma: no cover - interface
        raise NotImplementedError

    def check(self, state: S, d: Decision | None, action: Action) -> tuple[str, str] | None:  # pragma: no cover
        raise NotImplementedError

    def do(self, state: S, d: Decision | None, action: Action) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    # payload <-> JSON (override for payloads that are not plain JSON values)
    def dump_payload(self, payload: Any) -> Any:
        return payload

    def load_payload(self, data: Any) -> Any:
        return data


_new = object.__new__


class DecisionStack:
    """A list of decisions, the current one on top (``top``). Copies share the immutable records."""

    __slots__ = ("items",)

    def __init__(self, items: list[Decision] | None = None):
        self.items: list[Decision] = items if items is not None else []

    def copy(self) -> DecisionStack:
        c = _new(DecisionStack)          # no __init__ call: clones copy stacks in hot loops
        c.items = self.items[:]
        return c

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Decision]:
        return reversed(self.items)

    @property
    def top(self) -> Decision | None:
        return self.items[-1] if self.items else None

    def push(self, d: Decision) -> None:
        self.items.append(d)

    def push_many(self, ds: list[Decision]) -> None:
        """Push several decisions so that the first of ``ds`` ends up on top (decided first)."""
        self.items.extend(reversed(ds))

    def pop(self) -> Decision:
        return self.items.pop()

    def replace_top(self, d: Decision) -> None:
        self.items[-1] = d

    def clear(self) -> None:
        self.items.clear()

    def to_list(self, kinds: dict[str, DecisionKind]) -> list[dict[str, Any]]:
        """JSON form, top first."""
        return [{"kind": d.kind, "seat": d.seat, "payload": kinds[d.kind].dump_payload(d.payload)}
                for d in reversed(self.items)]

    @classmethod
    def from_list(cls, data: list[dict[str, Any]], kinds: dict[str, DecisionKind]) -> DecisionStack:
        items = []
        for e in reversed(data):
            kind = e["kind"]
            if kind not in kinds:
                raise ValueError(f"unknown decision kind {kind!r}")
            seat = e["seat"]
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise ValueError(f"bad seat {seat!r} in a decision")
            items.append(Decision(kind, seat, kinds[kind].load_payload(e.get("payload"))))
        return cls(items)
