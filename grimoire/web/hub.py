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
import math
import os
import re
import secrets
import time
import unicodedata
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from ..agents import agent_names
from ..core.errors import GameConfigError, GrimoireError, IllegalAction
from ..core.registry import game_info, games, load_game, new_game
from ..core.state import GameState
from . import delta, fastjson, viewjson
from .ai import AIRunner, decision_seed
from .store import TAKEOVERS, Conflict, CorruptGame, GameRow, Refused, SeatRow, StorageError, Store, now

log = logging.getLogger("grimoire.web.hub")

MAX_ACTION_TEXT = 200
MAX_NAME = 40
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
CLOSE_OVERFLOW = 4008      # the client did not read its messages: reconnect and start from a welcome
CLOSE_RELOAD = 4409        # the game was changed by another server process: reconnect to the new copy
CLOSE_BUSY = 4429          # too many connections: reconnect later
PRESENCE_DELAY = 0.1       # seconds: the presence changes of a game within it make one message
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
    games_burst: int = 30                     # ... of which at once (never more than the hourly number)
    max_ai_only_games: int | None = 32  # running games without a human seat (AI against AI), in all ...
    max_ai_only_games_per_client: int | None = 2   # ... and per client address
    ai_only_cpu_seconds: float | None = 60.0   # AI computing time of one such game; then its seats play random
    max_sessions: int = 5000            # games kept in memory; idle ones are evicted first
    max_connections: int = 5000         # WebSockets in all (per server process)
    max_connections_per_game: int = 64
    max_connections_per_client: int | None = 64    # WebSockets of one client address
    reviews_per_client_minute: float | None = 6.0   # post-game reviews one client address may start

    @property
    def creation_burst(self) -> int:
        per_hour = self.games_per_client_hour
        return self.games_burst if per_hour is None else max(1, min(self.games_burst, per_hour))


def _ai_only_refusal(lim: Limits, total: int, mine: int) -> None:
    """429 if a new game without a human seat would pass the caps (``total`` running, ``mine`` of this client)."""
    if lim.max_ai_only_games_per_client is not None and mine >= lim.max_ai_only_games_per_client:
        raise ApiError(429, "too_many_ai_games", f"this address has {mine} games without a human seat running, "
                       "its limit; try again when one is over", headers={"Retry-After": "30"}, retry_after=30)
    if lim.max_ai_only_games is not None and total >= lim.max_ai_only_games:
        raise ApiError(429, "too_many_ai_games", f"{total} games without a human seat are running, the "
                       "server's limit; try again when one is over", headers={"Retry-After": "30"}, retry_after=30)


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None, **extra: Any):
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra
        self.headers = headers

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


def storage_error(**extra: Any) -> ApiError:
    return ApiError(503, "storage_unavailable", STORAGE_MESSAGE, headers={"Retry-After": "2"}, retry_after=2, **extra)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# the characters of the categories Cc, Cs, Zl and Zp (fixed by Unicode's stability policy; a test checks
# it against unicodedata): one regular-expression search instead of a category lookup per character
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def has_control_characters(text: str) -> bool:
    """Control characters (NUL included), lone surrogates and line separators: never in a name or id."""
    return _CONTROL.search(text) is not None


# invisible and direction-changing characters (format characters: U+200B zero width space, U+202E
# right-to-left override, the tag characters U+E0000-E007F, ...) and private-use ones: a name with
# them can look like another name or reorder the text around it
_NOT_IN_NAMES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def clean_name(name: str) -> str | None:
    """A player's name in Unicode normal form C, trimmed; None if it holds a character a name may not
    (``_NOT_IN_NAMES``)."""
    name = unicodedata.normalize("NFC", name)
    if any(unicodedata.category(ch) in _NOT_IN_NAMES for ch in name):
        return None
    return name.strip()


def client_key(address: str | None) -> str:
    """What the per-client limits count (stored, so that every server process counts alike): a hash of
    the client's address, not the address itself."""
    salt = os.environ.get("GRIMOIRE_CLIENT_SALT", "grimoire-client")   # the tests keep their clients apart
    return hashlib.sha256(f"{salt}:{address or '?'}".encode()).hexdigest()[:32]


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
                 syncs: TokenBucket | None = None, send_texts=None, write_now=None):
        self.send_text = send_text
        # send_texts(list of texts): all of them in one write (``grimoire serve``'s protocol offers it);
        # the pump then sends everything queued at once instead of one message per await
        self.send_texts = send_texts
        # write_now(texts) -> bool: written to the socket in one go if it can take them now. Then what is
        # queued in one step of the event loop (a broadcast, the ack after it) is written at its end by
        # one callback, without waking the pump task (``_flush``); the pump sends what the socket could
        # not take yet, the welcome and the resyncs.
        self.write_now = write_now
        self._sending = False            # the pump is sending (its messages are not in the queue any more)
        self._flush_due = False
        self.seat = seat
        self.max_bytes = max_bytes
        self.on_close = on_close         # on_close(code): close the socket (the server's decision)
        self.syncs = syncs               # how often a full resync may be built (None: any time)
        self.sync_at = 0.0               # the pending resync is built no earlier than this (monotonic)
        self.queue: deque = deque()
        self.queued_bytes = 0
        self.peak_bytes = 0
        self.sync_pending = False
        self._free: str | None = None    # the one queued message outside the byte budget (the welcome)
        self.build_sync: Callable[[], str] | None = None   # the welcome, built when the marker is sent
        self._wake = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.closed = False
        self.overflowed = False
        # patches (the client asked for them when it joined): it gets the edits from the view it was sent
        # last (``sent``: that view's sequence number, as its seat counts) instead of every whole view
        self.patches = False
        self.sent: int | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._pump())

    def push(self, text: str, counted: bool = True) -> None:
        """Queue a message; ``counted=False`` (the first welcome, sent before anything else): outside the
        byte budget, which bounds what piles up behind a client that does not read."""
        if self.closed:
            return
        if not counted:
            self._free = text
            self.queue.append(text)
            self._wake.set()
            return
        self.queue.append(text)
        self.queued_bytes += len(text)
        self.peak_bytes = max(self.peak_bytes, self.queued_bytes)
        if self.queued_bytes > self.max_bytes:
            self._overflow()
            return
        if self.write_now is not None and self.task is not None:
            if not self._flush_due:
                self._flush_due = True
                asyncio.get_running_loop().call_soon(self._flush)
            return
        self._wake.set()

    def _take(self) -> list[str]:
        """Everything queued, out of the queue and its byte count."""
        batch = list(self.queue)
        self.queue.clear()
        for text in batch:
            if text is self._free:
                self._free = None
            else:
                self.queued_bytes -= len(text)
        return batch

    def _flush(self) -> None:
        self._flush_due = False
        if self.closed or not self.queue:
            return
        if not self._sending and self.write_now is not None:
            try:
                written = self.write_now(list(self.queue))
            except Exception:  # noqa: BLE001 - the socket went away: the pump's next send finds out
                written = False
            if written:
                self._take()
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
                    if self.send_texts is not None:
                        batch = self._take()
                        self._sending = True
                        try:
                            await self.send_texts(batch)
                        finally:
                            self._sending = False
                        continue
                    text = self.queue.popleft()
                    if text is self._free:
                        self._free = None
                    else:
                        self.queued_bytes -= len(text)
                    self._sending = True
                    try:
                        await self.send_text(text)
                    finally:
                        self._sending = False
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
                    self.sent = None        # the seat's number is in the welcome: the next view is whole
                    self._sending = True
                    try:
                        await self.send_text(text)
                    finally:
                        self._sending = False
        except Exception:  # noqa: BLE001 - the socket went away; the reader side cleans up
            self.closed = True

    async def stop(self) -> None:
        self.closed = True
        self._wake.set()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task


_SECRETS: dict[type, bool] = {}      # per game state class: has it its own ``visible_history``?
_KIND_HEAD: dict[str | None, str] = {k: f'{{"type":"{k}",' for k in ("state", "welcome")}   # a view's start, by type


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
    preset: dict = field(default_factory=dict)  # options that fix what chance draws (shown to every seat)
    creator: str | None = None      # client_key of whoever created it
    forfeit: int | None = None      # the seat that lost on time (a slow game's deadline, web/turns.py): over
    takeovers: set = field(default_factory=set)   # actions the AI played for a seat at its deadline (no undo)
    ai_cpu: float = 0.0             # seconds its AI seats have computed (the budget of games without humans)
    remote_online: dict = field(default_factory=dict)   # other server processes -> seats online there
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
    # games with secret actions (``visible_history``): per seat, the history as it may see it, and how
    # many of its actions are secret to it (a broadcast asks ~10 times an action)
    _vis: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _hid: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    # the fields every message of this game starts with ('"game_id":...,"game":...,'), serialized once
    _ids_json: str = field(default="", init=False, repr=False, compare=False)
    # the JSON of the parts the game keeps from one state to the next (viewjson.py): of this state's views
    # (``_kept_seq``) and of the state before, whose parts this one may hand out again
    _kept: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _kept_before: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _kept_seq: int = field(default=-1, init=False, repr=False, compare=False)
    # during one broadcast: the seats' info, the same for every message of it (``Hub._broadcast``)
    _seat_info: list | None = field(default=None, init=False, repr=False, compare=False)
    # during one broadcast: the views built, as the engine made them (``Hub._patch``)
    _raw: dict | None = field(default=None, init=False, repr=False, compare=False)
    _presence_due: bool = field(default=False, init=False, repr=False, compare=False)   # a presence is scheduled
    _presence_local: bool = field(default=False, init=False, repr=False, compare=False)  # ... and announced
    _presence_at: float = field(default=float("-inf"), init=False, repr=False, compare=False)  # last one sent

    @property
    def status(self) -> str:
        return "over" if self.forfeit is not None or self.state.is_terminal() else "active"

    @property
    def ai_only(self) -> bool:
        return not any(s.human for s in self.seats)

    def _fresh(self) -> None:
        if self._views_seq != self.seq:
            self._views = {}
            self._logs = {}
            self._vis = {}
            self._hid = {}
            self._views_seq = self.seq

    @property
    def has_secrets(self) -> bool:
        """The game may keep actions secret from some seats (it has its own ``visible_history``)."""
        kind = type(self.state)
        got = _SECRETS.get(kind)
        if got is None:
            got = _SECRETS[kind] = kind.visible_history is not GameState.visible_history
        return got

    def visibility(self, seat: int | None) -> list[str | None] | None:
        """The history as ``seat`` may see it (None entries: secret to it); None if the game has no secrets."""
        if not self.has_secrets:
            return None
        self._fresh()
        got = self._vis.get(seat)
        if got is None:
            got = self._vis[seat] = self.state.visible_history(seat)
        return got

    def hidden(self, seat: int | None) -> int:
        """How many actions are secret to ``seat`` right now."""
        if not self.has_secrets:
            return 0
        self._fresh()
        got = self._hid.get(seat)
        if got is None:
            vis = self.visibility(seat)
            got = self._hid[seat] = 0 if vis is None else vis.count(None)
        return got

    def ids_json(self) -> str:
        """'"game_id":...,"game":...,' — the start of every view's fields after its type."""
        if not self._ids_json:
            self._ids_json = f'"game_id":{fastjson.dumps(self.id)},"game":{fastjson.dumps(self.game)},'
        return self._ids_json

    def seat_seq(self, seat: int | None) -> int:
        """The sequence number as ``seat`` sees it: the actions it may see. An action secret to it is not
        counted (nor shown in its log) until it is revealed, so neither the number of another seat's
        secret choices nor when they were made shows (the engine treats that as hidden too)."""
        return self.seq - self.hidden(seat)

    def visible_entries(self, seat: int | None) -> list[dict]:
        """The log as ``seat`` may see it: the actions it may see, in order, numbered 1, 2, ... (its own
        sequence numbers; without secrets they are the game's)."""
        vis = self.visibility(seat)
        if vis is None:
            return self.log
        out = []
        n = 0
        for e, v in zip(self.log, vis, strict=True):
            if v is not None:
                n += 1
                out.append(e if e["seq"] == n else {**e, "seq": n})
        return out

    def seat_view(self, seat: int | None, joining: bool = False) -> SeatView:
        """The observation and hints of ``seat`` for the current state, computed once per sequence number.
        ``joining`` (a welcome): the other human seats' views are built with it — they usually join
        the same state (a new game's seats come together), and building them with this one costs the
        game's public part once instead of once per seat."""
        self._fresh()
        got = self._views.get(seat)
        if got is None:
            # build the views of every seat that is followed right now in one go: the game shares
            # the public parts between them (state.observations)
            more = {c.seat for c in self.conns if not c.closed}
            if joining:
                more.update(x.seat for x in self.seats if x.human)
            wanted = [seat] + sorted({x for x in more if x not in self._views and x != seat},
                                     key=lambda x: -1 if x is None else x)
            stash = self._raw
            if self._kept_seq != self.seq:
                self._kept_before, self._kept, self._kept_seq = self._kept, {}, self.seq
            kept, before = self._kept, self._kept_before
            for who, obs in zip(wanted, self.state.observations(wanted), strict=True):
                hints = self.state.hints(who)
                self._views[who] = SeatView(viewjson.dumps(obs, self.game, kept, before), fastjson.dumps(hints),
                                            obs.get("round"))
                if stash is not None:          # a broadcast diffs them against the views sent before
                    stash[who] = (obs, hints)
            got = self._views[seat]
        return got

    def log_json(self, seat: int | None) -> str:
        """The whole log as ``seat`` may see it (JSON text), built once per sequence number and seat."""
        self._fresh()
        got = self._logs.get(seat)
        if got is None:
            got = self._logs[seat] = fastjson.dumps(self.visible_entries(seat))
        return got

    def current_round(self) -> int | None:
        """The round of the current state (from any view already built, else the spectators')."""
        if self._views_seq == self.seq and self._views:
            return next(iter(self._views.values())).round
        return self.seat_view(None).round

    def ai_decides(self) -> bool:
        cp = self.state.current_player
        return cp is not None and not self.seats[cp].human and self.forfeit is None

    def online(self) -> frozenset[int]:
        """The seats with a connection to this server process."""
        return frozenset(c.seat for c in self.conns if not c.closed and c.seat is not None)

    def seat_info(self) -> list[dict]:
        online = self.online().union(*self.remote_online.values())
        return [{"seat": s.seat, "agent": s.agent, "name": s.name, "online": s.human and s.seat in online}
                for s in self.seats]


class Hub:
    def __init__(self, store: Store, ai: AIRunner | None = None, ai_delay: float = 0.5,
                 snapshot_every: int = 100, idle_seconds: float = 900.0, *, allow_seeds: bool = False,
                 limits: Limits | None = None, patches: bool = False):
        self.store = store
        # send patches to the connections that ask for them (``grimoire serve --ws-patches``): ~5x fewer
        # bytes on the wire, ~10% more CPU per action (a diff in Python against deflate in C: docs/web.md)
        self.patches = patches
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
        self.client_connections: dict[str, int] = {}                 # client_key -> WebSockets (this process)
        self.stopping = False
        self.ai_retries = 0                                          # AI moves retried after a storage error
        self.on_over: list = []          # called with a game that just ended (ratings: web/ratings.py)
        # other server processes' notifications of a kind of their own (cluster.py): kind -> handler(line)
        self.notify_hooks: dict[str, Any] = {}
        # PostgreSQL: any number of server processes share the games (cluster.py); SQLite: this one alone
        self.cluster = None
        if store.kind == "postgresql":
            from .cluster import Cluster
            self.cluster = Cluster(self)

    # --- life cycle ------------------------------------------------------------------------------
    async def start(self) -> None:
        """Start serving; the games that were waiting for an AI seat when the server stopped are
        resumed in the background (a game that cannot be loaded is reported and skipped: it must not
        keep the others, or the server, down)."""
        self._janitor = asyncio.create_task(self._evict_idle())
        if self.cluster is not None:
            await self.cluster.start()        # it takes the waiting AI moves from the job table
        else:
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
        if self.cluster is not None:
            await self.cluster.stop()
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
        """This process's count (SQLite: the only process); with PostgreSQL the database's (``Cluster``)."""
        per_hour = self.limits.games_per_client_hour
        if per_hour is None:
            return
        key = client_key(client)
        bucket = self._creators.get(key)
        if bucket is None:
            bucket = self._creators[key] = TokenBucket(per_hour / 3600, self.limits.creation_burst)
        if not bucket.take():
            wait = max(1, math.ceil(bucket.wait()))
            raise ApiError(429, "too_many_games", f"this address has created too many games (at most {per_hour} an "
                           f"hour); try again in {wait} s", headers={"Retry-After": str(wait)}, retry_after=wait)

    def _ai_only_room(self, creator: str) -> None:
        """The caps on running games without a human seat, in all and per client (this process's count)."""
        lim = self.limits
        mine = total = 0
        for x in self.sessions.values():
            if x.ai_only and not x.state.is_terminal():
                total += 1
                mine += x.creator == creator
        _ai_only_refusal(lim, total, mine)

    async def create(self, spec: Any, client: str | None = None, *, gid: str | None = None,
                     token_hashes: list[str | None] | None = None, guard: Any = None,
                     counted: bool = False) -> tuple[Session, list[str | None]]:
        """A new game from ``spec`` (the body of ``POST /api/games``). An open table starting (tables.py)
        gives its id (``gid``), its seats' token hashes (the tokens its players already hold), a
        ``guard`` run in the storing transaction and ``counted`` (its creation was counted when the
        table was opened)."""
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
            cleaned = clean_name(name) if isinstance(name, str) and len(name) <= 4 * MAX_NAME else None
            if cleaned is None or len(cleaned) > MAX_NAME:
                raise ApiError(400, "bad_seats", f"seat {i}: a name is text of at most {MAX_NAME} characters "
                               "without control, invisible or direction-changing characters")
            if token_hashes is not None:        # the players of an open table hold their tokens already
                tokens.append(None)
                seats.append(Seat(i, agent, cleaned, token_hashes[i] if agent == "human" else None))
                continue
            token = secrets.token_urlsafe(24) if agent == "human" else None
            tokens.append(token)
            seats.append(Seat(i, agent, cleaned, hash_token(token) if token else None))
        options = spec.get("options") or {}
        if not isinstance(options, dict):
            raise ApiError(400, "bad_options", "'options' must be an object")
        reserved = sorted(set(options) & {"players", "seed", "fixed_seed"})
        if reserved:
            raise ApiError(400, "bad_options", f"{', '.join(reserved)} cannot be an option: "
                           "use the 'seats' (and 'seed') of the request")
        practice = spec.get("practice", False)
        if not isinstance(practice, bool):
            raise ApiError(400, "bad_request", "'practice' is true or false")
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
        # options that fix what chance draws (e.g. preset dice): whoever sets them knows the future, like
        # a chosen seed. Allowed where seeds are, or in practice games; shown to every seat.
        preset_names = [k for k in info.chance_options if options.get(k) is not None]
        if preset_names and not (self.allow_seeds or practice):
            raise ApiError(400, "preset_not_allowed", f"{', '.join(preset_names)} fix what chance would draw: only "
                           "in practice games, or on a server started with --allow-seeds (they are shown to every "
                           "player)")
        try:                                 # cheap: the options are checked before anything is built
            info.validate(players, options)
        except GameConfigError as e:
            raise ApiError(400, "bad_options", str(e)) from None
        except (TypeError, ValueError) as e:
            raise ApiError(400, "bad_options", f"invalid options for {info.title}: {e}") from None
        # the limits, before the game is built: a refused creation costs nothing
        creator = client_key(client)
        ai_only = not any(x.human for x in seats)
        self._room_for_one_more()
        if counted:
            pass
        elif self.cluster is not None:
            await self.cluster.check_creation(creator, ai_only)
        else:
            if ai_only:
                self._ai_only_room(creator)
            self.check_creation_rate(client)
        try:
            state = new_game(game, players, seed, **options)
        except GameConfigError as e:
            raise ApiError(400, "bad_options", str(e)) from None
        except (TypeError, ValueError) as e:
            raise ApiError(400, "bad_options", f"invalid options for {info.title}: {e}") from None
        gid = gid or secrets.token_urlsafe(9)
        t = now()
        row = GameRow(gid, game, players, seed, dict(state.options) | ({"fixed_seed": True} if fixed else {})
                      | ({"practice": True} if practice else {}), "active", 0, state.current_player, t, t)
        preset = {k: state.options[k] for k in preset_names}
        session = Session(gid, game, seed, dict(state.options), seats, state, 0, fixed_seed=fixed, practice=practice,
                          preset=preset, creator=creator)
        ai_first = session.ai_decides()
        cluster = self.cluster
        guards = [g for g in (cluster.creation_guard(creator) if cluster is not None and ai_only else None, guard)
                  if g is not None]
        fut = self.store.create_game(
            row, [SeatRow(s.seat, s.agent, s.name, s.token_hash) for s in seats], ai_first, creator=creator,
            ai_only=ai_only, ai_due=t + timedelta(seconds=self.ai_delay) if ai_first and cluster is not None else None,
            guard=(lambda conn: [g(conn) for g in guards]) if guards else None)
        try:
            await asyncio.wrap_future(fut)
        except Refused as e:
            if e.status != 429:
                raise ApiError(e.status, e.code, e.message) from None
            raise ApiError(429, e.code, e.message, headers={"Retry-After": str(math.ceil(e.retry_after))},
                           retry_after=math.ceil(e.retry_after)) from None
        except StorageError as e:
            log.error("a new game could not be stored: %s", e)
            raise storage_error() from None
        self._admit(session)
        self._kick_ai(session)
        return session, tokens

    async def get(self, gid: Any) -> Session:
        return (await self._get(gid))[0]

    async def _get(self, gid: Any) -> tuple[Session, bool]:
        """The game's session, and whether this call read it from the database."""
        if not isinstance(gid, str) or not GAME_ID.fullmatch(gid):
            raise ApiError(404, "unknown_game", f"there is no game {str(gid)[:60]!r}")
        s = self.sessions.get(gid)
        if s is not None:
            s.last_used = time.monotonic()
            self.sessions.move_to_end(gid)
            return s, False
        bad = self._corrupt.get(gid)
        if bad is not None and bad[0] > time.monotonic() - 60:
            raise ApiError(500, "corrupt_game", bad[1])
        lock = self._loading.setdefault(gid, asyncio.Lock())
        read = False
        try:
            async with lock:
                s = self.sessions.get(gid)
                if s is None:
                    read = True
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
                    if self.cluster is not None:
                        # who is online elsewhere; a notification that came meanwhile is newer
                        with contextlib.suppress(Exception):
                            for proc, seats in (await self.cluster.online_elsewhere(gid)).items():
                                s.remote_online.setdefault(proc, seats)
        finally:
            self._loading.pop(gid, None)
        return s, read

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
        options = info.restore_options({k: v for k, v in row.options.items()
                                        if k not in ("fixed_seed", "practice", "forfeit", TAKEOVERS)})
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
        preset = {k: options[k] for k in info.chance_options if options.get(k) is not None}
        session = Session(row.id, row.game, row.seed, options, seats, state, n,
                          fixed_seed=bool(row.options.get("fixed_seed")), practice=bool(row.options.get("practice")),
                          preset=preset, creator=row.creator, forfeit=row.options.get("forfeit"),
                          takeovers={q for q in row.options.get(TAKEOVERS, []) if isinstance(q, int)})
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
                  entries: list[dict] | None = None, memo: dict | None = None) -> str:
        """Everything one seat (or a spectator, seat None) may know, as JSON text: a ``welcome``
        (the whole log) or, with ``entries``, a ``state`` message (only those new log entries, numbered
        as the seat sees them). The observation, the hints and the whole log are the session's cached
        text: serialized once per seat and state. ``memo`` (one broadcast's): the parts every seat's
        message shares (the head after the seat, the same entries) are serialized once in it."""
        sv = s.seat_view(seat, joining=kind == "welcome")
        tail = memo.get(("tail", entries is None)) if memo is not None else None
        if tail is None:
            tail = self._head_tail(s, entries is None)
            if memo is not None:
                memo[("tail", entries is None)] = tail
        head = _KIND_HEAD.get(kind) or (f'{{"type":{fastjson.dumps(kind)},' if kind else "{")
        head += f'{s.ids_json()}"seq":{s.seat_seq(seat)},"seat":{"null" if seat is None else int(seat)},{tail}'
        if entries is None:
            log_json = s.log_json(seat)
        elif memo is not None:
            got = memo.get(("log", id(entries)))
            if got is None or got[0] is not entries:
                got = memo[("log", id(entries))] = (entries, fastjson.dumps(entries))
            log_json = got[1]
        else:
            log_json = fastjson.dumps(entries)
        return f'{head},"log":{log_json},"obs":{sv.obs_json},"hints":{sv.hints_json}}}'

    @staticmethod
    def _head_tail(s: Session, whole: bool) -> str:
        """The fields of a view's head after the seat, the same for every seat (JSON, without braces)."""
        head: dict[str, Any] = {
            "status": s.status,
            "seats": s._seat_info if s._seat_info is not None else s.seat_info(),
            "fixed_seed": s.fixed_seed,
            "practice": s.practice,
        }
        if s.fixed_seed:
            head["seed"] = s.seed          # whoever chose it can work out the hidden cards: so may everyone
        if s.preset and whole:
            head["preset"] = s.preset      # preset draws (e.g. dice): the creator knows them, so does everyone
        if s.state.is_terminal():
            head["result"] = {"scores": s.state.scores(), "winners": s.state.winners()}
        elif s.forfeit is not None:
            head["forfeit"] = s.forfeit    # the seat lost on time: the game is over (web/turns.py)
        return fastjson.dumps(head)[1:-1]

    def view(self, s: Session, seat: int | None) -> dict[str, Any]:
        """The same as a dict (what ``GET /api/games/{id}`` returns)."""
        return fastjson.loads(self.view_json(s, seat))

    # --- the one path of every action ------------------------------------------------------------
    async def submit(self, s: Session, seat: int | None, seq: Any, text: Any, *, internal: bool = False,
                     takeover: bool = False) -> dict[str, Any]:
        """Apply one action of ``seat``. ``seq`` is the sequence number as that seat sees it
        (``Session.seat_seq``); ``internal`` (the AI seats): the game's own. ``takeover``: the AI plays it
        for a human seat whose time ran out (web/turns.py): recorded with it, so the seat cannot undo it."""
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
            mine = s.seq if internal else s.seat_seq(seat)
            if seq > mine and self.cluster is not None and not s.retired:
                # the client has seen an action stored through another process that our copy has yet to follow
                await self._catch_up(s)
                mine = s.seq if internal else s.seat_seq(seat)
            if s.retired:
                raise ApiError(409, "stale", "the game was changed elsewhere; reload", seq=mine)
            if s.state.is_terminal() or s.forfeit is not None:
                raise ApiError(409, "game_over", "the game is over", seq=mine)
            if seq != mine:
                raise ApiError(409, "stale", f"the game has moved on (it is at action {mine}, you sent {seq}); "
                               "here is the current state", seq=mine)
            cp = s.state.current_player
            assert cp is not None                   # the game goes on (checked above)
            if seat != cp:
                who = s.seats[cp].name or f"seat {cp}"
                raise ApiError(403, "not_your_turn", f"it is not your decision: {who} (seat {cp}) must decide now",
                               seq=mine)
            try:
                action = s.state.parse_action(text)
                new = s.state.clone()
                new.apply(action)
            except IllegalAction as e:
                hook = game_info(s.state.game).reason
                found = hook(str(e)) if hook is not None else None
                extra: dict[str, Any] = {"reason": list(found)} if found is not None else {}
                raise ApiError(422, "illegal", str(e), rule=e.rule, seq=mine, **extra) from None
            except GrimoireError as e:
                raise ApiError(422, "illegal", str(e), seq=mine) from None
            canon = str(action)
            round_ = s.current_round()
            nseq = s.seq + 1
            # a snapshot is a cache (loading = snapshot + the actions after it): to_dict() is ~0.1 ms,
            # taken every snapshot_every actions and at the end, and written in the same transaction
            snapshot = new.to_dict() if (nseq % self.snapshot_every == 0 or new.is_terminal()) else None
            ai_next = new.current_player is not None and not s.seats[new.current_player].human
            public = nseq - new.visible_history(None).count(None) if s.has_secrets else nseq
            cluster = self.cluster
            fut = self.store.append_action(
                s.id, nseq, seat, canon, round_, status="over" if new.is_terminal() else "active",
                current_player=new.current_player, ai_turn=ai_next, snapshot=snapshot, public_seq=public,
                jobs=cluster is not None, ai_due=now() + timedelta(seconds=self.ai_delay) if ai_next else None,
                event=cluster.action_event(s.id, nseq, seat, canon, round_) if cluster is not None else None,
                takeover=takeover)
            try:
                await asyncio.wrap_future(fut)
            except Conflict:
                # another server process stored an action first: catch up with it, then answer stale
                await self._catch_up(s)
                mine = s.seq if internal else s.seat_seq(seat)
                raise ApiError(409, "stale", "the game has moved on (another player's action came first); "
                               "here is the current state", seq=mine) from None
            except StorageError as e:
                # not stored: the game stays at its last stored action (the copy is dropped)
                log.error("game %s: action %d (%r) could not be stored: %s", s.id, nseq, canon, e)
                raise storage_error(seq=mine) from None
            entry = {"seq": nseq, "seat": seat, "text": canon, "round": round_}
            if takeover:
                s.takeovers.add(nseq)
            self._advance(s, new, [entry])
            done = s.seat_seq(seat)
        self._kick_ai(s)
        return {"ok": True, "seq": s.seq if internal else done, "action": canon}

    def _advance(self, s: Session, new: GameState, entries: list[dict]) -> None:
        """Make ``new`` (the state after ``entries``, stored) the game's state and tell every connection."""
        before = self._seen(s)
        sent = s._views if s._views_seq == s.seq else {}     # the views of the state the seats were shown
        n = s.seq
        s.state = new
        s.seq = entries[-1]["seq"]
        s.log.extend(entries)
        self._broadcast(s, n, before, sent)
        if new.is_terminal():
            for callback in self.on_over:
                callback(s)

    async def _catch_up(self, s: Session, known: list[tuple[int, int, str, int | None]] | None = None) -> None:
        """Apply the actions another server process stored after ours (the caller holds ``s.lock``):
        ``known`` if they follow on, else read from the database. A copy that cannot follow is dropped
        (its connections reconnect to a fresh one)."""
        todo = [a for a in (known or []) if a[0] > s.seq]
        if not todo or todo[0][0] != s.seq + 1 or any(b[0] != a[0] + 1 for a, b in zip(todo, todo[1:], strict=False)):
            loop = asyncio.get_running_loop()
            try:
                todo = await loop.run_in_executor(self.store.readers, self.store.actions_after, s.id, s.seq)
            except Exception as e:  # noqa: BLE001 - the database is not answering: drop our copy
                log.error("game %s: the actions of another process could not be read: %s", s.id, e)
                self._retire(s)
                return
        if not todo:
            return
        try:
            new = s.state.clone()
            entries: list[dict[str, Any]] = []
            for q, seat, text, rnd in todo:
                if q != s.seq + len(entries) + 1:
                    raise CorruptGame(f"action {q} does not follow {s.seq + len(entries)}")
                new.apply(text)
                entries.append({"seq": q, "seat": seat, "text": text, "round": rnd})
        except Exception as e:  # noqa: BLE001 - our copy cannot follow: reload it
            log.error("game %s: cannot follow the actions stored by another process: %s", s.id, e)
            self._retire(s)
            return
        self._advance(s, new, entries)

    async def remote_actions(self, gid: str, actions: list[tuple[int, int, str, int | None]]) -> None:
        """Another server process stored these actions of ``gid``: a game we hold follows them."""
        s = self.sessions.get(gid)
        if s is None or s.retired or actions[-1][0] <= s.seq:
            return
        async with s.lock:
            if actions[-1][0] > s.seq and not s.retired:
                await self._catch_up(s, actions)
        self._kick_ai(s)

    async def refresh(self, s: Session) -> None:
        """Catch up with whatever other processes stored (after missed notifications)."""
        async with s.lock:
            if not s.retired:
                await self._catch_up(s)

    async def current(self, gid: Any) -> Session:
        """The game for a REST read. In a cluster its copy first catches up with the actions other processes
        stored, so that a client who wrote through one process and reads through another (a load balancer's
        round robin) sees its own action, not the copy a notification still has to bring: one indexed read,
        none for a game this call has just read from the database (it is as new as the read: a copy another
        call read, maybe before the client's write, is caught up), none without a cluster."""
        s, read = await self._get(gid)
        if self.cluster is not None and not read:
            await self.refresh(s)
        return s

    # --- live updates ------------------------------------------------------------------------------
    def _seen(self, s: Session) -> dict[int | None, tuple[int, int, SeatView | None]]:
        """Per followed seat, what it has been shown of the current state: (its sequence number, how many
        actions are secret to it, its view if built). Only games with secrets need it."""
        if not s.has_secrets:
            return {}
        s._fresh()
        return {c.seat: (s.seat_seq(c.seat), s.hidden(c.seat), s._views.get(c.seat))
                for c in s.conns if not c.closed}

    def _broadcast(self, s: Session, old_seq: int, before: dict, sent: dict | None = None) -> None:
        """Send every connection its seat's news after the actions from ``old_seq`` on: one observation and
        one serialization per seat that has a connection (spectators share one), none for seats nobody
        follows. A seat to which all of them are secret gets nothing unless its view changed; a seat to
        which earlier actions were revealed gets a whole ``welcome`` (its log grew in the middle).
        A connection that takes patches and was sent the seat's last view (in ``sent``) gets a ``patch``
        from it, built once per seat (``_patch``), unless the patch would not be smaller."""
        news: dict[int | None, tuple[str, list[dict] | None] | None] = {}
        texts: dict[tuple[str, int | None], str | None] = {}
        memo: dict = {}                        # what the seats' messages share (``view_json``)
        fresh = s.log[old_seq:]
        s._seat_info = s.seat_info()
        s._raw = {}
        try:
            for c in list(s.conns):
                if c.closed:
                    s.conns.discard(c)
                    continue
                seat = c.seat
                if seat in news:
                    got = news[seat]
                else:
                    got = news[seat] = self._news(s, seat, old_seq, fresh, before.get(seat))
                if got is None:
                    continue
                kind, shown = got
                base = before[seat][0] if seat in before else old_seq
                text = None
                if kind == "state" and c.patches and c.sent == base and sent and seat in sent:
                    key = ("patch", seat)
                    if key not in texts:
                        texts[key] = self._patch(s, seat, base, sent[seat], shown or [])
                    text = texts[key]
                if text is None:
                    key = (kind, seat)
                    if key not in texts:
                        texts[key] = self.view_json(s, seat, kind, shown if kind == "state" else None, memo)
                    text = texts[key]
                c.sent = s.seat_seq(seat)
                c.push(text)
        finally:
            s._seat_info = None
            s._raw = None

    def _news(self, s: Session, seat: int | None, old_seq: int, fresh: list[dict],
              seen: tuple[int, int, SeatView | None] | None) -> tuple[str, list[dict] | None] | None:
        """What ``seat`` is told: ("state", its new log entries), ("welcome", None) or None (nothing)."""
        vis = s.visibility(seat)
        if vis is None:
            return "state", fresh
        if seen is None:                       # a connection that saw nothing yet: its welcome is under way
            return "welcome", None
        old_seat_seq, old_hidden, old_view = seen
        if vis[:old_seq].count(None) < old_hidden:      # revealed: its log grew in the middle
            return "welcome", None
        shown = []
        n = old_seat_seq
        for e, v in zip(fresh, vis[old_seq:], strict=True):
            if v is not None:
                n += 1
                shown.append(e if e["seq"] == n else {**e, "seq": n})
        if not shown and old_view is not None and s.seat_view(seat) == old_view:
            return None                        # nothing it may see has changed: not even that something happened
        return "state", shown

    def _patch(self, s: Session, seat: int | None, base: int, old: SeatView, entries: list[dict]) -> str | None:
        """The ``patch`` message that turns ``seat``'s view at its sequence number ``base`` (``old``) into its
        view now: the edits of the observation and the hints (delta.py), the head's fields in full (they are
        small), the new log entries. None if it would not be smaller than the whole ``state``."""
        new = s.seat_view(seat)
        raw = s._raw.get(seat) if s._raw is not None else None
        parts = []
        for name, before, after, made in (("obs", old.obs_json, new.obs_json, raw and raw[0]),
                                          ("hints", old.hints_json, new.hints_json, raw and raw[1])):
            if before == after:
                parts.append(f'"{name}":[]')
                continue
            edits = None
            if made is not None:
                with contextlib.suppress(delta.Impure):
                    edits = delta.diff(fastjson.loads(before), made)
            if edits is None:
                edits = delta.diff(fastjson.loads(before), fastjson.loads(after))
            parts.append(f'"{name}":{fastjson.dumps(edits)}')
        head: dict[str, Any] = {"type": "patch", "base": base, "seq": s.seat_seq(seat), "status": s.status,
                                "seats": s._seat_info if s._seat_info is not None else s.seat_info()}
        if s.state.is_terminal():
            head["result"] = {"scores": s.state.scores(), "winners": s.state.winners()}
        text = f'{fastjson.dumps(head)[:-1]},"log":{fastjson.dumps(entries)},{",".join(parts)}}}'
        if len(text) >= len(new.obs_json) + len(new.hints_json):
            return None
        return text

    def presence(self, s: Session, local: bool = False) -> None:
        """Tell the game's connections who is online: at once, unless a presence went out less than
        ``PRESENCE_DELAY`` seconds ago — then once at the end of that time, for every change meanwhile.
        The seats of a game usually come (and go) together, and each presence is a write to every socket
        of the game. ``local``: a seat came or left here (the other server processes are told too)."""
        s._presence_local = s._presence_local or local
        if s._presence_due:
            return
        loop = asyncio.get_running_loop()
        wait = s._presence_at + PRESENCE_DELAY - loop.time()
        if wait <= 0 or self.stopping:          # the first change goes out at once, the next ones together
            self._send_presence(s)
            return
        s._presence_due = True
        loop.call_later(wait, self._send_presence, s)

    def _send_presence(self, s: Session) -> None:
        s._presence_at = asyncio.get_running_loop().time()
        local, s._presence_due, s._presence_local = s._presence_local, False, False
        msg = fastjson.dumps({"type": "presence", "seats": s.seat_info()})
        for c in list(s.conns):
            c.push(msg)
        if local and self.cluster is not None:
            self.cluster.announce(s.id, s.online())

    # --- AI seats ------------------------------------------------------------------------------------
    async def ai_move(self, s: Session, seat: int, seq: int) -> str:
        """The AI seat's move at ``seq`` (the same move for the same game seed, on any process). A game
        without a human seat has a budget of computing time; past it its seats play ``random``."""
        name = s.seats[seat].agent
        budget = self.limits.ai_only_cpu_seconds
        if s.ai_only and budget is not None and s.ai_cpu >= budget:
            name = "random"
        t0 = time.perf_counter()
        try:
            return await self.ai.choose(s.state, name, seat, decision_seed(s.seed, seat, seq), key=s.id)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - a broken agent must not stall the game
            log.exception("agent %s failed in game %s at %d; playing a random legal action", name, s.id, seq)
            legal = s.state.legal_actions()
            return str(legal[decision_seed(s.seed, seat, seq) % len(legal)])
        finally:
            s.ai_cpu += time.perf_counter() - t0

    def _kick_ai(self, s: Session) -> None:
        if self.cluster is not None:           # PostgreSQL: the job table decides which process computes it
            if not self.stopping and s.ai_decides():
                self.cluster.wake(self.ai_delay)
            return
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
            assert seat is not None                 # (ai_decides: an AI seat is to move)
            seq = s.seq
            if chosen is None or chosen[0] != seq:
                if self.ai_delay:
                    await asyncio.sleep(self.ai_delay)
                if s.seq != seq:
                    continue
                chosen = (seq, await self.ai_move(s, seat, seq))
            text = chosen[1]
            try:
                await self.submit(s, seat, seq, text, internal=True)
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
