"""The observation tensor (layout: tensor.py) written from the state as float32 bytes, without the
observation dict: ``state.observation_tensor_into``.

Every number is the same Python float the dict path computes, rounded to float32 once (``struct``
and NumPy round alike), so the tensor is the same bit for bit (tests/rl/test_tensor_into.py,
tests/zauberschmiede/test_zs_fast_paths.py). What makes it fast:

- each field's bytes come from small tables (a one-hot per die value, a bit set's 0/1 row, a count
  divided by its bound), so a sheet is a dozen lookups and joins;
- a sheet another seat sees as it was when the round began (``Player.snap``) never changes: its
  pieces and S1-S7 are kept per state for as long as the round lasts (keyed by the snapshot object,
  which the state holds); only the live sheet and S8 are encoded at every call;
- the pieces are joined once, in the tensor's field-major order, and copied into the caller's buffer.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .actions import SIDES
from .player import Player
from .scoring import dust_creator, dust_metric, sheet_parts
from .sheet import SHEET
from .tensor import LEVELS, MAX_AMP_COST, NA, NC, NK, SCORE_SCALE, R, _variant

if TYPE_CHECKING:
    from .state import ZauberschmiedeState

D = SHEET.dice_per_round
F1 = struct.Struct("f")
LIMIT = 1 << 16         # entries a memo keeps (it starts over when full)


class Memo(dict):
    """``memo[key]``: fn(key), computed once (a dict lookup when known: the hot path stays in C)."""

    def __init__(self, fn: Callable[[Any], bytes]):
        super().__init__()
        self.fn = fn

    def __missing__(self, key: Any) -> bytes:
        if len(self) >= LIMIT:
            self.clear()
        b = self[key] = self.fn(key)
        return b


def _f(x: float) -> bytes:
    return F1.pack(x)


def _bits(m: int, n: int) -> bytes:
    """n 0/1 floats, bit b of m at b."""
    return b"".join(ONE if m >> b & 1 else ZERO for b in range(n))


def _counts(values: tuple[int, ...]) -> bytes:
    out = [0] * SIDES
    for v in values:
        out[v - 1] += 1
    return b"".join(PER_D[x] for x in out)


ZERO, ONE = _f(0.0), _f(1.0)
ROUND = tuple(b"".join(ONE if r == k else ZERO for r in range(R)) for k in range(R))
LEVEL = tuple(b"".join(ONE if k == lv else ZERO for k in range(LEVELS + 1)) for lv in range(LEVELS + 1))
_FIELD = tuple(b"".join(ONE if v == x else ZERO for v in range(1, SIDES + 1)) for x in range(SIDES + 1))
PER_D = Memo(lambda x: _f(x / D))                                   # a count / dice per round
AMP_PAID = Memo(lambda x: _f(x / MAX_AMP_COST))
TRANS = Memo(lambda x: _f(x / SHEET.transmutations))
ARTS = Memo(lambda m: _bits(m, NA))                                 # complete / amplified
UPG = Memo(lambda m: _bits(m, NC * NK))
FIELDS = Memo(lambda key: b"".join([_FIELD[x] for x in key]))       # by bytes(fields): one-hot per field
ROW = Memo(lambda key: b"".join([PER_D[x] for x in key]))           # dust boxes, by their tuple
STOCKS = Memo(lambda key: b"".join([PER_D[x] if x and not key[1] >> r & 1 else ZERO
                                    for r, x in enumerate(key[0])]))   # by (stock tuple, spent)
COUNTS = Memo(_counts)                                              # dice per value, by their values
SCORE = Memo(lambda sc: struct.pack("9f", *[x / SCORE_SCALE for x in sc], sum(sc) / SCORE_SCALE))   # S1..S8


def sheet_pieces(p: Player) -> tuple[bytes, ...]:
    """The sheet's ten per-sheet fields before ``decided`` and ``score``, in the tensor's order."""
    return (FIELDS[bytes(p.fields)], ARTS[p.paid], ARTS[p.amped], ROW[tuple(p.boxes)], PER_D[p.fresh],
            STOCKS[tuple(p.stock), p.spent], LEVEL[p.amp_level], AMP_PAID[p.amp_paid], UPG[p.upg],
            TRANS[p.trans_left])


class Cache:
    """Per state: the options' part, the roll's counts and the round-start sheets' pieces, S1-S7 and
    metric (keyed by the snapshot object; dropped when the round ends)."""

    __slots__ = ("variant", "roll", "snaps")

    def __init__(self, opts: dict[str, Any]):
        self.variant = struct.pack("7f", *_variant(opts))
        self.roll: tuple[tuple[int, ...], bytes] = ((), b"")
        self.snaps: dict[int, tuple[Player, tuple[bytes, ...], tuple[int, ...], int]] = {}


def write(state: ZauberschmiedeState, seat: int | None, out: np.ndarray) -> None:
    var = state.var
    over, cur = state.over, state.cur
    cache = state._tc
    if cache is None:
        cache = state._tc = Cache(state.options)
    snaps = cache.snaps
    players = state.players
    n = len(players)
    first = 0 if seat is None else seat
    sheets = []
    metrics = []
    for i in range(n):
        p = players[i]
        q = p.snap
        if over or i == seat or q is None:          # seen live (state.visible_player)
            sp = sheet_parts(var, p)
            sheets.append((p, sheet_pieces(p), sp))
            metrics.append(dust_metric(var, p))
        else:
            e = snaps.get(id(q))
            if e is None or e[0] is not q:
                e = snaps[id(q)] = (q, sheet_pieces(q), sheet_parts(var, q), dust_metric(var, q))
            sheets.append(e)
            metrics.append(e[3])
    me = sheets[first][0]
    roll = state.roll
    if cache.roll[0] != roll:
        cache.roll = (roll, COUNTS[roll])
    parts = [ROUND[state.round - 1], ROUND[var.last_round - 1], ONE if over else ZERO,
             ONE if seat is not None and not over and cur == seat else ZERO, cache.variant, cache.roll[1],
             COUNTS[tuple([x for x, u in zip(me.vals, me.used, strict=True) if not u])]]
    order = [(first + k) % n for k in range(n)]
    for t in zip(*[sheets[i][1] for i in order], strict=True):     # field by field, sheets in viewing order
        parts += t
    for i in order:
        parts.append(ONE if over or i < cur else ZERO)
    if n == 1:
        sp = sheets[0][2]
        parts.append(SCORE[(*sp, dust_creator(var, sp[1], metrics, 0))])
    else:                       # S8 as scoring.dust_creator, the top and the ties counted once
        top = max(metrics)
        bonus = SHEET.bonus_dust_creator if top > 0 and (var.ties == "all_tied" or metrics.count(top) == 1) else 0
        for i in order:
            parts.append(SCORE[(*sheets[i][2], bonus if metrics[i] == top else 0)])
    out[:] = np.frombuffer(b"".join(parts), np.float32)
