"""Train Zavandor's expert network (NumPy only) on the shards of scripts/zavandor_selfplay.py.

The value head learns each seat's final share of the win (binary cross-entropy on the sigmoid), the
policy head the action played among the legal ids (cross-entropy of the masked softmax), with the
Adam steps of ``grimoire.learn.trainer`` (the pipeline's NumPy trainer: one implementation of the
gradients, checked against finite differences in tests/learn/test_trainer.py). The last
``--holdout`` share of each data directory's shards (whole games) is kept out to report the
validation losses; the network of the best validation value loss is written (agents/net.py's format,
with its command, data size and hash in its meta).

    nice .venv/bin/python scripts/zavandor_train_net.py --data runs/zav4 --players 4 \\
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
from grimoire.learn.trainer import NumpyTrainer, TrainParams, masked_log_softmax


def load_shards(paths: list[Path], q_weight: float = 0.0, visits: bool = False):
    """(x, value target, action id, legal mask, games, policy target or None) of the shards. The value
    target is the final share of the win, mixed with the search's value ``q`` by ``q_weight`` where a
    row has one; with ``visits`` the policy target of a searched row is the root's visit shares."""
    xs, vs, acts, masks, pols, games = [], [], [], [], [], 0
    for p in paths:
        with np.load(p) as z:
            xs.append(z["x"])
            v = z["v"].astype(np.float32)
            if q_weight and "q" in z.files:
                q = z["q"]
                has = ~np.isnan(q)
                v[has] = (1.0 - q_weight) * v[has] + q_weight * q[has]
            vs.append(v)
            acts.append(z["a"])
            masks.append(z["m"])
            pol = None
            if visits and "pi" in z.files:
                pol = (z["pi_id"], z["pi"])
            pols.append(pol)
            games += len(z["rounds"])
    pi = None
    if visits:
        width = max((p[0].shape[1] for p in pols if p is not None), default=1)
        pairs = list(zip(pols, acts, strict=True))
        ids = [p[0] if p is not None else np.full((len(a), width), -1, np.int16) for p, a in pairs]
        ps = [p[1] if p is not None else np.zeros((len(a), width), np.float16) for p, a in pairs]
        pi = (np.concatenate(ids), np.concatenate(ps))
    return np.concatenate(xs), np.concatenate(vs), np.concatenate(acts), np.concatenate(masks), games, pi


def batch_arrays(x, a, m, pi=None):
    """float32 inputs, the legal masks of the rows with a policy target (none elsewhere) and the targets:
    the action played (one-hot), or where ``pi`` (ids, shares) has a row's visits, those shares."""
    has = a >= 0
    mask = m.astype(bool) & has[:, None]
    target = np.zeros(m.shape, np.float32)
    rows = np.flatnonzero(has)
    target[rows, a[rows]] = 1.0
    if pi is not None:
        ids, shares = pi
        searched = np.flatnonzero(has & (ids[:, 0] >= 0))
        target[searched] = 0.0
        r, k = np.nonzero(ids[searched] >= 0)
        np.add.at(target, (searched[r], ids[searched][r, k]), shares[searched][r, k].astype(np.float32))
        target[searched] /= np.maximum(target[searched].sum(axis=1, keepdims=True), 1e-6)
    return x.astype(np.float32), mask, target


def evaluate(net: netmod.Network, data, batch: int = 4096, pi=None) -> tuple[float, float]:
    """(value BCE over all rows, policy CE over the rows with a target) of ``net`` on ``data``."""
    x, v, a, m = data
    tot_v = tot_p = 0.0
    npol = 0
    for i in range(0, len(x), batch):
        part = None if pi is None else (pi[0][i:i + batch], pi[1][i:i + batch])
        xb, mask, target = batch_arrays(x[i:i + batch], a[i:i + batch], m[i:i + batch], part)
        p, logits = net.forward(xb)
        z = v[i:i + batch]
        tot_v += float(-(z * np.log(p + 1e-7) + (1 - z) * np.log(1 - p + 1e-7)).sum())
        tot_p += float(-(target * masked_log_softmax(logits, mask)).sum())
        npol += int((a[i:i + batch] >= 0).sum())
    return tot_v / max(len(x), 1), tot_p / max(npol, 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True, nargs="+", help="directories of shards")
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--hidden", type=int, nargs="+", default=[128, 64])
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--wd", type=float, default=1e-4)
    ap.add_argument("--policy-weight", type=float, default=0.3, help="per batch row (most rows have no policy target)")
    ap.add_argument("--holdout", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--generation", type=int, default=1, help="recorded in the meta")
    ap.add_argument("--max-minutes", type=float, default=50.0)
    ap.add_argument("--init", help="continue training this network file (its trunk and value head; the "
                    "policy head too where its action ids are the data's), as Expert Iteration's next generation")
    ap.add_argument("--q-weight", type=float, default=0.0,
                    help="share of the search's value in the value target of the rows that have one "
                    "(selfplay --search-targets)")
    ap.add_argument("--visits", action="store_true",
                    help="policy target of searched rows: the root's visit shares instead of the action played")
    ap.add_argument("--out", required=True)
    words = sys.argv[1:] if argv is None else argv
    args = ap.parse_args(words)
    train_paths: list[Path] = []
    val_paths: list[Path] = []
    for d in args.data:
        shards = sorted(Path(d).glob(f"shard-{args.players}p-*.npz"))
        if len(shards) < 2:
            print(f"error: fewer than two shards of {args.players} players in {d}", file=sys.stderr)
            return 2
        k = max(1, int(round(len(shards) * args.holdout)))
        train_paths += shards[:-k]
        val_paths += shards[-k:]
    prev = None
    if args.init:                   # checked before the data is loaded
        try:
            prev = netmod.load(args.init)
        except (OSError, ValueError) as e:
            print(f"error: --init {args.init}: {e}", file=sys.stderr)
            return 2
        with np.load(train_paths[0]) as z:
            width = z["x"].shape[1]
        if prev.obs_size != width:
            print(f"error: {args.init} takes {prev.obs_size} inputs, the data has {width}", file=sys.stderr)
            return 2
    if not 0.0 <= args.q_weight <= 1.0:
        print("error: --q-weight is between 0 and 1", file=sys.stderr)
        return 2
    x, v, a, m, games, pi = load_shards(train_paths, args.q_weight, args.visits)
    # validation: the value loss against the final result alone, comparable across --q-weight
    val = load_shards(val_paths, 0.0, args.visits)
    print(f"train {len(x)} rows from {games} games, validation {len(val[0])} rows from {val[4]} games",
          file=sys.stderr, flush=True)
    rng = np.random.default_rng(args.seed)
    net = netmod.init(x.shape[1], m.shape[1], args.hidden, args.seed)
    if prev is not None:
        # a network of an older action table keeps its trunk and value head; its policy head starts afresh
        fresh = net.policy
        prev.meta = {}
        net = prev if prev.num_actions == m.shape[1] else netmod.Network(prev.layers, prev.value, fresh)
    trainer = NumpyTrainer(net, TrainParams(epochs=args.epochs, batch=args.batch, lr=args.lr,
                                            weight_decay=args.wd, policy_weight=args.policy_weight))
    const = float(np.mean(v))
    zv = val[1]
    base = float(-(zv * np.log(const) + (1 - zv) * np.log(1 - const)).mean())
    best: tuple[float, list[np.ndarray] | None] = (float("inf"), None)
    t0 = time.process_time()
    for epoch in range(args.epochs):
        order = rng.permutation(len(x))
        tl = 0.0
        nb = 0
        for i in range(0, len(order), args.batch):
            j = np.sort(order[i:i + args.batch])
            xb, mask, target = batch_arrays(x[j], a[j], m[j], None if pi is None else (pi[0][j], pi[1][j]))
            tl += trainer.step(xb, mask, target, v[j])
            nb += 1
        vv, vp = evaluate(net, val[:4], pi=val[5])
        cpu = time.process_time() - t0
        print(f"epoch {epoch + 1}: train loss {tl / nb:.4f}; validation value {vv:.4f} (constant {base:.4f}) "
              f"policy {vp:.4f}; cpu {cpu:.0f}s", file=sys.stderr, flush=True)
        if vv < best[0]:
            best = (vv, [p.copy() for p in trainer.params])
        if cpu > args.max_minutes * 60:
            break
    assert best[1] is not None
    for p, q in zip(trainer.params, best[1], strict=True):
        p[...] = q
    net.meta = {"game": "zavandor", "players": args.players, "options": {"max_rounds": 60},
                "generation": args.generation, "games": games + val[4], "positions": len(x) + len(val[0]),
                "seed": args.seed, "validation_value_loss": round(best[0], 5),
                "command": "scripts/zavandor_selfplay.py + " + " ".join(["scripts/zavandor_train_net.py"]
                                                                         + [shlex.quote(t) for t in words])}
    digest = netmod.save(net, args.out)
    print(f"wrote {args.out} ({Path(args.out).stat().st_size} bytes, sha256 {digest[:16]}...)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
