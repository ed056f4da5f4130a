"""Optional accounts: a username and a password (no e-mail), so that a player finds his games on any
device and can play rated tables. Playing needs no account: the seat token stays the key.

    POST /api/account/register   {"username", "password"} -> logged in (201)
    POST /api/account/login      {"username", "password"} -> logged in
    POST /api/account/logout     (X-CSRF-Token)
    GET  /api/account            {"user": {"username"} | null, "csrf": "..." | null}
    GET  /api/account/games      the account's seats: [{"game_id", "seat", "token"}] (any device)
    POST /api/account/seats      (X-CSRF-Token) {"game_id", "token"}: add a seat this browser holds

Passwords are hashed with argon2id (argon2-cffi; the hashing runs in threads, two at a time, so a
flood of logins cannot take the server's memory). A session is a random 256-bit value in an HttpOnly,
SameSite=Lax cookie, marked Secure (left out only for plain HTTP to a host that is not this machine,
where a browser would drop a Secure cookie); only its SHA-256 is stored, with an expiry (30 days).
Requests that change something with a session need the session's CSRF token in ``X-CSRF-Token``
(besides the JSON content type and same-origin check every such request passes). Login attempts are
limited per client address and per username.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import APIRouter, FastAPI, Request, Response
from sqlalchemy import delete, select

from .hub import GAME_ID, ApiError, Hub, clean_name, client_key, hash_token, storage_error
from .people_db import sessions_t, user_seats_t, users_t
from .ratelimit import Limiter
from .store import Refused, StorageError, now, parse_time

log = logging.getLogger("grimoire.web.accounts")

COOKIE = "grimoire_session"
SESSION_DAYS = 30
MIN_PASSWORD, MAX_PASSWORD = 8, 200
MIN_USERNAME, MAX_USERNAME = 3, 30
LOGINS_PER_MINUTE = 10.0          # attempts per client address (burst the same) ...
LOGINS_PER_USER_HOUR = 20.0       # ... and per username (a slow guess from many addresses)
REGISTRATIONS_PER_HOUR = 10.0     # accounts one address may create
HASHING = asyncio.Semaphore(2)    # argon2 takes 64 MiB and ~50 ms per hash
HASHER = PasswordHasher()
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class User:
    id: str
    username: str
    csrf: str


def username_key(name: str) -> str:
    """What makes two usernames the same one (case and compatibility forms do not count)."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_username(raw: Any) -> str:
    name = clean_name(raw) if isinstance(raw, str) and len(raw) <= 4 * MAX_USERNAME else None
    fits = name is not None and MIN_USERNAME <= len(name) <= MAX_USERNAME
    if not name or not fits or not all(ch.isalnum() or ch in " _-." for ch in name):
        raise ApiError(400, "bad_username", f"a username has {MIN_USERNAME} to {MAX_USERNAME} letters, digits, "
                       "spaces, dots, dashes or underscores")
    return name


def check_password(raw: Any) -> str:
    if not isinstance(raw, str) or not MIN_PASSWORD <= len(raw) <= MAX_PASSWORD:
        raise ApiError(400, "bad_password", f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return raw


async def _in_thread(fn: Callable, *args: Any) -> Any:
    async with HASHING:
        return await asyncio.to_thread(fn, *args)


def _verify(stored: str, password: str) -> bool:
    try:
        return HASHER.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


class Accounts:
    def __init__(self, hub: Callable[[], Hub]):
        self.hub = hub
        self.limiter = Limiter()
        self._dummy: str | None = None          # verified against for unknown usernames (same timing)

    async def read(self, fn: Callable) -> Any:
        return await self.hub().store.read(fn, "accounts")

    async def write(self, job: Callable) -> Any:
        try:
            return await asyncio.wrap_future(self.hub().store.writer.submit(job))
        except Refused as e:
            raise ApiError(e.status, e.code, e.message) from None
        except StorageError as e:
            log.error("an account change could not be stored: %s", e)
            raise storage_error() from None

    # --- who is asking --------------------------------------------------------------------------
    async def user_of(self, request: Request) -> User | None:
        """The logged-in user of the request, or None. A request that changes something with a session
        must carry its CSRF token (else 403 ``csrf``)."""
        sid = request.cookies.get(COOKIE)
        if not sid or len(sid) > 100:
            return None
        h = hash_token(sid)
        t = now()

        def q(conn):
            return conn.execute(select(users_t.c.id, users_t.c.username, sessions_t.c.csrf, sessions_t.c.expires_at)
                                .select_from(sessions_t.join(users_t, users_t.c.id == sessions_t.c.user_id))
                                .where(sessions_t.c.id_hash == h)).first()
        row = await self.read(q)
        if row is None:
            return None
        expires = row.expires_at
        expires = parse_time(expires) if isinstance(expires, str) else (
            expires.replace(tzinfo=UTC) if expires.tzinfo is None else expires)
        if expires < t:
            return None
        if request.method in UNSAFE:
            sent = request.headers.get("x-csrf-token", "")
            if not secrets.compare_digest(sent.encode(), row.csrf.encode()):
                raise ApiError(403, "csrf", "this request lacks the session's CSRF token (X-CSRF-Token): reload "
                               "the page")
        return User(row.id, row.username, row.csrf)

    # --- sessions ---------------------------------------------------------------------------------
    async def new_session(self, user_id: str, request: Request, response: Response) -> str:
        sid = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(24)
        t = now()

        def job(conn):
            conn.execute(delete(sessions_t).where(sessions_t.c.user_id == user_id, sessions_t.c.expires_at < t))
            conn.execute(sessions_t.insert().values(id_hash=hash_token(sid), user_id=user_id, csrf=csrf, created_at=t,
                                                    expires_at=t + timedelta(days=SESSION_DAYS)))
        await self.write(job)
        host = (request.url.hostname or "").lower()
        secure = request.url.scheme == "https" or host in ("localhost", "127.0.0.1", "::1") \
            or host.endswith(".localhost")
        response.set_cookie(COOKIE, sid, max_age=SESSION_DAYS * 86400, httponly=True, secure=secure,
                            samesite="lax", path="/")
        return csrf

    async def login_limits(self, request: Request, key: str) -> None:
        client = client_key(request.client.host if request.client else None)
        hub = self.hub()
        await self.limiter.take(hub, f"login:{client}", LOGINS_PER_MINUTE, LOGINS_PER_MINUTE, "too_many_logins",
                                "login attempts from this address")
        await self.limiter.take(hub, f"login-user:{hashlib.sha256(key.encode()).hexdigest()[:32]}",
                                LOGINS_PER_USER_HOUR / 60, LOGINS_PER_USER_HOUR / 2, "too_many_logins",
                                "login attempts for this username")

    async def register(self, body: Any, request: Request, response: Response) -> dict:
        if not isinstance(body, dict):
            raise ApiError(400, "bad_request", "the body must be a JSON object")
        name, password = check_username(body.get("username")), check_password(body.get("password"))
        client = client_key(request.client.host if request.client else None)
        await self.limiter.take(self.hub(), f"register:{client}", REGISTRATIONS_PER_HOUR / 60, REGISTRATIONS_PER_HOUR,
                                "too_many_accounts", "accounts created from this address")
        key = username_key(name)
        hashed = await _in_thread(HASHER.hash, password)
        uid = secrets.token_urlsafe(12)

        def job(conn):
            if conn.execute(select(users_t.c.id).where(users_t.c.username_key == key)).first() is not None:
                raise Refused("username_taken", "that username is taken: choose another", status=409)
            conn.execute(users_t.insert().values(id=uid, username=name, username_key=key, password_hash=hashed,
                                                 created_at=now()))
        try:
            await self.write(job)
        except ApiError:
            raise
        response.status_code = 201
        csrf = await self.new_session(uid, request, response)
        return {"user": {"username": name}, "csrf": csrf}

    async def login(self, body: Any, request: Request, response: Response) -> dict:
        if not isinstance(body, dict) or not isinstance(body.get("username"), str) \
                or not isinstance(body.get("password"), str):
            raise ApiError(400, "bad_request", 'send {"username": ..., "password": ...}')
        name = body["username"][:4 * MAX_USERNAME]
        password = body["password"][:MAX_PASSWORD + 1]
        key = username_key(name)
        await self.login_limits(request, key)
        row = await self.read(lambda conn: conn.execute(
            select(users_t.c.id, users_t.c.username, users_t.c.password_hash)
            .where(users_t.c.username_key == key)).first())
        if row is None:
            if self._dummy is None:
                self._dummy = await _in_thread(HASHER.hash, secrets.token_hex(8))
            await _in_thread(_verify, self._dummy, password)        # the same time as a wrong password
            ok = False
        else:
            ok = await _in_thread(_verify, row.password_hash, password)
        if not ok:
            raise ApiError(401, "bad_login", "wrong username or password")
        csrf = await self.new_session(row.id, request, response)
        return {"user": {"username": row.username}, "csrf": csrf}

    async def logout(self, request: Request, response: Response) -> dict:
        user = await self.user_of(request)
        sid = request.cookies.get(COOKIE)
        if user is not None and sid:
            h = hash_token(sid)
            await self.write(lambda conn: conn.execute(delete(sessions_t).where(sessions_t.c.id_hash == h)))
        response.delete_cookie(COOKIE, path="/")
        return {"ok": True}

    async def games(self, request: Request) -> dict:
        user = await self.user_of(request)
        if user is None:
            raise ApiError(401, "login_required", "log in to see your account's games")
        rows = await self.read(lambda conn: conn.execute(
            select(user_seats_t.c.game_id, user_seats_t.c.seat, user_seats_t.c.token)
            .where(user_seats_t.c.user_id == user.id).order_by(user_seats_t.c.created_at.desc()).limit(200)).all())
        return {"seats": [{"game_id": r.game_id, "seat": r.seat, "token": r.token} for r in rows]}

    async def add_seat(self, body: Any, request: Request) -> dict:
        """Keep a seat this browser holds (a private game's link) with the account."""
        user = await self.user_of(request)
        if user is None:
            raise ApiError(401, "login_required", "log in first")
        if not isinstance(body, dict) or not isinstance(body.get("game_id"), str) \
                or not isinstance(body.get("token"), str):
            raise ApiError(400, "bad_request", 'send {"game_id": ..., "token": ...}')
        s = await self.hub().get(body["game_id"])
        seat = self.hub().seat_for_token(s, body["token"])
        if seat is None or not GAME_ID.fullmatch(s.id):
            raise ApiError(401, "bad_token", "that token holds no seat of this game")
        token = body["token"]

        def job(conn):
            have = conn.execute(select(user_seats_t.c.seat).where(
                user_seats_t.c.user_id == user.id, user_seats_t.c.game_id == s.id,
                user_seats_t.c.seat == seat)).first()
            if have is None:
                conn.execute(user_seats_t.insert().values(user_id=user.id, game_id=s.id, seat=seat, token=token,
                                                          created_at=now()))
        await self.write(job)
        return {"ok": True, "seat": seat}


def install(app: FastAPI, hub: Callable[[], Hub], json_body: Callable) -> Accounts:
    acc = Accounts(hub)
    router = APIRouter()

    @router.get("/api/account")
    async def whoami(request: Request):
        user = await acc.user_of(request)
        return {"user": {"username": user.username} if user else None, "csrf": user.csrf if user else None}

    @router.post("/api/account/register", status_code=201)
    async def register(request: Request, response: Response):
        return await acc.register(await json_body(request), request, response)

    @router.post("/api/account/login")
    async def login(request: Request, response: Response):
        return await acc.login(await json_body(request), request, response)

    @router.post("/api/account/logout")
    async def logout(request: Request, response: Response):
        return await acc.logout(request, response)

    @router.get("/api/account/games")
    async def my_games(request: Request):
        return await acc.games(request)

    @router.post("/api/account/seats")
    async def add_seat(request: Request):
        return await acc.add_seat(await json_body(request), request)

    app.include_router(router)
    return acc


