"""Chat per game, in two channels: the seats talk among themselves, the spectators among themselves.

    GET  /api/games/{id}/chat?channel=&after=   the channel's messages (oldest first, the last 200 or those
                                                after the id ``after``)
    POST /api/games/{id}/chat                   {"text", "name"?}: say something (Bearer: a seat's token -> the
                                                seats' channel, named by the seat's name; none -> the spectators'
                                                channel, with the optional ``name``)

Who reads what: a seat's token reads the seats' channel; no token reads the spectators'. Once the game is
over the seats may read the spectators' channel too, and everyone may read the seats' channel if the game
was public (an open table of the lobby); a private game's seat chat stays with its seats, also in replays.
So spectators (who see the public view only) cannot coach a player during the game through the chat.

A message is stored (committed through the writer) before it is answered, then pushed to every WebSocket
of its channel as ``{"type": "chat", "channel", "message"}`` — on PostgreSQL to the other server processes'
too (a ``NOTIFY`` line sent with the transaction). Texts are kept as written (Unicode NFC, 1-500 characters,
no control, invisible or direction-changing characters) and are shown as text, never as HTML. Limits: per
sender (a seat, or a spectator's address in one game) 5 at once then 12 a minute; 60 a minute per client
address over all games; 2,000 messages per game.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from sqlalchemy import func, insert, select

from . import fastjson
from .chat_db import chat_t
from .hub import MAX_NAME, ApiError, Hub, Session, clean_name, client_key, storage_error
from .people_db import tables_t
from .ratelimit import Limiter
from .store import _NOTIFY as NOTIFY
from .store import Refused, StorageError, now, parse_time

log = logging.getLogger("grimoire.web.chat")

MAX_TEXT = 500
PER_SENDER_MINUTE = 12.0
SENDER_BURST = 5.0
PER_CLIENT_MINUTE = 60.0
MAX_PER_GAME = 2000
PAGE = 200
CHANNELS = ("seats", "spectators")


def clean_text(raw: Any) -> str:
    text = clean_name(raw) if isinstance(raw, str) and len(raw) <= 4 * MAX_TEXT else None
    if not text or len(text) > MAX_TEXT:
        raise ApiError(400, "bad_text", f"a chat message is text of 1 to {MAX_TEXT} characters without control, "
                       "invisible or direction-changing characters")
    return text


def _public_message(row: Any) -> dict:
    at = row["created_at"]
    at = parse_time(at) if isinstance(at, str) else at
    return {"id": row["id"], "seat": row["seat"], "name": row["name"], "text": row["text"],
            "at": at.isoformat() if at.tzinfo else at.isoformat() + "+00:00"}


class Chat:
    def __init__(self, hub: Callable[[], Hub], bearer: Callable[[Request], str | None]):
        self.hub = hub
        self.bearer = bearer
        self.limiter = Limiter()

    def install_hooks(self, hub: Hub) -> None:
        hub.notify_hooks["c"] = self._remote

    # --- reading ----------------------------------------------------------------------------------------
    async def _read(self, fn: Callable) -> Any:
        return await self.hub().store.read(fn, "the chat")

    async def is_public(self, gid: str) -> bool:
        """A game of an open table (listed in the lobby for anyone) is public; one made with links is not."""
        return bool(await self._read(lambda conn: conn.execute(
            select(tables_t.c.id).where(tables_t.c.id == gid)).first()))

    async def readable(self, s: Session, seat: int | None, channel: str) -> bool:
        own = "seats" if seat is not None else "spectators"
        if channel == own:
            return True
        if s.status != "over":
            return False
        return channel == "spectators" or await self.is_public(s.id)

    async def messages(self, gid: str, request: Request, channel: str | None, after: int | None) -> dict:
        hub = self.hub()
        s = await hub.get(gid)
        seat = hub.seat_for_token(s, self.bearer(request))
        channel = channel or ("seats" if seat is not None else "spectators")
        if channel not in CHANNELS:
            raise ApiError(400, "bad_channel", "'channel' is seats or spectators")
        if after is not None and not 0 <= after < 2 ** 31:
            raise ApiError(400, "bad_request", "'after' is a message id (a whole number from 0)")
        if not await self.readable(s, seat, channel):
            raise ApiError(403, "chat_hidden", "the seats' chat is for the game's players (public once a public "
                           "game is over); spectators' chat is for spectators until the game is over")

        def q(conn):
            base = select(chat_t).where(chat_t.c.game_id == s.id, chat_t.c.channel == channel)
            if after is not None:
                rows = conn.execute(base.where(chat_t.c.id > after).order_by(chat_t.c.id).limit(PAGE)).mappings()
                return [dict(r) for r in rows]
            rows = conn.execute(base.order_by(chat_t.c.id.desc()).limit(PAGE)).mappings()
            return [dict(r) for r in rows][::-1]
        rows = await self._read(q)
        return {"game_id": s.id, "channel": channel, "messages": [_public_message(r) for r in rows]}

    # --- saying -----------------------------------------------------------------------------------------
    async def say(self, gid: str, body: Any, request: Request) -> dict:
        hub = self.hub()
        s = await hub.get(gid)
        seat = hub.seat_for_token(s, self.bearer(request))
        if not isinstance(body, dict):
            raise ApiError(400, "bad_request", 'the body must be a JSON object: {"text": "..."}')
        text = clean_text(body.get("text"))
        if seat is not None:
            channel, name = "seats", s.seats[seat].name
        else:
            channel = "spectators"
            raw = body.get("name")
            given = clean_name(raw) if isinstance(raw, str) and len(raw) <= 4 * MAX_NAME else None
            if raw not in (None, "") and (given is None or len(given) > MAX_NAME):
                raise ApiError(400, "bad_name", f"a name is text of at most {MAX_NAME} characters without control, "
                               "invisible or direction-changing characters")
            name = given or ""
        client = client_key(request.client.host if request.client else None)
        sender = f"seat{seat}" if seat is not None else client
        await self.limiter.take(hub, f"chat:{s.id}:{sender}", PER_SENDER_MINUTE, SENDER_BURST, "too_many_messages",
                                "chat messages")
        await self.limiter.take(hub, f"chat:{client}", PER_CLIENT_MINUTE, PER_CLIENT_MINUTE, "too_many_messages",
                                "chat messages from this address")
        t = now()
        row: dict[str, Any] = {"game_id": s.id, "channel": channel, "seat": seat, "name": name, "text": text,
                               "created_at": t}
        cluster = hub.cluster

        def job(conn):
            n = conn.execute(select(func.count()).select_from(chat_t).where(chat_t.c.game_id == s.id)).scalar()
            if n >= MAX_PER_GAME:
                raise Refused("chat_full", f"this game's chat has {MAX_PER_GAME} messages, its limit", status=409)
            row["id"] = conn.execute(insert(chat_t).values(**row).returning(chat_t.c.id)).scalar_one()
            # the other server processes push it to their sockets: sent only if this commits
            if cluster is not None:
                line = ["c", cluster.id, s.id, channel, _public_message(row)]
                conn.execute(NOTIFY, {"payload": fastjson.dumps(line)})
        try:
            await asyncio.wrap_future(hub.store.writer.submit(job))
        except Refused as e:
            raise ApiError(e.status, e.code, e.message) from None
        except StorageError as e:
            log.error("game %s: a chat message could not be stored: %s", s.id, e)
            raise storage_error() from None
        message = _public_message(row)
        self.push(s, channel, message)
        return {"channel": channel, "message": message}

    @staticmethod
    def push(s: Session, channel: str, message: dict) -> None:
        text = fastjson.dumps({"type": "chat", "channel": channel, "message": message})
        for c in list(s.conns):
            if not c.closed and (c.seat is not None) == (channel == "seats"):
                c.push(text)

    def _remote(self, ev: list) -> None:
        """Another server process stored a message: push it to this process's sockets of the game."""
        try:
            _k, _proc, gid, channel, message = ev
        except ValueError:
            return
        s = self.hub().sessions.get(gid)
        if s is not None and channel in CHANNELS:
            self.push(s, channel, message)


def install(app: FastAPI, hub: Callable[[], Hub], json_body: Callable,
            bearer: Callable[[Request], str | None]) -> Chat:
    chat = Chat(hub, bearer)
    router = APIRouter()

    @router.get("/api/games/{gid}/chat")
    async def read_chat(gid: str, request: Request, channel: str | None = None, after: int | None = None):
        return await chat.messages(gid, request, channel, after)

    @router.post("/api/games/{gid}/chat", status_code=201)
    async def post_chat(gid: str, request: Request):
        return await chat.say(gid, await json_body(request), request)

    app.include_router(router)
    return chat
