"""One player's sheet (spec §15 "state per player"), as plain slotted data for cheap copies."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from .sheet import CONFIG, SHEET


class Player:
    __slots__ = ("fields", "nfill", "paid", "amped", "boxes", "fresh", "stock", "spent", "amp_level",
                 "amp_paid", "upg", "trans_left", "vals", "used", "tmask", "past", "done", "snap", "charge",
                 "tfields", "_pub", "_views")

    def __init__(self, roll: tuple[int, ...]):
        self.fields = [0] * SHEET.nfields           # 0 = empty, else the value written (R5.1)
        self.nfill = [0] * len(SHEET.artifacts)     # charged fields per artifact
        self.paid = 0                               # bit a: dust cost of artifact a paid = complete (R5.3)
        self.amped = 0                              # bit a: amplifier gem of artifact a used (R7.2)
        self.boxes = [0] * SHEET.rounds             # blue cauldron boxes, one per round (R6.1)
        self.fresh = 0                              # dust produced this round and not yet spent (R6.2)
        self.stock = [0] * SHEET.rounds             # stock formed at the end of round r+1 (R6.3); 0 = none
        self.spent = 0                              # bit r: stock of round r+1 spent
        self.amp_level = 0                          # amplifier level 0..3 (R7.1)
        self.amp_paid = 0                           # dice paid towards the next level (R7.1 / A14)
        self.upg = 0                                # bit c*K+k: colour box (c, upgrade_values[k]) marked (R8.1)
        self.trans_left = SHEET.transmutations      # transmutation boxes left (R9.1)
        self.vals = list(roll)                      # this round's dice as the player sees them (after R9)
        self.used = [""] * len(roll)                # "" = unused, else what the die was used for (R4.1)
        self.tmask = 0                              # bit i: die i was transmuted this round
        self.past: tuple = ()                       # finished rounds: (vals, used, tmask)
        self.done = False                           # decided (ended) the current round
        self.snap: Player | None = None             # copy at the start of the round (what others see)
        self.charge: Any = None                     # tables.ChargeState last listed (checked at each use)
        self.tfields: tuple[bytes, bytes] | None = None     # the fields and their tensor bytes (writer.py)

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.fields = self.fields[:]
        p.nfill = self.nfill[:]
        p.paid = self.paid
        p.amped = self.amped
        p.boxes = self.boxes[:]
        p.fresh = self.fresh
        p.stock = self.stock[:]
        p.spent = self.spent
        p.amp_level = self.amp_level
        p.amp_paid = self.amp_paid
        p.upg = self.upg
        p.trans_left = self.trans_left
        p.vals = self.vals[:]
        p.used = self.used[:]
        p.tmask = self.tmask
        p.past = self.past
        p.done = self.done
        p.snap = self.snap
        p.charge = self.charge                      # (immutable but for its cache of listings: shared)
        p.tfields = self.tfields
        return p

    # --- queries ----------------------------------------------------------------------------------
    def complete(self, a: int) -> bool:
        return bool(self.paid >> a & 1)

    def fully_charged(self, a: int) -> bool:
        return self.nfill[a] == SHEET.art_nfields[a]

    def level(self, c: int) -> int:
        k = len(SHEET.upgrade_values)
        return bin(self.upg >> (c * k) & ((1 << k) - 1)).count("1")

    def marked(self, c: int, v: int) -> bool:
        k = len(SHEET.upgrade_values)
        return bool(self.upg >> (c * k + SHEET.upgrade_values.index(v)) & 1)

    def unspent_stocks(self) -> list[tuple[int, int]]:
        """[(round, amount)] of the stocks not yet spent, in round order."""
        st, sp = self.stock, self.spent
        return [(r + 1, st[r]) for r in range(len(st)) if st[r] and not sp >> r & 1]

    # --- serialization ----------------------------------------------------------------------------
    def to_dict(self, with_snap: bool = True) -> dict[str, Any]:
        """Compact JSON form for ``state.to_dict`` (masks are bit sets over artifact/round/box indices)."""
        d: dict[str, Any] = {
            "fields": self.fields[:], "paid": self.paid, "amped": self.amped, "boxes": self.boxes[:],
            "fresh": self.fresh, "stock": self.stock[:], "spent": self.spent,
            "amp": [self.amp_level, self.amp_paid], "upg": self.upg, "trans": self.trans_left,
            "dice": self.vals[:], "used": self.used[:], "tmask": self.tmask,
            "past": [[list(v), list(u), t] for v, u, t in self.past], "done": self.done,
        }
        if with_snap:
            d["snap"] = self.snap.to_dict(False) if self.snap is not None else None
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Player:
        p = cls(tuple(_die(v) for v in d["dice"]))
        if len(d["fields"]) != SHEET.nfields:
            raise ValueError("wrong number of fields")
        p.fields = [0 if v == 0 else _die(v) for v in d["fields"]]
        p.nfill = [sum(1 for f in fs if p.fields[f]) for fs in SHEET.art_fields]
        p.paid, p.amped = _int(d["paid"]), _int(d["amped"])
        p.boxes = [_int(x) for x in d["boxes"]]
        p.stock = [_int(x) for x in d["stock"]]
        if len(p.boxes) != SHEET.rounds or len(p.stock) != SHEET.rounds:
            raise ValueError("one dust box and one stock slot per round")
        p.fresh, p.spent = _int(d["fresh"]), _int(d["spent"])
        p.amp_level, p.amp_paid = (_int(x) for x in d["amp"])
        if p.amp_level > len(SHEET.amp_costs):
            raise ValueError("amplifier level too high")
        p.upg, p.trans_left = _int(d["upg"]), _int(d["trans"])
        p.used = [str(u) for u in d["used"]]
        if len(p.used) != len(p.vals):
            raise ValueError("used must match dice")
        p.tmask = _int(d["tmask"])
        p.past = tuple((tuple(_die(v) for v in v_), tuple(str(u) for u in u_), _int(t)) for v_, u_, t in d["past"])
        p.done = bool(d["done"])
        snap = d.get("snap")
        p.snap = cls.from_dict(snap) if snap is not None else None
        return p

    def public_of_snap(self) -> dict[str, Any]:
        """``public()`` of a round-start copy (``snap``: never changed, shared by the round's states),
        built once: read-only."""
        got = getattr(self, "_pub", None)
        if got is None:
            got = self._pub = self.public()
        return got

    def snap_views(self) -> dict[tuple, Any]:
        """A round-start copy's (``snap``) sheets as the other seats see them, by what else they show
        (``ZauberschmiedeState._observe`` fills it): the copy never changes, so neither do they."""
        got = getattr(self, "_views", None)
        if got is None:
            got = {}
            self._views = got
        return got

    def public_live(self) -> dict[str, Any]:
        """``public()`` of a live sheet, shared (read-only) with every sheet that holds the same: a state's
        views rebuild the live sheets of every seat, and an action changes only one of them. The key is
        every slot ``public`` may read (all but the round-start copy and the caches), lists as tuples."""
        key = (_SHOWN_VALUES(self), tuple(map(tuple, _SHOWN_LISTS(self))))
        got = _LIVE.get(key)
        if got is None:
            if len(_LIVE) >= _LIVE_MAX:
                _LIVE.clear()
            got = _LIVE[key] = self.public()
        return got

    def public(self) -> dict[str, Any]:
        """Readable form for observations."""
        arts = SHEET.artifacts
        nk = len(SHEET.upgrade_values)
        return {
            "fields": {a.id: [self.fields[f] or None for f in a.fields] for a in arts},
            "fully_charged": [a.id for a in arts if self.nfill[a.index] == len(a.fields)],
            "complete": [a.id for a in arts if self.paid >> a.index & 1],
            "amplified": [a.id for a in arts if self.amped >> a.index & 1],
            "dust_boxes": list(self.boxes),
            "fresh_dust": self.fresh,
            "stocks": [{"round": r + 1, "amount": self.stock[r], "spent": bool(self.spent >> r & 1)}
                       for r in range(len(self.stock)) if self.stock[r]],
            "amp_level": self.amp_level,
            "amp_paid": self.amp_paid,
            "upgrades": {c: [v for k, v in enumerate(SHEET.upgrade_values) if self.upg >> (ci * nk + k) & 1]
                         for ci, c in enumerate(SHEET.colours)},
            "transmutations_left": self.trans_left,
            "dice": list(self.vals),
            "used": list(self.used),
            "transmuted": [i for i in range(len(self.vals)) if self.tmask >> i & 1],
            "past_rows": [{"dice": list(v), "used": list(u), "transmuted": [i for i in range(len(v)) if t >> i & 1]}
                          for v, u, t in self.past],
        }


# the live sheets' public forms by everything they show (``public_live``); about 3 KB an entry, so the
# cache starts afresh rather than grow: at 1,000 games an entry is needed again within a few actions
_LIVE: dict[tuple, dict[str, Any]] = {}
_LIVE_MAX = 4096
_SHOWN = tuple(n for n in Player.__slots__ if n not in ("snap", "charge", "tfields", "_pub", "_views"))
_LISTS = ("fields", "nfill", "boxes", "stock", "vals", "used")         # the slots that hold lists
_SHOWN_LISTS = attrgetter(*_LISTS)
_SHOWN_VALUES = attrgetter(*(n for n in _SHOWN if n not in _LISTS))   # (a list among them: unhashable, loud)


def _int(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise ValueError(f"{v!r} is not a non-negative whole number")
    return v


def _die(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= CONFIG["die_sides"]:
        raise ValueError(f"{v!r} is not a die value")
    return v
