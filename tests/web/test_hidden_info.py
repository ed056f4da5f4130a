"""Hidden information: no HTTP or WebSocket payload for a seat contains what that seat may not know.

Two proofs:
1. Inspection: every payload a seat (or a spectator) receives during a game is checked against the
   real state: no other player's card values, no deck contents, no RNG state, no seed, no hints for
   other seats, no record before the end.
2. Determinization: a seat's whole payload is unchanged when everything it cannot see is resampled
   (``state.sample_hidden``), so it cannot depend on anything hidden.
"""

from __future__ import annotations

import dataclasses
import json

from grimoire.core.rng import Rng

from .conftest import auth, create_game
from .test_api import recv

HIDDEN_KEYS = ("card_values", "under_card_values", "energy", "capacity")


def check_payload(text: str, seat: int | None, truth: dict) -> None:
    """``text`` is one JSON payload sent to ``seat``; ``truth`` is the real state's to_dict()."""
    data = json.loads(text)
    view = data if "obs" in data else None
    assert str(truth["rng"]) not in text, "the RNG state leaked"
    assert str(truth["seed"]) not in text, "the seed leaked"
    assert '"rng"' not in text and '"seed"' not in text and '"deck":' not in text
    for colour_counts in truth["state"]["deck"]:
        assert json.dumps(colour_counts) not in text.replace(" ", ""), "a deck's contents leaked"
    if view is None:
        return
    for p in view["obs"]["zavandor"]["players"]:
        if p["seat"] != seat:
            for key in HIDDEN_KEYS:
                assert key not in p, f"seat {seat} sees {key} of seat {p['seat']}"
        else:
            truth_cards = sorted(truth["state"]["seats"][seat]["cards"])
            assert sorted(v * 4 + "bgwr".index(c[0]) for v, c in p["card_values"]) == truth_cards
    if seat is None or view["obs"].get("current_player") != seat:
        assert view["hints"] == {} and view["obs"]["legal_actions"] is None
    assert "result" in view or "record" not in text


def test_payloads_of_every_seat_hide_what_it_may_not_know(client):
    g = create_game(client, [{"agent": "human"}] * 3)          # random 62-bit seed, unknown to the test
    gid = g["id"]
    toks = {s["seat"]: s["token"] for s in g["seats"]}
    hub = client.app.state.hub
    sockets = {}
    try:
        for seat in (0, 1, 2, None):
            ws = client.websocket_connect(f"/ws/games/{gid}").__enter__()
            ws.send_json({"type": "join", "token": toks.get(seat)})
            sockets[seat] = ws
        for seat, ws in sockets.items():
            check_payload(ws.receive_text(), seat, hub.sessions[gid].state.to_dict())
        rng = Rng(5)
        seen_auction = seen_pay = False
        for step in range(150):
            truth = hub.sessions[gid].state.to_dict()
            spectator_text = client.get(f"/api/games/{gid}").text
            check_payload(spectator_text, None, truth)
            cp = json.loads(spectator_text)["obs"]["current_player"]
            for seat in (0, 1, 2):
                check_payload(client.get(f"/api/games/{gid}", headers=auth(toks[seat])).text, seat, truth)
            mine = client.get(f"/api/games/{gid}", headers=auth(toks[cp])).json()
            legal = mine["obs"]["legal_actions"]
            seen_auction |= mine["obs"]["zavandor"]["auction"] is not None
            seen_pay |= "pay" in mine["hints"]
            action = legal[rng.below(len(legal))]
            r = client.post(f"/api/games/{gid}/actions", headers=auth(toks[cp]), json={"seq": step, "action": action})
            assert r.status_code == 200, r.text
            truth = hub.sessions[gid].state.to_dict()
            for seat, ws in sockets.items():
                while True:
                    text = ws.receive_text()
                    check_payload(text, seat, truth)
                    if json.loads(text).get("type") == "state":
                        break
            if truth["state"]["over"]:
                break
        assert seen_auction and seen_pay, "the sample game should include an auction and a payment"
        assert client.get(f"/api/games/{gid}/record").status_code == 409
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)


def test_a_seats_payload_does_not_depend_on_what_it_cannot_see(client):
    g = create_game(client, [{"agent": "human"}] * 4)
    gid = g["id"]
    toks = {s["seat"]: s["token"] for s in g["seats"]}
    hub = client.app.state.hub
    rng = Rng(77)
    checked = 0
    for step in range(220):
        s = hub.sessions[gid]
        if step % 5 == 0:
            for seat in range(4):
                real = hub.view(s, seat)
                for k in range(2):
                    # a copy with its own (empty) view cache: the fake view is built from the fake state
                    fake = dataclasses.replace(s, state=s.state.sample_hidden(seat, Rng(step * 10 + k)))
                    assert fake._views_seq == -1 and not fake._views
                    assert hub.view(fake, seat) == real, f"seat {seat}'s payload depends on hidden information"
                    checked += 1
        cp = s.state.current_player
        legal = hub.view(s, cp)["obs"]["legal_actions"]
        r = client.post(f"/api/games/{gid}/actions", headers=auth(toks[cp]),
                        json={"seq": s.seq, "action": legal[rng.below(len(legal))]})
        assert r.status_code == 200, r.text
        if s.state.is_terminal():
            break
    assert checked >= 100


def test_websocket_token_only_opens_its_own_seat(client):
    g = create_game(client, [{"agent": "human"}] * 2, seed=1234567)
    toks = {s["seat"]: s["token"] for s in g["seats"]}
    for seat, tok in toks.items():
        with client.websocket_connect(f"/ws/games/{g['id']}") as ws:
            ws.send_json({"type": "join", "token": tok})
            w = recv(ws, "welcome")
            assert w["seat"] == seat
            others = [p for p in w["obs"]["zavandor"]["players"] if p["seat"] != seat]
            assert all("card_values" not in p for p in others)
