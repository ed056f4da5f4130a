"""Reinforcement-learning adapters for every game that declares an action codec and a tensor.

    import grimoire.rl as rl
    env = rl.pettingzoo_env(name, players=4, seed=1)                    # PettingZoo AEC, masked
    penv = rl.pettingzoo_parallel_env(name, players=4)                  # turn-based parallel form
    genv = rl.gymnasium_env(name, players=2, opponents="medium")        # Gymnasium, one seat
    venv = rl.vector_env(name, num_envs=64, players=4, seed=0)          # Gymnasium VectorEnv, batched
    senv = rl.selfplay_vector_env(name, num_envs=64, players=4)         # batched self-play
    game = rl.openspiel_game(name, players=3)                            # pyspiel.Game

(``name``: any game of ``grimoire.games()`` that declares a codec and a tensor; docs/rl.md.)

The adapters import their library (pettingzoo, gymnasium: the ``rl`` extra) when they are used;
importing this package registers ``grimoire_<name>`` with OpenSpiel when it is installed.
Semantics and encodings: docs/rl.md.
"""

from __future__ import annotations

from typing import Any

from .common import is_learnable, learnable_games

try:    # registers grimoire_<name> with pyspiel, so that pyspiel.load_game finds the games
    from . import openspiel_bridge as _openspiel_bridge  # noqa: F401
except ModuleNotFoundError as e:   # OpenSpiel is not installed: the other adapters still work
    if e.name != "pyspiel":
        raise


def pettingzoo_env(game: str, players: int | None = None, seed: int | None = None,
                   render_mode: str | None = None, **options: Any):
    """A PettingZoo AEC environment, wrapped as PettingZoo's classic games (``env.unwrapped`` is the
    ``GrimoireAECEnv``). ``backend="native"`` plays on the game's compiled engine."""
    from .pettingzoo_aec import pettingzoo_env as make
    return make(game, players, seed, render_mode, **options)


def pettingzoo_raw_env(game: str, players: int | None = None, seed: int | None = None,
                       render_mode: str | None = None, **options: Any):
    """The unwrapped ``GrimoireAECEnv`` (an illegal id raises; action texts are accepted)."""
    from .pettingzoo_aec import raw_env as make
    return make(game, players, seed, render_mode, **options)


def pettingzoo_parallel_env(game: str, players: int | None = None, seed: int | None = None,
                            render_mode: str | None = None, **options: Any):
    """The turn-based parallel form of ``pettingzoo_env`` (PettingZoo's ``turn_based_aec_to_parallel``)."""
    from .pettingzoo_aec import parallel_env as make
    return make(game, players, seed, render_mode, **options)


def gymnasium_env(game: str, players: int | None = None, **kwargs: Any):
    """A Gymnasium environment for one learning seat (``GrimoireGymEnv``)."""
    from .gymnasium_seat import GrimoireGymEnv
    return GrimoireGymEnv(game, players, **kwargs)


def vector_env(game: str, num_envs: int = 8, players: int | None = None, **kwargs: Any):
    """A Gymnasium ``VectorEnv`` of ``num_envs`` games with one learning seat each (``GrimoireVectorEnv``;
    sub-env i is ``gymnasium_env(...)`` reset with ``seed + i``). On a batched engine (a ``backend``
    whose descriptor entry has ``batch``) with random opponents the batch steps in one call of the core."""
    from .vector import GrimoireVectorEnv
    return GrimoireVectorEnv(game, num_envs, players, **kwargs)


def selfplay_vector_env(game: str, num_envs: int = 8, players: int | None = None, **kwargs: Any):
    """``num_envs`` games in which the caller decides for every seat (``SelfPlayVectorEnv``)."""
    from .vector import SelfPlayVectorEnv
    return SelfPlayVectorEnv(game, num_envs, players, **kwargs)


def openspiel_game(game: str, players: int | None = None, **params: Any):
    """The game as a ``pyspiel.Game`` (registered as ``grimoire_<game>``)."""
    from .openspiel_bridge import openspiel_game as make
    return make(game, players, **params)


def openspiel_resampler(seed: int = 0):
    """A seeded resampler for OpenSpiel's Python ``ISMCTSBot.set_resampler``."""
    from .openspiel_bridge import openspiel_resampler as make
    return make(seed)


def register_openspiel(games: list[str] | None = None) -> list[str]:
    """Register ``grimoire_<name>`` with pyspiel (default: every game with a codec and a tensor)."""
    from .openspiel_bridge import register_openspiel as register
    return register(games)


def register_gymnasium(games: list[str] | None = None) -> list[str]:
    """Register ``grimoire/<name>-v0`` with Gymnasium (default: every game with a codec and a tensor)."""
    from .gymnasium_seat import register_gymnasium as register
    return register(games)


__all__ = ["gymnasium_env", "is_learnable", "learnable_games", "openspiel_game", "openspiel_resampler",
           "pettingzoo_env", "pettingzoo_parallel_env", "pettingzoo_raw_env", "register_gymnasium",
           "register_openspiel", "selfplay_vector_env", "vector_env"]
