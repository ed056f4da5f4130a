"""``patch`` messages over the WebSocket: a connection that joins with ``"patch": true`` gets the edits
from the view it was sent last, and applying them (as the browser does) gives exactly the view the
server holds for its seat — for every game, every seat and a spectator; the patch carries nothing but
values of the seat's new view; connections that did not ask keep getting whole states."""

from __future__ import annotations

import copy

import pytest

import grimoire
from grimoire.core.registry import game_info
from grimoire.core.rng import Rng
from grimoire.web import delta

from .conftest import auth, create_game


@pytest.fixture
def client(db_url):
    """The app with patches on (``grimoire serve --ws-patches``)."""
    from fastapi.testclient import TestClient

    from grimoire.web.app import create_app
    with TestClient(create_app(db_url, ai_delay=0, allow_seeds=True, ws_patches=True)) as c:
        yield c


class Follower:
    """One WebSocket and the view it holds, kept up to date as play.js does."""

    def __init__(self, client, gid: str, token: str | None, patch: bool):
        self.cm = client.websocket_connect(f"/ws/games/{gid}")
        self.ws = self.cm.__enter__()
        self.ws.send_json({"type": "join", "token": token, "patch": patch})
        self.view: dict | None = None
        self.kinds: dict[str, int] = {}
        self.pings = 0
        self.drain()

    def drain(self) -> None:
        """Read everything sent so far (up to the answer of a ping)."""
        self.pings += 1
        self.ws.send_json({"type": "ping", "id": self.pings})
        while True:
            m = self.ws.receive_json()
            kind = m["type"]
            self.kinds[kind] = self.kinds.get(kind, 0) + 1
            if kind == "pong" and m["id"] == self.pings:
                return
            if kind in ("welcome", "state"):
                self.view = m
            elif kind == "patch":
                self.view = self._patched(m)
            elif kind == "presence" and self.view is not None:
                self.view["seats"] = m["seats"]

    def _patched(self, m: dict) -> dict:
        view = self.view
        assert view is not None and m["base"] == view["seq"], "a patch from a view the connection does not hold"
        new = {**view, **{k: v for k, v in m.items() if k not in ("obs", "hints", "base")}, "type": "state"}
        new["obs"] = delta.apply(copy.deepcopy(view["obs"]), m["obs"])
        new["hints"] = delta.apply(copy.deepcopy(view["hints"]), m["hints"])
        for part in ("obs", "hints"):
            _only_values_of(new[part], m[part])
        return new

    def close(self) -> None:
        self.cm.__exit__(None, None, None)


def _at(value, path):
    for key in path:
        value = value[key]
    return value


def _only_values_of(view: dict, edits: list) -> None:
    """Every value an edit carries is the new view's value at its place: a patch tells a seat nothing
    its new view does not (and that view is what the hidden-information tests check)."""
    for e in edits:
        if e[0] == "s":
            assert _at(view, e[1]) == e[2]
        elif e[0] == "l":
            assert _at(view, e[1])[e[3]:] == e[4]


def _players(game: str) -> int:
    counts = game_info(game).player_counts
    return next((n for n in (3, 2) if n in counts), counts[-1])


@pytest.mark.parametrize("game", grimoire.games())
def test_patched_views_equal_the_servers_views(client, game):
    n = _players(game)
    g = create_game(client, [{"agent": "human"}] * n, game=game)
    gid = g["id"]
    toks = {s["seat"]: s["token"] for s in g["seats"]}
    s = client.app.state.hub.sessions[gid]
    followers = {seat: Follower(client, gid, toks[seat], True) for seat in range(n)}
    followers["spectator"] = Follower(client, gid, None, True)
    whole = Follower(client, gid, None, False)
    rng = Rng(5)
    try:
        for step in range(36):
            if s.state.is_terminal():
                break
            cp = s.state.current_player
            legal = [str(a) for a in s.state.legal_actions()]
            r = client.post(f"/api/games/{gid}/actions", headers=auth(toks[cp]),
                            json={"seq": s.seat_seq(cp), "action": legal[rng.below(len(legal))]})
            assert r.status_code == 200, r.text
            if step == 17:                            # a resync in the middle: patches go on after it
                followers[0].ws.send_json({"type": "sync"})
            if step % 6 == 5:
                for key, f in [*followers.items(), ("whole", whole)]:
                    f.drain()
                    seat = key if isinstance(key, int) else None
                    truth = client.get(f"/api/games/{gid}", headers=auth(toks.get(seat))).json()
                    assert f.view is not None and f.view["seq"] == truth["seq"] == s.seat_seq(seat)
                    assert f.view["obs"] == truth["obs"], f"{game}: seat {key}'s patched view differs"
                    assert f.view["hints"] == truth["hints"]
                    assert f.view["status"] == truth["status"]
        for key, f in followers.items():
            assert f.kinds.get("patch", 0) > 0, f"{game}: {key} got no patch: {f.kinds}"
        assert "patch" not in whole.kinds and whole.kinds["state"] > 0
    finally:
        for f in [*followers.values(), whole]:
            f.close()


def test_without_ws_patches_the_server_sends_whole_states(db_url):
    """``grimoire serve``'s default: a page that asks for patches gets whole ``state`` messages."""
    from fastapi.testclient import TestClient

    from grimoire.web.app import create_app
    with TestClient(create_app(db_url, ai_delay=0)) as c:
        g = create_game(c, [{"agent": "human"}] * 2, game="zavandor")
        toks = {s["seat"]: s["token"] for s in g["seats"]}
        s = c.app.state.hub.sessions[g["id"]]
        f = Follower(c, g["id"], toks[0], True)
        try:
            for _ in range(4):
                cp = s.state.current_player
                r = c.post(f"/api/games/{g['id']}/actions", headers=auth(toks[cp]),
                           json={"seq": s.seq, "action": str(s.state.legal_actions()[0])})
                assert r.status_code == 200, r.text
            f.drain()
            assert f.kinds.get("state") == 4 and "patch" not in f.kinds
            truth = c.get(f"/api/games/{g['id']}", headers=auth(toks[0])).json()
            assert f.view is not None and f.view["obs"] == truth["obs"]
        finally:
            f.close()


def test_loadtest_clients_apply_patches(tmp_path):
    """``grimoire loadtest``'s clients ask for patches and apply them, as the page does (a real server
    process with --ws-patches): every game plays to its end without an error."""
    import asyncio

    from grimoire.cli.loadtest import _run

    from .conftest import ServerProcess
    srv = ServerProcess(f"sqlite:///{tmp_path / 'g.db'}", tmp_path / "server.log", extra=("--ws-patches",))
    srv.start()
    try:
        stats, _wall = asyncio.run(_run(srv.base, games=3, players=4, ai_seats=0, actions=8, think=0.02, seed=4,
                                        ramp=0.2, timeout=60, game="shuluri"))
    finally:
        srv.stop()
    assert stats.errors == [] and stats.finished_games == 3 and stats.actions == 24
