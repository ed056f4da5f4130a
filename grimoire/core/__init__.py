"""Game-agnostic core: the contract, descriptor and registry, errors, RNG, records, episodes."""

from .action import Action, ActionTable
from .codec import ActionCodec
from .decisions import Decision, DecisionKind, DecisionStack
from .episode import Episode, derive_seed, run_episode
from .errors import GameConfigError, GrimoireError, IllegalAction
from .options import GameOptions
from .record import load_record, make_record, replay, save_record, state_hash, verify
from .registry import (
    ArenaHooks,
    Backend,
    BrowserBoard,
    GameInfo,
    backends,
    game_info,
    games,
    load_game,
    new_game,
    register,
    returns,
)
from .rng import Rng
from .search import SearchHooks, SearchSpec
from .state import GameState
from .tensor import TensorField, TensorSpec

__all__ = [
    "Action", "ActionCodec", "ActionTable", "ArenaHooks", "Backend", "BrowserBoard", "Decision", "DecisionKind",
    "DecisionStack", "Episode", "GameConfigError", "GameInfo", "GameOptions", "GameState", "GrimoireError",
    "IllegalAction", "Rng", "SearchHooks", "SearchSpec", "TensorField", "TensorSpec", "backends", "derive_seed",
    "game_info",
    "games", "load_game", "load_record", "make_record", "new_game", "register", "replay", "returns",
    "run_episode", "save_record", "state_hash", "verify",
]
