"""The FastAPI app: pages, the JSON API and the WebSocket endpoint.

HTTP API (errors are always ``{"error": {"code", "message", ...}}``: 4xx for the request, 503 when the
database cannot store anything right now, 500 for a damaged stored game or a bug):

    GET  /api/meta                       every game's descriptor (titles, player counts, options and their
                                         JSON schema, per-seat roles, AI levels, languages, board), languages
    GET  /api/static/{game}              the game's fixed tables (costs, minimum bids, VP, ...); ETag, 304
    GET  /api/i18n                       the interface's languages {code: name}
    GET  /api/i18n/{lang}                the UI catalog with every game's catalog
    GET  /games/{game}/board.js|.css     the game's browser board (files of its package)
    GET  /api/games?ids=a,b              games (newest first), public information only
    POST /api/games                      create: {"game", "seats": [{"agent", "name"}], "options", "seed"?}
    GET  /api/games/{id}                 the game as one seat sees it (Authorization: Bearer <seat token>)
                                         or as a spectator (no token)
    POST /api/games/{id}/actions         {"seq": n, "action": "buy opal"} with the seat's token
    GET|POST /api/games/{id}/undo        may the seat take back its last action / do it ({"seq": n}; undo.py)
    GET  /api/games/{id}/log             accepted actions with sequence numbers, as the token's seat sees them
    GET  /api/games/{id}/record          the replayable record (only once the game is over: it has the seed)
    GET  /api/games/{id}/rules           rules help topics
    GET  /api/health                     a real write through the database writer: 200, or 503 if it fails

WebSocket ``/ws/games/{id}`` (JSON text frames):

    client: {"type": "join", "token": "..." | null, "patch": true}   first message; no token = spectator;
                                                           "patch": send patches instead of whole states
    server: {"type": "welcome", ...view}                   the seat's whole view, full log
    client: {"type": "act", "seq": n, "action": "...", "id": "r1"}
    server: {"type": "ack", "id": "r1", "seq": n+1}      then to everyone: {"type": "state", ...view, log: new}
    server: {"type": "patch", "base": n, "seq": n+1, "status", "seats", "log": new, "obs": edits, "hints": edits}
                                                           (if asked for) the edits from the view at "base"
    server: {"type": "error", "id": "r1", "status": 4xx, "code": "...", "message": "...", "seq": n}
    client: {"type": "sync"} -> server: a new welcome (at most one pending per connection)
    client: {"type": "ping"} -> server: {"type": "pong"}
    server: {"type": "presence", "seats": [...]}           who is online

A connection that does not read its messages is closed (4008), one that sends more than its rate gets
``rate_limited`` errors, and the server may refuse new connections when full (4429); the browser
reconnects in each case. Every response carries security headers (``SECURITY_HEADERS``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import logging
import os
import secrets
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketState

from ..agents import agent_names
from ..core.errors import GrimoireError
from ..core.options import options_schema
from ..core.registry import game_info, games
from . import fastjson
from .ai import AIRunner
from .gctune import GcKeeper
from .hub import CLOSE_BUSY, GAME_ID, ApiError, Conn, Hub, Limits, TokenBucket, client_key, storage_error
from .protocols import SEND_TEXTS, WRITE_NOW
from .store import StorageError, Store
from .turns import checked_rule, store_rule

log = logging.getLogger("grimoire.web")

HERE = Path(__file__).parent
STATIC = HERE / "static"
I18N = HERE / "i18n"
MAX_BODY = 64 * 1024
MAX_WS_MESSAGE = 16 * 1024


# Content-Security-Policy: scripts only from this server (no inline script, no eval, no CDN); styles
# from this server (inline style attributes allowed: boards set them); WebSockets to this server only;
# the pages may not be framed.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders:
    """Pure ASGI middleware (no per-request task, unlike BaseHTTPMiddleware): adds SECURITY_HEADERS to
    every HTTP response, errors included."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _v in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (k, v) for k, v in SECURITY_HEADERS if k not in have]
            await send(message)
        return await self.app(scope, receive, send_with_headers)


UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _origin_allowed(origin: str | None, host: str | None, allowed: frozenset[str]) -> bool:
    """A request from a page of this site (its Origin names the host the request was sent to), from an
    origin the operator allowed, or from something that is not a browser page (no Origin)."""
    if origin is None:
        return True
    origin = origin.strip().lower().rstrip("/")
    if origin in allowed:
        return True
    netloc = origin.split("://", 1)[1] if "://" in origin else None
    return netloc is not None and host is not None and netloc == host.strip().lower()


class RequestGuard:
    """Pure ASGI middleware: what every request must be before a handler sees it.

    * A body of at most ``MAX_BODY`` bytes, on every endpoint: refused (413) on its Content-Length and
      while it streams in (a handler that reads it gets the 413 instead of more data).
    * Requests that change something (POST, ...) must say ``Content-Type: application/json`` (415) —
      a browser sends that cross-site only after a CORS preflight this server never grants — and, when
      they carry an ``Origin`` (every browser does), it must be this site's (403 ``cross_origin``).
      WebSocket handshakes from another site's pages are refused (403) the same way.
    """

    def __init__(self, app, allowed_origins: frozenset[str] = frozenset(), games_socket=None):
        self.app = app
        self.allowed = allowed_origins
        # games_socket(scope, receive, send, gid): a game's WebSocket (``/ws/games/{gid}``) is handed to it
        # straight from here, past the framework's routing, exception and dependency layers (they cost a
        # join more CPU than the game's welcome; the session handles its own errors)
        self.games_socket = games_socket

    async def __call__(self, scope, receive, send):
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {}
        for k, v in scope.get("headers", ()):
            if k in (b"origin", b"host", b"content-type", b"content-length"):
                headers[k] = v.decode("latin-1")
        if kind == "websocket":
            if not _origin_allowed(headers.get(b"origin"), headers.get(b"host"), self.allowed):
                await receive()                             # websocket.connect
                return await send({"type": "websocket.close", "code": 4403})
            path = scope["path"]
            if self.games_socket is not None and path.startswith("/ws/games/") and "/" not in path[10:] and path[10:]:
                return await self.games_socket(scope, receive, send, path[10:])
            return await self.app(scope, receive, send)
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
            return await _send_error(send, ApiError(413, "too_large", f"the request body is larger than {MAX_BODY} "
                                                    "bytes"))
        if scope["method"] in UNSAFE_METHODS:
            if not _origin_allowed(headers.get(b"origin"), headers.get(b"host"), self.allowed):
                return await _send_error(send, ApiError(403, "cross_origin", "requests that change something must "
                                                        "come from this site's own pages"))
            ctype = headers.get(b"content-type", "").split(";", 1)[0].strip().lower()
            if scope["method"] != "DELETE" and ctype != "application/json":    # (DELETE has no body)
                return await _send_error(send, ApiError(415, "unsupported_media_type", "send the body as JSON, "
                                                        "with Content-Type: application/json"))
        size = 0

        async def limited_receive():
            nonlocal size
            message = await receive()
            if message["type"] == "http.request":
                size += len(message.get("body", b""))
                if size > MAX_BODY:
                    raise ApiError(413, "too_large", f"the request body is larger than {MAX_BODY} bytes")
            return message
        return await self.app(scope, limited_receive, send)


async def _send_error(send, e: ApiError) -> None:
    body = fastjson.dumps_bytes(e.body())
    await send({"type": "http.response.start", "status": e.status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _error(e: ApiError) -> JSONResponse:
    return JSONResponse(e.body(), status_code=e.status, headers=e.headers)


class FastJSONResponse(JSONResponse):
    """JSON through orjson (the views are large; ``json`` + FastAPI's encoder cost ~1 ms each)."""

    def render(self, content: Any) -> bytes:
        return fastjson.dumps_bytes(content)


async def _json_body(request: Request) -> Any:
    """The JSON body, read as a stream and refused as soon as it is larger than MAX_BODY (a 300 MB body
    is never held in memory)."""
    too_large = ApiError(413, "too_large", f"the request body is larger than {MAX_BODY} bytes")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise too_large
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise too_large
        chunks.append(chunk)
    body = b"".join(chunks)
    try:
        return fastjson.loads(body or b"null")
    except (ValueError, UnicodeDecodeError) as e:
        raise ApiError(400, "bad_json", f"the body is not valid JSON: {e}") from None


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.headers.get("x-seat-token") or None


@functools.cache
def languages() -> dict[str, str]:
    """The interface's languages (one catalog file each) -> their names in themselves."""
    out = {}
    for path in sorted(I18N.glob("*.json")):
        out[path.stem] = json.loads(path.read_text(encoding="utf-8")).get("ui.language_name", path.stem)
    return out


@functools.cache
def load_catalog(lang: str) -> dict[str, str]:
    """The interface's catalog merged with each game's own (``GameInfo.i18n``; keys are prefixed by
    the game, so they never collide)."""
    if lang not in languages():
        raise ApiError(404, "unknown_language", f"no language {lang!r}; available: {', '.join(languages())}")
    out = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    for name in games():
        out.update(game_info(name).catalog(lang))
    return out


def board_file(game: str, kind: str) -> Path | None:
    """The file of a game's browser board ("module" or "stylesheet"), or None."""
    try:
        board = game_info(game).board
    except GrimoireError:
        return None
    if board is None:
        return None
    rel = board.module if kind == "module" else board.stylesheet
    return game_info(game).package_dir / rel if rel else None


@functools.cache
def static_tables(game: str) -> tuple[dict, bytes, str] | None:
    """The game's fixed tables, as JSON bytes and their ETag (None if the game has none); built once."""
    fn = game_info(game).static_data
    if fn is None:
        return None
    data = fn()
    body = fastjson.dumps_bytes({"game": game, "data": data})
    return data, body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


@functools.cache
def meta_json() -> bytes:
    """``GET /api/meta``, built once: the descriptors do not change while the server runs, and building
    it (every game's options schema) costs ~15 ms of CPU — too much to do for every request."""
    return fastjson.dumps_bytes({"games": [game_meta(name) for name in games()], "languages": languages()})


def game_meta(name: str) -> dict[str, Any]:
    """What the lobby and API clients need to know about a game, read from its descriptor only."""
    info = game_info(name)
    entry: dict[str, Any] = {
        "name": name, "title": info.title, "titles": dict(info.titles),
        "player_counts": list(info.player_counts), "default_players": info.default_players,
        "agents": agent_names(name),
        "options_help": info.options_help, "options_schema": options_schema(info.options),
        "languages": info.languages(), "has_ui": info.board is not None,
        "information": info.information, "chance": info.chance, "outcome": info.outcome,
    }
    if info.arena.role_option and info.arena.roles:
        # the per-seat option (e.g. a character per seat): the lobby offers one choice per seat
        entry["roles"] = {"option": info.arena.role_option, "values": list(info.arena.roles)}
    tables = static_tables(name)
    if tables is not None:
        entry["static_url"] = f"/api/static/{name}"
        entry["static_etag"] = tables[2]
    return entry


def _client(request: Request | WebSocket) -> str | None:
    """The client's address (behind a reverse proxy: the one uvicorn's --forwarded-allow-ips trusts)."""
    return request.client.host if request.client else None


# The request bodies as the OpenAPI schema shows them (the handlers check them themselves, so that every
# error has the documented format); schemathesis generates its cases from these.
CREATE_BODY = {
    "type": "object", "required": ["game", "seats"],
    "properties": {
        "game": {"type": "string"},
        "seats": {"type": "array", "items": {"type": "object", "properties": {
            "agent": {"type": "string"}, "name": {"type": "string", "maxLength": 40}}}},
        "players": {"type": "integer"},
        "options": {"type": "object"},
        "seed": {"type": "integer", "minimum": 0},
        "turn": {"type": "object", "properties": {"deadline": {"enum": ["none", "1d", "3d"]},
                                                  "on_expire": {"enum": ["ai", "forfeit"]}}},
    },
}
ACTION_BODY = {
    "type": "object", "required": ["seq", "action"],
    "properties": {"seq": {"type": "integer", "minimum": 0}, "action": {"type": "string", "maxLength": 200}},
}
TOKEN_HEADER = {"name": "authorization", "in": "header", "required": False, "schema": {"type": "string"},
                "description": "Bearer <seat token> (none: a spectator)"}


def _body(schema: dict) -> dict:
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


def create_app(db_url: str | None = None, *, ai_delay: float = 0.5, ai_workers: int | None = None,
               store: Store | None = None, freeze_gc: bool = False, allow_seeds: bool = False,
               limits: Limits | None = None, lock_timeout: float = 10.0, api_docs: bool = False,
               allowed_origins: tuple[str, ...] = (), ws_patches: bool = False) -> FastAPI:
    """The ASGI app. ``freeze_gc`` (``grimoire serve``): keep the garbage collector's scans small
    (``GcKeeper``: the start-up objects and, every few seconds, whatever survived are moved out of its
    reach), so that no full collection stalls every game at once. ``allow_seeds``: take creator-chosen
    seeds (shown to every player). ``ws_patches``: send patches to the WebSockets that ask for them.
    ``api_docs``: serve the interactive API docs at /api/docs (they load scripts from a third-party
    CDN, so they are off unless asked for); /api/openapi.json is always there."""
    state: dict[str, Any] = {}
    limits = limits or Limits()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        st = store or Store(db_url, lock_timeout=lock_timeout)
        hub = Hub(st, AIRunner(ai_workers), ai_delay=ai_delay, allow_seeds=allow_seeds, limits=limits,
                  patches=ws_patches)
        state["store"], state["hub"] = st, hub
        app.state.hub = hub
        hub.on_over.append(state["ratings"].game_over)
        state["chat"].install_hooks(hub)
        state["turns"].install_hooks(hub)
        await hub.start()
        state["turns"].start()
        settling = asyncio.create_task(state["ratings"].settle_pending())
        keeper = None
        if freeze_gc:
            keeper = GcKeeper()
            keeper.start()
        diag = None
        if os.environ.get("GRIMOIRE_DIAG"):
            from .diag import Diagnostics
            diag = Diagnostics(st.writer)
            diag.start()
        try:
            yield
        finally:
            settling.cancel()
            await state["turns"].stop()
            if "lookback" in state:
                state["lookback"].close()
            if diag is not None:
                diag.report()
                diag.stop()
            if keeper is not None:
                keeper.stop()
            await hub.stop()
            if store is None:
                st.close()

    app = FastAPI(title="Grimoire", lifespan=lifespan, docs_url="/api/docs" if api_docs else None, redoc_url=None,
                  openapi_url="/api/openapi.json")
    async def games_socket(scope, receive, send, gid: str) -> None:
        await ws_session(state["hub"], WebSocket(scope, receive, send), gid)

    app.add_middleware(RequestGuard, allowed_origins=frozenset(o.strip().lower().rstrip("/")
                                                              for o in allowed_origins), games_socket=games_socket)
    app.add_middleware(SecurityHeaders)          # the outermost: its headers are on every answer

    def hub() -> Hub:
        return state["hub"]

    @app.exception_handler(ApiError)
    async def _api_error(_request, e: ApiError):
        return _error(e)

    @app.exception_handler(StorageError)
    async def _storage(_request, e: StorageError):
        log.error("storage failed: %s", e)
        return _error(storage_error())

    @app.exception_handler(RequestValidationError)
    async def _validation(_request, e: RequestValidationError):
        first = e.errors()[0] if e.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()))
        return _error(ApiError(400, "bad_request", f"{where}: {first.get('msg', 'invalid request')}"))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request, e: StarletteHTTPException):
        code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code, "http_error")
        return _error(ApiError(e.status_code, code, str(e.detail)))

    @app.exception_handler(GrimoireError)
    async def _grimoire(_request, e: GrimoireError):
        return _error(ApiError(400, "bad_request", str(e)))

    @app.exception_handler(Exception)
    async def _internal(_request, e: Exception):
        # a bug: logged with its traceback (by the server too), answered in the documented format
        log.error("internal error: %s: %s", type(e).__name__, e)
        # answered by the outermost middleware, outside SecurityHeaders: the headers are added here
        return _error(ApiError(500, "internal", "the server failed on this request (a bug: its log has the "
                               "details)", headers={k.decode(): v.decode() for k, v in SECURITY_HEADERS}))

    # --- pages -----------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index():
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/play/{gid}", include_in_schema=False)
    async def play_page(gid: str):
        return FileResponse(STATIC / "play.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/games/{game}/board.js", include_in_schema=False)
    async def board_module(game: str):
        path = board_file(game, "module")
        if path is None:
            raise ApiError(404, "no_board", f"the game {game!r} has no browser board")
        return FileResponse(path, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    @app.get("/games/{game}/board.css", include_in_schema=False)
    async def board_stylesheet(game: str):
        path = board_file(game, "stylesheet")
        if path is None:
            raise ApiError(404, "no_board", f"the game {game!r} has no board stylesheet")
        return FileResponse(path, media_type="text/css", headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon():
        return Response(status_code=204)

    # --- API ---------------------------------------------------------------------------------------
    @app.get("/api/meta")
    async def meta():
        return Response(meta_json(), media_type="application/json")

    @app.get("/api/health")
    async def health():
        """A real write through the database writer (it commits or it fails): 200 with the figures, or
        503 in the documented error format."""
        h = hub()
        t0 = time.perf_counter()
        try:
            await asyncio.wait_for(asyncio.wrap_future(h.store.heartbeat()), timeout=h.store.lock_timeout + 5)
        except (StorageError, TimeoutError) as e:
            log.error("health check: the database does not take writes: %s", e)
            raise storage_error(writer_failures=h.store.writer.failures) from None
        out = {"ok": True, "database": h.store.kind, "write_ms": round((time.perf_counter() - t0) * 1000, 2),
               "writer_queue": h.store.writer.jobs.qsize(), "writer_failures": h.store.writer.failures,
               "live_games": len(h.sessions), "connections": h.connections, "pid": os.getpid()}
        if h.cluster is not None:
            out["cluster"] = h.cluster.describe()
        return out

    @app.get("/api/static/{game}")
    async def static_game_data(game: str, request: Request):
        try:
            tables = static_tables(game)
        except GrimoireError as e:
            raise ApiError(404, "unknown_game", str(e)) from None
        if tables is None:
            raise ApiError(404, "no_static_data", f"the game {game!r} has no static tables")
        _data, body, etag = tables
        # fixed for a given server version: browsers revalidate (If-None-Match -> 304, no body)
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if etag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    @app.get("/api/i18n")
    async def i18n_languages():
        return {"languages": languages()}

    @app.get("/api/i18n/{lang}")
    async def i18n(lang: str):
        return JSONResponse(load_catalog(lang), headers={"Cache-Control": "no-cache"})

    @app.get("/api/games")
    async def list_games(ids: str | None = None, limit: int = 30):
        id_list = [x for x in ids.split(",") if GAME_ID.fullmatch(x)][:100] if ids is not None else None
        if id_list == []:
            return {"games": []}
        loop = asyncio.get_running_loop()
        try:
            rows = await loop.run_in_executor(hub().store.readers, hub().store.list_games, max(1, min(limit, 100)),
                                              id_list)
        except Exception as e:  # noqa: BLE001 - the database is not answering
            log.error("the games could not be listed: %s", e)
            raise storage_error() from None
        return {"games": [{
            "id": r.id, "game": r.game, "players": r.players, "status": r.status, "seq": r.seq,
            "current_player": r.current_player, "updated_at": r.updated_at.isoformat(),
            "seats": [{"seat": s.seat, "agent": s.agent, "name": s.name} for s in seats]}
            for r, seats in rows]}

    @app.post("/api/games", status_code=201, openapi_extra=_body(CREATE_BODY))
    async def create_game(request: Request):
        spec = await _json_body(request)
        rule = checked_rule(spec)              # a slow game: its deadline is stored with the game
        gid = secrets.token_urlsafe(9)
        s, tokens = await hub().create(spec, _client(request), gid=gid,
                                       guard=(lambda conn: store_rule(conn, gid, rule)) if rule else None)
        # a response of our own: FastAPI's encoder walks a returned dict first (~1 ms of a creation)
        return FastJSONResponse({
            "id": s.id, "game": s.game, "seq": s.seq, "spectator_url": f"/play/{s.id}",
            "seats": [{"seat": seat.seat, "agent": seat.agent, "name": seat.name, "token": tok,
                       "url": f"/play/{s.id}#seat={seat.seat}&token={tok}" if tok else None}
                      for seat, tok in zip(s.seats, tokens, strict=True)],
        }, status_code=201)

    @app.get("/api/games/{gid}", openapi_extra={"parameters": [TOKEN_HEADER]})
    async def get_game(gid: str, request: Request):
        s = await hub().current(gid)
        seat = hub().seat_for_token(s, _bearer(request))
        return Response(hub().view_json(s, seat), media_type="application/json")

    @app.post("/api/games/{gid}/actions", openapi_extra={"parameters": [TOKEN_HEADER], **_body(ACTION_BODY)})
    async def act(gid: str, request: Request):
        s = await hub().get(gid)
        seat = hub().seat_for_token(s, _bearer(request))
        body = await _json_body(request)
        if not isinstance(body, dict):
            raise ApiError(400, "bad_request", 'the body must be a JSON object: {"seq": n, "action": "..."}')
        if "seq" not in body:
            raise ApiError(400, "bad_seq", "'seq' is required: the game's sequence number you last saw")
        return await hub().submit(s, seat, body.get("seq"), body.get("action"))

    @app.get("/api/games/{gid}/log", openapi_extra={"parameters": [TOKEN_HEADER]})
    async def game_log(gid: str, request: Request):
        s = await hub().current(gid)
        seat = hub().seat_for_token(s, _bearer(request))
        text = f'{{"game_id":{fastjson.dumps(s.id)},"seq":{s.seat_seq(seat)},"seat":{fastjson.dumps(seat)},' \
               f'"log":{s.log_json(seat)}}}'
        return Response(text, media_type="application/json")

    @app.get("/api/games/{gid}/record")
    async def record(gid: str):
        s = await hub().get(gid)
        if not s.state.is_terminal():
            raise ApiError(409, "game_running", "the record (with the seed) is published when the game is over")
        from ..core.record import make_record
        return make_record(s.state)

    @app.get("/api/games/{gid}/rules")
    async def rules(gid: str):
        s = await hub().get(gid)
        topics = game_info(s.game).rules_topics
        return {"topics": topics() if topics else {}}

    # --- looking back: the replay viewer, the post-game review, hints in practice games (review.py) ---
    from .review import install as install_lookback
    state["lookback"] = install_lookback(app, hub, _bearer)

    # --- playing with people: open tables (tables.py) ------------------------------------------------
    from .accounts import install as install_accounts
    from .tables import install as install_tables
    accounts = install_accounts(app, hub, _json_body)
    state["tables"] = install_tables(app, hub, _json_body, accounts.user_of)
    from .ratings import install as install_ratings
    state["ratings"] = install_ratings(app, hub)
    from .undo import install as install_undo
    install_undo(app, hub, _bearer, _json_body)

    # --- chat and slow games (chat.py, turns.py) ------------------------------------------------------
    from .chat import install as install_chat
    from .turns import install as install_turns
    state["chat"] = install_chat(app, hub, _json_body, _bearer)
    state["turns"] = install_turns(app, hub)
    app.state.chat, app.state.turns = state["chat"], state["turns"]

    # --- WebSocket -----------------------------------------------------------------------------------
    @app.websocket("/ws/games/{gid}")
    async def ws_game(ws: WebSocket, gid: str):
        await ws_session(hub(), ws, gid)

    return app


def app_from_env() -> FastAPI:
    """The app ``grimoire serve`` runs (in each worker process): its settings come from the environment
    (``GRIMOIRE_SERVE_CONFIG``, JSON written by the command)."""
    cfg = json.loads(os.environ["GRIMOIRE_SERVE_CONFIG"])
    return create_app(cfg["db"], ai_delay=cfg["ai_delay"], ai_workers=cfg["ai_workers"], freeze_gc=True,
                      allow_seeds=cfg["allow_seeds"], limits=Limits(**cfg["limits"]), lock_timeout=cfg["lock_timeout"],
                      api_docs=cfg["api_docs"], allowed_origins=tuple(cfg["allowed_origins"]),
                      ws_patches=cfg.get("ws_patches", False))


async def _receive_text(ws: WebSocket) -> str | None:
    """The next text frame; None for a binary frame (answered with an error, the connection stays)."""
    msg = await ws.receive()
    if msg["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(msg.get("code", 1000), msg.get("reason"))
    text = msg.get("text")
    return text if isinstance(text, str) else None


async def ws_session(hub: Hub, ws: WebSocket, gid: str) -> None:
    """One WebSocket: join, then act / sync / ping until the client leaves (module docstring)."""
    await ws.accept()

    async def send(obj: dict) -> None:
        await ws.send_text(fastjson.dumps(obj))

    async def refuse(e: ApiError, code: int) -> None:
        with contextlib.suppress(Exception):
            await send({"type": "error", "status": e.status, "code": e.code, "message": e.message})
            await ws.close(code=code)

    limits = hub.limits
    if hub.connections >= limits.max_connections:
        await refuse(ApiError(503, "server_busy", "the server has no room for another connection; retrying"),
                     CLOSE_BUSY)
        return
    try:
        s = await hub.get(gid)
    except ApiError as e:
        await refuse(e, 4404 if e.status == 404 else 4000 + min(e.status, 599))
        return
    try:
        first = await asyncio.wait_for(_receive_text(ws), timeout=30)
        if first is None:
            raise ApiError(400, "bad_request", "frames are JSON text; the first message must be "
                           '{"type": "join", "token": ...}')
        if len(first) > MAX_WS_MESSAGE:
            raise ApiError(413, "too_large", f"a message has at most {MAX_WS_MESSAGE} bytes")
        msg = fastjson.loads(first)
        if not isinstance(msg, dict) or msg.get("type") != "join":
            raise ApiError(400, "bad_request", 'the first message must be {"type": "join", "token": ...}')
        seat = hub.seat_for_token(s, msg.get("token"))
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await ws.close(code=4408)
        return
    except (ValueError, ApiError) as e:
        err = e if isinstance(e, ApiError) else ApiError(400, "bad_json", f"not valid JSON: {e}")
        await refuse(err, 4000 + err.status)
        return
    client = client_key(_client(ws))
    game_full = ApiError(503, "game_full", f"this game has {limits.max_connections_per_game} connections, "
                         "its limit; retrying")
    client_full = ApiError(429, "too_many_connections", f"this address has {limits.max_connections_per_client} "
                           "connections, its limit; close some and retry")
    sid = secrets.token_hex(8)
    if hub.cluster is not None:                 # counted across every server process, in the database
        try:
            refused = await hub.cluster.admit_socket(sid, s.id, client, seat)
        except StorageError:
            await refuse(storage_error(), 4503)
            return
        if refused is not None:
            await refuse(client_full if refused == "client" else game_full, CLOSE_BUSY)
            return
    else:
        if sum(1 for c in s.conns if not c.closed) >= limits.max_connections_per_game:
            await refuse(game_full, CLOSE_BUSY)
            return
        per_client = limits.max_connections_per_client
        if per_client is not None and hub.client_connections.get(client, 0) >= per_client:
            await refuse(client_full, CLOSE_BUSY)
            return
    hub.client_connections[client] = hub.client_connections.get(client, 0) + 1

    closing: asyncio.Future = asyncio.get_running_loop().create_future()

    def close_later(code: int) -> None:            # the server ends this connection (overflow, reload)
        if not closing.done():
            closing.set_result(code)

    conn = Conn(ws.send_text, seat, limits.queue_bytes, close_later,
                TokenBucket(limits.syncs_per_second, limits.sync_burst),
                send_texts=ws.scope.get("extensions", {}).get(SEND_TEXTS),
                write_now=ws.scope.get("extensions", {}).get(WRITE_NOW))
    live = {"s": s}
    conn.build_sync = lambda: hub.view_json(live["s"], seat, "welcome")
    # the welcome is queued in the same step as the connection joins the game: no action falls between
    conn.push(hub.view_json(s, seat, "welcome"), counted=False)
    conn.sent = s.seat_seq(seat)
    conn.patches = hub.patches and msg.get("patch") is True     # it applies ``patch`` messages (Hub._patch)
    before = s.online()
    s.conns.add(conn)
    conn.start()
    hub.connections += 1
    if s.online() != before:
        hub.presence(s, local=True)
    bucket = TokenBucket(limits.messages_per_second, limits.message_burst)
    warned = 0.0

    async def read_loop() -> None:
        nonlocal warned
        while True:
            if not bucket.take():
                # over its rate: the next message is read later, not read and dropped. Until then
                # uvicorn stops reading the socket, so a flood is held back by TCP, at no cost here.
                t = time.monotonic()
                if t - warned > 1.0:            # one notice a second
                    warned = t
                    conn.push(fastjson.dumps({"type": "error", "id": None, "status": 429, "code": "rate_limited",
                                              "message": f"more than {limits.messages_per_second:g} messages a "
                                                         "second: the next ones are read later"}))
                await asyncio.sleep(bucket.wait())
                continue
            raw = await _receive_text(ws)
            # a burst of buffered messages must not keep the event loop from everything else
            await asyncio.sleep(0)
            if conn.closed:
                return
            rid = None
            try:
                if raw is None:
                    raise ApiError(400, "bad_request", "binary frames are not understood: send JSON text")
                if len(raw) > MAX_WS_MESSAGE:
                    raise ApiError(413, "too_large", f"a message has at most {MAX_WS_MESSAGE} bytes")
                try:
                    msg = fastjson.loads(raw)
                except ValueError as e:
                    raise ApiError(400, "bad_json", f"not valid JSON: {e}") from None
                if not isinstance(msg, dict):
                    raise ApiError(400, "bad_request", "a message must be a JSON object with a 'type'")
                rid = msg.get("id")
                if not (rid is None or isinstance(rid, str | int) and not isinstance(rid, bool)
                        and len(str(rid)) <= 64):
                    rid = None
                    raise ApiError(400, "bad_request", "'id' must be a short text or number")
                kind = msg.get("type")
                if kind == "ping":
                    conn.push(fastjson.dumps({"type": "pong", "id": rid}))
                elif kind == "act":
                    if "seq" not in msg:
                        raise ApiError(400, "bad_seq", "'seq' is required: the sequence number you last saw")
                    res = await hub.submit(live["s"], seat, msg.get("seq"), msg.get("action"))
                    conn.push(fastjson.dumps({"type": "ack", "id": rid, "seq": res["seq"], "action": res["action"]}))
                elif kind == "sync":
                    conn.request_sync()
                else:
                    raise ApiError(400, "bad_request", f"unknown message type {str(kind)[:40]!r}; "
                                   "use act, sync or ping")
            except ApiError as e:
                conn.push(fastjson.dumps({"type": "error", "id": rid, "status": e.status, **e.body()["error"]}))

    reader = asyncio.create_task(read_loop())
    code = 1000
    try:
        done, _ = await asyncio.wait({reader, closing}, return_when=asyncio.FIRST_COMPLETED)
        if closing in done:
            code = closing.result()
        elif (exc := reader.exception()) is not None and not isinstance(exc, WebSocketDisconnect):
            raise exc
    finally:
        reader.cancel()
        # waited for, not awaited: awaiting re-raises its exception (the client's disconnect) here, and that
        # exception's traceback holds this frame, which holds the task holding the exception — a cycle that
        # kept the connection's objects alive until the collector's next full pass (rare under GcKeeper)
        with contextlib.suppress(asyncio.CancelledError):       # (this session cancelled: clean up all the same)
            await asyncio.wait({reader})
        if reader.done() and not reader.cancelled():
            reader.exception()                  # retrieved: asyncio does not report it as never retrieved
        was = s.online()
        s.conns.discard(conn)
        hub.connections -= 1
        left = hub.client_connections.get(client, 1) - 1
        if left > 0:
            hub.client_connections[client] = left
        else:
            hub.client_connections.pop(client, None)
        await conn.stop()
        if s.online() != was:
            hub.presence(s, local=True)
        if hub.cluster is not None:
            await hub.cluster.leave_socket(sid)
        if code != 1000 and ws.application_state == WebSocketState.CONNECTED:
            # the client may not be reading: never wait long for the close frame to go out
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(code=code), timeout=1.0)
