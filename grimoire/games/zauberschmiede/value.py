"""A learned value of a solo sheet at a round's end: the planner's expected final score from there.

Input: features of the ended sheet (:func:`features`) -- the greedy agent's potential, the score
now by part (S1-S8), the dust in stock, transmutations and amplifier left, colour levels, every
artifact's state, and the round as a one-hot. A small MLP (or a linear layer) maps them to final
score / the solo score bound. It was fitted to the final scores of the planner's own games
(``scripts/zs_value_train.py``; the command is in the file's meta), so it values a sheet by what the
planner went on to make of such sheets, where the potential only guesses at open work.

The file has the learned networks' format (``grimoire-mlp/1``, read by grimoire/core/net.py, which
checks its hash; the one-wide policy head is unused). It is made for the default rules solo: :func:`applies` says
when (other variants keep the potential).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from ...core.net import load
from . import rules
from .agents import _Ctx, potential
from .player import Player
from .scoring import sheet_parts
from .sheet import CONFIG, SHEET

FILE = Path(__file__).resolve().parent / "data" / "planner-value.npz"
NA = len(SHEET.artifacts)
NC = len(SHEET.colours)
NK = len(SHEET.upgrade_values)
ROUNDS = SHEET.rounds
BOUND = CONFIG["solo_score_bound"]
# potential, S1-S8, stock, fresh, transmutations, amplifier level and paid, open amplifications,
# harmony groups still pure, colour levels, per artifact (complete, progress), the round one-hot
SIZE = 1 + 8 + 2 + 3 + 1 + 1 + NC + 2 * NA + (ROUNDS - 1)


class _Solo:
    """The potential's view of one sheet at the end of round ``rnd`` (no game state needed)."""

    __slots__ = ("var", "round", "players", "num_players", "upg_future")

    def __init__(self, var: rules.Variant, p: Player, rnd: int, upg_future: float | None = None):
        self.var, self.round, self.players, self.num_players = var, rnd, [p], 1
        self.upg_future = upg_future          # the potential's UPG_FUTURE (None: agents.UPG_FUTURE)

    def visible_player(self, i: int, seat: int | None) -> Player:
        return self.players[i]


def features(var: rules.Variant, p: Player, rnd: int, out: np.ndarray | None = None,
             upg_future: float | None = None) -> np.ndarray:
    """The value's input for sheet ``p`` ended in round ``rnd`` (1 .. last round - 1); ``upg_future``:
    the potential's (None: agents.UPG_FUTURE)."""
    x = np.zeros(SIZE, np.float32) if out is None else out
    x[0] = potential(_Ctx(_Solo(var, p, rnd, upg_future), 0), p)
    parts = sheet_parts(var, p)
    x[1:8] = parts
    x[8] = SHEET.bonus_dust_creator if parts[1] > SHEET.solo_dust_more_than else 0
    x[9] = sum(amt for r, amt in enumerate(p.stock) if amt and not p.spent >> r & 1)
    x[10] = p.fresh
    x[11] = p.trans_left
    x[12] = p.amp_level
    x[13] = p.amp_paid
    x[14] = bin(p.paid & ~p.amped).count("1")
    pure = 0
    fields = p.fields
    for a in range(NA):
        if p.paid >> a & 1:
            continue
        for _c, fs in SHEET.artifacts[a].groups:
            vals = [fields[f] for f in fs if fields[f]]
            if len(fs) >= var.hmin and vals and all(v == vals[0] for v in vals):
                pure += 1
    x[15] = pure
    k = 16
    for c in range(NC):
        x[k + c] = bin(p.upg >> (c * NK) & ((1 << NK) - 1)).count("1")
    k += NC
    for a in range(NA):
        done = p.paid >> a & 1
        x[k + 2 * a] = done
        x[k + 2 * a + 1] = 0.0 if done else p.nfill[a] / SHEET.art_nfields[a]
    k += 2 * NA
    if 1 <= rnd < ROUNDS:
        x[k + rnd - 1] = 1.0
    return x


RANK_FILE = Path(__file__).resolve().parent / "data" / "planner-rank.npz"
BASE = SIZE - (ROUNDS - 1)          # the features without the round's one-hot
RANK_SIZE = 2 * BASE


def game_left(var: rules.Variant, rnd: int) -> float:
    """The share of the game left after round ``rnd``: 1 after the first, 0 after the last."""
    return (var.last_round - rnd) / (var.last_round - 1)


def rank_features(var: rules.Variant, p: Player, rnd: int, out: np.ndarray | None = None,
                  upg_future: float | None = None) -> np.ndarray:
    """The ranker's input: the features (no round) and each times the share of the game left, so that
    a weight can change over the game (open work is worth more early)."""
    x = np.zeros(RANK_SIZE, np.float32) if out is None else out
    x[:BASE] = features(var, p, rnd, upg_future=upg_future)[:BASE]
    x[BASE:] = x[:BASE] * game_left(var, rnd)
    return x


# what the values written leave open, per harmony group of an open artifact (with at least hmin
# fields): its artifact's base if the group is pure and full / pure with an empty field the written
# value still meets / broken / empty; the empty fields that need one exact value; the dust that the
# fully charged open artifacts still need beyond the dust in hand
WRITTEN = 6
RANK_SIZE_WRITTEN = 2 * (BASE + WRITTEN)


def written_features(var: rules.Variant, p: Player, out: np.ndarray) -> None:
    """The ``WRITTEN`` numbers above for sheet ``p`` into ``out``."""
    fields, mins, paid = p.fields, var.mins, p.paid
    full = open_ = broken = empty = exact = 0
    need = 0
    for a in range(NA):
        if paid >> a & 1:
            continue
        art = SHEET.artifacts[a]
        if p.nfill[a] == SHEET.art_nfields[a]:
            need += art.dust
        for _c, fs in art.groups:
            if len(fs) < var.hmin:
                continue
            vals = [fields[f] for f in fs if fields[f]]
            if not vals:
                empty += art.base
            elif any(v != vals[0] for v in vals):
                broken += art.base
            elif len(vals) == len(fs):
                full += art.base
            elif all(mins[f] <= vals[0] for f in fs if not fields[f]):
                open_ += art.base
                exact += len(fs) - len(vals)
            else:
                broken += art.base
    have = p.fresh + sum(amt for r, amt in enumerate(p.stock) if amt and not p.spent >> r & 1)
    out[:] = (full, open_, broken, empty, exact, max(0, need - have))


def rank_features_written(var: rules.Variant, p: Player, rnd: int, out: np.ndarray | None = None,
                          upg_future: float | None = None) -> np.ndarray:
    """:func:`rank_features`' inputs and :func:`written_features`, both also scaled by the game left."""
    x = np.zeros(RANK_SIZE_WRITTEN, np.float32) if out is None else out
    n = BASE + WRITTEN
    x[:BASE] = features(var, p, rnd, upg_future=upg_future)[:BASE]
    written_features(var, p, x[BASE:n])
    x[n:] = x[:n] * game_left(var, rnd)
    return x


# the ranker's file names its input function (meta "inputs"): (function, size)
RANK_INPUTS = {"value.rank_features": (rank_features, RANK_SIZE),
               "value.rank_features_written": (rank_features_written, RANK_SIZE_WRITTEN)}


@lru_cache(maxsize=1)
def _default_variant_key() -> tuple:
    from .state import normalize_options
    return _variant_key(rules.Variant(normalize_options({})))


def _variant_key(var: rules.Variant) -> tuple:
    return (var.mins, var.divisible, var.partial, var.hmode, var.hmin, var.metric, var.ties, var.last_round)


def applies(var: rules.Variant) -> bool:
    """The value was learned on the default rules; any other variant keeps the potential."""
    return _variant_key(var) == _default_variant_key()


class Value:
    """The MLP's trunk and value head: ``relu(x W0 + b0) ... -> sigmoid(h Wv + bv)``."""

    def __init__(self, path: Path):
        net = load(path)                    # the format and the weights' hash checked (core/net.py)
        self.meta = net.meta
        if self.meta.get("inputs") != "value.features":
            raise ValueError(f"{path.name}: not the planner's value")
        self.layers: list[tuple[np.ndarray, np.ndarray]] = net.layers
        self.head = net.value

    def __call__(self, x: np.ndarray) -> np.ndarray:
        h = x
        for w, b in self.layers:
            h = np.maximum(h @ w + b, 0.0)
        v = (h @ self.head[0] + self.head[1])[:, 0]
        return np.asarray(1.0 / (1.0 + np.exp(-v)), np.float64) * BOUND


@lru_cache(maxsize=1)
def network() -> Value:
    """The shipped value."""
    return Value(FILE)


class Ranker:
    """A linear ranking of the plans of one position (points; only differences mean anything)."""

    def __init__(self, path: Path):
        net = load(path)                    # the format and the weights' hash checked (core/net.py)
        self.meta = net.meta
        inputs = RANK_INPUTS.get(self.meta.get("inputs", ""))
        if inputs is None or net.layers or net.obs_size != inputs[1]:
            raise ValueError(f"{path.name}: not the planner's ranker")
        self.features, self.size = inputs
        self.w = net.value[0][:, 0].astype(np.float64)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(x, np.float64) @ self.w


@lru_cache(maxsize=1)
def ranker() -> Ranker:
    """The shipped ranker."""
    return Ranker(RANK_FILE)


def ranks(var: rules.Variant, sheets: list[Player], rnd: int, upg_future: float | None = None) -> np.ndarray:
    """The ranker's values of ended sheets of round ``rnd`` (comparable within one round's plans);
    ``upg_future``: the potential's among its inputs (None: agents.UPG_FUTURE)."""
    r = ranker()
    x = np.zeros((len(sheets), r.size), np.float32)
    for i, p in enumerate(sheets):
        r.features(var, p, rnd, x[i], upg_future)
    return r(x)


def values(var: rules.Variant, sheets: list[Player], rnd: int) -> np.ndarray:
    """Expected final scores of ended sheets of round ``rnd``."""
    x = np.zeros((len(sheets), SIZE), np.float32)
    for i, p in enumerate(sheets):
        features(var, p, rnd, x[i])
    return network()(x)
