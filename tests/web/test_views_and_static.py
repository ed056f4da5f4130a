"""Per-seat views are built once per sequence number and only for seats someone follows; a new
action invalidates them; the payment/discard hints come from the engine's defaults; the fixed game
tables are served once (ETag); the load benchmark runs against a real server."""

from __future__ import annotations

import asyncio
import json
import random

import orjson
import pytest

import grimoire
from grimoire.core.registry import game_info
from grimoire.core.rng import Rng
from grimoire.web import fastjson

from .conftest import auth, create_game
from .test_api import HUMAN3, recv, tokens_of, view


def _without_history(d):
    return {k: v for k, v in d.items() if k != "history"}


class CountObservations:
    """Counts the seats whose observation is built (``observation(seat)`` and ``observations(seats)``,
    the engine's expensive part of a view) on the states of one game (told apart by its seed: other
    apps may live on in this test process)."""

    def __init__(self, monkeypatch, state):
        self.calls: list = []
        cls = type(state)
        real = cls.observation
        seed = state.seed
        real_many = cls.observations

        def counting(st, seat):
            if st.seed == seed:
                self.calls.append(seat)
            return real(st, seat)

        def counting_many(st, seats):
            if st.seed == seed:
                self.calls.extend(seats)
            return real_many(st, seats)
        monkeypatch.setattr(cls, "observation", counting)
        monkeypatch.setattr(cls, "observations", counting_many)


def test_views_are_cached_per_sequence_number_and_invalidated_by_an_action(client, monkeypatch):
    g = create_game(client, HUMAN3, seed=917_235_001)
    toks = tokens_of(g)
    hub = client.app.state.hub
    s = hub.sessions[g["id"]]
    cp = s.state.current_player
    counter = CountObservations(monkeypatch, s.state)
    first = view(client, g["id"], toks[cp])
    again = view(client, g["id"], toks[cp])
    assert first == again and counter.calls == [cp]              # the second request used the cache
    cached = s.seat_view(cp)
    assert fastjson.loads(cached.obs_json) == s.state.observation(cp) == first["obs"]
    counter.calls.clear()
    r = client.post(f"/api/games/{g['id']}/actions", headers=auth(toks[cp]),
                    json={"seq": 0, "action": first["obs"]["legal_actions"][0]})
    assert r.status_code == 200, r.text
    after = view(client, g["id"], toks[cp])
    assert after["seq"] == 1 and counter.calls == [cp]           # rebuilt once for the new state
    assert s.seat_view(cp) is not cached
    assert after["obs"] == s.state.observation(cp) != first["obs"]
    assert after["hints"] == s.state.hints(cp)
    # every seat's view is its own: the other seats' views hold no card values of cp
    for seat in range(3):
        v = view(client, g["id"], toks[seat])
        assert v["obs"] == s.state.observation(seat)
        assert all("card_values" not in p for p in v["obs"]["zavandor"]["players"] if p["seat"] != seat)


def test_a_broadcast_builds_one_view_per_followed_seat(client, monkeypatch):
    g = create_game(client, HUMAN3, seed=917_235_002)
    toks = tokens_of(g)
    hub = client.app.state.hub
    s = hub.sessions[g["id"]]
    cp = s.state.current_player
    other = (cp + 1) % 3                                         # (cp + 2) % 3 has no connection
    sockets = []
    try:
        for tok in (toks[cp], toks[other], None, None):          # the deciding seat, one more, two spectators
            ws = client.websocket_connect(f"/ws/games/{g['id']}").__enter__()
            ws.send_json({"type": "join", "token": tok})
            recv(ws, "welcome")
            sockets.append(ws)
        counter = CountObservations(monkeypatch, s.state)
        legal = s.state.legal_actions()
        sockets[0].send_json({"type": "act", "id": "x", "seq": 0, "action": str(legal[0])})
        states = [recv(ws, "state") for ws in sockets]
        assert recv(sockets[0], "ack")["seq"] == 1
        assert sorted(counter.calls, key=str) == sorted([cp, other, None], key=str)
        assert [m["seq"] for m in states] == [1, 1, 1, 1] and states[2] == states[3]
        assert states[0]["obs"] == s.state.observation(cp) and states[2]["obs"] == s.state.observation(None)
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


def test_hints_are_the_engines_defaults_and_equivalent_to_them():
    seen = {"pay": 0, "discard": 0}
    for seed in range(12):
        s = grimoire.new_game("zavandor", 3, seed, max_rounds=10)
        rng = Rng(seed)
        while not s.is_terminal():
            cp = s.current_player
            obs = s.observation(cp)
            hints = s.hints(cp)
            for verb in ("pay", "discard"):
                text = hints.get(verb, {}).get("text")
                if text:
                    a, b = s.clone(), s.clone()
                    a.apply(verb)
                    b.apply(text)
                    assert _without_history(a.to_dict()) == _without_history(b.to_dict()), (verb, hints)
                    seen[verb] += 1
            if "pay" in hints:
                assert hints["pay"]["need"] == obs["zavandor"]["tab"]["owed"] - obs["zavandor"]["tab"]["credit"]
            for other in range(3):
                if other != cp:
                    assert s.hints(other) == {}
            assert s.hints(None) == {}
            acts = [x for x in s.legal_actions() if not str(x).startswith("sell")] or s.legal_actions()
            s.apply(acts[rng.below(len(acts))])
    assert seen["pay"] > 20 and seen["discard"] > 0


def test_static_tables_are_served_once_with_an_etag(client):
    r = client.get("/api/static/zavandor")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert body["game"] == "zavandor" and body["data"] == json.loads(json.dumps(game_info("zavandor").static_data()))
    arts = {a["id"]: a for a in body["data"]["artifacts"]}
    assert arts["talisman"]["min_bid"] == 100 and arts["talisman"]["vp"] == 8 and arts["belt"]["deck"] == "B"
    etag = r.headers["etag"]
    assert etag.startswith('"') and "no-cache" in r.headers["cache-control"]
    again = client.get("/api/static/zavandor", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    assert client.get("/api/static/zavandor", headers={"If-None-Match": '"other"'}).status_code == 200
    assert client.get("/api/static/chess").status_code == 404
    meta = next(x for x in client.get("/api/meta").json()["games"] if x["name"] == "zavandor")
    assert meta["static_url"] == "/api/static/zavandor" and meta["static_etag"] == etag
    arena = game_info("zavandor").arena
    assert meta["roles"] == {"option": arena.role_option, "values": list(arena.roles)}
    # the board module reads the tables instead of copying them
    js = client.get("/games/zavandor/board.js").text
    assert "/api/static/zavandor" in js and "talisman" not in js


def test_loadtest_plays_games_through_a_real_server(server):
    from grimoire.cli.loadtest import _run, default_game
    players = grimoire.game_info(default_game()).default_players
    stats, wall = asyncio.run(_run(server.base, games=4, players=players, ai_seats=0, actions=5, think=0.02, seed=3,
                                   ramp=0.2, timeout=60))
    assert stats.errors == [] and stats.finished_games == 4 and stats.created_games == 4
    assert stats.actions == 20 and all(lat > 0 for _t, lat in stats.samples)
    assert stats.connected_at is not None and wall < 60


def test_loadtest_clients_read_a_views_head_as_the_whole_decode_does(client):
    # the load-test clients read seq, status and the current player from a view's text and decode it
    # whole only when their seat decides: the head they read must be what the whole text says
    from grimoire.cli.loadtest import _peek

    def check(text):
        whole = orjson.loads(text)
        assert _peek(text) == {"type": whole["type"], "seq": whole["seq"], "status": whole["status"],
                               "cp": whole["obs"]["current_player"]}
        return whole

    seen = 0
    for name in grimoire.games():
        n = grimoire.game_info(name).default_players
        g = create_game(client, [{"agent": "human"}] * n, game=name, seed=4)
        with client.websocket_connect(f"/ws/games/{g['id']}") as spectator:
            spectator.send_json({"type": "join", "token": None})
            cp = check(spectator.receive_text())["obs"]["current_player"]
        for step in range(5):
            with client.websocket_connect(f"/ws/games/{g['id']}") as ws:
                ws.send_json({"type": "join", "token": g["seats"][cp]["token"]})
                mine = check(ws.receive_text())
                ws.send_json({"type": "act", "id": step, "seq": mine["seq"],
                              "action": mine["obs"]["legal_actions"][0]})
                while True:
                    text = ws.receive_text()
                    if not text.startswith('{"type":"state"'):
                        assert _peek(text) is None          # ack, presence: decoded whole as before
                        continue
                    cp = check(text)["obs"]["current_player"]
                    seen += 2
                    break
    assert seen >= 2 * 5 * len(grimoire.games())


@pytest.mark.parametrize("game", ["zavandor", "shuluri", "zauberschmiede"])
def test_a_broadcasts_shared_parts_give_every_seat_the_same_text_as_alone(game):
    """``Hub.view_json`` with a broadcast's memo (the head after the seat and the new entries serialized
    once) gives each seat byte for byte the text it would get alone, state after state."""
    from grimoire.web.hub import Hub, Seat, Session
    seats = [Seat(i, "human", f"p{i}", None) for i in range(4)]
    s = Session(id="g", game=game, seed=4, options={}, seats=seats, state=grimoire.new_game(game, 4, 4), seq=0,
                fixed_seed=True, preset={"x": 1})
    hub = Hub.__new__(Hub)
    rng = random.Random(4)
    for _ in range(25):
        memo: dict = {}
        entries = [{"seq": s.seq, "seat": 0, "text": "t", "round": None}]
        texts = {seat: hub.view_json(s, seat, "state", entries, memo) for seat in (0, 1, 2, 3, None)}
        assert len(memo) == 2                  # one head tail, one serialized entry list for all seats
        for seat, text in texts.items():
            assert text == hub.view_json(s, seat, "state", entries)
            assert fastjson.loads(text)["seat"] == seat and fastjson.loads(text)["log"] == entries
        legal = s.state.legal_actions()
        s.state.apply(str(legal[rng.randrange(len(legal))]))
        s.seq += 1
