"""Durability under storage faults, on SQLite and PostgreSQL: a commit that fails, a full disk, a lock
held longer than the timeout, a connection lost during COMMIT, a failing AI move.

What every test proves: nothing acknowledged is lost (a restarted app finds exactly the acknowledged
actions), nothing unacknowledged is applied (the game stays at its last stored action, in memory, on
the WebSockets and in the database), and the server serves again as soon as the storage does (the
writer thread survives).
"""

from __future__ import annotations

import concurrent.futures
import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from grimoire.web.app import create_app
from grimoire.web.store import StorageError, Store, _Writer

from .conftest import ServerProcess, auth, create_game
from .faults import CommitFaults, full_disk, locked_game
from .test_api import HUMAN3, recv, tokens_of, wait_for

LOCK_TIMEOUT = 0.5


@pytest.fixture
def app(db_url):
    return create_app(db_url, ai_delay=0, allow_seeds=True, lock_timeout=LOCK_TIMEOUT)


def _decide(c, gid, toks):
    """The deciding seat's token, the sequence number and a legal action."""
    spectator = c.get(f"/api/games/{gid}").json()
    cp = spectator["obs"]["current_player"]
    mine = c.get(f"/api/games/{gid}", headers=auth(toks[cp])).json()
    return toks[cp], mine["seq"], mine["obs"]["legal_actions"][0]


def _act(c, gid, token, seq, action):
    return c.post(f"/api/games/{gid}/actions", headers=auth(token), json={"seq": seq, "action": action})


def _stored_actions(db_url, gid) -> list[str]:
    """The actions in the database, read by a fresh app (what a restarted server would find)."""
    with TestClient(create_app(db_url, ai_delay=0)) as c:
        return [e["text"] for e in c.get(f"/api/games/{gid}/log").json()["log"]]


def _assert_503(r):
    assert r.status_code == 503, r.text
    err = r.json()["error"]
    assert err["code"] == "storage_unavailable" and "nothing was changed" in err["message"]
    assert r.headers["retry-after"]


def _fault_then_recover(db_url, app, inject, whole_database: bool = True):
    """Play 3 actions, fail one under the fault ``inject(game_id)`` (a context manager), check nothing moved,
    then play on once the fault is gone; return the game id and the acknowledged actions."""
    with TestClient(app) as c:
        c.app.state.hub.snapshot_every = getattr(app.state, "hub_snapshot_every", 100)
        g = create_game(c, HUMAN3, seed=31)
        gid, toks = g["id"], tokens_of(g)
        acked = []
        for _ in range(3):
            tok, seq, action = _decide(c, gid, toks)
            r = _act(c, gid, tok, seq, action)
            assert r.status_code == 200, r.text
            acked.append(r.json()["action"])
        with c.websocket_connect(f"/ws/games/{gid}") as ws:
            ws.send_json({"type": "join", "token": None})
            assert recv(ws, "welcome")["seq"] == 3
            tok, seq, action = _decide(c, gid, toks)
            with inject(gid):
                r = _act(c, gid, tok, seq, action)
                _assert_503(r)
                assert r.json()["error"]["seq"] == 3
                # nothing unacknowledged is applied: memory, views, the log
                v = c.get(f"/api/games/{gid}").json()
                assert v["seq"] == 3 and [e["text"] for e in v["log"]] == acked
                health = c.get("/api/health")
                if whole_database:          # the health check's write fails too
                    _assert_503(health)
                else:                       # only this game's row is locked: the rest writes on
                    assert health.status_code == 200
            # no state was broadcast for the failed action: the next message is the one after recovery
            assert app.state.hub.store.writer.is_alive()
            assert c.get("/api/health").status_code == 200
            r = _act(c, gid, tok, seq, action)
            assert r.status_code == 200, r.text
            acked.append(r.json()["action"])
            m = recv(ws, "state")
            assert m["seq"] == 4 and [e["seq"] for e in m["log"]] == [4]
    assert _stored_actions(db_url, gid) == acked
    return gid, acked


def test_a_failed_commit_is_answered_503_and_the_writer_recovers(db_url, app):
    holder = {}

    def inject(_gid):
        faults = holder.setdefault("f", CommitFaults(app.state.hub.store.engine))

        class _Armed:
            def __enter__(self):
                faults.arm()

            def __exit__(self, *exc):
                faults.disarm()
        return _Armed()
    _fault_then_recover(db_url, app, inject)
    assert holder["f"].failed >= 2          # the batch and its retry both failed; the client was told so


def test_a_full_disk_is_answered_503_and_the_game_goes_on_after(db_url, app, tmp_path):
    if db_url.startswith("sqlite"):
        _full_disk_on_a_real_server(db_url, tmp_path)
    else:                             # the PostgreSQL server's disk: its DiskFull error on every write
        _fault_then_recover(db_url, app, lambda _gid: full_disk(app.state.hub.store.engine))


def _full_disk_on_a_real_server(db_url, tmp_path):
    """SQLite, for real: ``grimoire serve`` may not grow any file beyond its present size (the limit
    a full disk sets: RLIMIT_FSIZE, so SQLite's writes to its WAL fail with the system's error)."""
    import resource

    import httpx
    srv = ServerProcess(db_url, tmp_path / "server.log")
    srv.start()
    try:
        base = srv.base
        g = create_game(base, HUMAN3, seed=33)
        gid, toks = g["id"], tokens_of(g)
        acked = []

        def decide():
            v = httpx.get(f"{base}/api/games/{gid}", timeout=10).json()
            tok = toks[v["obs"]["current_player"]]
            mine = httpx.get(f"{base}/api/games/{gid}", headers=auth(tok), timeout=10).json()
            return tok, mine["seq"], mine["obs"]["legal_actions"][0]

        def act(tok, seq, action):
            return httpx.post(f"{base}/api/games/{gid}/actions", headers=auth(tok),
                              json={"seq": seq, "action": action}, timeout=30)
        for _ in range(3):
            r = act(*decide())
            assert r.status_code == 200, r.text
            acked.append(r.json()["action"])
        tok, seq, action = decide()
        wal = Path(db_url.removeprefix("sqlite:///") + "-wal")
        _soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.prlimit(srv.proc.pid, resource.RLIMIT_FSIZE, (wal.stat().st_size, hard))
        try:
            _assert_503(act(tok, seq, action))
            _assert_503(httpx.get(f"{base}/api/health", timeout=30))
            v = httpx.get(f"{base}/api/games/{gid}", timeout=10).json()
            assert v["seq"] == 3 and [e["text"] for e in v["log"]] == acked
        finally:
            resource.prlimit(srv.proc.pid, resource.RLIMIT_FSIZE, (hard, hard))
        assert httpx.get(f"{base}/api/health", timeout=30).status_code == 200
        r = act(tok, seq, action)
        assert r.status_code == 200, r.text
        acked.append(r.json()["action"])
        srv.kill()                    # and nothing acknowledged is lost to a kill -9 afterwards
        assert _stored_actions(db_url, gid) == acked
    finally:
        srv.stop()


def test_a_lock_held_past_the_timeout_is_answered_503(db_url, app):
    _fault_then_recover(db_url, app, lambda gid: locked_game(app.state.hub.store.engine, gid),
                        whole_database=db_url.startswith("sqlite"))


def test_a_commit_that_reached_the_database_despite_an_error_is_acknowledged(db_url, app):
    """A connection lost during COMMIT: the write may be stored. The writer checks, and a stored
    action is acknowledged (and broadcast) like any other, never reported as failed."""
    with TestClient(app) as c:
        g = create_game(c, HUMAN3, seed=32)
        gid, toks = g["id"], tokens_of(g)
        faults = CommitFaults(app.state.hub.store.engine)
        tok, seq, action = _decide(c, gid, toks)
        faults.arm(times=1, after=True)
        r = _act(c, gid, tok, seq, action)
        assert r.status_code == 200, r.text
        assert faults.failed == 1
        assert c.get(f"/api/games/{gid}").json()["seq"] == 1
    assert _stored_actions(db_url, gid) == [r.json()["action"]]


def test_creating_a_game_while_commits_fail_is_answered_503(db_url, app):
    with TestClient(app) as c:
        faults = CommitFaults(app.state.hub.store.engine)
        faults.arm()
        r = c.post("/api/games", json={"game": "zavandor", "seats": HUMAN3})
        _assert_503(r)
        assert not any(s.seats[0].name == "Ann" for s in app.state.hub.sessions.values())
        faults.disarm()
        g = create_game(c, HUMAN3)
        assert c.get(f"/api/games/{g['id']}").status_code == 200


def test_an_ai_move_that_cannot_be_stored_is_retried_and_logged(db_url, app, caplog):
    caplog.set_level(logging.WARNING, logger="grimoire.web.hub")
    with TestClient(app) as c:
        faults = CommitFaults(app.state.hub.store.engine)
        g = create_game(c, [{"agent": "random"}] * 2, options={"max_rounds": 1})
        # the next commits that store an action fail: the AI seat's moves (with PostgreSQL the processes'
        # housekeeping — taking AI moves, heartbeats — commits too, unharmed here)
        faults.arm(times=3, only_actions=True)
        v = wait_for(lambda: (x := c.get(f"/api/games/{g['id']}").json())["status"] == "over" and x, timeout=60)
        assert faults.failed == 3 and app.state.hub.ai_retries >= 1
        assert any("could not be stored; retrying" in r.getMessage() for r in caplog.records)
        final_log = [e["text"] for e in v["log"]]
    assert _stored_actions(db_url, g["id"]) == final_log


def test_many_games_failing_in_one_group_commit_all_get_503(db_url, app):
    """A batch holding several games' actions fails as a whole; each client is told, the writer lives."""
    with TestClient(app) as c:
        gs = [create_game(c, HUMAN3, seed=40 + i) for i in range(6)]
        moves = [(g["id"], *_decide(c, g["id"], tokens_of(g))) for g in gs]
        faults = CommitFaults(app.state.hub.store.engine)
        faults.arm()
        with concurrent.futures.ThreadPoolExecutor(6) as pool:
            answers = list(pool.map(lambda m: _act(c, *m), moves))
        for r in answers:
            _assert_503(r)
        faults.disarm()
        assert all(c.get(f"/api/games/{g['id']}").json()["seq"] == 0 for g in gs)
        for m in moves:
            assert _act(c, *m).status_code == 200


def test_the_writer_answers_each_job_once_and_survives_any_failure(db_url):
    """The writer itself: a job is resolved after its transaction ends, with the commit's outcome; a
    job that raises a bug's exception fails alone; the thread lives on."""
    store = Store(db_url)
    try:
        faults = CommitFaults(store.engine)
        w: _Writer = store.writer
        faults.arm(times=1)
        fut = w.submit(lambda conn: "stored?")
        with pytest.raises(StorageError):
            fut.result(timeout=30)
        assert w.is_alive()

        def bug(conn):
            raise KeyError("a bug in a job")
        bad, good = w.submit(bug), w.submit(lambda conn: 42)
        with pytest.raises(StorageError):
            bad.result(timeout=30)
        assert good.result(timeout=30) == 42 and w.is_alive()
        assert store.heartbeat().result(timeout=30) is None
    finally:
        store.close()
