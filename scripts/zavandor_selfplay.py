"""Self-play data for Zavandor's expert network: medium agents on the native core, positions sampled.

Each sampled position gives one row per seat: the seat's observation tensor (its own view only,
``observation_tensor_into``), the seat's final share of the win (the value target) and, for the
seat to move, the id of the action medium played with the legal-id mask (the policy target; -1
where the action has no id or the seat is not the one to move). Shards of ``--shard`` games are
written as they finish, so a stopped run resumes where it left off (a shard that exists is skipped).

With ``--search-targets`` every decision an expert seat searched is recorded too, with the search's
targets (Expert Iteration): ``q``, the searched seat's chance of winning after the move it chose —
the network's values at the search's leaves (the win share where a playout ended the game) averaged
over the chosen child's visits, a calibrated chance unlike the blended reward — and the root's visit
shares over the action ids (``pi_id``/``pi``, ``PI_WIDTH`` children at most). At 2 players the
other seat's row gets ``1 - q``; rows without a search value have ``q`` NaN.

    nice .venv/bin/python scripts/zavandor_selfplay.py --players 4 --games 3000 --out /tmp/zav4
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from grimoire.agents import make_agent
from grimoire.core.episode import derive_seed
from grimoire.core.registry import game_info, new_game
from grimoire.games.zavandor.native import _native

GAME = "zavandor"
PI_WIDTH = 8        # root children kept per searched position (the search considers top_k + end, or a bid band)


def search_root(agent) -> list[tuple[int, int, float, float]]:
    """The root children (code, visits, reward sum, value sum) of the agent's last decision if it searched."""
    nat = getattr(getattr(agent, "hooks", None), "_native", None)
    if nat is None or getattr(agent, "weight", None) is None or not agent.last_stats.get("iterations"):
        return []
    return list(nat.root)


def search_targets(root, state, codec) -> tuple[float, np.ndarray, np.ndarray]:
    """(q of the most visited child, its ids, visit shares) of a searched position (ids -1 where none)."""
    from grimoire.games.zavandor import native as zn
    ranked = sorted(root, key=lambda r: (-r[1], -r[2] / max(r[1], 1)))   # the search's choice first
    q = ranked[0][3] / max(ranked[0][1], 1)
    ids = np.full(PI_WIDTH, -1, np.int16)
    pi = np.zeros(PI_WIDTH, np.float16)
    total = sum(r[1] for r in root)
    for k, (code, n, _w, _v) in enumerate(ranked[:PI_WIDTH]):
        if code >= len(zn._BY_CODE):
            zn._grow(code + 256)
        aid = codec.encode(zn._BY_CODE[code], state)
        if aid is not None:
            ids[k], pi[k] = aid, n / total
    return q, ids, pi


def play_game(players: int, seed: int, sample: float, agent: str, max_rounds: int, shift: int = 0,
              searched: bool = False):
    """Rows (x, value, action id, mask, rounds, q, pi ids, pi) of one self-play game on the native
    core. ``agent`` is one level for every seat or one per seat separated by ``+``, rotated by
    ``shift`` seats; ``searched``: every searched decision recorded with the search's targets."""
    info = game_info(GAME)
    state = new_game(GAME, players, seed, backend="native", max_rounds=max_rounds)
    names = agent.split("+") if "+" in agent else [agent] * players
    if len(names) != players:
        raise SystemExit(f"error: {len(names)} agents for {players} players")
    agents = [make_agent(GAME, names[(i + shift) % players], derive_seed(seed, "seat", i)) for i in range(players)]
    rng = np.random.default_rng(derive_seed(seed, "sample"))
    size = _native.tensor_size(players)
    xs: list[np.ndarray] = []
    acts: list[int] = []
    masks: list[np.ndarray] = []
    seats: list[int] = []
    qs: list[float] = []
    pids: list[np.ndarray] = []
    pis: list[np.ndarray] = []
    num_ids = info.codec.num_distinct_actions
    none_ids, none_pi = np.full(PI_WIDTH, -1, np.int16), np.zeros(PI_WIDTH, np.float16)
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        action = agents[seat].choose(state, seat)
        root = search_root(agents[seat]) if searched else []
        if (root or rng.random() < sample) and len(state.legal_actions()) > 1:
            q, ids, pi = search_targets(root, state, info.codec) if root else (float("nan"), none_ids, none_pi)
            mask = np.zeros(num_ids, np.int8)
            state.legal_mask_into(mask)
            aid = info.codec.encode(action, state)
            for s in range(players):
                x = np.zeros(size, np.float32)
                state.observation_tensor_into(s, x)
                xs.append(x)
                seats.append(s)
                acts.append(aid if (s == seat and aid is not None and mask[aid]) else -1)
                masks.append(mask if s == seat else np.zeros(num_ids, np.int8))
                qs.append(q if s == seat else (1.0 - q if players == 2 else float("nan")))
                pids.append(ids if s == seat else none_ids)
                pis.append(pi if s == seat else none_pi)
        state.apply(action)
    ret = state.returns()
    v = np.array([ret[s] for s in seats], np.float32)
    n = len(xs)
    return (np.array(xs, np.float16).reshape(n, size), v, np.array(acts, np.int16),
            np.array(masks, np.int8).reshape(n, num_ids), state.round, np.array(qs, np.float32),
            np.array(pids, np.int16).reshape(n, PI_WIDTH), np.array(pis, np.float16).reshape(n, PI_WIDTH))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1_000_000)
    ap.add_argument("--sample", type=float, default=0.15, help="share of decisions recorded")
    ap.add_argument("--agent", default="medium",
                    help="one level for all seats, or one per seat separated by + (rotated one seat per game)")
    ap.add_argument("--max-rounds", type=int, default=60)
    ap.add_argument("--shard", type=int, default=50)
    ap.add_argument("--search-targets", action="store_true",
                    help="record every searched decision of an expert seat with the search's value and visits")
    ap.add_argument("--net", metavar="FILE",
                    help="the expert seats play with this network instead of the shipped one (the next generation)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    if a.net:
        from grimoire.games.zavandor.ai import expert
        if not Path(a.net).is_file():
            ap.error(f"--net {a.net}: no such file")
        expert.NETWORKS[a.players] = str(Path(a.net).resolve())
        expert.shipped_net.cache_clear()
        expert.shipped_net(a.players)           # a bad file fails here, before any game
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.process_time()
    for first in range(0, a.games, a.shard):
        path = out / f"shard-{a.players}p-{a.seed + first:09d}.npz"
        if path.exists():
            continue
        parts = [play_game(a.players, a.seed + g, a.sample, a.agent, a.max_rounds, g, a.search_targets)
                 for g in range(first, min(a.games, first + a.shard))]
        tmp = path.with_suffix(".tmp.npz")
        np.savez(tmp, x=np.concatenate([p[0] for p in parts]), v=np.concatenate([p[1] for p in parts]),
                 a=np.concatenate([p[2] for p in parts]), m=np.concatenate([p[3] for p in parts]),
                 rounds=np.array([p[4] for p in parts]), q=np.concatenate([p[5] for p in parts]),
                 pi_id=np.concatenate([p[6] for p in parts]), pi=np.concatenate([p[7] for p in parts]))
        tmp.rename(path)
        print(f"{path.name}: {sum(len(p[1]) for p in parts)} rows, cpu {time.process_time() - t0:.0f}s",
              file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
