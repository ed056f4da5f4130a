"""What one client may cost the server, in-process: bounded send queues (closed on overflow), one
pending resync, message rate limits, game-creation and AI-only-game limits, games kept in memory, and
fair scheduling of AI moves across games."""

from __future__ import annotations

import asyncio
import time

import pytest
from fastapi.testclient import TestClient

import grimoire
from grimoire.web.ai import AIRunner
from grimoire.web.app import create_app
from grimoire.web.hub import CLOSE_OVERFLOW, Conn, Limits

from .conftest import create_game
from .test_api import HUMAN3, recv


def test_a_connection_that_does_not_read_is_closed_when_its_queue_is_full():
    async def scenario():
        blocked = asyncio.Event()            # the socket's send never completes: the client does not read
        sent: list[str] = []

        async def send_text(text):
            sent.append(text)
            await blocked.wait()
        closed: list[int] = []
        conn = Conn(send_text, seat=None, max_bytes=10_000, on_close=closed.append)
        conn.start()
        for i in range(1000):                # 1000 state messages of 1 KB
            conn.push("x" * 1000 + str(i))
            await asyncio.sleep(0)
        await conn.stop()
        return conn, sent, closed
    conn, sent, closed = asyncio.run(scenario())
    assert closed == [CLOSE_OVERFLOW]        # closed once (the browser reconnects), not left open and silent
    assert conn.overflowed and conn.closed and len(sent) == 1
    assert conn.peak_bytes <= 10_000 + 1004 and conn.queued_bytes == 0


def test_a_flood_of_syncs_costs_one_pending_view():
    async def scenario():
        gate = asyncio.Event()
        built = []

        async def send_text(text):
            await gate.wait()
        conn = Conn(send_text, seat=None, max_bytes=10_000)
        conn.build_sync = lambda: built.append(1) or "welcome"
        conn.start()
        accepted = sum(conn.request_sync() for _ in range(5000))
        await asyncio.sleep(0.01)            # the pump takes the first sync and blocks on sending it
        accepted += sum(conn.request_sync() for _ in range(5000))
        gate.set()
        await asyncio.sleep(0.01)
        await conn.stop()
        return accepted, built
    accepted, built = asyncio.run(scenario())
    assert accepted == 2 and len(built) == 2     # 10,000 requests, two views built


def test_messages_beyond_the_rate_are_held_back_with_a_notice(db_url):
    """Over its rate a connection's next message is read later (TCP holds the rest back), so a flood
    costs the server nothing; the client is told once a second."""
    limits = Limits(messages_per_second=5, message_burst=10)
    with TestClient(create_app(db_url, ai_delay=0, limits=limits)) as c:
        g = create_game(c, HUMAN3)
        with c.websocket_connect(f"/ws/games/{g['id']}") as ws:
            ws.send_json({"type": "join", "token": None})
            recv(ws, "welcome")
            t0 = time.monotonic()
            for i in range(60):
                ws.send_json({"type": "ping", "id": i})
            pongs, notices = [], 0
            while len(pongs) < 15:
                m = ws.receive_json()
                if m["type"] == "pong":
                    pongs.append(m["id"])
                elif m.get("code") == "rate_limited":
                    notices += 1
            elapsed = time.monotonic() - t0
    assert pongs == list(range(15))             # in order, none lost
    # 15 answers need the burst of 10 and 5 more at 5 a second: at least a second, however fast this machine
    assert elapsed >= (15 - 10 - 1) / 5
    assert notices >= 1


def test_games_per_client_are_limited(db_url):
    limits = Limits(games_per_client_hour=3, games_burst=3)
    with TestClient(create_app(db_url, ai_delay=0, limits=limits)) as c:
        for _ in range(3):
            create_game(c, HUMAN3)
        r = c.post("/api/games", json={"game": "zavandor", "seats": HUMAN3})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_games"
        assert int(r.headers["retry-after"]) > 0
        # a bad request does not use up the allowance
        assert c.post("/api/games", json={"game": "chess", "seats": HUMAN3}).status_code == 400


def test_games_without_a_human_are_limited_per_client(db_url, monkeypatch):
    """The cap on running games without a human seat counts per client address (before: server-wide, so two
    addresses filled it for everybody); another address, and a game with a human, are still welcome."""
    from sqlalchemy import delete

    from grimoire.web.store import games_t
    limits = Limits(max_ai_only_games_per_client=2, max_ai_only_games=None)
    created = []
    app = create_app(db_url, ai_delay=5, limits=limits)           # AI seats wait: the games stay live
    with TestClient(app) as c:
        try:
            for _ in range(2):
                created.append(create_game(c, [{"agent": "random"}] * 2)["id"])
            r = c.post("/api/games", json={"game": "zavandor", "seats": [{"agent": "random"}] * 2})
            assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_ai_games"
            assert int(r.headers["retry-after"]) > 0
            created.append(create_game(c, [{"agent": "human"}, {"agent": "random"}])["id"])   # a human's is welcome
            monkeypatch.setenv("GRIMOIRE_CLIENT_SALT", "another-client")    # the same requests from elsewhere
            created.append(create_game(c, [{"agent": "random"}] * 2)["id"])     # another client is welcome
        finally:
            engine = app.state.hub.store.engine
    with engine.begin() as conn:                        # leave no AI game for later servers to resume
        conn.execute(delete(games_t).where(games_t.c.id.in_(created)))


def test_games_in_memory_are_bounded(db_url):
    limits = Limits(max_sessions=3)
    with TestClient(create_app(db_url, ai_delay=0, limits=limits)) as c:
        ids = [create_game(c, HUMAN3)["id"] for _ in range(6)]
        assert len(c.app.state.hub.sessions) == 3
        for gid in ids:                                  # every game is still there, loaded again
            assert c.get(f"/api/games/{gid}").json()["seq"] == 0
        assert len(c.app.state.hub.sessions) == 3


def test_one_games_hard_moves_cannot_starve_another_games_medium_move():
    """Weighted fair queueing: with one worker busy and ten games' hard moves waiting, a medium move of
    another game runs next (first-come-first-served ran it after all ten)."""
    async def scenario():
        runner = AIRunner(workers=1)
        runner._cost = {"hard": 2.0, "medium": 0.05}         # as measured on earlier moves
        loop = asyncio.get_running_loop()
        running: list[asyncio.Future] = []

        def fake_submit(args):
            f = loop.create_future()
            running.append(f)
            return f
        runner._submit = fake_submit
        state = grimoire.new_game("zavandor", 3, 1)
        hard = [asyncio.create_task(runner.choose(state, "hard", 0, 1, key=f"hard-{i}")) for i in range(10)]
        await asyncio.sleep(0)
        medium = asyncio.create_task(runner.choose(state, "medium", 0, 1, key="medium-game"))
        await asyncio.sleep(0)
        order = []
        while len(order) < 11:
            order.append(runner.dispatched[len(order)][0])
            running[len(order) - 1].set_result("end")
            await asyncio.sleep(0)
        await asyncio.gather(*hard, medium)
        return order
    order = asyncio.run(scenario())
    assert order[0] == "hard-0" and order[1] == "medium-game"
    assert sorted(order[2:]) == sorted(f"hard-{i}" for i in range(1, 10))


@pytest.mark.parametrize("size", [70_000, 10_000_000])
def test_a_body_over_the_limit_is_refused_before_it_is_read(client, size):
    r = client.post("/api/games", content=b"x" * size, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"

    def chunks():                            # no Content-Length: read as a stream, stopped at the limit
        for _ in range(size // 10_000):
            yield b"x" * 10_000
    r = client.post("/api/games", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413
