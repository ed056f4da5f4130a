"""A digest of every view the server would send over random games: each seat's and a spectator's
observation (as JSON text, through the server's writer ``viewjson``) and hints, after every action, each
action applied to a clone as on the server, the views of a state built before the next clone, now and then
for one seat alone (the server builds the followed seats' only). Two checkouts that print the same digests
send the same views (a change meant to make the views cheaper must not change them):

    for d in OLD NEW; do PYTHONPATH=$d python scripts/view_digest.py zavandor --players 4 --games 12; done

``--options '{"mode": "pairs"}'`` plays with those options.
"""

from __future__ import annotations

import argparse
import hashlib
import json

from grimoire.core.registry import new_game
from grimoire.core.rng import Rng
from grimoire.web import fastjson, viewjson


def digest(game: str, players: int, seed: int, options: dict, limit: int = 600) -> tuple[int, str]:
    """(states seen, the digest of one random game's views)."""
    s = new_game(game, players, seed=seed, **options)
    r = Rng(seed)
    memo: viewjson.Memo = {}
    h = hashlib.sha256()
    seats: list[int | None] = [None, *range(players)]
    k = 0
    while True:
        memo, before = {}, memo
        wanted = seats if k % 3 else [seats[(k // 3) % len(seats)]]
        for seat, obs in zip(wanted, s.observations(wanted), strict=True):
            h.update(viewjson.dumps(obs, game, memo, before).encode())
            h.update(fastjson.dumps(s.hints(seat)).encode())
        if s.is_terminal() or k >= limit:
            return k + 1, h.hexdigest()
        legal = s.legal_actions()
        s = s.clone()
        s.apply(legal[r.below(len(legal))])
        k += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--options", default="{}", help="the games' options as JSON")
    args = ap.parse_args()
    options = json.loads(args.options)
    whole = hashlib.sha256()
    states = 0
    for g in range(args.games):
        n, d = digest(args.game, args.players, args.seed + g, options)
        states += n
        whole.update(d.encode())
        print(f"seed {args.seed + g}: {n} states  {d[:16]}")
    print(f"{args.game} {args.players} players {args.options}: {args.games} games, {states} states, "
          f"all views {whole.hexdigest()}")


if __name__ == "__main__":
    main()
