"""Many server processes, one truth: 2-3 real ``grimoire serve`` processes on one PostgreSQL database.
Concurrent submissions for one decision to different processes apply exactly once; every client sees
every update whichever process it is connected to; AI moves are computed by one process and go on
after that process is killed with SIGKILL (its clients reconnect to another and lose nothing); a
rolling restart loses no acknowledged action; ``--workers N`` runs N processes on one port."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import httpx
import pytest
from websockets.sync.client import connect

from .conftest import PG_URL, REQUIRE_PG, ServerProcess, auth, create_game, private_pg_database

pytestmark = [pytest.mark.postgresql, pytest.mark.xdist_group("cluster")]   # one test process: shared servers


@pytest.fixture(scope="module")
def pg_url():
    """A database of this file's own: the processes take every waiting AI move of their database, and
    other tests leave games behind in the shared one."""
    if not PG_URL:
        if REQUIRE_PG:
            pytest.fail("GRIMOIRE_TEST_REQUIRE_PG=1 but GRIMOIRE_TEST_PG_URL is not set")
        pytest.skip("needs PostgreSQL (GRIMOIRE_TEST_PG_URL)")
    yield from private_pg_database("cluster")


@pytest.fixture(scope="module")
def cluster(pg_url, tmp_path_factory):
    """Three server processes on one database, shared by the file's tests (starting them for every test
    cost CI time): each test plays games of its own. A killed process's AI moves are taken over after
    2 s (GRIMOIRE_AI_LEASE); the AI waits 50 ms before a move, so a test sees the AI seats at work."""
    folder = tmp_path_factory.mktemp("cluster")
    env = {"GRIMOIRE_AI_LEASE": "2", "GRIMOIRE_CLIENT_SALT": os.urandom(8).hex()}
    procs = [ServerProcess(pg_url, folder / f"server{i}.log", ai_delay=0.05, env=env) for i in range(3)]
    try:
        for srv in procs:
            srv.start()
        yield procs
    finally:
        for srv in procs:
            srv.stop()


@pytest.fixture
def servers(cluster):
    """The shared processes, every one running (a test before may have stopped or killed one)."""
    for srv in cluster:
        if not srv.alive():
            srv.start()
    return cluster


def view(base, gid, token=None):
    r = httpx.get(f"{base}/api/games/{gid}", headers=auth(token), timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def _reader(url: str, token: str | None, into: list, stop: threading.Event) -> threading.Thread:
    def run():
        with connect(url) as ws:
            ws.send(json.dumps({"type": "join", "token": token}))
            while not stop.is_set():
                try:
                    into.append(json.loads(ws.recv(timeout=0.2)))
                except TimeoutError:
                    continue
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def _health(base: str) -> dict:
    r = httpx.get(base + "/api/health", timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def test_sqlite_serves_one_process_and_says_so(tmp_path):
    r = subprocess.run([sys.executable, "-m", "grimoire.cli.main", "serve", "--db", str(tmp_path / "x.db"),
                        "--workers", "2"], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "COLUMNS": "200"})
    assert r.returncode == 2
    lines = [x for x in (r.stdout + r.stderr).splitlines() if x.strip()]
    assert len(lines) == 1 and "PostgreSQL" in lines[0], lines



def test_workers_share_one_port(pg_url, tmp_path):
    srv = ServerProcess(pg_url, tmp_path / "workers.log", extra=("--workers", "2"))
    srv.start(timeout=120)                    # two processes import everything at once: slow on a busy machine
    try:
        pids = set()
        deadline = time.monotonic() + 20
        while len(pids) < 2:
            assert time.monotonic() < deadline, f"one process answered every connection: {pids}"
            pids.add(_health(srv.base)["pid"])
        g = create_game(srv.base, [{"agent": "human"}, {"agent": "human"}])
        token = g["seats"][view(srv.base, g["id"])["obs"]["current_player"]]["token"]
        legal = view(srv.base, g["id"], token)["obs"]["legal_actions"]
        r = httpx.post(f"{srv.base}/api/games/{g['id']}/actions", headers=auth(token),
                       json={"seq": 0, "action": legal[0]}, timeout=10)
        assert r.status_code == 200, r.text
        for _ in range(6):                                  # whichever process answers has the same game
            assert view(srv.base, g["id"])["seq"] >= 1
    finally:
        srv.stop()


def test_concurrent_submissions_to_different_processes_apply_once(servers):
    procs = servers
    bases = [p.base for p in procs]
    g = create_game(bases[0], [{"agent": "human"}] * 3, seed=31)
    toks = {s["seat"]: s["token"] for s in g["seats"]}
    accepted = []
    for _round in range(10):
        v = view(bases[1], g["id"])
        cp = v["obs"]["current_player"]
        legal = view(bases[2], g["id"], toks[cp])["obs"]["legal_actions"]
        barrier = threading.Barrier(6)
        out: list = [None] * 6

        def go(i, barrier=barrier, out=out, token=toks[cp], seq=v["seq"], legal=legal):
            with httpx.Client(timeout=10) as c:
                barrier.wait()
                out[i] = c.post(f"{bases[i % 3]}/api/games/{g['id']}/actions", headers=auth(token),
                                json={"seq": seq, "action": legal[i % len(legal)]})
        threads = [threading.Thread(target=go, args=(i,)) for i in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        ok = [r for r in out if r.status_code == 200]
        assert len(ok) == 1, [r.text for r in out]
        assert all(r.status_code == 409 and r.json()["error"]["code"] == "stale" for r in out if r.status_code != 200)
        accepted.append(ok[0].json()["action"])
    for base in bases:                              # every process holds the same game
        assert [e["text"] for e in view(base, g["id"])["log"]] == accepted


def test_a_client_reads_its_own_action_through_any_process(servers):
    """Behind a round robin each request may reach another process: the read right after an acknowledged
    action shows it, and an action sent with that read's seq is accepted, whichever process each one reaches
    (a process's copy follows the others by notifications, which may still be on their way)."""
    bases = [p.base for p in servers]
    g = create_game(bases[0], [{"agent": "human"}] * 2, seed=36)
    toks = {s["seat"]: s["token"] for s in g["seats"]}
    for i in range(30):
        v = view(bases[i % 3], g["id"])
        assert v["seq"] == i, f"read {i} through process {i % 3}: seq {v['seq']}"
        cp = v["obs"]["current_player"]
        legal = view(bases[(i + 2) % 3], g["id"], toks[cp])["obs"]["legal_actions"]
        r = httpx.post(f"{bases[(i + 1) % 3]}/api/games/{g['id']}/actions", headers=auth(toks[cp]),
                       json={"seq": i, "action": legal[0]}, timeout=10)
        assert r.status_code == 200, (i, r.text)
        log = httpx.get(f"{bases[(i + 2) % 3]}/api/games/{g['id']}/log", timeout=10).json()
        assert log["seq"] == i + 1 and log["log"][-1]["text"] == r.json()["action"], (i, log["seq"])


def test_a_process_deaf_to_notifications_still_reads_and_accepts_the_latest(servers, pg_url):
    """The database ends every process's listening connection (a network fault, a failover): until a process
    listens again it hears of no action stored elsewhere. Meanwhile an action sent to it with the seq another
    process answered is accepted, and a read through it shows the action just stored elsewhere."""
    from sqlalchemy import create_engine
    from sqlalchemy import text as sql_text

    from grimoire.web.store import normalize_url
    a, b, c = servers
    g = create_game(a.base, [{"agent": "human"}] * 2, seed=37)
    toks = {s["seat"]: s["token"] for s in g["seats"]}
    for srv in (b, c):
        assert view(srv.base, g["id"])["seq"] == 0                  # each holds a copy of the game

    def act(srv, seq):
        v = view(a.base, g["id"])                                  # A's copy: its own actions, or caught up
        cp = v["obs"]["current_player"]
        legal = view(a.base, g["id"], toks[cp])["obs"]["legal_actions"]
        r = httpx.post(f"{srv.base}/api/games/{g['id']}/actions", headers=auth(toks[cp]),
                       json={"seq": seq, "action": legal[0]}, timeout=10)
        assert r.status_code == 200, (seq, r.text)
        return r.json()["action"]

    admin = create_engine(normalize_url(pg_url), isolation_level="AUTOCOMMIT")
    try:
        for i in range(3):
            deadline = time.monotonic() + 10
            while not all(_health(srv.base)["cluster"]["listening"] for srv in (b, c)):
                assert time.monotonic() < deadline, "a process did not listen again"
                time.sleep(0.02)
            with admin.connect() as conn:
                conn.execute(sql_text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                      "WHERE datname = current_database() AND query LIKE 'LISTEN%'"))
            while _health(b.base)["cluster"]["listening"]:
                assert time.monotonic() < deadline, "B's listening connection was not ended"
                time.sleep(0.005)
            act(a, 2 * i)
            last = act(b, 2 * i + 1)                               # B's copy is one action behind
            v = view(c.base, g["id"])                              # C's copy two
            assert v["seq"] == 2 * i + 2 and v["log"][-1]["text"] == last, (i, v["seq"])
    finally:
        admin.dispose()
    logs = [[e["text"] for e in view(srv.base, g["id"])["log"]] for srv in (a, b, c)]
    assert len(logs[0]) == 6 and logs[0] == logs[1] == logs[2]


def test_every_client_sees_every_update_whichever_process_it_is_on(servers):
    procs = servers
    g = create_game(procs[0].base, [{"agent": "human"}] * 2, seed=32)
    toks = {s["seat"]: s["token"] for s in g["seats"]}
    ws_url = [p.base.replace("http", "ws") + f"/ws/games/{g['id']}" for p in procs]
    got: dict[str, list] = {"seat0@A": [], "seat1@B": [], "spectator@C": []}
    stop = threading.Event()
    threads = [_reader(ws_url[0], toks[0], got["seat0@A"], stop), _reader(ws_url[1], toks[1], got["seat1@B"], stop),
               _reader(ws_url[2], None, got["spectator@C"], stop)]
    try:
        deadline = time.monotonic() + 10
        while not all(any(m["type"] == "welcome" for m in msgs) for msgs in got.values()):
            assert time.monotonic() < deadline, "no welcome"
            time.sleep(0.05)
        # both seats show as online on the spectator's process, which holds neither connection
        deadline = time.monotonic() + 10
        while True:
            pres = [m for m in got["spectator@C"] if m["type"] in ("presence", "welcome")]
            if pres and all(s["online"] for s in pres[-1]["seats"]):
                break
            assert time.monotonic() < deadline, f"presence never crossed processes: {pres[-1:]}"
            time.sleep(0.05)
        played = []
        for i in range(20):                          # each seat acts through a different process
            v = view(procs[2].base, g["id"])
            cp = v["obs"]["current_player"]
            legal = view(procs[cp].base, g["id"], toks[cp])["obs"]["legal_actions"]
            r = httpx.post(f"{procs[cp].base}/api/games/{g['id']}/actions", headers=auth(toks[cp]),
                           json={"seq": v["seq"], "action": legal[i % len(legal)]}, timeout=10)
            assert r.status_code == 200, r.text
            played.append(r.json()["action"])
        deadline = time.monotonic() + 10
        while any(max((m["seq"] for m in msgs if m["type"] in ("welcome", "state")), default=0) < 20
                  for msgs in got.values()):
            assert time.monotonic() < deadline, "an update did not reach a client on another process"
            time.sleep(0.05)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=5)
    for who, msgs in got.items():
        states = [m for m in msgs if m["type"] == "state"]
        assert [m["seq"] for m in states] == list(range(1, 21)), who           # every one, in order
        assert [e["text"] for m in states for e in m["log"]] == played, who


def test_a_rolling_restart_loses_no_acknowledged_action(servers):
    procs = servers[:2]
    g = create_game(procs[0].base, [{"agent": "human"}] * 2, seed=35)
    toks = {s["seat"]: s["token"] for s in g["seats"]}
    acked: list[str] = []
    errors: list[str] = []
    stop = threading.Event()

    def player():
        i = 0
        while not stop.is_set():
            base = procs[i % 2].base
            i += 1
            try:
                v = httpx.get(f"{base}/api/games/{g['id']}", timeout=5).json()
                cp = v["obs"]["current_player"]
                legal = httpx.get(f"{base}/api/games/{g['id']}", headers=auth(toks[cp]), timeout=5).json()
                r = httpx.post(f"{base}/api/games/{g['id']}/actions", headers=auth(toks[cp]),
                               json={"seq": v["seq"], "action": legal["obs"]["legal_actions"][0]}, timeout=5)
            except (httpx.HTTPError, ValueError, KeyError):
                continue                                    # that process is restarting: try the other
            if r.status_code == 200:
                acked.append(r.json()["action"])
            elif r.status_code not in (409, 503):
                errors.append(r.text)
    t = threading.Thread(target=player)
    t.start()
    try:
        for srv in procs:                                   # one at a time: the other keeps serving
            time.sleep(1.0)
            srv.stop()
            srv.start()
        time.sleep(1.0)
    finally:
        stop.set()
        t.join(timeout=30)
    assert not errors, errors[:3]
    assert len(acked) > 10
    for srv in procs:
        log = [e["text"] for e in view(srv.base, g["id"])["log"]]
        assert log == acked


def test_ai_moves_go_on_after_a_process_is_killed_and_its_clients_reconnect(servers):
    a, b, c = servers
    g = create_game(a.base, [{"agent": "human"}, {"agent": "random"}, {"agent": "random"}], seed=33)
    token = g["seats"][0]["token"]
    with connect(a.base.replace("http", "ws") + f"/ws/games/{g['id']}") as ws:
        ws.send(json.dumps({"type": "join", "token": token}))
        seen = []
        for turn in range(7):                   # the human plays through A; the AI seats answer
            while True:
                m = json.loads(ws.recv(timeout=10))
                if m["type"] in ("welcome", "state"):
                    seen.extend(m["log"])
                    if m["obs"]["current_player"] == 0 or m["status"] != "active":
                        break
            if turn < 6:
                ws.send(json.dumps({"type": "act", "id": "x", "seq": m["seq"],
                                    "action": m["obs"]["legal_actions"][0]}))
        # every AI move was computed by one process only (the job table): the processes computed as many
        # moves as the log has AI moves (the file's other tests play no AI seat)
        ai_actions = sum(1 for e in seen if e["seat"] != 0)
        assert ai_actions > 0
        assert sum(_health(p.base)["cluster"]["ai_computed"] for p in (a, b, c)) == ai_actions
        ai = create_game(a.base, [{"agent": "random"}] * 2, seed=34)       # plays by itself, on whichever
        time.sleep(0.5)
        before = view(b.base, ai["id"])["seq"]
        a.kill()
    # the human's client reconnects to B and loses nothing; B computes the AI seats from now on
    with connect(b.base.replace("http", "ws") + f"/ws/games/{g['id']}") as ws:
        ws.send(json.dumps({"type": "join", "token": token}))
        m = json.loads(ws.recv(timeout=10))
        assert m["type"] == "welcome"
        assert m["log"][:len(seen)] == seen
        deadline = time.monotonic() + 20
        while m["obs"]["current_player"] != 0 and m["status"] == "active":
            assert time.monotonic() < deadline, "the AI seats did not move after the process was killed"
            m = json.loads(ws.recv(timeout=20))
        ws.send(json.dumps({"type": "act", "id": "y", "seq": m["seq"], "action": m["obs"]["legal_actions"][0]}))
        while True:
            r = json.loads(ws.recv(timeout=10))
            if r["type"] in ("ack", "error"):
                break
        assert r["type"] == "ack", r
    deadline = time.monotonic() + 20
    while view(b.base, ai["id"])["seq"] <= before + 5 and view(b.base, ai["id"])["status"] != "over":
        assert time.monotonic() < deadline, "the AI-only game did not go on after its process was killed"
        time.sleep(0.1)
    log = view(b.base, ai["id"])["log"]
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
