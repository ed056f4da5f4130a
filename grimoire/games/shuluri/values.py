"""Combat values with their modifiers (spec 13), weapons in hand (20.3), movement limits (9) and
the MAN a figure may spend now (7).

Spell and trap modifiers to TE, VE, CE and the ranged defence ("rve", VE against aimed attacks)
never stack (K13.1): per value one applies, the largest penalty if any, else the largest bonus
(mode single_worst), or the worst penalty plus the best bonus (R3's alternative). Skill effects,
weapon values, geometry and the touch-spell +5 always add (K13.3).
"""

from __future__ import annotations

from functools import cache

from .data import (
    COST,
    DOWN_VE,
    GL,
    GLADIATOR_TYPES,
    HEAP_SETS,
    ROLE_STATS,
    RUN_FIELDS_PER_MAN,
    RUN_MOVE_BONUS,
    SNEAK_COST,
    WEAPONS,
    ZOMBIE_FIELDS,
    Weapon,
)
from .fig import IN_HAND, Effect, Fig

_MOVE_COST = COST["move"]


def active(s, f: Fig) -> list[Effect]:
    rnd = s.round
    return [e for e in f.effects if e.start <= rnd <= e.end]


def has_flag(s, f: Fig, flag: str) -> bool:
    rnd = s.round
    for e in f.effects:
        if e.start <= rnd <= e.end and flag in e.flags:
            return True
    return False


def effect_with(s, f: Fig, flag: str) -> Effect | None:
    rnd = s.round
    for e in f.effects:
        if e.start <= rnd <= e.end and flag in e.flags:
            return e
    return None


def combine(s, amounts: list[int]) -> int:
    if not amounts:
        return 0
    neg = min(amounts)
    pos = max(amounts)
    if s.flags.best_plus_worst:
        return (neg if neg < 0 else 0) + (pos if pos > 0 else 0)
    return neg if neg < 0 else pos


def spell_mods(s, f: Fig, value: str) -> list[int]:
    rnd = s.round
    out = []
    for e in f.effects:
        if e.start <= rnd <= e.end:
            for name, amount in e.mods:
                if name == value:
                    out.append(amount)
    return out


def modifier(s, f: Fig, value: str, extra: tuple[int, ...] = ()) -> int:
    """The one spell/trap modifier that applies to ``value`` (extra: situational ones, e.g. a cloud)."""
    amounts = spell_mods(s, f, value)
    if extra:
        amounts.extend(extra)
    return combine(s, amounts)


# --- the gladiator's weapons ----------------------------------------------------------------------------
def hand_set(f: Fig) -> int:
    sets = f.sets
    return sets.index(IN_HAND) if IN_HAND in sets else -1


def wield_key(f: Fig) -> str:
    if not f.sets:
        return ""
    i = hand_set(f)
    if i < 0:
        return "dagger"
    key = HEAP_SETS[i]
    if f.part_at >= 0:
        return WEAPONS[key].drop_to
    return key


def weapon(f: Fig) -> Weapon | None:
    k = wield_key(f)
    return WEAPONS[k] if k else None


def te_bonus(s, f: Fig) -> int:
    return GLADIATOR_TYPES[s.teams[f.seat].gtype].te_bonus if f.is_gladiator else 0


def base_te(s, f: Fig) -> int:
    if f.is_gladiator:
        w = weapon(f)
        return (w.te if w else 0) + te_bonus(s, f)
    return f.te


def base_ve(f: Fig) -> int:
    if f.is_gladiator:
        w = weapon(f)
        return w.ve if w else 0
    return f.ve


def te(s, f: Fig) -> int:
    return base_te(s, f) + modifier(s, f, "te")


def ve(s, f: Fig) -> int:
    """Melee VE: weapon or base value, the one spell/trap modifier, and the knocked-down -4 (a skill
    effect, so it adds)."""
    return base_ve(f) + modifier(s, f, "ve") + (DOWN_VE if f.down else 0)


def ce(s, f: Fig, extra: tuple[int, ...] = ()) -> int:
    return f.ce + modifier(s, f, "ce", extra)


def has_skill(s, f: Fig, skill: str) -> bool:
    """Skills by role (20.2); a gladiator's by weapon (20.3), the sword-artist's golden bell always."""
    if f.zombie:
        return False
    if f.is_gladiator:
        g = GLADIATOR_TYPES[s.teams[f.seat].gtype]
        if skill in g.extra_skills:
            return True
        w = weapon(f)
        return w is not None and skill in w.skills
    return skill in ROLE_STATS[f.role].skills


def skills(s, f: Fig) -> frozenset[str]:
    """Every skill for which has_skill holds (for listing many actions of one figure)."""
    if f.zombie:
        return _NO_SKILLS
    if f.is_gladiator:
        return _gladiator_skills(s.teams[f.seat].gtype, wield_key(f))
    return _ROLE_SKILLS[f.role]


_NO_SKILLS: frozenset[str] = frozenset()
_ROLE_SKILLS = tuple(frozenset(st.skills) for st in ROLE_STATS)


@cache
def _gladiator_skills(gtype: str, wk: str) -> frozenset[str]:
    w = WEAPONS[wk] if wk else None
    return frozenset(GLADIATOR_TYPES[gtype].extra_skills) | frozenset(w.skills if w else ())


def skill_blocked(s, f: Fig, skill: str) -> bool:
    """Blood Curdling forbids aiming and running; Muscle Wasting (legs) forbids running."""
    if skill == "aiming":
        return has_flag(s, f, "no_aiming")
    if skill == "running":
        return has_flag(s, f, "no_running")
    return False


# --- movement -------------------------------------------------------------------------------------------
def move_limit(s, f: Fig) -> int:
    if f.zombie:
        return ZOMBIE_FIELDS
    lim = f.move + (RUN_MOVE_BONUS if f.running else 0)
    if f.effects:       # most figures carry none
        for e in active(s, f):
            for name, amount in e.mods:
                if name == "move":
                    lim += amount
    return max(0, lim)


def move_cost(s, f: Fig, sneaking: bool) -> tuple[int, int]:
    """(MAN for the next field, run credit after it): 1 per field, 2 sneaking (20.4), doubled by
    Muscle Wasting or Caltrops; running pays one MAN per two fields."""
    c = SNEAK_COST if sneaking else _MOVE_COST
    if f.cur_double or (f.effects and has_flag(s, f, "double_move")):
        c *= 2
    if f.running and not sneaking:
        if f.run_credit > 0:
            return 0, f.run_credit - 1
        return c, RUN_FIELDS_PER_MAN - 1
    return c, f.run_credit


# --- MAN (7) ----------------------------------------------------------------------------------------------
def mad_enemy(s, f: Fig) -> int:
    e = effect_with(s, f, "madness")
    return e.data if e is not None else -1


def no_man(s, f: Fig) -> bool:
    return f.cur_no_man or has_flag(s, f, "no_man")


def available(s, f: Fig) -> int:
    """M7.9: what this figure may still spend in the current step."""
    if not f.effects and not f.zombie:      # the common case: no spell or trap on it
        if f.cur_no_man:
            return 0
        have = s.gpool if f.role == GL else s.pool + s.teams[f.seat].strat
        lim = f.cur_limit
        return min(have, max(0, lim - f.spent)) if lim >= 0 else have
    if no_man(s, f):
        return 0
    if f.zombie:
        have = f.zman if not s.flags.madness_from_pool else min(f.zman, s.pool + s.teams[f.seat].strat)
    elif mad_enemy(s, f) >= 0 and not s.flags.madness_from_pool:
        have = f.mad_man
    elif f.is_gladiator:
        have = s.gpool
    else:
        have = s.pool + s.teams[f.seat].strat
    lim = f.cur_limit
    for amount in spell_mods(s, f, "man_limit"):       # Burning Nerves: at most 2 MAN per step
        lim = amount if lim < 0 else min(lim, amount)
    if lim >= 0:
        have = min(have, max(0, lim - f.spent))
    return have


def pay(s, f: Fig, cost: int) -> None:
    if cost <= 0:
        return
    f.spent += cost
    if f.zombie:
        f.zman -= cost
        if not s.flags.madness_from_pool:
            return
    elif mad_enemy(s, f) >= 0 and not s.flags.madness_from_pool:
        f.mad_man -= cost
        return
    elif f.is_gladiator:
        s.gpool -= cost
        return
    take = min(s.pool, cost)
    s.pool -= take
    s.teams[f.seat].strat -= cost - take
