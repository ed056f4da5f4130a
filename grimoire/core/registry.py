"""The game registry. Games register themselves; the core never imports a game."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import GameConfigError, GrimoireError
from .state import GameState


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: str
    new: Callable[..., GameState]          # new(players, seed, **options) -> state
    load: Callable[[dict], GameState]      # load(to_dict output) -> state
    player_counts: tuple[int, ...]
    default_players: int
    options_help: dict[str, str] = field(default_factory=dict)
    # conformance: extra action texts worth probing (e.g. the whole vocabulary) for a state
    probe_texts: Callable[[GameState], list[str]] | None = None
    # rules help topics: name -> text
    rules_topics: Callable[[], dict[str, str]] | None = None
    # options the conformance suite adds to keep random games short (e.g. {"max_rounds": 12})
    conformance_options: dict[str, Any] = field(default_factory=dict)
    # game-specific agents: name -> factory(seed) -> Agent (e.g. {"greedy": GreedyAgent})
    agents: dict[str, Callable[[int], Any]] = field(default_factory=dict)
    # the game's fixed tables as JSON-safe data, for interfaces (costs, minimum bids, VP, ...)
    static_data: Callable[[], dict[str, Any]] | None = None


_GAMES: dict[str, GameInfo] = {}


def register(info: GameInfo) -> None:
    _GAMES[info.name] = info


def games() -> list[str]:
    return sorted(_GAMES)


def game_info(name: str) -> GameInfo:
    if not isinstance(name, str) or name not in _GAMES:
        known = ", ".join(games()) or "none"
        raise GameConfigError(f"unknown game {name!r}; available: {known}")
    return _GAMES[name]


def new_game(name: str, players: int | None = None, seed: int | None = None, **options: Any) -> GameState:
    info = game_info(name)
    if players is None:
        players = info.default_players
    if isinstance(players, bool) or not isinstance(players, int):
        raise GameConfigError(f"players must be a whole number, not {players!r}")
    if players not in info.player_counts:
        counts = info.player_counts
        allowed = (f"{counts[0]}-{counts[-1]}" if counts == tuple(range(counts[0], counts[-1] + 1))
                   else ", ".join(map(str, counts)))
        raise GameConfigError(f"{info.title} is played by {allowed} players, not {players}")
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise GameConfigError(f"seed must be a non-negative whole number, not {seed!r}")
    return info.new(players, seed, **options)


def load_game(d: dict) -> GameState:
    """Inverse of ``state.to_dict()``. A damaged dict raises GameConfigError, never anything else."""
    if not isinstance(d, dict):
        raise GameConfigError("a saved game must be a JSON object")
    info = game_info(d.get("game"))
    try:
        return info.load(d)
    except GrimoireError as e:
        raise GameConfigError(f"corrupt saved game: {e}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise GameConfigError(f"corrupt saved game: {type(e).__name__}: {e}") from None
