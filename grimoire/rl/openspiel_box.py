"""The holder of an OpenSpiel state's Grimoire state: clones through the game's own ``clone()``,
pickles as the game's record (docs/rl.md, "OpenSpiel")."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Protocol

from ..core.record import replay
from ..core.registry import load_game, new_game
from ..core.state import GameState

SEEDS_PER_GAME = 1 << 16        # the chance node's outcomes: outcome k deals grimoire seed seed * 65536 + k


class SeedCounter(Protocol):
    """The sampled mode's game object: it hands out the index of the next seed."""

    def _take_seed_index(self) -> int: ...


@dataclass(frozen=True)
class _Deal:
    """How a game object deals its initial states (picklable: serialized chance nodes keep it)."""

    game: str
    players: int
    options_json: str
    seed: int

    def new(self, k: int) -> GameState:
        return new_game(self.game, self.players, self.seed * SEEDS_PER_GAME + k, **json.loads(self.options_json))


class _Box:
    """Holds an OpenSpiel state's GameState (None: the chance node of the explicit mode, or not yet
    dealt in the sampled mode). OpenSpiel clones a Python state by deep-copying each attribute and
    serializes it by pickling them: the box turns the first into ``GameState.clone()`` and the
    second into the game's record. In the sampled mode a fresh box deals its game only when first
    used, so the states that OpenSpiel creates only to overwrite them (clones, deserialization)
    neither cost a new game nor consume a seed."""

    __slots__ = ("state", "deal", "game", "exact")

    def __init__(self, state: GameState | None, deal: _Deal, game: SeedCounter | None = None,
                 exact: bool = False):
        self.state = state
        self.deal = deal
        self.game = game          # the sampled mode's seed counter, until the box is dealt
        self.exact = exact        # a resampled state: pickled whole, as no record describes it

    def get(self) -> GameState | None:
        s = self.state
        if s is None and self.game is not None:
            s = self.state = self.deal.new(self.game._take_seed_index())
            self.game = None
        return s

    def __deepcopy__(self, memo) -> _Box:
        s = self.get()
        return _Box(None if s is None else s.clone(), self.deal, None, self.exact)

    def __reduce__(self):
        s = self.get()
        if s is None:
            payload = None
        elif self.exact:
            payload = json.dumps(s.to_dict(), sort_keys=True)
        else:
            payload = json.dumps(s.record(), sort_keys=True)
        return (_unpickle_box, (payload, self.exact, self.deal))


def _unpickle_box(payload: str | None, exact: bool, deal: _Deal) -> _Box:
    if payload is None:
        return _Box(None, deal)
    d = json.loads(payload)
    return _Box(load_game(d) if exact else replay(d), deal, None, exact)
