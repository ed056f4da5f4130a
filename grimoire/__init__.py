"""Grimoire: The Scepter of Zavandor, Zauberschmiede and Shuluri Viadal with exact rules.

The public contract (CONTRACT.md)::

    import grimoire
    state = grimoire.new_game("zavandor", players=4, seed=7)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
"""

from . import games  # the package of games; calling it, grimoire.games(), lists them
from .core import Action, GameConfigError, GameState, GrimoireError, IllegalAction, load_game, new_game
from .core.record import replay

games.load_all()

__all__ = ["Action", "GameConfigError", "GameState", "GrimoireError", "IllegalAction", "games",
           "load_game", "new_game", "replay"]
