"""Slow (turn-based) games: a deadline for every decision, chosen at creation, enforced by the server.

Creating a game (``POST /api/games``) or opening a table (``POST /api/tables``) takes
``"turn": {"deadline": "none" | "1d" | "3d", "on_expire": "ai" | "forfeit"}`` (default: none, real time). The
rule is a ``turn_rules`` row written in the creating transaction (a table's row carries the table's id,
which becomes its game's). A decision's time runs from the game's last stored action (``games.updated_at``),
so the deadline survives restarts and needs nothing on the path of an action.

Every ``CHECK_SECONDS`` each server process looks for human decisions past their deadline and then
* ``ai``: the AI (``medium``, else the game's first level) takes that one move for the seat, through the
  same guarded path as every action (``Hub.submit`` at the expired sequence number);
* ``forfeit``: the seat loses — the game ends (``core.forfeit``: its team last, the best of the others win),
  stored with a guard on the sequence number and the status.
Either happens once, whichever process (or how many checks at once) sees it: a second attempt finds the
game moved on (409 stale / the guard). ``GET /api/games/{id}/turn``: the rule and the current deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from fastapi import APIRouter, FastAPI
from sqlalchemy import Text, cast, insert, select, update

from ..agents import agent_names
from . import fastjson
from .ai import decision_seed
from .chat_db import turn_rules_t
from .hub import ApiError, Hub, Session
from .store import _NOTIFY as NOTIFY
from .store import Refused, StorageError, games_t, now, parse_time, stored_options

log = logging.getLogger("grimoire.web.turns")

DEADLINES = {"none": 0, "1d": 86_400, "3d": 3 * 86_400}
ON_EXPIRE = ("ai", "forfeit")
SHORTEST = min(v for v in DEADLINES.values() if v)
CHECK_SECONDS = float(os.environ.get("GRIMOIRE_TURN_CHECK", "30"))

Rule = tuple[int, str]          # (seconds per decision, what happens when they run out)


def parse_rule(raw: Any) -> Rule | None:
    """The ``turn`` of a creation's body; None for real time. 400 ``bad_turn`` for anything else."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) - {"deadline", "on_expire"}:
        raise ApiError(400, "bad_turn", "'turn' is {\"deadline\": \"none\" | \"1d\" | \"3d\", "
                       "\"on_expire\": \"ai\" | \"forfeit\"}")
    deadline = raw.get("deadline", "none")
    on_expire = raw.get("on_expire", "ai")
    if deadline not in DEADLINES or on_expire not in ON_EXPIRE:
        raise ApiError(400, "bad_turn", "'turn.deadline' is none, 1d or 3d; 'turn.on_expire' is ai or forfeit")
    return (DEADLINES[deadline], on_expire) if DEADLINES[deadline] else None


def rule_row(gid: str, rule: Rule) -> dict:
    return {"game_id": gid, "seconds": rule[0], "on_expire": rule[1], "created_at": now()}


def store_rule(conn, gid: str, rule: Rule) -> None:
    """Inside a creating transaction (a game's guard, a table's job)."""
    conn.execute(insert(turn_rules_t).values(**rule_row(gid, rule)))


def _as_time(value: Any) -> datetime:
    return parse_time(value) if isinstance(value, str) else parse_time(str(value))


class Turns:
    def __init__(self, hub: Callable[[], Hub], clock: Callable[[], datetime] = now):
        self.hub = hub
        self.clock = clock              # the tests move it forward
        self.task: asyncio.Task | None = None
        self.expired = 0                # decisions this process settled at their deadline

    def install_hooks(self, hub: Hub) -> None:
        hub.notify_hooks["f"] = self._remote_forfeit

    # --- the periodic check ----------------------------------------------------------------------------
    def start(self) -> None:
        self.task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    async def _loop(self) -> None:
        while True:
            try:
                await self.check()
            except Exception as e:  # noqa: BLE001 - the next round tries again
                log.error("the move deadlines could not be checked: %s", e)
            await asyncio.sleep(CHECK_SECONDS)

    async def _read(self, fn: Callable) -> Any:
        return await self.hub().store.read(fn, "the move deadlines")

    async def check(self, only: list[str] | None = None) -> int:
        """Settle every human decision past its deadline (``only``: of these games); how many were settled
        here."""
        t = self.clock()

        def q(conn):
            query = (select(games_t.c.id, games_t.c.seq, cast(games_t.c.updated_at, Text).label("at"),
                            turn_rules_t.c.seconds, turn_rules_t.c.on_expire)
                     .join(turn_rules_t, turn_rules_t.c.game_id == games_t.c.id)
                     .where(games_t.c.status == "active", games_t.c.ai_turn.is_(False),
                            games_t.c.updated_at < t - timedelta(seconds=SHORTEST)))
            if only is not None:
                query = query.where(games_t.c.id.in_(only))
            return conn.execute(query).all()
        done = 0
        for gid, seq, at, seconds, on_expire in await self._read(q):
            try:
                if _as_time(at) + timedelta(seconds=seconds) > t:
                    continue
                if await self.expire(gid, seq, on_expire):
                    done += 1
            except ApiError as e:
                log.error("game %s: its expired decision could not be settled: %s", gid, e.message)
            except ValueError as e:
                log.error("game %s: its time cannot be read: %s", gid, e)
        self.expired += done
        return done

    async def expire(self, gid: str, seq: int, on_expire: str) -> bool:
        """The decision at ``seq`` ran out of time: the AI plays it or its seat forfeits. False if the game
        moved on meanwhile (someone else settled it, or the player was just in time)."""
        hub = self.hub()
        s = await hub.get(gid)
        if s.seq != seq or s.status == "over":
            return False
        seat = s.state.current_player
        if seat is None or not s.seats[seat].human:
            return False
        if on_expire == "forfeit":
            return await self.forfeit(s, seat, seq)
        levels = agent_names(s.game)
        level = "medium" if "medium" in levels else levels[0]
        text = await hub.ai.choose(s.state, level, seat, decision_seed(s.seed, seat, seq), key=s.id)
        try:
            await hub.submit(s, seat, seq, text, internal=True, takeover=True)
        except ApiError as e:
            if e.code in ("stale", "game_over", "not_your_turn"):
                return False
            raise
        log.info("game %s: seat %d ran out of time at %d; the AI played %r", gid, seat, seq, text)
        return True

    async def forfeit(self, s: Session, seat: int, seq: int) -> bool:
        hub = self.hub()
        cluster = hub.cluster
        async with s.lock:
            if s.seq != seq or s.status == "over" or s.retired:
                return False

            def job(conn):
                options = stored_options(conn, s.id)
                options["forfeit"] = seat
                # guarded: only the game still at this decision ends, once
                if conn.execute(update(games_t).where(games_t.c.id == s.id, games_t.c.seq == seq,
                                                      games_t.c.status == "active")
                                .values(status="over", ai_turn=False, options=options, updated_at=now())
                                ).rowcount != 1:
                    raise Refused("stale", "the game moved on", status=409)
                if cluster is not None:
                    conn.execute(NOTIFY, {"payload": fastjson.dumps(["f", cluster.id, s.id, seat])})
            try:
                await asyncio.wrap_future(hub.store.writer.submit(job))
            except Refused:
                return False
            except StorageError as e:
                log.error("game %s: the forfeit of seat %d could not be stored: %s", s.id, seat, e)
                return False
            s.forfeit = seat
            views: dict[int | None, str] = {}
            for c in list(s.conns):
                if not c.closed:
                    if c.seat not in views:
                        views[c.seat] = hub.view_json(s, c.seat, "welcome")
                    c.push(views[c.seat])
        log.info("game %s: seat %d ran out of time at %d and loses", s.id, seat, seq)
        for callback in hub.on_over:
            callback(s)
        return True

    def _remote_forfeit(self, ev: list) -> None:
        """Another process ended a game we hold: our copy reloads (its connections reconnect)."""
        hub = self.hub()
        s = hub.sessions.get(ev[2]) if len(ev) > 2 else None
        if s is not None and s.forfeit is None:
            hub._retire(s)

    # --- what the page shows ---------------------------------------------------------------------------
    async def info(self, gid: str) -> dict:
        s = await self.hub().get(gid)

        def q(conn):
            return conn.execute(select(turn_rules_t.c.seconds, turn_rules_t.c.on_expire,
                                       cast(games_t.c.updated_at, Text))
                                .join(games_t, games_t.c.id == turn_rules_t.c.game_id)
                                .where(turn_rules_t.c.game_id == s.id)).first()
        row = await self._read(q)
        out: dict[str, Any] = {"game_id": s.id, "seconds": 0, "on_expire": None, "due_at": None,
                               "seat": s.state.current_player, "forfeit": s.forfeit}
        if row is not None:
            out.update(seconds=row[0], on_expire=row[1])
            if s.status == "active" and s.state.current_player is not None and not s.ai_decides():
                out["due_at"] = (_as_time(row[2]) + timedelta(seconds=row[0])).isoformat()
        return out


def install(app: FastAPI, hub: Callable[[], Hub]) -> Turns:
    turns = Turns(hub)
    router = APIRouter()

    @router.get("/api/games/{gid}/turn")
    async def turn_info(gid: str):
        return await turns.info(gid)

    app.include_router(router)
    return turns


def checked_rule(spec: Any) -> Rule | None:
    """The turn rule of a creation's body (checked before anything is built)."""
    if not isinstance(spec, dict):
        return None
    try:
        return parse_rule(spec.get("turn"))
    except ApiError:
        raise
    except (TypeError, ValueError):
        raise ApiError(400, "bad_turn", "'turn' is not valid") from None
