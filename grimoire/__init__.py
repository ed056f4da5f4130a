"""Grimoire: The Scepter of Zavandor, Zauberschmiede and Shuluri Viadal with exact rules.

The public contract (docs/contract.md)::

    import grimoire
    state = grimoire.new_game("zavandor", players=4, seed=7)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
"""

from . import games  # the package of games; calling it, grimoire.games(), lists them
from .core import (
    Action,
    GameConfigError,
    GameState,
    GrimoireError,
    IllegalAction,
    derive_seed,
    game_info,
    load_game,
    new_game,
    run_episode,
)
from .core.record import replay

games.load_all()

__all__ = ["Action", "GameConfigError", "GameState", "GrimoireError", "IllegalAction", "derive_seed", "game_info",
           "games", "load_game", "new_game", "replay", "run_episode"]
