"""What a WebSocket ``patch`` costs the server against a whole ``state``, per seat message, for every game:
CPU (process time) to build the text and to deflate it (the server's permessage-deflate settings: 32 KB
window, level 1, one compressor per connection) and the bytes before and after deflate. The views are
built beforehand (the engine's part is the same either way). Random play, the first ``--actions`` actions.

    python scripts/patch_cost.py [--actions 80] [--seed 7]
"""

from __future__ import annotations

import argparse
import random
import time
import zlib

import grimoire
from grimoire.core.registry import game_info
from grimoire.web.hub import Hub, Seat, Session


def measure(game: str, actions: int, seed: int) -> str:
    info = game_info(game)
    n = 4 if 4 in info.player_counts else info.default_players
    seats = [Seat(i, "human", "", None) for i in range(n)]
    s = Session("x", game, seed, {}, seats, grimoire.new_game(game, n, seed), 0)
    hub = Hub.__new__(Hub)                       # only its text builders are used
    rng = random.Random(seed)
    deflate = {(kind, x): zlib.compressobj(1, zlib.DEFLATED, -15, 5) for kind in ("state", "patch") for x in range(n)}
    cpu = {"state": 0.0, "patch": 0.0, "z state": 0.0, "z patch": 0.0}
    size = {"state": 0, "patch": 0, "z state": 0, "z patch": 0}
    count = 0
    for _ in range(actions):
        if s.state.is_terminal():
            break
        old = {x: s.seat_view(x) for x in range(n)}
        new = s.state.clone()
        new.apply(rng.choice(new.legal_actions()))
        s.state, s.seq = new, s.seq + 1
        s.log.append({"seq": s.seq, "seat": 0, "text": "x", "round": None})
        s._raw = {}
        for x in range(n):
            s.seat_view(x)
        for x in range(n):
            texts = {}
            t = time.process_time()
            texts["state"] = hub.view_json(s, x, "state", s.log[-1:])
            t1 = time.process_time()
            texts["patch"] = hub._patch(s, x, s.seq - 1, old[x], s.log[-1:]) or texts["state"]
            t2 = time.process_time()
            cpu["state"] += t1 - t
            cpu["patch"] += t2 - t1
            for kind, text in texts.items():
                data = text.encode()
                t = time.process_time()
                z = deflate[kind, x].compress(data) + deflate[kind, x].flush(zlib.Z_SYNC_FLUSH)
                cpu["z " + kind] += time.process_time() - t
                size[kind] += len(data)
                size["z " + kind] += len(z) - 4
            count += 1
        s._raw = None
    us = {k: v / count * 1e6 for k, v in cpu.items()}
    b = {k: v // count for k, v in size.items()}
    return (f"{game} ({n} seats, {count} seat messages): "
            f"whole state {us['state']:.0f} + deflate {us['z state']:.0f} us, "
            f"{b['state']} -> {b['z state']} B;  patch {us['patch']:.0f} + deflate {us['z patch']:.0f} us, "
            f"{b['patch']} -> {b['z patch']} B")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--actions", type=int, default=80)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    for game in grimoire.games():
        print(measure(game, args.actions, args.seed), flush=True)


if __name__ == "__main__":
    main()
