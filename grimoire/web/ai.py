"""AI seats on the server: the agent's move is computed away from the event loop.

Cheap agents (``random``) run inline; every other level runs in a process pool (spawned workers get
the state as ``to_dict()`` JSON and rebuild it with ``load_game``), so a slow search agent never
blocks other games or the WebSocket traffic. Agents are built with ``make_agent(game, name, seed)``
for every decision; its seed is ``derive_seed(game_seed, "decision", seat, seq)`` (the one seed
scheme of ``grimoire.core.episode``), so a restarted server makes the same choices.

Fair scheduling: the pool gets at most one job per worker; the others wait in the runner's own queue,
ordered by weighted fair queueing across games: a job's tag is its game's virtual start (the later of
the runner's virtual time and the end of that game's previous job) plus the expected cost of its level
(the running mean of that level's measured times). So a game asking for a medium move waits for at
most the moves already running, never behind every queued hard move of other games.

Process hygiene: every worker watches its parent and exits when the server process is gone (killed
with SIGKILL included), and ``close`` cancels the queued work and ends the workers.
"""

from __future__ import annotations

import asyncio
import functools
import heapq
import itertools
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

from ..agents import make_agent
from ..core.episode import derive_seed
from ..core.registry import load_game
from ..core.state import GameState

log = logging.getLogger("grimoire.web.ai")

INLINE_AGENTS = frozenset({"random"})
WATCH_PARENT_SECONDS = 0.5
DEFAULT_COST = 0.2          # seconds; the first guess of a level's cost until it has been measured


def decision_seed(game_seed: int, seat: int, seq: int) -> int:
    """The seed of the AI decision of ``seat`` at sequence number ``seq``."""
    return derive_seed(game_seed, "decision", seat, seq)


def _choose_in_worker(state_dict: dict, name: str, seed: int, seat: int) -> str:
    state = load_game(state_dict)
    agent = make_agent(state.game, name, seed)
    return str(agent.choose(state, seat))


def _watch_parent(parent: int) -> None:
    """Worker initializer: a daemon thread ends this process as soon as its parent is gone (it is then
    adopted by another process), so no worker outlives a killed server."""
    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(0)
            time.sleep(WATCH_PARENT_SECONDS)
    threading.Thread(target=watch, name="grimoire-watch-parent", daemon=True).start()


class AIRunner:
    def __init__(self, workers: int | None = None):
        self.workers = workers or max(1, (os.cpu_count() or 2) - 1)
        self._pool: ProcessPoolExecutor | None = None
        self._waiting: list = []               # heap of (tag, order, start, key, name, args, future)
        self._order = itertools.count()
        self._running = 0
        self._vtime = 0.0                      # virtual time: the start tag of the job dispatched last
        self._finish: dict[str, float] = {}    # game -> virtual finish of its latest job
        self._cost: dict[str, float] = {}      # level -> running mean of its measured seconds
        self.dispatched: list[tuple[str, str]] = []   # (key, level) in dispatch order (the newest 1000)
        self.closed = False

    def _get_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_watch_parent, initargs=(os.getpid(),))
        return self._pool

    def worker_pids(self) -> list[int]:
        procs = getattr(self._pool, "_processes", None) or {}
        return [p.pid for p in procs.values() if p.pid is not None]

    async def choose(self, state: GameState, name: str, seat: int, seed: int, key: str = "") -> str:
        if name in INLINE_AGENTS:
            agent = make_agent(state.game, name, seed)
            return str(agent.choose(state.clone(), seat))
        if self.closed:
            raise RuntimeError("the AI runner is closed")
        fut = asyncio.get_running_loop().create_future()
        cost = self._cost.get(name, DEFAULT_COST)
        start = max(self._vtime, self._finish.get(key, 0.0))
        self._finish[key] = start + cost
        heapq.heappush(self._waiting, (start + cost, next(self._order), start, key, name,
                                       (state.to_dict(), name, seed, seat), fut))
        self._dispatch()
        return await fut

    def _dispatch(self) -> None:
        while self._running < self.workers and self._waiting and not self.closed:
            _tag, _n, start, key, name, args, fut = heapq.heappop(self._waiting)
            if fut.done():                      # its game stopped waiting
                continue
            self._vtime = max(self._vtime, start)
            self._running += 1
            self.dispatched.append((key, name))
            del self.dispatched[:-1000]
            began = time.perf_counter()
            job = self._submit(args)
            job.add_done_callback(functools.partial(self._finished, fut=fut, name=name, began=began))
        if len(self._finish) > 4096:            # games that have fallen behind virtual time need no entry
            self._finish = {k: v for k, v in self._finish.items() if v > self._vtime}

    def _submit(self, args: tuple) -> asyncio.Future:
        loop = asyncio.get_running_loop()
        return asyncio.wrap_future(self._get_pool().submit(_choose_in_worker, *args), loop=loop)

    def _finished(self, job: asyncio.Future, fut: asyncio.Future, name: str, began: float) -> None:
        self._running -= 1
        took = time.perf_counter() - began
        self._cost[name] = 0.8 * self._cost.get(name, took) + 0.2 * took
        if not fut.done():
            if job.cancelled():
                fut.cancel()
            elif (exc := job.exception()) is not None:
                fut.set_exception(exc)
            else:
                fut.set_result(job.result())
        self._dispatch()

    def close(self) -> None:
        """Cancel the queued moves and end the workers (a move being computed is abandoned: it was not
        stored, and a restarted server computes it again with the same seed)."""
        self.closed = True
        for *_rest, fut in self._waiting:
            if not fut.done():
                fut.cancel()
        self._waiting.clear()
        pool, self._pool = self._pool, None
        if pool is None:
            return
        procs = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
                p.join(timeout=5)
