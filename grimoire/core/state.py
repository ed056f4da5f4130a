"""The game-agnostic half of the public contract (docs/contract.md).

A game subclasses :class:`GameState` and provides the rules: ``_parse`` (text -> Action, syntax
only), ``_check`` (raise IllegalAction if the action is not legal now, without touching anything),
``_do`` (carry it out; never raises for a checked action), ``legal_actions`` and the rest.
``apply`` glues them so that an illegal action always leaves the state exactly as it was.

Observations have one envelope for every game (built here): ``game``, ``seat``, ``num_players``,
``round``, ``current_player``, ``terminal``, ``scores`` (as the seat sees them), ``winners``,
``legal_actions`` (the texts, for the deciding seat only) and the game's own part under the key of
its name (``_observe``). Integer action ids, masks and tensors come from the game's descriptor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .action import Action
from .errors import IllegalAction
from .rng import Rng

if TYPE_CHECKING:
    import numpy as np

ENVELOPE_KEYS = ("game", "seat", "num_players", "round", "current_player", "terminal", "scores", "winners",
                 "legal_actions")


# ``GameState.history`` as a list, by the cons list's first node: a state's history is its parent's and one
# more action, so its list is the parent's list and that action (a copy in C, not a walk of the whole cons
# list: the server asks for a state's history once per followed seat). The nodes are never changed; the
# cache holds them (an id is not reused while in it) and starts afresh when full.
_LISTS: dict[int, tuple[Any, list[str]]] = {}
_LISTS_MAX = 4096


def texts_since_kept(node: Any, kept: dict[int, tuple]) -> tuple[list[str], tuple | None]:
    """Walk a history cons list back from ``node`` to the first node with an entry in ``kept`` (entries are
    keyed by the node's id and hold the node first, so a reused id is not taken for it): the texts passed,
    newest first, and that entry (None if the walk reached the start)."""
    newer: list[str] = []
    while node is not None:
        got = kept.get(id(node))
        if got is not None and got[0] is node:
            return newer, got
        newer.append(node[0])
        node = node[1]
    return newer, None


class GameState:
    game: str = ""
    backend: str = "python"     # the engine (registry.new_game's backend): another one overrides this
    __slots__ = ("num_players", "seed", "options", "rng", "_hist", "_hist_len")
    num_players: int
    seed: int
    options: dict[str, Any]
    rng: Rng
    _hist: Any              # a cons list (text, rest) of the applied actions, newest first
    _hist_len: int

    # --- history: a persistent cons list, so that clone() is O(1) in the game length -------------
    @property
    def history(self) -> list[str]:
        node = self._hist
        newer, got = texts_since_kept(node, _LISTS)
        if got is not None and not newer:
            return got[1][:]
        newer.reverse()
        out = got[1] + newer if got is not None else newer
        if node is not None:
            if len(_LISTS) >= _LISTS_MAX:
                _LISTS.clear()
            _LISTS[id(node)] = (node, out)
        return out[:]

    def _set_history(self, texts: list[str]) -> None:
        node: Any = None
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
        return list(self.history)

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

    def _observe(self, seats: list[int | None]) -> list[dict[str, Any]]:  # pragma: no cover - interface
        """The game's own part of the observation of each seat (None = spectator). Games may share
        public sub-dicts between the seats: the results are read-only."""
        raise NotImplementedError

    def round_number(self) -> int | None:
        """The current round (for the envelope), or None for games without rounds."""
        return getattr(self, "round", None)

    def visible_scores(self, seat: int | None) -> list[int]:
        """The scores as ``seat`` may know them (games with secret simultaneous choices override)."""
        return self.scores()

    # --- observations (the envelope) --------------------------------------------------------------------
    def _check_seat(self, seat: Any) -> None:
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < self.num_players):
            raise ValueError(f"no seat {seat!r} in a {self.num_players}-player game")

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (None: a spectator), JSON-safe: the envelope and the game's part."""
        return self.observations([seat])[0]

    def observations(self, seats: list[int | None]) -> list[dict[str, Any]]:
        """Several seats' observations of this state at once (the game's parts may share public
        sub-dicts: treat them as read-only)."""
        for seat in seats:
            self._check_seat(seat)
        parts = self._observe(list(seats))
        cp = self.current_player
        term = self.is_terminal()
        winners = self.winners()
        rnd = self.round_number()
        legal = None
        out = []
        for seat, part in zip(seats, parts, strict=True):
            if seat is not None and seat == cp and legal is None:
                legal = [a.text for a in self.legal_actions()]
            out.append({
                "game": self.game, "seat": seat, "num_players": self.num_players, "round": rnd,
                "current_player": cp, "terminal": term, "scores": self.visible_scores(seat),
                "winners": winners, "legal_actions": legal if seat is not None and seat == cp else None,
                self.game: part,
            })
        return out

    def observation_string(self, seat: int | None) -> str:
        """A short line of what ``seat`` sees (for logs), from its observation only."""
        obs = self.observation(seat)
        from .registry import game_info
        summary = game_info(self.game).summary
        head = (f"{self.game} round {obs['round']} seat {seat} to move {obs['current_player']}"
                f" scores {obs['scores']}" + (" (over)" if obs["terminal"] else ""))
        return head + (" | " + summary(obs) if summary else "")

    def observation_tensor(self, seat: int | None) -> np.ndarray:
        """The seat's observation as a flat float32 vector (layout: ``game_info(g).tensor_spec``)."""
        from .registry import spec_for_state
        return spec_for_state(self).encode(self.observation(seat))

    def observation_tensor_into(self, seat: int | None, out: np.ndarray) -> None:
        """Write ``observation_tensor(seat)`` into ``out`` (a float32 vector of the tensor's size), the
        same numbers. The learning adapters call this with buffers they own; a game overrides it to
        write straight from its state (without building the observation dict), and the default copies."""
        out[...] = self.observation_tensor(seat)

    def hints(self, seat: int | None) -> dict[str, Any]:
        """UI help for the deciding seat (e.g. the engine's default payment), from what it may know;
        {} for other seats and spectators."""
        from .registry import game_info
        fn = game_info(self.game).hints
        if fn is None or seat is None or seat != self.current_player:
            return {}
        return fn(self, seat)

    # --- integer action ids (the descriptor's codec) ----------------------------------------------------
    def legal_action_ids(self) -> list[int]:
        """Ascending ids of the legal actions that have one (never empty while the game goes on)."""
        from .registry import game_info
        codec = game_info(self.game).codec
        if codec is None:
            raise NotImplementedError(f"{self.game} declares no action codec")
        return codec.legal_ids(self)

    def legal_mask(self) -> np.ndarray:
        """A 0/1 vector over all action ids (int8): 1 where ``legal_action_ids`` has the id."""
        import numpy as np

        from .registry import game_info
        info = game_info(self.game)
        mask = np.zeros(info.num_distinct_actions, dtype=np.int8)
        ids = self.legal_action_ids()
        if ids:
            mask[ids] = 1
        return mask

    def legal_mask_into(self, out: np.ndarray) -> None:
        """Write ``legal_mask()`` into ``out`` (an int8 vector over all ids)."""
        out[...] = 0
        ids = self.legal_action_ids()
        if ids:
            out[ids] = 1

    def action_id(self, action: Action | str) -> int:
        from .registry import game_info
        return game_info(self.game).action_id(action, self)

    def action_from_id(self, i: int) -> Action:
        """The action of id ``i`` in this state (IllegalAction for an unknown id; not checked for
        legality: apply checks)."""
        from .registry import game_info
        return game_info(self.game).action_from_id(i, self)

    def returns(self) -> list[float]:
        """Each seat's utility (see ``grimoire.core.registry.returns``)."""
        from .registry import returns
        return returns(self)

    def sample_hidden(self, seat: int, rng: Rng) -> GameState:  # pragma: no cover - interface
        """A copy whose hidden parts (for ``seat``) are resampled consistently with its observation."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:  # pragma: no cover - interface
        raise NotImplementedError

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.game} players={self.num_players} seed={self.seed} "
                f"actions={self._hist_len}>")
