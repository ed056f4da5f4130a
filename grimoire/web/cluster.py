"""Many server processes, one truth: the coordination of ``grimoire serve`` processes (on one machine or
many) that share one PostgreSQL database. SQLite serves one process and needs none of this.

Everything goes through the database the server already uses — no other broker:

* **Actions** are accepted by whichever process gets them, exactly once: the guarded ``UPDATE`` of the
  game row (store.py). The same transaction sends ``NOTIFY grimoire`` with the action (one line per
  action, several per notification); every process ``LISTEN``\\ s, and a process that holds the game
  applies it to its copy and sends its own connections their views, so every client sees every update
  whichever process it is connected to. A missed notification (a lost listening connection) is made up
  by reading the actions after the copy's own (``Hub.refresh``).
* **AI seats**: the transaction that hands the decision to an AI seat writes a row in ``ai_jobs``
  (game, sequence number, due time). A process takes due rows with ``SELECT … FOR UPDATE SKIP LOCKED``
  and a lease (``lease_until``), renewed while it computes; the move is stored through the same guarded
  path, which removes the row. If the process dies, the lease runs out and another takes the row: every
  AI move is computed by one process at a time and stored once. The process that stored the action
  takes the row at once (it has the game in memory); the others poll for rows that are overdue.
* **Limits** hold across processes because they are counted in the database: the creations per client
  (a token bucket row in ``buckets``), the running games without a human per client and in all (counted
  in the creating transaction, under an advisory lock per client), the WebSockets per client and per
  game (a row per socket in ``sockets``, written by the transaction that admits it).
* **Processes** write a heartbeat (``processes``); the rows of a process whose heartbeat stopped (a
  SIGKILL, a lost host) are removed by the others, with its sockets; who is online in a game is sent
  around as ``NOTIFY`` lines too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections import defaultdict
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from sqlalchemy import text as sql_text

from . import fastjson
from .store import NOTIFY_CHANNEL, Refused, StorageError, now

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("grimoire.web.cluster")

BEAT_SECONDS = 5.0                 # how often a process writes its heartbeat
DEAD_SECONDS = 30.0                # a process silent this long is gone: its sockets are removed
POLL_SECONDS = 1.0                 # how often a process looks for overdue AI moves (or expired leases)
OVERDUE_SECONDS = 2.0              # an AI move another process should have taken by now
PARK_SECONDS = 600                 # a game that cannot be loaded: its AI move is tried again this much later

_CLAIM = sql_text("""
UPDATE ai_jobs SET owner = :me, lease_until = now() + make_interval(secs => :lease)
WHERE game_id IN (
    SELECT game_id FROM ai_jobs
    WHERE due_at <= now() - make_interval(secs => :grace) AND (lease_until IS NULL OR lease_until < now())
    ORDER BY due_at LIMIT :n FOR UPDATE SKIP LOCKED)
RETURNING game_id, seq, seat""")
_RENEW = sql_text("UPDATE ai_jobs SET lease_until = now() + make_interval(secs => :lease) "
                  "WHERE game_id = :g AND seq = :seq AND owner = :me")
_RELEASE = sql_text("UPDATE ai_jobs SET owner = NULL, lease_until = NULL WHERE game_id = :g AND owner = :me")
_PARK = sql_text("UPDATE ai_jobs SET owner = NULL, lease_until = NULL, due_at = now() + make_interval(secs => :later) "
                 "WHERE game_id = :g")
_DROP_STALE = sql_text("DELETE FROM ai_jobs WHERE game_id = :g AND seq < :seq")
# a token bucket per key: refill at :rate per second up to :burst, take one if there is one
_TAKE = sql_text("""
INSERT INTO buckets AS b (key, tokens, stamp) VALUES (:k, :burst - 1, now())
ON CONFLICT (key) DO UPDATE SET
    tokens = LEAST(:burst, b.tokens + EXTRACT(EPOCH FROM now() - b.stamp) * :rate) - 1, stamp = now()
WHERE LEAST(:burst, b.tokens + EXTRACT(EPOCH FROM now() - b.stamp) * :rate) >= 1
RETURNING tokens""")
_BUCKET = sql_text("SELECT LEAST(:burst, tokens + EXTRACT(EPOCH FROM now() - stamp) * :rate) FROM buckets "
                   "WHERE key = :k")
_AI_ONLY = sql_text("SELECT COUNT(*) AS total, COUNT(*) FILTER (WHERE creator = :c) AS mine FROM games "
                    "WHERE ai_only AND status = 'active'")
_LOCK_CREATOR = sql_text("SELECT pg_advisory_xact_lock(hashtext(:c))")
_ADMIT = sql_text("""
INSERT INTO sockets (id, process, game_id, client, seat)
SELECT CAST(:id AS VARCHAR), CAST(:proc AS VARCHAR), CAST(:g AS VARCHAR), CAST(:c AS VARCHAR), CAST(:seat AS INTEGER)
WHERE (SELECT COUNT(*) FROM sockets WHERE client = CAST(:c AS VARCHAR)) < :per_client
  AND (SELECT COUNT(*) FROM sockets WHERE game_id = CAST(:g AS VARCHAR)) < :per_game""")
_COUNTS = sql_text("SELECT (SELECT COUNT(*) FROM sockets WHERE client = :c) AS mine, "
                   "(SELECT COUNT(*) FROM sockets WHERE game_id = :g) AS game")
_LEAVE = sql_text("DELETE FROM sockets WHERE id = :id")
_ONLINE_ELSEWHERE = sql_text("SELECT process, seat FROM sockets WHERE game_id = :g AND process <> :me "
                             "AND seat IS NOT NULL")
_BEAT = sql_text("""
INSERT INTO processes (id, host, pid, started_at, beat_at) VALUES (:me, :host, :pid, now(), now())
ON CONFLICT (id) DO UPDATE SET beat_at = now()""")
_DEAD = sql_text("SELECT id FROM processes WHERE beat_at < now() - make_interval(secs => :dead) AND id <> :me")
_GONE_SOCKETS = sql_text("DELETE FROM sockets WHERE process = :p RETURNING game_id")
_GONE = sql_text("DELETE FROM processes WHERE id = :p")
_BYE = sql_text("DELETE FROM sockets WHERE process = :me")
_BYE_PROCESS = sql_text("DELETE FROM processes WHERE id = :me")
_BYE_JOBS = sql_text("UPDATE ai_jobs SET owner = NULL, lease_until = NULL WHERE owner = :me")


class Cluster:
    """This process's part in a cluster of server processes on one PostgreSQL database."""

    def __init__(self, hub: Hub, lease: float | None = None):
        self.hub = hub
        self.store = hub.store
        self.id = f"{socket.gethostname()[:20]}-{os.getpid()}-{secrets.token_hex(3)}"
        self.lease = lease if lease is not None else float(os.environ.get("GRIMOIRE_AI_LEASE", "10"))
        self._tasks: list[asyncio.Task] = []
        self._wake = asyncio.Event()
        self._timers: set[asyncio.TimerHandle] = set()
        self._jobs: set[asyncio.Task] = set()
        self.listening = False
        self.notifications = 0
        self.ai_moves = 0                          # AI moves this process stored
        self.ai_computed = 0                       # ... and computed (the same unless storing failed)

    # --- the writer, from the event loop -------------------------------------------------------------
    async def _write(self, fn, event: str | None = None) -> Any:
        fut: Future = self.store.writer.submit(fn, None, event)
        return await asyncio.wrap_future(fut)

    async def _read(self, fn) -> Any:
        def run():
            with self.store.engine.connect() as conn:
                return fn(conn)
        return await asyncio.get_running_loop().run_in_executor(self.store.readers, run)

    # --- life cycle ----------------------------------------------------------------------------------
    async def start(self) -> None:
        await self._write(lambda conn: conn.execute(_BEAT, {"me": self.id, "host": socket.gethostname()[:255],
                                                            "pid": os.getpid()}))
        ready = asyncio.get_running_loop().create_future()
        self._tasks = [asyncio.create_task(self._listen(ready)), asyncio.create_task(self._beat()),
                       asyncio.create_task(self._ai_scheduler())]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ready, 10)
        log.info("server process %s joined the cluster (AI lease %.0f s)", self.id, self.lease)

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for h in self._timers:
            h.cancel()
        for t in list(self._jobs):
            t.cancel()
        for t in [*self._tasks, *self._jobs]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        # a graceful stop hands its AI moves back at once and says goodbye (a killed process's are taken
        # over when its lease and heartbeat run out)
        def bye(conn):
            conn.execute(_BYE_JOBS, {"me": self.id})
            conn.execute(_BYE, {"me": self.id})
            conn.execute(_BYE_PROCESS, {"me": self.id})
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._write(bye, fastjson.dumps(["x", self.id])), 5)

    # --- notifications -------------------------------------------------------------------------------
    def action_event(self, gid: str, seq: int, seat: int, text: str, round_: int | None) -> str:
        return fastjson.dumps(["a", self.id, gid, seq, seat, text, round_])

    def _presence_event(self, gid: str, seats: frozenset[int]) -> str:
        return fastjson.dumps(["p", self.id, gid, sorted(seats)])

    async def _listen(self, ready: asyncio.Future) -> None:
        import psycopg

        url = self.store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        backoff = 0.2
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self.listening = True
                    backoff = 0.2
                    if not ready.done():
                        ready.set_result(None)
                    if not first:            # notifications may have been missed meanwhile
                        await self._refresh_all()
                    first = False
                    while True:
                        async for n in conn.notifies(timeout=10):
                            self.notifications += 1
                            self._on_notify(n.payload)
                        await conn.execute("SELECT 1")        # a dead connection shows here
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - the database went away: listen again when it is back
                self.listening = False
                log.warning("the cluster's notifications stopped (%s); listening again in %.1f s", e, backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5.0)

    async def _refresh_all(self) -> None:
        for s in list(self.hub.sessions.values()):
            with contextlib.suppress(Exception):
                await self.hub.refresh(s)
        self.wake(0)

    def _on_notify(self, payload: str) -> None:
        actions: dict[str, list] = defaultdict(list)
        for line in payload.split("\n"):
            try:
                ev = fastjson.loads(line)
                kind, proc = ev[0], ev[1]
            except (ValueError, IndexError, TypeError):
                log.warning("a notification that is not ours: %.80r", line)
                continue
            if proc == self.id:
                continue
            if kind == "a":
                _k, _p, gid, seq, seat, text, rnd = ev
                actions[gid].append((seq, seat, text, rnd))
            elif kind == "p":
                self._remote_presence(ev[2], proc, frozenset(ev[3]))
            elif kind == "u":                  # an action was taken back (web/undo.py): reload that game
                actions.pop(ev[2], None)
                s = self.hub.sessions.get(ev[2])
                if s is not None:
                    self.hub._retire(s)
            elif kind in self.hub.notify_hooks:         # chat, a seat that lost on time (chat.py, turns.py)
                self.hub.notify_hooks[kind](ev)
            elif kind == "x":
                for s in list(self.hub.sessions.values()):
                    if s.remote_online.pop(proc, None):
                        self.hub.presence(s)
        for gid, acts in actions.items():
            if gid in self.hub.sessions:
                asyncio.create_task(self.hub.remote_actions(gid, acts))

    def _remote_presence(self, gid: str, proc: str, seats: frozenset[int]) -> None:
        s = self.hub.sessions.get(gid)
        if s is None:
            return
        before = s.remote_online.get(proc, frozenset())
        if seats:
            s.remote_online[proc] = seats
        else:
            s.remote_online.pop(proc, None)
        if seats != before:
            self.hub.presence(s)

    # --- heartbeat and the departed ------------------------------------------------------------------
    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(BEAT_SECONDS)
            try:
                await self._write(lambda conn: conn.execute(_BEAT, {"me": self.id, "host": socket.gethostname()[:255],
                                                                    "pid": os.getpid()}))
                await self._sweep()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - the database is away; the next beat tries again
                log.warning("heartbeat failed: %s", e)

    async def _sweep(self) -> None:
        """Remove the processes whose heartbeat stopped, with their sockets (and their presence)."""
        def job(conn):
            out = []
            for (p,) in conn.execute(_DEAD, {"dead": DEAD_SECONDS, "me": self.id}).all():
                conn.execute(_GONE_SOCKETS, {"p": p})
                conn.execute(_GONE, {"p": p})
                out.append(p)
            if out:
                for p in out:
                    conn.execute(sql_text("SELECT pg_notify(:ch, :payload)"),
                                 {"ch": NOTIFY_CHANNEL, "payload": fastjson.dumps(["x", p])})
            return out
        gone = await self._write(job)
        for p in gone:
            log.warning("server process %s stopped answering; its WebSockets were removed", p)
            for s in list(self.hub.sessions.values()):
                if s.remote_online.pop(p, None):
                    self.hub.presence(s)

    # --- limits ---------------------------------------------------------------------------------------
    async def check_creation(self, creator: str, ai_only: bool) -> None:
        """The creation limits before the game is built (counted in the database): the client's rate and
        the caps on games without a human seat (checked again when it is stored: ``creation_guard``)."""
        from .hub import ApiError, _ai_only_refusal
        lim = self.hub.limits
        if ai_only and (lim.max_ai_only_games is not None or lim.max_ai_only_games_per_client is not None):
            row = await self._read(lambda conn: conn.execute(_AI_ONLY, {"c": creator}).one())
            _ai_only_refusal(lim, row.total, row.mine)
        per_hour = lim.games_per_client_hour
        if per_hour is None:
            return
        rate, burst = per_hour / 3600, lim.creation_burst

        def take(conn):
            got = conn.execute(_TAKE, {"k": f"create:{creator}", "rate": rate, "burst": burst}).first()
            if got is not None:
                return None
            have = conn.execute(_BUCKET, {"k": f"create:{creator}", "rate": rate, "burst": burst}).scalar() or 0.0
            return max(1.0, (1 - float(have)) / rate)
        try:
            wait = await self._write(take)
        except StorageError:
            from .hub import storage_error
            raise storage_error() from None
        if wait is not None:
            w = int(wait) + 1
            raise ApiError(429, "too_many_games", f"this address has created too many games (at most {per_hour} an "
                           f"hour); try again in {w} s", headers={"Retry-After": str(w)}, retry_after=w)

    async def take_token(self, key: str, rate: float, burst: float) -> float | None:
        """One event of a shared token bucket: None if allowed, else the seconds until it would be."""
        def take(conn):
            if conn.execute(_TAKE, {"k": key, "rate": rate, "burst": burst}).first() is not None:
                return None
            have = conn.execute(_BUCKET, {"k": key, "rate": rate, "burst": burst}).scalar() or 0.0
            return max(1.0, (1 - float(have)) / rate)
        return await self._write(take)

    def creation_guard(self, creator: str):
        """The caps on games without a human seat, checked in the creating transaction (exact across
        processes: creations of one client are serialized by an advisory lock)."""
        from .hub import ApiError
        lim = self.hub.limits

        def guard(conn):
            conn.execute(_LOCK_CREATOR, {"c": creator})
            row = conn.execute(_AI_ONLY, {"c": creator}).one()
            try:
                from .hub import _ai_only_refusal
                _ai_only_refusal(lim, row.total, row.mine)
            except ApiError as e:
                raise Refused(e.code, e.message, 30) from None
        return guard

    async def admit_socket(self, sid: str, gid: str, client: str, seat: int | None) -> str | None:
        """Count a new WebSocket against the per-client and per-game caps of every process: None if it is
        admitted (its row is written), else the refused limit ("client" or "game")."""
        lim = self.hub.limits
        per_client = lim.max_connections_per_client if lim.max_connections_per_client is not None else 1 << 30

        def job(conn):
            res = conn.execute(_ADMIT, {"id": sid, "proc": self.id, "g": gid, "c": client, "seat": seat,
                                        "per_client": per_client, "per_game": lim.max_connections_per_game})
            if res.rowcount == 1:
                return None
            row = conn.execute(_COUNTS, {"c": client, "g": gid}).one()
            return "client" if row.mine >= per_client else "game"
        return await self._write(job)

    async def leave_socket(self, sid: str) -> None:
        with contextlib.suppress(Exception):
            await self._write(lambda conn: conn.execute(_LEAVE, {"id": sid}))

    def announce(self, gid: str, seats: frozenset[int]) -> None:
        """Tell the other processes which seats of ``gid`` are online here (no wait for it)."""
        ev = self._presence_event(gid, seats)
        self.store.writer.submit(lambda conn: None, None, ev)

    async def online_elsewhere(self, gid: str) -> dict[str, frozenset[int]]:
        """Who is online in ``gid`` on the other processes (read when a game is loaded)."""
        rows = await self._read(lambda conn: conn.execute(_ONLINE_ELSEWHERE, {"g": gid, "me": self.id}).all())
        out: dict[str, set[int]] = defaultdict(set)
        for proc, seat in rows:
            out[proc].add(seat)
        return {p: frozenset(v) for p, v in out.items()}

    # --- AI seats -------------------------------------------------------------------------------------
    def wake(self, delay: float) -> None:
        """Look for AI moves now that are due after ``delay`` seconds (a move this process just made due)."""
        loop = asyncio.get_running_loop()
        if delay <= 0:
            self._wake.set()
            return
        handle = loop.call_later(delay + 0.005, self._wake_now)
        self._timers.add(handle)

    def _wake_now(self) -> None:
        self._timers = {h for h in self._timers if not h.cancelled() and h.when() > time.monotonic()}
        self._wake.set()

    async def _ai_scheduler(self) -> None:
        last_poll = 0.0
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL_SECONDS)
            woken = self._wake.is_set()
            self._wake.clear()
            if self.hub.stopping:
                return
            # woken: moves this process made due (take them as soon as they are); polling: overdue ones
            grace = 0.0 if woken else OVERDUE_SECONDS
            if not woken and time.monotonic() - last_poll < POLL_SECONDS * 0.9:
                continue
            last_poll = time.monotonic()
            room = max(0, 4 * self.hub.ai.workers + 8 - len(self._jobs))
            if room == 0:
                continue
            try:
                args = {"me": self.id, "lease": self.lease, "grace": grace, "n": room}
                rows = await self._write(lambda conn, args=args: conn.execute(_CLAIM, args).all())
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - the database is away: the next round tries again
                log.warning("AI moves could not be taken: %s", e)
                continue
            for gid, seq, seat in rows:
                t = asyncio.create_task(self._run_job(gid, seq, seat))
                self._jobs.add(t)
                t.add_done_callback(self._jobs.discard)

    async def _run_job(self, gid: str, seq: int, seat: int) -> None:
        from .hub import ApiError
        renew = asyncio.create_task(self._renew(gid, seq))
        try:
            try:
                s = await self.hub.get(gid)
            except ApiError as e:
                # a damaged game: its move waits (an operator may repair the rows) instead of being retried
                # every second by every process
                log.error("game %s: its AI move is not computed (tried again in %d s): %s", gid, PARK_SECONDS,
                          e.message)
                await self._write(lambda conn: conn.execute(_PARK, {"g": gid, "later": PARK_SECONDS}))
                return
            if s.seq < seq:
                await self.hub.refresh(s)
            if s.seq != seq or s.state.current_player != seat or not s.ai_decides():
                if s.seq > seq:          # the row is from before: drop it (its successor has its own)
                    await self._write(lambda conn: conn.execute(_DROP_STALE, {"g": gid, "seq": s.seq}))
                return
            text = await self.hub.ai_move(s, seat, seq)
            self.ai_computed += 1
            backoff = 0.1
            while True:
                try:
                    await self.hub.submit(s, seat, seq, text, internal=True)
                    self.ai_moves += 1
                    return
                except ApiError as e:
                    if e.status == 503 and not self.hub.stopping:
                        self.hub.ai_retries += 1
                        log.warning("game %s: the AI move of seat %d at %d could not be stored; retrying in %.1f s",
                                    gid, seat, seq, backoff)
                        await asyncio.sleep(backoff)
                        backoff = min(backoff * 2, 10.0)
                        continue
                    if e.code in ("stale", "game_over"):
                        return
                    log.error("agent %s proposed %r in game %s: %s", s.seats[seat].agent, text, gid, e.message)
                    legal = s.state.legal_actions()
                    if not legal:
                        return
                    text = str(legal[0])
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - hand the move back: another process (or this one) takes it again
            log.exception("game %s: the AI move at %d failed", gid, seq)
            with contextlib.suppress(Exception):
                await self._write(lambda conn: conn.execute(_RELEASE, {"g": gid, "me": self.id}))
        finally:
            renew.cancel()

    async def _renew(self, gid: str, seq: int) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            with contextlib.suppress(Exception):
                await self._write(lambda conn: conn.execute(_RENEW, {"g": gid, "seq": seq, "lease": self.lease,
                                                                     "me": self.id}))

    def describe(self) -> dict[str, Any]:
        return {"process": self.id, "listening": self.listening, "notifications": self.notifications,
                "ai_moves": self.ai_moves, "ai_computed": self.ai_computed, "ai_jobs_running": len(self._jobs),
                "at": now().isoformat()}
