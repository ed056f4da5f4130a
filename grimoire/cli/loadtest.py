"""``grimoire loadtest``: N concurrent games played through the real WebSocket API by simulated
clients (one connection per seat, each playing a random legal action after a think time), with the
latency of every action and every error.

What is measured: for every action, the time from just before the client sends ``act`` until it
receives the matching ``ack`` — the server has checked it, committed it to the database and queued
every connection's new view by then. Every action of the run counts, including those played while
the other games are still being created and connected (``--ramp``); the report also splits the
figures into the start-up phase and the rest. Any ``error`` message, failed creation, dropped
connection or unfinished game is an error (exit code 1).

Without --url it starts its own ``grimoire serve`` on a free port with a temporary SQLite database
(or --db), so the server and the clients are separate processes, as in real use, and it reports the
server's CPU time per action. The clients run on one asyncio event loop; their own loop lag is
reported so that a slow client cannot pass for a slow server.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypedDict

import typer
from rich.console import Console
from rich.markup import escape

from ..core.episode import derive_seed
from ..core.errors import GameConfigError
from ..core.registry import game_info
from ..core.registry import games as game_names
from ..core.rng import Rng
from .common import check_player_count, require_game
from .i18n import Translator, translator
from .labels import game_title
from .loadtest_words import pct, print_summary
from .main import app


def default_game() -> str:
    """The first registered game that has a browser board (else the first game)."""
    names = game_names()
    return next((n for n in names if game_info(n).board is not None), names[0])


@dataclass
class Stats:
    samples: list[tuple[float, float]] = field(default_factory=list)   # (sent at, seconds from t0; latency)
    errors: list[tuple[str, dict]] = field(default_factory=list)       # (term.load.err.<key>, its values)
    lag: list[float] = field(default_factory=list)                     # client event-loop lag samples
    finished_games: int = 0
    created_games: int = 0
    connected_at: float | None = None                                  # when the last seat had its welcome

    @property
    def actions(self) -> int:
        return len(self.samples)

    def error(self, key: str, **params) -> None:
        self.errors.append((key, params))


@dataclass
class GameRun:
    gid: str
    limit: int
    count: int = 0
    sockets: list = field(default_factory=list)
    done: bool = False

    async def finish(self) -> None:
        if self.done:
            return
        self.done = True
        for ws in list(self.sockets):
            with contextlib.suppress(Exception):
                await ws.close()


class _SeatState(TypedDict):
    view: dict[str, Any] | None     # the last view (a peeked head keeps its text in "raw" until needed)
    scheduled: int                  # the seq of the view an action was scheduled for
    n: int                          # requests sent (their ids)


async def _seat_client(ws_url: str, g: GameRun, seat: int, token: str, think: float, stats: Stats,
                       rng: Rng, t0: float, joined: list[int], seats_total: int, patches: bool = True) -> None:
    import orjson
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    from ..web import delta

    pending: dict[str, float] = {}          # request id -> perf_counter() when sent
    state: _SeatState = {"view": None, "scheduled": -1, "n": 0}

    async def act(ws, seq: int, action: str) -> None:
        await asyncio.sleep(think * (0.5 + rng.random()))
        if g.done:
            return
        state["n"] += 1
        rid = f"{seat}-{state['n']}"
        pending[rid] = time.perf_counter()
        await ws.send(orjson.dumps({"type": "act", "id": rid, "seq": seq, "action": action}).decode())

    actor: asyncio.Task | None = None
    try:
        async with connect(ws_url, max_size=2**22, open_timeout=60, ping_interval=None) as ws:
            g.sockets.append(ws)
            if g.done:
                return
            await ws.send(orjson.dumps({"type": "join", "token": token, "patch": patches}).decode())
            m: dict[str, Any]                     # a message (a peeked view's head, or decoded whole)
            async for raw in ws:
                head = _peek(raw)
                if head is not None:              # a view: decoded whole only when this seat decides
                    m = head
                    if head["cp"] == seat and head["status"] != "over":
                        m = orjson.loads(raw)
                    else:
                        m["raw"] = raw            # (a patch from it decodes it first)
                else:
                    m = orjson.loads(raw)
                kind = m["type"]
                if kind == "ack":
                    sent = pending.pop(m.get("id", ""), None)     # ("": no request's id)
                    if sent is not None:
                        now = time.perf_counter()
                        stats.samples.append((sent - t0, now - sent))
                        g.count += 1
                        if g.count >= g.limit:
                            await g.finish()
                            return
                elif kind == "patch":               # the edits from the view we hold (as the browser)
                    view = state["view"]
                    if view is not None and "raw" in view:
                        view = orjson.loads(view["raw"])
                    if view is None or m["base"] != view["seq"]:
                        stats.error("patch_base", game=g.gid, seat=seat, base=m["base"], held=view and view["seq"])
                        await ws.send('{"type":"sync"}')
                        continue
                    state["view"] = {**view, "seq": m["seq"], "status": m["status"],
                                     "obs": delta.apply(view["obs"], m["obs"])}
                    if m["status"] == "over":
                        await g.finish()
                        return
                elif kind in ("welcome", "state"):
                    view = state["view"]
                    if view is None and kind == "welcome":
                        joined[0] += 1
                        if joined[0] == seats_total:
                            stats.connected_at = time.perf_counter() - t0
                    if view is not None and m["seq"] < view["seq"]:
                        continue
                    state["view"] = view = m
                    if view["status"] == "over":
                        await g.finish()
                        return
                elif kind == "error":
                    stats.error("server", game=g.gid, seat=seat, status=m.get("status"), code=m.get("code"),
                                message=m.get("message"))
                    pending.pop(m.get("id", ""), None)
                    state["scheduled"] = -1                  # the welcome that answers the sync decides again
                    await ws.send('{"type":"sync"}')
                    continue
                else:
                    continue                                  # presence, pong
                view = state["view"]
                if view is None or pending or (actor is not None and not actor.done()):
                    continue
                obs = view.get("obs")
                if obs is not None and obs.get("current_player") == seat and view["seq"] > state["scheduled"]:
                    legal = obs.get("legal_actions") or []
                    if legal:
                        state["scheduled"] = view["seq"]
                        actor = asyncio.create_task(act(ws, view["seq"], legal[rng.below(len(legal))]))
    except ConnectionClosed:
        if not g.done:
            stats.error("closed", game=g.gid, seat=seat)
    except Exception as e:  # noqa: BLE001 - every failure is counted and reported
        stats.error("exception", game=g.gid, seat=seat, error=f"{type(e).__name__}: {e}")
    finally:
        if actor is not None:
            actor.cancel()
    if pending and not g.done:
        stats.error("unacknowledged", game=g.gid, seat=seat, n=len(pending))
    await g.finish()


_HEAD_INT = re.compile(r'"(seq|current_player)":(null|-?[0-9]+)')


def _peek(raw: str | bytes) -> dict[str, Any] | None:
    """The few fields of a ``state`` or ``welcome`` that a client decides by (seq, status, the obs's
    current player), read from the text without decoding the whole view (the largest views are ~14 KB:
    the client's CPU about -10% in a load test of that game, most of the rest is websockets' receiving
    and inflating); None for other messages. The first
    ``"seq":`` and ``"status":`` are the head's (a string's own quotes are escaped), the first
    ``"current_player":`` after ``"obs":{`` the envelope's (it precedes the game's part)."""
    if not isinstance(raw, str) or not (raw.startswith('{"type":"state"') or raw.startswith('{"type":"welcome"')):
        return None
    seq = _HEAD_INT.search(raw)
    st = raw.find('"status":"')
    obs = raw.find(',"obs":{')
    cp = _HEAD_INT.search(raw, obs) if obs >= 0 else None
    if seq is None or seq[1] != "seq" or st < 0 or cp is None or cp[1] != "current_player":
        return None
    return {"type": raw[9:raw.index('"', 9)], "seq": int(seq[2]), "status": raw[st + 10:raw.index('"', st + 10)],
            "cp": None if cp[2] == "null" else int(cp[2])}


def _create_game_sync(base: str, body: bytes) -> tuple[int, bytes]:
    import urllib.error
    import urllib.request
    req = urllib.request.Request(base + "/api/games", data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


async def _play_game(creating: asyncio.Semaphore, base: str, game_name: str, players: int, ai_seats: int,
                     actions: int, think: float, stats: Stats, seed: int, t0: float, joined: list[int],
                     seats_total: int, patches: bool = True) -> None:
    """One game; the client of seat ``i`` draws its think times and actions from ``derive_seed(seed, i)``."""
    import orjson

    seats = [{"agent": "human"}] * (players - ai_seats) + [{"agent": "random"}] * ai_seats
    body = orjson.dumps({"game": game_name, "seats": seats})
    try:
        # plain urllib in a few threads: with hundreds of creations queued, httpx's async pool took half of
        # the clients' CPU at start-up (httpcore retries a failing `import sniffio` on every request)
        async with creating:
            status, text = await asyncio.to_thread(_create_game_sync, base, body)
    except Exception as e:  # noqa: BLE001
        stats.error("create", error=f"{type(e).__name__}: {e}")
        return
    if status != 201:
        stats.error("create", error=f"HTTP {status} {text[:200]!r}")
        return
    stats.created_games += 1
    game = orjson.loads(text)
    g = GameRun(game["id"], actions)
    ws_url = base.replace("http", "ws", 1) + f"/ws/games/{g.gid}"
    await asyncio.gather(*(_seat_client(ws_url, g, s["seat"], s["token"], think, stats,
                                        Rng(derive_seed(seed, s["seat"])), t0, joined, seats_total, patches)
                           for s in game["seats"] if s["token"]))
    if g.count >= g.limit or g.done:
        stats.finished_games += 1


async def _run(base: str, games: int, players: int, ai_seats: int, actions: int, think: float, seed: int,
               ramp: float, timeout: float, game: str | None = None, loads: list[float] | None = None,
               patches: bool = True, t: Translator | None = None) -> tuple[Stats, float]:
    """Play ``games`` games of ``game`` (default: the first with a browser board) against ``base``;
    game ``i``'s clients are seeded from ``derive_seed(seed, i)``."""
    import orjson  # noqa: F401 - imported before the clock starts, not by the first client
    import websockets.asyncio.client  # noqa: F401

    game = game or default_game()
    stats = Stats()
    t0 = time.perf_counter()
    joined = [0]
    seats_total = games * (players - ai_seats)
    creating = asyncio.Semaphore(6)

    async def start(i: int):
        await asyncio.sleep(ramp * i / max(1, games))
        await _play_game(creating, base, game, players, ai_seats, actions, think, stats, derive_seed(seed, i),
                         t0, joined, seats_total, patches)

    async def progress():
        while True:
            await asyncio.sleep(10)
            lat = sorted(x[1] for x in stats.samples[-2000:])
            p99 = pct(lat, 99) * 1000 if lat else float("nan")
            load = os.getloadavg()[0]
            if loads is not None:
                loads.append(load)
            if t is not None:
                print(t("term.load.tick", seconds=f"{time.perf_counter() - t0:5.0f}", actions=stats.actions,
                        done=stats.finished_games, p99=f"{p99:.0f}", errors=len(stats.errors), load=f"{load:.1f}"),
                      flush=True)

    async def lag_monitor():
        while True:
            a = time.perf_counter()
            await asyncio.sleep(0.05)
            stats.lag.append(time.perf_counter() - a - 0.05)

    ticker = asyncio.create_task(progress())
    monitor = asyncio.create_task(lag_monitor())
    # the clients hold thousands of connections too: their garbage collector must not stall the
    # measurement (a pause here would pass for server latency)
    from ..web.gctune import GcKeeper
    keeper = GcKeeper()
    keeper.start()
    try:
        await asyncio.wait_for(asyncio.gather(*(start(i) for i in range(games))), timeout=timeout)
    except TimeoutError:
        stats.error("timeout", seconds=f"{timeout:.0f}", n=games - stats.finished_games)
    wall = time.perf_counter() - t0
    ticker.cancel()
    monitor.cancel()
    keeper.stop()
    return stats, wall


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _server_pids(url: str, proc, workers: int) -> list[int]:
    """The server's processes on this machine: those that answer ``/api/health`` (each connection may reach
    another worker) and, for a server this command started, its children (uvicorn's workers)."""
    import httpx
    pids: set[int] = set()
    want = workers if proc is not None else 64
    deadline = time.monotonic() + (10 if proc is not None else 3)
    while time.monotonic() < deadline and len(pids) < want:
        try:
            pid = httpx.get(url.rstrip("/") + "/api/health", timeout=5).json().get("pid")
        except (httpx.HTTPError, ValueError):
            break
        if isinstance(pid, int) and os.path.exists(f"/proc/{pid}"):
            pids.add(pid)
    if proc is not None and workers == 1:
        pids.add(proc.pid)
    return sorted(pids)


def _postgres_cpu() -> float | None:
    """CPU seconds of every PostgreSQL process on this machine (Linux /proc); None if there are none."""
    total, found = 0.0, False
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm") as f:
                if not f.read().startswith("postgres"):
                    continue
        except OSError:
            continue
        got = _cpu_seconds(int(entry))
        if got is not None:
            total += got
            found = True
    return total if found else None


def _thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds of each thread of a process by thread name (Linux /proc; threads of one name summed):
    the event loop ("python") apart from the database writer and the readers."""
    out: dict[str, float] = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                name = f.read().strip()
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux /proc); None elsewhere."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


@app.command("loadtest")
def loadtest_command(
    games: int = typer.Option(200, "--games", "-n"),
    game: str = typer.Option(None, "--game"),
    players: int = typer.Option(None, "--players"),
    ai_seats: int = typer.Option(0, "--ai-seats"),
    actions: int = typer.Option(30, "--actions"),
    think: float = typer.Option(2.0, "--think"),
    ramp: float = typer.Option(5.0, "--ramp"),
    url: str = typer.Option(None, "--url"),
    db: str = typer.Option(None, "--db"),
    workers: int = typer.Option(1, "--workers", min=1),
    seed: int = typer.Option(1, "--seed"),
    ws_compression: bool = typer.Option(True, "--ws-compression/--no-ws-compression"),
    ws_patches: bool = typer.Option(False, "--ws-patches/--no-ws-patches"),
) -> None:
    """Benchmark: N concurrent games through the WebSocket API; action latency percentiles and errors."""
    import httpx

    t = translator()
    info = require_game(game or default_game(), t)
    players = players or info.default_players
    check_player_count(info, players, t)     # a clear line for a player count the game does not allow
    info.validate(players, {})
    if not 0 <= ai_seats < players:
        raise GameConfigError(t("term.err.ai_seats", max=players - 1, value=ai_seats))

    run_loop: Callable[[Coroutine[Any, Any, tuple[Stats, float]]], tuple[Stats, float]]
    try:
        from uvloop import run as run_loop
    except ImportError:  # pragma: no cover - Windows
        run_loop = asyncio.run

    proc = None
    tmp = None
    if url is None:
        tmp = tempfile.TemporaryDirectory(prefix="grimoire-load-")
        port = _free_port()
        db = db or f"sqlite:///{tmp.name}/load.db"
        proc = subprocess.Popen([sys.executable, "-m", "grimoire.cli.main", "--lang", t.lang,
                                 "serve", "--port", str(port), "--db", db,
                                 "--ai-delay", "0.2", "--log-level", "warning", "--workers", str(workers),
                                 # every game comes from this one address, and there are many of them
                                 "--games-per-client-hour", "0", "--max-ai-games", "0",
                                 "--max-ai-games-per-client", "0", "--max-connections-per-client", "0",
                                 "--max-connections", str(max(5000, games * players * 2)),
                                 "--ws-compression" if ws_compression else "--no-ws-compression",
                                 "--ws-patches" if ws_patches else "--no-ws-patches"],
                                start_new_session=True)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120         # worker processes on a busy machine take a while
        while True:
            try:
                if httpx.get(url + "/api/meta", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                why = t("term.load.server_exited", url=url, code=proc.returncode) if proc.poll() is not None \
                    else t("term.load.server_silent", url=url)
                typer.echo(f"{t('term.error_label')} {why}", err=True)
                if proc.poll() is None:
                    with contextlib.suppress(OSError):
                        os.killpg(proc.pid, signal.SIGKILL)     # its own process group: it and its workers
                raise typer.Exit(2)
            time.sleep(0.1)
    url = url.rstrip("/")
    title = game_title(t, info.name, info.title)
    Console().print(escape(t("term.load.header", title=title, games=games, players=players, ai=ai_seats,
                             actions=actions, think=think, lo=f"{think * 0.5:g}", hi=f"{think * 1.5:g}",
                             ramp=f"{ramp:g}", url=url)), highlight=False)
    # the server's processes on this machine (its /api/health names the one that answers): their CPU time
    pids = _server_pids(url, proc, workers)
    cpu0 = {pid: _cpu_seconds(pid) for pid in pids}
    threads0 = {pid: _thread_cpu(pid) for pid in pids}
    db0 = _postgres_cpu()
    load_before = os.getloadavg()
    Console().print(escape(t("term.load.before", a=f"{load_before[0]:.2f}", b=f"{load_before[1]:.2f}",
                             c=f"{load_before[2]:.2f}", pids=", ".join(map(str, pids)) or t("term.load.unknown"))),
                    highlight=False)
    loads: list[float] = []
    client0 = resource.getrusage(resource.RUSAGE_SELF)
    try:
        timeout = ramp + actions * think * 3 + 60
        coro = _run(url, games, players, ai_seats, actions, think, seed, ramp, timeout, info.name, loads, t=t)
        stats, wall = run_loop(coro)
        cpu1 = {pid: _cpu_seconds(pid) for pid in pids}
        threads1 = {pid: _thread_cpu(pid) for pid in pids}
        db1 = _postgres_cpu()
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        if tmp is not None:
            tmp.cleanup()
    client1 = resource.getrusage(resource.RUSAGE_SELF)
    split = max(ramp, stats.connected_at or 0.0) + think * 1.5
    threads = {}
    for pid in pids:
        used = {name: cpu - threads0[pid].get(name, 0.0) for name, cpu in threads1[pid].items()}
        threads[pid] = {name: cpu for name, cpu in used.items() if cpu >= 0.05}
    print_summary(Console(), t, {
        "games": games, "finished": stats.finished_games, "actions": stats.actions, "wall": wall, "split": split,
        "latency": [x[1] * 1000 for x in stats.samples],
        "early": [x[1] * 1000 for x in stats.samples if x[0] < split],
        "late": [x[1] * 1000 for x in stats.samples if x[0] >= split],
        "connected_at": stats.connected_at, "seats": games * (players - ai_seats),
        "lag": sorted(x * 1000 for x in stats.lag),
        "client_cpu": (client1.ru_utime + client1.ru_stime) - (client0.ru_utime + client0.ru_stime),
        "server_cpu": {pid: c1 - c0 for pid in pids
                       if (c0 := cpu0.get(pid)) is not None and (c1 := cpu1.get(pid)) is not None},
        "threads": threads,
        "postgres_cpu": db1 - db0 if db0 is not None and db1 is not None and db1 > db0 else None,
        "load_before": load_before[0], "loads": loads, "cores": os.cpu_count() or 1, "errors": stats.errors})
    if stats.errors or stats.finished_games < games:
        raise typer.Exit(1)
