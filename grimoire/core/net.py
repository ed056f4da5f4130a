"""Small learned networks: the file format and the forward pass in NumPy (no training stack needed), in the
core so that a game can read its own shipped network (games import no interface).

A network maps a seat's observation tensor (the game's ``observation_tensor_into``) to
- a **value**: the seat's expected reward in [0, 1] (its share of the win, or a solo score scaled
  by the game's bounds), and
- **policy logits** over the game's action ids (softmax over the legal mask).

Layout (a residual-free MLP, small enough for a move budget on a CPU): ``x -> relu(x W0 + b0) -> ...
-> relu(h W_{k-1} + b_{k-1}) = h``; ``value = sigmoid(h Wv + bv)``; ``logits = h Wp + bp``.

File: NumPy ``.npz`` (uncompressed) with float32 arrays ``w0, b0, ..., wv, bv, wp, bp`` (``W`` is
[inputs, outputs]) and ``meta``, a UTF-8 JSON text (uint8 array) describing how it was made:
``format``, ``game``, ``players``, ``options``, ``obs_size``, ``num_actions``, ``hidden``,
``generation``, ``games``, ``positions``, ``seed``, ``command`` and ``sha256`` (of the weights,
:func:`weights_hash`). Any engine (this module, the Rust core) must compute the same numbers.
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

FORMAT = "grimoire-mlp/1"


@dataclass
class Network:
    """Weights and provenance of one network (see the module text)."""

    layers: list[tuple[np.ndarray, np.ndarray]]      # trunk: (W [in, out], b [out]) per layer
    value: tuple[np.ndarray, np.ndarray]             # (Wv [h, 1], bv [1])
    policy: tuple[np.ndarray, np.ndarray]            # (Wp [h, A], bp [A])
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def obs_size(self) -> int:
        return int(self.layers[0][0].shape[0]) if self.layers else int(self.value[0].shape[0])

    @property
    def num_actions(self) -> int:
        return int(self.policy[0].shape[1])

    def arrays(self) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for i, (w, b) in enumerate(self.layers):
            out[f"w{i}"], out[f"b{i}"] = w, b
        out["wv"], out["bv"] = self.value
        out["wp"], out["bp"] = self.policy
        return {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in out.items()}

    def trunk(self, x: np.ndarray) -> np.ndarray:
        h = np.asarray(x, dtype=np.float32)
        for w, b in self.layers:
            h = h @ w
            h += b
            np.maximum(h, 0.0, out=h)
        return h

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(values, logits) for a batch of observations [B, obs_size] (or one vector: shapes [] and [A])."""
        h = self.trunk(x)
        v = h @ self.value[0] + self.value[1]
        value = 1.0 / (1.0 + np.exp(-v[..., 0]))
        logits = h @ self.policy[0] + self.policy[1]
        return value.astype(np.float32), logits.astype(np.float32)

    def predict(self, x: np.ndarray, mask: np.ndarray) -> tuple[float, np.ndarray]:
        """One observation and its legal mask -> (value, policy over the action ids, 0 where illegal)."""
        value, logits = self.forward(x)
        return float(value), masked_softmax(logits, mask)


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    legal = np.asarray(mask, dtype=bool)
    z = np.where(legal, logits, -np.inf)
    top = z.max(axis=-1, keepdims=True)
    e = np.where(legal, np.exp(z - np.where(np.isfinite(top), top, 0.0)), 0.0)
    s = e.sum(axis=-1, keepdims=True)
    return (e / np.where(s > 0, s, 1.0)).astype(np.float32)


def weights_hash(net: Network) -> str:
    """SHA-256 over the weight arrays in file order (name, shape, little-endian float32 bytes)."""
    h = hashlib.sha256()
    for name, a in net.arrays().items():
        h.update(name.encode())
        h.update(repr(tuple(a.shape)).encode())
        h.update(a.astype("<f4").tobytes())
    return h.hexdigest()


def save(net: Network, path: str | Path) -> str:
    """Write the network (its meta gains ``format`` and ``sha256``); returns the hash."""
    digest = weights_hash(net)
    net.meta = {**net.meta, "format": FORMAT, "sha256": digest,
                "obs_size": net.obs_size, "num_actions": net.num_actions,
                "hidden": [int(w.shape[1]) for w, _ in net.layers]}
    meta = np.frombuffer(json.dumps(net.meta, sort_keys=True).encode(), dtype=np.uint8)
    buf = io.BytesIO()
    savez: Any = np.savez        # (its stubs read ** as the allow_pickle flag)
    savez(buf, meta=meta, **net.arrays())
    Path(path).write_bytes(buf.getvalue())
    return digest


def load(path: str | Path | io.BytesIO) -> Network:
    """Read a network file (or its bytes in a BytesIO); ValueError when it is not one or its weights do
    not match their hash."""
    try:
        with np.load(path if isinstance(path, io.BytesIO) else Path(path), allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: not a network file ({e})") from None
    if "meta" not in arrays:
        raise ValueError(f"{path}: not a network file (no meta)")
    meta = json.loads(arrays.pop("meta").tobytes().decode())
    if meta.get("format") != FORMAT:
        raise ValueError(f"{path}: format {meta.get('format')!r}, expected {FORMAT!r}")
    k = 0
    layers = []
    while f"w{k}" in arrays:
        layers.append((arrays[f"w{k}"].astype(np.float32), arrays[f"b{k}"].astype(np.float32)))
        k += 1
    net = Network(layers, (arrays["wv"].astype(np.float32), arrays["bv"].astype(np.float32)),
                  (arrays["wp"].astype(np.float32), arrays["bp"].astype(np.float32)), meta)
    if meta.get("sha256") and meta["sha256"] != weights_hash(net):
        raise ValueError(f"{path}: the weights do not match their recorded hash")
    return net


def init(obs_size: int, num_actions: int, hidden: list[int], seed: int) -> Network:
    """A freshly initialised network (He-uniform trunk, small heads), reproducible from ``seed``."""
    rng = np.random.default_rng(seed)
    layers = []
    n_in = obs_size
    for n_out in hidden:
        lim = np.sqrt(6.0 / n_in)
        layers.append((rng.uniform(-lim, lim, (n_in, n_out)).astype(np.float32), np.zeros(n_out, np.float32)))
        n_in = n_out
    value = ((rng.standard_normal((n_in, 1)) * 0.01).astype(np.float32), np.zeros(1, np.float32))
    policy = ((rng.standard_normal((n_in, num_actions)) * 0.01).astype(np.float32), np.zeros(num_actions, np.float32))
    return Network(layers, value, policy, {})
