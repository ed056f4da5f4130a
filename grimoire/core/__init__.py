"""Game-agnostic core: the contract, registry, errors, RNG and records."""

from .action import Action, ActionTable
from .errors import GameConfigError, GrimoireError, IllegalAction
from .record import load_record, make_record, replay, save_record, state_hash, verify
from .registry import GameInfo, game_info, games, load_game, new_game, register
from .rng import Rng
from .state import GameState

__all__ = [
    "Action", "ActionTable", "GameConfigError", "GrimoireError", "IllegalAction", "GameInfo", "GameState",
    "Rng", "game_info", "games", "load_game", "new_game", "register", "load_record", "make_record",
    "replay", "save_record", "state_hash", "verify",
]
