"""Open tables: games waiting for players, listed in the lobby, joined by anyone.

    GET  /api/tables?game=&lang=          the open tables (newest first): game, options, seats (who sits,
                                          which are free), language, rated, created
    POST /api/tables                      open one: {"game", "players", "seats": [{"agent"}], "options",
                                          "name", "lang", "rated"}; the creator takes seat 0 and gets its token
    GET  /api/tables/{id}                 one table (Bearer: your seat of it); once started ``game_id``
    POST /api/tables/{id}/join            {"name", "seat"?}: take a free seat -> {"seat", "token"}
    POST /api/tables/{id}/leave           (Bearer) give your seat back; the creator leaving closes the table
    POST /api/tables/{id}/kick            (Bearer: the creator) {"seat"}: free a seat before the start
    POST /api/tables/{id}/start           (Bearer: the creator) {"agent"}: AI seats in the empty places, start

A seat's token is the key to its seat in the game: when the table starts, the game is created with the
table's id and the hashes of the tokens its players hold (``Hub.create``), in one transaction that also
marks the table started — so a table starts once, also with several server processes, and every join,
kick and start is stored before it is answered. The last free seat taken starts the game.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, timedelta
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from sqlalchemy import and_, func, select, update

from ..agents import agent_names
from ..core.errors import GameConfigError
from ..core.registry import game_info, games
from .chat_db import turn_rules_t
from .hub import GAME_ID, MAX_NAME, ApiError, Hub, clean_name, client_key, hash_token, storage_error
from .people_db import rated_games_t, table_seats_t, tables_t, user_seats_t
from .ratelimit import Limiter
from .store import Refused, StorageError, now, parse_time
from .turns import parse_rule, store_rule

log = logging.getLogger("grimoire.web.tables")

MAX_OPEN_PER_CLIENT = 5           # open tables one client address may have at once
JOINS_PER_MINUTE = 30.0           # joins, leaves and kicks one client address may make
OPEN_HOURS = 24                   # an open table nobody started is no longer listed after this
LANGS = ("en", "hu", "de", "zh")

UserOf = Callable[[Request], Awaitable[Any]]


def _name(raw: Any) -> str:
    cleaned = clean_name(raw) if isinstance(raw, str) and len(raw) <= 4 * MAX_NAME else None
    if not cleaned or len(cleaned) > MAX_NAME:
        raise ApiError(400, "bad_name", f"a name is text of 1 to {MAX_NAME} characters without control, "
                       "invisible or direction-changing characters")
    return cleaned


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    return auth[7:].strip() if auth.lower().startswith("bearer ") else None


class Tables:
    def __init__(self, hub: Callable[[], Hub], user_of: UserOf | None):
        self.hub = hub
        self.user_of = user_of
        self.limiter = Limiter()

    # --- helpers -------------------------------------------------------------------------------------
    async def read(self, fn: Callable) -> Any:
        return await self.hub().store.read(fn, "open tables")

    async def write(self, job: Callable, check: Callable | None = None) -> None:
        try:
            await asyncio.wrap_future(self.hub().store.writer.submit(job, check))
        except Refused as e:
            raise ApiError(e.status, e.code, e.message) from None
        except StorageError as e:
            log.error("an open table could not be stored: %s", e)
            raise storage_error() from None

    async def rate(self, request: Request) -> None:
        client = client_key(request.client.host if request.client else None)
        await self.limiter.take(self.hub(), f"tables:{client}", JOINS_PER_MINUTE, JOINS_PER_MINUTE,
                                "too_many_requests", "joins, leaves and kicks from this address")

    async def user(self, request: Request) -> Any:
        return await self.user_of(request) if self.user_of is not None else None

    async def load(self, tid: Any) -> tuple[dict, list[dict]]:
        if not isinstance(tid, str) or not GAME_ID.fullmatch(tid):
            raise ApiError(404, "unknown_table", "there is no such table")

        def q(conn):
            t = conn.execute(select(tables_t).where(tables_t.c.id == tid)).mappings().first()
            if t is None:
                return None, []
            seats = [dict(r) for r in conn.execute(select(table_seats_t).where(table_seats_t.c.table_id == tid)
                                                   .order_by(table_seats_t.c.seat)).mappings()]
            turn = conn.execute(select(turn_rules_t.c.seconds).where(turn_rules_t.c.game_id == tid)).scalar()
            return dict(t) | {"turn_seconds": turn or 0}, seats
        t, seats = await self.read(q)
        if t is None:
            raise ApiError(404, "unknown_table", "there is no such table")
        return t, seats

    @staticmethod
    def my_seat(seats: list[dict], token: str | None) -> int | None:
        if not token or len(token) > 200:
            return None
        h = hash_token(token)
        for s in seats:
            if s["token_hash"] and secrets.compare_digest(s["token_hash"], h):
                return s["seat"]
        return None

    @staticmethod
    def public(t: dict, seats: list[dict], mine: int | None = None) -> dict:
        created = t["created_at"]
        if isinstance(created, str):
            created = parse_time(created)
        elif created.tzinfo is None:                 # SQLite gives the stored UTC time without its zone
            created = created.replace(tzinfo=UTC)
        out = {"id": t["id"], "game": t["game"], "players": t["players"], "options": t["options"],
               "lang": t["lang"], "rated": bool(t["rated"]), "status": t["status"],
               "created_at": created.isoformat(), "turn_seconds": t.get("turn_seconds", 0),
               "free": sum(1 for s in seats if s["agent"] == "human" and not s["token_hash"]),
               "seats": [{"seat": s["seat"], "agent": s["agent"], "name": s["name"],
                          "taken": s["agent"] != "human" or bool(s["token_hash"])} for s in seats]}
        if mine is not None:
            out["you"] = mine
            out["owner"] = secrets.compare_digest(t["owner_hash"], seats[mine]["token_hash"] or "")
        if t["status"] == "started":
            out["game_id"] = t["id"]
        return out

    # --- opening --------------------------------------------------------------------------------------
    async def open(self, body: Any, request: Request) -> dict:
        if not isinstance(body, dict):
            raise ApiError(400, "bad_request", "the body must be a JSON object")
        game = body.get("game")
        if not isinstance(game, str) or game not in games():
            raise ApiError(400, "bad_game", "'game' must be one of " + ", ".join(games()))
        info = game_info(game)
        seats_spec = body.get("seats")
        if not isinstance(seats_spec, list) or len(seats_spec) not in info.player_counts:
            raise ApiError(400, "bad_seats", f"'seats' must list {' or '.join(map(str, info.player_counts))} seats")
        players = len(seats_spec)
        levels = agent_names(game)
        agents = []
        for i, sd in enumerate(seats_spec):
            agent = sd.get("agent", "human") if isinstance(sd, dict) else sd
            if agent != "human" and agent not in levels:
                raise ApiError(400, "bad_seats", f"seat {i}: choose human or one of " + ", ".join(levels))
            agents.append(agent)
        if agents[0] != "human":
            raise ApiError(400, "bad_seats", "the first seat is the creator's: it must be 'human'")
        if agents.count("human") < 2:
            raise ApiError(400, "no_open_seat", "an open table needs at least one free seat for another player")
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise ApiError(400, "bad_options", "'options' must be an object")
        bad = sorted(set(options) & ({"players", "seed", "fixed_seed", "practice"} | set(info.chance_options)))
        if bad:
            raise ApiError(400, "bad_options", f"{', '.join(bad)} cannot be set for an open table")
        try:
            info.validate(players, options)
        except GameConfigError as e:
            raise ApiError(400, "bad_options", str(e)) from None
        except (TypeError, ValueError) as e:
            raise ApiError(400, "bad_options", f"invalid options for {info.title}: {e}") from None
        name = _name(body.get("name"))
        lang = body.get("lang", "en")
        if lang not in LANGS:
            raise ApiError(400, "bad_lang", "'lang' is one of " + ", ".join(LANGS))
        rule = parse_rule(body.get("turn"))     # a slow game's move deadline (turns.py)
        rated = body.get("rated", False)
        if not isinstance(rated, bool):
            raise ApiError(400, "bad_request", "'rated' is true or false")
        user = await self.user(request)
        if rated and user is None:
            raise ApiError(401, "login_required", "rated tables are for players with an account: log in first")
        client = client_key(request.client.host if request.client else None)
        hub = self.hub()
        # a table counts as a game created (the same allowance), and a client has few open at once
        if hub.cluster is not None:
            await hub.cluster.check_creation(client, False)
        else:
            hub.check_creation_rate(request.client.host if request.client else None)
        tid = secrets.token_urlsafe(9)
        token = secrets.token_urlsafe(24)
        t = now()

        def job(conn):
            mine = conn.execute(select(func.count()).select_from(tables_t).where(
                tables_t.c.creator == client, tables_t.c.status == "open",
                tables_t.c.created_at > t - timedelta(hours=OPEN_HOURS))).scalar()
            if mine >= MAX_OPEN_PER_CLIENT:
                raise Refused("too_many_tables", f"this address has {mine} open tables, its limit; start or close "
                              "one first")
            conn.execute(tables_t.insert().values(
                id=tid, game=game, players=players, options=options, lang=lang, rated=rated, status="open",
                creator=client, owner_hash=hash_token(token), created_at=t, updated_at=t))
            conn.execute(table_seats_t.insert(), [
                {"table_id": tid, "seat": i, "agent": a, "name": name if i == 0 else "",
                 "token_hash": hash_token(token) if i == 0 else None,
                 "user_id": user.id if (i == 0 and user is not None) else None, "joined_at": t if i == 0 else None}
                for i, a in enumerate(agents)])
            if user is not None:
                conn.execute(user_seats_t.insert().values(user_id=user.id, game_id=tid, seat=0, token=token,
                                                          created_at=t))
            if rule is not None:                # the table's id is its game's: the rule waits for it
                store_rule(conn, tid, rule)
        await self.write(job)
        return {"id": tid, "seat": 0, "token": token}

    # --- listing --------------------------------------------------------------------------------------
    async def listing(self, game: str | None, lang: str | None, limit: int = 50) -> dict:
        if (game and game not in games()) or (lang and lang not in LANGS):
            return {"tables": []}           # no table has it (and PostgreSQL refuses a NUL in a query)
        since = now() - timedelta(hours=OPEN_HOURS)

        def q(conn):
            s = select(tables_t).where(tables_t.c.status == "open", tables_t.c.created_at > since)
            if game:
                s = s.where(tables_t.c.game == game)
            if lang:
                s = s.where(tables_t.c.lang == lang)
            rows = [dict(r) for r in conn.execute(s.order_by(tables_t.c.created_at.desc()).limit(limit)).mappings()]
            seats: dict[str, list[dict]] = {r["id"]: [] for r in rows}
            if rows:
                rules = dict(conn.execute(select(turn_rules_t.c.game_id, turn_rules_t.c.seconds)
                                          .where(turn_rules_t.c.game_id.in_(list(seats)))).all())
                for r in rows:
                    r["turn_seconds"] = rules.get(r["id"], 0)
                for r in conn.execute(select(table_seats_t).where(table_seats_t.c.table_id.in_(list(seats)))
                                      .order_by(table_seats_t.c.table_id, table_seats_t.c.seat)).mappings():
                    seats[r["table_id"]].append(dict(r))
            return rows, seats
        rows, seats = await self.read(q)
        out = []
        for r in rows:
            try:
                out.append(self.public(r, seats[r["id"]]))
            except (TypeError, ValueError, KeyError) as e:
                log.error("open table %s cannot be listed (%s)", r.get("id"), e)
        return {"tables": [x for x in out if x["free"] > 0]}

    # --- joining, leaving, kicking --------------------------------------------------------------------
    async def join(self, tid: str, body: Any, request: Request) -> dict:
        await self.rate(request)
        if not isinstance(body, dict):
            raise ApiError(400, "bad_request", "the body must be a JSON object")
        name = _name(body.get("name"))
        t, seats = await self.load(tid)
        if t["status"] != "open":
            raise ApiError(409, "table_started", "this table has started or closed")
        user = await self.user(request)
        if t["rated"] and user is None:
            raise ApiError(401, "login_required", "rated tables are for players with an account: log in first")
        if user is not None and any(s["user_id"] == user.id for s in seats):
            raise ApiError(409, "already_seated", "you already sit at this table")
        if self.my_seat(seats, _bearer(request)) is not None:
            raise ApiError(409, "already_seated", "you already sit at this table")
        free = [s["seat"] for s in seats if s["agent"] == "human" and not s["token_hash"]]
        want = body.get("seat")
        if want is not None and want not in free:
            raise ApiError(409, "seat_taken", "that seat is not free")
        if not free:
            raise ApiError(409, "table_full", "this table has no free seat")
        seat = want if want is not None else free[0]
        token = secrets.token_urlsafe(24)
        t_now = now()

        def job(conn):
            # Refused must come before anything is written (the writer commits the rest of its batch): the
            # table's row first (it also serializes joins, kicks and the start), then the guarded seat
            if not _touch(conn, tid, t_now):
                raise Refused("table_started", "this table has started or closed", status=409)
            res = conn.execute(update(table_seats_t).where(
                table_seats_t.c.table_id == tid, table_seats_t.c.seat == seat, table_seats_t.c.token_hash.is_(None),
                table_seats_t.c.agent == "human").values(
                token_hash=hash_token(token), name=name, user_id=user.id if user is not None else None,
                joined_at=t_now))
            if res.rowcount != 1:
                raise Refused("seat_taken", "someone else took that seat first", status=409)
            if user is not None:
                conn.execute(user_seats_t.insert().values(user_id=user.id, game_id=tid, seat=seat, token=token,
                                                          created_at=t_now))
        await self.write(job)
        if len(free) == 1:                     # the last free seat: the game starts
            try:
                await self.start(tid, None)
            except (ApiError, StorageError) as e:   # the seat is taken and stored: its token must reach the player;
                log.warning("table %s could not start yet (%s); the next look at it starts it", tid, e)
        return {"id": tid, "seat": seat, "token": token}

    async def _owner(self, tid: str, request: Request) -> tuple[dict, list[dict]]:
        t, seats = await self.load(tid)
        mine = self.my_seat(seats, _bearer(request))
        if mine is None or not secrets.compare_digest(t["owner_hash"], seats[mine]["token_hash"] or ""):
            raise ApiError(403, "not_owner", "only the table's creator (with the token of seat 1) may do this")
        if t["status"] != "open":
            raise ApiError(409, "table_started", "this table has started or closed")
        return t, seats

    async def free_seat(self, tid: str, seat: int, close: bool = False) -> None:
        t_now = now()

        def job(conn):
            if close:
                conn.execute(update(tables_t).where(tables_t.c.id == tid, tables_t.c.status == "open")
                             .values(status="closed", updated_at=t_now))
                return
            if not _touch(conn, tid, t_now):
                raise Refused("table_started", "this table has started or closed", status=409)
            conn.execute(update(table_seats_t).where(
                table_seats_t.c.table_id == tid, table_seats_t.c.seat == seat,
                table_seats_t.c.agent == "human").values(token_hash=None, name="", user_id=None, joined_at=None))
            conn.execute(user_seats_t.delete().where(and_(user_seats_t.c.game_id == tid, user_seats_t.c.seat == seat)))
        await self.write(job)

    async def kick(self, tid: str, body: Any, request: Request) -> dict:
        await self.rate(request)
        t, seats = await self._owner(tid, request)
        seat = body.get("seat") if isinstance(body, dict) else None
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat < len(seats) \
                or seats[seat]["agent"] != "human":
            raise ApiError(400, "bad_seat", "'seat' is another player's seat (0-based)")
        await self.free_seat(tid, seat)
        return {"ok": True}

    async def leave(self, tid: str, request: Request) -> dict:
        await self.rate(request)
        t, seats = await self.load(tid)
        mine = self.my_seat(seats, _bearer(request))
        if mine is None:
            raise ApiError(401, "bad_token", "that token holds no seat at this table")
        if t["status"] != "open":
            raise ApiError(409, "table_started", "this table has started or closed")
        await self.free_seat(tid, mine, close=mine == 0)
        return {"ok": True}

    # --- starting -------------------------------------------------------------------------------------
    async def start(self, tid: str, request: Request | None, agent: Any = None) -> dict:
        if request is not None:
            t, seats = await self._owner(tid, request)
        else:
            t, seats = await self.load(tid)
            if t["status"] != "open":
                return {"id": tid, "game_id": tid}
        levels = agent_names(t["game"])
        if agent is None:
            agent = "medium" if "medium" in levels else levels[0]
        if agent not in levels:
            raise ApiError(400, "bad_seats", "'agent' (for the empty seats) is one of " + ", ".join(levels))
        hashes = [s["token_hash"] for s in seats]
        spec_seats = [{"agent": s["agent"] if s["token_hash"] or s["agent"] != "human" else agent,
                       "name": s["name"]} for s in seats]
        rated = [{"user": s["user_id"]} if s["token_hash"] else {"agent": spec_seats[i]["agent"]}
                 for i, s in enumerate(seats)]

        def guard(conn):
            # runs in the game's storing transaction, before the game is written. The table's row first
            # (locked: joins and kicks wait), then the seats must be those read above
            if not _touch(conn, tid, now()):
                raise Refused("table_started", "this table has started or closed", status=409)
            now_hashes = [r.token_hash for r in conn.execute(
                select(table_seats_t.c.token_hash).where(table_seats_t.c.table_id == tid)
                .order_by(table_seats_t.c.seat))]
            if now_hashes != hashes:
                raise Refused("table_changed", "the table changed meanwhile; look again", status=409)
            conn.execute(update(tables_t).where(tables_t.c.id == tid).values(status="started"))
            if t["rated"]:
                conn.execute(rated_games_t.insert().values(game_id=tid, game=t["game"], players=t["players"],
                                                           seats=rated, status="pending", created_at=now()))
        options = t["options"] if isinstance(t["options"], dict) else {}
        await self.hub().create({"game": t["game"], "seats": spec_seats, "options": options}, None, gid=tid,
                                token_hashes=hashes, guard=guard, counted=True)
        return {"id": tid, "game_id": tid}


def _touch(conn, tid: str, t) -> bool:
    """Mark an open table changed (and lock its row until the transaction ends); False if it is not open.
    Writing only its time, this is harmless in a job that is refused afterwards."""
    return conn.execute(update(tables_t).where(tables_t.c.id == tid, tables_t.c.status == "open")
                        .values(updated_at=t)).rowcount == 1


def install(app: FastAPI, hub: Callable[[], Hub], json_body: Callable, user_of: UserOf | None = None) -> Tables:
    tables = Tables(hub, user_of)
    router = APIRouter()

    @router.get("/api/tables")
    async def list_tables(game: str | None = None, lang: str | None = None):
        return await tables.listing(game, lang)

    @router.post("/api/tables", status_code=201)
    async def open_table(request: Request):
        return await tables.open(await json_body(request), request)

    @router.get("/api/tables/{tid}")
    async def get_table(tid: str, request: Request):
        t, seats = await tables.load(tid)
        if t["status"] == "open" and seats and all(s["token_hash"] or s["agent"] != "human" for s in seats):
            # every seat taken but not started (a start that failed): start now
            await tables.start(tid, None)
            t, seats = await tables.load(tid)
        return tables.public(t, seats, tables.my_seat(seats, _bearer(request)))

    @router.post("/api/tables/{tid}/join")
    async def join_table(tid: str, request: Request):
        return await tables.join(tid, await json_body(request), request)

    @router.post("/api/tables/{tid}/leave")
    async def leave_table(tid: str, request: Request):
        return await tables.leave(tid, request)

    @router.post("/api/tables/{tid}/kick")
    async def kick_seat(tid: str, request: Request):
        return await tables.kick(tid, await json_body(request), request)

    @router.post("/api/tables/{tid}/start")
    async def start_table(tid: str, request: Request):
        body = await json_body(request)
        return await tables.start(tid, request, body.get("agent") if isinstance(body, dict) else None)

    app.include_router(router)
    return tables
