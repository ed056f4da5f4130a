"""The NumPy trainer: its hand-written gradients match finite differences of its loss, training lowers
the loss, and (where PyTorch is installed) the PyTorch trainer takes the same steps."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from grimoire.agents.net import init
from grimoire.learn.samples import TOP, Samples
from grimoire.learn.trainer import NumpyTrainer, TrainParams, losses, train

OBS, ACTIONS = 12, 10


def data(n: int = 96, seed: int = 0) -> Samples:
    rng = np.random.default_rng(seed)
    obs = rng.normal(size=(n, OBS)).astype(np.float32)
    mask = rng.random((n, ACTIONS)) < 0.6
    mask[:, 0] = True
    idx = np.full((n, TOP), -1, np.int32)
    p = np.zeros((n, TOP), np.float32)
    for r in range(n):
        legal = np.nonzero(mask[r])[0]
        pick = legal[int(obs[r, 0] > 0) % len(legal)]      # a rule the network can learn
        idx[r, 0], p[r, 0] = pick, 1.0
    value = (obs[:, 1] > 0).astype(np.float32)
    return Samples(obs, np.packbits(mask, axis=1), idx, p, value)


def loss_of(net, d: Samples) -> float:
    v, pl = losses(net, d)
    return v + pl


def test_gradients_match_finite_differences():
    d = data(16)
    net = init(OBS, ACTIONS, [6, 5], 3)
    t = NumpyTrainer(copy.deepcopy(net), TrainParams(lr=0.0, weight_decay=0.0))
    grads = []
    t._adam = lambda g: grads.extend(g)          # catch the gradients instead of stepping
    t.step(d.obs, d.masks(ACTIONS), d.targets(ACTIONS), d.value)
    params = NumpyTrainer(net, TrainParams()).params
    rng = np.random.default_rng(0)
    for a, g in zip(params, grads, strict=True):
        for _ in range(3):
            i = tuple(int(rng.integers(s)) for s in a.shape)
            old = float(a[i])
            a[i] = old + 1e-2
            up = loss_of(net, d)
            a[i] = old - 1e-2
            down = loss_of(net, d)
            a[i] = old
            assert (up - down) / 2e-2 == pytest.approx(float(g[i]), abs=2e-3, rel=0.05)


def test_training_lowers_the_loss_and_is_deterministic():
    d = data()
    a, b = init(OBS, ACTIONS, [16], 1), init(OBS, ACTIONS, [16], 1)
    before = loss_of(a, d)
    train(a, d, TrainParams(epochs=30, batch=32, lr=3e-3), seed=4)
    train(b, d, TrainParams(epochs=30, batch=32, lr=3e-3), seed=4)
    assert loss_of(a, d) < 0.6 * before
    assert all(np.array_equal(x, y) for x, y in zip(a.arrays().values(), b.arrays().values(), strict=True))


def test_torch_takes_the_same_steps_as_numpy():
    pytest.importorskip("torch")
    d = data()
    a, b = init(OBS, ACTIONS, [16, 8], 2), init(OBS, ACTIONS, [16, 8], 2)
    params = TrainParams(epochs=3, batch=32, lr=1e-3)
    train(a, d, params, seed=9, trainer="numpy")
    train(b, d, params, seed=9, trainer="torch")
    for (k, x), y in zip(a.arrays().items(), b.arrays().values(), strict=True):
        assert np.allclose(x, y, atol=2e-5), k
    assert loss_of(a, d) == pytest.approx(loss_of(b, d), abs=1e-4)
