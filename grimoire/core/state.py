"""The game-agnostic half of the public contract (see CONTRACT.md).

A game subclasses :class:`GameState` and provides the rules: ``_parse`` (text -> Action, syntax
only), ``_check`` (raise IllegalAction if the action is not legal now, without touching anything),
``_do`` (carry it out; never raises for a checked action), ``legal_actions`` and the rest.
``apply`` glues them so that an illegal action always leaves the state exactly as it was.
"""

from __future__ import annotations

from typing import Any

from .action import Action
from .errors import IllegalAction
from .rng import Rng


class GameState:
    game: str = ""
    __slots__ = ("num_players", "seed", "options", "rng", "_hist", "_hist_len")

    # --- history: a persistent cons list, so that clone() is O(1) in the game length -------------
    @property
    def history(self) -> list[str]:
        out: list[str] = []
        node = self._hist
        while node is not None:
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    def _set_history(self, texts: list[str]) -> None:
        node = None
        for t in texts:
            node = (t, node)
        self._hist = node
        self._hist_len = len(texts)

    def _copy_base(self, other: GameState) -> None:
        """Copy the base fields into a fresh clone (options are immutable and shared)."""
        other.num_players = self.num_players
        other.seed = self.seed
        other.options = self.options
        other.rng = Rng.from_state(self.rng.state)
        other._hist = self._hist
        other._hist_len = self._hist_len

    # --- actions ------------------------------------------------------------------------------------
    def apply(self, action: Action | str) -> None:
        if not isinstance(action, Action):
            if not isinstance(action, str):
                raise IllegalAction(f"an action must be an Action or its text, not {type(action).__name__}")
            action = self._parse(action)
        self._check(action)
        self._do(action)
        self._hist = (action.text, self._hist)
        self._hist_len += 1

    def parse_action(self, text: str) -> Action:
        if not isinstance(text, str):
            raise IllegalAction(f"an action text must be a string, not {type(text).__name__}")
        action = self._parse(text)
        self._check(action)
        return action

    def is_legal(self, action: Action | str) -> bool:
        try:
            a = action if isinstance(action, Action) else self._parse(action)
            self._check(a)
            return True
        except IllegalAction:
            return False

    # --- records ------------------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.num_players,
            "seed": self.seed,
            "options": dict(self.options),
            "actions": self.history,
        }

    def visible_history(self, seat: int | None) -> list[str | None]:
        """The history as ``seat`` may see it: the action texts, None where an action is still
        secret to that seat (e.g. another player's choice on the same roll). Default: all public."""
        return self.history

    def undo_barrier(self) -> Any:
        """A value that changes whenever an action draws, reveals or otherwise cannot be taken back.

        Interfaces allow undoing an action only if this value is the same before and after it.
        """
        return self.rng.state

    # --- to be provided by each game ----------------------------------------------------------------
    @property
    def current_player(self) -> int | None:  # pragma: no cover - interface
        raise NotImplementedError

    def legal_actions(self) -> list[Action]:  # pragma: no cover - interface
        raise NotImplementedError

    def _parse(self, text: str) -> Action:  # pragma: no cover - interface
        raise NotImplementedError

    def _check(self, action: Action) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def _do(self, action: Action) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def is_terminal(self) -> bool:  # pragma: no cover - interface
        raise NotImplementedError

    def scores(self) -> list[int]:  # pragma: no cover - interface
        raise NotImplementedError

    def winners(self) -> list[int]:  # pragma: no cover - interface
        raise NotImplementedError

    def clone(self) -> GameState:  # pragma: no cover - interface
        raise NotImplementedError

    def observation(self, seat: int | None) -> dict[str, Any]:  # pragma: no cover - interface
        raise NotImplementedError

    def observations(self, seats: list[int | None]) -> list[dict[str, Any]]:
        """Several seats' observations of this state at once (games may share the public parts; the
        dicts are then to be treated as read-only)."""
        return [self.observation(seat) for seat in seats]

    def sample_hidden(self, seat: int, rng: Rng) -> GameState:  # pragma: no cover - interface
        """A copy whose hidden parts (for ``seat``) are resampled consistently with its observation."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:  # pragma: no cover - interface
        raise NotImplementedError

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.game} players={self.num_players} seed={self.seed} "
                f"actions={self._hist_len}>")
