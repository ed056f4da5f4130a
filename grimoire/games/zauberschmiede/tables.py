"""Precomputed groups of legal actions for ``rules.legal_actions`` and ``rules.legal_ids``.

Each group the listing appends depends only on a few small numbers of a sheet: the values shown by
its unused dice as a bit set (bit v for value v), the lowest minimum among an artifact colour's empty
fields, a colour's marked boxes. So each group is one tuple, looked up by those numbers instead of
built die by die. There are two sets of tables with the same keys: one of Action objects and one of
their action ids (data/actions.txt), so the same walk lists the actions or their ids in the same order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .actions import AMPLIFY, CHARGE, DUST, END, SIDES, TRANSMUTE, UNLOCK, UPGRADE, pay_action
from .sheet import SHEET

VALUES = tuple(range(1, SIDES + 1))
NVS = 1 << (SIDES + 1)                  # value bit sets (bit 0 never set)
NA = len(SHEET.artifacts)
NC = len(SHEET.colours)
NK = len(SHEET.upgrade_values)
KMASK = (1 << NK) - 1


def _values(vsm: int, lo: int = 1) -> tuple[int, ...]:
    """The values of the bit set ``vsm`` that are at least ``lo``, ascending (the listing's order)."""
    return tuple(v for v in VALUES if vsm >> v & 1 and v >= lo)


CACHE_LIMIT = 1 << 15            # entries a cache keeps (it starts over when full)
_charge_cache: dict[tuple[bytes, int, bool], list] = {}
_MINS_OFF = SHEET.no_mins
_SPANS = tuple((a.fields[0], a.fields[0] + len(a.fields)) for a in SHEET.artifacts)   # consecutive fields
assert all(a.fields == tuple(range(*span)) for a, span in zip(SHEET.artifacts, _SPANS, strict=True))
GROUPS = tuple((a, c) for a, art in enumerate(SHEET.artifacts) for c, _ in art.groups)
_GROUP_INDEX = {ac: g for g, ac in enumerate(GROUPS)}
# per artifact and minimums (on, off): the artifact's field values (bytes) -> (full, open groups as g << 3 | lo)
_art_cache: tuple[tuple[dict[bytes, tuple[bool, tuple[int, ...]]], ...], ...] = tuple(
    ({}, {}) for _ in SHEET.artifacts)


def _artifact(a: int, values: bytes, mins: tuple[int, ...]) -> tuple[bool, tuple[int, ...]]:
    art = SHEET.artifacts[a]
    start = _SPANS[a][0]
    if all(values):
        return True, ()
    out = []
    for c, group in art.groups:
        lo = min((mins[f] for f in group if not values[f - start]), default=7)
        if lo < 7:
            out.append(_GROUP_INDEX[a, c] << 3 | lo)
    return False, tuple(out)


def charge_entry(fields: list[int], paid: int, mins: tuple[int, ...]) -> list:
    """What the charge and pay listings need from a sheet's fields and paid artifacts (a cache keyed by
    their values, so that nothing has to tell it when a field is written): [the fully charged
    artifacts as a bit set, the open groups of the unpaid ones as ``g << 3 | lo`` (g: the artifact
    and colour in ``GROUPS``, lo: the lowest minimum of its empty fields), and the groups' items per
    value bit set, filled by ``Tables.charge_items``]."""
    kb = bytes(fields)
    off = mins is _MINS_OFF
    key = (kb, paid, off)
    e = _charge_cache.get(key)
    if e is None:
        if len(_charge_cache) >= CACHE_LIMIT:
            _charge_cache.clear()
        full = 0
        groups: list[int] = []
        for a, (start, end) in enumerate(_SPANS):
            cache = _art_cache[a][off]
            values = kb[start:end]
            hit = cache.get(values)
            if hit is None:
                if len(cache) >= CACHE_LIMIT:
                    cache.clear()
                hit = cache[values] = _artifact(a, values, mins)
            if hit[0]:
                full |= 1 << a
            elif not paid >> a & 1:
                groups += hit[1]
        e = _charge_cache[key] = [full, tuple(groups), {}]
    return e


class _Memo(dict):
    """``memo[key]``: fn(key), computed once (a dict lookup when known); it starts over when full."""

    def __init__(self, fn: Callable[[Any], tuple]):
        super().__init__()
        self.fn = fn

    def __missing__(self, key: Any) -> tuple:
        if len(self) >= CACHE_LIMIT:
            self.clear()
        t = self[key] = self.fn(key)
        return t


class Tables:
    """The groups as items of one kind: Actions (``conv`` the identity) or their ids."""

    __slots__ = ("conv", "flag", "amplify", "upgrade", "unlock", "dust", "transmute", "end", "_pay", "tail",
                 "_charge")

    def __init__(self, conv: Callable[[Any], Any], flag: int):
        self.conv = conv
        self.flag = flag                # tells the two kinds apart in the charge cache's keys
        vs = [_values(m) for m in range(NVS)]
        self.amplify = tuple(tuple(tuple(conv(AMPLIFY[a][v]) for v in vs[m]) for m in range(NVS))
                             for a in range(NA))
        # upgrade: per colour, by vsm << NK | the colour's marked boxes (bit k: upgrade_values[k])
        self.upgrade = tuple(tuple(tuple(conv(UPGRADE[c][v]) for k, v in enumerate(SHEET.upgrade_values)
                                         if m >> NK >> v & 1 and not m >> k & 1)
                                   for m in range(NVS << NK)) for c in range(NC))
        self.unlock = tuple(tuple(conv(UNLOCK[v]) for v in vs[m]) for m in range(NVS))
        self.dust = tuple(tuple(conv(DUST[v]) for v in vs[m]) for m in range(NVS))
        self.transmute = tuple(tuple(conv(TRANSMUTE[v][w]) for v in vs[m] for w in VALUES if w != v)
                               for m in range(NVS))
        self.end = conv(END)
        self._pay: dict[tuple[int, tuple[int, ...]], Any] = {}
        self.tail = _Memo(self._tail)
        self._charge: list[list[Any]] = [[None] * NVS for _ in range(len(GROUPS) << 3)]   # by g << 3 | lo, vsm

    def _tail(self, key: tuple[int, int, int, bool, bool]) -> tuple:
        """The groups after the payments, in the listing's order, by (value bit set, the complete
        artifacts not amplified if the amplifier is unlocked (else 0), the colour boxes marked,
        whether a die may go to the amplifier track, whether a transmutation is left)."""
        vsm, cand, upg, unlock, trans = key
        out: list = []
        for a in range(NA):
            if cand >> a & 1:
                out += self.amplify[a][vsm]
        for c, row in enumerate(self.upgrade):
            out += row[vsm << NK | upg >> (c * NK) & KMASK]
        if unlock:
            out += self.unlock[vsm]
        out += self.dust[vsm]
        if trans:
            out += self.transmute[vsm]
        return tuple(out)

    def charge_items(self, entry: list, vsm: int) -> tuple:
        """Every charge of an open group (``charge_entry``) with a die of the bit set ``vsm``: per group in
        sheet order, the values at least its lowest open minimum, ascending."""
        k = vsm | self.flag
        t = entry[2].get(k)
        if t is None:
            rows = self._charge
            out: list = []
            for gl in entry[1]:
                row = rows[gl]
                x = row[vsm]
                if x is None:
                    a, c = GROUPS[gl >> 3]
                    x = row[vsm] = tuple(self.conv(CHARGE[a][c][v]) for v in _values(vsm, gl & 7))
                out += x
            t = entry[2][k] = tuple(out)
        return t

    def pay(self, a: int, rounds: tuple[int, ...]) -> Any:
        key = (a, rounds)
        item = self._pay.get(key)
        if item is None:
            item = self._pay[key] = self.conv(pay_action(a, rounds))
        return item


ACTIONS = Tables(lambda a: a, 0)
_ids: Tables | None = None


def ids() -> Tables:
    """The id tables (built on first use: the codec's table is loaded then)."""
    global _ids
    if _ids is None:
        from .codec import CODEC
        table = CODEC._id
        _ids = Tables(lambda a: table[a.text], NVS)
    return _ids
