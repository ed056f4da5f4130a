"""Storage: every game is its record (seed, options, accepted actions with sequence numbers) plus
snapshots, in SQLite (default, embedded) or PostgreSQL, through SQLAlchemy 2 with Alembic migrations.

Tables (see migrations/versions/0001_initial.py):

    games      id, game, players, seed, options (JSON), status, seq (accepted actions so far),
               current_player, ai_turn (the current decision belongs to an AI seat), timestamps
    seats      game_id, seat, agent ('human' or an AI level), name, token_hash (sha256 of the secret)
    actions    game_id, seq (1, 2, ...), seat, text, round, created_at      primary key (game_id, seq)
    snapshots  game_id, seq, state (JSON of state.to_dict())               primary key (game_id, seq)

An action is written together with the game row in one transaction guarded by the expected
sequence number (``UPDATE games SET seq = n + 1 WHERE id = ? AND seq = n``), so two submissions for
the same decision can never both be stored, even from two server processes. Writes go through one
writer thread that commits whatever is queued in a single transaction (group commit): an action is
acknowledged only after its transaction committed, and SQLite runs with ``synchronous=FULL``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    case,
    cast,
    create_engine,
    delete,
    event,
    insert,
    inspect,
    select,
    type_coerce,
    update,
)
from sqlalchemy import false as sql_false
from sqlalchemy import text as sql_text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DatabaseError, DBAPIError, InterfaceError, OperationalError

from . import fastjson

log = logging.getLogger("grimoire.web.store")

# FULL: a commit survives a power cut, not only a killed process (NORMAL would survive SIGKILL too)
SQLITE_SYNC = os.environ.get("GRIMOIRE_SQLITE_SYNC", "FULL").upper()
if SQLITE_SYNC not in ("FULL", "NORMAL", "EXTRA"):
    SQLITE_SYNC = "FULL"

metadata = MetaData()

games_t = Table(
    "games", metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("options", JSON, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("seq", Integer, nullable=False),
    Column("current_player", Integer, nullable=True),
    Column("ai_turn", Boolean, nullable=False, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False, index=True),
    Column("creator", String(64), nullable=True, index=True),
    Column("ai_only", Boolean, nullable=False, server_default=sql_false()),
    Column("public_seq", Integer, nullable=True),
    Column("public_at", DateTime(timezone=True), nullable=True, index=True),
)

seats_t = Table(
    "seats", metadata,
    Column("game_id", String(40), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("agent", String(40), nullable=False),
    Column("name", String(80), nullable=False),
    Column("token_hash", String(64), nullable=True),
)

actions_t = Table(
    "actions", metadata,
    Column("game_id", String(40), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("round", Integer, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

snapshots_t = Table(
    "snapshots", metadata,
    Column("game_id", String(40), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("state", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# one row, rewritten by the health check: a write that commits only if the database takes writes
heartbeat_t = Table(
    "heartbeat", metadata,
    Column("id", Integer, primary_key=True),
    Column("at", DateTime(timezone=True), nullable=True),
)

# an AI seat's move to compute (PostgreSQL: taken by one server process at a time, with a lease)
ai_jobs_t = Table(
    "ai_jobs", metadata,
    Column("game_id", String(40), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("due_at", DateTime(timezone=True), nullable=False, index=True),
    Column("lease_until", DateTime(timezone=True), nullable=True),
    Column("owner", String(64), nullable=True),
)

# token buckets shared by every server process (creation and review rates per client)
buckets_t = Table(
    "buckets", metadata,
    Column("key", String(120), primary_key=True),
    Column("tokens", Float, nullable=False),
    Column("stamp", DateTime(timezone=True), nullable=False),
)

# the live server processes (a heartbeat) and their WebSockets (the per-client and per-game caps,
# who is online): rows of a process whose heartbeat stopped are removed by the others
processes_t = Table(
    "processes", metadata,
    Column("id", String(40), primary_key=True),
    Column("host", String(255), nullable=False),
    Column("pid", Integer, nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("beat_at", DateTime(timezone=True), nullable=False),
)

sockets_t = Table(
    "sockets", metadata,
    Column("id", String(40), primary_key=True),
    Column("process", String(40), nullable=False, index=True),
    Column("game_id", String(40), nullable=False, index=True),
    Column("client", String(64), nullable=False, index=True),
    Column("seat", Integer, nullable=True),
)

# Statements built once: constructing a Core statement per call (and its cache key) cost ~0.6 ms of
# CPU per action on the writer thread, which holds the GIL against the event loop; executing a prebuilt
# statement with parameters costs ~0.1 ms.
_INSERT_GAME = insert(games_t)
_INSERT_SEATS = insert(seats_t)
_INSERT_ACTION = insert(actions_t)
_INSERT_SNAPSHOT = insert(snapshots_t)
_ADVANCE_GAME = (
    update(games_t)
    .where(games_t.c.id == bindparam("b_id"), games_t.c.seq == bindparam("b_prev"))
    .values(seq=bindparam("b_seq"), status=bindparam("b_status"), current_player=bindparam("b_cp"),
            ai_turn=bindparam("b_ai"), updated_at=bindparam("b_t"),
            # the listing's time moves only when spectators can see something new (a secret move
            # must not show when it was made)
            public_at=case((games_t.c.public_seq == bindparam("b_pub"), games_t.c.public_at),
                           else_=bindparam("b_t")),
            public_seq=bindparam("b_pub")))
_DELETE_AI_JOB = delete(ai_jobs_t).where(ai_jobs_t.c.game_id == bindparam("b_id"))
_INSERT_AI_JOB = insert(ai_jobs_t)
_NOTIFY = sql_text("SELECT pg_notify('grimoire', :payload)")


class DriverStatement:
    """A prebuilt statement as the driver's own SQL, compiled once per database: executing a Core
    statement still costs SQLAlchemy's per-call work (compiled-cache lookup, parameter construction,
    result set-up), which on the writer thread was ~0.4 ms of an action's ~0.7 ms commit. The values
    go through the same type conversions (e.g. SQLite's text timestamps) as with ``conn.execute``."""

    __slots__ = ("sql", "positional", "names", "convert")

    def __init__(self, stmt: Any, dialect: Any):
        compiled = stmt.compile(dialect=dialect)
        self.sql = compiled.string
        self.positional = bool(compiled.positional)
        self.names = list(compiled.positiontup or ()) if self.positional else list(compiled.binds)
        self.convert: dict[str, Callable] = {}
        for name in set(self.names):
            fn = compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
            if fn is not None:
                self.convert[name] = fn

    def params(self, values: dict[str, Any]) -> tuple | dict:
        conv = self.convert
        if self.positional:
            return tuple(conv[n](values[n]) if n in conv else values[n] for n in self.names)
        return {n: conv[n](values[n]) if n in conv else values[n] for n in self.names}

    def run(self, conn, values: dict[str, Any]) -> int:
        """Execute inside ``conn``'s transaction; the number of rows it changed. Straight on the driver's
        cursor unless someone listens to SQLAlchemy's cursor events (the fault-injection tests do): then
        through ``exec_driver_sql``, which tells them."""
        dispatch = conn.engine.dispatch
        if dispatch.before_cursor_execute or dispatch.after_cursor_execute:
            return conn.exec_driver_sql(self.sql, self.params(values)).rowcount
        cur = conn.connection.driver_connection.cursor()
        try:
            cur.execute(self.sql, self.params(values))
            return cur.rowcount
        finally:
            cur.close()
NOTIFY_CHANNEL = "grimoire"
NOTIFY_BYTES = 7800                 # PostgreSQL's limit is 8000 bytes per notification


# the options as stored (text on SQLite): a row whose options are not JSON must not fail the query; the
# timestamps as text, parsed per row (a year the driver cannot represent, 'infinity' or 'garbage' must
# not fail the query either: that row is a damaged game, the others are fine)
_TIMES = ("created_at", "updated_at", "public_at")
_GAME_COLUMNS = [type_coerce(games_t.c.options, Text).label("options") if c.name == "options"
                 else cast(c, Text).label(c.name) if c.name in _TIMES else c
                 for c in games_t.columns]


def parse_time(value: Any) -> datetime:
    """A stored timestamp (text from either database) as an aware datetime; ValueError if it is not one."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if not isinstance(value, str):
        raise ValueError(f"not a timestamp: {value!r}")
    text = value.strip().replace(" ", "T", 1)
    if len(text) >= 3 and text[-3] in "+-" and text[-3:].lstrip("+-").isdigit() and "T" in text \
            and text.rfind(":") < len(text) - 3:
        text += ":00"                      # PostgreSQL's "+00" offset
    t = datetime.fromisoformat(text)
    return t if t.tzinfo else t.replace(tzinfo=UTC)


class Conflict(Exception):
    """The game moved on: the expected sequence number is no longer the game's."""


@dataclass
class SeatRow:
    seat: int
    agent: str
    name: str
    token_hash: str | None


@dataclass
class GameRow:
    id: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    status: str
    seq: int
    current_player: int | None
    created_at: datetime
    updated_at: datetime
    creator: str | None = None


@dataclass
class Loaded:
    row: GameRow
    seats: list[SeatRow]
    snapshot_seq: int
    snapshot: dict | None
    actions: list[tuple[int, int, str, int | None]]   # (seq, seat, text, round) of every action


def now() -> datetime:
    return datetime.now(UTC)


def default_sqlite_path() -> Path:
    from platformdirs import user_data_dir
    return Path(user_data_dir("grimoire", appauthor=False)) / "grimoire.db"


def normalize_url(url: str | None) -> str:
    """None -> the embedded SQLite file; postgres:// and postgresql:// -> the psycopg 3 driver;
    a plain path -> SQLite at that path."""
    if not url:
        path = default_sqlite_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path}"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    if "://" not in url:
        path = Path(url).expanduser().resolve()
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path}"
    return url


def make_engine(url: str, lock_timeout: float = 10.0) -> Engine:
    json_opts = {"json_serializer": fastjson.dumps, "json_deserializer": fastjson.loads}
    ms = max(1, int(lock_timeout * 1000))
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": lock_timeout}, **json_opts)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={SQLITE_SYNC}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute(f"PRAGMA busy_timeout={ms}")
            cur.close()
        return engine
    connect_args = {"options": f"-c lock_timeout={ms}", "connect_timeout": max(1, int(lock_timeout))} \
        if url.startswith("postgresql") else {}
    return create_engine(url, pool_size=8, max_overflow=4, pool_pre_ping=True, pool_timeout=lock_timeout,
                         connect_args=connect_args, **json_opts)


class NotGrimoireDatabase(Exception):
    """The database is not one the server may use: an empty file where a database was expected, a file
    that is not SQLite, or a database with someone else's tables."""


OUR_TABLES = frozenset(metadata.tables) | {"alembic_version"}


def check_database(engine: Engine) -> None:
    """Refuse an empty or foreign database before touching it (a new database is fine: no tables yet).

    A database file that exists but is empty is what a lost or truncated file looks like: starting on
    it would show no games at all instead of the error. A database with tables of its own but no
    Grimoire schema version belongs to something else."""
    url = engine.url
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        path = Path(url.database)
        if path.exists() and path.stat().st_size == 0:
            raise NotGrimoireDatabase(
                f"the database file {path} exists but is empty (0 bytes): it is not a Grimoire database. "
                "If its games were lost, restore it from a backup; to start afresh, delete it or give a new path")
    try:
        with engine.connect() as conn:
            names = set(inspect(conn).get_table_names())
            version = None
            if "alembic_version" in names:
                version = conn.execute(sql_text("SELECT version_num FROM alembic_version")).scalar()
    except DatabaseError as e:
        if url.get_backend_name() == "sqlite" and ("not a database" in str(e) or "malformed" in str(e)):
            raise NotGrimoireDatabase(f"{_where(engine)} is not an SQLite database (or it is damaged): "
                                      f"{e.orig}") from None
        raise
    if not names:
        return
    ours = {p.stem.split("_", 1)[0] for p in (Path(__file__).parent / "migrations" / "versions").glob("0*.py")}
    if version not in ours:
        others = sorted(names - OUR_TABLES)[:5]
        raise NotGrimoireDatabase(
            f"{_where(engine)} is not a Grimoire database: it has tables ({', '.join(others or sorted(names)[:5])}) "
            f"but {'no Grimoire schema version' if version is None else f'the unknown schema version {version!r}'}. "
            "Give the server a database of its own")


def _where(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=True)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (creates the tables on a new database)."""
    from alembic import command
    from alembic.config import Config
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.attributes["connection_engine"] = engine
    if engine.dialect.name != "postgresql":
        command.upgrade(cfg, "head")
        return
    # several server processes (or hosts) may start at once: one migrates, the others wait for it
    with engine.connect() as conn:
        conn.execute(sql_text("SELECT pg_advisory_lock(724011)"))
        try:
            command.upgrade(cfg, "head")
        finally:
            conn.execute(sql_text("SELECT pg_advisory_unlock(724011)"))
            conn.commit()


class StorageError(Exception):
    """A write could not be committed (the database is unavailable, full, locked for too long, or the
    commit failed): nothing of it is stored, or — when even the check after the failure failed — it is
    not known whether it was. The server answers 503 and keeps the game at its last stored action."""


@dataclass
class _Job:
    fn: Callable            # fn(conn) -> value, run inside the transaction
    fut: Future
    # check(conn) -> bool: after a failed commit, did this job's write reach the database anyway?
    # (a connection lost during COMMIT leaves that open); None = assume it did not
    check: Callable | None = None
    # PostgreSQL: a line other server processes are told (NOTIFY) when this job's transaction commits
    event: str | None = None


def notify_payloads(events: list[str]) -> list[str]:
    """Event lines joined into as few notifications as fit PostgreSQL's size limit."""
    out: list[str] = []
    cur: list[str] = []
    size = 0
    for e in events:
        n = len(e.encode()) + 1
        if cur and size + n > NOTIFY_BYTES:
            out.append("\n".join(cur))
            cur, size = [], 0
        cur.append(e)
        size += n
    if cur:
        out.append("\n".join(cur))
    return out


# games.options keys that are the server's, not the game's: an action the AI played for a seat at its
# deadline (a takeover: the seat may not undo it, web/undo.py) and the seat that lost on time
TAKEOVERS = "takeovers"


def stored_options(conn, game_id: str) -> dict:
    """The options a game row holds now (inside a transaction that changes them)."""
    raw = conn.execute(select(games_t.c.options).where(games_t.c.id == game_id)).scalar_one_or_none()
    return fastjson.loads(raw) if isinstance(raw, str | bytes) else dict(raw or {})


def _read_only(e: BaseException) -> bool:
    """PostgreSQL refused a write because the session is read-only (SQLSTATE 25006): a pooled connection
    opened while the database was read-only keeps that setting after the database allows writes again."""
    return getattr(getattr(e, "orig", None), "sqlstate", None) == "25006"


def _settle(fut: Future, value: Any = None, error: BaseException | None = None) -> None:
    """Resolve a future once; never raises (a second attempt to resolve it is a bug, not a crash)."""
    if fut.done():
        if not fut.cancelled():     # (a caller that stopped waiting cancels its future: nothing to tell)
            log.error("a write job was resolved twice; the second outcome is ignored: %r", error or value)
        return
    if error is not None:
        fut.set_exception(error)
    else:
        fut.set_result(value)


def _unavailable(e: BaseException) -> bool:
    """The database as a whole failed (locked, full, gone), not one job's statement."""
    return isinstance(e, OperationalError | InterfaceError | TimeoutError) or (
        isinstance(e, DBAPIError) and e.connection_invalidated)


class _Writer(threading.Thread):
    """Group commit: one thread runs queued write jobs, as many as are waiting in one transaction.

    A job is ``fn(conn)``; a job raising Conflict leaves nothing written (it checks before writing).
    A job's future is resolved only after its transaction committed (or failed): the caller is never
    told "stored" for a write that is not. If the database as a whole fails (locked, full, gone), every
    job of the batch fails with StorageError; if anything else fails, the batch is rolled back and every
    job retried in its own transaction, so one bad job cannot sink the others. The thread survives
    every failure and serves the next jobs as soon as the database does.
    """

    def __init__(self, engine: Engine, max_batch: int = 200):
        super().__init__(name="grimoire-db-writer", daemon=True)
        self.engine = engine
        self.notify = engine.dialect.name == "postgresql"
        self.jobs: queue.Queue = queue.Queue()
        self.max_batch = max_batch
        self.failures = 0                  # batches that failed since start (the health check shows it)
        self.last_error: str | None = None
        self.stats: list[tuple[int, float]] = []   # (jobs, seconds) of each commit, for diagnostics
        # the connection kept between batches (``_connection``), the pool it came from, when last used
        self._conn: Any = None
        self._pool: Any = None
        self._used_at = 0.0

    def submit(self, fn: Callable, check: Callable | None = None, event: str | None = None) -> Future:
        fut: Future = Future()
        if not self.is_alive():
            fut.set_exception(StorageError("the database writer is not running"))
            return fut
        self.jobs.put(_Job(fn, fut, check, event if self.notify else None))
        return fut

    def _connection(self):
        """The writer's connection. Kept from one batch to the next while writes keep coming (a pool
        checkout, its reset on return and a new Connection cost more than a small commit); checked out
        afresh — through the pool's checks, e.g. PostgreSQL's pre-ping — after a second without writes,
        after any failure (``_drop``) and when the pool was replaced (``engine.dispose()``)."""
        t = time.monotonic()
        conn = self._conn
        if conn is None or conn.closed or conn.invalidated or self._pool is not self.engine.pool \
                or t - self._used_at > 1.0:
            self._drop()
            self._pool = self.engine.pool
            conn = self._conn = self.engine.connect()
        self._used_at = t
        return conn

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:  # noqa: BLE001 - a broken connection: the pool forgets it
                pass

    def _notify(self, conn, events: list[str]) -> None:
        for payload in notify_payloads(events):
            conn.execute(_NOTIFY, {"payload": payload})

    def stop(self) -> None:
        self.jobs.put(None)
        self.join(timeout=10)

    def run(self) -> None:
        while True:
            item = self.jobs.get()
            if item is None:
                self._drop()
                return
            batch = [item]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    nxt = self.jobs.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            try:
                self._run_batch(batch)
            except BaseException as e:  # noqa: BLE001 - the writer must outlive any bug in a job
                log.exception("the database writer failed on a batch of %d jobs", len(batch))
                for job in batch:
                    if not job.fut.done():
                        _settle(job.fut, error=StorageError(f"internal error while storing: {e}"))
            if stop:
                self._drop()
                return

    def _run_batch(self, batch: list[_Job], retried: bool = False) -> None:
        results: list[tuple[bool, Any]] = []
        began = time.perf_counter()
        try:
            conn = self._connection()
            with conn.begin():
                events = []
                for job in batch:
                    try:
                        results.append((True, job.fn(conn)))
                        if job.event is not None:
                            events.append(job.event)
                    except Conflict as e:
                        results.append((False, e))
                if events:
                    self._notify(conn, events)
        except Exception as e:  # noqa: BLE001 - nothing of the batch is stored; find out job by job
            self._drop()                           # never reuse a connection that failed
            if _read_only(e) and not retried:
                # a connection that was opened while the database was read-only keeps that session setting:
                # drop every pooled connection and try once more on a fresh one (which reads the setting now)
                log.warning("the database refused a write as read-only; reconnecting and trying again")
                self.engine.dispose()
                self._run_batch(batch, retried=True)
                return
            self.failures += 1
            self.last_error = f"{type(e).__name__}: {e}"
            if _unavailable(e):
                log.error("a group commit of %d jobs failed (the database is unavailable): %s", len(batch), e)
                self._fail(batch, e)
                return
            log.warning("a group commit failed; retrying its %d jobs one by one: %s", len(batch), e)
            for job in batch:
                self._run_alone(job)
            return
        # committed: only now are the callers told
        if len(self.stats) < 100_000:
            self.stats.append((len(batch), time.perf_counter() - began))
        for (ok, value), job in zip(results, batch, strict=True):
            if ok:
                _settle(job.fut, value)
            else:
                _settle(job.fut, error=value)

    def _run_alone(self, job: _Job) -> None:
        try:
            conn = self._connection()
            with conn.begin():
                value = job.fn(conn)
                if job.event is not None:
                    self._notify(conn, [job.event])
        except Conflict as e:
            _settle(job.fut, error=e)
        except Exception as e:  # noqa: BLE001
            self._drop()
            log.error("a write failed on its own: %s", e)
            self._fail([job], e)
        else:                   # the with-block has committed
            _settle(job.fut, value)

    def _fail(self, jobs: list[_Job], cause: BaseException) -> None:
        """Answer failed jobs: stored after all (their check finds the write) or StorageError."""
        for job in jobs:
            stored = False
            if job.check is not None:
                try:
                    with self.engine.connect() as conn:
                        stored = bool(job.check(conn))
                except Exception as e:  # noqa: BLE001 - cannot tell: report the failure
                    log.error("cannot check whether a failed write was stored: %s", e)
            if stored:
                log.warning("a write whose commit reported an error was stored after all")
                _settle(job.fut, None)
            else:
                err = StorageError(f"the database did not store it: {type(cause).__name__}: {cause}")
                err.__cause__ = cause
                _settle(job.fut, error=err)


class Store:
    """Synchronous storage API; the server calls it from threads (``writer`` / ``readers``).

    ``lock_timeout``: seconds a write waits for a lock held by someone else (SQLite's busy timeout,
    PostgreSQL's ``lock_timeout``) before it fails with StorageError (the client gets 503).
    """

    def __init__(self, url: str | None = None, *, lock_timeout: float = 10.0):
        self.url = normalize_url(url)
        self.lock_timeout = lock_timeout
        self.engine = make_engine(self.url, lock_timeout=lock_timeout)
        try:
            check_database(self.engine)
            migrate(self.engine)
        except Exception:
            self.engine.dispose()
            raise
        dialect = self.engine.dialect
        self._advance = DriverStatement(_ADVANCE_GAME, dialect)
        self._insert_action = DriverStatement(_INSERT_ACTION, dialect)
        self.writer = _Writer(self.engine)
        self.writer.start()
        self.readers = ThreadPoolExecutor(max_workers=4, thread_name_prefix="grimoire-db-read")

    @property
    def kind(self) -> str:
        return "sqlite" if self.url.startswith("sqlite") else "postgresql"

    def describe(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    def close(self) -> None:
        self.writer.stop()
        self.readers.shutdown(wait=True)
        self.engine.dispose()

    # --- writes (run on the writer thread) ---------------------------------------------------------
    def create_game(self, row: GameRow, seats: list[SeatRow], ai_turn: bool, *, creator: str | None = None,
                    ai_only: bool = False, ai_due: datetime | None = None, guard: Callable | None = None,
                    event: str | None = None) -> Future:
        """Store a new game. ``ai_due``: its first decision is an AI seat's, to be computed from then on
        (the job table, PostgreSQL); ``guard(conn)``: a check inside the transaction that may raise
        ``Refused`` (nothing is written then)."""
        def job(conn):
            if guard is not None:
                guard(conn)
            conn.execute(_INSERT_GAME, {
                "id": row.id, "game": row.game, "players": row.players, "seed": row.seed, "options": row.options,
                "status": row.status, "seq": row.seq, "current_player": row.current_player, "ai_turn": ai_turn,
                "created_at": row.created_at, "updated_at": row.updated_at, "creator": creator,
                "ai_only": ai_only, "public_seq": row.seq, "public_at": row.updated_at})
            conn.execute(_INSERT_SEATS, [
                {"game_id": row.id, "seat": s.seat, "agent": s.agent, "name": s.name, "token_hash": s.token_hash}
                for s in seats])
            if ai_due is not None and row.current_player is not None:
                conn.execute(_INSERT_AI_JOB, {"game_id": row.id, "seq": row.seq, "seat": row.current_player,
                                              "due_at": ai_due, "lease_until": None, "owner": None})

        def stored(conn) -> bool:
            return conn.execute(select(games_t.c.id).where(games_t.c.id == row.id)).first() is not None
        return self.writer.submit(job, stored, event)

    def append_action(self, game_id: str, seq: int, seat: int, text: str, round_: int | None, *,
                      status: str, current_player: int | None, ai_turn: bool,
                      snapshot: dict | None = None, public_seq: int | None = None,
                      ai_due: datetime | None = None, jobs: bool = False, event: str | None = None,
                      takeover: bool = False) -> Future:
        """Store action number ``seq`` (the game must be at ``seq - 1``); Conflict otherwise.
        ``public_seq``: the progress spectators see after it (default ``seq``). ``jobs``: keep the AI job
        table (PostgreSQL) — the game's job is replaced by the next AI decision (``ai_due``) or removed.
        ``takeover``: the AI played it for the seat at its deadline (web/turns.py), recorded with it."""
        pub = seq if public_seq is None else public_seq
        advance, insert_action = self._advance, self._insert_action

        def job(conn):
            t = now()
            if advance.run(conn, {"b_id": game_id, "b_prev": seq - 1, "b_seq": seq, "b_status": status,
                                  "b_cp": current_player, "b_ai": ai_turn, "b_t": t, "b_pub": pub}) != 1:
                raise Conflict(f"game {game_id} is no longer at action {seq - 1}")
            insert_action.run(conn, {"game_id": game_id, "seq": seq, "seat": seat, "text": text,
                                     "round": round_, "created_at": t})
            if snapshot is not None:
                conn.execute(_INSERT_SNAPSHOT, {"game_id": game_id, "seq": seq, "state": snapshot, "created_at": t})
            if takeover:
                options = stored_options(conn, game_id)
                options[TAKEOVERS] = sorted({*options.get(TAKEOVERS, []), seq})
                conn.execute(update(games_t).where(games_t.c.id == game_id).values(options=options))
            if jobs:
                conn.execute(_DELETE_AI_JOB, {"b_id": game_id})
                if ai_due is not None and current_player is not None:
                    conn.execute(_INSERT_AI_JOB, {"game_id": game_id, "seq": seq, "seat": current_player,
                                                  "due_at": ai_due, "lease_until": None, "owner": None})

        def stored(conn) -> bool:
            got = conn.execute(select(actions_t.c.seat, actions_t.c.text)
                               .where(actions_t.c.game_id == game_id, actions_t.c.seq == seq)).first()
            return got is not None and (got.seat, got.text) == (seat, text)
        return self.writer.submit(job, stored, event)

    async def read(self, fn: Callable[[Any], Any], what: str) -> Any:
        """``fn(conn)`` on a connection of the readers' pool, off the event loop. A database that does not
        answer is a StorageError saying ``what`` could not be read (the app answers the one-line 503)."""
        def run():
            with self.engine.connect() as conn:
                return fn(conn)
        try:
            return await asyncio.get_running_loop().run_in_executor(self.readers, run)
        except Exception as e:  # noqa: BLE001 - the database is not answering
            raise StorageError(f"{what} could not be read: {e}") from None

    def actions_after(self, game_id: str, seq: int) -> list[tuple[int, int, str, int | None]]:
        """The stored actions after ``seq`` (another process wrote them), in order."""
        with self.engine.connect() as conn:
            return [(r.seq, r.seat, r.text, r.round) for r in conn.execute(
                select(actions_t.c.seq, actions_t.c.seat, actions_t.c.text, actions_t.c.round)
                .where(actions_t.c.game_id == game_id, actions_t.c.seq > seq).order_by(actions_t.c.seq))]

    def heartbeat(self) -> Future:
        """A real write through the writer (the health check): it commits only if the database takes
        writes now."""
        def job(conn):
            conn.execute(update(heartbeat_t).where(heartbeat_t.c.id == 1).values(at=now()))
        return self.writer.submit(job)

    # --- reads (any thread) ------------------------------------------------------------------------
    def load(self, game_id: str) -> Loaded | None:
        """The stored game, or None if there is none; CorruptGame if its rows cannot make a game."""
        with self.engine.connect() as conn:
            g = conn.execute(select(*_GAME_COLUMNS).where(games_t.c.id == game_id)).mappings().first()
            if g is None:
                return None
            seats = [SeatRow(r.seat, r.agent, r.name, r.token_hash) for r in conn.execute(
                select(seats_t).where(seats_t.c.game_id == game_id).order_by(seats_t.c.seat))]
            # the game row's seq is the snapshot in time: another server process may commit more actions
            # between these reads (each commit updates the row and inserts its action together)
            seq = g["seq"]
            try:
                snap = conn.execute(
                    select(snapshots_t.c.seq, snapshots_t.c.state)
                    .where(snapshots_t.c.game_id == game_id, snapshots_t.c.seq <= seq)
                    .order_by(snapshots_t.c.seq.desc()).limit(1)).first()
            except (ValueError, TypeError) as e:     # a snapshot that is not JSON: replay from the seed
                log.warning("game %s: its newest snapshot cannot be read (%s); replaying from the seed", game_id, e)
                snap = None
            actions = [(r.seq, r.seat, r.text, r.round) for r in conn.execute(
                select(actions_t.c.seq, actions_t.c.seat, actions_t.c.text, actions_t.c.round)
                .where(actions_t.c.game_id == game_id, actions_t.c.seq <= seq).order_by(actions_t.c.seq))]
        row = _game_row(g)
        state = snap.state if snap is not None else None
        if isinstance(state, str):
            try:
                state = fastjson.loads(state)
            except ValueError:
                state = None
        if not isinstance(state, dict):
            state = None
        return Loaded(row, seats, snap.seq if snap is not None and state is not None else 0, state, actions)

    def list_games(self, limit: int = 50, ids: list[str] | None = None) -> list[tuple[GameRow, list[SeatRow]]]:
        """Newest first; a row that cannot be read is logged and left out (it must not hide the others)."""
        # what spectators may know: the progress and time of the last action they can see (a secret move
        # changes neither)
        cols = [games_t.c.id, games_t.c.game, games_t.c.players, games_t.c.status, games_t.c.seq,
                games_t.c.public_seq, games_t.c.current_player, cast(games_t.c.public_at, Text).label("public_at"),
                cast(games_t.c.updated_at, Text).label("updated_at")]
        with self.engine.connect() as conn:
            q = select(*cols).order_by(games_t.c.public_at.desc().nulls_last()).limit(limit)
            if ids is not None:
                q = q.where(games_t.c.id.in_(ids))
            rows = []
            for g in conn.execute(q).mappings():
                try:
                    at = parse_time(g["public_at"] if g["public_at"] is not None else g["updated_at"])
                    seq = g["public_seq"] if g["public_seq"] is not None else g["seq"]
                    rows.append(GameRow(id=g["id"], game=g["game"], players=int(g["players"]), seed=0, options={},
                                        status=str(g["status"]), seq=int(seq), current_player=g["current_player"],
                                        created_at=at, updated_at=at))
                except (TypeError, ValueError, OverflowError) as e:
                    log.error("game %s: its row cannot be listed (%s); skipped as a damaged game", g.get("id"), e)
            seats_of: dict[str, list[SeatRow]] = {r.id: [] for r in rows}
            if rows:
                for s in conn.execute(select(seats_t.c.game_id, seats_t.c.seat, seats_t.c.agent, seats_t.c.name)
                                      .where(seats_t.c.game_id.in_(list(seats_of)))
                                      .order_by(seats_t.c.game_id, seats_t.c.seat)):
                    seats_of[s.game_id].append(SeatRow(s.seat, s.agent, s.name, None))
        return [(r, seats_of[r.id]) for r in rows]

    def games_waiting_for_ai(self) -> list[str]:
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(
                select(games_t.c.id).where(games_t.c.status == "active", games_t.c.ai_turn.is_(True)))]


class Refused(Conflict):
    """A write refused by a check inside its transaction (a limit shared by every server process). Like
    Conflict, its job must raise it before writing anything (the rest of its batch is committed)."""

    def __init__(self, code: str, message: str, retry_after: float = 30.0, status: int = 429):
        super().__init__(message)
        self.code, self.message, self.retry_after, self.status = code, message, retry_after, status


class CorruptGame(Exception):
    """A stored game whose rows cannot make a game (a missing seat, options that are not JSON, ...)."""


def _game_row(g) -> GameRow:
    options = g["options"]
    try:
        if isinstance(options, str | bytes):
            options = fastjson.loads(options)
    except ValueError as e:
        raise CorruptGame(f"game {g['id']}: its options are not valid JSON ({e})") from None
    if not isinstance(options, dict):
        raise CorruptGame(f"game {g['id']}: its options are not an object")
    try:
        created, updated = parse_time(g["created_at"]), parse_time(g["updated_at"])
    except (TypeError, ValueError, OverflowError) as e:
        raise CorruptGame(f"game {g['id']}: a timestamp cannot be read ({e})") from None
    return GameRow(id=g["id"], game=g["game"], players=g["players"], seed=g["seed"], options=options,
                   status=g["status"], seq=g["seq"], current_player=g["current_player"],
                   created_at=created, updated_at=updated, creator=g.get("creator"))
