"""Train the Shuluri expert's leaf value: a small MLP over ``ai/features.py`` (NumPy, one core).

    nice -n 10 .venv/bin/python scripts/shuluri_train_expert.py --data runs/shu-data/mm \\
        --hidden 32 16 --epochs 30 --out grimoire/games/shuluri/data/expert-2p.npz

Reads the shards of ``scripts/shuluri_expert_data.py``, holds out the last 10% of each directory's
games (whole games: the positions of one game are alike), standardises the features, trains the value
head by binary cross-entropy against each seat's result (Adam of ``grimoire/learn/trainer.py``; the
policy head has one output and no weight), keeps the epoch with the best held-out loss, folds the
standardisation into the first layer and writes the file in the format of ``grimoire/agents/net.py``
with the command, the data's size and the held-out losses in its meta.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

import numpy as np

from grimoire.agents import net as netmod
from grimoire.games.shuluri.ai.features import NAMES, SIZE
from grimoire.learn.trainer import NumpyTrainer, TrainParams, batches


def load_dir(path: Path, holdout: float, max_games: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                         np.ndarray, int]:
    """(train x, train z, held-out x, held-out z, games) of one directory of shards (its first ``max_games``)."""
    files = sorted(path.glob("games-*.npz"))
    if not files:
        raise SystemExit(f"--data {path}: no games-*.npz")
    xs, zs, gs = [], [], []
    for f in files:
        with np.load(f) as d:
            xs.append(d["x"])
            zs.append(d["z"])
            gs.append(d["game"])
    x, z, g = np.concatenate(xs), np.concatenate(zs), np.concatenate(gs)
    if max_games is not None:
        keep = g < max_games
        x, z, g = x[keep], z[keep], g[keep]
    if x.shape[1] != SIZE:
        raise SystemExit(f"--data {path}: {x.shape[1]} features, ai/features.py has {SIZE}")
    games = np.unique(g)
    cut = games[int(len(games) * (1 - holdout))] if len(games) > 1 else games[-1] + 1
    tr = g < cut
    return x[tr], z[tr], x[~tr], z[~tr], len(games)


def start_at_evaluator(net: netmod.Network, mean: np.ndarray, std: np.ndarray) -> None:
    """Set two units of every layer to carry hard's leaf value (``win_chances`` = the logistic of twice the
    ``lead`` feature) as relu(v) and relu(-v), and the value head to their difference: the network
    starts as hard's evaluation, and training learns what to correct in it."""
    k = NAMES.index("lead")
    w0, b0 = net.layers[0]
    w0[:, :2] = 0.0
    w0[k, 0], w0[k, 1] = 2.0 * std[k], -2.0 * std[k]     # on the standardised input: 2 * lead
    b0[0], b0[1] = 2.0 * mean[k], -2.0 * mean[k]
    for w, b in net.layers[1:]:
        w[:, :2] = 0.0
        w[0, 0], w[1, 0], w[0, 1], w[1, 1] = 1.0, -1.0, -1.0, 1.0
        b[:2] = 0.0
    wv, bv = net.value
    wv[:2, 0] = (1.0, -1.0)
    wv[2:, 0] = 0.0
    bv[0] = 0.0


def bce(v: np.ndarray, z: np.ndarray) -> float:
    eps = 1e-7
    return float(-(z * np.log(v + eps) + (1 - z) * np.log(1 - v + eps)).mean())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", nargs="+", required=True, help="directories of shards")
    ap.add_argument("--hidden", type=int, nargs="+", default=[32, 16])
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--holdout", type=float, default=0.1)
    ap.add_argument("--max-games", type=int, default=None, help="only the first N games of each directory")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--generation", type=int, default=1)
    ap.add_argument("--fresh", action="store_true", help="start from random weights, not from hard's value")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    parts = [load_dir(Path(p), args.holdout, args.max_games) for p in args.data]
    x = np.concatenate([p[0] for p in parts])
    z = np.concatenate([p[1] for p in parts])
    hx = np.concatenate([p[2] for p in parts])
    hz = np.concatenate([p[3] for p in parts])
    games = sum(p[4] for p in parts)
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    std[std < 1e-6] = 1.0
    xn, hxn = ((x - mean) / std).astype(np.float32), ((hx - mean) / std).astype(np.float32)
    net = netmod.init(SIZE, 1, args.hidden, args.seed)
    if not args.fresh:
        start_at_evaluator(net, mean, std)
    trainer = NumpyTrainer(net, TrainParams(epochs=args.epochs, batch=args.batch, lr=args.lr,
                                            weight_decay=args.weight_decay, policy_weight=0.0))
    ones, zero = np.ones((args.batch, 1), bool), np.zeros((args.batch, 1), np.float32)
    const = bce(np.full_like(hz, z.mean()), hz)
    lead = hx[:, NAMES.index("lead")]
    hard = bce(1.0 / (1.0 + np.exp(-2.0 * lead)), hz)        # hard's leaf value (win_chances) as a predictor
    best = (bce(net.forward(hxn)[0], hz), 0, [a.copy() for a in trainer.params])
    print(f"epoch 0: held-out {best[0]:.4f}", flush=True)
    per_epoch = -(-len(xn) // args.batch)
    for k, idx in enumerate(batches(len(xn), args.batch, args.epochs, args.seed)):
        trainer.step(xn[idx], ones[:len(idx)], zero[:len(idx)], z[idx])
        if (k + 1) % per_epoch == 0:
            held = bce(net.forward(hxn)[0], hz)
            train = bce(net.forward(xn)[0], z)
            epoch = (k + 1) // per_epoch
            print(f"epoch {epoch}: train {train:.4f} held-out {held:.4f} (constant {const:.4f}, hard's value "
                  f"{hard:.4f})", flush=True)
            if held < best[0]:
                best = (held, epoch, [a.copy() for a in trainer.params])
    for a, b in zip(trainer.params, best[2], strict=True):
        a[...] = b
    w0, b0 = net.layers[0]
    net.layers[0] = ((w0 / std[:, None]).astype(np.float32), (b0 - (mean / std) @ w0).astype(np.float32))
    check = bce(net.forward(hx)[0], hz)
    # the blend the search uses (expert.WEIGHT): its held-out loss for each share of the network
    hv, he = net.forward(hx)[0], 1.0 / (1.0 + np.exp(-2.0 * lead))
    blend = {f"{w:.2f}": round(bce(w * hv + (1 - w) * he, hz), 4) for w in (0.0, 0.25, 0.5, 0.75, 1.0)}
    print("held-out loss of the blend by the network's share:", blend)
    command = "python scripts/shuluri_train_expert.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    net.meta = {"game": "shuluri", "players": 2, "features": list(NAMES), "generation": args.generation,
                "games": games, "positions": int(len(x)), "heldout_positions": int(len(hx)), "seed": args.seed,
                "command": command, "best_epoch": best[1], "heldout_value_loss": round(check, 4),
                "constant_value_loss": round(const, 4), "evaluator_value_loss": round(hard, 4),
                "blend_losses": blend}
    digest = netmod.save(net, args.out)
    print(f"{args.out}: best epoch {best[1]}, held-out loss {check:.4f} (constant {const:.4f}, hard's {hard:.4f}), "
          f"{len(x)} positions of {games} games, sha256 {digest[:12]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
