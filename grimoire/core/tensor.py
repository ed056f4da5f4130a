"""Observation tensors: a seat's observation as a flat float32 vector of a declared size.

A game declares its tensor as a list of named fields (:class:`TensorField`, each with a size and a
line of documentation) for a given player count and options, and one function that writes a seat's
*observation dict* into the vector. Building the tensor from the observation, never from the state,
is what guarantees that it holds nothing the seat may not know.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class TensorField:
    """A named run of numbers. ``low``/``high`` bound every value the game can write there (the
    learning adapters' observation spaces; unbounded unless the game declares it). ``cells``: the
    field is planes over the cells of a board (``size = channels * cells``, channel-major), which
    ``TensorSpec.planes`` shows as [channels, cells] for convolutional or graph models."""

    name: str
    size: int
    doc: str
    low: float = -math.inf
    high: float = math.inf
    cells: int | None = None


class TensorSpec:
    """The layout of one game's tensor for one player count and options. ``adjacency``: for games
    with plane fields, each cell's neighbouring cells (the board's graph, the same for every plane)."""

    def __init__(self, fields: list[TensorField], fill: Callable[[dict[str, Any], TensorWriter], None],
                 adjacency: Sequence[Sequence[int]] | None = None):
        self.fields = tuple(fields)
        self.offsets: dict[str, int] = {}
        off = 0
        for f in self.fields:
            if f.name in self.offsets:
                raise ValueError(f"tensor field {f.name!r} declared twice")
            if f.size < 1:
                raise ValueError(f"tensor field {f.name!r} has no size")
            self.offsets[f.name] = off
            off += f.size
        self._slices = {f.name: slice(self.offsets[f.name], self.offsets[f.name] + f.size) for f in self.fields}
        self.size = off
        self.shape = (off,)
        self._fill = fill
        for f in self.fields:
            if not f.low <= f.high:
                raise ValueError(f"tensor field {f.name!r}: low {f.low} above high {f.high}")
            if f.cells is not None and (f.cells < 1 or f.size % f.cells):
                raise ValueError(f"tensor field {f.name!r}: {f.size} values are not whole {f.cells}-cell planes")
        self.adjacency = None if adjacency is None else tuple(tuple(int(c) for c in row) for row in adjacency)

    def encode(self, obs: dict[str, Any]) -> np.ndarray:
        w = TensorWriter(self)
        self._fill(obs, w)
        w.check_complete()
        return w.out

    def field_slice(self, name: str) -> slice:
        return self._slices[name]

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The least and greatest value of each entry (float32 vectors; +-inf where undeclared)."""
        low = np.empty(self.size, np.float32)
        high = np.empty(self.size, np.float32)
        for f in self.fields:
            sl = self._slices[f.name]
            low[sl], high[sl] = f.low, f.high
        return low, high

    def plane_fields(self) -> dict[str, tuple[int, int]]:
        """The plane fields: name -> (channels, cells)."""
        return {f.name: (f.size // f.cells, f.cells) for f in self.fields if f.cells is not None}

    def planes(self, tensor: np.ndarray) -> dict[str, np.ndarray]:
        """Views of a tensor's plane fields as [channels, cells] arrays (no copy; a batch of tensors,
        shape [..., size], gives [..., channels, cells])."""
        t = np.asarray(tensor)
        out = {}
        for name, (channels, cells) in self.plane_fields().items():
            out[name] = t[..., self._slices[name]].reshape(*t.shape[:-1], channels, cells)
        return out

    def adjacency_matrix(self) -> np.ndarray:
        """The cells' adjacency as a symmetric 0/1 int8 matrix [cells, cells] (ValueError without planes)."""
        if self.adjacency is None:
            raise ValueError("this tensor declares no board of cells")
        n = len(self.adjacency)
        m = np.zeros((n, n), np.int8)
        for a, row in enumerate(self.adjacency):
            for b in row:
                m[a, b] = m[b, a] = 1
        return m

    def describe(self) -> list[dict[str, Any]]:
        """The documentation table: name, offset, size, meaning."""
        return [{"name": f.name, "offset": self.offsets[f.name], "size": f.size, "doc": f.doc} for f in self.fields]


class TensorWriter:
    """Writes named fields into the vector; every declared field must be written exactly once (a
    field the game forgot to fill is a bug, not a silent zero)."""

    __slots__ = ("spec", "out", "_written")

    def __init__(self, spec: TensorSpec):
        self.spec = spec
        self.out = np.zeros(spec.size, dtype=np.float32)
        self._written: set[str] = set()

    def put(self, name: str, values) -> None:
        sl = self.spec._slices[name]
        n = sl.stop - sl.start
        if isinstance(values, (int, float, bool, np.floating, np.integer)):
            values = [values]
        arr = np.asarray(values, dtype=np.float32).ravel()
        if arr.size != n:
            raise ValueError(f"tensor field {name!r} has size {n}, got {arr.size} values")
        self.out[sl] = arr
        self._written.add(name)

    def one_hot(self, name: str, index: int | None) -> None:
        """A one-hot field (all zero for None)."""
        sl = self.spec.field_slice(name)
        n = sl.stop - sl.start
        vec = np.zeros(n, dtype=np.float32)
        if index is not None:
            if not 0 <= index < n:
                raise ValueError(f"one-hot {name!r}: index {index} outside 0..{n - 1}")
            vec[index] = 1.0
        self.out[sl] = vec
        self._written.add(name)

    def check_complete(self) -> None:
        missing = [f.name for f in self.spec.fields if f.name not in self._written]
        if missing:
            raise ValueError(f"tensor fields not written: {', '.join(missing)}")
