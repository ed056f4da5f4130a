"""What changed between two JSON values, as a list of edits (the WebSocket ``patch`` message).

A seat's next view is mostly its last one: a move changes a few fields of a board of 3-16 KB. The
server sends a connection that asked for patches only the edits from the view it sent last
(``diff(old, new)``); the browser applies them (``static/common.js`` ``applyEdits``, the same rules
as ``apply`` here) and gets exactly the new view. Nothing here knows a game.

An edit is a JSON array, applied in order; a path is an array of object keys (text) and list indexes:

    ["s", path, value]      set: an object's key, a list's item, or (index = length) append one item
    ["d", path]             delete an object's key
    ["l", path, k, n, tail] a list: keep its items k .. k+n-1 (dropping k from the front), then append ``tail``

The last covers a list that grew at the end, shrank, or slid (a window of the last N events).

``diff`` compares the old value as parsed from the JSON text that was sent with the new one as the
engine built it; so an object key that is not text (JSON makes it text) or a value JSON would not give
back (a tuple is compared as a list, which only costs time) is caught: ``Impure`` — the caller then
diffs against the new value parsed from its own JSON text.
"""

from __future__ import annotations

from typing import Any

from ..core.parts import Kept

Edit = list


class Impure(Exception):
    """The new value has an object key that is not text: diff it as parsed from its JSON text."""


_SEQ = (list, tuple)
_MISSING = object()


def diff(old: Any, new: Any) -> list[Edit]:
    """The edits that turn ``old`` (parsed JSON) into ``new`` (JSON-like); [] if they are equal."""
    out: list[Edit] = []
    if old != new:
        _diff(old, new, [], out)
    return out


def _diff(a: Any, b: Any, path: list, out: list[Edit]) -> None:
    """``a != b``: append the edits from ``a`` to ``b`` at ``path``."""
    ta, tb = type(a), type(b)
    # (a part a game keeps from one state to the next, core/parts.py, is a dict)
    if (ta is dict or ta is Kept) and (tb is dict or tb is Kept):
        added = 0
        for k, v in b.items():
            av = a.get(k, _MISSING)
            if av is _MISSING:
                if type(k) is not str:        # (``a``'s keys are text: a key that is not is always new here)
                    raise Impure(k)
                added += 1
                out.append(["s", [*path, k], v])
            elif av != v:
                _diff(av, v, [*path, k], out)
        if len(a) + added != len(b):             # some keys of ``a`` are gone
            out.extend(["d", [*path, k]] for k in a if k not in b)
        return
    if ta in _SEQ and tb in _SEQ:
        _diff_list(a, b, path, out)
        return
    out.append(["s", path, b])


def _diff_list(a, b, path: list, out: list[Edit]) -> None:
    la, lb = len(a), len(b)
    if la and lb and (la != lb or a[0] != b[0]):
        # a window that slid, or a list that grew at the end or shrank: keep the items still there
        k = _slide(a, b)
        if k is not None:
            n = min(la - k, lb)
            out.append(["l", path, k, n, list(b[n:])])
            return
    m = min(la, lb)
    start = len(out)
    if la != lb:
        out.append(["l", path, 0, m, list(b[m:])])
    scalars = 0
    for i in range(m):
        x, y = a[i], b[i]
        if x != y:
            if type(y) not in _CONTAINERS:
                scalars += 1
                if scalars * 2 > m and m > 2:      # most of it changed: the whole list is shorter
                    del out[start:]
                    out.append(["s", path, list(b)])
                    return
            _diff(x, y, [*path, i], out)


_CONTAINERS = (dict, Kept, list, tuple)


def _slide(a, b) -> int | None:
    """The smallest ``k`` with ``a[k:]`` a prefix of ``b`` (or ``b`` a prefix of ``a[k:]``), if the first item
    of ``b`` is among the first few of ``a``; None otherwise."""
    la, lb = len(a), len(b)
    first = b[0]
    for k in range(min(la, 64)):
        if a[k] == first:
            n = min(la - k, lb)
            if list(a[k:k + n]) == list(b[:n]):
                return k
    return None


def apply(value: Any, edits: list[Edit]) -> Any:
    """``value`` with ``edits`` applied (changed in place where it can be; use the result)."""
    for e in edits:
        op, path = e[0], e[1]
        if not path:
            if op == "s":
                value = e[2]
            elif op == "l":
                value = value[e[2]:e[2] + e[3]] + list(e[4])
            continue
        parent = value
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        if op == "s":
            if isinstance(parent, list) and last == len(parent):
                parent.append(e[2])
            else:
                parent[last] = e[2]
        elif op == "d":
            del parent[last]
        elif op == "l":
            parent[last] = parent[last][e[2]:e[2] + e[3]] + list(e[4])
        else:
            raise ValueError(f"unknown edit {op!r}")
    return value
