"""The server's own WebSocket framing (``protocols.frames``): byte for byte what websockets sends."""

from __future__ import annotations

import random
import zlib

import pytest
from websockets.exceptions import InvalidState
from websockets.protocol import OPEN
from websockets.server import ServerProtocol

from grimoire.web.protocols import _deflate, frames


def _conn(deflate: bool) -> ServerProtocol:
    conn = ServerProtocol()
    conn.state = OPEN
    if deflate:
        _params, ext = _deflate().process_request_params([], [])
        conn.extensions = [ext]
    return conn


def _reference(conn: ServerProtocol, texts: list[str]) -> bytes:
    for text in texts:
        conn.send_text(text.encode())
    return b"".join(conn.data_to_send())


def _texts(rng: random.Random) -> list[str]:
    # every length class of the frame header (< 126, < 65536, larger), repeated and fresh text, non-ASCII
    out = []
    for size in (0, 1, 125, 126, 127, 3000, 65535, 65536, 70000, 200):
        alphabet = "abcé€🂡{}\":," if rng.random() < 0.5 else "a"
        out.append("".join(rng.choice(alphabet) for _ in range(size)))
    out.append(out[5])
    return out


@pytest.mark.parametrize("deflate", [True, False])
def test_the_same_bytes_as_websockets(deflate):
    rng = random.Random(7)
    ours, theirs = _conn(deflate), _conn(deflate)
    inflate = zlib.decompressobj(-15)
    for batch in range(4):
        texts = _texts(rng)[batch:batch + 5]
        got = frames(ours, texts)
        assert got == _reference(theirs, texts)
        if deflate:                         # and a browser's inflater reads them back
            assert got[0] == 0xC1
    assert not ours.data_to_send()
    if deflate:
        first = frames(_conn(True), ["hello hello hello"])
        assert inflate.decompress(first[2:] + b"\x00\x00\xff\xff") == b"hello hello hello"


def test_what_the_protocol_queued_goes_first():
    ours, theirs = _conn(True), _conn(True)
    for conn in (ours, theirs):
        conn.send_pong(b"p")
    assert frames(ours, ["x"]) == _reference(theirs, ["x"])
    assert frames(ours, ["x"]).startswith(b"\xc1") and not ours.writes


def test_a_connection_that_is_not_open_refuses_like_websockets():
    conn = _conn(True)
    conn.send_close(1000)
    conn.data_to_send()
    with pytest.raises(InvalidState):
        frames(conn, ["late"])


def test_unusual_connections_go_through_websockets():
    # no context takeover: a fresh compressor per message, websockets' own path
    ours, theirs = _conn(False), _conn(False)
    for conn in (ours, theirs):
        _params, ext = _deflate().process_request_params([("server_no_context_takeover", None)], [])
        assert ext.local_no_context_takeover
        conn.extensions = [ext]
    texts = ["view " * 50, "view " * 51]
    assert frames(ours, texts) == _reference(theirs, texts)
