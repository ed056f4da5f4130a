"""Live games: sessions in memory, the one path every action takes, broadcasting, AI seats.

Every action — from HTTP, a WebSocket or an AI seat — goes through ``Hub.submit``:

1. under the game's lock, the sequence number the client saw must be the game's (else 409 stale),
   the sender must be the seat that decides now (else 403) and the engine must accept the text on a
   copy of the state (else 422 with the engine's reason);
2. the action is committed to the database (group commit) — only then
3. the copy becomes the game's state, the sequence number goes up, every connection gets its own
   observation, and an AI seat that must decide next is started.

So two submissions for the same decision apply exactly once, and an acknowledged action is on disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from ..agents import agent_names
from ..core.errors import GameConfigError, GrimoireError, IllegalAction
from ..core.registry import game_info, games, load_game, new_game
from ..core.state import GameState
from . import fastjson
from .ai import AIRunner, decision_seed
from .store import Conflict, GameRow, SeatRow, Store, now

log = logging.getLogger("grimoire.web.hub")

MAX_ACTION_TEXT = 200
MAX_NAME = 40


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, **extra: Any):
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    seat: int
    agent: str
    name: str
    token_hash: str | None

    @property
    def human(self) -> bool:
        return self.agent == "human"


class Conn:
    """One WebSocket (or test double) following a game as a seat or as a spectator."""

    def __init__(self, send_text, seat: int | None):
        self.send_text = send_text
        self.seat = seat
        self.queue: asyncio.Queue = asyncio.Queue(maxsize=256)
        self.task: asyncio.Task | None = None
        self.closed = False

    def start(self) -> None:
        self.task = asyncio.create_task(self._pump())

    def push(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:      # a client that does not read: drop it, it will reconnect
            self.closed = True

    async def _pump(self) -> None:
        try:
            while not self.closed:
                text = await self.queue.get()
                await self.send_text(text)
        except Exception:  # noqa: BLE001 - the socket went away; the reader side cleans up
            self.closed = True

    async def stop(self) -> None:
        self.closed = True
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's observation and hints of one state, serialized once (JSON text), plus the round."""
    obs_json: str
    hints_json: str
    round: int | None


@dataclass
class Session:
    id: str
    game: str
    seed: int
    options: dict
    seats: list[Seat]
    state: GameState
    seq: int
    log: list[dict] = field(default_factory=list)
    fixed_seed: bool = False
    practice: bool = False          # a practice game: the hard AI's hints on request (web/review.py)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set = field(default_factory=set)
    ai_task: asyncio.Task | None = None
    last_used: float = field(default_factory=time.monotonic)
    # per-seat views of the state at ``_views_seq`` (seat None = spectators): built when first needed,
    # once per sequence number and seat, and shared by every message and request for them. Kept as
    # JSON text, so 200 live games add no objects for the garbage collector to scan. The cache is not
    # copied by ``dataclasses.replace``.
    _views: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _views_seq: int = field(default=-1, init=False, repr=False, compare=False)

    @property
    def status(self) -> str:
        return "over" if self.state.is_terminal() else "active"

    def seat_view(self, seat: int | None) -> SeatView:
        """The observation and hints of ``seat`` for the current state, computed once per sequence number."""
        if self._views_seq != self.seq:
            self._views = {}
            self._views_seq = self.seq
        got = self._views.get(seat)
        if got is None:
            # build the views of every seat that is followed right now in one go: the game shares
            # the public parts between them (state.observations)
            wanted = [seat] + sorted({c.seat for c in self.conns if not c.closed and c.seat not in self._views
                                      and c.seat != seat}, key=lambda x: -1 if x is None else x)
            for who, obs in zip(wanted, self.state.observations(wanted), strict=True):
                self._views[who] = SeatView(fastjson.dumps(obs), fastjson.dumps(self.state.hints(who)),
                                            obs.get("round"))
            got = self._views[seat]
        return got

    def current_round(self) -> int | None:
        """The round of the current state (from any view already built, else the spectators')."""
        if self._views_seq == self.seq and self._views:
            return next(iter(self._views.values())).round
        return self.seat_view(None).round

    def ai_decides(self) -> bool:
        cp = self.state.current_player
        return cp is not None and not self.seats[cp].human

    def seat_info(self) -> list[dict]:
        online = {c.seat for c in self.conns if not c.closed and c.seat is not None}
        return [{"seat": s.seat, "agent": s.agent, "name": s.name, "online": s.human and s.seat in online}
                for s in self.seats]


class Hub:
    def __init__(self, store: Store, ai: AIRunner | None = None, ai_delay: float = 0.5,
                 snapshot_every: int = 100, idle_seconds: float = 900.0):
        self.store = store
        self.ai = ai or AIRunner()
        self.ai_delay = ai_delay
        self.snapshot_every = snapshot_every
        self.idle_seconds = idle_seconds
        self.sessions: dict[str, Session] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._janitor: asyncio.Task | None = None

    # --- life cycle ------------------------------------------------------------------------------
    async def start(self) -> None:
        """Resume every game that was waiting for an AI seat when the server stopped."""
        loop = asyncio.get_running_loop()
        ids = await loop.run_in_executor(self.store.readers, self.store.games_waiting_for_ai)
        for gid in ids:
            try:
                s = await self.get(gid)
            except ApiError:
                continue
            except GrimoireError:        # one game that cannot be rebuilt must not keep the server down
                log.exception("game %s could not be loaded; its AI seat is not resumed", gid)
                continue
            self._kick_ai(s)
        self._janitor = asyncio.create_task(self._evict_idle())
        if ids:
            log.info("resumed %d game(s) waiting for an AI seat", len(ids))

    async def stop(self) -> None:
        if self._janitor:
            self._janitor.cancel()
        for s in list(self.sessions.values()):
            if s.ai_task:
                s.ai_task.cancel()
            for c in list(s.conns):
                await c.stop()
        self.ai.close()

    async def _evict_idle(self) -> None:
        while True:
            await asyncio.sleep(60)
            cutoff = time.monotonic() - self.idle_seconds
            for gid, s in list(self.sessions.items()):
                if not s.conns and (s.ai_task is None or s.ai_task.done()) and s.last_used < cutoff:
                    self.sessions.pop(gid, None)

    # --- creating and loading --------------------------------------------------------------------
    async def create(self, spec: Any) -> tuple[Session, list[str | None]]:
        if not isinstance(spec, dict):
            raise ApiError(400, "bad_request", "the body must be a JSON object")
        game = spec.get("game")
        if game is None:
            raise ApiError(400, "bad_game", "'game' is required: one of " + ", ".join(games()))
        try:
            info = game_info(game)
        except GameConfigError as e:
            raise ApiError(400, "bad_game", str(e)) from None
        seats_spec = spec.get("seats")
        if not isinstance(seats_spec, list) or not seats_spec:
            raise ApiError(400, "bad_seats", "'seats' must be a list with one entry per player, "
                           "e.g. [{\"agent\": \"human\"}, {\"agent\": \"random\"}]")
        players = spec.get("players", len(seats_spec))
        if players != len(seats_spec):
            raise ApiError(400, "bad_seats", f"'players' is {players} but {len(seats_spec)} seats are given")
        levels = agent_names(game)
        seats: list[Seat] = []
        tokens: list[str | None] = []
        for i, sd in enumerate(seats_spec):
            if isinstance(sd, str):
                sd = {"agent": sd}
            if not isinstance(sd, dict):
                raise ApiError(400, "bad_seats", f"seat {i}: expected an object like {{\"agent\": \"human\"}}")
            agent = sd.get("agent", "human")
            if agent != "human" and agent not in levels:
                raise ApiError(400, "bad_seats", f"seat {i}: unknown agent {agent!r}; choose human or one of "
                               + ", ".join(levels))
            name = sd.get("name") or ""
            if not isinstance(name, str) or len(name) > MAX_NAME:
                raise ApiError(400, "bad_seats", f"seat {i}: a name is text of at most {MAX_NAME} characters")
            token = secrets.token_urlsafe(24) if agent == "human" else None
            tokens.append(token)
            seats.append(Seat(i, agent, name.strip(), hash_token(token) if token else None))
        options = spec.get("options") or {}
        if not isinstance(options, dict):
            raise ApiError(400, "bad_options", "'options' must be an object")
        seed = spec.get("seed")
        fixed = seed is not None
        if seed is None:
            seed = secrets.randbits(62)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 62:
            raise ApiError(400, "bad_seed", "'seed' must be a whole number from 0 to 2**62 - 1")
        try:
            state = new_game(game, players, seed, **options)
        except GameConfigError as e:
            raise ApiError(400, "bad_options", str(e)) from None
        except TypeError as e:
            raise ApiError(400, "bad_options", f"invalid options for {info.title}: {e}") from None
        practice = spec.get("practice", False)
        if not isinstance(practice, bool):
            raise ApiError(400, "bad_request", "'practice' is true or false")
        gid = secrets.token_urlsafe(9)
        t = now()
        row = GameRow(gid, game, players, seed, dict(state.options) | ({"fixed_seed": True} if fixed else {})
                      | ({"practice": True} if practice else {}), "active", 0, state.current_player, t, t)
        session = Session(gid, game, seed, dict(state.options), seats, state, 0, fixed_seed=fixed, practice=practice)
        fut = self.store.create_game(row, [SeatRow(s.seat, s.agent, s.name, s.token_hash) for s in seats],
                                     session.ai_decides())
        await asyncio.wrap_future(fut)
        self.sessions[gid] = session
        self._kick_ai(session)
        return session, tokens

    async def get(self, gid: Any) -> Session:
        if not isinstance(gid, str) or not 0 < len(gid) <= 40:
            raise ApiError(404, "unknown_game", f"there is no game {gid!r}")
        s = self.sessions.get(gid)
        if s is not None:
            s.last_used = time.monotonic()
            return s
        lock = self._loading.setdefault(gid, asyncio.Lock())
        async with lock:
            s = self.sessions.get(gid)
            if s is None:
                loop = asyncio.get_running_loop()
                loaded = await loop.run_in_executor(self.store.readers, self.store.load, gid)
                if loaded is None:
                    self._loading.pop(gid, None)
                    raise ApiError(404, "unknown_game", f"there is no game {gid!r}")
                s = self._rebuild(loaded)
                self.sessions[gid] = s
        self._loading.pop(gid, None)
        return s

    def _rebuild(self, loaded) -> Session:
        row = loaded.row
        options = game_info(row.game).restore_options({k: v for k, v in row.options.items()
                                                       if k not in ("fixed_seed", "practice")})
        if loaded.snapshot is not None:
            state = load_game(loaded.snapshot)
            todo = [a for a in loaded.actions if a[0] > loaded.snapshot_seq]
        else:
            state = new_game(row.game, row.players, row.seed, **options)
            todo = loaded.actions
        for _seq, _seat, text, _round in todo:
            state.apply(text)
        n = len(loaded.actions)
        if n != row.seq or state.record()["actions"] != [a[2] for a in loaded.actions]:
            raise GameConfigError(f"game {row.id}: stored actions do not match its sequence number")
        seats = [Seat(s.seat, s.agent, s.name, s.token_hash) for s in loaded.seats]
        session = Session(row.id, row.game, row.seed, options, seats, state, n,
                          fixed_seed=bool(row.options.get("fixed_seed")), practice=bool(row.options.get("practice")))
        session.log = [{"seq": q, "seat": seat, "text": text, "round": rnd} for q, seat, text, rnd in loaded.actions]
        return session

    # --- who is asking -----------------------------------------------------------------------------
    @staticmethod
    def seat_for_token(s: Session, token: Any) -> int | None:
        """The seat a token belongs to; None for no token (a spectator); 401 for a wrong token."""
        if token in (None, ""):
            return None
        if not isinstance(token, str) or len(token) > 200:
            raise ApiError(401, "bad_token", "that seat token is not valid for this game")
        h = hash_token(token)
        for seat in s.seats:
            if seat.token_hash and secrets.compare_digest(seat.token_hash, h):
                return seat.seat
        raise ApiError(401, "bad_token", "that seat token is not valid for this game")

    # --- what a seat sees ----------------------------------------------------------------------------
    def view_json(self, s: Session, seat: int | None, kind: str | None = None,
                  entries: list[dict] | None = None) -> str:
        """Everything one seat (or a spectator, seat None) may know, as JSON text: a ``welcome``
        (the whole log) or, with ``entries``, a ``state`` message (only those new log entries).
        The observation and hints are the session's cached text: serialized once per seat and state."""
        sv = s.seat_view(seat)
        head: dict[str, Any] = {"type": kind} if kind else {}
        head.update({
            "game_id": s.id,
            "game": s.game,
            "seq": s.seq,
            "seat": seat,
            "status": s.status,
            "seats": s.seat_info(),
            "fixed_seed": s.fixed_seed,
            "practice": s.practice,
            "log": self.visible_log(s, seat, s.log if entries is None else entries),
        })
        if s.state.is_terminal():
            head["result"] = {"scores": s.state.scores(), "winners": s.state.winners()}
        text = fastjson.dumps(head)
        return f'{text[:-1]},"obs":{sv.obs_json},"hints":{sv.hints_json}}}'

    def view(self, s: Session, seat: int | None) -> dict[str, Any]:
        """The same as a dict (what ``GET /api/games/{id}`` returns)."""
        return fastjson.loads(self.view_json(s, seat))

    @staticmethod
    def visible_log(s: Session, seat: int | None, entries: list[dict]) -> list[dict]:
        """Log entries as ``seat`` may see them: an action still secret to it has text None."""
        if type(s.state).visible_history is GameState.visible_history:
            return entries                                  # the game's history is all public
        vis = s.state.visible_history(seat)
        return [e if vis[e["seq"] - 1] is not None else {**e, "text": None} for e in entries]

    # --- the one path of every action ------------------------------------------------------------
    async def submit(self, s: Session, seat: int | None, seq: Any, text: Any) -> dict[str, Any]:
        if seat is None:
            raise ApiError(403, "spectator", "spectators cannot act: open your seat's link to play")
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise ApiError(400, "bad_seq", "'seq' must be the game's sequence number you saw (a whole number)")
        if not isinstance(text, str) or not text.strip():
            raise ApiError(400, "bad_action", "'action' must be one of the action texts of obs.legal_actions")
        if len(text) > MAX_ACTION_TEXT:
            raise ApiError(400, "bad_action", f"an action text has at most {MAX_ACTION_TEXT} characters")
        async with s.lock:
            s.last_used = time.monotonic()
            if s.state.is_terminal():
                raise ApiError(409, "game_over", "the game is over", seq=s.seq)
            if seq != s.seq:
                raise ApiError(409, "stale", f"the game has moved on (it is at action {s.seq}, you sent {seq}); "
                               "here is the current state", seq=s.seq)
            cp = s.state.current_player
            if seat != cp:
                who = s.seats[cp].name or f"seat {cp}"
                raise ApiError(403, "not_your_turn", f"it is not your decision: {who} (seat {cp}) must decide now",
                               seq=s.seq)
            try:
                action = s.state.parse_action(text)
                new = s.state.clone()
                new.apply(action)
            except IllegalAction as e:
                raise ApiError(422, "illegal", str(e), rule=e.rule, seq=s.seq) from None
            except GrimoireError as e:
                raise ApiError(422, "illegal", str(e), seq=s.seq) from None
            canon = str(action)
            round_ = s.current_round()
            nseq = s.seq + 1
            # a snapshot is a cache (loading = snapshot + the actions after it): to_dict() is ~0.1 ms,
            # taken every snapshot_every actions and at the end, and written in the same transaction
            snapshot = new.to_dict() if (nseq % self.snapshot_every == 0 or new.is_terminal()) else None
            ai_next = new.current_player is not None and not s.seats[new.current_player].human
            fut = self.store.append_action(s.id, nseq, seat, canon, round_,
                                           status="over" if new.is_terminal() else "active",
                                           current_player=new.current_player, ai_turn=ai_next, snapshot=snapshot)
            try:
                await asyncio.wrap_future(fut)
            except Conflict:
                # another server process wrote this game: forget our copy, the next request reloads it
                self.sessions.pop(s.id, None)
                raise ApiError(409, "stale", "the game was changed elsewhere; reload", seq=s.seq) from None
            s.state = new
            s.seq = nseq
            entry = {"seq": nseq, "seat": seat, "text": canon, "round": round_}
            s.log.append(entry)
            self._broadcast(s, [entry])
        self._kick_ai(s)
        return {"ok": True, "seq": nseq, "action": canon}

    # --- live updates ------------------------------------------------------------------------------
    def _broadcast(self, s: Session, new_entries: list[dict]) -> None:
        """Send every connection its seat's new view: one observation and one serialization per seat
        that has a connection (spectators share one), none for seats nobody follows."""
        cache: dict[int | None, str] = {}
        for c in list(s.conns):
            if c.closed:
                s.conns.discard(c)
                continue
            text = cache.get(c.seat)
            if text is None:
                text = cache[c.seat] = self.view_json(s, c.seat, "state", new_entries)
            c.push(text)

    def presence(self, s: Session) -> None:
        msg = fastjson.dumps({"type": "presence", "seats": s.seat_info()})
        for c in list(s.conns):
            c.push(msg)

    # --- AI seats ------------------------------------------------------------------------------------
    def _kick_ai(self, s: Session) -> None:
        if s.ai_decides() and (s.ai_task is None or s.ai_task.done()):
            s.ai_task = asyncio.create_task(self._ai_loop(s))

    async def _ai_loop(self, s: Session) -> None:
        while s.ai_decides() and self.sessions.get(s.id) is s:
            seat = s.state.current_player
            seq = s.seq
            if self.ai_delay:
                await asyncio.sleep(self.ai_delay)
            if s.seq != seq:
                continue
            name = s.seats[seat].agent
            try:
                text = await self.ai.choose(s.state, name, seat, decision_seed(s.seed, seat, seq))
            except Exception:  # noqa: BLE001 - a broken agent must not stall the game
                log.exception("agent %s failed in game %s at %d; playing a random legal action", name, s.id, seq)
                legal = s.state.legal_actions()
                text = str(legal[decision_seed(s.seed, seat, seq) % len(legal)])
            try:
                await self.submit(s, seat, seq, text)
            except ApiError as e:
                if e.code == "stale":
                    continue
                log.error("agent %s proposed %r in game %s: %s", name, text, s.id, e.message)
                legal = s.state.legal_actions()
                if not legal:
                    return
                with contextlib.suppress(ApiError):
                    await self.submit(s, seat, seq, str(legal[0]))
