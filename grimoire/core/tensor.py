"""Observation tensors: a seat's observation as a flat float32 vector of a declared size.

A game declares its tensor as a list of named fields (:class:`TensorField`, each with a size and a
line of documentation) for a given player count and options, and one function that writes a seat's
*observation dict* into the vector. Building the tensor from the observation, never from the state,
is what guarantees that it holds nothing the seat may not know.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class TensorField:
    name: str
    size: int
    doc: str


class TensorSpec:
    """The layout of one game's tensor for one player count and options."""

    def __init__(self, fields: list[TensorField], fill: Callable[[dict[str, Any], TensorWriter], None]):
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

    def encode(self, obs: dict[str, Any]) -> np.ndarray:
        w = TensorWriter(self)
        self._fill(obs, w)
        w.check_complete()
        return w.out

    def field_slice(self, name: str) -> slice:
        return self._slices[name]

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
