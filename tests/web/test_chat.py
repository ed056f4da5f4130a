"""Chat per game: the seats' and the spectators' channels are apart, messages are limited in length and
rate, kept as text (never HTML), stored with the game (they survive a restart), pushed over the game's
WebSocket to their channel only, and a private game's seat chat stays with its seats after the game."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from grimoire.web.app import create_app
from grimoire.web.chat import MAX_TEXT

from .conftest import auth, create_game


def say(client, gid, text, token=None, **extra):
    return client.post(f"/api/games/{gid}/chat", json={"text": text, **extra}, headers=auth(token))


def read(client, gid, token=None, **query):
    return client.get(f"/api/games/{gid}/chat", params=query, headers=auth(token))


def two_humans(client):
    g = create_game(client, [{"agent": "human", "name": "Ann"}, {"agent": "human", "name": "Bob"}],
                    options={"max_rounds": 1})
    return g["id"], g["seats"][0]["token"], g["seats"][1]["token"]


def test_channels_are_apart_and_names_come_from_the_seat(client):
    gid, ann, bob = two_humans(client)
    r = say(client, gid, "good luck", ann, name="Mallory")       # a seat's own name, not one it claims
    assert r.status_code == 201, r.text
    assert r.json()["channel"] == "seats" and r.json()["message"]["name"] == "Ann"
    assert r.json()["message"]["seat"] == 0
    assert say(client, gid, "you too", bob).status_code == 201
    r = say(client, gid, "Ann will lose", name="Eve")
    assert r.status_code == 201 and r.json()["channel"] == "spectators"
    assert r.json()["message"] == {**r.json()["message"], "seat": None, "name": "Eve"}
    seats = read(client, gid, bob).json()
    assert seats["channel"] == "seats" and [m["text"] for m in seats["messages"]] == ["good luck", "you too"]
    assert [m["name"] for m in seats["messages"]] == ["Ann", "Bob"]
    spect = read(client, gid).json()
    assert spect["channel"] == "spectators" and [m["text"] for m in spect["messages"]] == ["Ann will lose"]
    # while the game runs, neither side reads the other's channel
    assert read(client, gid, channel="seats").status_code == 403
    assert read(client, gid, ann, channel="spectators").status_code == 403
    assert read(client, gid, channel="nope").status_code == 400
    # after: only new messages
    first = seats["messages"][0]["id"]
    assert [m["text"] for m in read(client, gid, ann, after=first).json()["messages"]] == ["you too"]
    assert read(client, gid, "not-a-token").status_code == 401
    for bad in (-1, 2 ** 40, "x"):
        assert read(client, gid, ann, after=bad).status_code == 400
    assert say(client, "nope", "hi").status_code == 404


def test_text_is_checked_and_kept_as_written(client):
    gid, ann, _bob = two_humans(client)
    html = '<img src=x onerror="alert(1)"> & <b>bold</b>'
    r = say(client, gid, html, ann)
    assert r.status_code == 201
    assert read(client, gid, ann).json()["messages"][-1]["text"] == html     # text: the page never parses it
    for bad in ("", "   ", "x" * (MAX_TEXT + 1), "a\x00b", "evil\u202etxt", 42, None):
        r = say(client, gid, bad, ann)
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_text", bad
    assert say(client, gid, "x" * MAX_TEXT, ann).status_code == 201
    assert say(client, gid, "hi", name="a\u200bb").json()["error"]["code"] == "bad_name"
    assert client.post(f"/api/games/{gid}/chat", json=["hi"], headers=auth(ann)).status_code == 400


def test_rate_limit_per_sender(client):
    gid, ann, bob = two_humans(client)
    codes = [say(client, gid, f"m{i}", ann).status_code for i in range(7)]
    assert codes[:5] == [201] * 5 and codes[5:] == [429, 429]
    r = say(client, gid, "again", ann)
    assert r.json()["error"]["code"] == "too_many_messages" and int(r.headers["retry-after"]) >= 1
    assert say(client, gid, "bob is another sender", bob).status_code == 201
    assert len(read(client, gid, ann).json()["messages"]) == 6


def test_pushed_live_to_its_channel_only(client):
    gid, ann, bob = two_humans(client)
    url = f"/ws/games/{gid}"
    with client.websocket_connect(url) as ws_bob, client.websocket_connect(url) as ws_spec:
        ws_bob.send_json({"type": "join", "token": bob})
        assert ws_bob.receive_json()["type"] == "welcome"
        ws_spec.send_json({"type": "join", "token": None})
        assert ws_spec.receive_json()["type"] == "welcome"
        assert say(client, gid, "<i>hello</i>", ann).status_code == 201
        assert say(client, gid, "from the stands").status_code == 201

        def next_chat(ws):
            while True:
                m = ws.receive_json()
                if m["type"] == "chat":
                    return m
        m = next_chat(ws_bob)
        assert m["channel"] == "seats" and m["message"]["text"] == "<i>hello</i>" and m["message"]["name"] == "Ann"
        m = next_chat(ws_spec)           # the spectator's first chat message is the spectators' one
        assert m["channel"] == "spectators" and m["message"]["text"] == "from the stands"
        assert say(client, gid, "second", ann).status_code == 201
        ws_spec.send_json({"type": "ping"})                  # nothing of the seats' channel came before the pong
        while True:
            m = ws_spec.receive_json()
            assert m["type"] != "chat", m
            if m["type"] == "pong":
                break


@pytest.mark.parametrize("public", [False, True])
def test_kept_with_the_game_and_hidden_in_replays_unless_public(db_url, public):
    app = create_app(db_url, ai_delay=0)
    with TestClient(app) as client:
        if public:
            t = client.post("/api/tables", json={"game": "zavandor", "seats": [{"agent": "human"}, {"agent": "human"}],
                                                 "name": "Ann", "lang": "en", "options": {"max_rounds": 1}}).json()
            bob = client.post(f"/api/tables/{t['id']}/join", json={"name": "Bob"}).json()
            gid, ann, bob_token = t["id"], t["token"], bob["token"]
        else:
            gid, ann, bob_token = two_humans(client)
        assert say(client, gid, "secret plan", ann).status_code == 201
        assert say(client, gid, "go seat 1!").status_code == 201
    # a restarted server has them
    app = create_app(db_url, ai_delay=0)
    with TestClient(app) as client:
        assert [m["text"] for m in read(client, gid, bob_token).json()["messages"]] == ["secret plan"]
        hub = app.state.hub
        s = client.portal.call(hub.get, gid)
        # end the game: every seat resigns its decisions to the engine's first legal action
        while s.status != "over":
            seat, text = s.state.current_player, str(s.state.legal_actions()[0])
            client.portal.call(lambda seat=seat, text=text: hub.submit(s, seat, s.seq, text, internal=True))
        assert read(client, gid, ann, channel="spectators").status_code == 200   # the seats may read it now
        r = read(client, gid, channel="seats")
        if public:
            assert [m["text"] for m in r.json()["messages"]] == ["secret plan"]
        else:
            assert r.status_code == 403 and "secret plan" not in r.text


@pytest.mark.postgresql
def test_two_processes_share_the_chat_and_a_forfeit(db_url):
    """Two apps on one PostgreSQL database (as two server processes): a message stored by one reaches the
    other's sockets of its channel; a forfeit stored by one ends the game on the other's copy too."""
    if not db_url.startswith("postgresql"):
        pytest.skip("several processes share a game on PostgreSQL only")
    from datetime import timedelta

    from grimoire.web.store import now
    with TestClient(create_app(db_url, ai_delay=0)) as a, TestClient(create_app(db_url, ai_delay=0)) as b:
        g = create_game(a, [{"agent": "human", "name": "Ann"}, {"agent": "human", "name": "Bob"}],
                        turn={"deadline": "1d", "on_expire": "forfeit"})
        gid, ann, bob = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
        with b.websocket_connect(f"/ws/games/{gid}") as ws:
            ws.send_json({"type": "join", "token": bob})
            assert ws.receive_json()["type"] == "welcome"
            assert say(a, gid, "across processes", ann).status_code == 201
            while True:
                m = ws.receive_json()
                if m["type"] == "chat":
                    break
            assert m["message"]["text"] == "across processes" and m["message"]["name"] == "Ann"
            turns = a.app.state.turns
            turns.clock = lambda: now() + timedelta(days=1, minutes=1)
            assert a.portal.call(turns.check, [gid]) == 1
            with pytest.raises(WebSocketDisconnect) as closed:    # b's copy is dropped: its sockets reconnect
                while True:
                    ws.receive_json()
            assert closed.value.code == 4409
        view = b.get(f"/api/games/{gid}").json()
        assert view["status"] == "over" and view["forfeit"] in (0, 1)


def test_migration_0005_up_and_down(tmp_path):
    from pathlib import Path

    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect

    from grimoire.web import store as store_mod
    from grimoire.web.store import Store, make_engine, migrate
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(store_mod.__file__).parent / "migrations"))
    cfg.attributes["connection_engine"] = engine
    command.upgrade(cfg, "0004")                        # a database of the previous version ...
    assert "chat_messages" not in inspect(engine).get_table_names()
    engine.dispose()
    store = Store(url)                                  # ... is upgraded at start-up
    assert {"chat_messages", "turn_rules"} <= set(inspect(store.engine).get_table_names())
    store.close()
    engine = make_engine(url)
    cfg.attributes["connection_engine"] = engine
    command.downgrade(cfg, "0004")
    assert not {"chat_messages", "turn_rules"} & set(inspect(engine).get_table_names())
    migrate(engine)
    assert "turn_rules" in inspect(engine).get_table_names()
    engine.dispose()
