"""A Gymnasium environment in which one seat learns and named agents play the other seats.

Observation: ``{"observation": float32 tensor, "action_mask": int8 mask}`` (``observation="dict"``,
the default) or the tensor alone (``observation="flat"``); the mask is always in
``info["action_mask"]`` and ``env.action_masks()`` too (what sb3-contrib's MaskablePPO reads).

Invalid actions (an id outside the mask) follow the convention of Gymnasium's toy-text
environments (Taxi: an impossible move is a no-op with a penalty): the game is left exactly as it
was, the step returns the same observation, ``invalid_action_reward`` (default -1) and
``info["invalid_action"] = True``. Every step counts towards the truncation limit (the game's
length bound), so an agent that keeps choosing invalid actions is truncated instead of looping.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..core.episode import derive_seed
from ..core.errors import GameConfigError
from ..core.state import GameState
from .common import (
    SeedSequence,
    Setup,
    action_index,
    make_setup,
    mask_of,
    observation_box,
    render_text,
    tensor_of,
)


class GrimoireGymEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, game: str, players: int | None = None, *, seat: int = 0,
                 opponents: str | Sequence[str] = "random", seed: int | None = None,
                 observation: str = "dict", invalid_action_reward: float = -1.0,
                 render_mode: str | None = None, backend: str | None = None, **options: Any):
        super().__init__()
        self.setup: Setup = make_setup(game, players, options, backend)
        n = self.setup.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise GameConfigError(f"seat must be one of 0..{n - 1}, not {seat!r}")
        self.seat = seat
        self.opponent_names = self._opponent_names(opponents, n, seat)
        from ..agents import make_agent
        for name in set(self.opponent_names.values()):
            make_agent(game, name, 0)         # an unknown name fails here, not at the first reset
        if observation not in ("dict", "flat"):
            raise GameConfigError(f"observation is 'dict' or 'flat', not {observation!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise GameConfigError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.observation_kind = observation
        self.invalid_action_reward = float(invalid_action_reward)
        obs_box = observation_box(self.setup)
        self._size = int(np.prod(self.setup.obs_shape))
        if observation == "dict":
            mask_box = spaces.Box(0, 1, shape=(self.setup.num_actions,), dtype=np.int8)
            self.observation_space = spaces.Dict({"observation": obs_box, "action_mask": mask_box})
        else:
            self.observation_space = obs_box
        self.action_space = spaces.Discrete(self.setup.num_actions)
        self._seeds = SeedSequence(seed)
        self.game_state: GameState | None = None
        self.opponents: dict[int, Any] = {}
        self._steps = 0
        self._done = True
        self._mask_now = np.zeros(self.setup.num_actions, dtype=np.int8)

    @staticmethod
    def _opponent_names(opponents: str | Sequence[str], n: int, seat: int) -> dict[int, str]:
        others = [s for s in range(n) if s != seat]
        if isinstance(opponents, str):
            return {s: opponents for s in others}
        names = list(opponents)
        if len(names) == n:             # one per seat, the learner's entry ignored
            return {s: names[s] for s in others}
        if len(names) != len(others):
            raise GameConfigError(f"give one opponent name, or {len(others)} (the other seats), not {len(names)}")
        return dict(zip(others, names, strict=True))

    # --- episode --------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """A new game with grimoire seed ``seed`` (a reset without one plays the next seed); the
        opponents' agents are seeded from it (``derive_seed(seed, "opponent", seat)``). ``options``
        is accepted for the API and ignored (game options are fixed when the environment is made)."""
        super().reset(seed=seed)
        game_seed = self._seeds.next(seed)
        from ..agents import make_agent
        self.opponents = {s: make_agent(self.setup.name, name, derive_seed(game_seed, "opponent", s))
                          for s, name in self.opponent_names.items()}
        self.game_state = self.setup.new_state(game_seed)
        self._steps = 0
        self._actions = 0
        self._done = False
        self._play_opponents()
        return self._obs_info()

    def step(self, action: Any):
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        st = self._state()                  # (a game is going on: not _done)
        self._steps += 1
        n = self.setup.num_actions
        i = action if type(action) is int and 0 <= action < n else action_index(action, n)
        if i is None or not self._mask_now[i]:
            obs, info = self._obs_info(self._mask_now.copy())
            info["invalid_action"] = True
            return obs, self.invalid_action_reward, False, self._done, info
        st.apply(st.action_from_id(i))
        self._actions += 1
        if st.current_player != self.seat:
            self._play_opponents()
        terminated = st.is_terminal()
        reward = float(st.returns()[self.seat]) if terminated else 0.0
        obs, info = self._obs_info()
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, self._done and not terminated, info

    def _play_opponents(self) -> None:
        st = self._state()
        limit = self.setup.step_limit
        while not st.is_terminal() and st.current_player != self.seat:
            if limit is not None and self._actions >= limit:
                return
            seat = st.current_player
            assert seat is not None                 # (the game goes on)
            st.apply(self.opponents[seat].choose(st, seat))
            self._actions += 1

    # --- observations ---------------------------------------------------------------------------------
    def _mask(self) -> np.ndarray:
        st = self._state()
        if st.current_player == self.seat:
            return mask_of(st, self.setup.num_actions)
        return np.zeros(self.setup.num_actions, dtype=np.int8)

    def _obs_info(self, mask: np.ndarray | None = None) -> tuple[Any, dict[str, Any]]:
        """The observation and info of the learner, in new arrays (callers keep them; obs and info
        share the mask, by default the state's). A copy of the mask checks the next action; the
        episode is over when the game is, or when the actions or steps reach the length bound."""
        st = self._state()
        tensor = tensor_of(st, self.seat, self._size)     # before the mask: see PettingZoo's observe
        if mask is None:
            mask = self._mask()
        self._mask_now = mask.copy()
        info: dict[str, Any] = {"action_mask": mask}
        limit = self.setup.step_limit
        if st.is_terminal():
            info["returns"] = [float(r) for r in st.returns()]
            self._done = True
        elif limit is not None and (self._actions >= limit or self._steps >= limit):
            self._done = True
        if self.observation_kind == "flat":
            return tensor, info
        return {"observation": tensor, "action_mask": mask}, info

    def action_masks(self) -> np.ndarray:
        """The legal ids of the learner as booleans (the hook sb3-contrib's MaskablePPO calls)."""
        self._state()
        return self._mask_now.astype(bool)

    def render(self) -> str | None:
        """The learner's board as the terminal shows it (``grimoire play``): returned (ansi) or printed."""
        if self.game_state is None:
            return None
        line = render_text(self.game_state, self.seat)
        if self.render_mode == "human":
            print(line)
            return None
        return line

    def _state(self) -> GameState:
        if self.game_state is None:
            raise RuntimeError("call reset() before step()")
        return self.game_state


def env_id(game: str) -> str:
    return f"grimoire/{game}-v0"


def register_gymnasium(games: Sequence[str] | None = None) -> list[str]:
    """Register ``grimoire/<game>-v0`` with Gymnasium for these games (default: every game with a
    codec and a tensor), so that ``gymnasium.make("grimoire/<game>-v0", players=2)`` works."""
    from .common import learnable_games
    ids = []
    for game in (learnable_games() if games is None else games):
        gid = env_id(game)
        if gid not in gymnasium.registry:
            gymnasium.register(gid, entry_point=f"{__name__}:GrimoireGymEnv", kwargs={"game": game})
        ids.append(gid)
    return ids


register_gymnasium()
