"""The native (Rust) Shuluri Viadal engine behind the ``GameState`` contract (docs/games/shuluri.md,
"Native engine: status and plan"; docs/native.md).

``native/`` (a Rust crate, built into ``_native`` by ``pip install -e .`` where cargo exists) lists the
legal actions and applies every one of them, ported from this package's modules, which stay the
reference (the differential tests compare the saved JSON after every action). An action is checked
against the core's listing, then applied in place; should the core still fail (a corrupt save), the
state is no longer usable and ``RuntimeError`` says so.

The state is a thin handle (``core.native_state.NativeState``): the history, seed and options stay in
Python; the rules' state and the RNG live in the Rust ``Core``, which also writes the legal mask and the
observation tensor. What the contract does not route through a method of its own (observation dicts,
hints, the AI's reads of ``state.figs`` ...) is read from a reference ``ShuluriState`` rebuilt from
``to_dict()`` on demand and cached until the next action (``to_python``).
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import orjson

from ...core.action import Action
from ...core.errors import GameConfigError
from ...core.native_state import NativeState, module_build_id
from ...core.rng import Rng
from . import actions as A
from .events import english

_native: Any
try:                         # (imported by name: a compiled module has no stubs for the type checker)
    _native = importlib.import_module(f"{__package__}._native")
except ImportError:          # built without a Rust toolchain: the Python engine is the only one
    _native = None

AVAILABLE = _native is not None

_new = object.__new__
_BY_ID: list[Action] = []            # id (position in data/actions.txt) -> the interned Action
_ID: dict[str, int] = {}
if _native is not None:
    for _i, _t in enumerate(_native.action_texts()):
        _a = A.TABLE.lookup(_t)
        if _a is None:
            raise ImportError(f"the native core's action {_t!r} is not in the Python action table")
        _BY_ID.append(_a)
        _ID[_t] = _i
_NUM_IDS = len(_BY_ID)


def build_id() -> str:
    """The first 12 hex digits of the compiled module's SHA-256 (a run's provenance), or "" unbuilt."""
    return module_build_id(_native)


class NativeShuluriState(NativeState):
    """A Shuluri Viadal state whose rules run in the native core (same contract, same JSON)."""

    game = "shuluri"
    backend = "native"
    __slots__ = ()

    def _load_reference(self, d: dict[str, Any]) -> Any:
        from .serial import load
        return load(d)

    def legal_actions(self) -> list[Action]:
        by = _BY_ID
        return [by[i] for i in self._c.legal()]

    def legal_action_ids(self) -> list[int]:
        return self._c.legal_ids()

    def legal_mask(self) -> np.ndarray:
        out = np.zeros(_NUM_IDS, np.int8)
        self._c.mask_into(out)
        return out

    def legal_mask_into(self, out: np.ndarray) -> None:
        if type(out) is not np.ndarray or out.dtype != np.int8 or out.ndim != 1 or not out.flags.c_contiguous:
            return super().legal_mask_into(out)
        self._c.mask_into(out)

    def action_from_id(self, i: int) -> Action:
        if type(i) is int and 0 <= i < _NUM_IDS:
            return _BY_ID[i]
        return super().action_from_id(i)                # the codec's errors

    def _parse(self, text: str) -> Action:
        return A.parse(text)

    def _check(self, action: Action) -> None:
        i = _ID.get(action.text)
        if i is None or _BY_ID[i] is not action or not self._c.is_legal(i):
            self.to_python()._check(action)          # the reference's message and rule (raises)

    def _do(self, action: Action) -> None:
        i = _ID.get(action.text)
        err = self._c.apply_id(i) if i is not None else "not in the action table"
        self._snap = None
        if err is not None:
            _failed(action.text, err)

    def scores(self) -> list[int]:
        w = self._c.winners()
        return [1 if i in w else 0 for i in range(self.num_players)]

    def undo_barrier(self) -> Any:
        return self._c.undo_barrier()

    def clone(self) -> NativeShuluriState:
        return _wrap(self, self._c.copy())

    def _observe(self, seats: list[int | None]) -> list[dict[str, Any]]:
        return self.to_python()._observe(seats)

    # --- learning: the core writes the tensor and the mask into the caller's arrays -------------------------
    def observation_tensor(self, seat: int | None) -> np.ndarray:
        self._check_seat(seat)
        out = np.empty(_native.tensor_size(self.num_players), np.float32)
        self._c.tensor_into(seat, out)
        return out

    def observation_tensor_into(self, seat: int | None, out: np.ndarray) -> None:
        self._check_seat(seat)
        n = _native.tensor_size(self.num_players)
        if not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.shape != (n,):
            raise ValueError(f"the Shuluri Viadal tensor needs a float32 array of shape ({n},)")
        self._c.tensor_into(seat, out)

    def visible_history(self, seat: int | None) -> list[str | None]:
        return self.to_python().visible_history(seat)

    def sample_hidden(self, seat: int, rng: Rng) -> NativeShuluriState:
        return from_python(self.to_python().sample_hidden(seat, rng))

    def to_dict(self) -> dict[str, Any]:
        st = orjson.loads(self._c.state_json())
        for e in st["events"]:
            if e[1] is None:
                e[1] = english(e[2], e[3])
        return {
            "game": "shuluri",
            "players": self.num_players,
            "seed": self.seed,
            "options": dict(self.options),
            "rng": self._c.rng_state,
            "history": self.history,
            "state": st,
        }

    def play_random(self, seat_seeds: list[int]) -> int:
        """Play to the end inside the core, each seat a uniformly random agent (the contract's
        ``RandomAgent`` with that seed: the same choices as ``run_episode`` would make). Returns the
        number of actions."""
        ids, _rngs, stop = self._c.play_random([Rng(seed).state for seed in seat_seeds])
        by = _BY_ID
        node = self._hist
        for i in ids:
            node = (by[i].text, node)
        self._hist = node
        self._hist_len += len(ids)
        self._snap = None
        if stop is not None:
            _failed(by[stop[0]].text, stop[1])
        return len(ids)


def _failed(text: str, why: str) -> None:
    raise RuntimeError(f"the native core could not apply {text!r}: {why} (a corrupt save? this state is no "
                       "longer usable)")


def _core_of(ref) -> Any:
    try:
        return _native.Core.load(orjson.dumps(ref.to_dict()).decode())
    except ValueError as e:
        raise GameConfigError(str(e)) from None


def from_python(ref) -> NativeShuluriState:
    """The native twin of a reference state."""
    return _wrap(ref, _core_of(ref))


def _wrap(src, core) -> NativeShuluriState:
    """A native state around ``core`` with ``src``'s players, seed, options and history (shared: never changed)."""
    s = _new(NativeShuluriState)
    s.num_players = src.num_players
    s.seed = src.seed
    s.options = src.options
    s._hist = src._hist
    s._hist_len = src._hist_len
    s._c = core
    s._snap = None
    return s


def _require() -> None:
    if _native is None:
        raise GameConfigError("the native Shuluri Viadal core is not built (no Rust toolchain at install time)")


def new_native(players: int, seed: int, **options: Any) -> NativeShuluriState:
    """A new game on the native engine (``new_game(..., backend="native")``): the set-up (its deal and
    rolls) is the reference's, the game the core's."""
    from .setup import new_state
    _require()
    return from_python(new_state(players, seed, **options))


def load_native(d: dict[str, Any]) -> NativeShuluriState:
    """``load_game(d, backend="native")``: the reference loader checks the save (the same messages),
    then the core loads it."""
    from .serial import load
    _require()
    ref = load(d)
    s = from_python(ref)
    s._snap = ref
    return s


def reference(state):
    """The Python reference state of ``state`` (itself when it is one): for code that reads internals."""
    return state.to_python() if isinstance(state, NativeShuluriState) else state
