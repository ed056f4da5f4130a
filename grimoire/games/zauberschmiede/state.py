"""The Zauberschmiede game state: rounds, the shared roll, seats deciding in turn, observations.

Pending decisions (spec R3.2, issue 5 point 2). The rulebook has everyone act simultaneously on the
same roll. On the contract this is a fixed walk through the seats: in every round seat 0 makes all
its choices and says ``end``, then seat 1 on the same six values, and so on; ``current_player`` is
the first seat that has not ended the round. The only nested decision is an amplifier level being
paid die by die (R7.1: all its dice in one go), which must be finished before anything else.

Hidden information. Until a round is over, a seat sees the other sheets as they were when the round
began (``Player.snap``); its own sheet it sees live. Future dice are not stored anywhere: each roll
is drawn from the state's RNG when the round begins (or taken from the public ``rolls`` option).
``sample_hidden`` therefore replaces the other seats' undisclosed choices of the current round (keeping
the seat's information state: ``determinize.py``) and reseeds the RNG.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from pydantic import Field, field_validator

from ...core.action import Action
from ...core.errors import GameConfigError, IllegalAction
from ...core.options import GameOptions, validate_options
from ...core.parts import Kept
from ...core.rng import Rng
from ...core.state import GameState, texts_since_kept
from . import determinize, rules
from .actions import KIND_END, SIDES, TABLE, parse
from .codec import CODEC
from .player import Player
from .scoring import breakdown, breakdowns, dust_metric
from .sheet import CONFIG, SHEET
from .writer import write

GAME = "zauberschmiede"
_D: dict[str, Any] = CONFIG["defaults"]
_BY_ID: list[tuple[Action, ...]] = []


def _actions_by_id() -> tuple[Action, ...]:
    """The action of every id (data/actions.txt has no state-relative ids), parsed on first use."""
    if not _BY_ID:
        from .codec import CODEC
        _BY_ID.append(tuple(parse(t) for t in CODEC.texts))
    return _BY_ID[0]


class ZauberschmiedeOptions(GameOptions):
    """The rule options of the specification (defaults in data/config.toml) and preset rolls."""

    field_min_constraints: bool = Field(
        _D["field_min_constraints"], description="true: a field needs a die of at least its printed minimum "
        "(spec D4); false: any value fits any field (the literal excerpt)")
    fresh_dust_divisible: bool = Field(
        _D["fresh_dust_divisible"], description="true: dust produced this round may be split over several "
        "payments in that round (A5); false: fresh dust is one indivisible unit too")
    harmony_mode: Literal["per_artifact", "global"] = Field(
        _D["harmony_mode"], description="'per_artifact': harmony per complete artifact and colour (A3); "
        "'global': per colour over all complete artifacts")
    harmony_min_fields: int = Field(_D["harmony_min_fields"], ge=1,
                                    description="fields of one colour needed for harmony (A4); 1 counts single fields")
    amplifier_partial_payment: bool = Field(
        _D["amplifier_partial_payment"], description="false: an amplifier level is paid in one round (A14); "
        "true: in instalments over several rounds")
    dust_creator_metric: Literal["produced", "unspent"] = Field(
        _D["dust_creator_metric"], description="'produced': the dust creator compares dust produced (A10); "
        "'unspent': dust not yet spent at the end (multiplayer only; solo always counts produced dust)")
    dust_creator_ties: Literal["all_tied", "none"] = Field(
        _D["dust_creator_ties"], description="'all_tied': everybody tied for the most dust gets 15 (A11); "
        "'none': a tie awards nobody")
    rolls: list[list[int]] | None = Field(
        None, description="list of up to 7 rolls of 6 die values used instead of random rolls for the first "
        "rounds (tests, puzzles); they are public")

    @field_validator("rolls", mode="before")
    @classmethod
    def _rolls(cls, rolls: Any) -> Any:
        if rolls is None:
            return None
        ok = isinstance(rolls, (list, tuple)) and len(rolls) <= SHEET.rounds and all(
            isinstance(r, (list, tuple)) and len(r) == SHEET.dice_per_round
            and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= SIDES for v in r) for r in rolls)
        if not ok:
            raise ValueError(f"rolls must be a list of at most {SHEET.rounds} rolls, each "
                             f"{SHEET.dice_per_round} die values 1-{SIDES}")
        return [list(r) for r in rolls]


def normalize_options(options: dict[str, Any], players: int = 1) -> dict[str, Any]:
    return validate_options(GAME, ZauberschmiedeOptions, players, options)


class ZauberschmiedeState(GameState):
    game = GAME
    __slots__ = ("var", "round", "roll", "players", "cur", "over", "_tc", "_totals")
    var: rules.Variant
    round: int
    roll: tuple[int, ...]
    players: list[Player]
    cur: int                 # the seat deciding now (== num_players between rounds)
    over: bool
    _tc: Any                 # writer.Cache of the tensor's constant and round-start parts, or None

    # --- construction -------------------------------------------------------------------------------
    @classmethod
    def new(cls, players: int, seed: int, **options: Any) -> ZauberschmiedeState:
        opts = normalize_options(options)
        st = cls.__new__(cls)
        st.num_players = players
        st.seed = seed
        st.options = opts
        st.rng = Rng(seed)
        st._set_history([])
        st.var = rules.Variant(opts)
        st.round = 1
        st.over = False
        st.cur = 0
        st._tc = None
        st.roll = st._roll_dice()
        st.players = [Player(st.roll) for _ in range(players)]
        for p in st.players:
            p.snap = p.copy()
        return st

    def _roll_dice(self) -> tuple[int, ...]:
        """R3.2 step 1: one shared roll of all dice for the round (or the preset roll of the option)."""
        preset = self.var.preset
        if self.round <= len(preset):
            return preset[self.round - 1]
        rng = self.rng
        return tuple(rng.randint(1, SIDES) for _ in range(SHEET.dice_per_round))

    # --- the contract -------------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self.over else self.cur

    def is_terminal(self) -> bool:
        return self.over

    def legal_actions(self) -> list[Action]:
        if self.over:
            return []
        return rules.legal_actions(self.var, self.players[self.cur])

    def _parse(self, text: str) -> Action:
        return parse(text)

    # --- learning: ids and masks from the id tables (tables.py), tensors from the state -----------------
    def legal_action_ids(self) -> list[int]:
        return CODEC.legal_ids(self)

    def legal_mask_into(self, out: np.ndarray) -> None:
        out.fill(0)
        if not self.over:
            ids = rules.legal_ids(self.var, self.players[self.cur])
            out[np.fromiter(ids, np.intp, len(ids))] = 1

    def action_from_id(self, i: int) -> Action:
        if type(i) is int and i >= 0:
            try:
                return _actions_by_id()[i]
            except IndexError:
                pass
        return super().action_from_id(i)      # its one-line error

    # --- learning: the tensor written from the state (writer.py), no observation dict -------------------
    def observation_tensor(self, seat: int | None) -> np.ndarray:
        from .tensor import size
        out = np.empty(size(self.num_players), np.float32)
        self.observation_tensor_into(seat, out)
        return out

    def observation_tensor_into(self, seat: int | None, out: np.ndarray) -> None:
        self._check_seat(seat)
        write(self, seat, out)

    def _check(self, action: Action) -> None:
        if TABLE.lookup(action.text) is not action:
            known = TABLE.lookup(action.text)
            if known is None or known.kind != action.kind or known.args != action.args:
                raise IllegalAction(f"{action.text!r} is not a Zauberschmiede action", rule="R4.5")
        if self.over:
            raise IllegalAction("the game is over: no further actions [GAME_OVER]", rule="R3.3")
        rules.check(self.var, self.players[self.cur], action)

    def _do(self, action: Action) -> None:
        action = TABLE.lookup(action.text) or action
        rules.do(self.var, self.players[self.cur], action, self.round)
        if action.kind == KIND_END:
            self.cur += 1
            if self.cur == self.num_players:
                self._end_round()

    def _end_round(self) -> None:
        rnd = self.round
        if self._tc is not None:        # the round-start sheets and the roll are replaced
            self._tc.snaps.clear()
            self._tc.head.clear()
        for p in self.players:
            rules.end_of_round(p, rnd)
        if rnd >= self.var.last_round:
            self.over = True
            for p in self.players:
                p.done = True
                p.snap = None
            return
        self.round = rnd + 1
        self.cur = 0
        self.roll = roll = self._roll_dice()
        for p in self.players:
            rules.start_round(p, roll)
            p.snap = None
            p.snap = p.copy()

    def scores(self) -> list[int]:
        return [b["total"] for b in breakdowns(self.var, self.players)]

    def score_breakdowns(self) -> list[dict[str, int]]:
        """S1-S8 and the total (spec §15) of every seat, as if the game ended now."""
        return breakdowns(self.var, self.players)

    def score_breakdown(self, seat: int | None = None) -> list[dict[str, int]] | dict[str, int]:
        """S1-S8 and the total (spec §15), for one seat or (seat None) for all, as if the game ended now."""
        b = breakdowns(self.var, self.players)
        return b if seat is None else b[seat]

    def winners(self) -> list[int]:
        if not self.over:
            return []
        sc = self.scores()
        top = max(sc)
        return [i for i, s in enumerate(sc) if s == top]

    def clone(self) -> ZauberschmiedeState:
        c = ZauberschmiedeState.__new__(ZauberschmiedeState)
        self._copy_base(c)
        c.var = self.var
        c.round = self.round
        c.roll = self.roll
        c.players = [p.copy() for p in self.players]
        c.cur = self.cur
        c.over = self.over
        c._tc = None
        return c

    # --- hidden information -------------------------------------------------------------------------
    def visible_player(self, p_index: int, seat: int | None) -> Player:
        """The sheet of p_index as ``seat`` may see it: live for itself and after the game, else as
        it was when the round began (choices of the current round are revealed when it is over)."""
        p = self.players[p_index]
        if self.over or p_index == seat or p.snap is None:
            return p
        return p.snap

    def _visible(self, seat: int | None) -> list[Player]:
        return [self.visible_player(i, seat) for i in range(self.num_players)]

    def visible_scores(self, seat: int | None) -> list[int]:
        """The totals of the sheets as ``seat`` sees them (the dust creator compares visible sheets):
        another seat's choices of this round count only once the round is over."""
        stash = getattr(self, "_totals", None)
        got = stash[1].pop(seat, None) if stash is not None and stash[0] is self._hist else None
        if got is not None:
            return got
        return [b["total"] for b in breakdowns(self.var, self._visible(seat))]

    def _observe(self, seats: list[int | None]) -> list[dict[str, Any]]:
        """The game's part per seat: the roll, the options and every sheet as the seat may see it
        (its own live, the others as at the start of the round until the round is over). The
        static sheet (artifacts, fields, costs) is not repeated here: ``game_info(...).static_data``."""
        logs: tuple[list[list], ...] | None = None
        rnd, cur, over = self.round, self.cur, self.over
        opts = dict(self.options)
        if opts.get("rolls") is not None:
            opts["rolls"] = [list(r) for r in opts["rolls"]]
        common = {"rounds": self.var.last_round, "roll": list(self.roll), "options": opts}
        # each sheet's score depends on the sheets the seat sees (the dust creator compares them): the
        # same sheets give the same sheet (score included), built once per sheet and metrics, not per
        # seat. A round-start sheet's (``snap``, never changed) are kept on it for the round's next
        # states too: ``Kept``, so the server writes their JSON once (web/viewjson.py)
        metric_of: dict[int, int] = {}
        made: dict[tuple, Kept] = {}
        totals: dict[int | None, list[int]] = {}
        out = []
        for seat in seats:
            vis = self._visible(seat)
            metrics = []
            for p in vis:
                m = metric_of.get(id(p))
                if m is None:
                    m = metric_of[id(p)] = dust_metric(self.var, p)
                metrics.append(m)
            mkey = tuple(metrics)
            sheets = []
            for i, p in enumerate(vis):
                live = p is self.players[i]
                decided = over or i < cur
                skey = (i, live, decided, mkey)
                d = made.get(skey)
                if d is None:
                    if live:
                        d = self._live_sheet(p, i, decided, metrics, mkey)
                    else:
                        kept = p.snap_views()
                        d = kept.get((rnd, skey))
                        if d is None:
                            if logs is None:
                                logs = _view_logs(self)
                            d = kept[(rnd, skey)] = Kept({
                                **p.public_of_snap(), "log": [e for e in logs[i] if e[0] < rnd], "seat": i,
                                "decided": decided, "live": False, "score": breakdown(self.var, p, metrics, i)})
                    made[skey] = d
                sheets.append(d)
            totals[seat] = [d["score"]["total"] for d in sheets]
            out.append({**common, "sheets": sheets})
        # the envelope's scores (``visible_scores``) are these totals: handed over for this state only
        self._totals = (self._hist, totals)
        return out

    def _live_sheet(self, p: Player, i: int, decided: bool, metrics: list[int], mkey: tuple) -> Kept:
        """A live sheet as a seat sees it: kept while the sheet (``public_live``, the same object for the same
        sheet), its log (the same list until the seat acts again), the rules and what the seat sees of the
        others' (their metrics) are the same: most seats did not act since the state before."""
        pub = p.public_live()
        log = _view_logs(self)[i]
        var = self.var
        key = (id(pub), id(log), id(var), i, decided, mkey)
        got = _LIVE_SHEETS.get(key)
        if got is not None and got[0] is pub and got[1] is log and got[2] is var:
            return got[3]
        d = Kept({**pub, "log": log, "seat": i, "decided": decided, "live": True,
                  "score": breakdown(var, p, metrics, i)})
        if len(_LIVE_SHEETS) >= _LOGS_MAX:
            _LIVE_SHEETS.clear()
        _LIVE_SHEETS[key] = (pub, log, var, d)
        return d

    def visible_history(self, seat: int | None) -> list[str | None]:
        """Other seats' choices in the round still being decided are secret (rule 2 of the issue:
        nobody sees another's choices on the same roll before the round is over). Within a round the
        seats decide in order, each until its 'end': walked back from the newest action (the current
        seat's), the round began after the 'end' of the previous round's last seat; the rounds before it
        are the same list for the whole round (``_rounds_before``, the server asks for every seat)."""
        if self.over:
            return list[str | None](self.history)
        recent: list[str | None] = []
        node = self._hist
        actor = self.cur
        while node is not None:
            t = node[0]
            if t == "end":
                actor -= 1
                if actor < 0:
                    break
            recent.append(t if actor == seat else None)
            node = node[1]
        recent.reverse()
        return _rounds_before(node) + recent

    def seat_logs(self) -> list[list[tuple[int, str]]]:
        """Each seat's own actions as (round, text), recovered from the history: within a round the
        seats decide in order, each until its 'end'."""
        out: list[list[tuple[int, str]]] = [[] for _ in range(self.num_players)]
        seat, rnd = 0, 1
        for t in self.history:
            out[seat].append((rnd, t))
            if t == "end":
                seat += 1
                if seat == self.num_players:
                    seat, rnd = 0, rnd + 1
        return out

    def sample_hidden(self, seat: int, rng: Rng) -> ZauberschmiedeState:
        """A determinization for ``seat``: the other seats' undisclosed choices of this round redrawn
        (random legal sequences from their round-start sheets, as many actions in each run of entries
        hidden from ``seat`` as it sees there), the history rewritten to match, and the RNG that rolls
        future dice reseeded from ``rng``. The seat's observation and visible history are kept; the
        result depends on nothing else (``determinize.py``)."""
        return determinize.sample_hidden(self, seat, rng)

    # --- serialization ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        opts = dict(self.options)
        if opts.get("rolls") is not None:
            opts["rolls"] = [list(r) for r in opts["rolls"]]
        return {
            "game": GAME,
            "players": self.num_players,
            "seed": self.seed,
            "options": opts,
            "rng": self.rng.state,
            "history": self.history,
            "round": self.round,
            "roll": list(self.roll),
            "current": self.cur,
            "over": self.over,
            "sheets": [p.to_dict() for p in self.players],
        }

    @classmethod
    def load(cls, d: dict[str, Any]) -> ZauberschmiedeState:
        n = d["players"]
        if isinstance(n, bool) or not isinstance(n, int) or not CONFIG["min_players"] <= n <= CONFIG["max_players"]:
            raise GameConfigError(f"bad player count {n!r}")
        opts = normalize_options(d["options"])
        st = cls.__new__(cls)
        st.num_players = n
        st.seed = int(d["seed"])
        st.options = opts
        st.rng = Rng.from_state(int(d["rng"]))
        hist = d["history"]
        if not isinstance(hist, list) or not all(isinstance(t, str) for t in hist):
            raise GameConfigError("history must be a list of action texts")
        st._set_history(hist)
        st.var = rules.Variant(opts)
        st.round = int(d["round"])
        if not 1 <= st.round <= st.var.last_round:
            raise GameConfigError(f"bad round {st.round}")
        st.roll = tuple(int(v) for v in d["roll"])
        if len(st.roll) != SHEET.dice_per_round or not all(1 <= v <= SIDES for v in st.roll):
            raise GameConfigError("bad roll")
        st.cur = int(d["current"])
        st.over = bool(d["over"])
        if not 0 <= st.cur <= n:
            raise GameConfigError("bad current seat")
        sheets = d["sheets"]
        if not isinstance(sheets, list) or len(sheets) != n:
            raise GameConfigError("one sheet per player is needed")
        st.players = [Player.from_dict(s) for s in sheets]
        st._tc = None
        return st


# The history up to a node (``visible_history``: the rounds before the current one), by the node: the same
# for every state of a round. Holds the nodes (so an id is never reused while in it), starts afresh when full.
_BEFORE: dict[int, tuple[Any, list[str | None]]] = {}


def _rounds_before(node: Any) -> list[str | None]:
    if node is None:
        return []
    got = _BEFORE.get(id(node))
    if got is None or got[0] is not node:
        texts: list[str | None] = []
        n = node
        while n is not None:
            texts.append(n[0])
            n = n[1]
        texts.reverse()
        if len(_BEFORE) >= _LOGS_MAX:
            _BEFORE.clear()
        got = _BEFORE[id(node)] = (node, texts)
    return got[1]


# ``seat_logs`` in the views' form ([round, text] lists), by the history's first node: the next state's history
# is this one with an action in front, so its logs are this one's and that action (the lists are never
# changed once made: a seat's list that grows is a copy). The cache holds the nodes (so an id is never reused
# while in it) and starts afresh rather than grow.
_LOGS: dict[int, tuple[Any, int, int, tuple[list[list], ...]]] = {}
_LOGS_MAX = 8192
# the live sheets' views (``ZauberschmiedeState._live_sheet``): (sheet, log, rules, the view) by their ids
_LIVE_SHEETS: dict[tuple, tuple[dict, list, Any, Kept]] = {}


def _view_logs(st: ZauberschmiedeState) -> tuple[list[list], ...]:
    """Each seat's own actions as [round, text], in order (``seat_logs``); read-only."""
    first = st._hist
    newer, got = texts_since_kept(first, _LOGS)
    logs: list[list[list]]
    if got is None:
        seat, rnd, logs = 0, 1, [[] for _ in range(st.num_players)]
    else:
        seat, rnd, logs = got[1], got[2], list(got[3])
    grown: set[int] = set()
    for t in reversed(newer):
        if seat not in grown:
            logs[seat] = logs[seat][:]
            grown.add(seat)
        logs[seat].append([rnd, t])
        if t == "end":
            seat += 1
            if seat == st.num_players:
                seat, rnd = 0, rnd + 1
    out = tuple(logs)
    if newer:
        if len(_LOGS) >= _LOGS_MAX:
            _LOGS.clear()
        _LOGS[id(first)] = (first, seat, rnd, out)
    return out
