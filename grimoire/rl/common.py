"""What the three adapters share: the game's setup for learning and the seeds of episodes."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from ..core.errors import GameConfigError
from ..core.registry import MAX_SEED, GameInfo, game_info, new_game
from ..core.state import GameState


def learnable_games() -> list[str]:
    """The registered games that declare an action codec and an observation tensor."""
    from ..core.registry import games
    return [g for g in games() if is_learnable(game_info(g))]


def is_learnable(info: GameInfo) -> bool:
    return info.codec is not None and info.tensor is not None


@dataclass(frozen=True)
class Setup:
    """One game, player count and options as the adapters play it."""

    info: GameInfo
    players: int
    options: dict[str, Any]             # normalized, as the game state keeps them
    num_actions: int
    obs_shape: tuple[int, ...]
    step_limit: int | None              # truncate when this many actions are played and the game goes on

    @property
    def name(self) -> str:
        return self.info.name

    def new_state(self, seed: int) -> GameState:
        return new_game(self.name, self.players, seed, **self.options)


def make_setup(game: str, players: int | None, options: dict[str, Any]) -> Setup:
    """Check that the game can be learned and its options; the truncation limit is the game's length
    bound (with its round cap when no max_rounds is given)."""
    info = game_info(game)
    if not is_learnable(info):
        missing = " and ".join(x for x, v in (("an action codec", info.codec), ("an observation tensor", info.tensor))
                               if v is None)
        raise GameConfigError(f"{info.title} declares no {missing}: the RL adapters need both")
    if players is None:
        players = info.default_players
    opts = info.validate(players, dict(options))
    limit = info.game_length_bound(players, opts) if info.max_game_length is not None else None
    return Setup(info, players, opts, info.num_distinct_actions, info.observation_shape(players, opts), limit)


class SeedSequence:
    """Game seeds of successive episodes: ``reset(seed=s)`` plays grimoire seed ``s``; a reset without
    a seed plays the next one of the sequence (``s + 1``, ``s + 2``, ... after the last explicit seed or
    the constructor's; a random start when neither was given)."""

    def __init__(self, seed: int | None):
        self._next = seed

    def next(self, seed: int | None) -> int:
        if seed is None:
            seed = self._next
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "little")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise GameConfigError(f"seed must be a whole number from 0 to {MAX_SEED}, not {seed!r}")
        self._next = (seed + 1) % (MAX_SEED + 1)
        return seed


def action_index(action: Any, num_actions: int) -> int | None:
    """An action id given as a Python or NumPy integer (or a 0-d/size-1 array); None if it is none."""
    import numpy as np
    if isinstance(action, (bool, np.bool_)):
        return None
    if isinstance(action, np.ndarray):
        if action.size != 1 or not np.issubdtype(action.dtype, np.integer):
            return None
        action = action.reshape(()).item()
    if isinstance(action, (int, np.integer)):
        i = int(action)
        return i if 0 <= i < num_actions else None
    return None
