"""uvicorn's connection protocols with the bounds a public server needs (``grimoire serve`` uses them).

``TimedHttpProtocol``: a request's headers must arrive within ``GRIMOIRE_HEADER_TIMEOUT`` seconds (10)
of its first byte (or of the connection, if nothing comes), its body within ``GRIMOIRE_BODY_TIMEOUT``
(30) of its headers; otherwise the connection is closed. uvicorn itself never times out a half-sent
request: a thousand sockets sending one header byte a minute held a thousand file descriptors forever,
and past the process's file limit every real request failed. This holds with or without a reverse
proxy in front.

``BoundedWebSocketProtocol``: received WebSocket data is handed to the frame parser in small slices,
and no more is parsed while the messages waiting for the application hold more than
``MAX_QUEUED_BYTES``: the rest waits (and the socket is not read), so the application's back-pressure
(the rate limit: messages are read later, TCP holds the flood) also holds for compressed frames. Before,
one read of the socket was parsed at once: ~110 bytes of permessage-deflate on the wire inflate to a
60 KB message, and one connection's 2,000 such frames, sent without reading, queued ~126 MB.
"""

from __future__ import annotations

import logging
import os
import struct
import zlib
from collections import deque
from types import ModuleType
from typing import Any

from uvicorn.logging import TRACE_LOG_LEVEL
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets import http11
from websockets.datastructures import Headers
from websockets.exceptions import InvalidState, PayloadTooBig, ProtocolError
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import OPEN, SERVER, Protocol
from websockets.server import ServerProtocol

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - websockets without its C extension
    from websockets.utils import apply_mask

MAX_QUEUED_BYTES = 256 * 1024     # inflated messages of one connection waiting for the application
SLICE = 64                        # bytes of wire data parsed at a time once the budget is nearly used
INFLATE_MAX = 1032                # deflate's largest expansion: one byte on the wire, at most ~1032 inflated
SEND_TEXTS = "grimoire.send_texts"   # the scope extension: send_texts(list[str]) (see send_texts)
WRITE_NOW = "grimoire.write_now"     # the scope extension: write_now(list[str]) -> bool (see write_now)


def _seconds(name: str, default: float) -> float:
    try:
        return max(0.1, float(os.environ.get(name, default)))
    except ValueError:
        return default


class TimedHttpProtocol(HttpToolsProtocol):
    header_timeout = _seconds("GRIMOIRE_HEADER_TIMEOUT", 10.0)
    body_timeout = _seconds("GRIMOIRE_BODY_TIMEOUT", 30.0)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._deadline = None
        self.timed_out = 0

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._arm(self.header_timeout)              # nothing yet: the first request must come soon

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm(self.header_timeout)

    def handle_websocket_upgrade(self) -> None:
        """The WebSocket's handshake request as httptools parsed it, not written out again for websockets'
        own parser to read (what uvicorn does: a third of a join's CPU was that handshake). Only when the
        request passes every check websockets' parser makes (``_handshake_request``); otherwise uvicorn's
        way, so that a bad request gets the same answer as before."""
        request = _handshake_request(self.scope, self.url) if self.ws_protocol_class is BoundedWebSocketProtocol \
            and self.logger.level > TRACE_LOG_LEVEL else None
        if request is None:
            super().handle_websocket_upgrade()
        else:
            self.connections.discard(self)
            protocol = BoundedWebSocketProtocol(config=self.config, server_state=self.server_state,
                                                app_state=self.app_state)
            protocol.connection_made(self.transport)
            protocol.handshake(request)
            self.transport.set_protocol(protocol)
        # this protocol is done (the socket is the WebSocket's now, and no connection_lost will come here,
        # where uvicorn lets go of the parser): its parser holds its callbacks, a cycle that kept it and its
        # request alive until the collector's next full pass
        self.parser = None  # type: ignore[assignment]

    def on_headers_complete(self) -> None:
        if self.parser.should_upgrade() and self._should_upgrade():
            self._disarm()                          # a WebSocket: its own protocol takes over
        else:
            self._arm(self.body_timeout)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()


def _handshake_request(scope: Any, url: bytes) -> Request | None:
    """websockets' ``Request`` for the request httptools parsed (``scope``'s method and headers, ``url``),
    with every check ``Request.parse`` makes on the same bytes (uvicorn writes them out as
    ``METHOD URL HTTP/1.1`` and ``name: value`` lines): ASCII path, line lengths, the number of headers,
    header names and values, no body. None if any check fails (or is not certain to pass): then the
    request goes to websockets' parser as before, which answers it as before."""
    raw = scope.get("headers") or []
    limit = http11.MAX_LINE_LENGTH - 16        # a line with its CRLF, well within websockets' limit
    method = scope["method"]
    if len(raw) > http11.MAX_NUM_HEADERS or len(method) + len(url) + 12 > limit or b" " in url:
        return None
    try:
        path = url.decode("ascii")
    except UnicodeDecodeError:
        return None
    token, value_ok = http11._token_re.fullmatch, http11._value_re.fullmatch
    headers = Headers()
    for name, value in raw:
        if len(name) + len(value) + 4 > limit or not token(name):
            return None
        value = value.strip(b" \t")
        if not value_ok(value):
            return None
        headers.set_insecure(name.decode("ascii"), value.decode("iso-8859-1"))
    if "Transfer-Encoding" in headers or not set(headers.get_all("Content-Length")) <= {"0"}:
        return None
    return Request(path, headers, method, "HTTP/1.1")


class _WithoutDeflate:
    """uvicorn's config as its WebSocket protocol's constructor reads it, without permessage-deflate: it
    would build a connection with uvicorn's compressor settings, which ours replaces at once."""
    ws_per_message_deflate = False

    def __init__(self, config):
        self._config = config

    def __getattr__(self, name: str) -> Any:
        return getattr(self._config, name)


zlib_ng: ModuleType | None
try:
    from zlib_ng import zlib_ng
except ImportError:  # pragma: no cover - the pinned dependency; zlib is the fallback
    zlib_ng = None
_FLUSH = zlib.Z_SYNC_FLUSH                  # the same value in zlib-ng


class _Deflate(ServerPerMessageDeflateFactory):
    """The server's permessage-deflate, compressing with zlib-ng (the same deflate stream, about half of
    zlib's CPU at level 1 on our views, measured with ``scripts/patch_cost.py``'s views: for the
    heaviest game's views 1.0 KB instead of 0.87, the same for the others). A client asking for no
    context takeover gets zlib's per-message compressor (websockets makes it)."""

    def process_request_params(self, params, accepted_extensions):
        response, ext = super().process_request_params(params, accepted_extensions)
        if zlib_ng is not None and isinstance(ext, PerMessageDeflate) and not ext.local_no_context_takeover:
            ext.encoder = zlib_ng.compressobj(wbits=-ext.local_max_window_bits, **ext.compress_settings)
        return response, ext


def _deflate() -> ServerPerMessageDeflateFactory:
    """Our permessage-deflate: the server compresses with a 32 KB window at level 1. A seat's next view
    is mostly its last one, which a 32 KB window still holds, so level 1 finds it: measured on the
    largest game's ~16 KB views, 0.046 ms a message at 16x smaller, where uvicorn's choice (4 KB window,
    level 6) took 0.148 ms for 7.6x. The cost is memory: ~144 KB of compressor state per connection
    instead of ~32 KB. What clients send is inflated with a 4 KB window (and bounded:
    ``BoundedWebSocketProtocol``)."""
    return _Deflate(server_max_window_bits=None, client_max_window_bits=12,
                    compress_settings={"memLevel": 5, "level": 1})


_SYNC_TAIL = b"\x00\x00\xff\xff"    # what a sync flush ends with; permessage-deflate leaves it out


def frames(conn: ServerProtocol, texts: list[str]) -> bytes:
    """The wire bytes of ``texts`` as text messages on ``conn`` (after whatever it has queued, e.g. a
    pong), as websockets' ``send_text`` + ``data_to_send`` make them, byte for byte. In the usual case —
    an open connection, no extension or permessage-deflate with context takeover — the frames are built
    here: websockets builds a ``Frame`` object, runs it through the extension (which copies it) and
    serializes it through ``io.BytesIO``, which cost more than the deflate itself on our views. Raises
    ``InvalidState`` when the connection is not open (as ``send_text``)."""
    ext = conn.extensions
    encoder: Any = None
    usual = True
    if ext:
        deflate = ext[0]
        if len(ext) == 1 and isinstance(deflate, PerMessageDeflate) and type(deflate) is PerMessageDeflate \
                and not deflate.local_no_context_takeover:
            encoder = deflate.encoder
        else:
            usual = False
    if not usual or conn._state is not OPEN or conn.expect_continuation_frame or conn.debug \
            or conn.side is not SERVER:
        for text in texts:                  # anything unusual: websockets itself (and its checks)
            conn.send_text(text.encode())
        return b"".join(conn.data_to_send())
    out = conn.data_to_send() if conn.writes else []
    pack = struct.pack
    for text in texts:
        data = text.encode()
        if encoder is None:
            head = 0x81                     # FIN, text
        else:
            data = encoder.compress(data) + encoder.flush(_FLUSH)
            if data[-4:] != _SYNC_TAIL:     # pragma: no cover - zlib's sync flush always ends so
                raise AssertionError("unexpected end of a deflate sync flush")
            data = data[:-4]
            head = 0xC1                     # FIN, RSV1 (compressed), text
        n = len(data)
        if n < 126:
            out.append(pack("!BB", head, n))
        elif n < 65536:
            out.append(pack("!BBH", head, 126, n))
        else:
            out.append(pack("!BBQ", head, 127, n))
        out.append(data)
    return b"".join(out)


class BoundedWebSocketProtocol(WebSocketsSansIOProtocol):
    def __init__(self, config, server_state, app_state, _loop=None):
        # the wrapper stands in for uvicorn's Config (it hands every other attribute on)
        base: Any = _WithoutDeflate(config) if config.ws_per_message_deflate else config
        super().__init__(base, server_state, app_state, _loop)
        self.config = config
        if config.ws_per_message_deflate:
            self.conn = ServerProtocol(extensions=[_deflate()], max_size=config.ws_max_size,
                                       logger=logging.getLogger("uvicorn.error"))
        self._held = b""                 # wire data not parsed yet (the application is behind)
        self._sizes: deque[int] = deque()
        self._queued = 0
        self.peak_queued = 0

    def data_received(self, data: bytes) -> None:
        if self._held:
            self._held += data
            self.transport.pause_reading()
            return
        self._feed(data)

    def _feed(self, data: bytes) -> None:
        # as much wire data at a time as cannot inflate past the budget even at deflate's largest ratio
        # (a client's usual message, ~100-250 bytes, is parsed in one go), and at least a small slice
        i, n = 0, len(data)
        while i < n:
            if self._queued > MAX_QUEUED_BYTES:
                self._held = data[i:]
                self.transport.pause_reading()
                return
            step = max(SLICE, (MAX_QUEUED_BYTES - self._queued) // INFLATE_MAX)
            if not i and n <= step and self._one_text_frame(data):
                break
            super().data_received(data[i:i + step] if i or step < n else data)
            i += step
            if not self.handshake_initiated and self.conn.handshake_exc is not None:
                self._refuse_handshake()
            if self.transport.is_closing():
                break
        self._held = b""

    def _refuse_handshake(self) -> None:
        """websockets refused the handshake request itself (too many headers, a line too long, not HTTP)
        and queued its answer (431, 414, 400), which uvicorn never sends: the connection stayed open,
        a file descriptor held for as long as the client liked, outside every connection limit.
        Send the answer and close."""
        self.handshake_initiated = self.handshake_complete = self.close_sent = True
        out = self.conn.data_to_send()
        if out:
            self.transport.write(b"".join(out))
        self.transport.close()

    def _one_text_frame(self, data: bytes) -> bool:
        """A read that holds exactly one whole text message in one frame (what a browser sends: an action,
        a ping of ours) handed to uvicorn's ``handle_text`` as websockets' parser would hand it — unmasked,
        size-checked and inflated by the connection's own permessage-deflate (``PerMessageDeflate.decode``,
        with the same bound), its errors failing the connection as websockets' parser fails it — without
        the parser's generators, frame objects and event list (half of receiving a message). False, and
        nothing done, for anything else (a control frame, fragments, several frames, a partial one, an
        unusual connection): websockets parses it."""
        conn = self.conn
        if len(data) < 6 or conn.state is not OPEN or conn.current_size is not None or conn.events \
                or conn.reader.buffer or conn.parser_exc is not None or conn.max_fragment_size is not None \
                or conn.debug or self.close_sent or not self.handshake_complete:
            return False
        head, size = data[0], data[1]
        if not size & 0x80:                   # unmasked: websockets' ProtocolError
            return False
        size &= 0x7F
        start = 6
        if size == 126:
            size, start = int.from_bytes(data[2:4], "big"), 8
        elif size == 127:
            return False
        if start + size != len(data):
            return False
        ext = conn.extensions
        deflate = ext[0] if len(ext) == 1 and type(ext[0]) is PerMessageDeflate else None
        if ext and deflate is None or not (head == 0x81 or head == 0xC1 and deflate is not None):
            return False                          # not FIN + text (+ RSV1 with permessage-deflate)
        limit = conn.max_message_size
        if limit is not None and size > limit:
            return False                          # websockets' PayloadTooBig
        frame = Frame(Opcode.TEXT, apply_mask(data[start:], data[start - 4:start]), True, head == 0xC1)
        if deflate is not None:
            try:
                frame = deflate.decode(frame, max_size=limit)
            except ProtocolError as exc:          # as websockets' parser (Protocol.parse) fails
                conn.fail(CloseCode.PROTOCOL_ERROR, str(exc))
                conn.parser_exc = exc
            except PayloadTooBig as exc:
                exc.set_current_size(conn.current_size)
                conn.fail(CloseCode.MESSAGE_TOO_BIG, str(exc))
                conn.parser_exc = exc
            if conn.parser_exc is not None:
                self.handle_parser_exception()
                return True
        self.handle_text(frame)
        return True

    def handshake(self, request: Request) -> None:
        """Start from a handshake request parsed already (``TimedHttpProtocol.handle_websocket_upgrade``):
        the connection's parser goes on with the frames, as websockets' does after reading a request."""
        conn = self.conn
        if conn.debug:                              # pragma: no cover - websockets logs the request then
            self.data_received(request.serialize())
            return
        conn.parser = Protocol.parse(conn)
        next(conn.parser)
        self.handle_connect(request)

    def handle_connect(self, event) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][SEND_TEXTS] = self.send_texts
            scope["extensions"][WRITE_NOW] = self.write_now

    async def send_texts(self, texts: list[str]) -> None:
        """Send text messages in one write to the socket, without the ASGI layers (Starlette's and
        uvicorn's ``send``) around each: a game's connection gets every message queued for it at once
        (``hub.Conn``), e.g. an ``ack`` and the ``state`` after it. The same checks as uvicorn's ``send``:
        it waits while the socket's buffer is full and raises ``ClientDisconnected`` once it is gone."""
        if not self.writable.is_set():
            await self.writable.wait()
        if self.disconnected or self.close_sent or not self.handshake_complete:
            raise ClientDisconnected()
        try:
            data = frames(self.conn, texts)
        except InvalidState:
            raise ClientDisconnected() from None
        self.transport.write(data)

    def write_now(self, texts: list[str]) -> bool:
        """Send text messages in one write at once if the socket can take them (False: it cannot now —
        its buffer is full, it is closing — and nothing was sent). What a broadcast queues for each
        connection is written this way, instead of waking one task per connection (``hub.Conn._flush``)."""
        if not self.writable.is_set() or self.disconnected or self.close_sent or not self.handshake_complete:
            return False
        try:
            data = frames(self.conn, texts)
        except InvalidState:
            return False
        self.transport.write(data)
        return True

    def connection_lost(self, exc) -> None:
        super().connection_lost(exc)
        # nothing more is sent or received: the compressor (~264 KB) is freed now, for the next connection
        # to reuse, not at the collector's next full pass (rare under GcKeeper); and the scope lets go of
        # our methods, a cycle that kept this protocol (and what it holds) alive until then
        self.conn.extensions = []
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"].pop(SEND_TEXTS, None)
            scope["extensions"].pop(WRITE_NOW, None)

    def send_receive_event_to_app(self) -> None:
        size = sum(len(f) for f in self.frames)
        before = self.queue.qsize()
        super().send_receive_event_to_app()
        if self.queue.qsize() > before:              # queued (not dropped after a close)
            self._sizes.append(size)
            self._queued += size
            self.peak_queued = max(self.peak_queued, self._queued)

    async def receive(self):
        message = await super().receive()
        if message["type"] == "websocket.receive" and self._sizes:
            self._queued -= self._sizes.popleft()
        if self._held and self._queued <= MAX_QUEUED_BYTES:
            held, self._held = self._held, b""
            self._feed(held)
            if not self._held and not self.transport.is_closing():
                self.transport.resume_reading()
        return message
