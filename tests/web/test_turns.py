"""Slow games: a move deadline chosen at creation (stored with the game, so it survives a restart), enforced
by the server's periodic check with a fake clock — the AI takes the move, or the seat loses — exactly once,
also when several checks run at once."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from grimoire.core.forfeit import forfeit_result
from grimoire.core.registry import new_game
from grimoire.web.app import create_app
from grimoire.web.store import now

from .conftest import auth, create_game

DAY = timedelta(days=1)


def slow_game(client, deadline="1d", on_expire="ai"):
    return create_game(client, [{"agent": "human", "name": "Ann"}, {"agent": "human", "name": "Bob"}],
                       options={"max_rounds": 2}, turn={"deadline": deadline, "on_expire": on_expire})


def check(client, at, gid):
    """Two checks at once (as two server processes would make them) at the time ``at``, of this test's game
    (the PostgreSQL database is shared with other tests)."""
    turns = client.app.state.turns
    turns.clock = lambda: at

    async def twice():
        return await asyncio.gather(turns.check([gid]), turns.check([gid]))
    return client.portal.call(twice)


def test_bad_turn_rules_are_refused_before_anything_is_built(own_db_url):
    with TestClient(create_app(own_db_url, ai_delay=0, allow_seeds=True)) as client:
        _refuse_bad_turn_rules(client)


def _refuse_bad_turn_rules(client):
    for bad in ({"deadline": "2d"}, {"on_expire": "sulk"}, "1d", {"deadline": "1d", "extra": 1}):
        r = client.post("/api/games", json={"game": "zavandor", "seats": [{"agent": "human"}, {"agent": "human"}],
                                            "turn": bad})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_turn", bad
    assert not client.app.state.hub.sessions


def test_real_time_games_have_no_deadline(client):
    g = create_game(client, [{"agent": "human"}, {"agent": "human"}], turn={"deadline": "none"})
    gid = g["id"]
    info = client.get(f"/api/games/{g['id']}/turn").json()
    assert info["seconds"] == 0 and info["due_at"] is None
    assert check(client, now() + 30 * DAY, gid) == [0, 0]
    assert client.get(f"/api/games/{gid}").json()["seq"] == 0


def test_ai_takes_the_expired_move_exactly_once(client):
    g = slow_game(client)
    gid, ann = g["id"], g["seats"][0]["token"]
    info = client.get(f"/api/games/{gid}/turn").json()
    first = info["seat"]
    assert info["seconds"] == 86400 and info["on_expire"] == "ai" and first in (0, 1)
    due = info["due_at"]
    # before the deadline nothing happens
    assert check(client, now() + DAY - timedelta(minutes=5), gid) == [0, 0]
    assert client.get(f"/api/games/{gid}").json()["seq"] == 0
    # past it: one move, by the AI for the seat that decides, whichever check gets there first
    assert sorted(check(client, now() + DAY + timedelta(minutes=1), gid)) == [0, 1]
    log = client.get(f"/api/games/{gid}/log", headers=auth(ann)).json()["log"]
    assert len(log) == 1 and log[0]["seat"] == first
    # the next decision has its own deadline, from now
    info = client.get(f"/api/games/{gid}/turn").json()
    assert info["due_at"] > due
    assert check(client, now() + DAY - timedelta(minutes=5), gid) == [0, 0]
    assert len(client.get(f"/api/games/{gid}/log", headers=auth(ann)).json()["log"]) == 1


def test_a_move_in_time_is_not_taken_over(client):
    g = slow_game(client)
    gid = g["id"]
    s = client.portal.call(client.app.state.hub.get, gid)
    r = client.post(f"/api/games/{gid}/actions", json={"seq": 0, "action": str(s.state.legal_actions()[0])},
                    headers=auth(g["seats"][s.state.current_player]["token"]))
    assert r.status_code == 200, r.text
    # the expiry of the old decision (seq 0) finds the game moved on
    assert client.portal.call(client.app.state.turns.expire, gid, 0, "ai") is False
    assert s.seq == 1


def test_forfeit_ends_the_game_with_that_seat_last_once_and_survives_a_restart(db_url):
    app = create_app(db_url, ai_delay=0)
    with TestClient(app) as client:
        g = slow_game(client, "3d", "forfeit")
        gid, ann, bob = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
        assert check(client, now() + 3 * DAY - timedelta(minutes=1), gid) == [0, 0]
        first = client.get(f"/api/games/{gid}/turn").json()["seat"]
        with client.websocket_connect(f"/ws/games/{gid}") as ws:
            ws.send_json({"type": "join", "token": bob})
            assert ws.receive_json()["status"] == "active"
            assert sorted(check(client, now() + 3 * DAY + timedelta(minutes=1), gid)) == [0, 1]
            m = ws.receive_json()
            while m["type"] == "presence":
                m = ws.receive_json()
            assert m["type"] == "welcome" and m["status"] == "over" and m["forfeit"] == first
        view = client.get(f"/api/games/{gid}", headers=auth(bob)).json()
        assert view["status"] == "over" and view["forfeit"] == first and view["seq"] == 0
        s = client.portal.call(client.app.state.hub.get, gid)
        r = client.post(f"/api/games/{gid}/actions", json={"seq": 0, "action": str(s.state.legal_actions()[0])},
                        headers=auth((ann, bob)[first]))
        assert r.status_code == 409 and r.json()["error"]["code"] == "game_over"
        assert check(client, now() + 30 * DAY, gid) == [0, 0]
        listed = client.get("/api/games", params={"ids": gid}).json()["games"][0]
        assert listed["status"] == "over"
    with TestClient(create_app(db_url, ai_delay=0)) as client:
        view = client.get(f"/api/games/{gid}").json()
        assert view["status"] == "over" and view["forfeit"] == first
        assert client.get(f"/api/games/{gid}/turn").json()["forfeit"] == first


def test_open_tables_carry_the_deadline_to_their_game(client):
    t = client.post("/api/tables", json={"game": "zavandor", "seats": [{"agent": "human"}, {"agent": "human"}],
                                         "name": "Ann", "lang": "en", "turn": {"deadline": "3d", "on_expire": "ai"}})
    assert t.status_code == 201, t.text
    tid = t.json()["id"]
    listed = {x["id"]: x for x in client.get("/api/tables").json()["tables"]}
    assert listed[tid]["turn_seconds"] == 3 * 86400
    assert client.get(f"/api/tables/{tid}").json()["turn_seconds"] == 3 * 86400
    client.post(f"/api/tables/{tid}/join", json={"name": "Bob"})
    info = client.get(f"/api/games/{tid}/turn").json()
    assert info["seconds"] == 3 * 86400 and info["due_at"] is not None
    bad = client.post("/api/tables", json={"game": "zavandor", "seats": [{"agent": "human"}, {"agent": "human"}],
                                           "name": "Ann", "lang": "en", "turn": {"deadline": "1w"}})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_turn"


@pytest.mark.parametrize("game,players", [("zavandor", 3), ("shuluri", 4), ("zauberschmiede", 2)])
def test_forfeit_result_puts_the_seat_and_its_team_last(game, players):
    from grimoire.web.ratings import team_ranks, teams_of
    state = new_game(game, players, 7)
    teams = teams_of(game, players, dict(state.options))
    scores, winners = forfeit_result(state, 1, teams)
    loser_team = next(t for t in teams if 1 in t)
    assert winners and not set(winners) & set(loser_team)
    ranks = team_ranks(teams, scores, winners)
    assert ranks[teams.index(loser_team)] == max(ranks) and ranks.count(max(ranks)) == 1


def test_a_forfeited_games_replay_is_public_like_a_finished_ones(client):
    g = slow_game(client, "1d", "forfeit")
    gid = g["id"]
    assert client.get(f"/api/games/{gid}/replay", params={"seat": 1, "seq": 0}).status_code == 403
    assert check(client, now() + DAY + timedelta(minutes=1), gid) in ([0, 1], [1, 0])
    for seat in (0, 1):
        r = client.get(f"/api/games/{gid}/replay", params={"seat": seat, "seq": 0})
        assert r.status_code == 200 and r.json()["seat"] == seat
    assert client.get(f"/api/games/{gid}/record").status_code == 409


def test_no_undo_after_a_forfeit(client):
    g = slow_game(client, "1d", "forfeit")
    gid = g["id"]
    s = client.portal.call(client.app.state.hub.get, gid)
    first = s.state.current_player
    tok = g["seats"][first]["token"]

    def keeps_the_turn(action) -> bool:
        after = s.state.clone()
        after.apply(action)
        return after.current_player == first
    action = next(a for a in s.state.legal_actions() if keeps_the_turn(a))
    r = client.post(f"/api/games/{gid}/actions", json={"seq": 0, "action": str(action)}, headers=auth(tok))
    assert r.status_code == 200, r.text
    assert client.get(f"/api/games/{gid}/undo", headers=auth(tok)).json()["possible"] is True
    assert check(client, now() + DAY + timedelta(minutes=1), gid) in ([0, 1], [1, 0])
    assert client.get(f"/api/games/{gid}/undo", headers=auth(tok)).json() == {"possible": False, "code": "game_over",
                                                                              "seq": 1}
    r = client.post(f"/api/games/{gid}/undo", json={"seq": 1}, headers=auth(tok))
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over"


def test_a_move_the_ai_made_at_the_deadline_cannot_be_undone(client, monkeypatch):
    """The AI's move for a seat whose time ran out is recorded with it (issue 25): the seat may not take it
    back (409 undo_takeover, translated) — on a copy loaded afresh too, and by the database's guard when a
    server's copy did not hear of it — while the seat's own next move can be taken back as before."""
    from grimoire.core import undo as policy
    g = slow_game(client)
    gid = g["id"]
    hub = client.app.state.hub
    s = client.portal.call(hub.get, gid)
    first = s.state.current_player
    me = auth(g["seats"][first]["token"])

    def undoable(state, seat) -> str:
        for a in state.legal_actions():
            after = state.clone()
            after.apply(a)
            if policy.refusal(state, after, seat) is None:
                return str(a)
        raise AssertionError("no move that could be taken back")

    async def choose(state, name, seat, seed, key=""):      # a move its seat could otherwise take back
        return undoable(state, seat)
    monkeypatch.setattr(hub.ai, "choose", choose)
    turns = client.app.state.turns
    turns.clock = lambda: now() + DAY + timedelta(minutes=1)
    assert client.portal.call(turns.check, [gid]) == 1
    assert s.state.current_player == first and s.seq == 1
    refused = {"possible": False, "code": "undo_takeover", "seq": 1}
    assert client.get(f"/api/games/{gid}/undo", headers=me).json() == refused
    r = client.post(f"/api/games/{gid}/undo", json={"seq": 1}, headers=me)
    assert r.status_code == 409 and r.json()["error"]["code"] == "undo_takeover"
    hub.sessions.pop(gid)                                    # loaded again from the database
    assert client.get(f"/api/games/{gid}/undo", headers=me).json() == refused
    s = client.portal.call(hub.get, gid)
    s.takeovers.clear()                                      # a copy that did not hear of it: the guard
    r = client.post(f"/api/games/{gid}/undo", json={"seq": 1}, headers=me)
    assert r.status_code == 409 and r.json()["error"]["code"] == "undo_takeover"
    assert client.get(f"/api/games/{gid}").json()["seq"] == 1
    # the seat's own move in time: undone as always
    r = client.post(f"/api/games/{gid}/actions", json={"seq": 1, "action": undoable(s.state, first)}, headers=me)
    assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{gid}/undo", json={"seq": 2}, headers=me)
    assert r.status_code == 200 and r.json()["seq"] == 1, r.text
