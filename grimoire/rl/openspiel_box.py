"""The holder of an OpenSpiel state's Grimoire state: clones through the game's own ``clone()``,
pickles as the game's record (docs/rl.md, "OpenSpiel")."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Protocol

from ..core.record import replay
from ..core.registry import load_game, new_game
from ..core.state import GameState

SEED_DIGITS = 4                 # the seed is dealt by this many chance nodes of DIGIT_OUTCOMES outcomes each
DIGIT_OUTCOMES = 16
# outcomes d1..d4 deal grimoire seed seed * 65536 + (d1 d2 d3 d4 read in base 16)
SEEDS_PER_GAME = DIGIT_OUTCOMES ** SEED_DIGITS


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
    explicit_draws: bool = False     # chance="explicit": draws inside apply are chance nodes too

    def new(self, k: int) -> GameState:
        return new_game(self.game, self.players, self.seed * SEEDS_PER_GAME + k, **json.loads(self.options_json))


class _Box:
    """Holds an OpenSpiel state's GameState (None: at the seed's chance nodes of the explicit modes, or not
    yet dealt in the sampled mode). OpenSpiel clones a Python state by deep-copying each attribute and
    serializes it by pickling them: the box turns the first into ``GameState.clone()`` and the
    second into the game's record. In the sampled mode a fresh box deals its game only when first
    used, so the states that OpenSpiel creates only to overwrite them (clones, deserialization)
    neither cost a new game nor consume a seed.

    Explicit chance (openspiel_chance): ``digits`` are the seed's outcomes chosen so far; ``pending`` is
    an action stopped at a draw (the action, the outcomes chosen for its draws, the draw waiting:
    ``state`` is then the state before the action); ``trace`` the actions played with their outcomes,
    as a linked list ``(previous, text, outcomes)`` shared by clones (the record of such a game)."""

    __slots__ = ("state", "deal", "game", "exact", "digits", "pending", "trace")

    def __init__(self, state: GameState | None, deal: _Deal, game: SeedCounter | None = None,
                 exact: bool = False, digits: tuple[int, ...] = (), pending: Pending | None = None,
                 trace: Trace | None = None):
        self.state = state
        self.deal = deal
        self.game = game          # the sampled mode's seed counter, until the box is dealt
        self.exact = exact        # a resampled state: pickled whole, as no record describes it
        self.digits = digits
        self.pending = pending
        self.trace = trace

    def get(self) -> GameState | None:
        s = self.state
        if s is None and self.game is not None:
            s = self.state = self.deal.new(self.game._take_seed_index())
            self.game = None
        return s

    def __deepcopy__(self, memo) -> _Box:
        s = self.get()
        return _Box(None if s is None else s.clone(), self.deal, None, self.exact, self.digits, self.pending,
                    self.trace)

    def __reduce__(self):
        s = self.get()
        pending = None if self.pending is None else (self.pending[0].text, list(self.pending[1]))
        if s is None:
            payload = None
        elif self.exact:
            payload = json.dumps(s.to_dict(), sort_keys=True)
        elif self.deal.explicit_draws:
            payload = json.dumps({"seed": s.seed, "trace": trace_list(self.trace)})
        else:
            payload = json.dumps(s.record(), sort_keys=True)
        return (_unpickle_box, (payload, self.exact, self.deal, self.digits, pending))


Pending = tuple  # (Action, tuple of outcomes, NeedChance)
Trace = tuple    # (previous Trace | None, action text, tuple of outcomes)


def trace_list(trace: Trace | None) -> list[list]:
    out = []
    while trace is not None:
        trace, text, outcomes = trace
        out.append([text, list(outcomes)])
    out.reverse()
    return out


def _unpickle_box(payload: str | None, exact: bool, deal: _Deal, digits: tuple[int, ...] = (),
                  pending: tuple[str, list[int]] | None = None) -> _Box:
    from .openspiel_chance import NeedChance, apply_with_outcomes
    if payload is None:
        return _Box(None, deal, None, False, tuple(digits))
    d = json.loads(payload)
    trace: Trace | None = None
    if exact:
        s = load_game(d)
    elif "trace" in d:
        s = new_game(deal.game, deal.players, d["seed"], **json.loads(deal.options_json))
        for text, outcomes in d["trace"]:
            r = apply_with_outcomes(s, s.parse_action(text), outcomes)
            if isinstance(r, NeedChance):
                raise ValueError(f"the serialized action {text!r} lacks outcomes")
            s, trace = r, (trace, text, tuple(outcomes))
    else:
        s = replay(d)
    box = _Box(s, deal, None, exact, tuple(digits), None, trace)
    if pending is not None:
        act, forced = s.parse_action(pending[0]), tuple(pending[1])
        r = apply_with_outcomes(s, act, forced)
        if not isinstance(r, NeedChance):
            raise ValueError("a serialized chance node whose action needs no outcome")
        box.pending = (act, forced, r)
    return box
