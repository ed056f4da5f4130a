"""An observation's JSON text, with the parts its game keeps (``core.parts.Kept``) written once.

A game that hands out the same ``Kept`` object for a part of its view while that part does not change
(a figure that did not move) lets the server write that part's JSON once and put it into every seat's
text, for this state and the next ones, as long as the same object comes back (``memo``, and ``before``:
the memo of the state before). Identity decides, never comparing values. The text goes in as orjson's
``Fragment`` (copied as it is), so the result is byte for byte ``fastjson.dumps(obs)``. Only the items
of the lists in the game's part whose first item is kept are looked at (a game puts such parts in
lists of their own). Sharing within one state the other values that seats' views have in common (the
board, the event log) was tried and measured slower: the walk costs more than orjson saves.
"""

from __future__ import annotations

from typing import Any

import orjson

from ..core.parts import Kept
from . import fastjson

Memo = dict[int, tuple[Kept, orjson.Fragment]]      # id(part) -> (the part, its JSON); holds the part alive


def dumps(obs: dict[str, Any], game: str, memo: Memo, before: Memo) -> str:
    """``fastjson.dumps(obs)``; the kept parts' text comes from ``memo`` (this state's) or ``before``, or is
    written and put into ``memo``."""
    part = obs.get(game)
    if type(part) is not dict:
        return fastjson.dumps(obs)
    swapped: dict[str, Any] | None = None
    for k, v in part.items():
        if type(v) is not list or not v or type(v[0]) is not Kept:
            continue
        items = v[:]
        for i, x in enumerate(v):
            if type(x) is Kept:
                got = memo.get(id(x))
                if got is None:
                    # the memos hold their parts alive, so an id found in one is this very object
                    got = before.get(id(x))
                    if got is None:
                        got = (x, orjson.Fragment(fastjson.dumps_bytes(x)))
                    memo[id(x)] = got
                items[i] = got[1]
        if swapped is None:
            swapped = dict(part)
        swapped[k] = items
    if swapped is None:
        return fastjson.dumps(obs)
    whole = dict(obs)
    whole[game] = swapped
    try:
        return orjson.dumps(whole).decode()
    except TypeError:           # what orjson refuses (fastjson's fallbacks) does not take fragments
        return fastjson.dumps(obs)
