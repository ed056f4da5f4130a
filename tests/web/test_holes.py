"""The holes a reliability probe found, each with the case that failed before: per-client WebSocket
caps, cross-site requests, limits checked before a game is built, creation bursts under a small hourly
limit, invisible characters in names, reviews that rebuilt games on the event loop for any seat and
without a rate, unreadable timestamps that broke the listing, preset dice only one seat knew, and
PostgreSQL that stayed read-only after the database allowed writes again."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text as sql_text
from starlette.websockets import WebSocketDisconnect

import grimoire.web.hub as hub_module
from grimoire.web.app import create_app
from grimoire.web.hub import Limits

from .conftest import auth, create_game
from .test_api import HUMAN3, recv, tokens_of, wait_for


def test_one_client_cannot_take_every_websocket(db_url, monkeypatch):
    limits = Limits(max_connections_per_client=3)
    with TestClient(create_app(db_url, ai_delay=0, limits=limits)) as c:
        games = [create_game(c, HUMAN3)["id"] for _ in range(4)]
        opened = []
        try:
            for gid in games[:3]:                       # three spectator sockets on three games
                ws = c.websocket_connect(f"/ws/games/{gid}").__enter__()
                opened.append(ws)
                ws.send_json({"type": "join", "token": None})
                recv(ws, "welcome")
            with c.websocket_connect(f"/ws/games/{games[3]}") as ws:
                ws.send_json({"type": "join", "token": None})
                err = ws.receive_json()
                assert err["type"] == "error" and err["code"] == "too_many_connections"
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == 4429
            monkeypatch.setenv("GRIMOIRE_CLIENT_SALT", "another-client")     # someone else still gets in
            with c.websocket_connect(f"/ws/games/{games[3]}") as ws:
                ws.send_json({"type": "join", "token": None})
                assert recv(ws, "welcome")["seq"] == 0
        finally:
            for ws in opened:
                ws.__exit__(None, None, None)


def test_cross_site_requests_are_refused(client):
    body = b'{"game": "zavandor", "seats": [{"agent": "human"}, {"agent": "human"}]}'
    # a form or a no-cors fetch from another site can send text/plain without a preflight
    r = client.post("/api/games", content=body, headers={"Content-Type": "text/plain", "Origin": "https://evil.example"})
    assert r.status_code in (403, 415), r.text
    r = client.post("/api/games", content=body, headers={"Content-Type": "text/plain"})
    assert r.status_code == 415 and r.json()["error"]["code"] == "unsupported_media_type"
    r = client.post("/api/games", content=body, headers={"Content-Type": "application/json",
                                                          "Origin": "https://evil.example"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "cross_origin"
    assert "content-security-policy" in r.headers                      # the error has the security headers
    # this site's own pages (the Origin names the host the request went to) and non-browser clients are fine
    r = client.post("/api/games", content=body, headers={"Content-Type": "application/json",
                                                          "Origin": "http://testserver"})
    assert r.status_code == 201, r.text
    assert client.post("/api/games", content=body, headers={"Content-Type": "application/json"}).status_code == 201
    gid = r.json()["id"]
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            f"/ws/games/{gid}", headers={"Origin": "https://evil.example"}) as ws:
        ws.receive_json()
    with client.websocket_connect(f"/ws/games/{gid}", headers={"Origin": "http://testserver"}) as ws:
        ws.send_json({"type": "join", "token": None})
        assert recv(ws, "welcome")["seq"] == 0


def test_a_small_hourly_limit_has_a_small_burst(db_url):
    with TestClient(create_app(db_url, ai_delay=0, limits=Limits(games_per_client_hour=5))) as c:
        for _ in range(5):
            create_game(c, HUMAN3)
        r = c.post("/api/games", json={"game": "zavandor", "seats": HUMAN3})      # before: 30 at once
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_games"
        wait = int(r.headers["retry-after"])
        assert wait > 60 and r.json()["error"]["retry_after"] == wait      # one game every 12 minutes


def test_refused_creations_are_not_built(own_db_url, monkeypatch):
    built = []
    real = hub_module.new_game
    monkeypatch.setattr(hub_module, "new_game", lambda *a, **k: built.append(a) or real(*a, **k))
    limits = Limits(games_per_client_hour=1, max_ai_only_games_per_client=0)
    with TestClient(create_app(own_db_url, ai_delay=0, limits=limits)) as c:
        r = c.post("/api/games", json={"game": "zavandor", "seats": [{"agent": "random"}] * 2})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_ai_games"
        assert built == []
        create_game(c, HUMAN3)
        assert len(built) == 1
        r = c.post("/api/games", json={"game": "zavandor", "seats": HUMAN3})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_games"
        assert len(built) == 1                                              # refused before it was built
        r = c.post("/api/games", json={"game": "zavandor", "seats": HUMAN3, "options": {"no_such": 1}})
        assert r.status_code == 400                                         # bad options: no allowance used
        assert len(built) == 1


@pytest.mark.parametrize("name", ["\u202eevil", "a\u200bb", "tag\U000e0041", "\u2066x", "priv\ue000"])
def test_names_with_invisible_or_bidirectional_characters_are_refused(client, name):
    r = client.post("/api/games", json={"game": "zavandor", "seats": [{"agent": "human", "name": name}] * 2})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_seats", r.text


def test_names_are_stored_in_normal_form_c(client):
    g = create_game(client, [{"agent": "human", "name": "Re\u0301ka"}, {"agent": "human", "name": "Bo"}])
    assert g["seats"][0]["name"] == "R\u00e9ka"
    assert client.get(f"/api/games/{g['id']}").json()["seats"][0]["name"] == "R\u00e9ka"


def _finished_game(c) -> str:
    g = create_game(c, [{"agent": "random"}], game="zauberschmiede")
    wait_for(lambda: c.get(f"/api/games/{g['id']}").json()["status"] == "over", timeout=60)
    return g["id"]


def test_a_review_checks_the_seat_and_the_rate_before_rebuilding_the_game(db_url, monkeypatch):
    import grimoire.web.review as review_module
    rebuilt = []
    limits = Limits(reviews_per_client_minute=0.5)          # one at once, the next after two minutes
    with TestClient(create_app(db_url, ai_delay=0, limits=limits)) as c:
        gid = _finished_game(c)
        with monkeypatch.context() as m:
            m.setattr(review_module, "make_record", lambda *a, **k: rebuilt.append(1) or {})
            for seat in (99, -1, "0", None, True):
                r = c.post(f"/api/games/{gid}/review", json={"seat": seat})
                assert r.status_code == 400 and r.json()["error"]["code"] == "bad_seat", r.text
            assert rebuilt == []                  # before: the whole game was rebuilt, then the seat refused
            r = c.post(f"/api/games/{gid}/review", content=b'{"seat": 0, "pad": "' + b"x" * 70_000 + b'"}',
                       headers={"Content-Type": "application/json"})
            assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
        assert c.post(f"/api/games/{gid}/review", json={"seat": 0}).status_code == 202
        assert c.post(f"/api/games/{gid}/review", json={"seat": 0}).status_code == 202   # the same one: free
        c.app.state.lookback.jobs.clear()         # as if it had been evicted: starting it again counts
        r = c.post(f"/api/games/{gid}/review", json={"seat": 0})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_reviews"
        assert int(r.headers["retry-after"]) >= 1


def test_an_unreadable_timestamp_does_not_break_the_listing(db_url):
    app = create_app(db_url, ai_delay=0)
    with TestClient(app) as c:
        good = create_game(c, HUMAN3)["id"]
        bad = [create_game(c, HUMAN3)["id"] for _ in range(2)]
        engine = app.state.hub.store.engine
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            values = ["garbage", "20000-01-01 00:00:00"]
            for gid, v in zip(bad, values, strict=True):
                conn.execute(sql_text("UPDATE games SET updated_at = :v, public_at = :v, created_at = :v "
                                      "WHERE id = :g"), {"v": v, "g": gid})
        else:
            conn.execute(sql_text("UPDATE games SET updated_at = 'infinity', public_at = 'infinity', "
                                  "created_at = 'infinity' WHERE id = :g"), {"g": bad[0]})
            conn.execute(sql_text("UPDATE games SET updated_at = '20000-01-01', public_at = '20000-01-01', "
                                  "created_at = '20000-01-01' WHERE id = :g"), {"g": bad[1]})
    with TestClient(create_app(db_url, ai_delay=0)) as c:
        r = c.get("/api/games?limit=100")
        assert r.status_code == 200, r.text
        listed = {x["id"] for x in r.json()["games"]}
        assert good in listed and not listed & set(bad)
        r = c.get(f"/api/games?ids={good},{bad[0]},{bad[1]}")
        assert r.status_code == 200 and [x["id"] for x in r.json()["games"]] == [good]
        for gid in bad:
            r = c.get(f"/api/games/{gid}")
            assert r.status_code == 500 and r.json()["error"]["code"] == "corrupt_game", r.text
        assert c.get(f"/api/games/{good}").status_code == 200


def test_preset_dice_are_for_practice_games_and_shown_to_every_seat(db_url):
    dice = [3, 7, 1, 10, 2]
    with TestClient(create_app(db_url, ai_delay=0)) as c:
        seats = [{"agent": "human"}, {"agent": "human"}]
        r = c.post("/api/games", json={"game": "shuluri", "seats": seats, "options": {"dice": dice}})
        assert r.status_code == 400 and r.json()["error"]["code"] == "preset_not_allowed"
        g = create_game(c, seats, game="shuluri", options={"dice": dice}, practice=True)
        toks = tokens_of(g)
        for token in (None, toks[0], toks[1]):
            assert c.get(f"/api/games/{g['id']}", headers=auth(token)).json()["preset"] == {"dice": dice}
            with c.websocket_connect(f"/ws/games/{g['id']}") as ws:
                ws.send_json({"type": "join", "token": token})
                assert recv(ws, "welcome")["preset"] == {"dice": dice}
        plain = create_game(c, seats, game="shuluri")
        assert "preset" not in c.get(f"/api/games/{plain['id']}").json()


@pytest.mark.postgresql
def test_postgresql_takes_writes_again_after_a_read_only_period(own_db_url):
    # a database of its own: it turns the database read-only and ends every connection to it, which
    # failed another test that ran at the same time on the shared one (503 instead of its answer)
    if not own_db_url.startswith("postgres"):
        pytest.skip("a PostgreSQL setting")
    app = create_app(own_db_url, ai_delay=0)
    with TestClient(app) as c:
        engine = app.state.hub.store.engine
        dbname = engine.url.database
        g = create_game(c, HUMAN3)
        toks = tokens_of(g)
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as admin:
            admin.execute(sql_text(f'ALTER DATABASE "{dbname}" SET default_transaction_read_only = on'))
            try:
                # the pool's connections are replaced while the database is read-only (a restart, a failover)
                admin.execute(sql_text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                       "WHERE datname = :d AND pid <> pg_backend_pid()"), {"d": dbname})
                r = c.get("/api/health")
                assert r.status_code == 503
            finally:
                admin.execute(sql_text(f'ALTER DATABASE "{dbname}" RESET default_transaction_read_only'))
        # the database takes writes again: so does the server, at once
        assert c.get("/api/health").status_code == 200
        cp = c.get(f"/api/games/{g['id']}").json()["obs"]["current_player"]
        legal = c.get(f"/api/games/{g['id']}", headers=auth(toks[cp])).json()["obs"]["legal_actions"]
        r = c.post(f"/api/games/{g['id']}/actions", headers=auth(toks[cp]), json={"seq": 0, "action": legal[0]})
        assert r.status_code == 200, r.text


def _quiet(ws, timeout=0.3) -> list[dict]:
    """Every message that arrives within ``timeout`` of the last one (TestClient sockets block: a
    sentinel ping marks the end)."""
    ws.send_json({"type": "ping", "id": "end"})
    out = []
    while True:
        m = ws.receive_json()
        if m["type"] == "pong" and m.get("id") == "end":
            return out
        out.append(m)


def test_zauberschmiede_hides_how_many_secret_choices_a_seat_made_and_when(client):
    """Two games on the same roll: seat 0 makes no choice in one, three in the other, then ends its
    round. Seat 1 and a spectator get the same messages, views, logs and listing entry from both (before:
    a `state` broadcast per secret choice, log entries with seat 0's number and a growing `seq`)."""
    seen = {}
    for choices in (0, 3):
        g = create_game(client, [{"agent": "human"}] * 2, game="zauberschmiede", seed=21)
        gid, toks = g["id"], tokens_of(g)
        listed = client.get(f"/api/games?ids={gid}").json()["games"][0]
        with client.websocket_connect(f"/ws/games/{gid}") as w1, client.websocket_connect(f"/ws/games/{gid}") as ws:
            w1.send_json({"type": "join", "token": toks[1]})
            ws.send_json({"type": "join", "token": None})
            recv(w1, "welcome")
            recv(ws, "welcome")
            _quiet(w1)
            _quiet(ws)
            for i in range(choices + 1):
                mine = client.get(f"/api/games/{gid}", headers=auth(toks[0])).json()
                legal = [a for a in mine["obs"]["legal_actions"] if a != "end"]
                text = legal[0] if i < choices else "end"
                r = client.post(f"/api/games/{gid}/actions", headers=auth(toks[0]),
                                json={"seq": mine["seq"], "action": text})
                assert r.status_code == 200, r.text
                assert r.json()["seq"] == i + 1               # seat 0 counts its own actions
            got = {"seat 1 messages": _quiet(w1), "spectator messages": _quiet(ws)}
        for who, token in (("seat 1", toks[1]), ("spectator", None)):
            got[who + " view"] = client.get(f"/api/games/{gid}", headers=auth(token)).json()
            got[who + " log"] = client.get(f"/api/games/{gid}/log", headers=auth(token)).json()
        after = client.get(f"/api/games?ids={gid}").json()["games"][0]
        assert after["updated_at"] == listed["updated_at"]      # the listing's time did not move either
        got["listing"] = after | {"id": None, "updated_at": None}
        seen[choices] = json.loads(json.dumps(got).replace(gid, "GAME"))
    for key in seen[0]:
        assert seen[0][key] == seen[3][key], key
    # seat 0 ended its round: that much is public (its sheet is marked decided), once, for both games
    assert len(seen[3]["seat 1 messages"]) == 1 and seen[3]["seat 1 view"]["seq"] == 0


def test_every_error_the_server_sends_has_a_translated_text_with_the_wait():
    """Error toasts were English in every language and hid Retry-After: every error code of the web
    package has a text in each catalog, and the codes that come with a wait (429, 503) show it."""
    import re
    from pathlib import Path

    import grimoire.web as web
    src = "\n".join(p.read_text() for p in Path(web.__file__).parent.glob("*.py"))
    codes = set(re.findall(r'ApiError\(\s*(\d+),\s*"([a-z_]+)"', src))
    assert len(codes) > 30
    catalogs = {p.stem: json.loads(p.read_text()) for p in (Path(web.__file__).parent / "i18n").glob("*.json")}
    assert set(catalogs) == {"en", "hu", "de", "zh"}
    for status, code in codes:
        for lang, cat in catalogs.items():
            text = cat.get(f"error.{code}")
            assert text, f"{lang}: no text for the error {code}"
            if status in ("429", "503") and code not in ("game_full",):
                assert "{seconds}" in text, f"{lang}: error.{code} does not show the wait"
    common = (Path(web.__file__).parent / "static" / "common.js").read_text()
    assert "Retry-After" in common and "errorText" in (Path(web.__file__).parent / "static" / "play.js").read_text()


def test_a_game_without_a_human_has_a_budget_of_ai_time(db_url):
    """Past its budget of AI computing time, a game without a human seat plays on with `random` (cheap):
    before, a random Zavandor game of hard seats held a slot and a core for ~16 minutes."""
    asked: list[str] = []
    with TestClient(create_app(db_url, ai_delay=30, limits=Limits(ai_only_cpu_seconds=1.0))) as c:
        hub = c.app.state.hub
        g = create_game(c, [{"agent": "hard"}, {"agent": "hard"}])
        s = hub.sessions[g["id"]]

        async def choose(state, name, seat, seed, key=""):
            asked.append(name)
            return str(state.legal_actions()[0])
        hub.ai.choose = choose
        loop_run = c.portal.call
        seat = s.state.current_player
        loop_run(hub.ai_move, s, seat, s.seq)
        s.ai_cpu = 1.5                                  # as if its hard seats had searched for 1.5 s
        loop_run(hub.ai_move, s, seat, s.seq)
        human = create_game(c, [{"agent": "human"}, {"agent": "hard"}])
        h = hub.sessions[human["id"]]
        h.ai_cpu = 1000.0                               # a game with a human has no such budget
        loop_run(hub.ai_move, h, 1, h.seq)
    assert asked == ["hard", "random", "hard"]
