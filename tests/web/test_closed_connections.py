"""A closed WebSocket's objects are freed when it closes, by reference counting — its protocols, its
``Conn`` and its permessage-deflate (~264 KB) — not at the collector's next full pass, which ``GcKeeper``
makes rare: three reference cycles kept them (the HTTP protocol and its parser after the upgrade, the
scope and our methods in it, the client's disconnect re-raised in ``ws_session``), ~320 KB a connection
on a server whose players come and go. A real server in this process, so that its objects can be counted."""

from __future__ import annotations

import gc
import json
import socket
import threading
import time

import pytest
import uvicorn
from websockets.sync.client import connect

from grimoire.web.app import create_app
from grimoire.web.hub import Conn
from grimoire.web.protocols import BoundedWebSocketProtocol, TimedHttpProtocol

from .conftest import create_game

uvloop = pytest.importorskip("uvloop")      # the server's loop (uvicorn's "auto")


def _alive() -> int:
    kinds = (BoundedWebSocketProtocol, TimedHttpProtocol, Conn)
    return sum(1 for o in gc.get_objects() if type(o) in kinds)


def test_a_closed_websockets_objects_do_not_wait_for_the_collector(tmp_path):
    app = create_app(f"sqlite:///{tmp_path}/games.db")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, http=TimedHttpProtocol, ws=BoundedWebSocketProtocol,
                                           ws_max_size=64 * 1024, ws_per_message_deflate=True,
                                           log_level="warning"))
    loop = uvloop.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(server.serve(sockets=[sock]),), daemon=True)
    thread.start()
    try:
        for _ in range(200):
            if server.started:
                break
            time.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        g = create_game(base, [{"agent": "human"}] * 4)
        gc.disable()
        try:
            gc.collect()
            before = _alive()
            for st in g["seats"]:
                with connect(f"ws://127.0.0.1:{port}/ws/games/{g['id']}", compression="deflate") as ws:
                    ws.send(json.dumps({"type": "join", "token": st["token"]}))
                    while json.loads(ws.recv(timeout=10))["type"] != "welcome":
                        pass
            hub = app.state.hub
            for _ in range(200):                # the server has let go of the four connections
                if hub.connections == 0:
                    break
                time.sleep(0.05)
            assert hub.connections == 0
            time.sleep(0.2)                     # the connections' last callbacks
            assert _alive() == before, "a closed connection's objects wait for the garbage collector"
        finally:
            gc.enable()
    finally:
        server.should_exit = True
        thread.join(10)
