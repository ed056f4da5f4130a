"""The server's short cut for a read holding one whole text message (``BoundedWebSocketProtocol.
_one_text_frame``) against websockets' own parser: the same client bytes — compressed or not, every
length encoding, pings, fragments, several frames in one read, partial reads, bad UTF-8, a message that
inflates past the limit, an unmasked frame — give the application the same messages and the client the
same bytes (a close included), on two connections that differ only in the short cut."""

from __future__ import annotations

import asyncio
import random
import weakref

import pytest
import uvicorn
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory, PerMessageDeflate
from websockets.frames import Frame, Opcode
from websockets.uri import parse_uri

from grimoire.web.protocols import MAX_QUEUED_BYTES, BoundedWebSocketProtocol


class _Transport:
    def __init__(self):
        self.out: list[bytes] = []
        self.closed = False

    def write(self, data):
        self.out.append(bytes(data))

    def close(self):
        self.closed = True

    def is_closing(self):
        return self.closed

    def pause_reading(self):
        pass

    def resume_reading(self):
        pass

    def get_extra_info(self, name, default=None):
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 40000)}.get(name, default)


def _pair(fast: bool, deflate: bool, no_context_takeover: bool):
    got: list[dict] = []

    async def app(scope, receive, send):
        await receive()
        await send({"type": "websocket.accept"})
        while True:
            message = await receive()
            got.append(message)
            if message["type"] == "websocket.disconnect":
                return

    config = uvicorn.Config(app, ws_per_message_deflate=True, ws_max_size=64 * 1024, ws_ping_interval=None,
                            proxy_headers=False, lifespan="off")
    config.load()
    proto = BoundedWebSocketProtocol(config, ServerState(), {})
    if not fast:
        proto._one_text_frame = lambda data: False
    transport = _Transport()
    proto.connection_made(transport)
    ext = [ClientPerMessageDeflateFactory(client_no_context_takeover=no_context_takeover,
                                          compress_settings={"memLevel": 5})] if deflate else None
    client = ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws/games/x"), extensions=ext)
    return proto, transport, client, got


def _script(rng: random.Random, client: ClientProtocol) -> list[bytes | None]:
    """The client's reads as the server gets them (None: let the application catch up)."""
    reads: list[bytes | None] = []

    def text(t: str) -> bytes:
        client.send_text(t.encode())
        return b"".join(client.data_to_send())

    for size in (10, 125, 126, 500, 3000, 20_000, 60_000):     # every length encoding, below the 64 KB limit
        alphabet = "ab é€" if size < 60_000 else "ab"
        reads += [text('{"type":"act","action":"' + "".join(rng.choice(alphabet) for _ in range(size)) + '"}'), None]
    a, b = text("one"), text("two")
    reads += [a + b, None]                         # two frames in one read
    c = text('{"type":"ping","id":7}')
    reads += [c[:3], c[3:], None]                  # one frame over two reads
    client.send_ping(b"p")
    reads += [b"".join(client.data_to_send()), None]
    client.send_text(b"frag", fin=False)
    client.send_continuation(b"ment", fin=True)
    reads += [b"".join(client.data_to_send()), None]
    client.send_binary(b"\x00\x01")
    reads += [b"".join(client.data_to_send()), None]
    reads += [text("x" * 200), None]
    return reads


async def _run(fast: bool, deflate: bool, no_context_takeover: bool, tail: str) -> tuple[list, list, bool]:
    proto, transport, client, got = _pair(fast, deflate, no_context_takeover)
    proto.handshake(client.connect())
    for _ in range(5):
        await asyncio.sleep(0)
    client.receive_data(b"".join(transport.out))
    transport.out.clear()
    for read in _script(random.Random(3), client):
        if read is None:
            for _ in range(5):
                await asyncio.sleep(0)
        else:
            proto.data_received(read)
    if tail == "bomb":                     # inflates to 200 KB, past the 64 KB limit
        client.send_text(b"a" * 200_000)
        proto.data_received(b"".join(client.data_to_send()))
    elif tail == "utf8":
        client.send_frame(Frame(Opcode.TEXT, b"\xff\xfe"))
        proto.data_received(b"".join(client.data_to_send()))
    elif tail == "unmasked":
        proto.data_received(b"\x81\x05hello")
    elif tail == "garbage" and deflate:    # RSV1 with a payload that is not deflate
        proto.data_received(b"\xc1\x84" + b"\x00\x00\x00\x00" + b"\xff\xff\xff\xff")
    for _ in range(10):
        await asyncio.sleep(0)
    return got, transport.out, transport.closed


@pytest.mark.parametrize("deflate,no_context_takeover", [(True, False), (True, True), (False, False)])
@pytest.mark.parametrize("tail", ["none", "bomb", "utf8", "unmasked", "garbage"])
def test_the_short_cut_changes_nothing(deflate, no_context_takeover, tail):
    fast = asyncio.run(_run(True, deflate, no_context_takeover, tail))
    slow = asyncio.run(_run(False, deflate, no_context_takeover, tail))
    assert fast == slow
    got, out, closed = fast
    texts = [m.get("text") for m in got if m["type"] == "websocket.receive"]
    assert len(texts) >= 12 and texts[7:9] == ["one", "two"] and "fragment" in texts
    if tail in ("bomb", "utf8", "unmasked") or tail == "garbage" and deflate:
        assert closed and got[-1]["type"] == "websocket.disconnect"
    else:
        assert not closed


def test_the_short_cut_is_taken_for_a_browsers_message():
    async def run():
        proto, transport, client, got = _pair(True, True, False)
        proto.handshake(client.connect())
        for _ in range(5):
            await asyncio.sleep(0)
        client.receive_data(b"".join(transport.out))
        client.send_text(b'{"type":"act","id":1,"seq":3,"action":"pass"}')
        data = b"".join(client.data_to_send())
        assert len(data) < MAX_QUEUED_BYTES
        taken = proto._one_text_frame(data)
        await asyncio.sleep(0)
        return taken, proto.queue.qsize(), got
    taken, queued, got = asyncio.run(run())
    assert taken
    assert queued + len(got) == 1


def test_a_lost_connection_lets_go_of_its_compressor_at_once():
    """Its permessage-deflate (zlib-ng's compressor, ~270 KB, and the decompressor) is freed when the
    connection is lost, by reference counting: it lived as long as the protocol, which cycles keep until
    the collector's full pass (rare under ``GcKeeper``), so a new connection could not reuse its memory."""
    async def run():
        proto, _transport, client, _got = _pair(True, True, False)
        proto.handshake(client.connect())
        for _ in range(5):
            await asyncio.sleep(0)
        assert type(proto.conn.extensions[0]) is PerMessageDeflate
        gone = weakref.ref(proto.conn.extensions[0])
        proto.connection_lost(None)
        for _ in range(5):
            await asyncio.sleep(0)
        return proto, gone

    proto, gone = asyncio.run(run())
    assert proto.disconnected and gone() is None
