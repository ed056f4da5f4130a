"""The rule flags (spec 22) read once from the normalized options, as plain attributes."""

from __future__ import annotations

from typing import Any


class Flags:
    __slots__ = ("round_up", "stp_after_sfe", "best_plus_worst", "spells_need_lof", "single_naming",
                 "futile_ranged", "spell_limit", "self_spell_free", "enter_forces_attack", "trap_needs_entry",
                 "numb_rounds", "dance_full", "madness_from_pool", "reveal_first_step", "traps_assigned",
                 "push_d10", "armour_melee_only", "cage_follows", "cage_exempt", "heaps2", "kitoro_ranged",
                 "vials", "potions", "dice", "max_rounds", "gtypes")

    def __init__(self, o: dict[str, Any], players: int):
        self.round_up = o["damage_rounding"] == "up"
        self.stp_after_sfe = o["stp_threshold_after_sfe"]
        self.best_plus_worst = o["modifier_mode"] == "best_bonus_plus_worst_penalty"
        self.spells_need_lof = o["spells_need_line_of_fire"]
        self.single_naming = o["allow_single_naming"]
        self.futile_ranged = o["allow_futile_ranged"]
        self.spell_limit = o["spells_per_step"]                  # casts per step; None: unlimited (R8)
        self.self_spell_free = o["self_spell_allows_attack"]
        self.enter_forces_attack = o["enter_forces_attack"]
        self.trap_needs_entry = o["ranged_trap_requires_entry"]
        self.numb_rounds = o["zsibbaszto_rounds"]
        self.dance_full = o["halaltanc_full_rounds"]
        self.madness_from_pool = o["madness_from_pool"]
        self.reveal_first_step = o["weapon_reveal"] == "first_step"
        self.traps_assigned = o["traps_assigned_to_character"]
        self.push_d10 = o["push_compare"] == "d10"
        self.armour_melee_only = o["villamvert_melee_only"]
        self.cage_follows = o["cage_follows_caster"]
        self.cage_exempt = o["cage_exempts_caster"]
        self.heaps2 = o["heaps_per_gladiator"] == 2
        self.kitoro_ranged = o["kitoro_forras_kind"] == "ranged"
        self.vials = o["optional_poison_vial"]
        self.potions = o["optional_magic_potion"]
        self.dice = tuple(o["dice"]) if o["dice"] is not None else None
        self.max_rounds = o["max_rounds"]
        g = o["gladiator_types"]
        self.gtypes = tuple(g) if g is not None else (o["gladiator_type"],) * players
