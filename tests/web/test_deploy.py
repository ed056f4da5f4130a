"""The deployment recipe of docs/deploy.md, tried: two server processes started with the systemd
unit's own command line on one PostgreSQL database, nginx with the recipe's site (TLS with a throwaway
certificate, WebSocket upgrade, no sticky sessions), a process stopped under play, and the backup
commands (pg_dump / pg_restore, SQLite's online backup) — without systemd or containers."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import ssl
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from .conftest import PG_URL, REQUIRE_PG, ServerProcess, free_port

DOC = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
pytestmark = pytest.mark.postgresql


def _block(lang: str, marker: str) -> str:
    """The fenced block of the recipe in ``lang`` that contains ``marker``."""
    for m in re.finditer(r"```" + lang + r"\n(.*?)```", DOC.read_text(), re.S):
        if marker in m.group(1):
            return m.group(1)
    raise AssertionError(f"docs/deploy.md has no {lang} block with {marker!r}")


def _pg_tool(name: str) -> str | None:
    for d in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (d / name).exists():
            return str(d / name)
    return shutil.which(name)


@pytest.fixture
def database():
    if not PG_URL:
        if REQUIRE_PG:
            pytest.fail("GRIMOIRE_TEST_REQUIRE_PG=1 but GRIMOIRE_TEST_PG_URL is not set")
        pytest.skip("needs PostgreSQL (GRIMOIRE_TEST_PG_URL)")
    from sqlalchemy import create_engine
    from sqlalchemy import text as sql_text
    from sqlalchemy.engine import make_url

    from grimoire.web.store import normalize_url
    names = [f"grimoire_deploy_{os.getpid()}_{os.urandom(3).hex()}" for _ in range(2)]
    admin = create_engine(normalize_url(PG_URL), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sql_text(f'CREATE DATABASE "{names[0]}"'))
    try:
        yield [make_url(PG_URL).set(database=n).render_as_string(hide_password=False) for n in names]
    finally:
        with admin.connect() as conn:
            for n in names:
                conn.execute(sql_text(f'DROP DATABASE IF EXISTS "{n}" WITH (FORCE)'))
        admin.dispose()


class UnitProcess(ServerProcess):
    """A server started with the ExecStart line of the recipe's systemd unit (its port for ``%i``)."""

    def __init__(self, db_url: str, log_path: Path):
        super().__init__(db_url, log_path)
        unit = _block("ini", "ExecStart=")
        self.argv = shlex.split(re.search(r"^ExecStart=(.*)$", unit, re.M).group(1))
        self.env = dict(re.findall(r"^Environment=(\w+)=(\S*)$", unit, re.M))

    def start(self, timeout: float = 30.0) -> None:
        argv = [a.replace("%i", str(self.port)) for a in self.argv]
        assert argv[0].endswith("/grimoire") and argv[1] == "serve"
        argv = [sys.executable, "-m", "grimoire.cli.main", *argv[1:]]
        argv[argv.index("--db") + 1] = self.db_url
        log = open(self.log_path, "ab")  # noqa: SIM115 - kept open for the child's lifetime
        self.proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                     env={**os.environ, **self.env})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log_path.read_text()[-2000:]
            try:
                if httpx.get(self.base + "/api/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"the unit's server did not start: {self.log_path.read_text()[-2000:]}")


def _nginx(tmp: Path, ports: list[int]) -> tuple[subprocess.Popen, int]:
    site = _block("nginx", "upstream grimoire")
    port = free_port()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-keyout", str(tmp / "key.pem"), "-out", str(tmp / "cert.pem")], check=True, capture_output=True)
    site = site.replace("127.0.0.1:8001", f"127.0.0.1:{ports[0]}").replace("127.0.0.1:8002", f"127.0.0.1:{ports[1]}")
    site = site.replace("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;").replace("listen 80;",
                                                                                    f"listen 127.0.0.1:{free_port()};")
    site = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {tmp / 'cert.pem'};", site)
    site = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {tmp / 'key.pem'};", site)
    conf = tmp / "nginx.conf"
    conf.write_text(f"""
user root;
worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/nginx-error.log;
events {{ worker_connections 512; }}
http {{
    access_log {tmp}/nginx-access.log;
    client_body_temp_path {tmp}/body; proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fcgi; uwsgi_temp_path {tmp}/uwsgi; scgi_temp_path {tmp}/scgi;
{site}
}}
""")
    proc = subprocess.Popen(["nginx", "-c", str(conf), "-p", str(tmp)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 15
    while True:
        try:
            httpx.get(f"https://127.0.0.1:{port}/api/meta", verify=False, timeout=2)
            return proc, port
        except httpx.HTTPError:
            assert proc.poll() is None and time.monotonic() < deadline, (tmp / "nginx-error.log").read_text()
            time.sleep(0.1)


@pytest.mark.skipif(shutil.which("nginx") is None or shutil.which("openssl") is None,
                    reason="needs nginx and openssl (Debian: nginx-light, openssl)")
def test_the_recipe_serves_games_through_nginx_on_two_processes(database, tmp_path):
    db, restored = database
    servers = [UnitProcess(db, tmp_path / f"unit{i}.log") for i in range(2)]
    nginx = None
    try:
        for s in servers:
            s.start()
        nginx, port = _nginx(tmp_path, [s.port for s in servers])
        base = f"https://127.0.0.1:{port}"
        origin = {"Origin": base}
        with httpx.Client(verify=False, timeout=10) as c:
            assert "<html" in c.get(base + "/").text.lower()
            pids: set[int] = set()
            for _ in range(64):     # each request hashes on its own random id: 8 went to one process 1 time in ~100
                pids.add(httpx.get(base + "/api/health", verify=False, timeout=10).json()["pid"])
                if len(pids) == 2:
                    break
            assert len(pids) == 2                                 # no sticky sessions: both processes serve
            r = c.post(base + "/api/games", json={"game": "zavandor", "seats": [{"agent": "human"}] * 2},
                       headers=origin)
            assert r.status_code == 201, r.text
            g = r.json()
            assert c.post(base + "/api/games", json={"game": "zavandor", "seats": [{"agent": "human"}] * 2},
                          headers={"Origin": "https://evil.example"}).status_code == 403
        toks = {s["seat"]: s["token"] for s in g["seats"]}
        tls = ssl.create_default_context()
        tls.check_hostname, tls.verify_mode = False, ssl.CERT_NONE
        ws_url = f"wss://127.0.0.1:{port}/ws/games/{g['id']}"
        socks = [connect(ws_url, ssl=tls, additional_headers=origin) for _ in range(2)]
        views = []
        for seat, ws in enumerate(socks):
            ws.send(json.dumps({"type": "join", "token": toks[seat]}))
            views.append(json.loads(ws.recv(timeout=10)))
            assert views[-1]["type"] == "welcome"
        played = []
        for _ in range(8):                                  # play through nginx, both seats see everything
            cp = views[0]["obs"]["current_player"]
            mine = socks[cp]
            legal = views[cp]["obs"]["legal_actions"]
            mine.send(json.dumps({"type": "act", "id": "a", "seq": views[cp]["seq"], "action": legal[0]}))
            for seat, ws in enumerate(socks):
                while True:
                    m = json.loads(ws.recv(timeout=10))
                    if m["type"] == "state":
                        views[seat] = m
                        break
            played.append(views[0]["log"][-1]["text"])
        assert views[0]["seq"] == views[1]["seq"] == 8
        for ws in socks:
            ws.close()
        # one process stops (a restart, a crash): nginx sends everything to the other, nothing is lost
        servers[0].proc.send_signal(signal.SIGTERM)
        servers[0].proc.wait(timeout=20)
        with connect(ws_url, ssl=tls, additional_headers=origin) as ws:
            ws.send(json.dumps({"type": "join", "token": None}))
            m = json.loads(ws.recv(timeout=10))
            assert [e["text"] for e in m["log"]] == played
        for _ in range(4):
            assert httpx.get(base + "/api/health", verify=False, timeout=10).status_code == 200
        # the backup of the recipe, restored into an empty database, holds the game
        pg_dump, pg_restore = _pg_tool("pg_dump"), _pg_tool("pg_restore")
        if pg_dump and pg_restore:
            from sqlalchemy import create_engine
            from sqlalchemy import text as sql_text

            from grimoire.web.store import normalize_url
            assert "pg_dump -Fc grimoire" in DOC.read_text()
            dump = tmp_path / "grimoire.dump"
            subprocess.run([pg_dump, "-Fc", "-d", db, "-f", str(dump)], check=True, capture_output=True)
            admin = create_engine(normalize_url(PG_URL), isolation_level="AUTOCOMMIT")
            with admin.connect() as conn:
                conn.execute(sql_text(f'CREATE DATABASE "{restored.rsplit("/", 1)[1]}"'))
            admin.dispose()
            subprocess.run([pg_restore, "-d", restored, str(dump)], check=True, capture_output=True)
            check = create_engine(normalize_url(restored))
            with check.connect() as conn:
                query = sql_text("SELECT text FROM actions WHERE game_id = :g ORDER BY seq")
                texts = [r[0] for r in conn.execute(query, {"g": g["id"]})]
            check.dispose()
            assert texts == played
    finally:
        if nginx is not None:
            nginx.send_signal(signal.SIGQUIT)
            nginx.wait(timeout=10)
        for s in servers:
            s.stop()


def test_the_sqlite_online_backup_of_the_recipe_copies_a_running_server(tmp_path):
    src = tmp_path / "grimoire.db"
    srv = ServerProcess(f"sqlite:///{src}", tmp_path / "server.log")
    srv.start()
    try:
        g = httpx.post(srv.base + "/api/games", json={"game": "zavandor", "seats": [{"agent": "human"}] * 2},
                       timeout=10).json()
        line = next(x for x in DOC.read_text().splitlines() if "s.backup(d)" in x)
        code = re.search(r'python3 -c "(.*)"', line).group(1)
        backup = tmp_path / "backup.db"
        subprocess.run([sys.executable, "-c", code, str(src), str(backup)], check=True)   # while it runs
    finally:
        srv.stop()
    from grimoire.web.store import Store
    st = Store(f"sqlite:///{backup}")
    try:
        assert st.load(g["id"]) is not None
    finally:
        st.close()
