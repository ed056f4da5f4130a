"""In a cluster a REST read first catches up with the actions other processes stored (``Hub.current``): one
indexed read of the newer actions for a copy the process already had, none for a game the read itself has
just loaded from the database. In-process on SQLite with a stand-in for the PostgreSQL cluster; the
catching up itself is tested with real processes in ``test_cluster.py``."""

from __future__ import annotations

from fastapi.testclient import TestClient

from grimoire.web.app import create_app

from .conftest import create_game


class OnlineNowhere:
    """The one thing a cluster is asked when a process loads a game: who is online on the others."""

    async def online_elsewhere(self, gid: str) -> dict:
        return {}


def test_a_cluster_read_asks_for_newer_actions_only_of_a_copy_it_already_had(tmp_path, monkeypatch):
    app = create_app(f"sqlite:///{tmp_path / 'grimoire.db'}", ai_delay=0)
    with TestClient(app) as client:
        gid = create_game(client, ["human", "human"])["id"]
        hub = app.state.hub
        asked: list[str] = []
        real = hub.store.actions_after
        monkeypatch.setattr(hub.store, "actions_after", lambda g, seq: asked.append(g) or real(g, seq))
        hub.cluster = OnlineNowhere()
        try:
            assert client.get(f"/api/games/{gid}").status_code == 200     # the copy made at creation
            assert asked == [gid]
            hub.sessions.pop(gid)                                         # evicted: the next read loads it
            assert client.get(f"/api/games/{gid}/log").status_code == 200
            assert asked == [gid] and gid in hub.sessions
            assert client.get(f"/api/games/{gid}").status_code == 200     # now a copy it had again
            assert asked == [gid, gid]
        finally:
            hub.cluster = None
        assert client.get(f"/api/games/{gid}").status_code == 200         # no cluster: no read of its own
        assert asked == [gid, gid]
