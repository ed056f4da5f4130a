"""Undo in the browser: a seat takes back its own last action (the core's policy, ``core/undo.py``).

    GET  /api/games/{id}/undo     (Bearer: the seat) {"possible", "code", "seq"}: may it undo now?
    POST /api/games/{id}/undo     {"seq": n} (the seq the seat saw) -> {"ok", "seq", "undone"}

Durable and exactly once: under the game's lock, one transaction moves the game row from ``seq`` n
back to n-1 (guarded: ``WHERE seq = n``, so a second request for the same action, from any process,
finds nothing to do and answers 409 stale), deletes action n and any snapshot from n on, and tells
the other server processes (they drop their copy). Only after the commit does the game take the state
rebuilt by replaying the first n-1 actions from the seed (exactly the game in which the action was
never played), and every connection gets an ``undone`` message: its whole view (seat-filtered as
always), which it takes even though its ``seq`` went down. A seat to which the undone action was
secret gets nothing unless its view changed (as for any secret action).

Rated games refuse undo (409 ``undo_rated``): a rated result must come from moves that stood; so does a
move the AI made for a seat whose time ran out (409 ``undo_takeover``: recorded with the move); in
unrated and practice games a seat may take back as many of its own actions in a row as the policy
allows.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from sqlalchemy import case, delete, select, update

from ..core import undo as policy
from ..core.registry import new_game
from ..core.state import GameState
from . import fastjson
from .hub import ApiError, Hub, Session, storage_error
from .people_db import rated_games_t
from .store import (
    TAKEOVERS,
    Conflict,
    Refused,
    StorageError,
    actions_t,
    ai_jobs_t,
    games_t,
    now,
    snapshots_t,
    stored_options,
)

log = logging.getLogger("grimoire.web.undo")

MESSAGES = {
    policy.NOTHING: "there is nothing of yours to take back: your own last action only, while you still decide",
    policy.TURN_PASSED: "another player decides since your action: it cannot be taken back",
    policy.CHANCE: "your action drew, revealed or rolled something: it cannot be taken back",
    policy.OVER: "the game is over",
}
RATED_MESSAGE = "a rated game has no undo: every move stands"
TAKEOVER_MESSAGE = "the AI made this move for you when your time ran out: it stands"


def _start(s: Session) -> Callable[[], GameState]:
    """The game's first state exactly as the server builds it (``Hub._rebuild``)."""
    return lambda: new_game(s.game, len(s.seats), s.seed, **s.options)


# the last answers: game id -> (the state asked about, seat, why not, the state before its last action).
# The page asks (GET) after each of its own actions; the undo itself (POST) then needs no second replay.
_answers: OrderedDict[str, tuple[GameState, int, str | None, GameState | None]] = OrderedDict()
MAX_ANSWERS = 256


async def _check(s: Session, seat: int | None) -> tuple[str | None, GameState | None]:
    """The core's answer for the game's current state. A state is never changed once it is the game's
    (an action makes a new one), so the replay runs in a thread while the event loop serves others."""
    if seat is None:
        raise ApiError(403, "spectator", "spectators cannot act: open your seat's link to play")
    state = s.state
    got = _answers.get(s.id)
    if got is not None and got[0] is state and got[1] == seat:
        return got[2], got[3]
    last = s.log[-1]["seat"] if s.log else None
    if last != seat or state.current_player != seat or state.is_terminal():      # no replay needed
        return policy.last_action_refusal(state, seat, last, _start(s))
    why, before = await asyncio.to_thread(policy.last_action_refusal, state, seat, last, _start(s))
    _answers[s.id] = (state, seat, why, before)
    _answers.move_to_end(s.id)
    while len(_answers) > MAX_ANSWERS:
        _answers.popitem(last=False)
    return why, before


async def _rated(hub: Hub, gid: str) -> bool:
    return await hub.store.read(lambda conn: conn.execute(
        select(rated_games_t.c.game_id).where(rated_games_t.c.game_id == gid)).first() is not None,
        "whether the game is rated")


def _store_undo(hub: Hub, s: Session, n: int, seat: int, text: str, before: GameState):
    """One transaction: the game row from n back to n-1 (guarded), action n and snapshots from n gone."""
    cp = before.current_player
    pub = (n - 1) - before.visible_history(None).count(None) if s.has_secrets else n - 1
    jobs = hub.cluster is not None
    gid = s.id

    def job(conn):
        if conn.execute(select(rated_games_t.c.game_id).where(rated_games_t.c.game_id == gid)).first() is not None:
            raise Refused("undo_rated", RATED_MESSAGE, status=409)
        if n in stored_options(conn, gid).get(TAKEOVERS, []):     # (recorded by another server process)
            raise Refused("undo_takeover", TAKEOVER_MESSAGE, status=409)
        t = now()
        moved = conn.execute(update(games_t).where(games_t.c.id == gid, games_t.c.seq == n).values(
            seq=n - 1, status="active", current_player=cp, ai_turn=False, updated_at=t,
            public_at=case((games_t.c.public_seq == pub, games_t.c.public_at), else_=t), public_seq=pub))
        if moved.rowcount != 1:
            raise Conflict(f"game {gid} is no longer at action {n}")
        conn.execute(delete(actions_t).where(actions_t.c.game_id == gid, actions_t.c.seq >= n))
        conn.execute(delete(snapshots_t).where(snapshots_t.c.game_id == gid, snapshots_t.c.seq >= n))
        if jobs:
            conn.execute(delete(ai_jobs_t).where(ai_jobs_t.c.game_id == gid))

    def stored(conn) -> bool:
        got = conn.execute(select(actions_t.c.seat, actions_t.c.text)
                           .where(actions_t.c.game_id == gid, actions_t.c.seq == n)).first()
        return got is None or (got.seat, got.text) != (seat, text)

    event = fastjson.dumps(["u", hub.cluster.id, gid, n - 1]) if hub.cluster is not None else None
    return hub.store.writer.submit(job, stored, event)


def _rewind(hub: Hub, s: Session, before: GameState) -> None:
    """Make ``before`` (stored) the game's state and send every connection that may see a change its view."""
    secret_to = set()
    for c in s.conns:
        vis = None if c.closed else s.visibility(c.seat)
        if vis is not None and vis[-1] is None:
            secret_to.add(c.seat)
    old = {seat: s.seat_view(seat) for seat in secret_to}
    s.state = before
    s.seq -= 1
    s.log.pop()
    s._views_seq = -1                 # every cached view and log belongs to the undone state
    s._fresh()
    cache: dict[int | None, str | None] = {}
    for c in list(s.conns):
        if c.closed:
            continue
        if c.seat not in cache:
            changed = c.seat not in secret_to or s.seat_view(c.seat) != old[c.seat]
            cache[c.seat] = hub.view_json(s, c.seat, "undone") if changed else None
        text = cache[c.seat]
        if text is not None:
            c.sent = s.seat_seq(c.seat)          # the view it holds now: the next change may be a patch from it
            c.push(text)


async def undo(hub: Hub, s: Session, seat: int | None, seq: Any) -> dict[str, Any]:
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise ApiError(400, "bad_seq", "'seq' must be the game's sequence number you saw (a whole number)")
    if await _rated(hub, s.id):
        raise ApiError(409, "undo_rated", RATED_MESSAGE)
    async with s.lock:
        mine = s.seat_seq(seat) if seat is not None else s.seq
        if s.retired:
            raise ApiError(409, "stale", "the game was changed elsewhere; reload", seq=mine)
        if seq != mine:
            raise ApiError(409, "stale", f"the game has moved on (it is at action {mine}, you sent {seq})", seq=mine)
        if s.forfeit is not None:            # a seat lost on time (turns.py): the game is over
            raise ApiError(409, "game_over", "the game is over", seq=mine)
        if s.seq in s.takeovers and s.log and s.log[-1]["seat"] == seat:   # the AI's, at its deadline
            raise ApiError(409, "undo_takeover", TAKEOVER_MESSAGE, seq=mine)
        why, before = await _check(s, seat)
        if why is not None or before is None or seat is None:
            raise ApiError(409, f"undo_{why}", MESSAGES.get(why or "", "nothing to take back"), seq=mine)
        n, text = s.seq, s.log[-1]["text"]
        try:
            await asyncio.wrap_future(_store_undo(hub, s, n, seat, text, before))
        except Refused as e:
            raise ApiError(e.status, e.code, e.message, seq=mine) from None
        except Conflict:
            hub._retire(s)         # another process changed the game: our copy reloads (its sockets reconnect)
            raise ApiError(409, "stale", "the game has moved on (another request came first)", seq=mine) from None
        except StorageError as e:
            log.error("game %s: the undo of action %d could not be stored: %s", s.id, n, e)
            raise storage_error(seq=mine) from None
        _answers.pop(s.id, None)
        _rewind(hub, s, before)
        done = s.seat_seq(seat)
    return {"ok": True, "seq": done, "undone": text}


def install(app: FastAPI, hub: Callable[[], Hub], bearer: Callable[[Request], str | None],
            json_body: Callable) -> None:
    router = APIRouter()

    @router.get("/api/games/{gid}/undo")
    async def can_undo(gid: str, request: Request):
        s = await hub().get(gid)
        seat = hub().seat_for_token(s, bearer(request))
        mine = s.seat_seq(seat) if seat is not None else s.seq
        if seat is None:
            return {"possible": False, "code": "spectator", "seq": mine}
        if await _rated(hub(), s.id):
            return {"possible": False, "code": "undo_rated", "seq": mine}
        if s.forfeit is not None:            # a seat lost on time (turns.py): the game is over
            return {"possible": False, "code": "game_over", "seq": mine}
        if s.seq in s.takeovers and s.log and s.log[-1]["seat"] == seat:
            return {"possible": False, "code": "undo_takeover", "seq": mine}
        why, _before = await _check(s, seat)
        return {"possible": why is None, "code": None if why is None else f"undo_{why}", "seq": mine}

    @router.post("/api/games/{gid}/undo")
    async def do_undo(gid: str, request: Request):
        s = await hub().get(gid)
        seat = hub().seat_for_token(s, bearer(request))
        body = await json_body(request)
        if not isinstance(body, dict) or "seq" not in body:
            raise ApiError(400, "bad_seq", "'seq' is required: the game's sequence number you last saw")
        return await undo(hub(), s, seat, body.get("seq"))

    app.include_router(router)
