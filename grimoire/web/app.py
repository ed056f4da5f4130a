"""The FastAPI app: pages, the JSON API and the WebSocket endpoint.

HTTP API (errors are always ``{"error": {"code", "message", ...}}`` with a 4xx status):

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
    GET  /api/games/{id}/log             accepted actions with sequence numbers
    GET  /api/games/{id}/record          the replayable record (only once the game is over: it has the seed)
    GET  /api/games/{id}/rules           rules help topics

WebSocket ``/ws/games/{id}`` (JSON text frames):

    client: {"type": "join", "token": "..." | null}      first message; no token = spectator
    server: {"type": "welcome", ...view}                   the seat's whole view, full log
    client: {"type": "act", "seq": n, "action": "...", "id": "r1"}
    server: {"type": "ack", "id": "r1", "seq": n+1}      then to everyone: {"type": "state", ...view, log: new}
    server: {"type": "error", "id": "r1", "status": 4xx, "code": "...", "message": "...", "seq": n}
    client: {"type": "ping"} -> server: {"type": "pong"}
    server: {"type": "presence", "seats": [...]}           who is online
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import hashlib
import json
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..agents import agent_names
from ..core.errors import GrimoireError
from ..core.options import options_schema
from ..core.registry import game_info, games
from . import fastjson
from .ai import AIRunner
from .hub import ApiError, Conn, Hub
from .store import Store

log = logging.getLogger("grimoire.web")

HERE = Path(__file__).parent
STATIC = HERE / "static"
I18N = HERE / "i18n"
MAX_BODY = 64 * 1024
MAX_WS_MESSAGE = 16 * 1024


def _error(e: ApiError) -> JSONResponse:
    return JSONResponse(e.body(), status_code=e.status)


class FastJSONResponse(JSONResponse):
    """JSON through orjson (the views are large; ``json`` + FastAPI's encoder cost ~1 ms each)."""

    def render(self, content: Any) -> bytes:
        return fastjson.dumps_bytes(content)


async def _json_body(request: Request) -> Any:
    body = await request.body()
    if len(body) > MAX_BODY:
        raise ApiError(413, "too_large", f"the request body is larger than {MAX_BODY} bytes")
    try:
        return fastjson.loads(body or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
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


def game_meta(name: str) -> dict[str, Any]:
    """What the lobby and API clients need to know about a game, read from its descriptor only."""
    info = game_info(name)
    entry: dict[str, Any] = {
        "name": name, "title": info.title, "titles": dict(info.titles),
        "player_counts": list(info.player_counts), "default_players": info.default_players,
        "agents": agent_names(name),
        "options_help": info.options_help, "options_schema": options_schema(info.options),
        "languages": info.languages(), "has_ui": info.board is not None,
        "information": info.information, "chance": info.chance,
    }
    if info.arena.role_option and info.arena.roles:
        # the per-seat option (e.g. a character per seat): the lobby offers one choice per seat
        entry["roles"] = {"option": info.arena.role_option, "values": list(info.arena.roles)}
    tables = static_tables(name)
    if tables is not None:
        entry["static_url"] = f"/api/static/{name}"
        entry["static_etag"] = tables[2]
    return entry


def create_app(db_url: str | None = None, *, ai_delay: float = 0.5, ai_workers: int | None = None,
               store: Store | None = None, freeze_gc: bool = False) -> FastAPI:
    """The ASGI app. ``freeze_gc`` (``grimoire serve``): once started, move every object that exists
    then (modules, the app, the schema: ~100k objects) out of the garbage collector's reach, so that
    its full collections scan only the live games and connections (they took 100-200 ms before, each
    one a stall of every game)."""
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        st = store or Store(db_url)
        hub = Hub(st, AIRunner(ai_workers), ai_delay=ai_delay)
        state["store"], state["hub"] = st, hub
        app.state.hub = hub
        await hub.start()
        if freeze_gc:
            gc.collect()
            gc.freeze()
        try:
            yield
        finally:
            if "lookback" in state:
                state["lookback"].close()
            await hub.stop()
            if store is None:
                st.close()

    app = FastAPI(title="Grimoire", lifespan=lifespan, docs_url="/api/docs", openapi_url="/api/openapi.json")

    def hub() -> Hub:
        return state["hub"]

    @app.exception_handler(ApiError)
    async def _api_error(_request, e: ApiError):
        return _error(e)

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
        return {"games": [game_meta(name) for name in games()], "languages": languages()}

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
        id_list = [x for x in ids.split(",") if x][:100] if ids else None
        loop = asyncio.get_running_loop()
        rows = await loop.run_in_executor(hub().store.readers, hub().store.list_games, max(1, min(limit, 100)),
                                          id_list)
        return {"games": [{
            "id": r.id, "game": r.game, "players": r.players, "status": r.status, "seq": r.seq,
            "current_player": r.current_player, "updated_at": r.updated_at.isoformat(),
            "seats": [{"seat": s.seat, "agent": s.agent, "name": s.name} for s in seats]}
            for r, seats in rows]}

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request):
        spec = await _json_body(request)
        s, tokens = await hub().create(spec)
        return {
            "id": s.id, "game": s.game, "seq": s.seq, "spectator_url": f"/play/{s.id}",
            "seats": [{"seat": seat.seat, "agent": seat.agent, "name": seat.name, "token": tok,
                       "url": f"/play/{s.id}#seat={seat.seat}&token={tok}" if tok else None}
                      for seat, tok in zip(s.seats, tokens, strict=True)],
        }

    @app.get("/api/games/{gid}")
    async def get_game(gid: str, request: Request):
        s = await hub().get(gid)
        seat = hub().seat_for_token(s, _bearer(request))
        return Response(hub().view_json(s, seat), media_type="application/json")

    @app.post("/api/games/{gid}/actions")
    async def act(gid: str, request: Request):
        s = await hub().get(gid)
        seat = hub().seat_for_token(s, _bearer(request))
        body = await _json_body(request)
        if not isinstance(body, dict):
            raise ApiError(400, "bad_request", 'the body must be a JSON object: {"seq": n, "action": "..."}')
        if "seq" not in body:
            raise ApiError(400, "bad_seq", "'seq' is required: the game's sequence number you last saw")
        return await hub().submit(s, seat, body.get("seq"), body.get("action"))

    @app.get("/api/games/{gid}/log")
    async def game_log(gid: str):
        s = await hub().get(gid)
        return FastJSONResponse({"game_id": s.id, "seq": s.seq, "log": s.log})

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

    # --- WebSocket -----------------------------------------------------------------------------------
    @app.websocket("/ws/games/{gid}")
    async def ws_game(ws: WebSocket, gid: str):
        await ws.accept()

        async def send(obj: dict) -> None:
            await ws.send_text(fastjson.dumps(obj))

        try:
            s = await hub().get(gid)
        except ApiError as e:
            await send({"type": "error", "status": e.status, "code": e.code, "message": e.message})
            await ws.close(code=4404)
            return
        try:
            first = await asyncio.wait_for(ws.receive_text(), timeout=30)
            msg = fastjson.loads(first)
            if not isinstance(msg, dict) or msg.get("type") != "join":
                raise ApiError(400, "bad_request", 'the first message must be {"type": "join", "token": ...}')
            seat = hub().seat_for_token(s, msg.get("token"))
        except (TimeoutError, WebSocketDisconnect):
            with contextlib.suppress(Exception):
                await ws.close(code=4408)
            return
        except (json.JSONDecodeError, ApiError) as e:
            err = e if isinstance(e, ApiError) else ApiError(400, "bad_json", f"not valid JSON: {e}")
            await send({"type": "error", "status": err.status, "code": err.code, "message": err.message})
            await ws.close(code=4000 + err.status)
            return
        conn = Conn(ws.send_text, seat)
        await ws.send_text(hub().view_json(s, seat, "welcome"))
        conn.start()
        s.conns.add(conn)
        hub().presence(s)
        try:
            while True:
                raw = await ws.receive_text()
                rid = None
                try:
                    if len(raw) > MAX_WS_MESSAGE:
                        raise ApiError(413, "too_large", f"a message has at most {MAX_WS_MESSAGE} bytes")
                    try:
                        msg = fastjson.loads(raw)
                    except json.JSONDecodeError as e:
                        raise ApiError(400, "bad_json", f"not valid JSON: {e}") from None
                    if not isinstance(msg, dict):
                        raise ApiError(400, "bad_request", "a message must be a JSON object with a 'type'")
                    rid = msg.get("id")
                    kind = msg.get("type")
                    if kind == "ping":
                        conn.push(fastjson.dumps({"type": "pong", "id": rid}))
                    elif kind == "act":
                        if "seq" not in msg:
                            raise ApiError(400, "bad_seq", "'seq' is required: the sequence number you last saw")
                        res = await hub().submit(s, seat, msg.get("seq"), msg.get("action"))
                        conn.push(fastjson.dumps({"type": "ack", "id": rid, "seq": res["seq"],
                                                  "action": res["action"]}))
                    elif kind == "sync":
                        conn.push(hub().view_json(s, seat, "welcome"))
                    else:
                        raise ApiError(400, "bad_request", f"unknown message type {kind!r}; use act, sync or ping")
                except ApiError as e:
                    conn.push(fastjson.dumps({"type": "error", "id": rid, "status": e.status, **e.body()["error"]}))
        except WebSocketDisconnect:
            pass
        finally:
            s.conns.discard(conn)
            await conn.stop()
            hub().presence(s)

    return app
