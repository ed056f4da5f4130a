"""Open tables: a table waits in the lobby's list, others join with a name and get their seat's token,
the creator kicks or starts early with AI seats, and the table becomes a game whose seats are opened
by the tokens the players already hold."""

from __future__ import annotations

import pytest

from .conftest import auth


def open_table(client, name="Ann", seats=("human", "human", "human"), **extra):
    body = {"game": "zavandor", "seats": [{"agent": a} for a in seats], "name": name, "lang": "hu", **extra}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def listed(client, **query):
    r = client.get("/api/tables", params=query)
    assert r.status_code == 200, r.text
    return {t["id"]: t for t in r.json()["tables"]}


def test_table_is_listed_joined_and_starts_when_full(client):
    mine = open_table(client, options={"max_rounds": 3})
    t = listed(client)[mine["id"]]
    assert t["game"] == "zavandor" and t["free"] == 2 and t["lang"] == "hu" and t["options"] == {"max_rounds": 3}
    assert [s["name"] for s in t["seats"]] == ["Ann", "", ""] and [s["taken"] for s in t["seats"]] == [True, False,
                                                                                                         False]
    assert "token" not in str(t) and "hash" not in str(t)
    # filters: by game and by language
    assert mine["id"] in listed(client, game="zavandor", lang="hu")
    assert mine["id"] not in listed(client, lang="de") and mine["id"] not in listed(client, game="zauberschmiede")
    # filters no table can match list nothing (PostgreSQL would refuse the NUL in the query: not a 503)
    assert listed(client, lang="h\x00u") == {} and listed(client, game="zav\x00andor") == {}
    assert listed(client, lang="xx") == {} and listed(client, game="chess") == {}
    bob = client.post(f"/api/tables/{mine['id']}/join", json={"name": "Bob"}).json()
    assert bob["seat"] == 1 and bob["token"]
    t = client.get(f"/api/tables/{mine['id']}", headers=auth(bob["token"])).json()
    assert t["you"] == 1 and not t["owner"] and t["status"] == "open" and t["seats"][1]["name"] == "Bob"
    # the last free seat starts the game; the table is no longer listed
    cy = client.post(f"/api/tables/{mine['id']}/join", json={"name": "Cy", "seat": 2}).json()
    assert cy["seat"] == 2
    assert mine["id"] not in listed(client)
    t = client.get(f"/api/tables/{mine['id']}", headers=auth(mine["token"])).json()
    assert t["status"] == "started" and t["game_id"] == mine["id"] and t["owner"]
    # each token opens its own seat of the game
    for tok, seat, name in ((mine["token"], 0, "Ann"), (bob["token"], 1, "Bob"), (cy["token"], 2, "Cy")):
        g = client.get(f"/api/games/{mine['id']}", headers=auth(tok)).json()
        assert g["seat"] == seat and g["seats"][seat]["name"] == name
    assert client.post(f"/api/tables/{mine['id']}/join", json={"name": "Dan"}).status_code == 409


def test_kick_and_start_early_with_ai(client):
    mine = open_table(client, seats=("human", "human", "human", "random"))
    bob = client.post(f"/api/tables/{mine['id']}/join", json={"name": "Bob"}).json()
    # only the creator kicks and starts
    assert client.post(f"/api/tables/{mine['id']}/kick", json={"seat": 1},
                       headers=auth(bob["token"])).status_code == 403
    assert client.post(f"/api/tables/{mine['id']}/start", json={}, headers=auth(bob["token"])).status_code == 403
    r = client.post(f"/api/tables/{mine['id']}/kick", json={"seat": 1}, headers=auth(mine["token"]))
    assert r.status_code == 200, r.text
    t = client.get(f"/api/tables/{mine['id']}", headers=auth(bob["token"])).json()
    assert "you" not in t and t["free"] == 2          # the kicked token holds no seat any more
    bob2 = client.post(f"/api/tables/{mine['id']}/join", json={"name": "Bob"}).json()
    r = client.post(f"/api/tables/{mine['id']}/start", json={"agent": "random"}, headers=auth(mine["token"]))
    assert r.status_code == 200 and r.json()["game_id"] == mine["id"]
    g = client.get(f"/api/games/{mine['id']}", headers=auth(bob2["token"])).json()
    assert [s["agent"] for s in g["seats"]] == ["human", "human", "random", "random"] and g["seat"] == 1
    assert client.get(f"/api/games/{mine['id']}", headers=auth(bob["token"])).status_code == 401
    assert client.post(f"/api/tables/{mine['id']}/kick", json={"seat": 1},
                       headers=auth(mine["token"])).status_code == 409


def test_leave_and_close(client):
    mine = open_table(client)
    bob = client.post(f"/api/tables/{mine['id']}/join", json={"name": "Bob"}).json()
    assert client.post(f"/api/tables/{mine['id']}/leave", json={}, headers=auth(bob["token"])).status_code == 200
    assert listed(client)[mine["id"]]["free"] == 2
    assert client.post(f"/api/tables/{mine['id']}/leave", json={}, headers=auth(mine["token"])).status_code == 200
    assert mine["id"] not in listed(client)
    assert client.post(f"/api/tables/{mine['id']}/join", json={"name": "Cy"}).status_code == 409


@pytest.mark.parametrize("name", ["", "A\u202eB", "zero\u200bwidth", "x" * 41, None, 7, "tag\U000e0041"])
def test_names_are_checked(client, name):
    r = client.post("/api/tables", json={"game": "zavandor", "seats": [{"agent": "human"}] * 2, "name": name})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_name"


def test_names_are_nfc_and_bad_requests_refused(client):
    mine = open_table(client, name="Zoe\u0301")           # decomposed: stored composed
    assert listed(client)[mine["id"]]["seats"][0]["name"] == "Zo\u00e9"
    bad = [({"game": "nope", "seats": [{"agent": "human"}] * 2, "name": "A"}, "bad_game"),
           ({"game": "zavandor", "seats": [{"agent": "random"}, {"agent": "human"}], "name": "A"}, "bad_seats"),
           ({"game": "zavandor", "seats": [{"agent": "human"}, {"agent": "random"}], "name": "A"}, "no_open_seat"),
           ({"game": "zavandor", "seats": [{"agent": "human"}] * 2, "name": "A", "options": {"seed": 1}},
            "bad_options"),
           ({"game": "zavandor", "seats": [{"agent": "human"}] * 2, "name": "A", "rated": True}, "login_required"),
           ({"game": "zavandor", "seats": [{"agent": "human"}] * 2, "name": "A", "lang": "xx"}, "bad_lang")]
    for body, code in bad:
        r = client.post("/api/tables", json=body)
        assert r.status_code in (400, 401) and r.json()["error"]["code"] == code, (body, r.text)
    assert client.get("/api/tables/nope!").status_code == 404
    assert client.post("/api/tables/unknown/join", json={"name": "A"}).status_code == 404


def test_open_tables_per_client_are_limited(client):
    for _ in range(5):
        open_table(client)
    r = client.post("/api/tables", json={"game": "zavandor", "seats": [{"agent": "human"}] * 2, "name": "A"})
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_tables"


def test_a_start_that_fails_keeps_the_seat_and_starts_later(client, monkeypatch):
    from grimoire.web.hub import storage_error
    mine = open_table(client, seats=("human", "human"))
    hub = client.app.state.hub
    real = hub.create

    async def failing(*a, **k):
        raise storage_error()
    monkeypatch.setattr(hub, "create", failing)
    bob = client.post(f"/api/tables/{mine['id']}/join", json={"name": "Bob"})
    assert bob.status_code == 200 and bob.json()["token"]         # stored: the token reaches its player
    monkeypatch.setattr(hub, "create", real)
    t = client.get(f"/api/tables/{mine['id']}", headers=auth(bob.json()["token"])).json()
    assert t["status"] == "started" and t["you"] == 1
    assert client.get(f"/api/games/{mine['id']}", headers=auth(bob.json()["token"])).json()["seat"] == 1
