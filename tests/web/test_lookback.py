"""Looking back at a game over the API (grimoire/web/review.py): the replay of a finished game as any
seat, of a running game only as one's own seat (never more than that seat saw), the post-game review
(never during a game) and hints (practice games only)."""

from __future__ import annotations

import time

import grimoire
from grimoire.agents.review import ReviewSettings
from grimoire.core.record import replay as replay_record

from .conftest import auth

GAME = "zauberschmiede"


def create(client, seats, **extra):
    r = client.post("/api/games", json={"game": GAME, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def play_human_to_the_end(client, g, seat=0):
    token = g["seats"][seat]["token"]
    for _ in range(500):
        v = client.get(f"/api/games/{g['id']}", headers=auth(token)).json()
        if v["status"] == "over":
            return v
        if v["obs"]["current_player"] != seat:
            time.sleep(0.05)
            continue
        legal = v["obs"]["legal_actions"]
        action = "end" if "end" in legal and len(legal) < 40 else legal[0]
        client.post(f"/api/games/{g['id']}/actions", json={"seq": v["seq"], "action": action}, headers=auth(token))
    raise AssertionError("the game did not end")


def test_replay_of_a_running_game_shows_only_what_the_seat_saw(client):
    g = create(client, [{"agent": "human"}, {"agent": "human"}], options={"max_rounds": 2}, seed=4)
    t0, t1 = g["seats"][0]["token"], g["seats"][1]["token"]
    gid = g["id"]
    for text in ("dust " + client.get(f"/api/games/{gid}").json()["obs"][GAME]["roll"][0].__str__(), "end"):
        seq = client.get(f"/api/games/{gid}", headers=auth(t0)).json()["seq"]      # seat 0's own count
        assert client.post(f"/api/games/{gid}/actions", json={"seq": seq, "action": text},
                           headers=auth(t0)).status_code == 200
    # seat 1 may look back as itself or as a spectator, not as seat 0 while the game runs
    assert client.get(f"/api/games/{gid}/replay?seq=1&seat=0", headers=auth(t1)).status_code == 403
    assert client.get(f"/api/games/{gid}/replay?seq=1&seat=0").status_code == 403
    # seat 0's two actions of the round are secret to seat 1: its replay ends before them (neither the
    # choices nor how many there were show)
    mine = client.get(f"/api/games/{gid}/replay", headers=auth(t1)).json()
    assert mine["seat"] == 1 and mine["seq"] == 0 and mine["total"] == 0 and mine["replay"]
    assert mine["obs"] == grimoire.new_game(GAME, 2, 4, max_rounds=2).observation(1)
    assert client.get(f"/api/games/{gid}/replay?seq=1", headers=auth(t1)).status_code == 400
    assert client.get(f"/api/games/{gid}/replay?seq=9", headers=auth(t1)).status_code == 400
    # seat 0 sees its own choice in its replay, exactly as its observation was then
    own = client.get(f"/api/games/{gid}/replay?seq=1", headers=auth(t0)).json()
    state = grimoire.new_game(GAME, 2, 4, max_rounds=2)
    state.apply(client.get(f"/api/games/{gid}/log", headers=auth(t0)).json()["log"][0]["text"])
    assert own["obs"] == state.observation(0)
    assert own["log"][0]["text"] is not None and own["total"] == 2


def test_a_finished_game_replays_as_any_seat_and_is_reviewed(client):
    g = create(client, [{"agent": "human"}, {"agent": "greedy"}], options={"max_rounds": 1}, seed=9)
    gid = g["id"]
    # never during a game
    assert client.post(f"/api/games/{gid}/review", json={"seat": 0}).status_code == 409
    play_human_to_the_end(client, g)
    record = client.get(f"/api/games/{gid}/record").json()
    total = len(record["actions"])
    for n in (0, total // 2, total):
        expected = replay_record(record, upto=n)
        for seat in (0, 1, None):
            q = f"seq={n}" + ("" if seat is None else f"&seat={seat}")
            v = client.get(f"/api/games/{gid}/replay?{q}").json()
            assert v["obs"] == expected.observation(seat), (n, seat)
            assert len(v["log"]) == n and v["total"] == total
    client.app.state.lookback.settings = ReviewSettings(think=0.02, playouts=1, max_steps=20, chart_points=5)
    assert client.get(f"/api/games/{gid}/review?seat=0").status_code == 404
    assert client.post(f"/api/games/{gid}/review", json={"seat": 7}).status_code == 400
    r = client.post(f"/api/games/{gid}/review", json={"seat": 0})
    assert r.status_code == 202 and r.json()["status"] in ("running", "done")
    for _ in range(600):
        body = client.get(f"/api/games/{gid}/review?seat=0").json()
        if body["status"] != "running":
            break
        time.sleep(0.1)
    assert body["status"] == "done", body
    assert body["done"] == body["total"] == len(body["decisions"]) > 0
    losses = [m["loss"] for m in body["mistakes"]]
    assert losses == sorted(losses, reverse=True)
    assert body["chart"][-1]["final"] and body["chart"][-1]["scores"] == record["result"]["scores"]
    assert client.get(f"/review/{gid}").status_code == 200 and client.get(f"/replay/{gid}").status_code == 200


def test_hints_only_in_practice_games_and_only_for_ones_own_decision(client):
    rated = create(client, [{"agent": "human"}, {"agent": "human"}], seed=2)
    assert client.get(f"/api/games/{rated['id']}/hint", headers=auth(rated["seats"][0]["token"])).status_code == 403
    practice = create(client, [{"agent": "human"}, {"agent": "human"}], seed=2, practice=True)
    assert client.get(f"/api/games/{practice['id']}").json()["practice"] is True
    client.app.state.lookback.settings = ReviewSettings(think=0.05, iterations=20)
    other = client.get(f"/api/games/{practice['id']}/hint", headers=auth(practice["seats"][1]["token"]))
    assert other.status_code == 409                       # seat 1 does not decide now
    r = client.get(f"/api/games/{practice['id']}/hint", headers=auth(practice["seats"][0]["token"]))
    assert r.status_code == 200, r.text
    legal = client.get(f"/api/games/{practice['id']}", headers=auth(practice["seats"][0]["token"])).json()
    assert r.json()["action"] in legal["obs"]["legal_actions"] and r.json()["seq"] == 0
    assert client.post("/api/games", json={"game": GAME, "seats": ["human"], "practice": "yes"}).status_code == 400
