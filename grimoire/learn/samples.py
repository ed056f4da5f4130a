"""Training positions: what a seat saw, what it could do, what it should have done and how it ended.

One position holds the seat's observation tensor, its legal action ids (a packed bit mask), the
policy target (at most ``TOP`` action ids with their shares: the teacher's move, or the search's
visit distribution) and the value target (the seat's final result scaled into [0, 1]). Shards are
compressed ``.npz`` files written atomically, so an interrupted run never leaves half a shard.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

TOP = 16            # policy target entries kept per position (the most visited)


@dataclass
class Samples:
    obs: np.ndarray         # float32 [N, obs_size]
    legal: np.ndarray       # uint8 [N, ceil(A / 8)], packed bits of the legal mask
    pol_idx: np.ndarray     # int32 [N, TOP], -1 padding
    pol_p: np.ndarray       # float32 [N, TOP]
    value: np.ndarray       # float32 [N]

    def __len__(self) -> int:
        return int(self.value.shape[0])

    @staticmethod
    def empty(obs_size: int, num_actions: int) -> Samples:
        return Samples(np.zeros((0, obs_size), np.float32), np.zeros((0, (num_actions + 7) // 8), np.uint8),
                       np.zeros((0, TOP), np.int32), np.zeros((0, TOP), np.float32), np.zeros(0, np.float32))

    @staticmethod
    def concat(parts: list[Samples]) -> Samples:
        return Samples(*(np.concatenate([getattr(p, k) for p in parts]) for k in FIELDS))

    def take(self, idx: np.ndarray) -> Samples:
        return Samples(*(getattr(self, k)[idx] for k in FIELDS))

    def masks(self, num_actions: int) -> np.ndarray:
        """The legal masks as booleans [N, A]."""
        return np.unpackbits(self.legal, axis=1, count=num_actions).astype(bool)

    def targets(self, num_actions: int) -> np.ndarray:
        """The dense policy targets [N, A]."""
        out = np.zeros((len(self), num_actions), np.float32)
        rows, cols = np.nonzero(self.pol_idx >= 0)
        out[rows, self.pol_idx[rows, cols]] = self.pol_p[rows, cols]
        return out


FIELDS = ("obs", "legal", "pol_idx", "pol_p", "value")


class Recorder:
    """Collects the positions of one game; the value targets are filled in when it ends."""

    def __init__(self, obs_size: int, num_actions: int):
        self.obs_size, self.num_actions = obs_size, num_actions
        self.rows: list[tuple[int, np.ndarray, np.ndarray, dict[int, float]]] = []
        self._mask = np.zeros(num_actions, np.int8)

    def add(self, state, seat: int, policy: dict[int, float]) -> None:
        obs = np.zeros(self.obs_size, np.float32)
        state.observation_tensor_into(seat, obs)
        state.legal_mask_into(self._mask)
        top = sorted(policy.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP]
        if not top:
            return
        self.rows.append((seat, obs, np.packbits(self._mask.astype(bool)), dict(top)))

    def finish(self, results: list[float]) -> Samples:
        """The positions with each seat's final result (already scaled into [0, 1])."""
        n = len(self.rows)
        if not n:
            return Samples.empty(self.obs_size, self.num_actions)
        idx = np.full((n, TOP), -1, np.int32)
        p = np.zeros((n, TOP), np.float32)
        for r, (_, _, _, pol) in enumerate(self.rows):
            total = sum(pol.values())
            for k, (i, share) in enumerate(pol.items()):
                idx[r, k], p[r, k] = i, share / total
        return Samples(np.stack([row[1] for row in self.rows]), np.stack([row[2] for row in self.rows]), idx, p,
                       np.array([results[row[0]] for row in self.rows], np.float32))


def write_shard(path: Path, s: Samples) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez_compressed(f, obs=s.obs, legal=s.legal, pol_idx=s.pol_idx, pol_p=s.pol_p, value=s.value)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_shard(path: Path) -> Samples:
    with np.load(path, allow_pickle=False) as z:
        return Samples(*(z[k] for k in FIELDS))
