"""A small game with hidden cards, chance and relative bid ids, registered only by the RL tests.

"High card" for 1-4 players: every seat holds one hidden card (1-9, two copies each, dealt from a
shuffled deck). In turn each seat keeps its card, swaps it (the old card is discarded face up and a
new one drawn: chance inside ``apply``), raises the public high bid, or knocks: the game ends after
the round in which someone knocked (or after ``max_rounds``; the rules alone never end it, hence a
round cap). Score: the card plus the seat's handicap, plus ``bonus`` for the high bidder if his card
is strictly the highest. Bids go from the high bid + 1 to + 5 (at most 30); only raises of 1-3 have
ids ("lowest legal bid plus d", decoded with the state), larger ones are played by their text.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pydantic import Field, ValidationInfo, field_validator

from grimoire.core import registry
from grimoire.core.action import Action, ActionTable
from grimoire.core.agent import Agent
from grimoire.core.codec import ActionCodec
from grimoire.core.errors import IllegalAction
from grimoire.core.options import GameOptions, validate_options
from grimoire.core.registry import GameInfo
from grimoire.core.rng import Rng
from grimoire.core.state import GameState
from grimoire.core.tensor import TensorField, TensorSpec, TensorWriter

NAME = "rltoy"
VALUES = 9
COPIES = 2
MAX_BID = 30
RAISES = 5            # bids high+1 .. high+5 are legal
CODED_RAISES = 3      # of which high+1 .. high+3 have ids
ROUND_CAP = 4
FIXED = ("keep", "swap", "knock")

_ACTIONS = ActionTable()


class ToyOptions(GameOptions):
    bonus: int = Field(3, ge=0, le=5, description="points for the high bidder holding the strictly best card")
    handicap: list[int] | None = Field(None, description="points added to each seat's score (one per seat)")

    @field_validator("handicap")
    @classmethod
    def _handicap(cls, v: Any, info: ValidationInfo) -> Any:
        players = (info.context or {}).get("players")
        if v is not None:
            if players is not None and len(v) != players:
                raise ValueError(f"{len(v)} handicaps for {players} players")
            if any(not 0 <= x <= 10 for x in v):
                raise ValueError("handicaps lie within 0..10")
        return v


def _act(text: str, kind: str, args: tuple = ()) -> Action:
    return _ACTIONS.get(text, kind, args)


class ToyState(GameState):
    game = NAME
    __slots__ = ("hands", "deck", "discards", "high_bid", "high_bidder", "knocked_by", "round", "turn", "over")

    # --- setup and persistence ----------------------------------------------------------------------
    @classmethod
    def new(cls, players: int, seed: int, **options: Any) -> ToyState:
        s = cls.__new__(cls)
        s.num_players = players
        s.seed = seed
        s.options = validate_options(NAME, ToyOptions, players, options)
        s.rng = Rng(seed)
        s._set_history([])
        deck = [v for v in range(1, VALUES + 1) for _ in range(COPIES)]
        s.rng.shuffle(deck)
        s.hands = [deck.pop() for _ in range(players)]
        s.deck = deck
        s.discards = []
        s.high_bid, s.high_bidder, s.knocked_by = 0, None, None
        s.round, s.turn, s.over = 1, 0, False
        return s

    def to_dict(self) -> dict[str, Any]:
        return {"game": NAME, "players": self.num_players, "seed": self.seed, "options": dict(self.options),
                "rng": self.rng.state, "history": self.history, "hands": list(self.hands), "deck": list(self.deck),
                "discards": list(self.discards), "high_bid": self.high_bid, "high_bidder": self.high_bidder,
                "knocked_by": self.knocked_by, "round": self.round, "turn": self.turn, "over": self.over}

    @classmethod
    def load(cls, d: dict[str, Any]) -> ToyState:
        s = cls.__new__(cls)
        s.num_players = int(d["players"])
        s.seed = int(d["seed"])
        s.options = validate_options(NAME, ToyOptions, s.num_players, dict(d["options"]))
        s.rng = Rng.from_state(int(d["rng"]))
        s._set_history(list(d["history"]))
        s.hands, s.deck, s.discards = list(d["hands"]), list(d["deck"]), list(d["discards"])
        s.high_bid, s.high_bidder, s.knocked_by = d["high_bid"], d["high_bidder"], d["knocked_by"]
        s.round, s.turn, s.over = d["round"], d["turn"], d["over"]
        return s

    def clone(self) -> ToyState:
        c = ToyState.__new__(ToyState)
        self._copy_base(c)
        c.hands, c.deck, c.discards = list(self.hands), list(self.deck), list(self.discards)
        c.high_bid, c.high_bidder, c.knocked_by = self.high_bid, self.high_bidder, self.knocked_by
        c.round, c.turn, c.over = self.round, self.turn, self.over
        return c

    # --- rules --------------------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self.over else self.turn

    def is_terminal(self) -> bool:
        return self.over

    def legal_actions(self) -> list[Action]:
        if self.over:
            return []
        out = [_act("keep", "keep")]
        if self.deck:
            out.append(_act("swap", "swap"))
        if self.knocked_by is None:
            out.append(_act("knock", "knock"))
        top = min(self.high_bid + RAISES, MAX_BID)
        out += [_act(f"bid {b}", "bid", (b,)) for b in range(self.high_bid + 1, top + 1)]
        return out

    def _parse(self, text: str) -> Action:
        words = text.split()
        if len(words) == 1 and words[0] in FIXED:
            return _act(words[0], words[0])
        if len(words) == 2 and words[0] == "bid" and words[1].isdigit():
            b = int(words[1])
            return _act(f"bid {b}", "bid", (b,))
        raise IllegalAction(f"unknown action {text!r}: keep, swap, knock or bid N")

    def _check(self, action: Action) -> None:
        if self.over:
            raise IllegalAction("the game is over")
        if action.kind == "swap" and not self.deck:
            raise IllegalAction("the deck is empty")
        if action.kind == "knock" and self.knocked_by is not None:
            raise IllegalAction("somebody has already knocked")
        if action.kind == "bid":
            b = action.args[0]
            if not self.high_bid < b <= min(self.high_bid + RAISES, MAX_BID):
                raise IllegalAction(f"bids go from {self.high_bid + 1} to {min(self.high_bid + RAISES, MAX_BID)}")

    def _do(self, action: Action) -> None:
        seat = self.turn
        if action.kind == "swap":
            self.discards.append(self.hands[seat])
            self.hands[seat] = self.deck.pop(self.rng.below(len(self.deck)))
        elif action.kind == "knock":
            self.knocked_by = seat
        elif action.kind == "bid":
            self.high_bid, self.high_bidder = action.args[0], seat
        self.turn += 1
        if self.turn == self.num_players:
            cap = self.options["max_rounds"]
            if self.knocked_by is not None or (cap is not None and self.round >= cap):
                self.over = True
            else:
                self.round += 1
                self.turn = 0

    def scores(self) -> list[int]:
        hc = self.options["handicap"] or [0] * self.num_players
        best = max(self.hands)
        out = []
        for i, card in enumerate(self.hands):
            top = i == self.high_bidder and card == best and self.hands.count(best) == 1
            out.append(card + hc[i] + (self.options["bonus"] if top else 0))
        return out

    def winners(self) -> list[int]:
        if not self.over:
            return []
        sc = self.scores()
        return [i for i, x in enumerate(sc) if x == max(sc)]

    def visible_scores(self, seat: int | None) -> list[int]:
        return self.scores() if self.over else [0] * self.num_players

    # --- hidden information -------------------------------------------------------------------------
    def _observe(self, seats: list[int | None]) -> list[dict[str, Any]]:
        public = {"discards": list(self.discards), "deck_left": len(self.deck), "high_bid": self.high_bid,
                  "high_bidder": self.high_bidder, "knocked_by": self.knocked_by,
                  "hands": list(self.hands) if self.over else None}
        return [dict(public, hand=self.hands[s] if s is not None else None) for s in seats]

    def sample_hidden(self, seat: int, rng: Rng) -> ToyState:
        det = self.clone()
        det.rng = Rng(rng.next64())
        if not self.over:
            others = [i for i in range(self.num_players) if i != seat]
            pool = [self.hands[i] for i in others] + list(self.deck)
            rng.shuffle(pool)
            for i in others:
                det.hands[i] = pool.pop()
            det.deck = pool
        return det


# --- integer ids and tensors -----------------------------------------------------------------------
class ToyCodec(ActionCodec):
    def __init__(self):
        super().__init__(FIXED, extra=CODED_RAISES)

    def _encode_relative(self, action: Action, state: GameState | None) -> int | None:
        if action.kind != "bid" or state is None:
            return None
        d = action.args[0] - state.high_bid  # type: ignore[attr-defined]
        return self.fixed + d - 1 if 1 <= d <= CODED_RAISES else None

    def _decode_relative(self, i: int, state: GameState) -> Action:
        b = state.high_bid + (i - self.fixed) + 1  # type: ignore[attr-defined]
        return _act(f"bid {b}", "bid", (b,))

    def _fixed_action(self, i: int) -> Action:
        return _act(self.texts[i], self.texts[i])


def tensor(players: int, options: dict) -> TensorSpec:
    fields = [
        TensorField("seat", players, "one-hot: whose view"),
        TensorField("to_move", players, "one-hot: who decides (zero at the end)"),
        TensorField("hand", VALUES, "one-hot: the seat's own card"),
        TensorField("discards", VALUES, "discarded cards per value / copies"),
        TensorField("deck_left", 1, "cards left in the deck / deck size"),
        TensorField("high_bid", 1, "the high bid / 30"),
        TensorField("high_bidder", players, "one-hot: who holds the high bid"),
        TensorField("knocked", 1, "1 once somebody has knocked"),
        TensorField("shown", players * VALUES, "every seat's card, one-hot, once the game is over"),
    ]

    def fill(obs: dict[str, Any], w: TensorWriter) -> None:
        part = obs[NAME]
        w.one_hot("seat", obs["seat"])
        w.one_hot("to_move", obs["current_player"])
        w.one_hot("hand", None if part["hand"] is None else part["hand"] - 1)
        counts = [0.0] * VALUES
        for c in part["discards"]:
            counts[c - 1] += 1.0 / COPIES
        w.put("discards", counts)
        w.put("deck_left", part["deck_left"] / (VALUES * COPIES))
        w.put("high_bid", part["high_bid"] / MAX_BID)
        w.one_hot("high_bidder", part["high_bidder"])
        w.put("knocked", 0.0 if part["knocked_by"] is None else 1.0)
        shown = [0.0] * (players * VALUES)
        for i, c in enumerate(part["hands"] or []):
            shown[i * VALUES + c - 1] = 1.0
        w.put("shown", shown)

    return TensorSpec(fields, fill)


def max_game_length(players: int, options: dict) -> int:
    return options["max_rounds"] * players   # one action per seat and round


class KeeperAgent(Agent):
    """Always keeps its card (so that only the round cap ends a game)."""

    name = "keeper"

    def choose(self, state: GameState, seat: int) -> Action:
        return _act("keep", "keep")


def summary(obs: dict[str, Any]) -> str:
    p = obs[NAME]
    return f"hand {p['hand']} high bid {p['high_bid']} by {p['high_bidder']} deck {p['deck_left']}"


INFO = GameInfo(
    name=NAME,
    titles={"en": "RL toy: high card"},
    new=ToyState.new,
    load=ToyState.load,
    player_counts=(1, 2, 3, 4),
    default_players=2,
    options=ToyOptions,
    package=__name__,
    codec=ToyCodec(),
    tensor=tensor,
    max_game_length=max_game_length,
    round_cap=ROUND_CAP,
    score_bounds=(0, VALUES + 10 + 5),
    summary=summary,
    agents={"keeper": KeeperAgent},
    probe_texts=lambda state: ["keep", "swap", "knock", "bid 0", "bid 31", "bid 99"],
    conformance_options={"max_rounds": 3},
)


@contextmanager
def toy_registered() -> Iterator[GameInfo]:
    """The toy game in the registry for the duration (tests only: it is never a real game)."""
    had = registry._GAMES.get(NAME)
    registry.register(INFO)
    try:
        yield INFO
    finally:
        if had is None:
            registry._GAMES.pop(NAME, None)
        else:
            registry._GAMES[NAME] = had
