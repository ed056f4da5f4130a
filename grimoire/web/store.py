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

import logging
import os
import queue
import threading
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
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine

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
            ai_turn=bindparam("b_ai"), updated_at=bindparam("b_t")))


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


def make_engine(url: str) -> Engine:
    json_opts = {"json_serializer": fastjson.dumps, "json_deserializer": fastjson.loads}
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **json_opts)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={SQLITE_SYNC}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()
        return engine
    return create_engine(url, pool_size=8, max_overflow=4, pool_pre_ping=True, **json_opts)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (creates the tables on a new database)."""
    from alembic import command
    from alembic.config import Config
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.attributes["connection_engine"] = engine
    command.upgrade(cfg, "head")


class _Writer(threading.Thread):
    """Group commit: one thread runs queued write jobs, as many as are waiting in one transaction.

    A job is ``fn(conn)``; a job raising Conflict leaves nothing written (it checks before writing).
    If anything else fails, the batch is rolled back and every job retried in its own transaction.
    """

    def __init__(self, engine: Engine, max_batch: int = 200):
        super().__init__(name="grimoire-db-writer", daemon=True)
        self.engine = engine
        self.jobs: queue.Queue = queue.Queue()
        self.max_batch = max_batch

    def submit(self, fn: Callable) -> Future:
        fut: Future = Future()
        self.jobs.put((fn, fut))
        return fut

    def stop(self) -> None:
        self.jobs.put(None)
        self.join(timeout=10)

    def run(self) -> None:
        while True:
            item = self.jobs.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < self.max_batch:
                try:
                    nxt = self.jobs.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    self._run_batch(batch)
                    return
                batch.append(nxt)
            self._run_batch(batch)

    def _run_batch(self, batch) -> None:
        results = []
        try:
            with self.engine.begin() as conn:
                for fn, _fut in batch:
                    try:
                        results.append((True, fn(conn)))
                    except Conflict as e:
                        results.append((False, e))
        except Exception:  # noqa: BLE001 - retry one by one so one bad job cannot sink the others
            log.exception("a group commit failed; retrying its %d jobs one by one", len(batch))
            for fn, fut in batch:
                try:
                    with self.engine.begin() as conn:
                        fut.set_result(fn(conn))
                except Exception as e:  # noqa: BLE001
                    fut.set_exception(e)
            return
        for (ok, value), (_fn, fut) in zip(results, batch, strict=True):
            if ok:
                fut.set_result(value)
            else:
                fut.set_exception(value)


class Store:
    """Synchronous storage API; the server calls it from threads (``writer`` / ``readers``)."""

    def __init__(self, url: str | None = None):
        self.url = normalize_url(url)
        self.engine = make_engine(self.url)
        migrate(self.engine)
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
    def create_game(self, row: GameRow, seats: list[SeatRow], ai_turn: bool) -> Future:
        def job(conn):
            conn.execute(_INSERT_GAME, {
                "id": row.id, "game": row.game, "players": row.players, "seed": row.seed, "options": row.options,
                "status": row.status, "seq": row.seq, "current_player": row.current_player, "ai_turn": ai_turn,
                "created_at": row.created_at, "updated_at": row.updated_at})
            conn.execute(_INSERT_SEATS, [
                {"game_id": row.id, "seat": s.seat, "agent": s.agent, "name": s.name, "token_hash": s.token_hash}
                for s in seats])
        return self.writer.submit(job)

    def append_action(self, game_id: str, seq: int, seat: int, text: str, round_: int | None, *,
                      status: str, current_player: int | None, ai_turn: bool,
                      snapshot: dict | None = None) -> Future:
        """Store action number ``seq`` (the game must be at ``seq - 1``); Conflict otherwise."""
        def job(conn):
            t = now()
            res = conn.execute(_ADVANCE_GAME, {"b_id": game_id, "b_prev": seq - 1, "b_seq": seq, "b_status": status,
                                               "b_cp": current_player, "b_ai": ai_turn, "b_t": t})
            if res.rowcount != 1:
                raise Conflict(f"game {game_id} is no longer at action {seq - 1}")
            conn.execute(_INSERT_ACTION, {"game_id": game_id, "seq": seq, "seat": seat, "text": text,
                                          "round": round_, "created_at": t})
            if snapshot is not None:
                conn.execute(_INSERT_SNAPSHOT, {"game_id": game_id, "seq": seq, "state": snapshot, "created_at": t})
        return self.writer.submit(job)

    # --- reads (any thread) ------------------------------------------------------------------------
    def load(self, game_id: str) -> Loaded | None:
        with self.engine.connect() as conn:
            g = conn.execute(select(games_t).where(games_t.c.id == game_id)).mappings().first()
            if g is None:
                return None
            seats = [SeatRow(r.seat, r.agent, r.name, r.token_hash) for r in conn.execute(
                select(seats_t).where(seats_t.c.game_id == game_id).order_by(seats_t.c.seat))]
            # the game row's seq is the snapshot in time: another server process may commit more actions
            # between these reads (each commit updates the row and inserts its action together)
            seq = g["seq"]
            snap = conn.execute(
                select(snapshots_t.c.seq, snapshots_t.c.state)
                .where(snapshots_t.c.game_id == game_id, snapshots_t.c.seq <= seq)
                .order_by(snapshots_t.c.seq.desc()).limit(1)).first()
            actions = [(r.seq, r.seat, r.text, r.round) for r in conn.execute(
                select(actions_t.c.seq, actions_t.c.seat, actions_t.c.text, actions_t.c.round)
                .where(actions_t.c.game_id == game_id, actions_t.c.seq <= seq).order_by(actions_t.c.seq))]
        row = _game_row(g)
        state = snap.state if snap is not None else None
        if isinstance(state, str):
            state = fastjson.loads(state)
        return Loaded(row, seats, snap.seq if snap is not None else 0, state, actions)

    def list_games(self, limit: int = 50, ids: list[str] | None = None) -> list[tuple[GameRow, list[SeatRow]]]:
        with self.engine.connect() as conn:
            q = select(games_t).order_by(games_t.c.updated_at.desc()).limit(limit)
            if ids is not None:
                q = q.where(games_t.c.id.in_(ids))
            rows = [_game_row(g) for g in conn.execute(q).mappings()]
            out = []
            for r in rows:
                seats = [SeatRow(s.seat, s.agent, s.name, None) for s in conn.execute(
                    select(seats_t).where(seats_t.c.game_id == r.id).order_by(seats_t.c.seat))]
                out.append((r, seats))
        return out

    def games_waiting_for_ai(self) -> list[str]:
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(
                select(games_t.c.id).where(games_t.c.status == "active", games_t.c.ai_turn.is_(True)))]


def _game_row(g) -> GameRow:
    options = g["options"]
    if isinstance(options, str):
        options = fastjson.loads(options)
    return GameRow(id=g["id"], game=g["game"], players=g["players"], seed=g["seed"], options=options,
                   status=g["status"], seq=g["seq"], current_player=g["current_player"],
                   created_at=g["created_at"], updated_at=g["updated_at"])
