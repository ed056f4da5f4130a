"""The NumPy trainer's steps in PyTorch (the ``train`` extra): the same model, loss, Adam and batches,
on the CPU. The weights go back into the ``Network`` afterwards, so inference never needs PyTorch."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..agents.net import Network
from .samples import Samples
from .trainer import TrainParams, batches


def train_torch(net: Network, data: Samples, params: TrainParams, seed: int,
                on_step: Callable[[int, int, float], None] | None = None) -> Network:
    try:
        import torch
    except ImportError:
        raise ImportError("PyTorch is not installed: pip install -e '.[train]', or use --trainer numpy") from None
    torch.manual_seed(seed)
    A = net.num_actions
    trunk = [(torch.tensor(w, requires_grad=True), torch.tensor(b, requires_grad=True)) for w, b in net.layers]
    heads = [torch.tensor(a, requires_grad=True) for a in (*net.value, *net.policy)]
    weights = [p for wb in trunk for p in wb] + heads
    decay = [p for p in weights if p.dim() == 2]
    rest = [p for p in weights if p.dim() != 2]
    # L2 decay added to the gradient as in the NumPy trainer (torch's Adam weight_decay does the same)
    opt = torch.optim.Adam([{"params": decay, "weight_decay": params.weight_decay},
                            {"params": rest, "weight_decay": 0.0}], lr=params.lr, betas=(0.9, 0.999), eps=1e-8)
    total = sum(1 for _ in batches(len(data), params.batch, params.epochs, seed))
    for k, idx in enumerate(batches(len(data), params.batch, params.epochs, seed)):
        b = data.take(idx)
        x = torch.from_numpy(b.obs)
        mask = torch.from_numpy(b.masks(A))
        target = torch.from_numpy(b.targets(A))
        z = torch.from_numpy(b.value)
        h = x
        for w, bias in trunk:
            h = torch.relu(h @ w + bias)
        v = (h @ heads[0] + heads[1])[:, 0]
        logits = (h @ heads[2] + heads[3]).masked_fill(~mask, float("-inf"))
        logp = torch.log_softmax(logits, dim=1).masked_fill(~mask, 0.0)
        sig = torch.sigmoid(v)
        eps = 1e-7
        loss = (-(z * torch.log(sig + eps) + (1 - z) * torch.log(1 - sig + eps)).mean()
                - params.policy_weight * (target * logp).sum(dim=1).mean())
        opt.zero_grad()
        loss.backward()
        opt.step()
        if on_step:
            on_step(k + 1, total, float(loss))
    with torch.no_grad():
        net.layers = [(w.numpy().astype(np.float32), bias.numpy().astype(np.float32)) for w, bias in trunk]
        net.value = (heads[0].numpy().astype(np.float32), heads[1].numpy().astype(np.float32))
        net.policy = (heads[2].numpy().astype(np.float32), heads[3].numpy().astype(np.float32))
    return net
