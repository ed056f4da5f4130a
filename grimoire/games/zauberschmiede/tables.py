"""Precomputed groups of legal actions for ``rules.legal_actions`` and ``rules.legal_ids``.

Each group the listing appends depends only on a few small numbers of a sheet: the values shown by
its unused dice as a bit set (bit v for value v), the lowest minimum among an artifact colour's empty
fields, a colour's marked boxes. So each group is one tuple, looked up by those numbers instead of
built die by die. There are two sets of tables with the same keys: one of Action objects and one of
their action ids (data/actions.txt), so the same walk lists the actions or their ids in the same order.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
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
_MINS_OFF = SHEET.no_mins
_SPANS = tuple((a.fields[0], a.fields[0] + len(a.fields)) for a in SHEET.artifacts)   # consecutive fields
assert all(a.fields == tuple(range(*span)) for a, span in zip(SHEET.artifacts, _SPANS, strict=True))
GROUPS = tuple((a, c) for a, art in enumerate(SHEET.artifacts) for c, _ in art.groups)
_GROUP_INDEX = {ac: g for g, ac in enumerate(GROUPS)}


def _artifact(a: int, values: bytes, mins: tuple[int, ...]) -> tuple[bool, tuple[int, ...]]:
    """(fully charged, the open groups as ``g << 3 | lo``: g the artifact and colour in ``GROUPS``, lo
    the lowest minimum of its empty fields) of artifact a whose fields hold ``values``."""
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


class _Patterns(dict):
    """One artifact's field values (bytes) -> ``_artifact``: a few dozen patterns per artifact occur."""

    def __init__(self, a: int, mins: tuple[int, ...]):
        super().__init__()
        self.a, self.mins = a, mins

    def __missing__(self, values: bytes) -> tuple[bool, tuple[int, ...]]:
        if len(self) >= CACHE_LIMIT:
            self.clear()
        v = self[values] = _artifact(self.a, values, self.mins)
        return v


# by "minimums off", per artifact: (its first field, past its last, its patterns)
_ARTS = {off: tuple((start, end, _Patterns(a, mins)) for a, (start, end) in enumerate(_SPANS))
         for off, mins in ((True, SHEET.no_mins), (False, SHEET.field_min))}


_FIELD_ART = tuple(a for a, (start, end) in enumerate(_SPANS) for _ in range(start, end))


class ChargeState:
    """What the charge and pay listings need from a sheet's fields and paid artifacts: the unpaid fully
    charged artifacts (bit set) and the open groups of the unpaid ones (``g << 3 | lo``, per artifact
    and all in sheet order), plus the listings' charges per value bit set. A player keeps the last
    one (``Player.charge``), checked against the sheet's values at every use (``charge_state``), so
    nothing has to tell it when a field is written; when one artifact's fields changed (a charge)
    only that artifact is looked at again."""

    __slots__ = ("fields", "paid", "mins", "full", "per", "groups", "items")

    def __init__(self, fields: bytes, paid: int, mins: tuple[int, ...], per: list[tuple[int, ...]] | None = None,
                 full: int = 0, changed: int = -1):
        self.fields, self.paid, self.mins = fields, paid, mins
        arts = _ARTS[mins is _MINS_OFF]
        if per is None:             # every artifact
            per = []
            for a, (start, end, patterns) in enumerate(arts):
                done, gs = patterns[fields[start:end]] if not paid >> a & 1 else (False, ())
                per.append(gs)
                if done:
                    full |= 1 << a
        else:                       # only artifact ``changed`` (unpaid)
            start, end, patterns = arts[changed]
            done, per[changed] = patterns[fields[start:end]]
            full = full | 1 << changed if done else full & ~(1 << changed)
        self.full = full
        self.per = per
        self.groups = tuple(chain.from_iterable(per))
        self.items: dict[int, tuple] = {}


def charge_state(p: Any, mins: tuple[int, ...]) -> ChargeState:
    """p's ``ChargeState``: the one it keeps if its fields and paid artifacts are still those, else
    that one with the one changed artifact redone, else a new one."""
    kb = bytes(p.fields)
    paid = p.paid
    cs = p.charge
    if cs is not None and cs.fields == kb and cs.paid == paid and cs.mins is mins:
        return cs
    if cs is not None and cs.mins is mins and cs.paid == paid and len(cs.fields) == len(kb):
        x = int.from_bytes(kb, "little") ^ int.from_bytes(cs.fields, "little")
        a = _FIELD_ART[((x & -x).bit_length() - 1) >> 3]
        if a == _FIELD_ART[(x.bit_length() - 1) >> 3] and not paid >> a & 1:    # one artifact's fields
            cs = p.charge = ChargeState(kb, paid, mins, list(cs.per), cs.full, a)
            return cs
    if cs is not None and cs.mins is mins and cs.fields == kb and paid & cs.paid == cs.paid \
            and paid & ~cs.paid & ~cs.full == 0:          # artifacts paid (they were full: no groups)
        new = ChargeState.__new__(ChargeState)
        new.fields, new.paid, new.mins, new.full, new.per, new.groups = kb, paid, mins, cs.full & ~paid, cs.per, \
            cs.groups
        new.items = cs.items
        p.charge = new
        return new
    cs = p.charge = ChargeState(kb, paid, mins)
    return cs


class Tables:
    """The groups as items of one kind: Actions (``conv`` the identity) or their ids."""

    __slots__ = ("conv", "flag", "amplify", "upgrade", "unlock", "dust", "transmute", "end", "_pay", "_charge")

    def __init__(self, conv: Callable[[Any], Any], flag: int):
        self.conv = conv
        self.flag = flag                # tells the two kinds apart in ``ChargeState.items``
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
        self._charge: list[list[Any]] = [[None] * NVS for _ in range(len(GROUPS) << 3)]   # by g << 3 | lo, vsm

    def charges(self, sheet: ChargeState, vsm: int) -> tuple:
        """Every charge with a die of the bit set ``vsm``: per open group of an unpaid artifact, in sheet
        order, the values at least its lowest open minimum, ascending (kept in ``sheet.items``)."""
        k = vsm | self.flag
        t = sheet.items.get(k)
        if t is None:
            rows = self._charge
            out: list = []
            for gl in sheet.groups:
                x = rows[gl][vsm]
                if x is None:
                    g, c = GROUPS[gl >> 3]
                    x = rows[gl][vsm] = tuple(self.conv(CHARGE[g][c][v]) for v in _values(vsm, gl & 7))
                out += x
            t = sheet.items[k] = tuple(out)
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
