"""``simulate``: plan the batches, skip the finished ones, run the rest on a backend, store the rows."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from ..core.errors import GameConfigError
from .backends import BACKENDS, run_batches
from .config import MANIFEST, SimConfig, check_resume, read_manifest, resolve_engine, write_manifest
from .play import play_game
from .store import TIMING, PartWriter, finished_batches, parts, to_table

TARGET_BATCH_SECONDS = 5.0      # a batch is a few seconds of play: small enough to resume, big enough for Ray
MAX_BATCH = 5000
FLUSH_SECONDS = 30.0            # at most this much finished work is buffered (lost if the driver is killed)
FLUSH_ROWS = 50_000


@dataclass
class SimResult:
    config: SimConfig
    out: Path
    games_before: int           # finished by an earlier run into the same directory
    games_played: int           # by this run
    seconds: float              # wall time of this run (without starting the backend's timer)
    cpu_seconds: float          # the CPU time of the batches' play, summed over the workers

    @property
    def games_per_second(self) -> float:
        return self.games_played / self.seconds if self.seconds else 0.0


def auto_batch_size(cfg: SimConfig, target: float = TARGET_BATCH_SECONDS) -> int:
    """Games per batch for about ``target`` seconds of play, from one timed game (a whole number of
    rotation blocks when a batch holds more than one). CPU time, so that a busy machine does not
    shrink the batches."""
    t0 = time.process_time()
    play_game(cfg, 0)
    per_game = max(time.process_time() - t0, 1e-4)
    size = max(1, min(MAX_BATCH, round(target / per_game)))
    if size > cfg.players:
        size -= size % cfg.players
    return size


def prepare(cfg: SimConfig, out: Path) -> SimConfig:
    """The configuration to run into ``out``: the stored one when resuming (checked against ``cfg``),
    else ``cfg`` with its engine resolved and its batch size fixed, written as the manifest."""
    out.mkdir(parents=True, exist_ok=True)
    stored = read_manifest(out)
    if stored is not None:
        run = check_resume(stored, cfg)
        if run.games != stored["games"]:            # extended: the manifest records the new size
            write_manifest(out, run, {k: stored[k] for k in ("created", "provenance") if k in stored}
                           | {"extended": time.strftime("%Y-%m-%dT%H:%M:%S%z")})
        return run
    cfg = replace(cfg, engine=resolve_engine(cfg.game, cfg.engine, cfg.agents))
    if not cfg.batch_size:
        cfg = replace(cfg, batch_size=auto_batch_size(cfg))
    write_manifest(out, cfg)
    return cfg


def simulate(cfg: SimConfig, out: Path | str, backend: str = "local", workers: int | None = None,
             address: str | None = None, on_start: Callable[[SimConfig, int], None] | None = None,
             on_batch: Callable[[int], None] | None = None) -> SimResult:
    """Run (or resume) a simulation into ``out``. ``on_start(config, games already done)`` is called
    once the plan is known, ``on_batch(games)`` after each finished batch."""
    if backend not in BACKENDS:
        raise GameConfigError(f"unknown backend {backend!r}; choose from: {', '.join(BACKENDS)}",
                              key="term.err.backend",
                              params={"backend": repr(backend), "backends": ", ".join(BACKENDS)})
    out = Path(out)
    fresh_dir = not out.exists()
    fresh = fresh_dir or read_manifest(out) is None
    cfg = prepare(cfg, out)
    try:
        return _run(cfg, out, backend, workers, address, on_start, on_batch)
    except BaseException:
        if fresh and not parts(out):
            discard(out, fresh_dir)     # a start that failed leaves no half-made run behind
        raise


def discard(out: Path, remove_dir: bool) -> None:
    """Remove what a run that never finished a batch wrote (its manifest, and the directory it made)."""
    for name in (MANIFEST, MANIFEST + ".tmp", TIMING):
        (out / name).unlink(missing_ok=True)
    if remove_dir:
        try:
            out.rmdir()
        except OSError:
            pass                        # something else is in it: leave it


def _run(cfg: SimConfig, out: Path, backend: str, workers: int | None, address: str | None,
         on_start: Callable[[SimConfig, int], None] | None, on_batch: Callable[[int], None] | None) -> SimResult:
    done = finished_batches(out)
    todo = [b for b in range(cfg.batches) if b not in done]
    before = sum(len(cfg.batch_range(b)) for b in done if b < cfg.batches)
    if on_start:
        on_start(cfg, before)
    writer = PartWriter(out)
    played = 0
    cpu = 0.0
    t0 = last_flush = time.perf_counter()
    try:
        if todo:
            for res in run_batches(backend, cfg.to_dict(), todo, workers, address):
                timing = {k: res[k] for k in ("batch", "games", "seconds", "cpu_seconds", "pid", "host")}
                writer.add(to_table(res["columns"]), timing | {"backend": backend})
                played += res["games"]
                cpu += res["cpu_seconds"]
                if on_batch:
                    on_batch(res["games"])
                now = time.perf_counter()
                if now - last_flush >= FLUSH_SECONDS or writer.rows >= FLUSH_ROWS:
                    writer.flush()
                    last_flush = now
    finally:
        writer.flush()          # an interrupted run keeps every batch it finished
    return SimResult(cfg, out, before, played, time.perf_counter() - t0, cpu)
