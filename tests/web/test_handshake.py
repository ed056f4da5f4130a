"""A WebSocket's handshake request taken from httptools' parse (``protocols._handshake_request``) instead of
written out again and parsed by websockets: the same ``Request`` websockets builds from the same bytes,
and websockets' own parser (and its answers) for anything it would refuse or that is not certain to pass."""

from __future__ import annotations

import base64
import json
import socket

import pytest
from websockets.http11 import Request
from websockets.streams import StreamReader
from websockets.utils import accept_key

from grimoire.web.protocols import _handshake_request

from .conftest import create_game

BROWSER = [
    (b"host", b"games.example.org"), (b"connection", b"Upgrade"), (b"pragma", b"no-cache"),
    (b"cache-control", b"no-cache"),
    (b"user-agent", b"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0"),
    (b"upgrade", b"websocket"), (b"origin", b"https://games.example.org"), (b"sec-websocket-version", b"13"),
    (b"accept-encoding", b"gzip, deflate, br, zstd"), (b"accept-language", b"hu-HU,hu;q=0.9,\xe9n;q=0.8"),
    (b"sec-websocket-key", b"dGhlIHNhbXBsZSBub25jZQ=="),
    (b"sec-websocket-extensions", b"permessage-deflate; client_max_window_bits  "),
]


def _websockets_parse(method: str, url: bytes, headers: list[tuple[bytes, bytes]]) -> Request:
    """What websockets made of uvicorn's copy of the request (``handle_websocket_upgrade``'s bytes)."""
    raw = [method.encode(), b" ", url, b" HTTP/1.1\r\n"]
    for name, value in headers:
        raw += [name, b": ", value, b"\r\n"]
    reader = StreamReader()
    reader.feed_data(b"".join(raw) + b"\r\n")
    parser = Request.parse(reader.read_line)
    with pytest.raises(StopIteration) as done:
        next(parser)
    return done.value.value


def _same(a: Request, b: Request) -> None:
    assert (a.method, a.path, a.protocol) == (b.method, b.path, b.protocol)
    assert list(a.headers.raw_items()) == list(b.headers.raw_items())
    for name in ("Sec-WebSocket-Extensions", "upgrade", "Accept-Language"):
        assert a.headers.get_all(name) == b.headers.get_all(name)


@pytest.mark.parametrize("url", [b"/ws/games/abc_DEF-123", b"/ws/games/x?lang=hu&a=%20b"])
def test_the_same_request_as_websockets_parser(url):
    scope = {"method": "GET", "headers": BROWSER}
    ours = _handshake_request(scope, url)
    assert ours is not None
    _same(ours, _websockets_parse("GET", url, BROWSER))
    assert ours.headers["Sec-WebSocket-Key"] == "dGhlIHNhbXBsZSBub25jZQ=="
    assert ours.headers["Accept-Language"] == "hu-HU,hu;q=0.9,\u00e9n;q=0.8"   # ISO-8859-1, as websockets


@pytest.mark.parametrize("case", ["too_many", "non_ascii_url", "space_in_url", "chunked", "body", "bad_name",
                                  "nul_value", "long_line", "long_url"])
def test_what_websockets_would_refuse_goes_to_websockets(case):
    headers = list(BROWSER)
    url = b"/ws/games/abc"
    if case == "too_many":
        headers += [(f"x-h{i}".encode(), b"1") for i in range(130)]
    elif case == "non_ascii_url":
        url = "/ws/games/é".encode()
    elif case == "space_in_url":
        url = b"/ws/games/a b"
    elif case == "chunked":
        headers.append((b"transfer-encoding", b"chunked"))
    elif case == "body":
        headers.append((b"content-length", b"5"))
    elif case == "bad_name":
        headers.append((b"bad name", b"1"))
    elif case == "nul_value":
        headers.append((b"x-a", b"a\x00b"))
    elif case == "long_line":
        headers.append((b"x-long", b"a" * 8190))
    else:
        url = b"/ws/games/" + b"a" * 8190
    assert _handshake_request({"method": "GET", "headers": headers}, url) is None


def _handshake(port: int, path: str, extra: list[str]) -> tuple[socket.socket, bytes]:
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(b"0123456789abcdef").decode()
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13",
             "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits", *extra]
    s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    data = b""
    while b"\r\n\r\n" not in data:
        got = s.recv(4096)
        if not got:
            break
        data += got
    return s, data


def test_a_real_server_accepts_both_ways(server):
    g = create_game(server.base, [{"agent": "human"}] * 2)
    s, head = _handshake(server.port, f"/ws/games/{g['id']}", [])
    try:
        status, *lines = head.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
        fields = {k.lower(): v for k, v in (x.split(": ", 1) for x in lines)}
        assert status == "HTTP/1.1 101 Switching Protocols"
        assert fields["sec-websocket-accept"] == accept_key(base64.b64encode(b"0123456789abcdef").decode())
        assert fields["sec-websocket-extensions"].startswith("permessage-deflate")
        # an uncompressed, masked text frame: the join; the server answers with its welcome
        payload = json.dumps({"type": "join", "token": g["seats"][0]["token"]}).encode()
        mask = b"\x01\x02\x03\x04"
        s.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        first = s.recv(2)
        assert first[0] & 0x0F == 1                      # a text frame (compressed: RSV1) came back
    finally:
        s.close()
    # a header line near websockets' limit: not taken by the short cut, websockets' parser accepts it
    s, head = _handshake(server.port, f"/ws/games/{g['id']}", ["X-Long: " + "a" * 8170])
    s.close()
    assert head.startswith(b"HTTP/1.1 101 ")
    assert _handshake_request({"method": "GET", "headers": [(b"x-long", b"a" * 8170)]}, b"/") is None
    # more headers than websockets takes: its answer (431) is sent and the connection closed; before,
    # uvicorn never sent it and the socket stayed open for as long as the client liked
    s, head = _handshake(server.port, f"/ws/games/{g['id']}", [f"X-H{i}: 1" for i in range(130)])
    try:
        assert head.startswith(b"HTTP/1.1 431 ")
        rest = head.split(b"\r\n\r\n", 1)[1]
        while True:                       # the body, then the end of the stream (recv raises on a timeout)
            got = s.recv(4096)
            if not got:
                break
            rest += got
        assert b"Failed to open a WebSocket connection" in rest
    finally:
        s.close()
