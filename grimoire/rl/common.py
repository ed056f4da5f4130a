"""What the three adapters share: the game's setup for learning and the seeds of episodes."""

from __future__ import annotations

import operator
import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.episode import derive_seed
from ..core.errors import GameConfigError
from ..core.registry import MAX_SEED, GameInfo, game_info, new_game, with_round_cap
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
    backend: str | None = None          # the engine (new_game's backend): None is the Python reference

    @property
    def name(self) -> str:
        return self.info.name

    def new_state(self, seed: int) -> GameState:
        return new_game(self.name, self.players, seed, backend=self.backend, **self.options)


def make_setup(game: str, players: int | None, options: dict[str, Any], backend: str | None = None) -> Setup:
    """Check that the game can be learned, its options and the engine. The game's round cap is applied
    as ``max_rounds`` when none is given (as OpenSpiel and the CLI do: random play of some games
    never ends by the rules alone), so every episode ends with a scored termination; the truncation
    limit (the game's length bound) stays as a safety net for games without a round cap."""
    info = game_info(game)
    if not is_learnable(info):
        missing = " and ".join(x for x, v in (("an action codec", info.codec), ("an observation tensor", info.tensor))
                               if v is None)
        raise GameConfigError(f"{info.title} declares no {missing}: the RL adapters need both")
    if players is None:
        players = info.default_players
    opts = info.validate(players, with_round_cap(info, dict(options)))
    if backend not in (None, "python"):
        new_game(game, players, 0, backend=backend, **opts)     # an unknown or unbuilt engine: its one-line error
    limit = info.game_length_bound(players, opts) if info.max_game_length is not None else None
    return Setup(info, players, opts, info.num_distinct_actions, info.observation_shape(players, opts), limit,
                 backend)


def episode_seed(seed: int, episode: int) -> int:
    """The grimoire seed of episode ``episode`` (0, 1, ...) after ``reset(seed=seed)``: ``seed`` itself
    for the first, then ``derive_seed(seed, "episode", k)``. Vectorized environments seed sub-env
    ``i`` with ``seed + i``; with ``seed + k`` for the k-th episode (the old scheme) sub-env ``i``'s
    second episode was sub-env ``i + 1``'s first, and so on: most deals were played several times."""
    return seed if episode == 0 else derive_seed(seed, "episode", episode)


class SeedSequence:
    """Game seeds of successive episodes: ``reset(seed=s)`` plays grimoire seed ``s``; each reset
    without a seed plays the next episode of that sequence, ``episode_seed(s, k)`` (the constructor's
    seed starts a sequence too; a random start when neither was given)."""

    def __init__(self, seed: int | None):
        self._base = None if seed is None else self._checked(seed)
        self._episode = -1

    @staticmethod
    def _checked(seed: Any) -> int:
        if not isinstance(seed, (bool, int)) and hasattr(seed, "__index__"):
            seed = operator.index(seed)         # a NumPy integer (vector wrappers compute seeds)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise GameConfigError(f"seed must be a whole number from 0 to {MAX_SEED}, not {seed!r}")
        return seed

    def next(self, seed: int | None) -> int:
        if seed is not None:
            self._base, self._episode = self._checked(seed), 0
        elif self._base is None:
            self._base, self._episode = int.from_bytes(os.urandom(4), "little"), 0
        else:
            self._episode += 1
        return episode_seed(self._base, self._episode)


def action_index(action: Any, num_actions: int) -> int | None:
    """An action id given as a Python or NumPy integer (or a 0-d/size-1 array); None if it is none."""
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


def tensor_of(state: GameState, seat: int | None, size: int) -> np.ndarray:
    """The seat's observation tensor in a new float32 array, written by the game straight into it
    (``observation_tensor_into``: no observation dict where the game writes its tensor itself)."""
    out = np.empty(size, np.float32)
    state.observation_tensor_into(seat, out)
    return out


def mask_of(state: GameState, num_actions: int) -> np.ndarray:
    """The legal-id mask in a new int8 array (``legal_mask_into``)."""
    out = np.empty(num_actions, np.int8)
    state.legal_mask_into(out)
    return out


def observation_box(setup: Setup):
    """The tensor's Box with the bounds the game declares for each field (``TensorField.low/high``)."""
    from gymnasium import spaces
    low, high = setup.info.tensor_spec(setup.players, setup.options).bounds()
    return spaces.Box(low, high, shape=setup.obs_shape, dtype=np.float32)


RENDER_WIDTH = 80      # the terminal's width (the compact boards fit 80 columns)


def render_text(state: GameState, seat: int | None) -> str:
    """The game's terminal board of ``seat``'s view (the spectator's for None) as plain text, the
    same renderer as ``grimoire play`` (English)."""
    import io

    from rich.console import Console

    from ..cli.render import render
    buf = io.StringIO()
    console = Console(file=buf, width=RENDER_WIDTH, color_system=None, force_terminal=False,
                      legacy_windows=False)
    console.print(render(state.game, state.observation(seat), seat, None, width=RENDER_WIDTH))
    return buf.getvalue()
