"""Server CPU per join and per accepted action, two checkouts side by side: both servers run at once
and take turns (a batch of joins or actions on one, then on the other), so that the machine's load
drifts alike for both; the CPU is each server process's own (/proc, user + system).

Each game has 4 human seats, each followed by one WebSocket (permessage-deflate, as browsers ask);
an action is the current seat's first legal action, and it counts once its ack and every seat's new
view have arrived. Creation and joins are measured apart from the actions.

A seat to which an action is secret may get no message at all (Zauberschmiede's choices). With
``--settle ping`` (the default for games whose seats may get nothing) every other seat then sends our
``ping`` after the actor's ack and reads up to its ``pong``: whatever view the action gave it was
written before (one event-loop step writes a broadcast, the ack follows it). The pongs' cost is
measured apart (``pong``: pings on every socket, no action) and taken out of ``act`` (``act net``).

    python scripts/server_cpu_ab.py OLD_CHECKOUT NEW_CHECKOUT [--game G] [--games 30] [--rounds 6]

``--churn``: each round's games are created, joined, played and left before the next round's (players
come and go, as on a server that runs for days: new connections may reuse the memory of closed ones);
by default every game is joined first and stays joined to the end (a server that only grows).

``--paths`` instead measures, in this process and this checkout, the two WebSocket paths that have a
short cut beside websockets' own way (``grimoire/web/protocols.py``), both ways taking turns in blocks,
CPU time (``time.process_time``): a browser's handshake request (uvicorn's copy parsed by websockets, or
``_handshake_request``), alone and on to the application's task (with the connection's set-up; a
request without permessage-deflate, whose compressor set-up is the same both ways), and a browser's
action message to the application's queue (websockets' parser, or ``_one_text_frame``):

    python scripts/server_cpu_ab.py --paths [--n 20000]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import warnings

import httpx
from websockets.sync.client import connect


def cpu(pid: int) -> float:
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """The process's resident memory (MB)."""
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def faults(pid: int) -> int:
    """The process's minor page faults so far (fresh memory touched for the first time)."""
    return int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[7])


class Server:
    def __init__(self, checkout: str, tmp: str, tag: str, env: dict[str, str] | None = None,
                 extra: list[str] | None = None):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        env = dict(os.environ, **(env or {}), PYTHONPATH=os.path.abspath(checkout))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "grimoire.cli.main", "serve", "--port", str(self.port), "--db",
             f"sqlite:///{tmp}/{tag}.db", "--log-level", "warning", "--games-per-client-hour", "0",
             "--max-ai-games", "0", "--max-ai-games-per-client", "0", "--max-connections-per-client", "0",
             "--max-connections", "5000", *(extra or [])],
            env=env, cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(600):
            try:
                if httpx.get(self.base + "/api/meta", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        self.http = httpx.Client()
        self.cpu = {"create": 0.0, "join": 0.0, "act": 0.0, "pong": 0.0}
        self.count = {"create": 0, "join": 0, "act": 0, "pong": 0}
        self.faults = {"create": 0, "join": 0, "act": 0, "pong": 0}
        self.pings = 0                         # pings sent during the actions (``--settle ping``)
        self.games: list[list] = []            # per game: [socket, its seat's last view] per seat
        self.latest: list[int] = []            # per game: a seat whose view is the game's latest

    def measure(self, kind: str, fn, n: int) -> None:
        c0, f0 = cpu(self.proc.pid), faults(self.proc.pid)
        fn()
        self.cpu[kind] += cpu(self.proc.pid) - c0
        self.faults[kind] += faults(self.proc.pid) - f0
        self.count[kind] += n

    def create_and_join(self, game: str, n: int) -> None:
        made = []

        def create():
            for _ in range(n):
                r = self.http.post(self.base + "/api/games", json={"game": game, "seats": [{"agent": "human"}] * 4})
                assert r.status_code == 201, r.text
                made.append(r.json())

        def join():
            for g in made:
                socks = []
                for st in g["seats"]:
                    ws = connect(self.base.replace("http", "ws") + f"/ws/games/{g['id']}", compression="deflate")
                    ws.send(json.dumps({"type": "join", "token": st["token"]}))
                    view = None
                    while view is None:
                        m = json.loads(ws.recv())
                        if m["type"] == "welcome":
                            view = m
                    socks.append([ws, view])
                self.games.append(socks)
                self.latest.append(0)

        self.measure("create", create, n)
        self.measure("join", join, 4 * n)

    def act(self, per_game: int, settle: str) -> None:
        done = 0

        def take(pair, m) -> None:
            if m["type"] == "error":
                raise RuntimeError(m)
            if m["type"] == "state":
                pair[1] = {**pair[1], **m}
            elif m["type"] == "welcome":
                pair[1] = m

        def play():
            nonlocal done
            for g, socks in enumerate(self.games):
                for _ in range(per_game):
                    now = socks[self.latest[g]][1]        # the last actor's view is the game's latest
                    cp = now["obs"]["current_player"]
                    if cp is None or now["status"] != "active":
                        break
                    ws, view = socks[cp]
                    legal = view["obs"]["legal_actions"]
                    ws.send(json.dumps({"type": "act", "id": 1, "seq": view["seq"], "action": legal[0]}))
                    want = {"state", "ack"}
                    while want:                          # the actor's new view and ack
                        m = json.loads(ws.recv(timeout=60))
                        take(socks[cp], m)
                        want.discard(m["type"])
                    self.latest[g] = cp
                    for i, pair in enumerate(socks):   # every other seat's new view
                        if i == cp:
                            continue
                        if settle == "ping":           # ... if it gets one: all of it came before the pong
                            pair[0].send('{"type":"ping","id":"settle"}')
                            self.pings += 1
                            last = "pong"
                        else:
                            last = "state"
                        while True:
                            try:
                                m = json.loads(pair[0].recv(timeout=60))
                            except TimeoutError:
                                raise SystemExit("a seat got no message after an action (secret to it?): "
                                                 "use --settle ping") from None
                            if m["type"] == last:
                                take(pair, m)
                                break
                            take(pair, m)
                    done += 1

        self.measure("act", play, 0)
        self.count["act"] += done

    def pong(self, reps: int) -> None:
        """``reps`` pings on every socket, no action: what ``--settle ping`` adds to the actions."""
        def ping():
            for socks in self.games:
                for _ in range(reps):
                    for ws, _v in socks:
                        ws.send('{"type":"ping","id":"settle"}')
                    for ws, _v in socks:
                        while json.loads(ws.recv(timeout=60))["type"] != "pong":
                            pass
        self.measure("pong", ping, reps * sum(len(socks) for socks in self.games))

    def leave(self) -> None:
        """Every game's sockets closed (its players left): ``--churn`` joins the next games after them."""
        for socks in self.games:
            for ws, _v in socks:
                ws.close()
        self.games, self.latest = [], []

    def close(self) -> None:
        for socks in self.games:
            for ws, _v in socks:
                ws.close()
        self.proc.terminate()
        self.proc.wait()


class _Transport:
    """What the WebSocket protocol needs of a socket, writing into ``out`` (if given)."""
    closed = False

    def __init__(self, out: list | None = None):
        self.out = out

    def write(self, data) -> None:
        if self.out is not None:
            self.out.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_extra_info(self, name, default=None):
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 40000)}.get(name, default)


def paths(n: int) -> None:
    import asyncio
    import logging

    import uvicorn
    from uvicorn.server import ServerState
    from websockets.client import ClientProtocol
    from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
    from websockets.http11 import Request
    from websockets.streams import StreamReader
    from websockets.uri import parse_uri

    from grimoire.web.protocols import BoundedWebSocketProtocol, _handshake_request

    logging.disable(logging.CRITICAL)         # the cancelled application tasks at the end of each block

    async def app(scope, receive, send):
        await receive()
        await send({"type": "websocket.accept"})
        await asyncio.Event().wait()

    config = uvicorn.Config(app, ws_per_message_deflate=True, ws_max_size=64 * 1024, ws_ping_interval=None,
                            proxy_headers=False, lifespan="off")
    config.load()
    state = ServerState()
    browser = [(b"host", b"games.example.org"), (b"connection", b"Upgrade"), (b"pragma", b"no-cache"),
               (b"cache-control", b"no-cache"), (b"user-agent", b"Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0"),
               (b"upgrade", b"websocket"), (b"origin", b"https://games.example.org"),
               (b"sec-websocket-version", b"13"), (b"accept-encoding", b"gzip, deflate, br, zstd"),
               (b"accept-language", b"hu-HU,hu;q=0.9"), (b"sec-websocket-key", b"dGhlIHNhbXBsZSBub25jZQ=="),
               (b"sec-websocket-extensions", b"permessage-deflate; client_max_window_bits")]
    scope = {"method": "GET", "headers": browser}
    url = b"/ws/games/AbCdEfGhIjKl"

    # the whole handshake without permessage-deflate: the compressor's set-up (the same both ways, 0.1-0.3
    # ms, its page faults varying with what ran before) would hide the difference
    plain = browser[:-1]
    plain_scope = {"method": "GET", "headers": plain}

    def handshake(short: bool) -> None:      # TimedHttpProtocol.handle_websocket_upgrade, both ways
        proto = BoundedWebSocketProtocol(config, state, {})
        proto.connection_made(_Transport())
        if short:
            proto.handshake(_handshake_request(plain_scope, url))
        else:
            out = [b"GET ", url, b" HTTP/1.1\r\n"]
            for name, value in plain:
                out += [name, b": ", value, b"\r\n"]
            out.append(b"\r\n")
            proto.data_received(b"".join(out))
        state.connections.discard(proto)

    def request(short: bool):                 # the request alone: what the short cut replaces
        if short:
            return _handshake_request(scope, url)
        out = [b"GET ", url, b" HTTP/1.1\r\n"]
        for name, value in browser:
            out += [name, b": ", value, b"\r\n"]
        out.append(b"\r\n")
        reader = StreamReader()
        reader.feed_data(b"".join(out))
        parser = Request.parse(reader.read_line)
        try:
            next(parser)
        except StopIteration as done:
            return done.value
        raise AssertionError("an incomplete request")

    def connection(short: bool):
        proto = BoundedWebSocketProtocol(config, state, {})
        if not short:
            proto._one_text_frame = lambda data: False
        proto.connection_made(_Transport([]))
        client = ClientProtocol(parse_uri("ws://games.example.org/ws/games/x"),
                                extensions=[ClientPerMessageDeflateFactory(compress_settings={"memLevel": 5})])
        return proto, client

    async def run() -> None:
        import gc
        gc.disable()       # collected between the timed blocks: a collection's cost falls on neither way
        clock = time.process_time
        spent = {"request": [0.0, 0.0], "handshake": [0.0, 0.0], "message": [0.0, 0.0]}
        block = 100
        conns = {}
        for short in (False, True):
            proto, client = conns[short] = connection(short)
            proto.handshake(client.connect())
        for _ in range(3):
            await asyncio.sleep(0)
        for short in (False, True):
            proto, client = conns[short]
            client.receive_data(b"".join(proto.transport.out))       # the server's 101
            proto.transport.out = None
        frames = {}
        for short in (False, True):           # the same action messages, each connection's own deflate stream
            proto, client = conns[short]
            frames[short] = []
            for i in range(n):
                client.send_text(f'{{"type":"act","id":{i},"seq":{i},"action":"buy 2 red"}}'.encode())
                frames[short].append(b"".join(client.data_to_send()))
        for start in range(0, n, block):
            for short in ((False, True) if start // block % 2 == 0 else (True, False)):
                t = clock()
                for _ in range(block):
                    request(short)
                spent["request"][short] += clock() - t
                gc.collect()
                t = clock()
                for _ in range(block):
                    handshake(short)
                spent["handshake"][short] += clock() - t
                for task in list(state.tasks):          # the application tasks of those connections
                    task.cancel()
                await asyncio.sleep(0)
                state.tasks.clear()
                gc.collect()
                proto = conns[short][0]
                queue, sizes, feed = proto.queue, proto._sizes, proto.data_received
                t = clock()
                for data in frames[short][start:start + block]:
                    feed(data)
                    queue.get_nowait()                         # what the application's receive takes
                    proto._queued -= sizes.popleft()
                spent["message"][short] += clock() - t
                gc.collect()
        for what, (old, new) in spent.items():
            print(f"  {what:9s} websockets {1e6 * old / n:7.1f} us   short cut {1e6 * new / n:7.1f} us   "
                  f"new/old {new / old:.2f}   ({n} each, CPU time)")

    print(f"WebSocket paths, load average {os.getloadavg()[0]:.1f}:")
    asyncio.run(run())


def main() -> None:
    warnings.filterwarnings("ignore", category=DeprecationWarning)   # connect() outside a with block
    if "--paths" in sys.argv:
        pa = argparse.ArgumentParser(description="the WebSocket paths, both ways (module docstring)")
        pa.add_argument("--paths", action="store_true")
        pa.add_argument("--n", type=int, default=20000)
        paths(pa.parse_args().n)
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--game", default="zavandor")
    ap.add_argument("--games", type=int, default=30, help="games per server")
    ap.add_argument("--rounds", type=int, default=6, help="turns of joins, then of actions")
    ap.add_argument("--actions", type=int, default=3, help="actions per game in one turn")
    ap.add_argument("--settle", choices=("ping", "wait"), default=None,
                    help="how to know a seat got all of an action's news: a ping after it (default for "
                         "zauberschmiede, whose seats may get nothing) or wait for its new view")
    ap.add_argument("--new-env", action="append", default=[], metavar="NAME=VALUE",
                    help="an environment variable for the new server only (a setting side by side, e.g. "
                         "GRIMOIRE_SQLITE_SYNC=NORMAL with OLD and NEW the same checkout)")
    ap.add_argument("--new-arg", action="append", default=[], metavar="ARG",
                    help="an argument of `grimoire serve` for the new server only (e.g. --new-arg=--no-ws-compression)")
    ap.add_argument("--churn", action="store_true",
                    help="each round's games are joined, played and left before the next round's join (a "
                         "server whose players come and go; by default every game stays joined to the end)")
    args = ap.parse_args()
    new_env = dict(kv.split("=", 1) for kv in args.new_env)
    settle = args.settle or ("ping" if args.game == "zauberschmiede" else "wait")
    load0 = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="grimoire-ab-") as tmp:
        servers = {"old": Server(args.old, tmp, "old"), "new": Server(args.new, tmp, "new", new_env, args.new_arg)}
        try:
            per = max(1, args.games // args.rounds)
            for r in range(args.rounds if args.churn else 0):    # each round's games end before the next
                for which in (("old", "new") if r % 2 == 0 else ("new", "old")):
                    servers[which].create_and_join(args.game, per)
                    servers[which].act(args.actions, settle)
                    if settle == "ping":
                        servers[which].pong(args.actions)
                    servers[which].leave()
                time.sleep(1.0)                 # the servers close those connections
            for r in range(0 if args.churn else args.rounds):
                for which in (("old", "new") if r % 2 == 0 else ("new", "old")):
                    servers[which].create_and_join(args.game, per)
            for r in range(0 if args.churn else args.rounds):
                for which in (("old", "new") if r % 2 == 0 else ("new", "old")):
                    servers[which].act(args.actions, settle)
                    if settle == "ping":
                        servers[which].pong(args.actions)
            rss = {k: rss_mb(s.proc.pid) for k, s in servers.items()}
        finally:
            for s in servers.values():
                s.close()
    if new_env or args.new_arg:
        print(f"the new server's environment: {new_env}, arguments: {args.new_arg}")
    print(f"{args.game}, 4 seats, load average {load0:.1f} -> {os.getloadavg()[0]:.1f}; server CPU (ms) each:")
    o, n = servers["old"], servers["new"]

    def per(s: Server, kind: str) -> float:
        return 1000 * s.cpu[kind] / max(1, s.count[kind])

    rows = [(kind, per(o, kind), per(n, kind), f"({o.count[kind]} / {n.count[kind]}; page faults each "
             f"{o.faults[kind] / max(1, o.count[kind]):.0f} / {n.faults[kind] / max(1, n.count[kind]):.0f})")
            for kind in ("create", "join", "act")]
    if settle == "ping":                       # the pings of the actions out, at each server's own pong cost
        rows.append(("pong", per(o, "pong"), per(n, "pong"), f"({o.count['pong']} / {n.count['pong']})"))
        rows.append(("act net", per(o, "act") - per(o, "pong") * o.pings / max(1, o.count["act"]),
                     per(n, "act") - per(n, "pong") * n.pings / max(1, n.count["act"]),
                     f"(less {o.pings / max(1, o.count['act']):.0f} pongs an action)"))
    for kind, a, b, note in rows:
        print(f"  {kind:7s} old {a:6.3f}  new {b:6.3f}  new/old {b / a if a else float('nan'):.2f}   {note}")
    print(f"  resident memory at the end: old {rss['old']:.0f} MB, new {rss['new']:.0f} MB")

if __name__ == "__main__":
    main()
