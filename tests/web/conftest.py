"""Fixtures for the web tests: a database per backend (SQLite always; PostgreSQL when
GRIMOIRE_TEST_PG_URL is set — CI sets it), the app in-process, and a real server process."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import httpx
import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
from fastapi.testclient import TestClient  # noqa: E402

from grimoire.web.app import create_app  # noqa: E402

PG_URL = os.environ.get("GRIMOIRE_TEST_PG_URL")
REQUIRE_PG = os.environ.get("GRIMOIRE_TEST_REQUIRE_PG") == "1"


def _backends():
    yield pytest.param("sqlite", id="sqlite")
    yield pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgresql)


@pytest.fixture(autouse=True)
def _own_clients(monkeypatch):
    """Each test's clients are its own for the per-client limits: on PostgreSQL they are counted in the
    database, which the tests (and their parallel workers) share."""
    monkeypatch.setenv("GRIMOIRE_CLIENT_SALT", os.urandom(8).hex())


def backend_url(backend: str, folder: Path) -> str:
    """The database of a backend: a new SQLite file in ``folder``, or the shared PostgreSQL test database."""
    if backend == "sqlite":
        return f"sqlite:///{folder / 'grimoire.db'}"
    if not PG_URL:
        if REQUIRE_PG:
            pytest.fail("GRIMOIRE_TEST_REQUIRE_PG=1 but GRIMOIRE_TEST_PG_URL is not set")
        pytest.skip("PostgreSQL tests need GRIMOIRE_TEST_PG_URL (scripts/test.sh sets it up where it can)")
    return PG_URL


@pytest.fixture(params=list(_backends()))
def db_url(request, tmp_path) -> str:
    return backend_url(request.param, tmp_path)


def private_pg_database(tag: str):
    """Yield the URL of a new PostgreSQL database on the test server, dropped afterwards."""
    from sqlalchemy import create_engine
    from sqlalchemy import text as sql_text
    from sqlalchemy.engine import make_url

    from grimoire.web.store import normalize_url
    assert PG_URL
    name = f"grimoire_{tag}_{os.getpid()}_{os.urandom(3).hex()}"
    admin = create_engine(normalize_url(PG_URL), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sql_text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(sql_text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def own_db_url(db_url):
    """Like ``db_url``, but on PostgreSQL a database of the test's own: a server takes up the waiting AI
    moves and deadlines of every game in its database, so one that must build nothing but its own
    games cannot share the database with the other tests."""
    if db_url.startswith("sqlite"):
        yield db_url
    else:
        yield from private_pg_database("own")


@pytest.fixture
def client(db_url):
    app = create_app(db_url, ai_delay=0, allow_seeds=True)
    with TestClient(app) as c:
        yield c


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """``grimoire serve`` in a subprocess: start, kill -9, start again on the same database."""

    def __init__(self, db_url: str, log_path: Path, ai_delay: float = 0.0, extra: tuple[str, ...] = ("--allow-seeds",),
                 env: dict[str, str] | None = None):
        self.db_url = db_url
        self.log_path = log_path
        self.ai_delay = ai_delay
        self.extra = extra
        self.env = env or {}        # set on every start (a fixture shared by tests outlives their monkeypatch)
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        log = open(self.log_path, "ab")  # noqa: SIM115 - kept open for the child's lifetime
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "grimoire.cli.main", "serve", "--port", str(self.port), "--db", self.db_url,
             "--ai-delay", str(self.ai_delay), "--log-level", "warning", *self.extra],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env={**os.environ, **self.env})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-3000:]}")
            try:
                if httpx.get(self.base + "/api/meta", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not start: {self.log_path.read_text()[-3000:]}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def server(db_url, tmp_path):
    srv = ServerProcess(db_url, tmp_path / "server.log")
    srv.start()
    yield srv
    srv.stop()


def create_game(base_or_client, seats, **extra) -> dict:
    body = {"game": "zavandor", "seats": seats, **extra}
    if isinstance(base_or_client, str):
        r = httpx.post(base_or_client + "/api/games", json=body, timeout=10)
    else:
        r = base_or_client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def auth(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}
