"""Grimoire: The Scepter of Zavandor, Zauberschmiede and Shuluri Viadal with exact rules.

The public contract (CONTRACT.md)::

    import grimoire
    state = grimoire.new_game("zavandor", players=4, seed=7)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
"""

# Load the game packages first: importing the subpackage ``grimoire.games`` binds that name on this
# module, and the contract wants ``grimoire.games()`` to be the function, so it is bound afterwards.
from .games import load_all as _load_games

_load_games()

from .core import (  # noqa: E402
    Action,
    GameConfigError,
    GameState,
    GrimoireError,
    IllegalAction,
    games,
    load_game,
    new_game,
)
from .core.record import replay  # noqa: E402

__all__ = ["Action", "GameConfigError", "GameState", "GrimoireError", "IllegalAction", "games",
           "load_game", "new_game", "replay"]
