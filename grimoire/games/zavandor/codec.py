"""Integer action ids for Zavandor (``GameInfo.codec``; docs/games/zavandor.md, "Integer action ids").

The id of an action is its line in ``data/actions.txt`` (the file only grows at its end, so an id
keeps its meaning). A line is either a fixed action text or a relative bid, "bid lowest+d": the
lowest legal bid of the position plus d (7.4). Payments and discards have ids in their factored form,
one item at a time ('give 8g', 'drop c20', 'keep d12'; factored.py): legal but not listed, they join
the mask here. Explicit payments and discards of several items at once, and bids at offsets that
are not listed, have no id: they stay playable by their text. Every decision lists at least
one action with an id (a fixed text, or the lowest bid, offset 0), so ``legal_action_ids`` is never
empty while the game goes on.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from ...core.action import Action
from ...core.codec import ActionCodec, load_action_table
from ...core.errors import IllegalAction
from . import actions as A
from .data import ITEM_MIN_BID
from .legal import factored_legal

_DATA = Path(__file__).parent / "data"
LEARNING = tomllib.loads((_DATA / "learning.toml").read_text(encoding="utf-8"))
_RELATIVE_BID = re.compile(r"^bid lowest\+(\d+)$")


def lowest_bid(s) -> int | None:
    """The lowest legal bid of the open auction (7.4): the item's minimum before the opening bid, else
    one more than the high bid; None without an auction."""
    if s.auc is None:
        return None
    item, high = s.auc[0], s.auc[1]
    return ITEM_MIN_BID[item] if high is None else high + 1


class ZavandorCodec(ActionCodec):
    def __init__(self) -> None:
        super().__init__(load_action_table(_DATA / "actions.txt"), parse=A.parse)
        # the relative bid lines: id -> d, and d -> id (they are ids, not texts: no text maps to them)
        self.bid_offset: dict[int, int] = {}
        for i, text in enumerate(self.texts):
            m = _RELATIVE_BID.match(text)
            if m:
                self.bid_offset[i] = int(m.group(1))
                del self._id[text]
        self._bid_id = {d: i for i, d in self.bid_offset.items()}
        # each fixed id's action, parsed once (None for the relative bids)
        self._fixed: list[Action | None] = [None if i in self.bid_offset else A.parse(t)
                                            for i, t in enumerate(self.texts)]
        if 0 not in self._bid_id or len(self._bid_id) != len(self.bid_offset):
            raise ValueError("actions.txt: the relative bids must include 'bid lowest+0' and list each d once")

    @property
    def bid_offsets(self) -> tuple[int, ...]:
        """D: the offsets that have an id, in id order."""
        return tuple(self.bid_offset[i] for i in sorted(self.bid_offset))

    def encode(self, action: Action | str, state=None) -> int | None:
        text = action if isinstance(action, str) else action.text
        i = self._id.get(text)
        if i is not None or state is None:
            return i
        if isinstance(action, str):
            try:
                a = state._parse(action)
            except IllegalAction:
                return None
        else:
            a = action
        if a.kind != "bid":
            return None
        lo = lowest_bid(state)
        return None if lo is None else self._bid_id.get(a.args[0] - lo)

    def _decode_any(self, i: int, state=None) -> Action:
        d = self.bid_offset.get(i) if isinstance(i, int) else None
        if d is None:
            return super().decode(i, state)
        lo = lowest_bid(state) if state is not None else None
        if lo is None:
            raise IllegalAction(f"action id {i} is a bid relative to the position: decode it with the state "
                                "of an auction", "7.4")
        return A.bid_actions(lo + d)[lo + d]

    def legal_ids(self, state) -> list[int]:
        return sorted(set(self.legal_id_list(state)))

    def legal_id_list(self, state) -> list[int]:
        """The ids of ``legal_ids`` in listing order, an id possibly twice (for masks: no set, no sort)."""
        table = self._id
        out = []
        bids = []
        for a in state.legal_actions():
            i = table.get(a.text)
            if i is not None:
                out.append(i)
            elif a.kind == "bid":
                bids.append(a.args[0])
        if bids:
            lo = lowest_bid(state)
            if lo is not None:
                bid_id = self._bid_id
                for b in bids:
                    i = bid_id.get(b - lo)
                    if i is not None:
                        out.append(i)
        for a in factored_legal(state):
            out.append(table[a.text])
        return out

    def decode(self, i: int, state=None) -> Action:
        a = self._fixed[i] if type(i) is int and 0 <= i < self.fixed else None
        if a is not None:
            return a            # a fixed text's interned action (what the parser returns for it)
        return self._decode_any(i, state)

    def describe(self, i: int) -> str:
        d = self.bid_offset.get(i)
        return f"bid lowest+{d}" if d is not None else super().describe(i)


CODEC = ZavandorCodec()
BID_OFFSETS = CODEC.bid_offsets
_FANCY = 24         # from this many ids on, one fancy-index assignment beats a loop of item assignments


def write_mask(state, out) -> None:
    """``legal_mask_into``: 1 at the legal ids, 0 elsewhere."""
    ids = CODEC.legal_id_list(state)
    out.fill(0)
    if len(ids) < _FANCY:
        for i in ids:
            out[i] = 1
    else:
        out[ids] = 1
