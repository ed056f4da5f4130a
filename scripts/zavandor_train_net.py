"""Train Zavandor's expert network (NumPy only, one core) on the shards of scripts/zavandor_selfplay.py.

The value head learns each seat's final share of the win (binary cross-entropy on the sigmoid), the
policy head the action medium played among the legal ids (cross-entropy of the masked softmax), with
Adam on mini-batches. The last ``--holdout`` share of the shards (whole games) is kept out to report
the validation losses; the network of the best validation value loss is written (agents/net.py's
format, with its command, data size and hash in its meta).

    nice .venv/bin/python scripts/zavandor_train_net.py --data /tmp/zav4 --players 4 \\
        --hidden 128 64 --epochs 8 --out grimoire/games/zavandor/data/expert-4p.npz
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

import numpy as np

from grimoire.agents import net as netmod


def load_shards(paths: list[Path]):
    xs, vs, acts, masks, games = [], [], [], [], 0
    for p in paths:
        with np.load(p) as z:
            xs.append(z["x"])
            vs.append(z["v"])
            acts.append(z["a"])
            masks.append(z["m"])
            games += len(z["rounds"])
    return np.concatenate(xs), np.concatenate(vs), np.concatenate(acts), np.concatenate(masks), games


class Adam:
    def __init__(self, params: list[np.ndarray], lr: float, wd: float):
        self.p, self.lr, self.wd, self.t = params, lr, wd, 0
        self.m = [np.zeros_like(x) for x in params]
        self.v = [np.zeros_like(x) for x in params]

    def step(self, grads: list[np.ndarray]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        c1, c2 = 1 - b1 ** self.t, 1 - b2 ** self.t
        for p, g, m, v in zip(self.p, grads, self.m, self.v, strict=True):
            if p.ndim == 2:
                g = g + self.wd * p
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p -= self.lr * (m / c1) / (np.sqrt(v / c2) + 1e-8)


def losses_and_grads(net: netmod.Network, x, v, a, m, policy_weight: float, grad: bool = True):
    """Mean value BCE and policy CE of a batch, and the gradients in ``params`` order."""
    hs = [x]
    h = x
    for w, b in net.layers:
        h = np.maximum(h @ w + b, 0.0)
        hs.append(h)
    z = (h @ net.value[0] + net.value[1])[:, 0]
    p = 1.0 / (1.0 + np.exp(-z))
    eps = 1e-7
    vloss = float(-np.mean(v * np.log(p + eps) + (1 - v) * np.log(1 - p + eps)))
    logits = h @ net.policy[0] + net.policy[1]
    rows = a >= 0
    nrows = max(1, int(rows.sum()))
    legal = m.astype(bool)
    zl = np.where(legal, logits, -1e9)
    zl = zl - zl.max(axis=1, keepdims=True)
    e = np.where(legal, np.exp(zl), 0.0)
    sm = e / np.maximum(e.sum(axis=1, keepdims=True), 1e-30)
    idx = np.where(rows)[0]
    ploss = float(-np.log(sm[idx, a[idx]] + eps).sum() / nrows) if len(idx) else 0.0
    if not grad:
        return vloss, ploss, None
    n = len(x)
    dz = ((p - v) / n)[:, None].astype(np.float32)                     # d vloss / d z
    dlog = np.zeros_like(logits)
    if len(idx):
        dlog[idx] = sm[idx]
        dlog[idx, a[idx]] -= 1.0
        dlog *= policy_weight / nrows
    g_wv, g_bv = h.T @ dz, dz.sum(axis=0)
    g_wp, g_bp = h.T @ dlog, dlog.sum(axis=0)
    dh = dz @ net.value[0].T + dlog @ net.policy[0].T
    layer_grads = []
    for k in range(len(net.layers) - 1, -1, -1):
        dh = dh * (hs[k + 1] > 0)
        w, _b = net.layers[k]
        layer_grads.append((hs[k].T @ dh, dh.sum(axis=0)))
        if k:
            dh = dh @ w.T
    grads = []
    for gw, gb in reversed(layer_grads):
        grads += [gw, gb]
    grads += [g_wv, g_bv, g_wp, g_bp]
    return vloss, ploss, grads


def params_of(net: netmod.Network) -> list[np.ndarray]:
    out = []
    for w, b in net.layers:
        out += [w, b]
    return out + [net.value[0], net.value[1], net.policy[0], net.policy[1]]


def evaluate(net, data, policy_weight, batch=4096):
    x, v, a, m = data
    tot_v = tot_p = 0.0
    nv = npol = 0
    for i in range(0, len(x), batch):
        xb = x[i:i + batch].astype(np.float32)
        lv, lp, _ = losses_and_grads(net, xb, v[i:i + batch], a[i:i + batch], m[i:i + batch], policy_weight, False)
        k = len(xb)
        kp = int((a[i:i + batch] >= 0).sum())
        tot_v += lv * k
        tot_p += lp * max(kp, 1) if kp else 0.0
        nv += k
        npol += kp
    return tot_v / max(nv, 1), tot_p / max(npol, 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--hidden", type=int, nargs="+", default=[128, 64])
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--wd", type=float, default=1e-4)
    ap.add_argument("--policy-weight", type=float, default=0.3)
    ap.add_argument("--holdout", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--max-minutes", type=float, default=50.0)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    shards = sorted(Path(args.data).glob(f"shard-{args.players}p-*.npz"))
    if len(shards) < 2:
        print(f"error: fewer than two shards of {args.players} players in {args.data}", file=sys.stderr)
        return 2
    k = max(1, int(round(len(shards) * args.holdout)))
    x, v, a, m, games = load_shards(shards[:-k])
    val = load_shards(shards[-k:])
    print(f"train {len(x)} rows from {games} games, validation {len(val[0])} rows from {val[4]} games",
          file=sys.stderr, flush=True)
    rng = np.random.default_rng(args.seed)
    net = netmod.init(x.shape[1], m.shape[1], args.hidden, args.seed)
    params = params_of(net)
    opt = Adam(params, args.lr, args.wd)
    best = (float("inf"), None)
    t0 = time.process_time()
    for epoch in range(args.epochs):
        order = rng.permutation(len(x))
        tv = tp = 0.0
        nb = 0
        for i in range(0, len(order), args.batch):
            j = np.sort(order[i:i + args.batch])
            lv, lp, grads = losses_and_grads(net, x[j].astype(np.float32), v[j], a[j], m[j], args.policy_weight)
            opt.step(grads)
            tv += lv
            tp += lp
            nb += 1
        vv, vp = evaluate(net, val[:4], args.policy_weight)
        cpu = time.process_time() - t0
        print(f"epoch {epoch + 1}: train value {tv / nb:.4f} policy {tp / nb:.4f}; "
              f"validation value {vv:.4f} policy {vp:.4f}; cpu {cpu:.0f}s", file=sys.stderr, flush=True)
        if vv < best[0]:
            best = (vv, [p.copy() for p in params])
        if cpu > args.max_minutes * 60:
            break
    assert best[1] is not None
    for p, q in zip(params, best[1], strict=True):
        p[...] = q
    net.meta = {"game": "zavandor", "players": args.players, "options": {"max_rounds": 60},
                "generation": 1, "games": games + val[4], "positions": len(x) + len(val[0]),
                "seed": args.seed, "validation_value_loss": round(best[0], 5),
                "command": "scripts/zavandor_selfplay.py + " + " ".join(["scripts/zavandor_train_net.py"]
                                                                         + [shlex.quote(t) for t in sys.argv[1:]])}
    digest = netmod.save(net, args.out)
    print(f"wrote {args.out} ({Path(args.out).stat().st_size} bytes, sha256 {digest[:16]}...)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
