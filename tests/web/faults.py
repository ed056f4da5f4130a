"""Fault injection for the storage tests: commits that fail, a full disk, a lock held too long.

``CommitFaults`` replaces the dialect's ``do_commit`` of one engine (the single point where SQLAlchemy
asks the database driver to commit): while armed, the commit raises the driver's own error instead of
committing (or, ``after=True``, commits and then raises, as a connection lost during COMMIT does).
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading

from sqlalchemy import event, text


def driver_error(engine, message: str, kind: str = "io") -> Exception:
    """An exception of the database driver's own classes (what a real failure raises)."""
    if engine.dialect.name == "sqlite":
        return sqlite3.OperationalError(message)
    import psycopg.errors as pe
    return {"io": pe.IoError, "full": pe.DiskFull}[kind](message)


class CommitFaults:
    def __init__(self, engine):
        self.engine = engine
        self.real = engine.dialect.do_commit
        self.remaining = 0            # commits still to fail (-1 = every one until disarmed)
        self.after = False            # commit first, then raise
        self.failed = 0
        self.lock = threading.Lock()
        self.only_actions = False     # fail only transactions that store an action (not the servers' housekeeping)
        self._with_action: set[int] = set()
        engine.dialect.do_commit = self._do_commit
        from sqlalchemy import event

        @event.listens_for(engine, "before_cursor_execute")
        def _note(conn, _cursor, statement, *_args):
            if statement.lstrip().upper().startswith("INSERT INTO ACTIONS"):
                with self.lock:
                    self._with_action.add(id(conn.connection))        # what do_commit is given

    def arm(self, times: int = -1, after: bool = False, only_actions: bool = False) -> None:
        with self.lock:
            self.remaining, self.after, self.only_actions = times, after, only_actions

    def disarm(self) -> None:
        with self.lock:
            self.remaining = 0

    def _do_commit(self, dbapi_conn) -> None:
        with self.lock:
            stores_action = id(dbapi_conn) in self._with_action
            self._with_action.discard(id(dbapi_conn))
            fail = self.remaining != 0 and (stores_action or not self.only_actions)
            if fail:
                self.failed += 1
                if self.remaining > 0:
                    self.remaining -= 1
            after = self.after
        if fail and not after:
            raise driver_error(self.engine, "injected fault: the commit failed")
        self.real(dbapi_conn)
        if fail:
            raise driver_error(self.engine, "injected fault: the connection was lost during COMMIT")

    def remove(self) -> None:
        self.engine.dialect.do_commit = self.real


@contextlib.contextmanager
def full_disk(engine):
    """Writes fail as on a full disk: SQLite's own SQLITE_FULL (the database may not grow by one more
    page); on PostgreSQL the driver's DiskFull error on every INSERT/UPDATE."""
    if engine.dialect.name == "sqlite":
        def limit(dbapi_conn, _record):
            cur = dbapi_conn.cursor()
            pages = cur.execute("PRAGMA page_count").fetchone()[0]
            cur.execute(f"PRAGMA max_page_count = {pages}")
            cur.close()
        engine.dispose()              # every connection from now on is one that cannot grow the file
        event.listen(engine, "connect", limit)
        try:
            yield
        finally:
            event.remove(engine, "connect", limit)
            engine.dispose()
        return

    def refuse(conn, cursor, statement, params, context, executemany):
        if statement.lstrip().upper().startswith(("INSERT", "UPDATE")):
            raise driver_error(engine, "could not extend file: No space left on device", "full")
    event.listen(engine, "before_cursor_execute", refuse)
    try:
        yield
    finally:
        event.remove(engine, "before_cursor_execute", refuse)


@contextlib.contextmanager
def locked_game(engine, game_id: str):
    """Another connection holds a write lock on the game (SQLite: the whole database) until the block
    ends."""
    if engine.dialect.name == "sqlite":
        path = engine.url.database
        other = sqlite3.connect(path, timeout=5, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            other.execute("ROLLBACK")
            other.close()
        return
    with engine.connect() as other:
        other.execute(text("SELECT id FROM games WHERE id = :id FOR UPDATE"), {"id": game_id})
        try:
            yield
        finally:
            other.rollback()
