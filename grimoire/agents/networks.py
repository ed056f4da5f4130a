"""The networks games ship for the ``expert`` level (``GameInfo.networks``), loaded once per process
and checked against their recorded hash (a damaged file is an error, never a silent change of level)."""

from __future__ import annotations

import functools

from ..core.errors import GameConfigError
from ..core.registry import game_info
from .net import Network, load


@functools.lru_cache(maxsize=32)
def shipped(game: str, players: int) -> Network | None:
    """The game's network for ``players`` (None when it ships none for that count)."""
    info = game_info(game)
    name = info.networks.get(players)
    if name is None:
        return None
    try:
        net = load(info.package_dir / name)
    except ValueError as e:
        raise GameConfigError(f"the expert network of {info.title} for {players} players: {e}") from None
    if net.meta.get("game") != game or net.meta.get("players") != players:
        raise GameConfigError(f"{name} was trained for {net.meta.get('game')} at {net.meta.get('players')} players")
    return net
