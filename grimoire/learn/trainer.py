"""Training the network of ``core/net.py`` on positions: a NumPy trainer (no training stack
needed; CI uses it) and the same steps in PyTorch (``train`` extra), which must agree with it.

Loss per position: binary cross-entropy of the value (a sigmoid) against the result, plus
``policy_weight`` times the cross-entropy of the masked softmax against the policy target; Adam
with L2 weight decay on the weights. Batches are drawn from a NumPy generator seeded by the caller,
so a training run is a function of its data, the starting network and the seed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..agents.net import Network
from .samples import Samples


@dataclass(frozen=True)
class TrainParams:
    epochs: int = 4
    batch: int = 256
    lr: float = 1e-3
    weight_decay: float = 1e-4
    policy_weight: float = 1.0


def batches(n: int, batch: int, epochs: int, seed: int):
    """The index batches of every epoch (a fresh permutation per epoch)."""
    rng = np.random.default_rng(seed)
    for _ in range(epochs):
        order = rng.permutation(n)
        for i in range(0, n, batch):
            yield order[i:i + batch]


def masked_log_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask, logits, -np.inf)
    top = z.max(axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.where(mask, np.exp(z - top), 0.0)
    return np.where(mask, z - top - np.log(e.sum(axis=1, keepdims=True) + 1e-30), 0.0)


class NumpyTrainer:
    """Adam on the MLP's parameters, the gradients written out by hand."""

    def __init__(self, net: Network, params: TrainParams):
        self.net = net
        self.p = params
        self.params = self._flat()
        self.m = [np.zeros_like(a) for a in self.params]
        self.v = [np.zeros_like(a) for a in self.params]
        self.t = 0

    def _flat(self) -> list[np.ndarray]:
        out: list[np.ndarray] = []
        for w, b in self.net.layers:
            out += [w, b]
        return out + [self.net.value[0], self.net.value[1], self.net.policy[0], self.net.policy[1]]

    def step(self, x: np.ndarray, mask: np.ndarray, target: np.ndarray, z: np.ndarray) -> float:
        """One Adam step on a batch; returns the batch's loss."""
        net, B = self.net, x.shape[0]
        acts = [x]
        h = x
        for w, b in net.layers:
            h = np.maximum(h @ w + b, 0.0)
            acts.append(h)
        v = (h @ net.value[0] + net.value[1])[:, 0]
        logits = h @ net.policy[0] + net.policy[1]
        sig = 1.0 / (1.0 + np.exp(-v))
        logp = masked_log_softmax(logits, mask)
        eps = 1e-7
        loss = float(-(z * np.log(sig + eps) + (1 - z) * np.log(1 - sig + eps)).mean()
                     - self.p.policy_weight * (target * logp).sum(axis=1).mean())
        dv = ((sig - z) / B)[:, None].astype(np.float32)
        dlog = (self.p.policy_weight * (np.exp(logp) * mask - target) / B).astype(np.float32)
        grads_heads = [h.T @ dv, dv.sum(0), h.T @ dlog, dlog.sum(0)]
        dh = dv @ net.value[0].T + dlog @ net.policy[0].T
        grads_trunk: list[np.ndarray] = []
        for k in range(len(net.layers) - 1, -1, -1):
            dz = dh * (acts[k + 1] > 0)
            grads_trunk = [acts[k].T @ dz, dz.sum(0)] + grads_trunk
            if k:
                dh = dz @ net.layers[k][0].T
        self._adam(grads_trunk + grads_heads)
        return loss

    def _adam(self, grads: list[np.ndarray]) -> None:
        self.t += 1
        b1, b2, lr, wd = 0.9, 0.999, self.p.lr, self.p.weight_decay
        c1, c2 = 1 - b1 ** self.t, 1 - b2 ** self.t
        for i, (a, g) in enumerate(zip(self.params, grads, strict=True)):
            if a.ndim == 2:
                g = g + wd * a
            self.m[i] = b1 * self.m[i] + (1 - b1) * g
            self.v[i] = b2 * self.v[i] + (1 - b2) * g * g
            a -= (lr * (self.m[i] / c1) / (np.sqrt(self.v[i] / c2) + 1e-8)).astype(np.float32)


def train(net: Network, data: Samples, params: TrainParams, seed: int, trainer: str = "numpy",
          on_step: Callable[[int, int, float], None] | None = None) -> Network:
    """Train ``net`` in place on ``data`` (trainer "numpy" or "torch"); returns it."""
    if trainer == "torch":
        from .torch_trainer import train_torch
        return train_torch(net, data, params, seed, on_step)
    A = net.num_actions
    t = NumpyTrainer(net, params)
    total = sum(1 for _ in batches(len(data), params.batch, params.epochs, seed))
    for k, idx in enumerate(batches(len(data), params.batch, params.epochs, seed)):
        b = data.take(idx)
        loss = t.step(b.obs, b.masks(A), b.targets(A), b.value)
        if on_step:
            on_step(k + 1, total, loss)
    return net


def losses(net: Network, data: Samples) -> tuple[float, float]:
    """(value loss, policy loss) of ``net`` on ``data``: the held-out check of a training run."""
    if not len(data):
        return 0.0, 0.0
    A = net.num_actions
    v, logits = net.forward(data.obs)
    z, eps = data.value, 1e-7
    vl = float(-(z * np.log(v + eps) + (1 - z) * np.log(1 - v + eps)).mean())
    pl = float(-(data.targets(A) * masked_log_softmax(logits, data.masks(A))).sum(axis=1).mean())
    return vl, pl
