"""The typed options of Shuluri Viadal: the configuration flags of spec 22 (rulings R1-R37 and
design decisions), the four-player mode, preset dice for tests, and max_rounds (from GameOptions)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidationInfo, field_validator

from ...core.options import GameOptions
from .data import ROUND_CAP

GladiatorKind = Literal["heavy", "sword_artist"]


class ShuluriOptions(GameOptions):
    # every game ends: the rules alone never end one in which nobody attacks (19), so the cap is on by default
    max_rounds: int | None = Field(
        ROUND_CAP, ge=1, description="end the game after this round (a draw between the sides still standing); "
        "none = only the rules end it")
    damage_rounding: Literal["down", "up"] = Field(
        "down", description="rounding of (Attack - Defence) / 2 (R1)")
    stp_threshold_after_sfe: bool = Field(
        False, description="compare the STP-loss threshold with the Sp left after SFE instead of the raw Sp (R2)")
    modifier_mode: Literal["single_worst", "best_bonus_plus_worst_penalty"] = Field(
        "single_worst", description="how spell and trap modifiers to one value combine (K13.2, R3)")
    spells_need_line_of_fire: bool = Field(
        False, description="non-lightning spells also need a line of fire (R4)")
    allow_single_naming: bool = Field(
        False, description="a player may name fewer than two characters for a step (R6)")
    allow_futile_ranged: bool = Field(
        False, description="bolts and daggers may target a gladiator whose armour is still whole, to no effect (R7)")
    spells_per_step: int | None = Field(
        1, ge=1, description="casts per warlock step (G14.10, R8); 'unlimited' (none) for no limit")
    self_spell_allows_attack: bool = Field(
        True, description="a spell on himself leaves the warlock free to attack and disengage (C10.9, R9)")
    enter_forces_attack: bool = Field(
        False, description="entering an enemy's field obliges an attack in that step (V9.6, R10)")
    ranged_trap_requires_entry: bool = Field(
        True, description="a ranged trap's activator must have entered the trap field in that step (T16.3, R11)")
    zsibbaszto_rounds: int = Field(
        2, ge=2, le=3, description="duration of Numbing Poison: 2 or 3 rounds (spell 8, R13)")
    halaltanc_full_rounds: bool = Field(
        True, description="Death Dance lasts the two full rounds after the casting round (spell 31, R14)")
    madness_from_pool: bool = Field(
        False, description="Assassin's Madness victims and zombies use the step pool instead of their own MAN (R15)")
    weapon_reveal: Literal["first_step", "first_exchange"] = Field(
        "first_step", description="when the gladiators' starting weapons become public (S5.7, R17)")
    traps_assigned_to_character: bool = Field(
        True, description="each trap card is held by one character, who alone activates it if ranged (S5.1, R20)")
    push_compare: Literal["total", "d10"] = Field(
        "total", description="what 'rolls higher' compares for the push (C10.10, R23)")
    villamvert_melee_only: bool = Field(
        False, description="the Lightning Armour discharge hits only melee and touch attackers (spell 13, R30)")
    cage_follows_caster: bool = Field(
        True, description="the Imprisonment cage moves with its warlock (spell 27, R33)")
    cage_exempts_caster: bool = Field(
        False, description="the warlock crosses his own cage wall unharmed (spell 27, R34)")
    heaps_per_gladiator: int = Field(
        1, ge=1, le=2, description="weapon heaps a gladiator may use: 1 (his own) or 2 (both heaps of his half, "
        "20.1.7)")
    kitoro_forras_kind: Literal["direct", "ranged"] = Field(
        "direct", description="the kind of trap card 16, Erupting Spring (20.5)")
    gladiator_type: GladiatorKind = Field(
        "heavy", description="the gladiator variant of every team (D2.2)")
    gladiator_types: list[GladiatorKind] | None = Field(
        None, description="the gladiator variant per seat, instead of gladiator_type (D2.2)")
    optional_poison_vial: bool = Field(
        False, description="optional rule Poison Vial (20.8)")
    optional_magic_potion: bool = Field(
        False, description="optional rule Magic Potion (20.8)")
    mode: Literal["ffa", "pairs"] = Field(
        "ffa", description="four players: everyone against everyone, or two alliances of partners (20.10)")
    dice: list[int] | None = Field(
        None, description="d10 results used before the random ones (tests, puzzles); public")

    @field_validator("spells_per_step", mode="before")
    @classmethod
    def _unlimited(cls, v: Any) -> Any:
        return None if v == "unlimited" else v

    @field_validator("gladiator_types")
    @classmethod
    def _per_seat(cls, v: Any, info: ValidationInfo) -> Any:
        players = (info.context or {}).get("players")
        if v is not None and players is not None and len(v) != players:
            raise ValueError(f"give one gladiator type per seat ({players})")
        return v

    @field_validator("dice")
    @classmethod
    def _dice(cls, v: Any) -> Any:
        if v is None:
            return v
        if len(v) > 10_000 or not all(1 <= x <= 10 for x in v):
            raise ValueError("dice are at most 10000 values 1-10")
        return v

    @field_validator("mode")
    @classmethod
    def _mode(cls, v: Any, info: ValidationInfo) -> Any:
        players = (info.context or {}).get("players")
        if v == "pairs" and players is not None and players != 4:
            raise ValueError("pair play needs 4 players")
        return v
