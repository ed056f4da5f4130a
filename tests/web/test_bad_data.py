"""One bad row never stops the server or other games: it is reported and skipped. An empty or foreign
database is refused with one clear line; ids, names and frames that are not what they should be get
a 4xx in the documented format, never a 500 or a traceback."""

from __future__ import annotations

import logging
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, update

from grimoire.web.app import create_app
from grimoire.web.store import NotGrimoireDatabase, Store, games_t, seats_t, snapshots_t

from .conftest import auth, create_game
from .test_api import HUMAN3, recv, tokens_of, wait_for


def _app(db_url):
    return create_app(db_url, ai_delay=0, allow_seeds=True)


def test_a_game_with_a_missing_seat_row_is_skipped_and_the_server_starts(db_url, caplog):
    caplog.set_level(logging.ERROR, logger="grimoire.web.hub")
    with TestClient(_app(db_url)) as c:
        good = create_game(c, HUMAN3, seed=1)
        # a game waiting for its AI seat (resumed at start-up), then damaged: a seat row goes missing
        bad = create_game(c, [{"agent": "human"}, {"agent": "random"}, {"agent": "random"}], seed=2)
        engine = c.app.state.hub.store.engine
    with engine.begin() as conn:
        conn.execute(update(games_t).where(games_t.c.id == bad["id"]).values(ai_turn=True, status="active"))
        conn.execute(delete(seats_t).where(seats_t.c.game_id == bad["id"], seats_t.c.seat == 2))
    app = _app(db_url)
    with TestClient(app) as c:                      # starts although a game waiting for its AI is damaged
        assert c.get(f"/api/games/{good['id']}").json()["seq"] == 0
        r = c.get(f"/api/games/{bad['id']}")
        assert r.status_code == 500 and r.json()["error"]["code"] == "corrupt_game"
        listed = {x["id"] for x in c.get("/api/games?limit=100").json()["games"]}
        assert good["id"] in listed
        with c.websocket_connect(f"/ws/games/{bad['id']}") as ws:
            assert ws.receive_json()["code"] == "corrupt_game"
    assert any(bad["id"] in r.getMessage() and "seat rows" in r.getMessage() for r in caplog.records)


def test_options_that_are_not_an_object_do_not_break_the_listing(db_url):
    with TestClient(_app(db_url)) as c:
        good = create_game(c, HUMAN3, seed=3)
        bad = create_game(c, HUMAN3, seed=4)
        engine = c.app.state.hub.store.engine
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":     # text that is not JSON at all
            conn.exec_driver_sql("UPDATE games SET options = '{not json' WHERE id = ?", (bad["id"],))
        else:                                   # PostgreSQL's json type only holds JSON: a string then
            conn.exec_driver_sql("UPDATE games SET options = '\"text\"' WHERE id = %s", (bad["id"],))
    with TestClient(_app(db_url)) as c:
        r = c.get(f"/api/games?ids={good['id']},{bad['id']}")
        assert r.status_code == 200 and {x["id"] for x in r.json()["games"]} == {good["id"], bad["id"]}
        assert c.get("/api/games").status_code == 200
        r = c.get(f"/api/games/{bad['id']}")
        assert r.status_code == 500 and r.json()["error"]["code"] == "corrupt_game"
        assert c.get(f"/api/games/{good['id']}").status_code == 200


def test_a_damaged_snapshot_is_a_cache_miss(db_url):
    app = _app(db_url)
    with TestClient(app) as c:
        app.state.hub.snapshot_every = 2
        g = create_game(c, HUMAN3, seed=5)
        toks = tokens_of(g)
        for seq in range(4):
            cp = c.get(f"/api/games/{g['id']}").json()["obs"]["current_player"]
            legal = c.get(f"/api/games/{g['id']}", headers=auth(toks[cp])).json()["obs"]["legal_actions"]
            assert c.post(f"/api/games/{g['id']}/actions", headers=auth(toks[cp]),
                          json={"seq": seq, "action": legal[0]}).status_code == 200
        expected = c.get(f"/api/games/{g['id']}").json()
        engine = app.state.hub.store.engine
    with engine.begin() as conn:
        conn.execute(update(snapshots_t).where(snapshots_t.c.game_id == g["id"]).values(state={"game": "nonsense"}))
    with TestClient(_app(db_url)) as c:
        assert c.get(f"/api/games/{g['id']}").json() == expected


@pytest.mark.parametrize("name", ["Ann\x00", "tab\there", "line\nbreak", "\u2028", "bell\x07"])
def test_names_with_control_characters_are_refused(client, name):
    r = client.post("/api/games", json={"game": "zavandor", "seats": [{"agent": "human", "name": name}] * 2})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_seats"


@pytest.mark.parametrize("gid", ["abc\x00def", "x" * 41, "a b", "../etc", "é"])
def test_odd_game_ids_are_unknown_games(client, gid):
    from urllib.parse import quote
    for path in ("", "/log", "/record", "/rules"):
        r = client.get(f"/api/games/{quote(gid, safe='')}{path}")
        assert r.status_code == 404 and r.json()["error"]["code"] in ("unknown_game", "not_found"), (path, r.text)
    r = client.get(f"/api/games?ids={quote(gid, safe='')}")
    assert r.status_code == 200 and r.json() == {"games": []}


def test_control_characters_in_an_action_are_refused(client):
    g = create_game(client, HUMAN3, seed=6)
    toks = tokens_of(g)
    cp = client.get(f"/api/games/{g['id']}").json()["obs"]["current_player"]
    r = client.post(f"/api/games/{g['id']}/actions", headers=auth(toks[cp]), json={"seq": 0, "action": "buy\x00opal"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_action"


def test_binary_frames_get_an_error_and_the_connection_stays(client):
    g = create_game(client, HUMAN3, seed=7)
    with client.websocket_connect(f"/ws/games/{g['id']}") as ws:
        ws.send_bytes(b'{"type": "join", "token": null}')
        err = ws.receive_json()
        assert err["type"] == "error" and err["code"] == "bad_request" and "JSON text" in err["message"]
    with client.websocket_connect(f"/ws/games/{g['id']}") as ws:
        ws.send_json({"type": "join", "token": None})
        assert recv(ws, "welcome")["seq"] == 0
        ws.send_bytes(b"\x00\xff binary")
        err = recv(ws, "error")
        assert err["status"] == 400 and "binary" in err["message"]
        ws.send_json({"type": "ping", "id": 1})
        assert recv(ws, "pong")["id"] == 1


def test_an_empty_database_file_is_refused(tmp_path):
    path = tmp_path / "grimoire.db"
    path.write_bytes(b"")
    with pytest.raises(NotGrimoireDatabase, match="empty"):
        Store(f"sqlite:///{path}")
    assert path.stat().st_size == 0                 # untouched
    r = subprocess.run([sys.executable, "-m", "grimoire", "serve", "--db", str(path), "--port", "1"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "empty" in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) <= 3      # one message (rich may wrap it)


def test_a_foreign_or_damaged_database_is_refused(tmp_path):
    import sqlite3
    foreign = tmp_path / "other.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)")
    with pytest.raises(NotGrimoireDatabase, match="users"):
        Store(f"sqlite:///{foreign}")
    with sqlite3.connect(foreign) as conn:
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")] == ["users"]
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database at all" * 200)
    with pytest.raises(NotGrimoireDatabase, match="not an SQLite database"):
        Store(f"sqlite:///{junk}")
    fresh = tmp_path / "new.db"                     # a new file is created and works
    Store(f"sqlite:///{fresh}").close()
    Store(f"sqlite:///{fresh}").close()             # and is ours when opened again


def test_an_ai_game_resumes_after_restart_despite_a_damaged_neighbour(db_url):
    with TestClient(_app(db_url)) as c:
        bad = create_game(c, HUMAN3, seed=8)
        engine = c.app.state.hub.store.engine
    with engine.begin() as conn:
        conn.execute(update(games_t).where(games_t.c.id == bad["id"]).values(ai_turn=True, seq=99))
    with TestClient(_app(db_url)) as c:
        g = create_game(c, [{"agent": "random"}] * 2, options={"max_rounds": 1})
        v = wait_for(lambda: (x := c.get(f"/api/games/{g['id']}").json())["status"] == "over" and x, timeout=60)
        assert v["seq"] == len(v["log"]) > 0 and v["result"]["winners"]      # played to its end by the AI
        r = c.get(f"/api/games/{bad['id']}")
        assert r.status_code == 500 and r.json()["error"]["code"] == "corrupt_game"


def test_control_characters_are_exactly_those_categories():
    # the server's one regular expression (hub._CONTROL) against Unicode's categories, every code point
    import unicodedata

    from grimoire.web.hub import has_control_characters
    wrong = [c for c in range(sys.maxunicode + 1)
             if has_control_characters(f"a{chr(c)}b") != (unicodedata.category(chr(c)) in ("Cc", "Cs", "Zl", "Zp"))]
    assert wrong == []
    assert not has_control_characters("buy 3 green → 2 🂡")
