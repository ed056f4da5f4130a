"""One way to read the database off the event loop (``Store.read``) for accounts, open tables, ratings,
chat, move deadlines and undo: when the database does not answer, each route says so in one line (503
``storage_unavailable``, never a traceback), and the log says what could not be read."""

from __future__ import annotations

import logging

from grimoire.web.hub import STORAGE_MESSAGE

from .conftest import auth, create_game
from .test_accounts_ratings import account


class _Gone:
    """An engine whose every connection fails, as a database that stopped answering."""

    def connect(self):
        raise RuntimeError("the database is gone")


def test_every_reader_answers_one_line_when_the_database_is_gone(client, caplog):
    g = create_game(client, [{"agent": "human"}, {"agent": "human"}], turn={"deadline": "1d"})
    gid, token = g["id"], g["seats"][0]["token"]
    ann = account(client, "Ann Reader")
    assert ann.get("/api/account").json()["user"] == {"username": "Ann Reader"}
    store = client.app.state.hub.store
    engine, store.engine = store.engine, _Gone()
    caplog.set_level(logging.ERROR)
    try:
        _every_reader(client, ann, gid, token)
    finally:
        store.engine = engine
    said = caplog.text
    for what in ("accounts", "open tables", "ratings", "the chat", "the move deadlines", "whether the game is rated"):
        assert f"{what} could not be read: the database is gone" in said, what


def _every_reader(client, ann, gid: str, token: str) -> None:
    for who, path, headers in ((ann, "/api/account", {}), (client, "/api/tables", {}),
                               (client, "/api/ratings/zavandor", {}), (client, f"/api/games/{gid}/chat", {}),
                               (client, f"/api/games/{gid}/turn", {}),
                               (client, f"/api/games/{gid}/undo", auth(token))):
        r = who.get(path, headers=headers)
        assert r.status_code == 503, (path, r.text)
        assert r.json()["error"]["code"] == "storage_unavailable" and r.json()["error"]["message"] == STORAGE_MESSAGE
