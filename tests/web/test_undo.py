"""Undo in the browser (web/undo.py) on SQLite and PostgreSQL: exactly once, durable, refused across
chance, another seat's move and in rated games, the state identical to a game without the action,
every other client told, nothing hidden revealed."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert

from grimoire.core import undo as policy
from grimoire.core.registry import new_game
from grimoire.web.app import create_app
from grimoire.web.people_db import rated_games_t

from . import test_cluster
from .conftest import auth

pg_url = test_cluster.pg_url          # the fixtures of the many-process tests
cluster = test_cluster.cluster
servers = test_cluster.servers

SEED = 7
TWO = [{"agent": "human", "name": "Ann"}, {"agent": "human", "name": "Bob"}]


def start(client, game="zavandor"):
    r = client.post("/api/games", json={"game": game, "seats": TWO, "seed": SEED})
    assert r.status_code == 201, r.text
    g = r.json()
    return g["id"], {s["seat"]: s["token"] for s in g["seats"]}


def view(client, gid, token=None):
    r = client.get(f"/api/games/{gid}", headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()


def act(client, gid, token, seq, action):
    r = client.post(f"/api/games/{gid}/actions", headers=auth(token), json={"seq": seq, "action": action})
    assert r.status_code == 200, r.text
    return r.json()["seq"]


def undo(client, gid, token, seq):
    return client.post(f"/api/games/{gid}/undo", headers=auth(token), json={"seq": seq})


def pick(game: str, want: str | None) -> tuple[int, str]:
    """The deciding seat at the start of the seeded game and a legal action the core judges ``want``."""
    st = new_game(game, 2, SEED)
    seat = st.current_player
    for a in st.legal_actions():
        after = st.clone()
        after.apply(a)
        if policy.refusal(st, after, seat) == want:
            return seat, str(a)
    raise AssertionError(f"{game}: no first action that is {want}")


def recv(ws, *kinds):
    while True:
        m = ws.receive_json()
        if m["type"] in kinds:
            return m


@pytest.mark.parametrize("game", ["zavandor", "shuluri", "zauberschmiede"])
def test_undo_exactly_once_and_identical_to_never_played(client, game):
    gid, tok = start(client, game)
    seat, action = pick(game, None)
    other = 1 - seat
    before = view(client, gid, tok[seat])
    asked = client.get(f"/api/games/{gid}/undo", headers=auth(tok[seat])).json()
    assert asked["possible"] is False and asked["code"] == "undo_nothing"
    seq = act(client, gid, tok[seat], before["seq"], action)
    assert client.get(f"/api/games/{gid}/undo", headers=auth(tok[seat])).json() == \
        {"possible": True, "code": None, "seq": seq}
    # the other seat cannot take back someone else's action
    r = undo(client, gid, tok[other], view(client, gid, tok[other])["seq"])
    assert r.status_code == 409 and r.json()["error"]["code"] == "undo_nothing"
    r = undo(client, gid, tok[seat], seq)
    assert r.status_code == 200, r.text
    assert r.json() == {"ok": True, "seq": before["seq"], "undone": action}
    # exactly once: the same request again finds the game moved on
    again = undo(client, gid, tok[seat], seq)
    assert again.status_code == 409 and again.json()["error"]["code"] == "stale"
    after = view(client, gid, tok[seat])
    assert after["seq"] == before["seq"] and after["obs"] == before["obs"] and after["hints"] == before["hints"]
    assert client.get(f"/api/games/{gid}/log", headers=auth(tok[seat])).json()["log"] == []
    hub = client.app.state.hub
    s = hub.sessions[gid]
    assert s.state.to_dict() == new_game(game, 2, SEED).to_dict()
    # and the game goes on from there: the same action is accepted again at the same number
    assert act(client, gid, tok[seat], after["seq"], action) == seq


def test_refused_across_chance_another_seats_move_and_spectators(client):
    gid, tok = start(client)
    seat, chance = pick("zavandor", policy.CHANCE)
    seq = act(client, gid, tok[seat], 0, chance)
    r = undo(client, gid, tok[seat], seq)
    assert r.status_code == 409 and r.json()["error"]["code"] == "undo_chance"
    assert "drew" in r.json()["error"]["message"]
    r = undo(client, gid, None, seq)
    assert r.status_code == 403 and r.json()["error"]["code"] == "spectator"
    assert view(client, gid)["seq"] == seq                          # nothing changed
    # the turn passes: no more undo for the seat that ended it, nor for the next one
    seq = act(client, gid, tok[seat], seq, "end")
    r = undo(client, gid, tok[seat], seq)
    assert r.status_code == 409 and r.json()["error"]["code"] == "undo_turn_passed"
    r = undo(client, gid, tok[1 - seat], seq)
    assert r.status_code == 409 and r.json()["error"]["code"] == "undo_nothing"
    r = client.post(f"/api/games/{gid}/undo", headers=auth(tok[seat]), json={"seq": "x"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_seq"


def test_rated_games_refuse_undo(client):
    gid, tok = start(client)
    seat, action = pick("zavandor", None)
    engine = client.app.state.hub.store.engine
    with engine.begin() as conn:
        conn.execute(insert(rated_games_t).values(game_id=gid, game="zavandor", players=2, seats=[{}, {}],
                                                  status="pending", created_at=datetime.now(UTC)))
    seq = act(client, gid, tok[seat], 0, action)
    assert client.get(f"/api/games/{gid}/undo", headers=auth(tok[seat])).json()["code"] == "undo_rated"
    r = undo(client, gid, tok[seat], seq)
    assert r.status_code == 409 and r.json()["error"]["code"] == "undo_rated"
    assert view(client, gid)["seq"] == seq


def test_undo_is_durable_and_other_clients_are_told(db_url):
    seat, action = pick("zavandor", None)
    app = create_app(db_url, ai_delay=0, allow_seeds=True)
    with TestClient(app) as client:
        gid, tok = start(client)
        with client.websocket_connect(f"/ws/games/{gid}") as other, \
                client.websocket_connect(f"/ws/games/{gid}") as spectator:
            other.send_json({"type": "join", "token": tok[1 - seat]})
            spectator.send_json({"type": "join", "token": None})
            assert recv(other, "welcome")["seq"] == 0 and recv(spectator, "welcome")["seq"] == 0
            seq = act(client, gid, tok[seat], 0, action)
            assert recv(other, "state")["seq"] == seq
            assert recv(spectator, "state")["seq"] == seq
            assert undo(client, gid, tok[seat], seq).status_code == 200
            for ws in (other, spectator):
                m = recv(ws, "undone")
                assert m["seq"] == 0 and m["log"] == [] and m["obs"] == view(client, gid, None if ws is spectator
                                                                              else tok[1 - seat])["obs"]
    # a new server on the same database: the game is at the undone point, and goes on
    app = create_app(db_url, ai_delay=0, allow_seeds=True)
    with TestClient(app) as client:
        v = view(client, gid, tok[seat])
        assert v["seq"] == 0 and v["log"] == []
        assert client.app.state.hub.sessions[gid].state.to_dict() == new_game("zavandor", 2, SEED).to_dict()
        assert act(client, gid, tok[seat], 0, action) == 1


def test_secret_choice_undone_tells_the_others_nothing_of_it(client):
    """Zauberschmiede's choices on a roll are secret to the other seats until the round is over: its
    undo changes neither their sequence number nor their log, and no message names the action."""
    gid, tok = start(client, "zauberschmiede")
    seat, action = pick("zauberschmiede", None)
    other = 1 - seat
    theirs = view(client, gid, tok[other])
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.send_json({"type": "join", "token": tok[other]})
        recv(ws, "welcome")
        seq = act(client, gid, tok[seat], view(client, gid, tok[seat])["seq"], action)
        assert undo(client, gid, tok[seat], seq).status_code == 200
        ws.send_json({"type": "ping", "id": "end"})
        while True:
            m = ws.receive_json()
            assert action not in str(m)
            if m["type"] == "pong":
                break
    now = view(client, gid, tok[other])
    assert now["seq"] == theirs["seq"] and now["log"] == theirs["log"] and now["obs"] == theirs["obs"]


@pytest.mark.postgresql
def test_undo_on_one_process_is_exactly_once_and_reaches_the_others(servers):
    """Two ``grimoire serve`` processes on one PostgreSQL database: the same undo sent to both at once
    applies once; the other process drops its copy and serves the rewound game, which goes on there."""
    import threading

    import httpx

    from .conftest import create_game
    a, b = servers[:2]
    seat, action = pick("zavandor", None)
    g = create_game(a.base, TWO, seed=SEED)
    tok = {s["seat"]: s["token"] for s in g["seats"]}

    def get(base):
        return httpx.get(f"{base}/api/games/{g['id']}", headers=auth(tok[seat]), timeout=10).json()

    def wait_seq(base, n):
        deadline = time.monotonic() + 60                 # a loaded machine: the other process may be slow
        while time.monotonic() < deadline:
            if get(base)["seq"] == n:
                return
            time.sleep(0.05)
        raise AssertionError(f"{base} never showed seq {n}")
    assert get(b.base)["seq"] == 0                       # b holds the game in memory too
    r = httpx.post(f"{a.base}/api/games/{g['id']}/actions", headers=auth(tok[seat]),
                   json={"seq": 0, "action": action}, timeout=10)
    assert r.status_code == 200, r.text
    wait_seq(b.base, 1)
    answers: list[int] = []

    def undo_at(base):
        answers.append(httpx.post(f"{base}/api/games/{g['id']}/undo", headers=auth(tok[seat]),
                                  json={"seq": 1}, timeout=60).status_code)
    threads = [threading.Thread(target=undo_at, args=(x.base,)) for x in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200, 409], answers
    wait_seq(a.base, 0)
    wait_seq(b.base, 0)
    r = httpx.post(f"{b.base}/api/games/{g['id']}/actions", headers=auth(tok[seat]),
                   json={"seq": 0, "action": action}, timeout=10)
    assert r.status_code == 200, r.text
    wait_seq(a.base, 1)


def test_replay_after_an_undo_follows_the_new_moves(client):
    """The replay keeps a checkpoint every 25 actions: one past an action taken back must not be used."""
    import random

    from grimoire.web.review import CHECKPOINT_EVERY
    gid, tok = start(client)
    state = new_game("zavandor", 2, SEED)
    rng = random.Random(1)
    while True:                        # random moves until action 25 can be one that can be taken back
        seat = state.current_player
        if len(state.history) == CHECKPOINT_EVERY - 1:
            undoable = [a for a in state.legal_actions() if policy.refusal(state, _after(state, a), seat) is None]
            if len(undoable) >= 2:
                break
        action = str(rng.choice(state.legal_actions()))
        act(client, gid, tok[seat], len(state.history), action)
        state.apply(action)
        if len(state.history) >= CHECKPOINT_EVERY - 1 and len(state.history) > CHECKPOINT_EVERY + 40:
            raise AssertionError("no position found")
    first, second = str(undoable[0]), str(undoable[1])
    act(client, gid, tok[seat], CHECKPOINT_EVERY - 1, first)

    def replayed():
        r = client.get(f"/api/games/{gid}/replay", params={"seq": CHECKPOINT_EVERY}, headers=auth(tok[seat]))
        assert r.status_code == 200, r.text
        return r.json()
    assert replayed()["log"][-1]["text"] == first           # the checkpoint at 25 now holds ``first``
    assert undo(client, gid, tok[seat], CHECKPOINT_EVERY).status_code == 200
    act(client, gid, tok[seat], CHECKPOINT_EVERY - 1, second)
    got = replayed()
    assert got["log"][-1]["text"] == second and got["obs"] == view(client, gid, tok[seat])["obs"]


def _after(state, action):
    after = state.clone()
    after.apply(action)
    return after


@pytest.fixture
def patch_client(db_url):
    """A server that sends patches to the connections asking for them (``serve --ws-patches``)."""
    with TestClient(create_app(db_url, ai_delay=0, allow_seeds=True, ws_patches=True)) as c:
        yield c


def test_a_page_taking_patches_gets_patches_again_after_an_undo(patch_client):
    client = patch_client
    """A connection that takes patches holds the rewound view after ``undone``: the next change comes as
    a patch from it (base = the rewound number), not as a whole view."""
    gid, tok = start(client)
    seat, action = pick("zavandor", None)
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.send_json({"type": "join", "token": tok[1 - seat], "patch": True})
        assert recv(ws, "welcome")["seq"] == 0
        act(client, gid, tok[seat], 0, action)
        first = recv(ws, "patch", "state")
        assert first["type"] == "patch" and first["base"] == 0 and first["seq"] == 1
        assert undo(client, gid, tok[seat], 1).status_code == 200
        assert recv(ws, "undone")["seq"] == 0
        act(client, gid, tok[seat], 0, action)
        again = recv(ws, "patch", "state")
        assert again["type"] == "patch" and again["base"] == 0 and again["seq"] == 1
