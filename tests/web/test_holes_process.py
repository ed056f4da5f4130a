"""Holes a real server process must close (``grimoire serve`` with its uvicorn protocols): compressed
WebSocket frames that inflated without bound in memory, and half-sent HTTP requests never timed out."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from .conftest import ServerProcess, create_game

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the server's memory in /proc")


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


def test_compressed_frames_cannot_multiply_the_servers_memory(tmp_path):
    """2,000 permessage-deflate frames of ~100 bytes on the wire, each a 60 KB message, sent without
    reading: before, the server inflated whatever one read of the socket held into its queue (the probe
    saw ~126 MB); now it parses no more than its bounded queue holds and TCP keeps the rest."""
    srv = ServerProcess(f"sqlite:///{tmp_path / 'g.db'}", tmp_path / "server.log")
    srv.start()
    try:
        g = create_game(srv.base, [{"agent": "human"}] * 2)
        before = _peak_rss_mb(srv.proc.pid)
        message = json.dumps({"type": "ping", "pad": "x" * 60_000})
        ws = connect(srv.base.replace("http", "ws") + f"/ws/games/{g['id']}", compression="deflate",
                     max_size=None)
        ws.send(json.dumps({"type": "join", "token": None}))
        sent = [0]

        def flood():
            try:
                for _ in range(2000):
                    ws.send(message)
                    sent[0] += 1
            except Exception:  # noqa: BLE001 - the server may close the connection: that is fine
                pass
        t = threading.Thread(target=flood, daemon=True)
        t.start()
        t.join(timeout=15)               # the sends block once TCP's buffers are full: that is the point
        time.sleep(1.0)
        grew = _peak_rss_mb(srv.proc.pid) - before
        assert sent[0] > 100                               # the flood did go out (compressed, it is small)
        # measured: +13.6 MB before (one socket read of ~220 such frames inflated at once), +0.1 MB now
        assert grew < 5, f"the server's memory grew by {grew:.0f} MB for {sent[0]} compressed frames"
        # and the server still answers everyone else
        assert httpx.get(srv.base + "/api/health", timeout=10).status_code == 200
        ws.close_socket() if hasattr(ws, "close_socket") else ws.socket.close()
    finally:
        srv.stop()


def test_half_sent_requests_are_timed_out(tmp_path):
    srv = ServerProcess(f"sqlite:///{tmp_path / 'g.db'}", tmp_path / "server.log",
                        extra=("--header-timeout", "1"))
    srv.start()
    socks = []
    try:
        for i in range(30):                 # slowloris: a request line and part of the headers, then nothing
            s = socket.create_connection(("127.0.0.1", srv.port))
            s.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\n" if i % 2 else b"")
            socks.append(s)
        time.sleep(2.5)
        closed = 0
        for s in socks:
            s.settimeout(2)
            try:
                closed += s.recv(100) == b""
            except ConnectionResetError:
                closed += 1
            except TimeoutError:          # still open
                pass
        assert closed == len(socks), f"{len(socks) - closed} half-sent requests still hold a connection"
        # a complete request is served as always, and a slow but steady one within the time too
        assert httpx.get(srv.base + "/api/meta", timeout=10).status_code == 200
    finally:
        for s in socks:
            s.close()
        srv.stop()
