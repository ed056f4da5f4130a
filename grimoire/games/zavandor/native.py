"""The native (Rust) Zavandor engine behind the whole ``GameState`` contract (docs/native.md).

``native/`` (a Rust crate, built into ``_native`` by ``pip install -e .`` where cargo exists) holds
the rules, ported function by function from this package's Python modules, which stay the reference:
the same SplitMix64 streams, legal actions in the same order, the same ``to_dict()`` after every
action and the same IllegalAction messages (the differential tests in tests/native/ compare them).

The state here is a thin handle (``core.native_state.NativeState``): the history, seed and options stay
in Python (as in every game's base state); the rules, the RNG and the position live in the Rust ``Core``.
Everything the contract does not route through a method of its own (the internals that hints, the
arena hooks and the AI read, e.g. ``state.players``) is read from a reference ``ZavandorState``
rebuilt from ``to_dict()`` on demand and cached until the next action (``to_python``). The
observation is the core's.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import orjson

from ...core.action import Action
from ...core.errors import GameConfigError, IllegalAction
from ...core.native_state import NativeState, module_build_id
from ...core.rng import Rng
from ...core.state import GameState
from . import actions as A
from .data import CHARACTERS
from .view import STAGE_NAMES

_native: Any
try:                         # (imported by name: a compiled module has no stubs for the type checker)
    _native = importlib.import_module(f"{__package__}._native")
except ImportError:          # built without a Rust toolchain: the Python engine is the only one
    _native = None

AVAILABLE = _native is not None


def build_id() -> str:
    """The first 12 hex digits of the compiled module's SHA-256 (a run's provenance), or "" unbuilt."""
    return module_build_id(_native)
_new = object.__new__
_HIST = GameState.__dict__["_hist"]      # the base class's slot behind NativeZavandorState._hist
_HIST_GET, _HIST_SET = _HIST.__get__, _HIST.__set__

if _native is not None:
    BID_BASE: int = _native.BID_BASE
    _FIXED: list[Action] = []
    for _t in _native.fixed_texts():
        _a = A.TABLE.lookup(_t)
        if _a is None:
            raise ImportError(f"the native core's action {_t!r} is not in the Python action table")
        _FIXED.append(_a)
    _CODE = {a.text: i for i, a in enumerate(_FIXED)}
    _BY_CODE: list[Action] = _FIXED + A.bid_actions(1000)[:1001]


_NUM_IDS = 0
if _native is not None:
    from .codec import CODEC as _ZCODEC
    _NUM_IDS = _ZCODEC.num_distinct_actions
    # the factored payment and discard steps ('give 8g', 'drop c20', 'keep d12'): code XBASE + id
    for _i, _t in enumerate(_ZCODEC.texts):
        if _t.split(" ", 1)[0] in ("give", "drop", "keep"):
            _CODE[_t] = _native.XBASE + _i


def _grow(upto: int) -> None:
    bids = A.bid_actions(upto - BID_BASE)
    _BY_CODE.extend(bids[len(_BY_CODE) - BID_BASE:upto - BID_BASE + 1])


def _flags(opts: dict[str, Any]) -> tuple:
    return (opts["strict_subphases"], opts["combine_with_auction"], opts["nine_sages_dust"], opts["druid_level3_ruby"],
            opts["free_advance_new_track"], opts["whole_dust_tokens"], opts["turn_action_limit"], opts["max_rounds"])


def _why(err) -> IllegalAction:
    msg, rule = err
    return IllegalAction(msg, rule)


class NativeZavandorState(NativeState):
    """A Zavandor state whose rules run in the native core (same contract, same results)."""

    game = "zavandor"
    backend = "native"
    __slots__ = ("_tail",)
    _tail: list[int] | None          # action codes played in the core, not yet in the history

    def _load_reference(self, d: dict[str, Any]) -> Any:
        from .serial import load
        return load(d)

    # --- the history: actions played inside the core (play_random) join it when it is first read ------
    @property
    def _hist(self) -> Any:
        tail = self._tail
        node = _HIST.__get__(self)
        if tail is not None:
            self._tail = None
            by = _BY_CODE
            for c in tail:
                node = (by[c].text, node)
            _HIST.__set__(self, node)
        return node

    @_hist.setter
    def _hist(self, node: Any) -> None:
        self._tail = None
        _HIST.__set__(self, node)

    # --- the contract ------------------------------------------------------------------------------
    @property
    def auc(self) -> list | None:
        a = self._c.auc
        return list(a) if a is not None else None

    def legal_actions(self) -> list[Action]:
        codes = self._c.legal()
        by = _BY_CODE
        if codes and codes[-1] >= len(by):
            _grow(codes[-1] + 256)
        return [by[c] for c in codes]

    def _parse(self, text: str) -> Action:
        return A.parse(text)

    def _code(self, a: Action) -> int | None:
        code = _CODE.get(a.text)
        if code is None and a.kind == "bid":
            return BID_BASE + a.args[0]
        return code

    def _check(self, action: Action) -> None:
        code = self._code(action)
        if code is not None:
            err = self._c.check_code(code)
        elif action.kind in ("pay", "discard") and action.args:
            cards, conc, dust = action.args
            err = self._c.check_items(action.kind, list(cards), list(conc), dust, action.text)
        else:                                        # not a Zavandor action: the reference's message
            self.to_python()._check(action)
            return
        if err is not None:
            raise _why(err)

    def _do(self, action: Action) -> None:
        code = self._code(action)
        if code is not None:
            err = self._c.apply_code(code)
        else:
            cards, conc, dust = action.args
            err = self._c.apply_items(action.kind, list(cards), list(conc), dust, action.text)
        self._snap = None
        if err is not None:                          # (only for an unchecked action)
            raise _why(err)

    def apply(self, action: Action | str) -> None:
        """Check and carry out in one call of the core (the base class's apply, without the round trip)."""
        if not isinstance(action, Action):
            if not isinstance(action, str):
                raise IllegalAction(f"an action must be an Action or its text, not {type(action).__name__}")
            action = A.parse(action)
        code = _CODE.get(action.text)
        if code is None and action.kind == "bid":
            code = BID_BASE + action.args[0]
        if code is not None:
            err = self._c.apply_code(code)
        elif action.kind in ("pay", "discard") and action.args:
            cards, conc, dust = action.args
            err = self._c.apply_items(action.kind, list(cards), list(conc), dust, action.text)
        else:
            self.to_python()._check(action)          # raises the reference's message
            raise IllegalAction(f"'{action.text}' is not a Zavandor action")
        if err is not None:
            raise _why(err)
        self._snap = None
        self._hist = (action.text, self._hist)
        self._hist_len += 1

    def scores(self) -> list[int]:
        return self._c.scores()

    @property
    def characters(self) -> list[int]:
        """Each seat's character (an index into ``data.CHARACTERS``), read from the core: asking the reference
        state's players would rebuild it after every action."""
        return self._c.characters

    def undo_barrier(self) -> Any:
        return (self._c.rng_state, self._c.revealed)

    def clone(self) -> NativeZavandorState:
        # a hot path: the history node is copied through the slot itself, not the lazy property
        # (codes played in the core join the history first, through the property)
        hist = self._hist if self._tail is not None else _HIST_GET(self)
        s = _new(NativeZavandorState)
        s.num_players = self.num_players
        s.seed = self.seed
        s.options = self.options
        s._tail = None
        _HIST_SET(s, hist)
        s._hist_len = self._hist_len
        s._c = self._c.copy()
        s._snap = None
        return s

    def _observe(self, seats: list[int | None]) -> list[dict[str, Any]]:
        # the core writes the parts, assembled here as view.observe assembles them (public parts shared)
        base, players, private = orjson.loads(self._c.observe_json(sorted({x for x in seats if x is not None})))
        base["options"] = dict(self.options)
        base["stage"] = STAGE_NAMES[base["stage"]]
        base["history_length"] = self._hist_len
        out = []
        for seat in seats:
            obs = dict(base)
            if seat is None:
                obs["players"] = players
            else:
                mine = list(players)
                mine[seat] = {**players[seat], **private[str(seat)]}
                obs["players"] = mine
            out.append(obs)
        return out

    # --- learning: the core writes the tensor and the mask into the caller's arrays -------------------------
    def observation_tensor(self, seat: int | None) -> np.ndarray:
        self._check_seat(seat)
        out = np.empty(_native.tensor_size(self.num_players), np.float32)
        self._c.tensor_into(seat, out)
        return out

    def observation_tensor_into(self, seat: int | None, out: np.ndarray) -> None:
        self._check_seat(seat)
        self._c.tensor_into(seat, out)

    def legal_mask(self) -> np.ndarray:
        out = np.empty(_NUM_IDS, np.int8)
        self._c.mask_into(out)
        return out

    def legal_mask_into(self, out: np.ndarray) -> None:
        self._c.mask_into(out)

    def legal_action_ids(self) -> list[int]:
        return np.flatnonzero(self.legal_mask()).tolist()

    def sample_hidden(self, seat: int, rng: Rng) -> NativeZavandorState:
        self._check_seat(seat)
        core, rng.state = self._c.sample_hidden(seat, rng.state)
        s = self.clone()
        s._c = core
        return s

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "zavandor",
            "players": self.num_players,
            "seed": self.seed,
            "options": dict(self.options),
            "rng": self._c.rng_state,
            "history": self.history,
            "state": orjson.loads(self._c.state_json()),
        }

    def play_random(self, seat_seeds: list[int]) -> int:
        """Play to the end inside the core, each seat a uniformly random agent (the contract's
        ``RandomAgent``: the same choices as ``run_episode`` with ``make_agent(game, "random", seed)``
        would make). Returns the number of actions; the history records them."""
        hist = self._hist                 # (what was played before joins the history first)
        codes = self._c.play_random(seat_seeds)
        if codes:
            top = max(codes)
            if top >= len(_BY_CODE):
                _grow(top + 256)
            _HIST.__set__(self, hist)
            self._tail = codes            # their texts join the history when it is read
            self._hist_len += len(codes)
            self._snap = None
        return len(codes)

def _core_new(players: int, seed: int, opts: dict[str, Any]):
    chars = opts["characters"]
    codes = None if chars is None else [-1 if c == "random" else CHARACTERS.index(c) for c in chars]
    return _native.Core(players, seed, codes, _flags(opts))


def new_native(players: int, seed: int, **options: Any) -> NativeZavandorState:
    """A new game on the native engine (``new_game(..., backend="native")``)."""
    from .setup import normalize_options

    if _native is None:
        raise GameConfigError("the native Zavandor core is not built (no Rust toolchain at install time)")
    opts = normalize_options(players, options)
    s = _new(NativeZavandorState)
    s.num_players = players
    s.seed = seed
    s.options = opts
    s._tail = None
    s._set_history([])
    s._c = _core_new(players, seed, opts)
    s._snap = None
    return s


def state_pool():
    """An empty ``StatePool`` of the core (docs/native.md, "Clones without wrappers"): states addressed
    by index, so that a search in Python clones and plays without a Python object per state.
    ``pool.add(state._c)`` copies a native state in; ``clone(i)``, ``copy_into(src, dst)``,
    ``release(i)``, ``apply_id(i, id)``, ``legal(i)``, ``tensor_into(i, seat, out)``, ``mask_into(i, out)``,
    ``playout(i, seed)``, ``scores(i)``, ``core(i)`` (a ``Core`` copy) work on indices."""
    if _native is None:
        raise GameConfigError("the native Zavandor core is not built (no Rust toolchain at install time)")
    return _native.Pool()


def new_batch(num_envs: int, players: int, opts: dict[str, Any], seat: int | None, limit: int | None,
              invalid_reward: float, key_episode: int, key_opponent: int):
    """Many games stepped in one call of the core (``Backend.batch``; ``grimoire.rl.vector``)."""
    chars = opts["characters"]
    codes = None if chars is None else [-1 if c == "random" else CHARACTERS.index(c) for c in chars]
    return _native.Batch(num_envs, players, codes, _flags(opts), seat, limit, invalid_reward, key_episode,
                         key_opponent)


def load_native(d: dict[str, Any]) -> NativeZavandorState:
    """``load_game(d, backend="native")``: the reference loader checks the save (the same messages),
    then the core loads it."""
    from .serial import load

    if _native is None:
        raise GameConfigError("the native Zavandor core is not built (no Rust toolchain at install time)")
    ref = load(d)
    s = from_python(ref)
    s._snap = ref
    return s


def from_python(ref) -> NativeZavandorState:
    """The native twin of a reference state."""
    d = ref.to_dict()
    s = _new(NativeZavandorState)
    s.num_players = ref.num_players
    s.seed = ref.seed
    s.options = ref.options
    s._tail = None
    s._hist = ref._hist
    s._hist_len = ref._hist_len
    try:
        s._c = _native.Core.load(ref.num_players, d["rng"], orjson.dumps(d["state"]).decode(), _flags(ref.options))
    except ValueError as e:
        raise GameConfigError(str(e)) from None
    s._snap = None
    return s


def reference(state):
    """The Python reference state of ``state`` (itself when it is one): for code that reads internals."""
    return state.to_python() if isinstance(state, NativeZavandorState) else state


# --- the medium/easy heuristic in the core -----------------------------------------------------------
_PLAN_FIELDS = ("vp_per_energy", "hand_unit", "hand_unit_min", "hand_unit_max", "gem_spend", "sink_rate", "art_rate",
                "art_budget", "art_share", "sentinel_surcharge", "payback", "round_plan", "fire_step")
_ROUND_PLANS = {("advance", "gems"): 1.0, ("gems", "advance"): 0.0}


def native_policy(h):
    """The core's twin of a ``Heuristic`` (ai/heuristic.py), built once: its constants are the
    Heuristic's ``Params`` (each character's plan), its memory (bid limits, the turn guard) its own."""
    pol = getattr(h, "_native", None)
    if pol is None:
        pol = h._native = _native.Policy(_params_args(h.params), float(h.noise), float(h.bid_noise), bool(h.lookahead))
    return pol


def _params_args(p) -> tuple:
    """The constants of a ``Params`` (ai/evaluate.py) as the core takes them: the table-wide ones and
    each character's plan."""
    from .ai.evaluate import plans

    rows = []
    for plan in plans(p)[1]:
        row = []
        for f in _PLAN_FIELDS:
            v = getattr(plan, f)
            row.append(_ROUND_PLANS[tuple(v)] if f == "round_plan" else float(v))
        rows.append(row)
    return ([float(x) for x in p.end_round], float(p.sentinel_rounds), float(p.sentinel_share), float(p.sentinel_extra),
            float(p.denial), float(p.tie_income), float(p.tie_energy), float(p.kappa), rows)


def heuristic_decide(h, det: NativeZavandorState, seat: int, actions: list[Action]) -> Action:
    """``h.decide(det, seat, actions)`` computed in the core: the same decision, and the same draws
    from ``h.rng`` (the agent's generator, for the easy level's noise)."""
    codes = None        # the determinization's own legal actions: the same (the deciding seat's own)
    if len(actions) != len(det._c.legal()):
        codes = []
        for a in actions:
            code = _CODE.get(a.text)
            codes.append(BID_BASE + a.args[0] if code is None else code)
    last = _CODE.get(det._hist[0], -1) if det._hist is not None else -1
    code, h.rng.state = native_policy(h).decide(det._c, seat, codes, last, h.rng.state)
    if code >= len(_BY_CODE):
        _grow(code + 256)
    return _BY_CODE[code]


def heuristic_choose(h, state: NativeZavandorState, seat: int) -> Action:
    """``HeuristicAgent.choose`` in one call of the core: the legal actions (one: played without a
    draw), the determinization from ``h.rng`` (the agent's generator) and the decision on it."""
    last = _CODE.get(state._hist[0], -1) if state._hist is not None else -1
    code, h.rng.state = native_policy(h).choose(state._c, seat, last, h.rng.state)
    if code >= len(_BY_CODE):
        _grow(code + 256)
    return _BY_CODE[code]


# --- the hard level (IS-MCTS with ai/search.py's hooks) in the core ------------------------------------
def search_choose(hooks, agent, state: NativeZavandorState, seat: int) -> Action:
    """``agent.choose(state, seat)`` of an IS-MCTS agent (grimoire.agents.mcts) with ``hooks`` (a
    ``ZavandorSearch``), searched in the core: the same shortcut, tree, playouts and evaluation, and the
    same draws from the agent's and the hooks' generators. The hooks' memory lives in the core from
    the first such decision on."""
    import time

    nat = getattr(hooks, "_native", None)
    if nat is None:
        nat = hooks._native = _native.Search(_params_args(hooks.params), hooks.top_k, float(hooks.scale),
                                             float(hooks.clear_gap), float(hooks.bid_band), hooks.h.rng.state,
                                             hooks.rng.state)
    last = _CODE.get(state._hist[0], -1) if state._hist is not None else -1
    t0 = time.perf_counter()
    cap = agent.iteration_cap(state.backend)
    code, agent.rng.state, iterations, shortcut = nat.choose(state._c, seat, last, agent.rng.state, cap,
                                                             agent.time_limit, float(agent.c), agent.cpu_clock,
                                                             hooks.mode(cap is not None))
    hooks.rng.state = nat.rng_state
    hooks.decided, hooks.searched = nat.decided, nat.searched
    agent.last_stats = {"iterations": iterations, "seconds": time.perf_counter() - t0}
    if shortcut:
        agent.last_stats["shortcut"] = True
    if code >= len(_BY_CODE):
        _grow(code + 256)
    return _BY_CODE[code]
