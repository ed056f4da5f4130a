"""Integer action ids for Zavandor (``GameInfo.codec``; docs/games/zavandor.md, "Integer action ids").

Ids ``0 .. F-1`` are the fixed action texts of ``data/actions.txt`` in file order (the file only grows
at its end). Ids ``F .. F+len(D)-1`` are bids relative to the position: id ``F + k`` is the bid
"lowest legal bid + D[k]" (D = ``bid_offsets`` in ``data/learning.toml``). Explicit payments and
discards, and bids at other offsets, have no id: they stay playable by their text. Every decision
lists at least one action with an id (a fixed text, or the lowest bid, offset 0), so
``legal_action_ids`` is never empty while the game goes on.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from ...core.action import Action
from ...core.codec import ActionCodec, load_action_table
from ...core.errors import IllegalAction
from . import actions as A
from .data import ITEM_MIN_BID

_DATA = Path(__file__).parent / "data"
LEARNING = tomllib.loads((_DATA / "learning.toml").read_text(encoding="utf-8"))
BID_OFFSETS: tuple[int, ...] = tuple(LEARNING["codec"]["bid_offsets"])
_OFFSET_INDEX = {d: k for k, d in enumerate(BID_OFFSETS)}


def lowest_bid(s) -> int | None:
    """The lowest legal bid of the open auction (7.4): the item's minimum before the opening bid, else
    one more than the high bid; None without an auction."""
    if s.auc is None:
        return None
    item, high = s.auc[0], s.auc[1]
    return ITEM_MIN_BID[item] if high is None else high + 1


class ZavandorCodec(ActionCodec):
    def __init__(self) -> None:
        super().__init__(load_action_table(_DATA / "actions.txt"), extra=len(BID_OFFSETS), parse=A.parse)
        if len(set(BID_OFFSETS)) != len(BID_OFFSETS) or min(BID_OFFSETS) != 0:
            raise ValueError("bid_offsets must be distinct and include 0 (the lowest bid)")

    def _encode_relative(self, action: Action, state) -> int | None:
        if action.kind != "bid" or state is None:
            return None
        lo = lowest_bid(state)
        if lo is None:
            return None
        k = _OFFSET_INDEX.get(action.args[0] - lo)
        return None if k is None else self.fixed + k

    def _decode_relative(self, i: int, state) -> Action:
        lo = lowest_bid(state)
        if lo is None:
            raise IllegalAction(f"action id {i} is a bid, and no auction is open", "7.4")
        n = lo + BID_OFFSETS[i - self.fixed]
        return A.bid_actions(n)[n]

    def legal_ids(self, state) -> list[int]:
        """As the base class, faster: the listed bids (a run of up to a few hundred) are encoded at once."""
        ids = set()
        table = self._id
        bids = set()
        for a in state.legal_actions():
            i = table.get(a.text)
            if i is not None:
                ids.add(i)
            elif a.kind == "bid":
                bids.add(a.args[0])
        if bids:
            lo = lowest_bid(state)
            if lo is not None:
                ids.update(self.fixed + k for k, d in enumerate(BID_OFFSETS) if lo + d in bids)
        return sorted(ids)

    def describe(self, i: int) -> str:
        if self.fixed <= i < self.num_distinct_actions:
            return f"bid lowest+{BID_OFFSETS[i - self.fixed]}"
        return super().describe(i)


CODEC = ZavandorCodec()
