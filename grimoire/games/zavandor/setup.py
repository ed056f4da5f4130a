"""Setup (section 3) and the game options (section 13)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, ValidationInfo, field_validator

from ...core.decisions import DecisionStack
from ...core.options import GameOptions, validate_options
from ...core.rng import Rng
from .data import (
    ART_COPIES_BY_PLAYERS,
    BLUE,
    CARD_COPIES,
    CHAR_DUST,
    CHAR_TRACK,
    CHARACTERS,
    FAIRY,
    GEM_SUPPLY,
    SAGES_CARDS,
    STARTING_GEMS,
    TOKEN_PRICES,
    TURN_ACTION_LIMIT,
    TURN_ACTION_LIMIT_MIN,
)
from .player import Player


class ZavandorOptions(GameOptions):
    """The options of section 13 (the rule flags) plus the characters and the round limit."""

    characters: list[str] | None = Field(
        None, description="list of characters in seat order (" + ", ".join(CHARACTERS) + ", or random); none = random")
    strict_subphases: bool = Field(True, description="3a/3b/3c may not be split within a turn (7.1); "
                                                     "false = HU literal reading")
    combine_with_auction: bool = Field(False, description="FAQ variant: the active player's auction price may "
                                       "be paid together with his other purchases before the next auction (7.6)")
    nine_sages_dust: bool = Field(True, description="useless 9 Sages cards become dust (10.2); false = 1st edition")
    druid_level3_ruby: bool = Field(True, description="the druid may buy one ruby at Fire level 3 (9.3); "
                                                      "false = 1st edition")
    free_advance_new_track: bool = Field(False, description="a free advance (Runestone, Mask, Talisman) may also "
                                         "place a bought token from the pentagon on level 1 of a new track (11); "
                                         "false = HU literal: it moves a token already on a track one level up")
    whole_dust_tokens: bool = Field(True, description="at the hand-limit discard dust goes back as whole tokens, "
                                    "exchanged only upwards (8.1, 7.6): from 10+10 a player keeps 0, 10 or 20, "
                                    "never 12; false = any amount of dust may be kept (dust split freely)")
    turn_action_limit: int = Field(TURN_ACTION_LIMIT, ge=TURN_ACTION_LIMIT_MIN, description="design decision: after "
                                   "this many actions of one player's own turn (buying, selling, (de)activating, "
                                   "tokens, advances, opening auctions, paying; not the decisions they bring, such "
                                   "as bids) only paying what he owes and ending the turn remain (the rules set "
                                   "no limit, but activating and deactivating could go on forever)")

    @field_validator("characters", mode="before")
    @classmethod
    def _characters(cls, chars: Any, info: ValidationInfo) -> Any:
        if chars is None:
            return None
        if isinstance(chars, str):
            chars = [c for c in chars.replace(",", " ").split() if c]
        if not isinstance(chars, (list, tuple)) or not all(isinstance(c, str) for c in chars):
            raise ValueError("characters must be a list of names, e.g. ['witch', 'elf']")
        chars = [c.strip().lower() for c in chars]
        bad = [c for c in chars if c not in CHARACTERS and c != "random"]
        if bad:
            raise ValueError(f"unknown character {bad[0]!r}; choose from {', '.join(CHARACTERS)} or 'random'")
        players = (info.context or {}).get("players")
        if players is not None and len(chars) != players:
            raise ValueError(f"{len(chars)} characters given for {players} players")
        named = [c for c in chars if c != "random"]
        if len(set(named)) != len(named):
            raise ValueError("each character can be played by one player only")
        return chars


def normalize_options(players: int, options: dict[str, Any]) -> dict[str, Any]:
    return validate_options("zavandor", ZavandorOptions, players, options)


def new_state(players: int, seed: int, **options: Any):
    from . import flow
    from .legal import run
    from .state import ZavandorState

    opts = normalize_options(players, options)
    s = ZavandorState.__new__(ZavandorState)
    s.num_players = players
    s.seed = seed
    s.options = opts
    s.rng = rng = Rng(seed)
    s._set_history([])
    s.listed = None
    s.set_flags()

    # 3.1 characters: random draw of the boards not chosen
    wanted = opts["characters"] or ["random"] * players
    free = [c for c in range(len(CHARACTERS)) if CHARACTERS[c] not in wanted]
    chars = []
    for name in wanted:
        if name == "random":
            chars.append(free.pop(rng.below(len(free))))
        else:
            chars.append(CHARACTERS.index(name))

    s.gem_supply = list(GEM_SUPPLY)
    s.deck = [list(c) for c in CARD_COPIES]          # 3.7: one face-down deck per colour
    s.disc = [[0] * len(c) for c in CARD_COPIES]
    s.players = []
    for seat, ch in enumerate(chars):
        p = Player(seat, ch)
        for g, n in enumerate(STARTING_GEMS):          # 3.2: 2 opals and 1 sapphire, active
            p.active[g] = n
            s.gem_supply[g] -= n
        p.dust = CHAR_DUST[ch]                         # 3.3
        p.levels[CHAR_TRACK[ch]] = 1                   # 3.5: a disc on level 1 of the starting track
        p.tokens = list(TOKEN_PRICES)
        s.players.append(p)
    for p in s.players:
        if p.char == FAIRY:                            # 3.4: her level-1 9 Sages cards, straight to hand
            p.add_cards(flow.draw(s, BLUE, SAGES_CARDS))
        p.vp = flow.score_of(p)                        # 3 VP from 3 active gems

    s.art_pile = [ART_COPIES_BY_PLAYERS[players]] * 12  # 3.6
    s.display = []
    s.sent_avail = list(range(9))                       # 3.8
    s.sent_sold = 0
    s.order = ()
    s.card_of = (-1,) * players
    s.art_mod = (0,) * players
    s.sent_mod = (0,) * players
    s.round = 0
    s.stage = "turn"
    s.turn_idx = 0
    s.group = ""
    s.groups_done = 0
    s.tab_seat = -1
    s.tab_owed = 0
    s.tab_credit = 0
    s.tab_auc = False
    s.turn_actions = 0
    s.auc = None
    s.pending = DecisionStack()
    s.revealed = 0
    s.over = False
    s.winners_ = ()
    s.end_reason = ""
    flow.refill_artifacts(s)                           # 3.6: reveal as many artifacts as players
    flow.start_round(s)
    run(s)
    return s
