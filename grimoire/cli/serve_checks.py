"""What ``grimoire serve`` checks before it says it is running: options in range, a database it can open
and a port it can listen on, each refused in one line (never a traceback, never a stray file)."""

from __future__ import annotations

import errno
import socket
from pathlib import Path

from ..core.errors import GameConfigError
from .common import say

LOG_LEVELS = ("critical", "error", "warning", "info", "debug")
DB_SUFFIXES = (".db", ".sqlite", ".sqlite3")     # a bare path names an SQLite file only with one of these
DB_KINDS = ("sqlite", "postgresql", "postgres")


def check_options(port: int, log_level: str, ai_delay: float, ai_workers: int | None) -> str:
    """The options' ranges; returns the log level in lower case."""
    if not 1 <= port <= 65535:
        raise GameConfigError(say("term.err.port", port=port))
    level = log_level.strip().lower()
    if level not in LOG_LEVELS:
        raise GameConfigError(say("term.err.log_level", level=log_level, levels=", ".join(LOG_LEVELS)))
    if not ai_delay >= 0:                   # (also refuses nan)
        raise GameConfigError(say("term.err.ai_delay", value=ai_delay))
    if ai_workers is not None and ai_workers < 1:
        raise GameConfigError(say("term.err.ai_workers", value=ai_workers))
    return level


def _sqlite_file(shown: str, path: Path) -> None:
    if path.is_dir():
        raise GameConfigError(say("term.err.db_is_dir", url=shown, path=str(path)))
    if not path.parent.is_dir():
        raise GameConfigError(say("term.err.db_no_dir", url=shown, dir=str(path.parent)))


def check_db(db: str | None) -> None:
    """Refuse a --db that is neither a database URL we speak nor the path of an SQLite file, and an
    SQLite file that cannot be (a folder, a missing folder), before anything is created."""
    if not db:
        return
    if "://" not in db:
        path = Path(db).expanduser()
        if not (path.suffix.lower() in DB_SUFFIXES or path.is_file() or path.is_dir()):
            raise GameConfigError(say("term.err.db_scheme", url=db))
        _sqlite_file(db, path)
        return
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError
    try:
        url = make_url(db)
    except ArgumentError:
        raise GameConfigError(say("term.err.db_scheme", url=db)) from None
    shown = url.render_as_string(hide_password=True)
    if url.get_backend_name() not in DB_KINDS:
        raise GameConfigError(say("term.err.db_scheme", url=shown))
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        _sqlite_file(shown, Path(url.database).expanduser())


def connect_reason(exc: BaseException) -> str:
    """The driver's own first line (e.g. 'connection refused'), without SQLAlchemy's long tail."""
    orig = getattr(exc, "orig", None) or exc
    text = str(orig).strip().splitlines()
    return text[0] if text else type(orig).__name__


def check_port(host: str, port: int) -> None:
    """Bind the port once (as uvicorn will) so that a busy port is refused before 'running' is printed."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise GameConfigError(say("term.err.port_other", host=host, port=port, reason=e.strerror)) from None
    family, kind, proto, _name, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)     # (uvicorn sets it too)
        sock.bind(addr)
    except OSError as e:
        key = "term.err.port_busy" if e.errno == errno.EADDRINUSE else "term.err.port_other"
        raise GameConfigError(say(key, host=host, port=port, reason=e.strerror or str(e))) from None
    finally:
        sock.close()
