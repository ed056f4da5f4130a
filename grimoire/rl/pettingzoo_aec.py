"""A PettingZoo AEC environment for every game with an action codec and an observation tensor.

``pettingzoo_env`` is wrapped as PettingZoo's classic games are (an illegal id ends the game with
reward -1 for the agent that chose it, out-of-bounds ids are asserted, the call order is enforced);
``raw_env`` is the environment itself; ``parallel_env`` the turn-based parallel form.

Agents are ``player_0 .. player_{n-1}`` (the seats). ``observe(agent)`` is
``{"observation": float32 tensor of the seat's view, "action_mask": int8 mask}``; the mask is all
zero for every agent but the one to act. Rewards come only at the end: each seat's
``state.returns()`` (a share of the win, or the score alone). Without ``max_rounds`` the game's round
cap applies; the game is truncated (all agents) only if it reaches its length bound without ending.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from ..core.errors import IllegalAction
from ..core.state import GameState
from .common import SeedSequence, Setup, action_index, make_setup, mask_of, observation_box, render_text, tensor_of


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class GrimoireAECEnv(AECEnv):
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "grimoire_v0", "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, seed: int | None = None,
                 render_mode: str | None = None, *, backend: str | None = None, **options: Any):
        super().__init__()
        self.setup: Setup = make_setup(game, players, options, backend)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"grimoire_{game}_v0")
        n = self.setup.players
        self.possible_agents = [agent_name(i) for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_box = observation_box(self.setup)
        self._size = int(np.prod(self.setup.obs_shape))
        mask_box = spaces.Box(0, 1, shape=(self.setup.num_actions,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": obs_box, "action_mask": mask_box})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.setup.num_actions) for a in self.possible_agents}
        self._seeds = SeedSequence(seed)
        self.game_state: GameState | None = None
        self.agents: list[str] = []

    # --- spaces ---------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- episode --------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: ``seed`` is its grimoire seed (see SeedSequence). ``options`` is accepted for
        the API and ignored: game options are fixed when the environment is made."""
        self.game_state = st = self.setup.new_state(self._seeds.next(seed))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._actions = 0
        self._skip_agent_selection = None
        cp = st.current_player
        assert cp is not None                       # (a new game is not over)
        self.agent_selection = self.possible_agents[cp]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        st = self._state()
        seat = self._seat[agent]
        # the tensor first: a game may mark the objects it encodes as it writes (which are unchanged
        # since), and its listing then reads them all in the state the writer left them (faster)
        obs = tensor_of(st, seat, self._size)
        if seat == st.current_player:
            mask = mask_of(st, self.setup.num_actions)
        else:
            mask = np.zeros(self.setup.num_actions, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play the selected agent's action: an id whose mask entry is 1 (or, as an extension, an
        action text such as "bid 45"). An illegal action raises IllegalAction and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self._state()
        if isinstance(action, str):
            act = st.parse_action(action)
        else:
            i = action if type(action) is int and 0 <= action < self.setup.num_actions else \
                action_index(action, self.setup.num_actions)
            if i is None:
                raise IllegalAction(f"{action!r} is not an action id (0..{self.setup.num_actions - 1})")
            act = st.action_from_id(i)
        st.apply(act)        # checks legality; an illegal action leaves the game as it was
        self._actions += 1
        self._cumulative_rewards[agent] = 0.0
        if st.is_terminal():
            for a, r in zip(self.possible_agents, st.returns(), strict=True):
                self.rewards[a] = float(r)
                self.terminations[a] = True
            self._accumulate_rewards()
        else:                # rewards stay 0 until the end: nothing to accumulate
            limit = self.setup.step_limit
            if limit is not None and self._actions >= limit:
                for a in self.agents:
                    self.truncations[a] = True
            else:
                cp = st.current_player
                assert cp is not None               # (the game goes on)
                self.agent_selection = self.possible_agents[cp]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The spectator's board as the terminal shows it (``grimoire play``): returned (ansi) or printed."""
        if self.game_state is None:
            return None
        line = render_text(self.game_state, None)
        if self.render_mode == "human":
            print(line)
            return None
        return line

    def close(self) -> None:
        pass

    def _state(self) -> GameState:
        if self.game_state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game_state


def raw_env(game: str, players: int | None = None, seed: int | None = None,
            render_mode: str | None = None, **options: Any) -> GrimoireAECEnv:
    """The AEC environment without wrappers: an illegal id raises IllegalAction and changes nothing,
    and ``step`` also takes an action text ("bid 45")."""
    return GrimoireAECEnv(game, players, seed, render_mode, **options)


def pettingzoo_env(game: str, players: int | None = None, seed: int | None = None,
                   render_mode: str | None = None, **options: Any) -> AECEnv:
    """A PettingZoo AEC environment of a game (options as for ``grimoire.new_game``, ``backend`` as
    well), wrapped as PettingZoo's classic environments are: ``TerminateIllegalWrapper`` (an id outside
    the mask ends the game, reward -1 for its agent and 0 for the others), ``AssertOutOfBoundsWrapper``
    and ``OrderEnforcingWrapper``. ``env.unwrapped`` is the ``GrimoireAECEnv``."""
    env: AECEnv = raw_env(game, players, seed, render_mode, **options)
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def parallel_env(game: str, players: int | None = None, seed: int | None = None,
                 render_mode: str | None = None, **options: Any) -> ParallelEnv:
    """The turn-based parallel form (PettingZoo's ``turn_based_aec_to_parallel`` of ``pettingzoo_env``):
    every step takes a dict of actions and plays only the acting agent's (``infos[a]["active_agent"]``
    names it; the other agents' masks are all zero)."""
    return turn_based_aec_to_parallel(pettingzoo_env(game, players, seed, render_mode, **options))
