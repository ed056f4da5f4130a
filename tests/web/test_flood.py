"""Floods against a real server process (loopback only, bounded in count and time): a normal game
keeps its pace while a spectator floods ``sync`` on a long finished game and twenty clients ask for
views they never read; the server's memory stays within a stated bound; oversized bodies are refused
before they are read; a reader that falls behind is disconnected (and reconnects to a fresh view).

The pace is compared as the median round trip of a normal game's actions (act -> ack over its
WebSocket), measured without and with the floods in alternating blocks, so that the load of a shared
machine falls on both sides. A real regression (the floods stalled every request for seconds) fails
every attempt; the test allows three before it fails.
"""

from __future__ import annotations

import contextlib
import json
import socket
import statistics
import threading
import time

import grimoire
from grimoire.agents import make_agent
from grimoire.web.store import Store, actions_t, games_t, now, seats_t, snapshots_t

from .conftest import create_game
from .test_api import HUMAN3

MEMORY_BOUND_MB = 100          # what the floods below may add to the server's resident memory
FLOOD_CLIENTS = 20


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def insert_finished_game(db_url: str, gid: str, rounds: int = 400) -> int:
    """A long finished AI game (about 1,200 actions, a log of ~65 KB) written straight to the database."""
    state = grimoire.new_game("zavandor", 3, 4, max_rounds=rounds)
    agents = [make_agent("zavandor", "random", i) for i in range(3)]
    rows = []
    while not state.is_terminal():
        seat = state.current_player
        rows.append((seat, str(agents[seat].choose(state, seat))))
        state.apply(rows[-1][1])
    store = Store(db_url)
    t = now()
    try:
        with store.engine.begin() as conn:
            conn.execute(games_t.insert(), {"id": gid, "game": "zavandor", "players": 3, "seed": 4,
                                            "options": dict(state.options), "status": "over", "seq": len(rows),
                                            "current_player": None, "ai_turn": False, "created_at": t, "updated_at": t})
            conn.execute(seats_t.insert(), [{"game_id": gid, "seat": i, "agent": "random", "name": f"AI {i}",
                                             "token_hash": None} for i in range(3)])
            conn.execute(actions_t.insert(), [{"game_id": gid, "seq": i + 1, "seat": seat, "text": text, "round": None,
                                               "created_at": t} for i, (seat, text) in enumerate(rows)])
            conn.execute(snapshots_t.insert(), {"game_id": gid, "seq": len(rows), "state": state.to_dict(),
                                                "created_at": t})
    finally:
        store.close()
    return len(rows)


class Player:
    """A normal two-seat game played over WebSockets; ``play(n)`` returns n round trips (seconds)."""

    def __init__(self, base: str):
        from websockets.sync.client import connect
        g = create_game(base, HUMAN3[:2])
        self.ws = {}
        for s in g["seats"]:
            ws = connect(f"{base.replace('http', 'ws')}/ws/games/{g['id']}", legacy=True)
            ws.send(json.dumps({"type": "join", "token": s["token"]}))
            self.ws[s["seat"]] = ws
        self.view = {seat: self._next(ws, "welcome") for seat, ws in self.ws.items()}
        self.n = 0

    @staticmethod
    def _next(ws, *types):
        while True:
            m = json.loads(ws.recv(timeout=30))
            if m["type"] in types:
                return m

    def play(self, n: int) -> list[float]:
        out = []
        for _ in range(n):
            seat = next(s for s, v in self.view.items() if v["obs"]["legal_actions"])
            v = self.view[seat]
            legal = v["obs"]["legal_actions"]
            action = next((a for a in legal if a.startswith("buy")), legal[0])
            self.n += 1
            t0 = time.perf_counter()
            self.ws[seat].send(json.dumps({"type": "act", "id": str(self.n), "seq": v["seq"], "action": action}))
            got = {}
            while "ack" not in got:                     # the actor's new state comes before its ack
                m = self._next(self.ws[seat], "ack", "error", "state")
                assert m["type"] != "error", m
                got[m["type"]] = m
            out.append(time.perf_counter() - t0)
            for s, ws in self.ws.items():
                self.view[s] = got["state"] if s == seat and "state" in got else self._next(ws, "state")
        return out

    def close(self):
        for ws in self.ws.values():
            ws.close()


def raw_websocket(port: int, path: str) -> socket.socket:
    """A WebSocket opened by hand that will never be read from (a client library reads in the
    background; a stuck browser tab or a hostile client does not)."""
    import base64
    import os
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def send_frame(s: socket.socket, text: str) -> None:
    """One masked text frame (clients must mask)."""
    import os
    data = text.encode()
    mask = os.urandom(4)
    n = len(data)
    header = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big"))
    s.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


FLOOD_UNDER_WAY = 60          # syncs sent (three bursts) before the measured moves begin


class Floods:
    """A spectator sending ``sync`` as fast as the server reads them (and reading the answers), and
    FLOOD_CLIENTS clients that ask for views and never read, all on one long finished game."""

    def __init__(self, base: str, port: int, gid: str):
        self.url = f"{base.replace('http', 'ws')}/ws/games/{gid}"
        self.port, self.path = port, f"/ws/games/{gid}"
        self.stop = threading.Event()
        self.syncs_sent = 0
        self.received = 0
        self.rate_notices = 0
        self.sleepers: list[socket.socket] = []
        self.thread = threading.Thread(target=self._flood, daemon=True)

    def __enter__(self):
        for _ in range(FLOOD_CLIENTS):                # join, ask for 50 views, never read
            s = raw_websocket(self.port, self.path)
            send_frame(s, json.dumps({"type": "join", "token": None}))
            for _ in range(50):
                send_frame(s, '{"type":"sync"}')
            self.sleepers.append(s)
        self.thread.start()
        # the game is measured under a flood that is under way: on a loaded machine the flooder's thread
        # may otherwise send its first burst only when the measured moves are over
        deadline = time.monotonic() + 20
        while self.syncs_sent < FLOOD_UNDER_WAY and self.thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.005)
        return self

    def _flood(self):
        from websockets.sync.client import connect
        with connect(self.url, max_size=None) as ws:
            ws.send(json.dumps({"type": "join", "token": None}))
            while not self.stop.is_set():
                for _ in range(20):
                    ws.send('{"type":"sync"}')
                    self.syncs_sent += 1
                until = time.monotonic() + 0.02         # then read what came, for 20 ms at most
                with contextlib.suppress(TimeoutError):
                    while (left := until - time.monotonic()) > 0:
                        m = ws.recv(timeout=left)
                        self.received += 1
                        self.rate_notices += '"rate_limited"' in m[:200]

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=30)
        for s in self.sleepers:
            s.close()


def test_a_normal_game_keeps_its_pace_and_memory_stays_bounded_under_floods(server, db_url):
    long_id = "longfinishedgame1" + str(time.time_ns())[-8:]
    n_actions = insert_finished_game(db_url, long_id)
    pid = server.proc.pid
    player = Player(server.base)
    player.play(5)                                   # warm up
    rss0 = rss_mb(pid)
    attempts = []
    sent = notices = 0
    try:
        for _attempt in range(3):
            base, flood = [], []
            for _block in range(2):
                with Floods(server.base, server.port, long_id) as floods:
                    flood += player.play(15)
                    peak = rss_mb(pid)
                sent, notices = sent + floods.syncs_sent, notices + floods.rate_notices
                base += player.play(15)
            attempts.append((statistics.median(base), statistics.median(flood), peak - rss0))
            if attempts[-1][1] <= 2 * attempts[-1][0]:
                break
    finally:
        player.close()
    baseline, flooded, grew = attempts[-1]
    # the flood happened: more syncs than a connection's burst, and the server said it was over its rate
    assert sent > 40 and notices > 0, f"the flood did not happen ({sent} syncs, {notices} notices)"
    print(f"round trips (baseline s, flooded s, memory MB): {attempts}; {sent} syncs sent by the flooder")
    assert n_actions > 1000
    assert flooded <= 2 * baseline, f"a normal game's median round trip went {baseline * 1000:.1f} -> " \
                                    f"{flooded * 1000:.1f} ms under the floods (attempts: {attempts})"
    assert max(a[2] for a in attempts) <= MEMORY_BOUND_MB, f"the server grew by {grew:.0f} MB"


def test_bodies_over_the_limit_are_refused_before_they_are_read(server):
    pid = server.proc.pid
    rss0 = rss_mb(pid)
    host, port = "127.0.0.1", server.port
    # a declared 300 MB body: refused on its header
    with socket.create_connection((host, port), timeout=10) as s:
        s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 314572800\r\n\r\n" + b"x" * 65536)
        answer = b""
        while b'"too_large"' not in answer:
            more = s.recv(65536)
            if not more:
                break
            answer += more
    assert answer.startswith(b"HTTP/1.1 413") and b'"too_large"' in answer
    # a chunked body without a length: read until it passes the limit, then refused
    sent = 0
    with socket.create_connection((host, port), timeout=10) as s:
        s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b"10000\r\n" + b"x" * 65536 + b"\r\n"
        answer = b""
        s.settimeout(0.05)
        with contextlib.suppress(OSError):
            while sent < 300 * 2**20 and not answer:
                s.sendall(chunk)
                sent += 65536
                with contextlib.suppress(TimeoutError):
                    answer = s.recv(65536)
        s.settimeout(10)
        with contextlib.suppress(OSError):
            answer = answer or s.recv(65536)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert sent < 64 * 2**20, f"the server read {sent >> 20} MB before refusing"
    assert rss_mb(pid) - rss0 < 50


def test_a_reader_that_falls_behind_is_closed_and_reconnects(db_url):
    """The send queue is bounded in bytes: a connection whose unsent messages pass it is closed with
    4008 (the browser reconnects on any code but 4401/4404) instead of staying open and silent."""
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from grimoire.web.app import create_app
    from grimoire.web.hub import CLOSE_OVERFLOW, Limits

    from .conftest import auth
    from .test_api import recv
    app = create_app(db_url, ai_delay=0, limits=Limits(queue_bytes=500))   # a state message is larger
    with TestClient(app) as c:
        g = create_game(c, HUMAN3)
        toks = {s["seat"]: s["token"] for s in g["seats"]}
        with c.websocket_connect(f"/ws/games/{g['id']}") as ws:
            ws.send_json({"type": "join", "token": None})
            recv(ws, "welcome")
            cp = c.get(f"/api/games/{g['id']}").json()["obs"]["current_player"]
            legal = c.get(f"/api/games/{g['id']}", headers=auth(toks[cp])).json()["obs"]["legal_actions"]
            assert c.post(f"/api/games/{g['id']}/actions", headers=auth(toks[cp]),
                          json={"seq": 0, "action": legal[0]}).status_code == 200
            code = None
            try:
                while True:
                    ws.receive_json()
            except WebSocketDisconnect as e:
                code = e.code
        assert code == CLOSE_OVERFLOW
        with c.websocket_connect(f"/ws/games/{g['id']}") as ws:      # reconnecting gives the current view
            ws.send_json({"type": "join", "token": None})
            assert recv(ws, "welcome")["seq"] == 1
