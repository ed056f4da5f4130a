"""The decisions that interrupt the flow of a turn, as records for the pending-decision stack.

The active player's ordinary turn (phase 3) is what happens when nothing is pending. Everything
else that somebody must decide is a :class:`~grimoire.core.decisions.Decision` on ``state.pending``
(the current one on top), answered through its kind's handler in ``legal.py``:

    bid      a bid or a pass in the running auction (7.4); the auction itself is ``state.auc``
    apay     the winner pays for the item won (7.4.5, 7.6)            payload Won(item)
    free     free knowledge advances from an artifact (11)            payload FreeAdvances(left)
    ftoken   the free knowledge token of a Mirror or Cloak (11)
    lose     a victim of a Mirror or Cloak gives up an active gem (11)
    discard  the hand-limit discard of phase 4 (8.1)

Decisions are immutable and interned (one object per kind, seat and payload), so pushing one
allocates nothing and copying the stack for a clone copies one list of references.
"""

from __future__ import annotations

from typing import NamedTuple

from ...core.decisions import Decision
from .data import FREE_ADVANCES, ITEMS, MAX_PLAYERS

BID = "bid"
APAY = "apay"
FREE = "free"
FTOKEN = "ftoken"
LOSE = "lose"
DISCARD = "discard"
TURN = "turn"            # the active player's ordinary turn: the handler used when nothing is pending
KINDS = (BID, APAY, FREE, FTOKEN, LOSE, DISCARD)


class Won(NamedTuple):
    """The payload of ``apay``: the auction item (0..20) the deciding seat won and must pay for."""

    item: int


class FreeAdvances(NamedTuple):
    """The payload of ``free``: how many free advances are left to use."""

    left: int


_SEATS = range(MAX_PLAYERS)
_MAX_FREE = max(FREE_ADVANCES)
_BID = tuple(Decision(BID, s) for s in _SEATS)
_FTOKEN = tuple(Decision(FTOKEN, s) for s in _SEATS)
_LOSE = tuple(Decision(LOSE, s) for s in _SEATS)
_DISCARD = tuple(Decision(DISCARD, s) for s in _SEATS)
_WON = tuple(tuple(Decision(APAY, s, Won(i)) for i in range(len(ITEMS))) for s in _SEATS)
_FREE = tuple(tuple(Decision(FREE, s, FreeAdvances(n)) for n in range(_MAX_FREE + 1)) for s in _SEATS)


def bid(seat: int) -> Decision:
    return _BID[seat]


def won(seat: int, item: int) -> Decision:
    return _WON[seat][item]


def free(seat: int, left: int) -> Decision:
    return _FREE[seat][left] if left <= _MAX_FREE else Decision(FREE, seat, FreeAdvances(left))


def ftoken(seat: int) -> Decision:
    return _FTOKEN[seat]


def lose(seat: int) -> Decision:
    return _LOSE[seat]


def discard(seat: int) -> Decision:
    return _DISCARD[seat]


def make(kind: str, seat: int, payload=None) -> Decision:
    """The interned decision for a kind, seat and payload (for loading saved games)."""
    if kind == APAY:
        return won(seat, payload.item)
    if kind == FREE:
        return free(seat, payload.left)
    return {BID: bid, FTOKEN: ftoken, LOSE: lose, DISCARD: discard}[kind](seat)
