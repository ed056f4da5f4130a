"""Fit the Zauberschmiede planner's learned value (grimoire/games/zauberschmiede/value.py) to the
positions of ``scripts/zs_value_data.py``: ended sheet -> the game's final score. A small MLP in
NumPy (Adam on the squared error of score / bound; ``--hidden ''``: a ridge regression on its logit),
inputs standardized and the scaling folded into the first layer; 10% of the games (or ``--test``)
held out, its error printed next to the potential's (a line fitted per round on it alone), then the
value is fitted on every position. Deterministic given ``--seed``.

    python scripts/zs_value_train.py runs/zsv/gen0-*.jsonl --hidden 32 \
        --out grimoire/games/zauberschmiede/data/planner-value.npz
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

import numpy as np

from grimoire.agents.net import Network, save
from grimoire.games.zauberschmiede import value
from grimoire.games.zauberschmiede.player import Player
from grimoire.games.zauberschmiede.rules import Variant
from grimoire.games.zauberschmiede.state import normalize_options


def dataset(paths: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(features, final scores, game ids, rounds) of every recorded round end."""
    var = Variant(normalize_options({}))
    xs, ys, gs, rs = [], [], [], []
    for gid, line in enumerate(ln for path in paths for ln in Path(path).read_text().splitlines() if ln.strip()):
        rec = json.loads(line)
        for row in rec["rows"]:
            if row["round"] >= value.ROUNDS:
                continue
            p = Player.from_dict(row["sheet"])
            xs.append(value.features(var, p, row["round"]))
            ys.append(rec["score"])
            gs.append(gid)
            rs.append(row["round"])
    return np.array(xs), np.array(ys, np.float64), np.array(gs), np.array(rs)


def fit_mlp(x: np.ndarray, y: np.ndarray, hidden: list[int], seed: int, epochs: int, lr: float,
            l2: float) -> Network:
    rng = np.random.default_rng(seed)
    mu, sd = x.mean(0), x.std(0)
    sd[sd < 1e-6] = 1.0
    z = (x - mu) / sd
    t = y / value.BOUND
    sizes = [x.shape[1], *hidden, 1]
    ws = [rng.normal(0, np.sqrt(2.0 / a), (a, b)) for a, b in zip(sizes[:-1], sizes[1:], strict=True)]
    bs = [np.zeros(b) for b in sizes[1:]]
    bs[-1][:] = np.log(t.mean() / (1 - t.mean()))
    if not hidden:          # linear: ridge regression on the logit of the scaled score, closed form
        a = np.hstack([z, np.ones((len(z), 1))])
        reg = l2 * len(z) * np.eye(a.shape[1])
        reg[-1, -1] = 0.0
        coef = np.linalg.solve(a.T @ a + reg, a.T @ np.log(t / (1 - t)))
        ws, bs = [coef[:-1, None]], [coef[-1:]]
        epochs = 0
    params = ws + bs
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    step = 0
    n = len(z)
    for _ep in range(epochs):
        order = rng.permutation(n)
        for i in range(0, n, 128):
            idx = order[i:i + 128]
            hs = [z[idx]]
            for w, b in zip(ws[:-1], bs[:-1], strict=True):
                hs.append(np.maximum(hs[-1] @ w + b, 0.0))
            out = 1 / (1 + np.exp(-(hs[-1] @ ws[-1] + bs[-1])[:, 0]))
            g = (2 * (out - t[idx]) * out * (1 - out) / len(idx))[:, None]
            gw, gb = [], []
            for k in range(len(ws) - 1, -1, -1):
                gw.append(hs[k].T @ g + l2 * ws[k])
                gb.append(g.sum(0))
                if k:
                    g = (g @ ws[k].T) * (hs[k] > 0)
            grads = gw[::-1] + gb[::-1]
            step += 1
            for j, (p, gr) in enumerate(zip(params, grads, strict=True)):
                m1[j] = 0.9 * m1[j] + 0.1 * gr
                m2[j] = 0.999 * m2[j] + 0.001 * gr * gr
                p -= lr * (m1[j] / (1 - 0.9 ** step)) / (np.sqrt(m2[j] / (1 - 0.999 ** step)) + 1e-8)
    # fold the standardization into the first layer: (x - mu) / sd @ W + b = x @ (W / sd) + (b - mu / sd @ W)
    w0 = ws[0] / sd[:, None]
    b0 = bs[0] - (mu / sd) @ ws[0]
    folded = [(w0, b0)] + list(zip(ws[1:-1], bs[1:-1], strict=True))
    if not hidden:
        return Network([], (w0, b0), (np.zeros((x.shape[1], 1)), np.zeros(1)))     # the value head alone
    return Network(folded, (ws[-1], bs[-1]), (np.zeros((hidden[-1], 1)), np.zeros(1)))


def predict(net: Network, x: np.ndarray) -> np.ndarray:
    v, _ = net.forward(x.astype(np.float32))
    return np.asarray(v, np.float64) * value.BOUND


def potential_baseline(x: np.ndarray, y: np.ndarray, r: np.ndarray, xt: np.ndarray, rt: np.ndarray) -> np.ndarray:
    """A line per round on the potential alone (what the planner valued by until now)."""
    out = np.zeros(len(xt))
    for rnd in np.unique(rt):
        a = np.polyfit(x[r == rnd, 0], y[r == rnd], 1)
        out[rt == rnd] = np.polyval(a, xt[rt == rnd, 0])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--hidden", default="32")
    ap.add_argument("--epochs", type=int, default=200)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--generation", type=int, default=0)
    ap.add_argument("--test", nargs="*", help="held-out games to report on (default: 10%% of the data's)")
    ap.add_argument("--out")
    ap.add_argument("--command", help="the command recorded in the meta (default: this one)")
    args = ap.parse_args()
    hidden = [int(h) for h in args.hidden.split(",") if h]
    x, y, g, r = dataset(args.data)
    games = np.unique(g)
    if args.test:
        xt, yt, _gt, rt = dataset(args.test)
        xa, ya, ra = x, y, r
    else:
        held = np.isin(g, np.random.default_rng(args.seed).choice(games, max(1, len(games) // 10), replace=False))
        xt, yt, rt, xa, ya, ra = x[held], y[held], r[held], x[~held], y[~held], r[~held]
    net = fit_mlp(xa, ya, hidden, args.seed, args.epochs, args.lr, args.l2)
    err = predict(net, xt) - yt
    base = potential_baseline(xa, ya, ra, xt, rt) - yt
    print(f"{len(games)} games, {len(y)} positions ({len(yt)} held out); held-out RMSE: value "
          f"{np.sqrt(np.mean(err ** 2)):.2f}, potential (a line per round) {np.sqrt(np.mean(base ** 2)):.2f}, "
          f"the mean {np.std(yt):.2f}")
    # what ranks plans is the order within a round: the correlation with the final score per round
    for rnd in np.unique(rt):
        k = rt == rnd
        print(f"  round {rnd}: RMSE value {np.sqrt(np.mean(err[k] ** 2)):.2f}, "
              f"potential {np.sqrt(np.mean(base[k] ** 2)):.2f}; correlation value "
              f"{np.corrcoef(err[k] + yt[k], yt[k])[0, 1]:.3f}, potential {np.corrcoef(xt[k, 0], yt[k])[0, 1]:.3f}")
    if args.out:
        final = fit_mlp(x, y, hidden, args.seed, args.epochs, args.lr, args.l2)     # on every position
        command = args.command or "python scripts/zs_value_train.py " + shlex.join(sys.argv[1:])
        final.meta = {"game": "zauberschmiede", "players": 1, "options": {}, "generation": args.generation,
                      "games": int(len(games)), "positions": int(len(y)), "seed": args.seed, "command": command,
                      "target": "the final score divided by solo_score_bound", "inputs": "value.features"}
        print("wrote", args.out, save(final, args.out))


if __name__ == "__main__":
    main()
