"""``grimoire loadtest``: N concurrent games played through the real WebSocket API by simulated
clients (one connection per seat, each playing a random legal action after a think time), with the
latency of every action (sent -> acknowledged, i.e. committed to the database) and every error.

Without --url it starts its own ``grimoire serve`` on a free port with a temporary SQLite database
(or --db), so the server and the clients are separate processes, as in real use.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

import typer

from .main import app


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    actions: int = 0
    finished_games: int = 0


def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(p / 100 * len(s)) - 1))]


async def _play_game(http, base: str, players: int, ai_seats: int, actions: int, think: float, stats: Stats,
                     rng: random.Random) -> None:
    from websockets.asyncio.client import connect

    seats = [{"agent": "human"}] * (players - ai_seats) + [{"agent": "random"}] * ai_seats
    r = await http.post(base + "/api/games", json={"game": "zavandor", "seats": seats})
    if r.status_code != 201:
        stats.errors.append(f"create: HTTP {r.status_code} {r.text[:200]}")
        return
    game = r.json()
    gid = game["id"]
    done = asyncio.Event()
    count = [0]
    ws_url = base.replace("http", "ws", 1) + f"/ws/games/{gid}"

    async def seat_client(seat: int, token: str) -> None:
        try:
            async with connect(ws_url, max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "join", "token": token}))
                view = None
                pending: tuple[str, float] | None = None
                acted_seq = -1
                n = 0
                while not done.is_set():
                    try:
                        raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
                    except TimeoutError:
                        raw = None
                    if raw is not None:
                        m = json.loads(raw)
                        kind = m["type"]
                        if kind in ("welcome", "state") and (view is None or m["seq"] >= view["seq"]):
                            view = m
                        elif kind == "ack" and pending and m.get("id") == pending[0]:
                            stats.latencies.append(time.perf_counter() - pending[1])
                            stats.actions += 1
                            count[0] += 1
                            pending = None
                        elif kind == "error":
                            stats.errors.append(f"game {gid} seat {seat}: {m.get('status')} {m.get('message')}")
                            pending = None
                            acted_seq = -1
                            await ws.send(json.dumps({"type": "sync"}))
                    if view is None:
                        continue
                    if view["status"] == "over" or count[0] >= actions:
                        done.set()
                        break
                    obs = view["obs"]
                    if pending is None and obs.get("current_player") == seat and view["seq"] > acted_seq:
                        legal = obs.get("legal_actions") or []
                        if not legal:
                            continue
                        await asyncio.sleep(think * (0.5 + rng.random()))
                        n += 1
                        rid = f"{seat}-{n}"
                        acted_seq = view["seq"]
                        pending = (rid, time.perf_counter())
                        await ws.send(json.dumps({"type": "act", "id": rid, "seq": view["seq"],
                                                  "action": legal[rng.randrange(len(legal))]}))
        except Exception as e:  # noqa: BLE001 - every failure is counted and reported
            stats.errors.append(f"game {gid} seat {seat}: {type(e).__name__}: {e}")
            done.set()

    await asyncio.gather(*(seat_client(s["seat"], s["token"]) for s in game["seats"] if s["token"]))
    stats.finished_games += 1


async def _run(base: str, games: int, players: int, ai_seats: int, actions: int, think: float, seed: int,
               ramp: float, timeout: float) -> tuple[Stats, float]:
    stats = Stats()
    rng = random.Random(seed)
    t0 = time.perf_counter()

    import httpx
    http = httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=50))

    async def start(i: int):
        await asyncio.sleep(ramp * i / max(1, games))
        await _play_game(http, base, players, ai_seats, actions, think, stats, random.Random(rng.random()))

    async def progress():
        while True:
            await asyncio.sleep(10)
            lat = sorted(stats.latencies[-2000:])
            p99 = lat[int(len(lat) * 0.99)] * 1000 if lat else float("nan")
            print(f"  {time.perf_counter() - t0:5.0f}s  actions {stats.actions}  games done {stats.finished_games}  "
                  f"recent p99 {p99:.0f} ms  errors {len(stats.errors)}", flush=True)

    ticker = asyncio.create_task(progress())
    try:
        await asyncio.wait_for(asyncio.gather(*(start(i) for i in range(games))), timeout=timeout)
    except TimeoutError:
        stats.errors.append(f"timed out after {timeout:.0f}s with {games - stats.finished_games} games unfinished")
    ticker.cancel()
    await http.aclose()
    return stats, time.perf_counter() - t0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@app.command("loadtest")
def loadtest_command(
    games: int = typer.Option(200, "--games", "-n", help="concurrent games"),
    players: int = typer.Option(3, "--players", help="seats per game (2-6)"),
    ai_seats: int = typer.Option(0, "--ai-seats", help="seats per game played by the server's random AI"),
    actions: int = typer.Option(30, "--actions", help="actions per game before its clients stop"),
    think: float = typer.Option(1.0, "--think", help="mean think time of a simulated player, seconds"),
    ramp: float = typer.Option(5.0, "--ramp", help="seconds over which the games start"),
    url: str = typer.Option(None, "--url", help="an already running server (default: start one)"),
    db: str = typer.Option(None, "--db", help="database for the server it starts (default: temporary SQLite)"),
    seed: int = typer.Option(1, "--seed", help="seed of the simulated clients' choices"),
) -> None:
    """Benchmark: N concurrent games through the WebSocket API; p50/p99 action latency and errors."""
    import httpx

    proc = None
    tmp = None
    if url is None:
        tmp = tempfile.TemporaryDirectory(prefix="grimoire-load-")
        port = _free_port()
        db = db or f"sqlite:///{tmp.name}/load.db"
        proc = subprocess.Popen([sys.executable, "-m", "grimoire.cli.main", "serve", "--port", str(port), "--db", db,
                                 "--ai-delay", "0.2", "--log-level", "warning"], start_new_session=True)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(url + "/api/meta", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise typer.Exit(2)
            time.sleep(0.1)
    url = url.rstrip("/")
    typer.echo(f"load test: {games} concurrent games x {players} seats ({ai_seats} AI), {actions} actions each, "
               f"think {think}s, server {url}")
    try:
        timeout = ramp + actions * think * 3 + 60
        stats, wall = asyncio.run(_run(url, games, players, ai_seats, actions, think, seed, ramp, timeout))
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        if tmp is not None:
            tmp.cleanup()
    lat = [x * 1000 for x in stats.latencies]
    typer.echo(f"games finished   {stats.finished_games}/{games} in {wall:.1f}s")
    typer.echo(f"actions          {stats.actions} ({stats.actions / wall:.0f}/s)")
    if lat:
        typer.echo(f"latency ms       p50 {_pct(lat, 50):.1f}  p90 {_pct(lat, 90):.1f}  p99 {_pct(lat, 99):.1f}  "
                   f"max {max(lat):.1f}  mean {statistics.fmean(lat):.1f}")
    typer.echo(f"errors           {len(stats.errors)}")
    for e in stats.errors[:10]:
        typer.echo(f"  {e}")
    if stats.errors:
        raise typer.Exit(1)
