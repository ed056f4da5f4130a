"""Hidden information on every route and every WebSocket message, for every game.

The proof: for each caller (each seat with its token, and a spectator), every payload it can get —
``GET`` of the game, its log, its record, its rules, the listing, its move deadline and its chat; the
errors of an illegal, a stale and a forbidden action; the WebSocket ``welcome``, ``sync``, ``pong``, ``error`` and the
``state`` broadcast — is collected from the real game and again from a copy in which everything that
caller cannot see is resampled (``state.sample_hidden``; the log rebuilt from the copy's history). The
two must be identical, so no payload depends on anything hidden from its receiver. A spectator knows
less than any seat, so its payloads must survive every seat's resampling. While the game runs, no
caller reads or is pushed the other chat channel's words (seats' vs spectators').
"""

from __future__ import annotations

import dataclasses
import json

import pytest

import grimoire
from grimoire.core.registry import game_info
from grimoire.core.rng import Rng

from .conftest import auth, create_game
from .test_api import recv, wait_for


def _players(game: str) -> int:
    counts = game_info(game).player_counts
    return next((n for n in (3, 2) if n in counts), counts[-1])


def _payloads(c, gid: str, token: str | None, seq: int) -> dict[str, object]:
    """Every payload this caller can get, by route / message type."""
    h = auth(token)
    out: dict[str, object] = {}
    for path in ("", "/log", "/record", "/rules"):
        r = c.get(f"/api/games/{gid}{path}", headers=h)
        out["GET" + path] = (r.status_code, r.text)
    r = c.get(f"/api/games?ids={gid}")
    out["list"] = (r.status_code, r.json()["games"][0] | {"updated_at": None})
    # the slow games' deadline and the chat (the caller's own channel; the other one is refused while the
    # game runs: CHAT_WORDS below)
    r = c.get(f"/api/games/{gid}/turn", headers=h)
    out["GET/turn"] = (r.status_code, r.text)
    for channel in ("", "?channel=seats", "?channel=spectators"):
        r = c.get(f"/api/games/{gid}/chat{channel}", headers=h)
        out["GET/chat" + channel] = (r.status_code, r.text)
    if token is None:
        # a seat's answer is about its own last action, judged by replaying the game from its seed, which
        # a resampled copy cannot do (tests/web/test_undo.py covers it); a spectator's must not vary
        r = c.get(f"/api/games/{gid}/undo", headers=h)
        out["GET/undo"] = (r.status_code, r.text)
    r = c.post(f"/api/games/{gid}/undo", headers=h, json={"seq": seq + 5})
    out["POST undo stale"] = (r.status_code, r.text)
    for name, body in (("illegal", {"seq": seq, "action": "fly to the moon"}),
                       ("stale", {"seq": seq + 5, "action": "end"}),
                       ("bad", {"seq": seq, "action": ""})):
        r = c.post(f"/api/games/{gid}/actions", headers=h, json=body)
        out["POST " + name] = (r.status_code, r.text)
    with c.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.send_json({"type": "join", "token": token})
        out["ws welcome"] = recv(ws, "welcome")
        ws.send_json({"type": "sync"})
        out["ws sync"] = recv(ws, "welcome")
        ws.send_json({"type": "ping", "id": "p"})
        out["ws pong"] = recv(ws, "pong")
        ws.send_json({"type": "act", "id": "a", "seq": seq, "action": "fly to the moon"})
        out["ws illegal"] = recv(ws, "error")
        ws.send_json({"type": "act", "id": "b", "seq": seq + 5, "action": "end"})
        out["ws stale"] = recv(ws, "error")
        ws.send_json({"type": "bogus"})
        out["ws unknown"] = recv(ws, "error")
    return out


def _resampled(real, seat: int, rng: Rng):
    """The session with everything ``seat`` cannot see resampled, its log rebuilt from the copy (who made
    each action and in which round, replayed). Zauberschmiede's determinization redraws the other seats'
    secret choices of the round, and how many each made: no payload may show that number either."""
    fake_state = real.state.sample_hidden(seat, rng)
    history = fake_state.history
    actors, rounds = _actors(fake_state)
    if len(actors) != len(history):
        return None
    fake_log = [{"seq": i + 1, "seat": actors[i], "text": history[i], "round": rounds[i]}
                for i in range(len(history))]
    return dataclasses.replace(real, state=fake_state, log=fake_log, seq=len(history))


def _actors(state) -> tuple[list[int], list]:
    """The seat that made each action of the state's history and the round it was made in (as the server
    logs it: the spectators' observation's round), replayed from its record."""
    rec = state.record()
    replayed = grimoire.new_game(rec["game"], rec["players"], rec["seed"], **rec["options"])
    actors, rounds = [], []
    for text in rec["actions"]:
        actors.append(replayed.current_player)
        rounds.append(replayed.observation(None).get("round"))
        try:
            replayed.apply(text)
        except grimoire.IllegalAction:
            return [], []
    return actors, rounds


def _difference(a, b, path: str = "") -> str:
    """Where two payloads differ first (for the failure message)."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        a, b = a[1], b[1]
    if isinstance(a, str) and isinstance(b, str) and a[:1] in "{[" and b[:1] in "{[":
        a, b = json.loads(a), json.loads(b)
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return _difference(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _difference(x, y, f"{path}[{i}]")
    return f"{path}: {str(a)[:300]} != {str(b)[:300]}"


# what each channel of the chat said: a seat must not read the spectators' words while the game runs, nor
# a spectator the seats'
CHAT_WORDS = {"seats": "the seats plan 7f3a", "spectators": "the crowd cheers 9c2e"}


def _say_in_both_channels(c, gid: str, token: str) -> None:
    for channel, words in CHAT_WORDS.items():
        r = c.post(f"/api/games/{gid}/chat", json={"text": words}, headers=auth(token if channel == "seats" else None))
        assert r.status_code == 201, r.text


def _other_channel(caller: int | None) -> str:
    return CHAT_WORDS["spectators" if caller is not None else "seats"]


def _no_other_channel(c, gid: str, toks: dict, n: int) -> None:
    """While the game runs, nothing a caller gets, over HTTP or pushed on its socket, has the other channel's
    words — also when the other channel speaks while the caller's socket is open."""
    for caller in [None, *range(n)]:
        with c.websocket_connect(f"/ws/games/{gid}") as ws:
            ws.send_json({"type": "join", "token": toks.get(caller)})
            recv(ws, "welcome")
            _say_in_both_channels(c, gid, toks[0])
            ws.send_json({"type": "ping", "id": "p"})
            pushed = []
            while (m := ws.receive_json())["type"] != "pong":
                pushed.append(m)
        chats = [m for m in pushed if m["type"] == "chat"]
        assert chats and {m["channel"] for m in chats} == {"seats" if caller is not None else "spectators"}
        assert _other_channel(caller) not in json.dumps(pushed), f"seat {caller}'s socket got the other chat"


@pytest.mark.parametrize("game", grimoire.games())
def test_no_payload_depends_on_what_its_receiver_cannot_see(client, game):
    n = _players(game)
    # a slow game: its deadline route names the seat to move and when its time runs out
    g = create_game(client, [{"agent": "human"}] * n, game=game, turn={"deadline": "1d", "on_expire": "forfeit"})
    gid = g["id"]
    toks = {s["seat"]: s["token"] for s in g["seats"]}
    assert client.get(f"/api/games/{gid}/turn").json()["due_at"]
    _say_in_both_channels(client, gid, toks[0])
    hub = client.app.state.hub
    rng = Rng(2024)
    compared = 0
    differing_truths = 0
    secret_entries = 0
    last = ""
    for step in range(40):
        real = hub.sessions[gid]
        if step % 12 == 5 or (last == "end" and step > 20) or real.state.is_terminal():
            for caller in [None, *range(n)]:
                token = toks.get(caller)
                seq = real.seat_seq(caller)
                truth = _payloads(client, gid, token, seq)
                if not real.state.is_terminal():
                    said = json.dumps(truth, ensure_ascii=False)
                    assert CHAT_WORDS["seats" if caller is not None else "spectators"] in said
                    assert _other_channel(caller) not in said, f"{game}: seat {caller} reads the other chat"
                    assert truth["GET/chat?channel=" + ("spectators" if caller is not None else "seats")][0] == 403
                secret_entries += real.seq - len(json.loads(truth["GET/log"][1])["log"])
                wait_for(lambda: not hub.sessions[gid].conns)
                for resample_as in (range(n) if caller is None else [caller]):
                    fake = _resampled(real, resample_as, Rng(rng.next64()))
                    if fake is None:
                        continue
                    if fake.state.to_dict() != real.state.to_dict():
                        differing_truths += 1
                    hub.sessions[gid] = fake
                    try:
                        got = _payloads(client, gid, token, seq)
                        wait_for(lambda: not hub.sessions[gid].conns)
                        state_real = hub.view_json(real, caller, "state", real.visible_entries(caller)[-1:])
                        state_fake = hub.view_json(fake, caller, "state", fake.visible_entries(caller)[-1:])
                    finally:
                        hub.sessions[gid] = real
                    for key in truth:
                        assert got[key] == truth[key], (f"{game}: {key} for seat {caller} depends on hidden "
                                                        f"information: {_difference(got[key], truth[key])}")
                    assert state_fake == state_real, f"{game}: the state broadcast to seat {caller} leaks"
                    compared += len(truth) + 1
        if real.state.is_terminal():
            break
        if step == 7:
            _no_other_channel(client, gid, toks, n)
        cp = real.state.current_player
        legal = [str(a) for a in real.state.legal_actions()]
        r = client.post(f"/api/games/{gid}/actions", headers=auth(toks[cp]),
                        json={"seq": real.seat_seq(cp), "action": legal[rng.below(len(legal))]})
        assert r.status_code == 200, r.text
        last = r.json()["action"]
    assert compared > 100
    # the resampling did change the hidden truth (else the comparison would prove nothing), and the games
    # with secret moves had some in the logs compared
    assert differing_truths > 0
    if type(real.state).visible_history is not grimoire.GameState.visible_history:
        assert secret_entries > 0


def test_the_log_is_filtered_per_seat(client):
    """Zauberschmiede: the other seats' choices of the round being decided are secret; the log route
    shows them to nobody but their maker (before, it showed them to anyone, without a token)."""
    g = create_game(client, [{"agent": "human"}] * 2, game="zauberschmiede", seed=8)
    gid = g["id"]
    toks = {s["seat"]: s["token"] for s in g["seats"]}
    hub = client.app.state.hub
    s = hub.sessions[gid]
    first = s.state.current_player
    made = []
    while s.state.current_player == first and len(made) < 6:
        legal = [str(a) for a in s.state.legal_actions()]
        text = next((a for a in legal if a != "end"), "end") if len(made) < 5 else "end"
        r = client.post(f"/api/games/{gid}/actions", headers=auth(toks[first]),
                        json={"seq": s.seat_seq(first), "action": text})
        assert r.status_code == 200, r.text
        made.append(r.json()["action"])
    assert s.state.current_player != first and not s.state.is_terminal()
    other = s.state.current_player
    spectator = client.get(f"/api/games/{gid}/log").json()
    theirs = client.get(f"/api/games/{gid}/log", headers=auth(toks[other])).json()
    mine = client.get(f"/api/games/{gid}/log", headers=auth(toks[first])).json()
    assert [e["text"] for e in mine["log"]] == made and mine["seat"] == first and mine["seq"] == len(made)
    # the others see neither the choices nor how many there were: no entries, and their sequence number
    # did not move (it counts what they may see)
    assert spectator["log"] == [] and spectator["seq"] == 0
    assert theirs["log"] == [] and theirs["seat"] == other and theirs["seq"] == 0
    assert client.get(f"/api/games/{gid}/log", headers=auth("forged")).status_code == 401


def test_chosen_seeds_are_refused_unless_allowed_and_then_shown_to_all(db_url):
    from fastapi.testclient import TestClient

    from grimoire.web.app import create_app
    seats = [{"agent": "human"}] * 2
    with TestClient(create_app(db_url, ai_delay=0)) as c:
        r = c.post("/api/games", json={"game": "zavandor", "seats": seats, "seed": 5})
        assert r.status_code == 400 and r.json()["error"]["code"] == "seed_not_allowed"
        assert "--allow-seeds" in r.json()["error"]["message"]
        g = create_game(c, seats)                        # without a seed: drawn by the server, hidden
        v = c.get(f"/api/games/{g['id']}").json()
        assert v["fixed_seed"] is False and "seed" not in v
    with TestClient(create_app(db_url, ai_delay=0, allow_seeds=True)) as c:
        g = create_game(c, seats, seed=5)
        toks = [s["token"] for s in g["seats"]]
        for tok in (None, *toks):
            v = c.get(f"/api/games/{g['id']}", headers=auth(tok)).json()
            assert v["fixed_seed"] is True and v["seed"] == 5
        with c.websocket_connect(f"/ws/games/{g['id']}") as ws:
            ws.send_json({"type": "join", "token": None})
            w = recv(ws, "welcome")
            assert w["seed"] == 5 and json.loads(json.dumps(w))["fixed_seed"] is True
