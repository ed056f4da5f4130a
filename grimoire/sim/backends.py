"""Where batches run: ``local`` (this process, or a process pool on this machine) or ``ray`` (a
local Ray instance, or a cluster by its address). Both yield finished batches as they come, with a
bounded number in flight, and play them with the same function (``play.play_batch``).
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import socket
from collections.abc import Callable, Iterator
from typing import Any

from ..core.errors import GameConfigError
from . import watchdog
from .play import play_batch

BACKENDS = ("local", "ray")
IN_FLIGHT = 2               # Ray: batches queued per CPU, so that no worker waits for the driver
# a local Ray instance stays small: the rows come back through the object store only as small batches
RAY_LOCAL_OBJECT_STORE = 100 * 1024 * 1024
PROBE_SECONDS = 5.0         # a cluster's address must answer this fast (Ray alone retries for minutes)


def _quiet_worker() -> None:
    """Workers leave interruptions to the driver (Ctrl-C reaches the whole process group) and end
    silently when the driver terminates the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def run_local(cfg: dict[str, Any], batches: list[int], workers: int,
              fn: Callable[[dict[str, Any], int], dict[str, Any]] = play_batch) -> Iterator[dict[str, Any]]:
    """``fn(cfg, batch)`` for every batch (by default a batch of games of a simulation)."""
    if workers <= 1:
        for b in batches:
            yield fn(cfg, b)
        return
    # a multiprocessing pool rather than concurrent.futures: on an interruption terminate() ends the
    # batches in progress at once instead of waiting for them
    pool = multiprocessing.Pool(workers, initializer=_quiet_worker)
    try:
        yield from pool.imap_unordered(functools.partial(fn, cfg), batches, chunksize=1)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def ray_available() -> str | None:
    """None when Ray can be imported, else why not (one line)."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return "Ray is not installed: pip install -e '.[ray]'"
    return None


def probe_address(address: str, timeout: float = PROBE_SECONDS) -> None:
    """A ``host:port`` address (also ``ray://host:port``) must accept a connection within seconds:
    Ray itself keeps retrying for minutes. ``auto`` and other forms are left to Ray."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout).close()
    except OSError as e:
        why = f"no answer in {timeout:.0f} s" if isinstance(e, TimeoutError) else (e.strerror or type(e).__name__)
        raise GameConfigError(f"cannot connect to the Ray cluster at {address!r}: {why} (start one with "
                              "`ray start --head`, or leave out --address for a local instance)",
                              key="term.err.ray_connect", params={"address": repr(address), "reason": why}) from None


def start_ray(address: str | None, workers: int | None):
    """Connect to the cluster at ``address``, or start a small local instance with ``workers`` CPUs.
    Returns (ray module, started_here, number of CPUs to keep busy)."""
    why = ray_available()
    if why:
        raise GameConfigError(why)
    import ray
    if ray.is_initialized():
        return ray, False, workers or int(ray.cluster_resources().get("CPU", 1))
    if address:
        probe_address(address)
        try:
            ray.init(address=address, log_to_driver=False)
        except (ConnectionError, ValueError, RuntimeError) as e:    # no cluster there: one line, no traceback
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise GameConfigError(f"cannot connect to the Ray cluster at {address!r}: {first} "
                                  "(start one with `ray start --head`, or leave out --address for a local "
                                  "instance)", key="term.err.ray_connect",
                                  params={"address": repr(address), "reason": first}) from None
        cpus = int(ray.cluster_resources().get("CPU", 1))
        return ray, True, min(workers, cpus) if workers else cpus
    cpus = workers or os.cpu_count() or 1
    # Ray starts its workers at niceness 15: on a machine shared with other work they would starve
    os.environ.setdefault("RAY_worker_niceness", "0")
    # address "local": a new instance, never one that `ray start` left on this machine
    ctx = ray.init(address="local", num_cpus=cpus, include_dashboard=False,
                   object_store_memory=RAY_LOCAL_OBJECT_STORE, log_to_driver=False, configure_logging=False)
    # the instance's processes outlive a driver killed with SIGKILL: a watchdog ends them then
    # (ray.init is annotated as returning a BaseContext; a local instance's is a RayContext, with address_info)
    session = os.path.basename(str(ctx.address_info.get("session_dir") or ""))  # type: ignore[attr-defined]
    watchdog.start(os.getpid(), session)
    return ray, True, cpus


def run_ray(cfg: dict[str, Any], batches: list[int], workers: int | None, address: str | None,
            fn: Callable[[dict[str, Any], int], dict[str, Any]] = play_batch) -> Iterator[dict[str, Any]]:
    ray, started, cpus = start_ray(address, workers)
    try:
        remote = ray.remote(num_cpus=1, max_retries=3)(fn)
        cfg_ref = ray.put(cfg)
        todo = iter(batches)
        pending = []
        for b in todo:
            pending.append(remote.remote(cfg_ref, b))
            if len(pending) >= cpus * IN_FLIGHT:
                break
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
                nxt = next(todo, None)
                if nxt is not None:
                    pending.append(remote.remote(cfg_ref, nxt))
    finally:
        if started:
            ray.shutdown()


def run_batches(backend: str, cfg: dict[str, Any], batches: list[int], workers: int | None,
                address: str | None = None) -> Iterator[dict[str, Any]]:
    if backend == "local":
        return run_local(cfg, batches, workers or os.cpu_count() or 1)
    if backend == "ray":
        return run_ray(cfg, batches, workers, address)
    raise GameConfigError(f"unknown backend {backend!r}; choose from: {', '.join(BACKENDS)}",
                          key="term.err.backend", params={"backend": repr(backend), "backends": ", ".join(BACKENDS)})
