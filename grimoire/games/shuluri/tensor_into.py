"""The observation tensor written straight from the state into a caller's float32 buffer.

It holds exactly what ``tensor.fill`` makes of the seat's observation dict (the same values, computed
with the same float64 expressions, then stored as float32): the visibility rules are those of
view.py (own team, shown amulets, ME tokens, vials, potions and the starting weapon), and
tests/shuluri/test_speed_paths.py compares the two bit for bit over many random games. Building the
dict first costs ten times as much, and the learning adapters ask for a tensor at every step.
A figure's and a team's features are kept in caches keyed by everything they are computed from, since
from one step to the next most figures do not change.
"""

from __future__ import annotations

from array import array
from functools import cache
from operator import attrgetter
from typing import Any

import numpy as np

from . import board as B
from .combat import exposed
from .data import AMULETS, N_ROLES, N_TRAP_CARDS, TRAPS_PER_HAND
from .fig import CleanFig, Fig
from .tensor import (
    AMULET_STATES,
    AREAS,
    DECISIONS,
    FLAGS,
    MODS,
    N_FEAT,
    ORDERS,
    PHASES,
    STEP_KINDS,
    TEAM_FEATURES,
    WEAPON_KEYS,
    spec,
)
from .values import wield_key

_NF = B.N_FIELDS
_NT = len(TEAM_FEATURES)
_PHASE = {p: i for i, p in enumerate(PHASES)}
_STEP_KIND = {k: i for i, k in enumerate(STEP_KINDS)}
_DECISION = {k: i for i, k in enumerate(DECISIONS)}
_AREA = {k: i for i, k in enumerate(AREAS)}
_ORDER = {k: i for i, k in enumerate(ORDERS)}
_WEAPON = {k: i for i, k in enumerate(WEAPON_KEYS)}
_N_AMULET = len(AMULET_STATES)


class _Layout:
    """The fields' offsets for one player count, as attributes (read into locals by ``write``)."""

    def __init__(self, players: int):
        o = dict(spec(players, {}).offsets)
        self.size = spec(players, {}).size
        self.phase, self.round, self.step, self.step_kind = o["phase"], o["round"], o["step"], o["step_kind"]
        self.step_seat, self.step_pool, self.first = o["step_seat"], o["step_pool"], o["first"]
        self.decision, self.decision_seat, self.alliance = o["decision"], o["decision_seat"], o["alliance"]
        self.gates_open, self.gates_jammed, self.teams = o["gates_open"], o["gates_jammed"], o["teams"]
        self.figures, self.zombie_owner, self.positions = o["figures"], o["zombie_owner"], o["positions"]
        self.corpses, self.areas, self.hand, self.discs = o["corpses"], o["areas"], o["hand"], o["discs"]
        self.starting_weapon, self.terminal = o["starting_weapon"], o["terminal"]
        # per observer seat (a spectator reads as seat 0) and figure id: where the figure's row starts
        # (team t's fighters at slots 5t..5t+4, the zombie raised from team t's role r at 5P + 4t + r - 1)
        # and where its zombie_owner one-hot starts
        n5 = 5 * players
        slot = [[5 * ((fid // 5 - me) % players) + fid % 5 if fid < n5
                 else n5 + 4 * (((fid - n5) // 5 - me) % players) + (fid - n5) % 5 - 1
                 for fid in range(10 * players)] for me in range(players)]
        self.row_at = tuple(tuple(self.figures + x * N_FEAT for x in row) for row in slot)
        self.owner_at = tuple(tuple(self.zombie_owner + (x - n5) * players for x in row) for row in slot)


@cache
def _layout(players: int) -> _Layout:
    return _Layout(players)


@cache
def size(players: int) -> int:
    return spec(players, {}).size


def write(s, seat: int | None, out: np.ndarray) -> None:
    """Fill ``out`` (float32, the tensor's size) with seat's observation tensor (None: a spectator)."""
    P = s.num_players
    o = _layout(P)
    out.fill(0.0)
    # out's buffer (a memoryview, format 'f') stores a float as float32 exactly as numpy does, at a fraction
    # of numpy's cost per item; typeshed's memoryview takes only ints, hence Any
    w: Any = out.data
    me = seat if seat is not None else 0
    w[o.phase + _PHASE[s.phase]] = 1.0
    rnd = s.round or 0
    w[o.round] = rnd / 30.0
    if s.phase == "play" and s.sched and s.step_i < len(s.sched):
        st_seat, kind = s.sched[s.step_i]
        w[o.step + s.step_i] = 1.0
        w[o.step_kind + _STEP_KIND[kind]] = 1.0
        w[o.step_seat + (st_seat - me) % P] = 1.0
        w[o.step_pool] = s.pool / 6
        w[o.step_pool + 1] = s.gpool / 6
    if s.first >= 0:
        w[o.first + (s.first - me) % P] = 1.0
    top = s.stack.top
    if top is not None:
        w[o.decision + _DECISION[top.kind]] = 1.0
        w[o.decision_seat + (top.seat - me) % P] = 1.0
    for i in _allies(s.alliance, me):
        w[o.alliance + i] = 1.0
    gates_open = o.gates_open
    for g in _OPEN[tuple(s.gate_open)]:
        w[gates_open + g] = 1.0
    gate_jam = s.gate_jam
    if any(gate_jam):
        gates_jammed = o.gates_jammed
        for g in range(len(gate_jam)):
            if (gate_jam[g] or 0) >= rnd > 0:
                w[gates_jammed + g] = 1.0
    base = o.teams
    teams = s.teams
    for t in teams:
        b = base + (t.seat - me) % P * _NT
        w[b:b + _NT] = _team_features(t)
    _figures(s, seat, me, w, o, P, teams)
    corpses = o.corpses
    for f in s.figs[:5 * P]:
        if f is not None and not f.alive and f.field >= 0 and not f.raised:
            w[corpses + f.field] = 1.0
    if s.areas:
        base = o.areas
        for a in s.areas:
            k = _AREA[a.key] * _NF + base
            for x in a.fields:
                w[k + x] = 1.0
    if seat is not None:
        t = teams[seat]
        base = o.hand
        for c, h in t.hand:
            b = base + (c - 1) * (1 + N_ROLES)
            w[b] = 1.0
            if h >= 0:
                w[b + 1 + h % 5] = 1.0
        discs = t.discs
        b = o.discs
        for lv in range(1, 6):
            w[b + lv - 1] = discs.count(lv) / 6
        if t.weapon >= 0:
            w[o.starting_weapon + t.weapon] = 1.0
    if s.phase == "over":
        w[o.terminal] = 1.0
        if seat is not None and seat in s.winners_:
            w[o.terminal + 1] = 1.0


@cache
def _allies(alliance: tuple, me: int) -> tuple[int, ...]:
    """The seats (relative to ``me``) on me's side."""
    P = len(alliance)
    return tuple(i for i in range(P) if alliance[(me + i) % P] == alliance[me])


class _OpenGates(dict):
    """tuple(gate_open) -> the indices of the open gates (2**12 keys at most, made on first use)."""

    def __missing__(self, key: tuple) -> tuple[int, ...]:
        v = self[key] = tuple(g for g, opened in enumerate(key) if opened)
        return v


_OPEN = _OpenGates()
_TEAM_ATTRS = attrgetter("strat", "out", "react_off", "roll", "gtype", "half")
_TEAM_CACHE: dict[tuple, array] = {}


def _team_features(t) -> array:
    """A team's features, cached by everything they read (the cache is valid as _FEATURE_CACHE's)."""
    key = (_TEAM_ATTRS(t), len(t.hand), len(t.discs), tuple(t.cast), tuple(t.played), tuple(t.lost))
    v = _TEAM_CACHE.get(key)
    if v is None:
        if len(_TEAM_CACHE) >= _FEATURE_CACHE_MAX:
            _TEAM_CACHE.clear()
        x = [t.strat / 4, len(t.hand) / TRAPS_PER_HAND, len(t.discs) / 6, float(t.out), float(t.react_off),
             t.roll / 10, float(t.gtype == "sword_artist")]
        x += [1.0 if t.half == k else 0.0 for k in range(B.N_HALVES)]
        x += [t.cast.count(lv) / 4 for lv in range(1, 6)]
        x += [1.0 if c in t.played else 0.0 for c in range(1, N_TRAP_CARDS + 1)]
        x += [1.0 if c in t.lost else 0.0 for c in range(1, N_TRAP_CARDS + 1)]
        v = _TEAM_CACHE[key] = array("f", x)
    return v


# _features reads only these attributes of a figure (plus its weapon sets, whether the reader owns it,
# whether its team's weapon is shown, and the team's gladiator type for ``exposed``), so its values are
# a pure function of them, and figures in the same situation share a row of this cache.
_FEATURE_ATTRS = attrgetter(
    "role", "zombie", "alive", "ep", "max_ep", "eg", "me", "me_extra", "me_shown", "stp", "stp_max", "sfe", "ammo",
    "javelins", "nets", "down", "sneak", "bell", "named", "attacked", "disengaged", "casts", "moved", "running",
    "aim", "spent", "debt", "stopped", "next_no_man", "netted", "next_limit", "next_double", "coat", "zman",
    "zfields", "effects", "amulet", "amulet_shown", "vial", "vial_shown", "potion", "potion_shown", "order",
    "part_at")
_FEATURE_CACHE: dict[tuple, array] = {}
_FEATURE_CACHE_MAX = 4096      # about 1 KB an entry: start afresh rather than grow without bound


def forget(s) -> None:
    """Make every figure of ``s`` compute its row afresh at the next tensor (the tests' reference)."""
    for f in s.figs:
        if f is not None and type(f) is CleanFig:
            object.__setattr__(f, "__class__", Fig)


_TEAM_KEYS: dict[tuple, tuple] = {}


def _team_key(t) -> tuple:
    """(weapon shown, gladiator type): the team's part of its figures' rows, one object per value (so
    that a row's entry compares it by identity)."""
    k = (t.weapon_shown, t.gtype)
    return _TEAM_KEYS.setdefault(k, k)


def _figures(s, seat: int | None, me: int, w: Any, o: _Layout, P: int, teams: list) -> None:
    pbase = o.positions
    row_at, owner_at = o.row_at[me], o.owner_at[me]
    planes: dict[int, float] = {}
    tks = [_team_key(t) for t in teams]
    third = 1 / 3
    for f in s.figs:
        if f is None:
            continue
        if type(f) is CleanFig:
            # no attribute set since its entries in f.tc were made (fig.CleanFig): the entry for this
            # reader is current if the team's part and the weapon sets (changed in place) are the same
            tc: Any = f.tc
            e = tc.get(seat)
            if e is not None and e[0] is tks[f.seat] and e[1] == tuple(f.sets):
                b = e[2]
                w[b:b + N_FEAT] = e[3]
                k = e[4]
                if k >= 0:
                    planes[k] = planes.get(k, 0.0) + third
                if e[5] >= 0:
                    w[e[5]] = 1.0
                continue
            tc = f.tc
        else:
            tc = {}                     # the entries of the figure before it changed are stale: dropped
            f.tc = tc
            f.__class__ = CleanFig      # from now on, any attribute set turns it back into a Fig
        fs = f.seat
        tk = tks[fs]
        sets = tuple(f.sets)
        key = (fs == seat, tk[0], tk[1], sets, _FEATURE_ATTRS(f))
        row = _FEATURE_CACHE.get(key)
        if row is None:
            if len(_FEATURE_CACHE) >= _FEATURE_CACHE_MAX:
                _FEATURE_CACHE.clear()
            row = _FEATURE_CACHE[key] = array("f", _features(s, f, fs == seat, tk[0]))
        fid = f.id
        t = (fs - me) % P
        k = pbase + (t * (N_ROLES + 1) + (N_ROLES if f.zombie else f.role)) * _NF + f.field \
            if f.alive and f.field >= 0 else -1
        z = owner_at[fid] + t if f.zombie else -1
        b = row_at[fid]
        tc[seat] = (tk, sets, b, row, k, z)
        w[b:b + N_FEAT] = row
        if k >= 0:
            planes[k] = planes.get(k, 0.0) + third
        if z >= 0:
            w[z] = 1.0
    for k, x in planes.items():
        w[k] = x


def _features(s, f, own: bool, weapon_shown: bool) -> list[float]:
    glad = f.is_gladiator
    zombie = f.zombie
    me = f.me + (f.me_extra if (own or f.me_shown) else 0)
    v = [1.0, float(f.alive), f.ep / 20, f.max_ep / 20, f.eg / 5, me / 8, f.stp / 6, f.stp_max / 6, f.sfe / 3,
         f.ammo / 10, (f.javelins if glad else 0) / 3, (f.nets if glad else 0) / 2, float(f.down),
         float(f.sneak == 1), float(f.sneak == 2), float(f.bell), float(f.named), float(f.attacked),
         float(f.disengaged), float(f.casts > 0), f.moved / 8, float(f.running), float(f.aim), f.spent / 10,
         f.debt / 4, float(f.stopped), float(bool(f.next_no_man or f.netted)), max(f.next_limit, 0) / 2,
         float(f.next_double), float(f.coat)]
    if glad:
        v += [float(exposed(s, f, "crossbow")), float(exposed(s, f, "daggers"))]
    else:
        v += [0.0, 0.0]
    v += [(f.zman if zombie else 0) / 3, (f.zfields if zombie else 0) / 3]
    if own or f.amulet_shown:
        amulet = AMULET_STATES.index(AMULETS[f.amulet] if f.amulet >= 0 else None)
    else:
        amulet = 0
    vial = f.vial if (own or f.vial_shown) else "?"
    potion = f.potion if (own or f.potion_shown) else "?"
    wk = (wield_key(f) if (own or weapon_shown) else "?") if glad else None
    order = f.order[0] if (zombie and f.order) else None
    key = (f.effects, amulet, vial, potion, wk, order)
    tail = _TAIL.get(key)
    if tail is None:
        if len(_TAIL) >= _FEATURE_CACHE_MAX:
            _TAIL.clear()
        tail = _TAIL[key] = _tail(f.effects, amulet, vial, potion, wk, order)
    return v + tail


# the rest of a row (effects, amulet, vial, potion, weapon, orders), which seldom changes, by what it shows
_TAIL: dict[tuple, list[float]] = {}


def _tail(effects: tuple, amulet: int, vial: Any, potion: Any, wk: str | None, order: str | None) -> list[float]:
    v: list[float] = []
    if effects:
        mods = dict.fromkeys(MODS, 0)
        flags: set[str] = set()
        for e in effects:
            for k, x in dict(e.mods).items():       # the view's dict: a repeated value counts once (the last)
                mods[k] = mods.get(k, 0) + x
            flags.update(e.flags)
        v += [mods[m] / 10 for m in MODS]
        v += [1.0 if fl in flags else 0.0 for fl in FLAGS]
    else:
        v += [0 / 10] * len(MODS)
        v += [0.0] * len(FLAGS)
    am = [0.0] * _N_AMULET
    am[amulet] = 1.0
    v += am
    v += [float(vial == "?"), float(vial is True), float(potion == "?"), float(potion is True)]
    w = [0.0] * len(WEAPON_KEYS)
    if wk is not None:
        i = _WEAPON.get(wk)
        if i is not None:
            w[i] = 1.0
    v += w
    o = [0.0] * len(ORDERS)
    o[_ORDER[order]] = 1.0
    v += o
    return v
