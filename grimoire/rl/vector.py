"""Batched environments: many games stepped per call, results in NumPy arrays (docs/rl.md,
"Training at speed").

- ``GrimoireVectorEnv`` is Gymnasium's ``VectorEnv`` for one learning seat (autoreset NEXT_STEP, as
  Gymnasium defines it). Sub-env ``i`` is exactly ``rl.gymnasium_env(...)`` reset with ``seed + i``:
  the same episode seeds, opponents, invalid-action and truncation rules.
- ``SelfPlayVectorEnv`` is the multi-agent form: every decision is the caller's; the observation and
  mask are the deciding seat's, the rewards one per seat.

Where the game has a batched engine (``Backend.batch``, e.g. a game's native core) and the opponents
are random, the whole batch steps in one call of the core with the GIL released. Otherwise the games
are stepped one by one in Python, each writing its tensor and mask straight into the batch's rows.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ..core.errors import GameConfigError
from ..core.registry import MAX_SEED, _backend
from .common import SeedSequence, Setup, make_setup, observation_box


class _Buffers:
    """The batch's arrays, written in place every step (terminated/truncated as uint8 with bool views)."""

    def __init__(self, n: int, size: int, num_actions: int, rewards: int):
        self.obs = np.zeros((n, size), np.float32)
        self.mask = np.zeros((n, num_actions), np.int8)
        self.rewards = np.zeros((n, rewards) if rewards > 1 else (n,), np.float32)
        self.term8 = np.zeros(n, np.uint8)
        self.trunc8 = np.zeros(n, np.uint8)
        self.to_move = np.full(n, -1, np.int64)
        self.terminated = self.term8.view(np.bool_)
        self.truncated = self.trunc8.view(np.bool_)

    def args(self) -> tuple:
        return self.obs, self.mask, self.rewards, self.term8, self.trunc8, self.to_move


def _seeds(seed: int | Sequence[int] | None, n: int) -> list[int] | None:
    """Per-env seeds: an int gives ``seed + i`` (as Gymnasium's vector envs do), a list one each."""
    if seed is None:
        return None
    if isinstance(seed, bool):
        raise GameConfigError(f"seed must be a whole number, not {seed!r}")
    if isinstance(seed, (int, np.integer)):
        seeds = [int(seed) + i for i in range(n)]
    else:
        seeds = [int(x) for x in seed]
        if len(seeds) != n:
            raise GameConfigError(f"give one seed per environment ({n}), not {len(seeds)}")
    for s in seeds:
        SeedSequence._checked(s)
    if seeds[-1] > MAX_SEED:
        raise GameConfigError(f"seed + i must stay within 0..{MAX_SEED}")
    return seeds


def _random_seeds(n: int) -> list[int]:
    base = int.from_bytes(os.urandom(4), "little") % (MAX_SEED - n)
    return [base + i for i in range(n)]


def _key_ints() -> tuple[int, int]:
    from ..core.episode import _key_int
    return _key_int("episode"), _key_int("opponent")


class _PyBatch:
    """The batch on the Python engines: one game after the other (the same rules as the core's Batch)."""

    def __init__(self, setup: Setup, n: int, seat: int | None, opponents: dict[int, str], invalid_reward: float):
        self.setup, self.seat, self.invalid_reward = setup, seat, invalid_reward
        self.opponent_names = opponents
        self.seq = [SeedSequence(None) for _ in range(n)]
        self.states: list[Any] = [None] * n
        self.agents: list[dict[int, Any]] = [{} for _ in range(n)]
        self.steps = [0] * n
        self.actions = [0] * n
        self.done = [True] * n

    def reset(self, seeds: list[int] | None, obs, mask, rewards, term, trunc, to_move) -> None:
        for i in range(len(self.states)):
            self._reset(i, None if seeds is None else seeds[i], obs, mask, rewards, term, trunc, to_move)

    def _reset(self, i: int, seed: int | None, obs, mask, rewards, term, trunc, to_move) -> None:
        from ..agents import make_agent
        from ..core.episode import derive_seed
        game_seed = self.seq[i].next(seed)
        self.agents[i] = {s: make_agent(self.setup.name, name, derive_seed(game_seed, "opponent", s))
                          for s, name in self.opponent_names.items()}
        self.states[i] = self.setup.new_state(game_seed)
        self.steps[i] = self.actions[i] = 0
        self.done[i] = False
        self._play(i)
        rewards[i] = 0.0
        term[i] = trunc[i] = 0
        self._observe(i, obs, mask, to_move)

    def _play(self, i: int) -> None:
        if self.seat is None:
            return
        st, limit, agents = self.states[i], self.setup.step_limit, self.agents[i]
        while not st.is_terminal() and st.current_player != self.seat:
            if limit is not None and self.actions[i] >= limit:
                return
            cp = st.current_player
            st.apply(agents[cp].choose(st, cp))
            self.actions[i] += 1

    def _observe(self, i: int, obs, mask, to_move) -> None:
        st = self.states[i]
        cp = st.current_player
        seat = self.seat if self.seat is not None else (0 if cp is None else cp)
        st.observation_tensor_into(seat, obs[i])
        if cp == seat:
            st.legal_mask_into(mask[i])
        else:
            mask[i] = 0
        to_move[i] = -1 if cp is None else cp
        limit = self.setup.step_limit
        if st.is_terminal() or (limit is not None and (self.actions[i] >= limit or self.steps[i] >= limit)):
            self.done[i] = True

    def step(self, actions, obs, mask, rewards, term, trunc, to_move) -> None:
        n_ids = self.setup.num_actions
        for i in range(len(self.states)):
            if self.done[i]:
                self._reset(i, None, obs, mask, rewards, term, trunc, to_move)
                continue
            st = self.states[i]
            self.steps[i] += 1
            rewards[i] = 0.0
            a = int(actions[i])
            if not (0 <= a < n_ids and mask[i, a]):
                cp = st.current_player
                if self.seat is not None:
                    rewards[i] = self.invalid_reward
                elif cp is not None:
                    rewards[i, cp] = self.invalid_reward
                self._observe(i, obs, mask, to_move)
                term[i], trunc[i] = 0, self.done[i]
                continue
            st.apply(st.action_from_id(a))
            self.actions[i] += 1
            if self.seat is not None and st.current_player != self.seat:
                self._play(i)
            t = st.is_terminal()
            if t:
                ret = st.returns()
                if self.seat is not None:
                    rewards[i] = ret[self.seat]
                else:
                    rewards[i] = ret
            self._observe(i, obs, mask, to_move)
            term[i], trunc[i] = t, self.done[i] and not t

    def game_seeds(self) -> list[int]:
        return [s.seed for s in self.states]


def _make_batch(setup: Setup, n: int, seat: int | None, opponents: dict[int, str], invalid_reward: float):
    """The core's batch where the engine has one and every opponent is random, else the Python one."""
    eng = _backend(setup.info, setup.backend) if setup.backend not in (None, "python") else None
    make = getattr(eng, "batch", None)
    if make is not None and all(v == "random" for v in opponents.values()):
        ke, ko = _key_ints()
        return make(n, setup.players, setup.options, seat, setup.step_limit, invalid_reward, ke, ko)
    return _PyBatch(setup, n, seat, opponents, invalid_reward)


def _opponents(opponents: str | Sequence[str], n: int, seat: int) -> dict[int, str]:
    from .gymnasium_seat import GrimoireGymEnv
    return GrimoireGymEnv._opponent_names(opponents, n, seat)


class GrimoireVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games, one learning seat each, as one Gymnasium ``VectorEnv`` (NEXT_STEP autoreset:
    the step after an episode's last only resets that game; the observation and all-zero mask of the
    last step belong to the ended game). ``info["action_mask"]`` holds the masks; ``copy=False``
    returns the batch's own arrays (overwritten by the next step) instead of copies."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, game: str, num_envs: int = 8, players: int | None = None, *, seat: int = 0,
                 opponents: str | Sequence[str] = "random", seed: int | None = None, observation: str = "dict",
                 invalid_action_reward: float = -1.0, backend: str | None = None, copy: bool = True,
                 **options: Any):
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise GameConfigError(f"num_envs must be a whole number from 1, not {num_envs!r}")
        self.setup = make_setup(game, players, options, backend)
        p = self.setup.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < p:
            raise GameConfigError(f"seat must be one of 0..{p - 1}, not {seat!r}")
        if observation not in ("dict", "flat"):
            raise GameConfigError(f"observation is 'dict' or 'flat', not {observation!r}")
        opp = _opponents(opponents, p, seat)
        from ..agents import make_agent
        for name in set(opp.values()):
            make_agent(game, name, 0)
        self.num_envs = num_envs
        self.seat = seat
        self.copy = copy
        self.observation_kind = observation
        self._start = _seeds(seed, num_envs)
        self._core = _make_batch(self.setup, num_envs, seat, opp, float(invalid_action_reward))
        na = self.setup.num_actions
        self._buf = _Buffers(num_envs, int(np.prod(self.setup.obs_shape)), na, 1)
        obs_box = observation_box(self.setup)
        mask_box = spaces.Box(0, 1, shape=(na,), dtype=np.int8)
        self.single_observation_space = (spaces.Dict({"observation": obs_box, "action_mask": mask_box})
                                         if observation == "dict" else obs_box)
        self.single_action_space = spaces.Discrete(na)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._actions = np.zeros(num_envs, np.int64)
        self._reset_once = False

    @property
    def native(self) -> bool:
        """Whether the batch steps inside a compiled core (one call per step)."""
        return not isinstance(self._core, _PyBatch)

    def reset(self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None):
        """Every game anew: sub-env ``i`` plays seed ``seed + i`` (or ``seed[i]``); without a seed each
        plays the next episode of its sequence (the first reset: the constructor's seed, else random)."""
        seeds = _seeds(seed, self.num_envs)
        if seeds is None and not self._reset_once:
            seeds = self._start if self._start is not None else _random_seeds(self.num_envs)
        self._reset_once = True
        self._core.reset(seeds, *self._buf.args())
        obs, info = self._out()
        return obs, info

    def step(self, actions: Any):
        if not self._reset_once:
            raise RuntimeError("call reset() before step()")
        a = self._actions
        a[:] = np.asarray(actions).reshape(self.num_envs)
        self._core.step(a, *self._buf.args())
        obs, info = self._out()
        b = self._buf
        rewards = b.rewards.astype(np.float64)
        term, trunc = (b.terminated.copy(), b.truncated.copy()) if self.copy else (b.terminated, b.truncated)
        return obs, rewards, term, trunc, info

    def _out(self) -> tuple[Any, dict[str, Any]]:
        b = self._buf
        obs, mask = (b.obs.copy(), b.mask.copy()) if self.copy else (b.obs, b.mask)
        info = {"action_mask": mask, "_action_mask": np.ones(self.num_envs, np.bool_)}
        if self.observation_kind == "flat":
            return obs, info
        return {"observation": obs, "action_mask": mask}, info

    def action_masks(self) -> np.ndarray:
        """The current masks as booleans [num_envs, ids]."""
        return self._buf.mask.astype(bool)

    def game_seeds(self) -> list[int]:
        """The grimoire seed each sub-env plays now (``grimoire.new_game(game, players, seed, ...)``)."""
        return list(self._core.game_seeds())


class SelfPlayVectorEnv:
    """``num_envs`` games in which the caller decides for every seat (self-play). ``reset`` returns
    ``(obs, mask, to_move)``; ``step(actions)`` returns ``(obs, mask, rewards, terminated, truncated,
    to_move)``: obs [N, size] float32 of the seat to decide (seat 0 once the game is over), mask
    [N, ids] int8, rewards [N, players] float32 (each seat's return at the end), terminated and
    truncated [N] bool, to_move [N] int64 (-1: nobody). Autoreset NEXT_STEP as in the vector env.
    The arrays are the batch's own (overwritten by the next step)."""

    def __init__(self, game: str, num_envs: int = 8, players: int | None = None, *, seed: int | None = None,
                 invalid_action_reward: float = -1.0, backend: str | None = None, **options: Any):
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise GameConfigError(f"num_envs must be a whole number from 1, not {num_envs!r}")
        self.setup = make_setup(game, players, options, backend)
        self.num_envs = num_envs
        self.players = self.setup.players
        self._start = _seeds(seed, num_envs)
        self._core = _make_batch(self.setup, num_envs, None, {}, float(invalid_action_reward))
        self._buf = _Buffers(num_envs, int(np.prod(self.setup.obs_shape)), self.setup.num_actions, self.players)
        if self.players == 1:
            self._buf.rewards = self._buf.rewards.reshape(num_envs, 1)
        self._actions = np.zeros(num_envs, np.int64)
        self._reset_once = False

    @property
    def native(self) -> bool:
        return not isinstance(self._core, _PyBatch)

    def reset(self, seed: int | Sequence[int] | None = None):
        seeds = _seeds(seed, self.num_envs)
        if seeds is None and not self._reset_once:
            seeds = self._start if self._start is not None else _random_seeds(self.num_envs)
        self._reset_once = True
        self._core.reset(seeds, *self._buf.args())
        b = self._buf
        return b.obs, b.mask, b.to_move

    def step(self, actions: Any):
        if not self._reset_once:
            raise RuntimeError("call reset() before step()")
        self._actions[:] = np.asarray(actions).reshape(self.num_envs)
        b = self._buf
        self._core.step(self._actions, *b.args())
        return b.obs, b.mask, b.rewards, b.terminated, b.truncated, b.to_move

    def game_seeds(self) -> list[int]:
        return list(self._core.game_seeds())
