"""The Shuluri Viadal game state: plain slotted data plus the contract glue.

The rules live in modules named after the spec's chapters: ``setup`` (5), ``flow`` (6, 7, 19:
rounds, steps, MAN, victory), ``movement`` (9), ``combat`` (10-13), ``magic`` (14-15), ``traps``
(16), ``automata`` (zombies and Assassin's Madness victims), ``kinds`` (one DecisionKind handler
per decision: naming, acting, trap windows, defence choices, setup choices), ``legal`` (parse ->
check -> do), ``view`` (observations and everything hidden), ``serial`` (to_dict / load).

Every decision, the acting player's step included, is a record on ``stack`` (a DecisionStack): the
top one is the current decision and its seat the current player.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.action import Action
from ...core.decisions import DecisionStack
from ...core.state import GameState
from .fig import Fig
from .rules_flags import Flags
from .team import Area, Team


class ShuluriState(GameState):
    game = "shuluri"
    __slots__ = (
        "flags", "mode", "alliance", "order", "phase", "sub", "round", "sched", "step_i", "active", "named",
        "pool", "gpool", "stack", "figs", "teams", "gate_open", "gate_jam", "areas", "area_seq", "events",
        "n_events", "winners_", "end_reason", "first", "dice_i", "reveals", "secret", "started", "deaths", "batch",
        "listed",
    )
    flags: Flags
    mode: str                   # "duel" (2 players), "ffa" or "pairs"
    alliance: tuple             # alliance id of each seat
    order: tuple                # seats in step order (A first)
    phase: str                  # "setup", "play", "over"
    sub: str                    # where the flow stands inside the phase (flow.py)
    round: int
    sched: tuple                # the round's steps: (seat, kind) with kind "pair1", "pair2", "glad"
    step_i: int
    active: int                 # the seat whose step it is (-1 in setup)
    named: tuple                # figure ids acting in this step
    pool: int                   # the step pool (M7.2)
    gpool: int                  # the gladiator's own MAN in his step (M7.3)
    stack: DecisionStack
    figs: list                  # Fig or None (zombie slots not raised), by figure id
    teams: list[Team]
    gate_open: list[bool]
    gate_jam: list[int]         # last round a slammed gate stays shut (trap 12), 0: none
    areas: list[Area]
    area_seq: int
    events: Any                 # cons list ([seat or None, text, key, args], rest), newest first (events.py);
    #                             an entry is [seat, text, key, args] with text None until first read
    #                             (view.py formats it once; most events are never shown)
    n_events: int
    winners_: list[int]
    end_reason: str
    first: int                  # 2 players: seat A (the side-chooser's opponent), -1 before the choice
    dice_i: int                 # preset dice used (option dice)
    reveals: int                # counts reveals (undo barrier)
    secret: tuple               # (history index, seat) of secret setup actions
    started: bool               # round 1 step 1 has begun (weapon reveal R17)
    deaths: list                # seats whose gladiator died in the current simultaneous batch (E19.2)
    batch: bool                 # damage is being dealt simultaneously (end-of-round Firestorm)
    # the actions legal_actions() last listed for this very position (None after any action and in a
    # copy, which sample_hidden may change): check() accepts those objects without checking them again
    # (the listing is exact: tests/shuluri/test_speed_paths.py)
    listed: list | None

    def clone(self) -> ShuluriState:
        s = ShuluriState.__new__(ShuluriState)
        self._copy_base(s)
        s.flags = self.flags
        s.mode = self.mode
        s.alliance = self.alliance
        s.order = self.order
        s.phase = self.phase
        s.sub = self.sub
        s.round = self.round
        s.sched = self.sched
        s.step_i = self.step_i
        s.active = self.active
        s.named = self.named
        s.pool = self.pool
        s.gpool = self.gpool
        s.stack = self.stack.copy()
        s.figs = [f.copy() if f is not None else None for f in self.figs]
        s.teams = [t.copy() for t in self.teams]
        s.gate_open = self.gate_open[:]
        s.gate_jam = self.gate_jam[:]
        s.areas = self.areas[:]
        s.area_seq = self.area_seq
        s.events = self.events
        s.n_events = self.n_events
        s.winners_ = self.winners_[:]
        s.end_reason = self.end_reason
        s.first = self.first
        s.dice_i = self.dice_i
        s.reveals = self.reveals
        s.secret = self.secret
        s.started = self.started
        s.deaths = self.deaths[:]
        s.batch = self.batch
        s.listed = None
        return s

    # --- helpers used by every rule module ----------------------------------------------------------
    def fig(self, cid: int) -> Fig:
        return self.figs[cid]

    def team_figs(self, seat: int) -> list[Fig]:
        return [f for f in self.figs if f is not None and f.seat == seat]

    def living(self) -> list[Fig]:
        return [f for f in self.figs if f is not None and f.alive]

    def at(self, field: int) -> list[Fig]:
        return [f for f in self.figs if f is not None and f.alive and f.field == field]

    def count_at(self, field: int) -> int:
        n = 0
        for f in self.figs:
            if f is not None and f.alive and f.field == field:
                n += 1
        return n

    def enemies(self, a: int, b: int) -> bool:
        """Seats a and b are on different sides (teams, or alliances in pair play)."""
        return self.alliance[a] != self.alliance[b]

    def d10(self) -> int:
        preset = self.flags.dice
        if preset is not None and self.dice_i < len(preset):
            v = preset[self.dice_i]
            self.dice_i += 1
            return v
        return self.rng.randint(1, 10)

    def log(self, key: str, seat: int | None = None, /, **args: Any) -> None:
        """An event (``events.EN[key]`` with ``args``), public (seat None) or seen only by ``seat``."""
        self.events = ([seat, None, key, args], self.events)
        self.n_events += 1

    def name(self, cid: int) -> str:
        return _char_name(cid, self.num_players)

    # --- the contract -------------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        if self.phase == "over":
            return None
        top = self.stack.top
        return top.seat if top is not None else None

    def legal_actions(self) -> list[Action]:
        return _legal_actions(self)

    def legal_action_ids(self) -> list[int]:
        return _legal_ids(self)

    def legal_mask_into(self, out: np.ndarray) -> None:
        """``legal_mask()`` written into ``out`` (int8) id by id, without sorting the ids first (every
        action the game lists has an id, codec.py)."""
        if type(out) is not np.ndarray or out.dtype != np.int8 or out.ndim != 1 or not out.flags.c_contiguous:
            return super().legal_mask_into(out)
        out.fill(0)
        m = out.data
        ids = _text_ids()
        for a in _legal_actions(self):
            m[ids[a.text]] = 1

    def action_from_id(self, i: int) -> Action:
        texts = _id_texts()
        if type(i) is int and 0 <= i < len(texts):     # every id is a fixed text (codec.py)
            return _parse(texts[i])
        return super().action_from_id(i)                # the codec's errors

    def _parse(self, text: str) -> Action:
        return _parse(text)

    def _check(self, action: Action) -> None:
        _check(self, action)

    def _do(self, action: Action) -> None:
        _do(self, action)

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[int]:
        return [1 if i in self.winners_ else 0 for i in range(self.num_players)] if self.phase == "over" \
            else [0] * self.num_players

    def winners(self) -> list[int]:
        return list(self.winners_) if self.phase == "over" else []

    def undo_barrier(self) -> Any:
        return (self.rng.state, self.dice_i, self.reveals)

    def _observe(self, seats: list[int | None]) -> list[dict[str, Any]]:
        return _observe(self, seats)

    def observation_tensor_into(self, seat: int | None, out: np.ndarray) -> None:
        """Write the seat's observation tensor into ``out`` (float32, shape (size,)); the values of
        ``observation_tensor``, without building the observation dict (tensor_into.py)."""
        self._check_seat(seat)
        n = _tensor_size(self.num_players)
        if not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.shape != (n,):
            raise ValueError(f"the Shuluri Viadal tensor needs a float32 array of shape ({n},)")
        _tensor_into(self, seat, out)

    def observation_tensor(self, seat: int | None) -> np.ndarray:
        self._check_seat(seat)
        out = np.empty(_tensor_size(self.num_players), np.float32)
        _tensor_into(self, seat, out)
        return out

    def sample_hidden(self, seat: int, rng) -> ShuluriState:
        return _sample_hidden(self, seat, rng)

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)

    def visible_history(self, seat: int | None) -> list[str | None]:
        hist: list[str | None] = list(self.history)
        for i, maker in self.secret:
            if maker != seat and i < len(hist):
                hist[i] = None
        return hist


# The rule modules do not import this class, so they can be bound here once (no per-call imports).
from .actions import parse as _parse  # noqa: E402
from .codec import id_texts as _id_texts  # noqa: E402
from .codec import legal_ids as _legal_ids  # noqa: E402
from .codec import text_ids as _text_ids  # noqa: E402
from .data import char_name as _char_name  # noqa: E402
from .legal import check as _check  # noqa: E402
from .legal import do as _do  # noqa: E402
from .legal import legal_actions as _legal_actions  # noqa: E402
from .serial import to_dict as _to_dict  # noqa: E402
from .tensor_into import size as _tensor_size  # noqa: E402
from .tensor_into import write as _tensor_into  # noqa: E402
from .view import observe as _observe  # noqa: E402
from .view import sample_hidden as _sample_hidden  # noqa: E402
