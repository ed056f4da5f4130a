"""AI seats on the server: the agent's move is computed away from the event loop.

Cheap agents (``random``) run inline; every other level runs in a process pool (spawned workers get
the state as ``to_dict()`` JSON and rebuild it with ``load_game``), so a slow search agent never
blocks other games or the WebSocket traffic. Agents are built with ``make_agent(game, name, seed)``
for every decision; its seed is ``derive_seed(game_seed, "decision", seat, seq)`` (the one seed
scheme of ``grimoire.core.episode``), so a restarted server makes the same choices.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from ..agents import make_agent
from ..core.episode import derive_seed
from ..core.registry import load_game
from ..core.state import GameState

log = logging.getLogger("grimoire.web.ai")

INLINE_AGENTS = frozenset({"random"})


def decision_seed(game_seed: int, seat: int, seq: int) -> int:
    """The seed of the AI decision of ``seat`` at sequence number ``seq``."""
    return derive_seed(game_seed, "decision", seat, seq)


def _choose_in_worker(state_dict: dict, name: str, seed: int, seat: int) -> str:
    state = load_game(state_dict)
    agent = make_agent(state.game, name, seed)
    return str(agent.choose(state, seat))


class AIRunner:
    def __init__(self, workers: int | None = None):
        self.workers = workers or max(1, (os.cpu_count() or 2) - 1)
        self._pool: ProcessPoolExecutor | None = None

    def _get_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers,
                                             mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def choose(self, state: GameState, name: str, seat: int, seed: int) -> str:
        if name in INLINE_AGENTS:
            agent = make_agent(state.game, name, seed)
            return str(agent.choose(state.clone(), seat))
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._get_pool(), _choose_in_worker, state.to_dict(), name, seed, seat)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
