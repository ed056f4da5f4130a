"""The plumbing every compiled engine's state shares (docs/native.md): a thin ``GameState`` around a core.

The history, seed and options stay in Python (the base class); the rules' state and the RNG live in the
core object ``_c``, which answers ``rng_state``, ``current_player``, ``round``, ``is_terminal()`` and
``winners()``. What the contract does not route through a method of its own (the internals hints, the
arena hooks and the AI read) comes from the game's reference (Python) state, loaded from ``to_dict()``
on demand and cached in ``_snap`` until the next change (a subclass clears it when it applies an action).
"""

from __future__ import annotations

from typing import Any

from .rng import Rng
from .state import GameState


def module_build_id(module: Any) -> str:
    """The first 12 hex digits of a compiled module's SHA-256 (a run's provenance), or "" unbuilt (None)."""
    import hashlib
    path = getattr(module, "__file__", None)
    if not path:
        return ""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:12]


class NativeState(GameState):
    """A state whose rules run in a compiled core; the game's subclass routes the rest of the contract."""

    __slots__ = ("_c", "_snap")
    _c: Any                          # the core's state object
    _snap: Any                       # the reference state of this position, or None

    def _load_reference(self, d: dict[str, Any]) -> GameState:
        """The game's reference loader (its ``load`` of a saved game)."""
        raise NotImplementedError

    # --- the RNG lives in the core; this view of it is what the contract exposes -------------------------
    @property
    def rng(self) -> Rng:
        return Rng.from_state(self._c.rng_state)

    @rng.setter
    def rng(self, r: Rng) -> None:
        self._c.rng_state = r.state
        self._snap = None

    @property
    def current_player(self) -> int | None:
        return self._c.current_player

    @property
    def round(self) -> int:
        return self._c.round

    def round_number(self) -> int | None:
        return self._c.round

    def is_terminal(self) -> bool:
        return self._c.is_terminal()

    def winners(self) -> list[int]:
        return self._c.winners()

    # --- the reference state, for everything else ---------------------------------------------------------
    def to_python(self) -> Any:
        """This position as the game's reference (Python) state (cached until the next action)."""
        snap = self._snap
        if snap is None:
            snap = self._snap = self._load_reference(self.to_dict())
        return snap

    def __getattr__(self, name: str) -> Any:
        # only reached for what the class does not define: the reference state's internals
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.to_python(), name)
