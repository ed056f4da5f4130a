"""Diagnostics of stalls (``GRIMOIRE_DIAG=1 grimoire serve``): every 10 s one log line with the event
loop's lag, the garbage collector's pauses and the writer's batches, to find what makes the slow
tail of the action latency (``grimoire loadtest`` reports the latency itself)."""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger("grimoire.web.diag")


def _pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(len(s) * p / 100))]


class Diagnostics:
    def __init__(self, writer=None, every: float = 10.0):
        self.writer = writer
        self.every = every
        self.lag: list[float] = []
        self.gc_pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._gc_start = 0.0
        self._task: asyncio.Task | None = None

    def _on_gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
        else:
            self.gc_pauses[info["generation"]].append(time.perf_counter() - self._gc_start)

    def start(self) -> None:
        gc.callbacks.append(self._on_gc)
        self._task = asyncio.create_task(self._run())

    def stop(self) -> None:
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        last = time.monotonic()
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lag.append(time.perf_counter() - t - 0.01)
            if time.monotonic() - last >= self.every:
                last = time.monotonic()
                self.report()

    def report(self) -> None:
        ms = 1000
        gcs = " ".join(f"gen{g} n={len(v)} max={max(v, default=0) * ms:.1f}ms sum={sum(v) * ms:.0f}ms"
                       for g, v in self.gc_pauses.items())
        batches = ""
        w = self.writer
        if w is not None and w.stats:
            sizes = [n for n, _ in w.stats]
            secs = [s for _, s in w.stats]
            batches = (f"; writer: {len(sizes)} commits, jobs/commit mean {sum(sizes) / len(sizes):.1f} max "
                       f"{max(sizes)}, commit p50 {_pct(secs, 50) * ms:.1f} p99 {_pct(secs, 99) * ms:.1f} max "
                       f"{max(secs) * ms:.1f} ms")
            w.stats.clear()
        log.warning("diag: loop lag p50 %.1f p99 %.1f max %.1f ms; %s%s", _pct(self.lag, 50) * ms,
                    _pct(self.lag, 99) * ms, max(self.lag, default=0) * ms, gcs, batches)
        self.lag.clear()
        for v in self.gc_pauses.values():
            v.clear()
