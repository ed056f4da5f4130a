"""A real server process (``grimoire serve`` in a subprocess): concurrent submissions for one
decision apply exactly once, and SIGKILL during play loses no accepted action."""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time

import httpx
import pytest
from websockets.sync.client import connect

from .conftest import ServerProcess, _backends, auth, backend_url, create_game

pytestmark = pytest.mark.xdist_group("server_process")      # one test process: the file's servers are shared


@pytest.fixture(scope="module", params=list(_backends()))
def shared_server(request, tmp_path_factory):
    """One server process per backend for the whole file: each test plays games of its own, and starting a
    server for every test cost CI time."""
    folder = tmp_path_factory.mktemp(f"server-{request.param}")
    srv = ServerProcess(backend_url(request.param, folder), folder / "server.log",
                        env={"GRIMOIRE_CLIENT_SALT": os.urandom(8).hex()})
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def server(shared_server):
    """The shared server, started again if a test before left it dead (the SIGKILL test kills it)."""
    if not shared_server.alive():
        shared_server.start()
    return shared_server


def get(base, gid, token=None):
    r = httpx.get(f"{base}/api/games/{gid}", headers=auth(token), timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def race(base, gid, token, seq, actions):
    """Send every action at the same moment (same sequence number); return the responses."""
    barrier = threading.Barrier(len(actions))
    out = [None] * len(actions)

    def go(i, text):
        with httpx.Client(timeout=10) as c:
            barrier.wait()
            out[i] = c.post(f"{base}/api/games/{gid}/actions", headers=auth(token), json={"seq": seq, "action": text})

    threads = [threading.Thread(target=go, args=(i, a)) for i, a in enumerate(actions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def test_simultaneous_submissions_for_one_decision_apply_once(server):
    base = server.base
    g = create_game(base, [{"agent": "human"}, {"agent": "human"}], seed=99)
    toks = {s["seat"]: s["token"] for s in g["seats"]}
    for _round in range(12):
        v = get(base, g["id"])
        cp = v["obs"]["current_player"]
        legal = get(base, g["id"], toks[cp])["obs"]["legal_actions"]
        choices = (legal * 8)[:8]                      # 8 clients, same decision, maybe different actions
        res = race(base, g["id"], toks[cp], v["seq"], choices)
        ok = [r for r in res if r.status_code == 200]
        assert len(ok) == 1, [r.text for r in res]
        assert all(r.status_code == 409 and r.json()["error"]["code"] == "stale" for r in res if r.status_code != 200)
        after = get(base, g["id"])
        assert after["seq"] == v["seq"] + 1
        assert [e["seq"] for e in after["log"]] == list(range(1, after["seq"] + 1))
        assert after["log"][-1]["text"] == ok[0].json()["action"]


def test_simultaneous_websocket_submissions_apply_once(server):
    base = server.base
    ws_base = base.replace("http", "ws")
    g = create_game(base, [{"agent": "human"}, {"agent": "human"}], seed=7)
    toks = {s["seat"]: s["token"] for s in g["seats"]}
    v = get(base, g["id"])
    cp = v["obs"]["current_player"]
    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(connect(f"{ws_base}/ws/games/{g['id']}")) for _ in range(4)]
        for s in socks:
            s.send(json.dumps({"type": "join", "token": toks[cp]}))
        for s in socks:
            assert json.loads(s.recv(timeout=10))["type"] == "welcome"
        for i, s in enumerate(socks):
            s.send(json.dumps({"type": "act", "id": f"r{i}", "seq": v["seq"], "action": "buy opal"}))
        results = []
        for s in socks:
            while True:
                m = json.loads(s.recv(timeout=10))
                if m["type"] in ("ack", "error"):
                    results.append(m)
                    break
        assert sum(m["type"] == "ack" for m in results) == 1, results
        assert all(m["code"] == "stale" for m in results if m["type"] == "error")
    assert [e["text"] for e in get(base, g["id"])["log"]] == ["buy opal"]


def test_sigkill_during_play_loses_no_accepted_action(server):
    base = server.base
    # a human game: every 200 answer is an accepted action
    g = create_game(base, [{"agent": "human"}, {"agent": "human"}, {"agent": "human"}], seed=5)
    toks = {s["seat"]: s["token"] for s in g["seats"]}
    accepted = []
    for _ in range(16):                  # accepted actions to find again after the kill (40 cost CI time)
        v = get(base, g["id"])
        cp = v["obs"]["current_player"]
        legal = get(base, g["id"], toks[cp])["obs"]["legal_actions"]
        text = legal[len(accepted) % len(legal)]
        r = httpx.post(f"{base}/api/games/{g['id']}/actions", headers=auth(toks[cp]),
                       json={"seq": v["seq"], "action": text}, timeout=10)
        assert r.status_code == 200, r.text
        accepted.append(r.json()["action"])
    # an AI game running flat out: every broadcast state is an accepted action
    ai = create_game(base, [{"agent": "random"}] * 3)
    seen: list[dict] = []
    with connect(f"{base.replace('http', 'ws')}/ws/games/{ai['id']}") as ws:
        ws.send(json.dumps({"type": "join", "token": None}))
        deadline = time.monotonic() + 30
        while len(seen) < 60 and time.monotonic() < deadline:
            m = json.loads(ws.recv(timeout=10))
            if m["type"] in ("welcome", "state"):
                for e in m["log"]:
                    if not seen or e["seq"] > seen[-1]["seq"]:
                        seen.append(e)
        # one more action may be half-done right now: kill in the middle of play
        server.kill()
    assert len(seen) >= 60
    server.start()
    v = get(base, g["id"])
    assert [e["text"] for e in v["log"]] == accepted and v["seq"] == len(accepted)
    after = get(base, ai["id"])
    assert after["seq"] >= seen[-1]["seq"]
    assert after["log"][:len(seen)] == seen
    # the AI seats carry on by themselves after the restart
    deadline = time.monotonic() + 20
    while get(base, ai["id"])["seq"] <= after["seq"] and get(base, ai["id"])["status"] != "over":
        assert time.monotonic() < deadline, "the AI game did not resume after the restart"
        time.sleep(0.05)
    # and the human game goes on from where it was
    cp = v["obs"]["current_player"]
    legal = get(base, g["id"], toks[cp])["obs"]["legal_actions"]
    r = httpx.post(f"{base}/api/games/{g['id']}/actions", headers=auth(toks[cp]),
                   json={"seq": v["seq"], "action": legal[0]}, timeout=10)
    assert r.status_code == 200, r.text
