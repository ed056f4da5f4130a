"""Fit the Zauberschmiede planner's plan ranker (grimoire/games/zauberschmiede/value.py, ``Ranker``)
to the data of ``scripts/zs_plan_data.py``: for every position, the plans' ended sheets and the final
score each led to on the same dice. A ridge regression of the score on the sheet's features
(value.features, and each of them times the rounds left), both centred within the position: only
the differences between the plans of one position are learned (the luck of the deal and of the
position cancels), which is what ranking the plans needs. Cross-validated by game (``--folds``): the
score of the plan each ranking would take is printed next to the planner's (the potential) and the
best plan's. Deterministic.

    python scripts/zs_plan_train.py runs/zsp/*.jsonl --l2 1.0 --out grimoire/games/zauberschmiede/data/planner-rank.npz
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shlex
import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np

from grimoire.agents.net import Network, save
from grimoire.games.zauberschmiede import value
from grimoire.games.zauberschmiede.player import Player
from grimoire.games.zauberschmiede.rules import Variant
from grimoire.games.zauberschmiede.state import normalize_options


def complete_lines(path: str) -> list[str]:
    """The file's finished lines (a file still being written may end in half a line)."""
    text = Path(path).read_text()
    return [ln for ln in (text if text.endswith("\n") else text[:text.rfind("\n") + 1]).splitlines() if ln.strip()]


class Loaded(NamedTuple):
    """The data's plans: each one's ended sheet, mean final score, the planner's value, position id,
    game id and round."""
    sheets: list[Player]
    y: np.ndarray
    v: np.ndarray
    pos: np.ndarray
    g: np.ndarray
    r: np.ndarray


def load(paths: list[str]) -> Loaded:
    """The plans of the data files (positions of fewer than two plans left out), read once."""
    sheets, ys, vs, ps, gs, rs = [], [], [], [], [], []
    pos = 0
    for line in (ln for path in paths for ln in complete_lines(path)):
        rec = json.loads(line)
        for position in rec["positions"]:
            if len(position["plans"]) < 2:
                continue
            for plan in position["plans"]:
                sheets.append(Player.from_dict(plan["sheet"]))
                ys.append(float(np.mean(plan["scores"])))
                vs.append(plan["potential"])
                ps.append(pos)
                gs.append(rec["seed"])
                rs.append(position["round"])
            pos += 1
    return Loaded(sheets, np.array(ys), np.array(vs), np.array(ps), np.array(gs), np.array(rs))


def inputs_of(data: Loaded, inputs: str = "value.rank_features", upg_future: float | None = None) -> np.ndarray:
    """The ranker's inputs of every plan: ``inputs`` names the feature function as the ranker's file does
    (value.RANK_INPUTS); ``upg_future``: the potential's credit for colour levels still to score, among
    them (None: agents.UPG_FUTURE)."""
    var = Variant(normalize_options({}))
    feats = value.RANK_INPUTS[inputs][0]
    return np.array([feats(var, p, int(rnd), upg_future=upg_future)
                     for p, rnd in zip(data.sheets, data.r, strict=True)])


def dataset(paths: list[str], inputs: str = "value.rank_features", upg_future: float | None = None,
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(ranker inputs, mean final score, the planner's value, position id, game id, round) per plan."""
    data = load(paths)
    return inputs_of(data, inputs, upg_future), data.y, data.v, data.pos, data.g, data.r


def centred(a: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """``a`` less its mean over the plans of each position."""
    n = np.bincount(pos)
    if a.ndim == 1:
        return a - (np.bincount(pos, a) / n)[pos]
    means = np.stack([np.bincount(pos, a[:, j]) for j in range(a.shape[1])], 1) / n[:, None]
    return a - means[pos]


def fit(x: np.ndarray, y: np.ndarray, pos: np.ndarray, l2: float, plain: bool = False,
        prior: np.ndarray | None = None) -> np.ndarray:
    """Ridge weights on the standardized centred features (returned unstandardized); ``plain``: the
    features alone (the first half), the ones scaled by the game left (the second half) weighted 0.
    ``prior``: weights learned before (from other games); the penalty pulls towards them instead of
    towards 0, so that data from earlier runs still counts (a ridge with a prior mean)."""
    if plain:
        half = x.shape[1] // 2
        return np.concatenate([fit(x[:, :half], y, pos, l2), np.zeros(x.shape[1] - half)])
    xc, yc = centred(x, pos), centred(y, pos)
    sd = xc.std(0)
    sd[sd < 1e-9] = 1.0
    z = xc / sd
    lam = l2 * len(z) / 100
    u0 = np.zeros(z.shape[1]) if prior is None else prior * sd
    w = np.linalg.solve(z.T @ z + lam * np.eye(z.shape[1]), z.T @ yc + lam * u0)
    return w / sd


def choice_scores(pred: np.ndarray, y: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """Per position the score of the plan ``pred`` ranks first (the first among equals), less the
    positions' mean."""
    out = []
    for k in np.unique(pos):
        idx = np.flatnonzero(pos == k)
        best = idx[np.argmax(pred[idx])]
        out.append(y[best] - y[idx].mean())
    return np.array(out)


def interval(s: np.ndarray) -> str:
    """The mean with its normal 95% interval."""
    m, half = s.mean(), 1.96 * s.std() / np.sqrt(len(s))
    return f"{m:+.3f} [{m - half:+.3f}, {m + half:+.3f}]"


def report(name: str, pred: np.ndarray, y: np.ndarray, pos: np.ndarray) -> None:
    print(f"  {name:28s} chosen plan - the position's mean: {interval(choice_scores(pred, y, pos))}")


Plans = tuple[np.ndarray, np.ndarray, np.ndarray]     # features, mean final score, position id


def joined(a: Plans, b: Plans | None) -> Plans:
    """Two sets of plans as one, ``b``'s positions numbered after ``a``'s."""
    if b is None:
        return a
    return (np.concatenate([a[0], b[0]]), np.concatenate([a[1], b[1]]),
            np.concatenate([a[2], b[2] + (a[2].max() + 1 if len(a[2]) else 0)]))


def cross_validated(x: np.ndarray, y: np.ndarray, pos: np.ndarray, fold: np.ndarray, folds: int, l2: float,
                    plain: bool, prior: np.ndarray | None = None, extra: Plans | None = None) -> np.ndarray:
    """Every plan's prediction by a fit on the other folds' games (and on ``extra``, in every fold)."""
    pred = np.zeros(len(y))
    for k in range(folds):
        tr = fold != k
        w = fit(*joined((x[tr], y[tr], np.unique(pos[tr], return_inverse=True)[1]), extra), l2, plain, prior)
        pred[~tr] = x[~tr] @ w
    return pred


def paired(name: str, a: np.ndarray, b: np.ndarray) -> None:
    print(f"  {name}, same positions: {interval(a - b)}")


def among_tops(rankings: list[tuple[str, np.ndarray]], y: np.ndarray, pos: np.ndarray, tops: list[int]) -> None:
    """Each ranking's choice among only the first K plans of every position (the data keep the
    potential's order), for each K in ``tops``, paired against the first K in the list."""
    first = np.searchsorted(pos, pos)               # a position's plans are consecutive
    order = np.arange(len(pos)) - first              # the plan's place by the potential
    for name, pred in rankings:
        got = [choice_scores(np.where(order < k, pred, -np.inf), y, pos) for k in tops]
        for k, g in zip(tops, got, strict=True):
            print(f"  {name}, among the first {k}: {interval(g)}")
        for k, g in zip(tops[1:], got[1:], strict=True):
            paired(f"{name}: among the first {k} - among the first {tops[0]}", g, got[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--plain", action="store_true", help="the features alone (no weights changing over the game)")
    ap.add_argument("--inputs", default="value.rank_features", choices=sorted(value.RANK_INPUTS),
                    help="the feature function (value.rank_features_written adds what the values written leave open)")
    ap.add_argument("--games", type=int, default=0, help="only the first N games (a learning curve)")
    ap.add_argument("--against", help="also cross-validate this kind of inputs (its --against-l2) on the same "
                                      "folds and print the paired difference")
    ap.add_argument("--against-l2", type=float, default=0.01)
    ap.add_argument("--prior", help="a ranker file trained on other games (the same --inputs): the fit pulls "
                                    "towards its weights instead of towards 0 (--l2 sets how hard); the file's "
                                    "own ranking of these positions is printed beside it")
    ap.add_argument("--tops", help="e.g. 8,16: each ranking also choosing among only the first K plans of a "
                                   "position by the potential (the planner's rank_top), paired against the first K")
    ap.add_argument("--extra", nargs="+", default=[], help="data that only trains: in every fold's fit and in the "
                    "file written, never among the positions ranked (e.g. earlier data of fewer plans a position)")
    ap.add_argument("--upg-future", type=float, help="the potential's credit for colour levels still to score, "
                    "among the inputs (default: the greedy agent's, 0.3, which the shipped file learned; solo the "
                    "planner reads the file with its own, planner.SOLO_UPG_FUTURE)")
    ap.add_argument("--out")
    args = ap.parse_args()
    if args.upg_future is not None and args.upg_future < 0:
        sys.exit("--upg-future must be 0 or more")
    if args.prior and args.plain:
        sys.exit("--prior and --plain do not go together")
    if args.extra and args.against:
        sys.exit("--extra and --against do not go together")
    prior, prior_meta = None, None
    if args.prior:
        before = value.Ranker(Path(args.prior))
        if before.meta.get("inputs") != args.inputs:
            sys.exit(f"{args.prior} takes the inputs {before.meta.get('inputs')}, not {args.inputs}")
        prior = before.w
        prior_meta = {"file": Path(args.prior).name, "games": before.meta.get("games"),
                      "sha256": hashlib.sha256(Path(args.prior).read_bytes()).hexdigest()}
    data = load(args.data)
    x, y, v, pos, g, r = inputs_of(data, args.inputs, args.upg_future), data.y, data.v, data.pos, data.g, data.r
    keep = np.isin(g, list(dict.fromkeys(g.tolist()))[:args.games or None])     # the first N games' plans
    x, y, v, g, r = x[keep], y[keep], v[keep], g[keep], r[keep]
    pos = np.unique(pos[keep], return_inverse=True)[1]
    games = np.unique(g)
    folds = np.random.default_rng(args.seed).permutation(len(games)) % args.folds
    fold = folds[np.searchsorted(games, g)]
    extra, extra_games = None, np.zeros(0)
    if args.extra:
        xe, ye, _ve, pe, ge, _re = dataset(args.extra, args.inputs, args.upg_future)
        extra, extra_games = (xe, ye, pe), np.unique(ge)
        if np.isin(extra_games, games).any():
            sys.exit("a game is in both --extra and the data: it would be ranked by a fit that saw it")
    pred = cross_validated(x, y, pos, fold, args.folds, args.l2, args.plain, prior, extra)
    print(f"{len(games)} games, {pos.max() + 1} positions, {len(y)} plans; {args.folds}-fold cross-validation by game")
    if extra is not None:
        print(f"  and {len(extra_games)} games, {extra[2].max() + 1} positions, {len(extra[1])} plans "
              "in every fit (--extra)")
    tie = 1e-9 * np.arange(len(y))          # the first among equals, as the planner's sort
    report("the planner (potential)", v - tie, y, pos)
    report("the ranker", pred - tie, y, pos)
    report("the best (oracle)", y, y, pos)
    mine = choice_scores(pred - tie, y, pos)
    paired("the ranker - the planner", mine, choice_scores(v - tie, y, pos))
    if args.against:
        xa = inputs_of(data, args.against, args.upg_future)[keep]     # the data read once
        pa = cross_validated(xa, y, pos, fold, args.folds, args.against_l2, False) - tie
        report(f"{args.against} (l2 {args.against_l2:g})", pa, y, pos)
        paired(f"the ranker - {args.against}", mine, choice_scores(pa, y, pos))
    rankings = [("the planner (potential)", v - tie), ("the ranker", pred - tie)]
    if prior is not None:
        name, pp = f"{Path(args.prior).name} as it is", x @ prior - tie
        report(name, pp, y, pos)
        paired(f"the ranker - {name}", mine, choice_scores(pp, y, pos))
        rankings.append((name, pp))
    if args.tops:
        among_tops(rankings, y, pos, [int(k) for k in args.tops.split(",")])
    for rnd in np.unique(r):
        k = r == rnd
        pk = np.unique(pos[k], return_inverse=True)[1]
        a = choice_scores(v[k] - tie[k], y[k], pk).mean()
        b = choice_scores(pred[k] - tie[k], y[k], pk).mean()
        print(f"  round {rnd}: planner {a:+.2f}, ranker {b:+.2f} ({k.sum()} plans)")
    if args.out:
        xt, yt, pt = joined((x, y, np.unique(pos, return_inverse=True)[1]), extra)
        w = fit(xt, yt, pt, args.l2, args.plain, prior)
        net = Network([], (w[:, None].astype(np.float32), np.zeros(1, np.float32)),
                      (np.zeros((len(w), 1), np.float32), np.zeros(1, np.float32)))
        net.meta = {"game": "zauberschmiede", "players": 1, "options": {}, "generation": 0,
                    "games": int(len(games) + len(extra_games)), "positions": int(pt.max() + 1), "plans": int(len(yt)),
                    "seed": args.seed, "command": "python scripts/zs_plan_train.py " + shlex.join(sys.argv[1:]),
                    "target": "the final score, centred within a position (a ranking of plans, in points)",
                    "inputs": args.inputs}
        if prior_meta:
            net.meta["prior"] = prior_meta
        if args.upg_future is not None:
            net.meta["upg_future"] = args.upg_future
        print("wrote", args.out, save(net, args.out))


if __name__ == "__main__":
    main()
