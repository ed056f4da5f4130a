"""Live games: sessions in memory, the one path every action takes, broadcasting, AI seats.

Every action — from HTTP, a WebSocket or an AI seat — goes through ``Hub.submit``:

1. under the game's lock, the sequence number the client saw must be the game's (else 409 stale),
   the sender must be the seat that decides now (else 403) and the engine must accept the text on a
   copy of the state (else 422 with the engine's reason);
2. the action is committed to the database (group commit) — only then
3. the copy becomes the game's state, the sequence number goes up, every connection gets its own
   observation, and an AI seat that must decide next is started.

So two submissions for the same decision apply exactly once, and an acknowledged action is on disk.
If the commit fails, the answer is 503 and the game stays at its last stored action.

No client can hurt other games: the limits below (``Limits``) bound what one connection may queue
and send, how many games one client may create, and how many games live in memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
import secrets
import time
import unicodedata
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

from ..agents import agent_names
from ..core.errors import GameConfigError, GrimoireError, IllegalAction
from ..core.registry import game_info, games, load_game, new_game
from ..core.state import GameState
from . import fastjson
from .ai import AIRunner, decision_seed
from .store import Conflict, CorruptGame, GameRow, SeatRow, StorageError, Store, now

log = logging.getLogger("grimoire.web.hub")

MAX_ACTION_TEXT = 200
MAX_NAME = 40
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
CLOSE_OVERFLOW = 4008      # the client did not read its messages: reconnect and start from a welcome
CLOSE_RELOAD = 4409        # the game was changed by another server process: reconnect to the new copy
CLOSE_BUSY = 4429          # too many connections: reconnect later
STORAGE_MESSAGE = ("the database cannot store anything right now; nothing was changed — "
                   "try again in a moment")


@dataclass
class Limits:
    """What one client may cost the server. ``None`` = unlimited (``grimoire loadtest`` uses that for
    its own server: all its games come from one address)."""
    queue_bytes: int = 1 << 20          # a connection's unsent messages; over it the socket is closed
    messages_per_second: float = 20.0   # a connection's sustained message rate (token bucket) ...
    message_burst: int = 40             # ... and its burst
    syncs_per_second: float = 0.5       # full resyncs (a whole view each) a connection gets, after ...
    sync_burst: int = 3                 # ... a burst of these; more are deferred (at most one pending)
    games_per_client_hour: int | None = 120   # games one client address may create per hour ...
    games_burst: int = 30                     # ... of which at once
    max_ai_only_games: int | None = 32  # running games without a human seat (AI against AI)
    max_sessions: int = 5000            # games kept in memory; idle ones are evicted first
    max_connections: int = 5000         # WebSockets in all
    max_connections_per_game: int = 64


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None, **extra: Any):
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra
        self.headers = headers

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


def storage_error(**extra: Any) -> ApiError:
    return ApiError(503, "storage_unavailable", STORAGE_MESSAGE, headers={"Retry-After": "2"}, **extra)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def has_control_characters(text: str) -> bool:
    """Control characters (NUL included), lone surrogates and line separators: never in a name or id."""
    return any(unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") for ch in text)


class TokenBucket:
    """``rate`` events per second on average, ``burst`` at once."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst, self.tokens, self.stamp = rate, burst, float(burst), time.monotonic()

    def take(self) -> bool:
        t = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (t - self.stamp) * self.rate)
        self.stamp = t
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next event is allowed."""
        return max(0.0, (1 - self.tokens) / self.rate)


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
    """One WebSocket (or test double) following a game as a seat or as a spectator.

    Messages wait in a queue bounded in bytes; a client that does not read its messages makes the
    queue overflow, and the connection is then closed (``on_close(4008)``): the browser reconnects and
    gets a fresh ``welcome``. A full resync (``sync``) is queued as a marker and built when it is
    sent, so a client asking for many costs one view at a time and at most one is ever pending."""

    def __init__(self, send_text, seat: int | None, max_bytes: int = 1 << 20, on_close=None,
                 syncs: TokenBucket | None = None):
        self.send_text = send_text
        self.seat = seat
        self.max_bytes = max_bytes
        self.on_close = on_close         # on_close(code): close the socket (the server's decision)
        self.syncs = syncs               # how often a full resync may be built (None: any time)
        self.sync_at = 0.0               # the pending resync is built no earlier than this (monotonic)
        self.queue: deque = deque()
        self.queued_bytes = 0
        self.peak_bytes = 0
        self.sync_pending = False
        self.build_sync = None           # () -> str: the welcome, built when the marker is sent
        self._wake = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.closed = False
        self.overflowed = False

    def start(self) -> None:
        self.task = asyncio.create_task(self._pump())

    def push(self, text: str) -> None:
        if self.closed:
            return
        self.queue.append(text)
        self.queued_bytes += len(text)
        self.peak_bytes = max(self.peak_bytes, self.queued_bytes)
        if self.queued_bytes > self.max_bytes:
            self._overflow()
            return
        self._wake.set()

    def request_sync(self) -> bool:
        """Ask for a full resync unless one is pending already (then False: nothing more to do). It is
        built when it is sent, after the messages queued before it, and no sooner than the connection's
        sync budget allows (deferring it holds back nothing else)."""
        if self.closed or self.sync_pending:
            return False
        self.sync_pending = True
        self.sync_at = 0.0
        if self.syncs is not None and not self.syncs.take():
            self.sync_at = time.monotonic() + self.syncs.wait()
            self.syncs.tokens -= 1          # the deferred one is paid for now
        self._wake.set()
        return True

    def _overflow(self) -> None:
        self.closed = self.overflowed = True
        self.queue.clear()
        self.queued_bytes = 0
        self._wake.set()
        if self.on_close is not None:
            self.on_close(CLOSE_OVERFLOW)

    async def _pump(self) -> None:
        try:
            while not self.closed:
                if self.queue:
                    text = self.queue.popleft()
                    self.queued_bytes -= len(text)
                    await self.send_text(text)
                    continue
                self._wake.clear()
                if not self.sync_pending:
                    await self._wake.wait()
                    continue
                delay = self.sync_at - time.monotonic()
                if delay > 0:               # not yet: wake up for anything queued meanwhile
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wake.wait(), delay)
                    continue
                self.sync_pending = False
                text = self.build_sync() if self.build_sync is not None else None
                if text is not None:
                    await self.send_text(text)
        except Exception:  # noqa: BLE001 - the socket went away; the reader side cleans up
            self.closed = True

    async def stop(self) -> None:
        self.closed = True
        self._wake.set()
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
    retired: bool = False                       # replaced by a newer copy (another process wrote the game)
    # per-seat views of the state at ``_views_seq`` (seat None = spectators): built when first needed,
    # once per sequence number and seat, and shared by every message and request for them. Kept as
    # JSON text, so 200 live games add no objects for the garbage collector to scan. The cache is not
    # copied by ``dataclasses.replace``.
    _views: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _views_seq: int = field(default=-1, init=False, repr=False, compare=False)
    # the whole log as each seat may see it, as JSON text, for the same sequence number: a welcome,
    # a sync or a GET of a long game costs a string join instead of filtering and serializing it again
    _logs: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def status(self) -> str:
        return "over" if self.state.is_terminal() else "active"

    @property
    def ai_only(self) -> bool:
        return not any(s.human for s in self.seats)

    def _fresh(self) -> None:
        if self._views_seq != self.seq:
            self._views = {}
            self._logs = {}
            self._views_seq = self.seq

    def seat_view(self, seat: int | None) -> SeatView:
        """The observation and hints of ``seat`` for the current state, computed once per sequence number."""
        self._fresh()
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

    def log_json(self, seat: int | None) -> str:
        """The whole log as ``seat`` may see it (JSON text), built once per sequence number and seat."""
        self._fresh()
        got = self._logs.get(seat)
        if got is None:
            got = self._logs[seat] = fastjson.dumps(Hub.visible_log(self, seat, self.log))
        return got

    def current_round(self) -> int | None:
        """The round of the current state (from any view already built, else the spectators')."""
        if self._views_seq == self.seq and self._views:
            return next(iter(self._views.values())).round
        return self.seat_view(None).round

    def ai_decides(self) -> bool:
        cp = self.state.current_player
        return cp is not None and not self.seats[cp].human

    def online(self) -> frozenset[int]:
        return frozenset(c.seat for c in self.conns if not c.closed and c.seat is not None)

    def seat_info(self) -> list[dict]:
        online = self.online()
        return [{"seat": s.seat, "agent": s.agent, "name": s.name, "online": s.human and s.seat in online}
                for s in self.seats]


class Hub:
    def __init__(self, store: Store, ai: AIRunner | None = None, ai_delay: float = 0.5,
                 snapshot_every: int = 100, idle_seconds: float = 900.0, *, allow_seeds: bool = False,
                 limits: Limits | None = None):
        self.store = store
        self.ai = ai or AIRunner()
        self.ai_delay = ai_delay
        self.snapshot_every = snapshot_every
        self.idle_seconds = idle_seconds
        self.allow_seeds = allow_seeds
        self.limits = limits or Limits()
        self.sessions: OrderedDict[str, Session] = OrderedDict()     # least recently used first
        self._loading: dict[str, asyncio.Lock] = {}
        self._janitor: asyncio.Task | None = None
        self._resumer: asyncio.Task | None = None
        self._creators: dict[str, TokenBucket] = {}
        self._corrupt: dict[str, tuple[float, str]] = {}              # game id -> (when, why)
        self.connections = 0
        self.stopping = False
        self.ai_retries = 0                                          # AI moves retried after a storage error

    # --- life cycle ------------------------------------------------------------------------------
    async def start(self) -> None:
        """Start serving; the games that were waiting for an AI seat when the server stopped are
        resumed in the background (a game that cannot be loaded is reported and skipped: it must not
        keep the others, or the server, down)."""
        self._janitor = asyncio.create_task(self._evict_idle())
        self._resumer = asyncio.create_task(self._resume())

    async def _resume(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            ids = await loop.run_in_executor(self.store.readers, self.store.games_waiting_for_ai)
        except Exception as e:  # noqa: BLE001 - the database is not answering: nothing to resume now
            log.error("the games waiting for an AI seat could not be listed: %s", e)
            return
        resumed = 0
        for gid in ids:
            if self.stopping:
                return
            try:
                s = await self.get(gid)
            except ApiError as e:
                log.error("game %s is not resumed: %s", gid, e.message)
                continue
            self._kick_ai(s)
            resumed += 1
        if ids:
            log.info("resumed %d of %d game(s) waiting for an AI seat", resumed, len(ids))

    async def stop(self) -> None:
        self.stopping = True
        for task in (self._janitor, self._resumer):
            if task is not None:
                task.cancel()
        tasks = []
        for s in list(self.sessions.values()):
            if s.ai_task:
                s.ai_task.cancel()
                tasks.append(s.ai_task)
            for c in list(s.conns):
                await c.stop()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        self.ai.close()

    async def _evict_idle(self) -> None:
        while True:
            await asyncio.sleep(60)
            cutoff = time.monotonic() - self.idle_seconds
            for gid, s in list(self.sessions.items()):
                if self._idle(s) and s.last_used < cutoff:
                    self.sessions.pop(gid, None)
            horizon = time.monotonic() - 3600
            for key, bucket in list(self._creators.items()):
                if bucket.stamp < horizon:
                    del self._creators[key]

    @staticmethod
    def _idle(s: Session) -> bool:
        return not s.conns and (s.ai_task is None or s.ai_task.done())

    def _admit(self, s: Session) -> None:
        """Keep ``s`` in memory, evicting the least recently used idle games beyond ``max_sessions``."""
        self.sessions[s.id] = s
        self.sessions.move_to_end(s.id)
        excess = len(self.sessions) - self.limits.max_sessions
        if excess > 0:
            for gid, other in list(self.sessions.items()):
                if excess <= 0:
                    break
                if other is not s and self._idle(other):
                    del self.sessions[gid]
                    excess -= 1

    def _room_for_one_more(self) -> None:
        if len(self.sessions) >= self.limits.max_sessions and not any(self._idle(x) for x in self.sessions.values()):
            raise ApiError(503, "server_busy", f"the server holds {len(self.sessions)} live games, its limit; "
                           "try again later", headers={"Retry-After": "30"})

    def _retire(self, s: Session) -> None:
        """Forget our copy of a game another process changed; its connections reconnect to the new one."""
        s.retired = True
        if self.sessions.get(s.id) is s:
            self.sessions.pop(s.id, None)
        for c in list(s.conns):
            c.closed = True
            if c.on_close is not None:
                c.on_close(CLOSE_RELOAD)

    # --- creating and loading --------------------------------------------------------------------
    def check_creation_rate(self, client: str | None) -> None:
        per_hour = self.limits.games_per_client_hour
        if per_hour is None:
            return
        key = client or "?"
        bucket = self._creators.get(key)
        if bucket is None:
            bucket = self._creators[key] = TokenBucket(per_hour / 3600, self.limits.games_burst)
        if not bucket.take():
            raise ApiError(429, "too_many_games", f"this address has created too many games (at most {per_hour} an "
                           "hour); try again later", headers={"Retry-After": "60"})

    async def create(self, spec: Any, client: str | None = None) -> tuple[Session, list[str | None]]:
        if not isinstance(spec, dict):
            raise ApiError(400, "bad_request", "the body must be a JSON object")
        game = spec.get("game")
        if game is None:
            raise ApiError(400, "bad_game", "'game' is required: one of " + ", ".join(games()))
        if not isinstance(game, str):
            raise ApiError(400, "bad_game", "'game' must be one of " + ", ".join(games()))
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
            raise ApiError(400, "bad_seats", f"'players' is {players!r} but {len(seats_spec)} seats are given")
        if len(seats_spec) > max(info.player_counts):
            raise ApiError(400, "bad_options", f"{info.title} has at most {max(info.player_counts)} players")
        levels = agent_names(game)
        seats: list[Seat] = []
        tokens: list[str | None] = []
        for i, sd in enumerate(seats_spec):
            if isinstance(sd, str):
                sd = {"agent": sd}
            if not isinstance(sd, dict):
                raise ApiError(400, "bad_seats", f"seat {i}: expected an object like {{\"agent\": \"human\"}}")
            agent = sd.get("agent", "human")
            if agent != "human" and (not isinstance(agent, str) or agent not in levels):
                raise ApiError(400, "bad_seats", f"seat {i}: unknown agent {agent!r}; choose human or one of "
                               + ", ".join(levels))
            name = sd.get("name") or ""
            if not isinstance(name, str) or len(name) > MAX_NAME or has_control_characters(name):
                raise ApiError(400, "bad_seats", f"seat {i}: a name is text of at most {MAX_NAME} characters "
                               "without control characters")
            token = secrets.token_urlsafe(24) if agent == "human" else None
            tokens.append(token)
            seats.append(Seat(i, agent, name.strip(), hash_token(token) if token else None))
        options = spec.get("options") or {}
        if not isinstance(options, dict):
            raise ApiError(400, "bad_options", "'options' must be an object")
        reserved = sorted(set(options) & {"players", "seed", "fixed_seed"})
        if reserved:
            raise ApiError(400, "bad_options", f"{', '.join(reserved)} cannot be an option: "
                           "use the 'seats' (and 'seed') of the request")
        seed = spec.get("seed")
        fixed = seed is not None
        if seed is None:
            seed = secrets.randbits(62)
        elif not self.allow_seeds:
            raise ApiError(400, "seed_not_allowed", "this server does not take chosen seeds (whoever chooses the "
                           "seed can work out every hidden card); it draws one. The server's operator can allow "
                           "them with grimoire serve --allow-seeds (the seed is then shown to every player)")
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 62:
            raise ApiError(400, "bad_seed", "'seed' must be a whole number from 0 to 2**62 - 1")
        ai_only = not any(s.human for s in seats)
        if ai_only and self.limits.max_ai_only_games is not None:
            running = sum(1 for x in self.sessions.values() if x.ai_only and not x.state.is_terminal())
            if running >= self.limits.max_ai_only_games:
                raise ApiError(429, "too_many_ai_games", f"{running} games without a human seat are running, the "
                               "server's limit; try again when one is over", headers={"Retry-After": "30"})
        try:
            state = new_game(game, players, seed, **options)
        except GameConfigError as e:
            raise ApiError(400, "bad_options", str(e)) from None
        except (TypeError, ValueError) as e:
            raise ApiError(400, "bad_options", f"invalid options for {info.title}: {e}") from None
        practice = spec.get("practice", False)
        if not isinstance(practice, bool):
            raise ApiError(400, "bad_request", "'practice' is true or false")
        self._room_for_one_more()
        self.check_creation_rate(client)
        gid = secrets.token_urlsafe(9)
        t = now()
        row = GameRow(gid, game, players, seed, dict(state.options) | ({"fixed_seed": True} if fixed else {})
                      | ({"practice": True} if practice else {}), "active", 0, state.current_player, t, t)
        session = Session(gid, game, seed, dict(state.options), seats, state, 0, fixed_seed=fixed, practice=practice)
        fut = self.store.create_game(row, [SeatRow(s.seat, s.agent, s.name, s.token_hash) for s in seats],
                                     session.ai_decides())
        try:
            await asyncio.wrap_future(fut)
        except StorageError as e:
            log.error("a new game could not be stored: %s", e)
            raise storage_error() from None
        self._admit(session)
        self._kick_ai(session)
        return session, tokens

    async def get(self, gid: Any) -> Session:
        if not isinstance(gid, str) or not GAME_ID.fullmatch(gid):
            raise ApiError(404, "unknown_game", f"there is no game {str(gid)[:60]!r}")
        s = self.sessions.get(gid)
        if s is not None:
            s.last_used = time.monotonic()
            self.sessions.move_to_end(gid)
            return s
        bad = self._corrupt.get(gid)
        if bad is not None and bad[0] > time.monotonic() - 60:
            raise ApiError(500, "corrupt_game", bad[1])
        lock = self._loading.setdefault(gid, asyncio.Lock())
        try:
            async with lock:
                s = self.sessions.get(gid)
                if s is None:
                    self._room_for_one_more()
                    loop = asyncio.get_running_loop()
                    try:
                        loaded = await loop.run_in_executor(self.store.readers, self.store.load, gid)
                    except CorruptGame as e:
                        raise self._corrupt_game(gid, str(e)) from None
                    except Exception as e:  # noqa: BLE001 - the database is not answering
                        log.error("game %s could not be read: %s", gid, e)
                        raise storage_error() from None
                    if loaded is None:
                        raise ApiError(404, "unknown_game", f"there is no game {gid!r}")
                    try:
                        s = self._rebuild(loaded)
                    except Exception as e:  # noqa: BLE001 - one bad game must not take the server down
                        raise self._corrupt_game(gid, f"{type(e).__name__}: {e}") from None
                    self._admit(s)
        finally:
            self._loading.pop(gid, None)
        return s

    def _corrupt_game(self, gid: str, why: str) -> ApiError:
        log.error("game %s cannot be loaded (its stored rows are damaged): %s", gid, why)
        message = f"the stored game {gid} is damaged and cannot be loaded; the server's log says why"
        self._corrupt[gid] = (time.monotonic(), message)
        if len(self._corrupt) > 1000:
            self._corrupt.pop(next(iter(self._corrupt)))
        return ApiError(500, "corrupt_game", message)

    def _rebuild(self, loaded) -> Session:
        row = loaded.row
        info = game_info(row.game)
        numbers = [s.seat for s in loaded.seats]
        if numbers != list(range(row.players)):
            raise CorruptGame(f"game {row.id} has {row.players} players but seat rows {numbers}")
        levels = set(agent_names(row.game)) | {"human"}
        for s in loaded.seats:
            if s.agent not in levels:
                raise CorruptGame(f"game {row.id}: seat {s.seat} has the unknown agent {s.agent!r}")
            if s.agent == "human" and not s.token_hash:
                raise CorruptGame(f"game {row.id}: human seat {s.seat} has no token")
        options = info.restore_options({k: v for k, v in row.options.items() if k not in ("fixed_seed", "practice")})
        state = None
        todo = loaded.actions
        if loaded.snapshot is not None:
            try:
                state = load_game(loaded.snapshot)
                todo = [a for a in loaded.actions if a[0] > loaded.snapshot_seq]
            except Exception as e:  # noqa: BLE001 - a snapshot is a cache: replay from the seed instead
                log.warning("game %s: its snapshot at %d cannot be loaded (%s); replaying from the seed",
                            row.id, loaded.snapshot_seq, e)
                state, todo = None, loaded.actions
        if state is None:
            state = new_game(row.game, row.players, row.seed, **options)
        for _seq, _seat, text, _round in todo:
            state.apply(text)
        n = len(loaded.actions)
        if n != row.seq or [a[0] for a in loaded.actions] != list(range(1, n + 1)) \
                or state.record()["actions"] != [a[2] for a in loaded.actions]:
            raise CorruptGame(f"game {row.id}: stored actions do not match its sequence number")
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
        The observation, the hints and the whole log are the session's cached text: serialized once
        per seat and state."""
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
        })
        if s.fixed_seed:
            head["seed"] = s.seed          # whoever chose it can work out the hidden cards: so may everyone
        if s.state.is_terminal():
            head["result"] = {"scores": s.state.scores(), "winners": s.state.winners()}
        text = fastjson.dumps(head)
        log_json = s.log_json(seat) if entries is None else fastjson.dumps(self.visible_log(s, seat, entries))
        return f'{text[:-1]},"log":{log_json},"obs":{sv.obs_json},"hints":{sv.hints_json}}}'

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
        if len(text) > MAX_ACTION_TEXT or has_control_characters(text):
            raise ApiError(400, "bad_action", f"an action text has at most {MAX_ACTION_TEXT} characters and no "
                           "control characters")
        async with s.lock:
            s.last_used = time.monotonic()
            if s.retired:
                raise ApiError(409, "stale", "the game was changed elsewhere; reload", seq=s.seq)
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
                self._retire(s)
                raise ApiError(409, "stale", "the game was changed elsewhere; reload", seq=s.seq) from None
            except StorageError as e:
                # not stored: the game stays at its last stored action (the copy is dropped)
                log.error("game %s: action %d (%r) could not be stored: %s", s.id, nseq, canon, e)
                raise storage_error(seq=s.seq) from None
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
        if not self.stopping and s.ai_decides() and (s.ai_task is None or s.ai_task.done()):
            s.ai_task = asyncio.create_task(self._ai_loop(s))
            s.ai_task.add_done_callback(self._ai_done)

    @staticmethod
    def _ai_done(task: asyncio.Task) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("an AI seat stopped on an error", exc_info=task.exception())

    async def _ai_loop(self, s: Session) -> None:
        backoff = 0.1
        chosen: tuple[int, str] | None = None          # (seq, text): a move to store again after a failure
        while not self.stopping and s.ai_decides() and self.sessions.get(s.id) is s:
            seat = s.state.current_player
            seq = s.seq
            if chosen is None or chosen[0] != seq:
                if self.ai_delay:
                    await asyncio.sleep(self.ai_delay)
                if s.seq != seq:
                    continue
                name = s.seats[seat].agent
                try:
                    text = await self.ai.choose(s.state, name, seat, decision_seed(s.seed, seat, seq), key=s.id)
                except asyncio.CancelledError:
                    raise
                except Exception:  # noqa: BLE001 - a broken agent must not stall the game
                    log.exception("agent %s failed in game %s at %d; playing a random legal action", name, s.id, seq)
                    legal = s.state.legal_actions()
                    text = str(legal[decision_seed(s.seed, seat, seq) % len(legal)])
                chosen = (seq, text)
            text = chosen[1]
            try:
                await self.submit(s, seat, seq, text)
                backoff = 0.1
            except ApiError as e:
                if e.code == "stale":
                    continue
                if e.status == 503:
                    self.ai_retries += 1
                    log.warning("game %s: the AI move of seat %d at %d could not be stored; retrying in %.1f s",
                                s.id, seat, seq, backoff)
                    await asyncio.sleep(backoff)
                    backoff = min(backoff * 2, 10.0)
                    continue
                log.error("agent %s proposed %r in game %s: %s", s.seats[seat].agent, text, s.id, e.message)
                legal = s.state.legal_actions()
                if not legal:
                    return
                chosen = (seq, str(legal[0]))
