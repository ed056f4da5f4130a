"""Optional accounts (argon2 hashes, HttpOnly session cookies, CSRF, login limits, the account's games
on any device) and ratings (a rated open table played to the end updates OpenSkill ratings once, AI
seats count with their fixed rating, the leaderboard lists them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import inspect

import grimoire.web.store as store_mod
from grimoire.web.people_db import users_t
from grimoire.web.ratings import MODEL, ai_rating, new_ratings, team_ranks, teams_of
from grimoire.web.store import Store, make_engine, migrate

from .conftest import auth


def browser(client: TestClient, base: str = "http://testserver") -> TestClient:
    """Another browser (its own cookie jar) whose requests run on the app's event loop, the ``client``
    fixture's. A TestClient outside ``with`` runs each request in an event loop of its own and closes it
    when the request ends, cancelling every task started there — an AI seat's move of a game the request
    created, which then never came: the game stopped (the flake "the game did not end" under load)."""
    c = TestClient(client.app, base_url=base)
    c.portal = client.portal
    return c


def account(client: TestClient, name: str, password: str = "correct horse", base: str = "http://testserver"
            ) -> TestClient:
    """A browser of its own (``browser``), logged in to a new account; its CSRF token as .csrf."""
    c = browser(client, base)
    r = c.post("/api/account/register", json={"username": name, "password": password})
    assert r.status_code == 201, r.text
    c.headers["X-CSRF-Token"] = r.json()["csrf"]
    return c


def play_to_end(client, gid: str, tokens: dict[int, str], limit: int = 5000) -> dict:
    """Each seat plays a legal action (drawn with a fixed seed, as a random player) until the game is over
    (AI seats play themselves)."""
    import random
    import time
    rng = random.Random(7)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        spectator = client.get(f"/api/games/{gid}").json()
        if spectator["status"] == "over":
            return spectator
        cp = spectator["obs"]["current_player"]
        if cp not in tokens:
            time.sleep(0.01)
            continue
        v = client.get(f"/api/games/{gid}", headers=auth(tokens[cp])).json()
        if v["obs"]["current_player"] != cp or v["status"] == "over":
            continue
        r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[cp]),
                        json={"seq": v["seq"], "action": rng.choice(v["obs"]["legal_actions"])})
        assert r.status_code in (200, 409), r.text
    raise AssertionError("the game did not end")


def test_register_login_logout_and_session_cookie(client):
    app = client.app
    ann = account(client, "Ann Smith", base="https://testserver")
    cookie = ann.cookies.jar
    (c,) = [x for x in cookie if x.name == "grimoire_session"]
    assert c.secure and c.has_nonstandard_attr("HttpOnly")
    assert ann.get("/api/account").json()["user"] == {"username": "Ann Smith"}
    # the password is stored as an argon2id hash, never as itself
    with app.state.hub.store.engine.connect() as conn:
        stored = conn.execute(users_t.select()).mappings().first()
    assert stored["password_hash"].startswith("$argon2id$") and "correct horse" not in stored["password_hash"]
    # the same name in another case is the same account
    r = browser(client).post("/api/account/register", json={"username": "ann smith", "password": "12345678"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "username_taken"
    other = browser(client)
    assert other.post("/api/account/login", json={"username": "Ann Smith", "password": "wrong pass"}
                      ).json()["error"]["code"] == "bad_login"
    assert other.post("/api/account/login", json={"username": "nobody here", "password": "wrong pass"}
                      ).json()["error"]["code"] == "bad_login"
    r = other.post("/api/account/login", json={"username": "ANN SMITH", "password": "correct horse"})
    assert r.status_code == 200 and r.json()["user"]["username"] == "Ann Smith"
    # a request that changes something with the session needs its CSRF token
    assert other.post("/api/account/logout", json={}).json()["error"]["code"] == "csrf"
    assert other.post("/api/account/logout", json={}, headers={"X-CSRF-Token": r.json()["csrf"]}).status_code == 200
    assert other.get("/api/account").json()["user"] is None
    assert ann.get("/api/account").json()["user"] is not None          # the other session lives on


@pytest.mark.parametrize("body", [{"username": "ab", "password": "12345678"},
                                  {"username": "x\u202ey", "password": "12345678"},
                                  {"username": "valid name", "password": "short"},
                                  {"username": 5, "password": "12345678"}])
def test_bad_accounts_refused(client, body):
    r = client.post("/api/account/register", json=body)
    assert r.status_code == 400 and r.json()["error"]["code"] in ("bad_username", "bad_password")


def test_login_attempts_are_limited(client):
    account(client, "Bob Jones")
    codes = [client.post("/api/account/login", json={"username": "Bob Jones", "password": f"guess {i:03d}"}
                         ).status_code for i in range(12)]
    assert codes[:10] == [401] * 10 and codes[10:] == [429, 429]


def test_my_games_on_any_device(client):
    ann = account(client, "Ann Devices")
    r = ann.post("/api/tables", json={"game": "zavandor", "seats": [{"agent": "human"}] * 2, "name": "Ann"})
    assert r.status_code == 201, r.text
    tid, token = r.json()["id"], r.json()["token"]
    private = ann.post("/api/games", json={"game": "zavandor", "seats": [{"agent": "human"}, {"agent": "random"}]}
                       ).json()
    assert ann.post("/api/account/seats", json={"game_id": private["id"], "token": private["seats"][0]["token"]}
                    ).status_code == 200
    assert ann.post("/api/account/seats", json={"game_id": private["id"], "token": "wrong"}).status_code == 401
    # another device: log in, find both seats with their tokens
    phone = browser(client)
    csrf = phone.post("/api/account/login", json={"username": "Ann Devices", "password": "correct horse"}).json()
    assert csrf["user"]
    seats = {(s["game_id"], s["seat"]): s["token"] for s in phone.get("/api/account/games").json()["seats"]}
    assert seats == {(tid, 0): token, (private["id"], 0): private["seats"][0]["token"]}
    assert browser(client).get("/api/account/games").status_code == 401


def test_team_ranks_and_fixed_ai():
    assert team_ranks([[0], [1], [2]], [10, 30, 30], [1, 2]) == [1, 0, 0]
    assert team_ranks([[0, 2], [1, 3]], [5, 9, 1, 2], [0, 2]) == [0, 1]
    before = [(MODEL.mu, MODEL.sigma), ai_rating("zavandor", "random")]
    after = new_ratings([[0], [1]], [0, 1], before)
    assert after[0][0] > before[0][0] and after[1][0] < before[1][0]


def test_rated_table_rates_once_and_leaderboard(client):
    app = client.app
    ann, bob = account(client, "Ann Rated"), account(client, "Bob Rated")
    body = {"game": "zavandor", "seats": [{"agent": "human"}] * 2 + [{"agent": "random"}], "name": "Ann",
            "rated": True, "options": {"max_rounds": 1}}
    assert browser(client).post("/api/tables", json=body).json()["error"]["code"] == "login_required"
    mine = ann.post("/api/tables", json=body).json()
    assert browser(client).post(f"/api/tables/{mine['id']}/join", json={"name": "X"}).status_code == 401
    theirs = bob.post(f"/api/tables/{mine['id']}/join", json={"name": "Bob"}).json()
    gid = mine["id"]
    assert client.get(f"/api/games/{gid}/ratings").json()["status"] == "pending"
    end = play_to_end(client, gid, {0: mine["token"], 1: theirs["token"]})
    assert end["status"] == "over"
    import time
    for _ in range(200):
        got = client.get(f"/api/games/{gid}/ratings").json()
        if got["status"] == "done":
            break
        time.sleep(0.02)
    assert got["status"] == "done" and [r["seat"] for r in got["ratings"]] == [0, 1, 2]
    ai = got["ratings"][2]
    assert ai["agent"] == "random" and ai["before"] == ai["after"]
    board = client.get("/api/ratings/zavandor?players=3").json()
    ranked = {p["username"]: p for p in board["players_ranked"]}
    assert set(ranked) == {"Ann Rated", "Bob Rated"} and all(p["games"] == 1 for p in ranked.values())
    for seat, name in ((0, "Ann Rated"), (1, "Bob Rated")):
        assert ranked[name]["rating"] == got["ratings"][seat]["after"]
        assert got["ratings"][seat]["before"] == round(MODEL.mu - 3 * MODEL.sigma, 1)
    # the winner gained, and a settled game is never rated again
    ratings, s = app.state.hub.on_over[0].__self__, app.state.hub.sessions[gid]
    client.portal.call(ratings.settle, gid, s.state.scores(), s.state.winners(), dict(s.options))
    client.portal.call(ratings.settle_pending)
    again = {p["username"]: p["games"] for p in client.get("/api/ratings/zavandor?players=3").json()["players_ranked"]}
    assert again == {"Ann Rated": 1, "Bob Rated": 1}
    assert client.get("/api/ratings/nope").status_code == 404
    assert client.get("/api/ratings/zavandor?players=9").status_code == 400
    assert client.get("/ratings/zavandor").status_code == 200


def test_shuluri_pairs_are_rated_as_teams():
    assert teams_of("shuluri", 4, {"mode": "pairs"}) == [[0, 2], [1, 3]]
    assert teams_of("shuluri", 4, {"mode": "ffa"}) == [[0], [1], [2], [3]]
    assert teams_of("zavandor", 3, {}) == [[0], [1], [2]]
    # partners share the result: both gain, both opponents lose
    start = [(MODEL.mu, MODEL.sigma)] * 4
    after = new_ratings([[0, 2], [1, 3]], team_ranks([[0, 2], [1, 3]], [1, 0, 1, 0], [0, 2]), start)
    assert after[0][0] > MODEL.mu and after[2][0] > MODEL.mu and after[1][0] < MODEL.mu and after[3][0] < MODEL.mu


def test_migration_0004_up_and_down(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(store_mod.__file__).parent / "migrations"))
    cfg.attributes["connection_engine"] = engine
    command.upgrade(cfg, "0003")                        # a database of the previous version ...
    assert "open_tables" not in inspect(engine).get_table_names()
    engine.dispose()
    store = Store(url)                                  # ... is upgraded at start-up
    names = set(inspect(store.engine).get_table_names())
    assert {"open_tables", "open_table_seats", "users", "user_sessions", "user_seats", "ratings",
            "rated_games"} <= names
    store.close()
    engine = make_engine(url)
    cfg.attributes["connection_engine"] = engine
    command.downgrade(cfg, "0003")
    assert "open_tables" not in inspect(engine).get_table_names()
    migrate(engine)
    assert "rated_games" in inspect(engine).get_table_names()
    engine.dispose()
