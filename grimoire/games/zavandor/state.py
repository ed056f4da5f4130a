"""The Zavandor game state: plain slotted data plus the contract glue.

The rules live in modules named after the rulebook's phases: ``setup``, ``flow`` (phases 1, 2 and
4, elimination), ``turn`` (phase 3a/3b and paying), ``auction`` (3c, the curse, artifact effects),
``scoring``; ``legal`` generates the legal actions and ``view`` the observations.
"""

from __future__ import annotations

from typing import Any

from ...core.action import Action
from ...core.decisions import DecisionStack
from ...core.state import GameState
from .actions import parse as _parse
from .legal import check as _check
from .legal import do as _do
from .legal import legal_actions as _legal_actions
from .player import Player


class ZavandorState(GameState):
    game = "zavandor"
    __slots__ = (
        "players", "order", "card_of", "art_mod", "sent_mod", "round", "stage", "turn_idx",
        "group", "groups_done", "turn_actions", "tab_seat", "tab_owed", "tab_credit", "tab_auc", "display", "art_pile",
        "sent_avail", "sent_sold", "gem_supply", "deck", "disc", "auc", "pending", "revealed",
        "over", "winners_", "end_reason", "strict", "combine", "sages_dust", "druid_l3",
        "free_new_track", "whole_dust", "turn_limit", "max_rounds", "listed",
    )
    players: list[Player]
    order: tuple[int, ...]              # turn order of the round (seats)
    card_of: tuple[int, ...]            # each seat's turn-order card (index), -1 before the first round
    art_mod: tuple[int, ...]            # auction surcharge (+) or discount (-) per seat, artifacts
    sent_mod: tuple[int, ...]           # ... and sentinels
    round: int
    stage: str
    turn_idx: int
    group: str
    groups_done: int
    turn_actions: int
    tab_seat: int
    tab_owed: int
    tab_credit: int
    tab_auc: bool
    display: list[int]
    art_pile: list[int]
    sent_avail: list[int]
    sent_sold: int
    gem_supply: list[int]
    deck: list[list[int]]
    disc: list[list[int]]
    auc: list[Any] | None
    pending: DecisionStack
    revealed: int
    over: bool
    winners_: tuple[int, ...]
    end_reason: str
    strict: bool
    combine: bool
    sages_dust: bool
    druid_l3: bool
    free_new_track: bool
    whole_dust: bool
    turn_limit: int
    max_rounds: int | None
    # the actions legal_actions() last listed for this very position (None after any action): check()
    # accepts those objects without checking them again (the listing is exact: test_zav_listing.py)
    listed: list[Any] | None

    def set_flags(self) -> None:
        """The rule flags (13 and the readings of the Hungarian original), read from the options once."""
        o = self.options
        self.strict = o["strict_subphases"]
        self.combine = o["combine_with_auction"]
        self.sages_dust = o["nine_sages_dust"]
        self.druid_l3 = o["druid_level3_ruby"]
        self.free_new_track = o["free_advance_new_track"]
        self.whole_dust = o["whole_dust_tokens"]
        self.turn_limit = o["turn_action_limit"]
        self.max_rounds = o["max_rounds"]

    # stage: "turn" (phase 3, the active player acts), "hand" (phase 4 discards), "over"
    # pending: a DecisionStack of the decisions that interrupt the flow, the current one on top
    #   (kinds and payloads: decisions.py; their handlers: legal.py)
    # auc: None or [item, high bid (None before the opening bid), high bidder, passed-seat bitmask]

    def clone(self) -> ZavandorState:
        s = ZavandorState.__new__(ZavandorState)
        self._copy_base(s)
        s.players = [p.copy() for p in self.players]
        s.order = self.order                 # tuples, replaced (never mutated) once a round
        s.card_of = self.card_of
        s.art_mod = self.art_mod
        s.sent_mod = self.sent_mod
        s.round = self.round
        s.stage = self.stage
        s.turn_idx = self.turn_idx
        s.group = self.group
        s.groups_done = self.groups_done
        s.turn_actions = self.turn_actions
        s.tab_seat = self.tab_seat
        s.tab_owed = self.tab_owed
        s.tab_credit = self.tab_credit
        s.tab_auc = self.tab_auc
        s.display = self.display[:]
        s.art_pile = self.art_pile[:]
        s.sent_avail = self.sent_avail[:]
        s.sent_sold = self.sent_sold
        s.gem_supply = self.gem_supply[:]
        d0, d1, d2, d3 = self.deck           # four colours, unrolled: clone is a hot path of the search
        s.deck = [d0[:], d1[:], d2[:], d3[:]]
        d0, d1, d2, d3 = self.disc
        s.disc = [d0[:], d1[:], d2[:], d3[:]]
        s.auc = self.auc[:] if self.auc is not None else None
        s.pending = self.pending.copy()
        s.revealed = self.revealed
        s.over = self.over
        s.winners_ = self.winners_
        s.end_reason = self.end_reason
        s.strict = self.strict
        s.combine = self.combine
        s.sages_dust = self.sages_dust
        s.druid_l3 = self.druid_l3
        s.free_new_track = self.free_new_track
        s.whole_dust = self.whole_dust
        s.turn_limit = self.turn_limit
        s.max_rounds = self.max_rounds
        s.listed = None
        return s

    # --- the contract ---------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        if self.over:
            return None
        items = self.pending.items
        if items:
            return items[-1].seat
        return self.order[self.turn_idx]

    @property
    def active_seat(self) -> int | None:
        """The player whose phase-3 turn it is (None outside phase 3)."""
        if self.over or self.stage != "turn" or self.turn_idx >= len(self.order):
            return None
        return self.order[self.turn_idx]

    # the rules' entry points, bound as methods: no call in between on the hot path of every action
    legal_actions = _legal_actions
    _check = _check
    _do = _do
    _parse = staticmethod(_parse)

    def is_terminal(self) -> bool:
        return self.over

    def scores(self) -> list[int]:
        return [p.vp for p in self.players]

    def winners(self) -> list[int]:
        return list(self.winners_) if self.over else []

    def undo_barrier(self) -> Any:
        return (self.rng.state, self.revealed)

    def _observe(self, seats: list[int | None]) -> list[dict[str, Any]]:
        return _observe(self, seats)

    def sample_hidden(self, seat: int, rng) -> ZavandorState:
        return _sample_hidden(self, seat, rng)

    # learning: the tensor written from the state (tensor.write_state), without the observation dict
    def observation_tensor(self, seat: int | None):
        import numpy as np
        out = np.empty(_tensor_size(self.num_players), np.float32)
        self.observation_tensor_into(seat, out)
        return out

    def observation_tensor_into(self, seat: int | None, out) -> None:
        self._check_seat(seat)
        _write_tensor(self, seat, out)

    def legal_mask_into(self, out) -> None:
        _write_mask(self, out)

    def action_from_id(self, i: int) -> Action:
        return _CODEC.decode(i, self)       # (the descriptor's codec, without the registry lookup)

    def to_dict(self) -> dict[str, Any]:
        return _to_dict(self)

    def player(self, seat: int) -> Player:
        return self.players[seat]


# The serialisation and view modules do not import this class, so they can be bound here once (no
# per-call imports).
from .codec import CODEC as _CODEC  # noqa: E402
from .codec import write_mask as _write_mask  # noqa: E402
from .serial import to_dict as _to_dict  # noqa: E402
from .tensor import size as _tensor_size  # noqa: E402
from .tensor import write_state as _write_tensor  # noqa: E402
from .view import observe as _observe  # noqa: E402
from .view import sample_hidden as _sample_hidden  # noqa: E402
