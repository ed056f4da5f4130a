"""The ``expert`` level: the hard level's search (``search.py``) with a learned leaf value at 2 players.

Where a playout is cut off, hard values the position by ``evaluate.win_chances`` (a logistic of the
damage done and the threats). The expert blends that with a small network's estimate of the searching
seat's result (``data/expert-2p.npz``, the format of ``grimoire/core/net.py``: a ReLU MLP over the
numbers of ``features.py``, a sigmoid value; trained by ``scripts/shuluri_train_expert.py`` on the
positions of whole games with each seat's final result: 1 a win, 0 a loss, ``DRAW`` the round cap):
``weight`` is the network's share (0: hard). Shortcut, candidates, playouts and terminal rewards are
hard's. At 4 players no network is shipped: the expert plays hard's search as it is there, with the pairs
options of ``search.PAIRS`` (one value per alliance, the cornering of the last enemy gladiator only unless
ours outmatch theirs, the rally to a threatened partner, closing ranks and the lasting spells in the leaf
value), which were the expert's alone until hard took them (docs/ai.md, "fifth round"); at 2 players it
presses as hard does (``search.PRESS``): from round 4 a gladiator who wins the exchange of blows even if
the enemy strikes first closes in instead of standing off to the round cap. NumPy only.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import numpy as np

from ....core.errors import agent_budget_error, agent_value_error
from ....core.net import load
from ....core.search import SearchSpec
from .ctx import Ctx
from .evaluate import SCALE, effects_worth
from .features import NAMES, features
from .search import ShuluriSearch

NETWORK = Path(__file__).resolve().parent.parent / "data" / "expert-2p.npz"
# the network's share of a leaf's value (chosen on tuning seeds, docs/ai.md "The Shuluri expert level")
WEIGHT = 0.5
LEAD = 4                  # the index of the evaluator's lead in ``features.NAMES``


class LeafNet:
    """The value network: ReLU layers then a sigmoid, its weights checked against the hash in its meta."""

    def __init__(self, path: Path):
        net = load(path)                    # the format and the weights' hash checked (core/net.py)
        if net.meta.get("features") != list(NAMES):
            raise ValueError(f"{path.name}: not a network over this version's features")
        self.meta = net.meta
        self.layers = [(w.astype(np.float64), b.astype(np.float64)) for w, b in net.layers]
        self.wv, self.bv = net.value[0][:, 0].astype(np.float64), float(net.value[1][0])

    def value(self, x: np.ndarray) -> float:
        h = x.astype(np.float64)
        for w, b in self.layers:
            h = np.maximum(h @ w + b, 0.0)
        return 1.0 / (1.0 + math.exp(-(float(h @ self.wv) + self.bv)))


@cache
def shipped() -> LeafNet:
    return LeafNet(NETWORK)


class ExpertSearch(ShuluriSearch):
    """Hard's hooks (its defaults: ``press`` at 2 players, the options of ``PAIRS`` at more) with the network's
    value blended into each cut-off leaf (``options``: ShuluriSearch's keyword arguments instead of its defaults)."""

    def __init__(self, seed: int = 0, weight: float = WEIGHT, net: LeafNet | None = None,
                 options: dict | None = None):
        super().__init__(seed, **(options or {}))
        self.weight = weight
        self.net = net

    def evaluate(self, s) -> list[float]:
        if s.num_players != 2 or self.net is None or self.weight <= 0.0:
            return super().evaluate(s)
        me = self.seat
        x = features(s, me)
        lead = float(x[LEAD])
        if self.effects_2p:         # the lasting spells on each side's figures, in the lead's unit
            ctx = Ctx(s, me)
            lead += sum(effects_worth(ctx, f) if f.seat != me else -effects_worth(ctx, f)
                        for f in s.figs if f is not None) / SCALE
        base = 1.0 / (1.0 + math.exp(-2.0 * lead))     # win_chances at 2 players, from its terms
        mine = self.weight * self.net.value(x) + (1.0 - self.weight) * base
        out = [1.0 - mine, 1.0 - mine]
        out[me] = mine
        return out


def expert_spec(seed: int = 0, iterations: int = 120, time: float = 1.5, weight: float = WEIGHT,
                cpu: bool = False) -> SearchSpec:
    """The expert's search (``expert:weight=0.5``; ``time=0,iterations=N`` for a fixed budget; ``cpu=true``
    counts the seconds in CPU time of the searching thread). The budget defaults are hard's."""
    if not 0.0 <= weight <= 1.0:
        raise agent_value_error("expert", "weight", weight, "0-1")
    if not time and not iterations:
        raise agent_budget_error("expert")
    net = shipped() if weight > 0 else None
    return SearchSpec(hooks=lambda s: ExpertSearch(s, weight, net), iterations=iterations or None,
                      time_limit=time or None, c=0.5, cpu_clock=cpu)
