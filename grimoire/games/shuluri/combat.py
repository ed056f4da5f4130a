"""Melee and ranged combat (spec 10, 11), the d10 rolls, the defender's Kiteres and the pushes.

An attack is declared (paid, flags set), then, if its target may dodge, the target's player decides
(a ``dodge`` decision with the attack record as payload) before the dice are rolled (20.4); then it
is resolved. Touch and lightning spells use the same record (magic.py declares them).
"""

from __future__ import annotations

from typing import NamedTuple

from ...core.decisions import Decision
from . import board as B
from .damage import heal, hurt_ep, hurt_sp
from .data import (
    ACRO_COST,
    AIM_BONUS,
    BREAK_COST,
    COST,
    DODGE_BONUS,
    DODGE_COST,
    GLADIATOR_TYPES,
    JAVELIN_RANGE,
    JAVELIN_TE,
    NET_RANGE,
    NET_TE,
    RANGED_RANGE,
    ROLE_STATS,
    SNEAK_MAX_BLOCKS,
    SPELL_BY_KEY,
    TAKEDOWN_COST,
    XB,
)
from .fig import DESTROYED, IN_HAND, Fig
from .movement import push_dirs
from .sight import cloud_hinders, in_own_cage, line_of_fire, others_on_field, storm_shields
from .values import (
    available,
    ce,
    effect_with,
    has_flag,
    has_skill,
    mad_enemy,
    modifier,
    pay,
    te,
    te_bonus,
    ve,
    weapon,
    wield_key,
)

Reason = tuple[str, str] | None
ARMOUR_SP = SPELL_BY_KEY["armour"].params["discharge_sp"]
ARMOUR_LEVEL = SPELL_BY_KEY["armour"].level


class Attack(NamedTuple):
    kind: str           # melee ranged javelin net touch lightning
    attacker: int
    target: int
    skill: str = ""     # break / takedown (melee), or the spell key (touch, lightning)
    hop: int = 0        # Chain Lightning: 0, 1, 2
    origin: int = -1    # the field the shot comes from (a chain hop: the previous target's field)
    prev: int = -1      # Chain Lightning: the previous target


def exposed(s, t: Fig, weapon_kind: str) -> bool:
    """C11.6, D2.3: bolts and thrown daggers wound a gladiator only once his armour lost enough STP."""
    if not t.is_gladiator:
        return True
    g = GLADIATOR_TYPES[s.teams[t.seat].gtype]
    lost = t.stp_max - t.stp
    return lost >= (g.crossbow_after if weapon_kind == "crossbow" else g.daggers_after)


def sneak_shielded(s, a_field: int, t: Fig) -> bool:
    """20.4: a sneaking or hiding figure is shot at or targeted by spells only from within 1 block."""
    return t.sneak > 0 and B.block_distance(a_field, t.field) > SNEAK_MAX_BLOCKS


def attackable(s, a: Fig, t: Fig) -> Reason:
    if not t.alive or t.field < 0:
        return "there is no such living figure", "D12.6"
    if t.id == a.id:
        return "a figure cannot attack itself", "C10"
    mad = mad_enemy(s, a)
    if mad >= 0:
        if t.id != mad:
            return "a madman attacks only its mortal enemy", "15.28"
        return None
    if not s.enemies(a.seat, t.seat):
        return "weapons are turned only against enemies", "C10"
    return None


# --- melee (C10) ---------------------------------------------------------------------------------------
def melee_reason(s, a: Fig, t: Fig, skill: str = "") -> Reason:
    r = attackable(s, a, t)
    if r:
        return r
    if a.attacked:
        return "it has already attacked this step [ALREADY_ATTACKED]", "C10.2"
    if a.cast_other:
        return "after casting the warlock cannot attack with a weapon this step [CAST_NO_ATTACK]", "C10.9"
    if a.down:
        return "a figure that was taken down cannot attack", "20.4"
    reach = False
    if t.field != a.field:
        w = weapon(a)
        if not (w is not None and w.reach and B.distance(a.field, t.field) == 1):
            return "melee needs both on the same field [TARGET_NOT_IN_REACH]", "C10.1"
        reach = True
    if a.disengaged and not reach:
        # the halberd's exception (C10.8, W18.2): from the adjacent field he is not in melee
        return "it disengaged this step and cannot attack [DISENGAGED_NO_ATTACK]", "C10.8"
    if a.is_gladiator and not B.IN_C[t.field]:
        return "gladiators fight only inside the central circle [ZONE_FORBIDDEN]", "C11.9"
    cost = COST["attack"]
    if skill:
        if not (a.is_gladiator and t.is_gladiator):
            return "weapon breaking and takedowns are for gladiator against gladiator", "20.4"
        name = "weapon_break" if skill == "break" else "takedown"
        if not has_skill(s, a, name):
            return f"{wield_key(a)} does not allow that skill [SKILL_NOT_AVAILABLE]", "W18.1"
        if skill == "break":
            tw = weapon(t)
            if tw is None or tw.unbreakable:
                return "the belt dagger cannot be broken", "W18.2"
            cost += BREAK_COST
        else:
            tw = weapon(t)
            if tw is not None and tw.no_takedown:
                return "a halberd wielder cannot be taken down", "W18.2"
            cost += TAKEDOWN_COST
    have = available(s, a)
    if cost > have:
        return f"that costs {cost} MAN and it has {have} [NOT_ENOUGH_MAN]", "M7.9"
    return None


def declare_melee(s, a: Fig, t: Fig, skill: str = "") -> None:
    cost = COST["attack"] + (BREAK_COST if skill == "break" else TAKEDOWN_COST if skill == "takedown" else 0)
    pay(s, a, cost)
    _attacking(s, a)
    if skill:
        s.log("attacks_skill", fig=s.name(a.id), target=s.name(t.id), skill=skill)
    else:
        s.log("attacks", fig=s.name(a.id), target=s.name(t.id))
    reveal_weapons_on_exchange(s, a, t)
    engage(s, Attack("melee", a.id, t.id, skill))


def _attacking(s, a: Fig) -> None:
    a.attacked = True
    a.must_attack = False
    a.sneak = 0


# --- ranged (C11) ---------------------------------------------------------------------------------------
def ranged_kind(a: Fig) -> str:
    return ROLE_STATS[a.role].ranged_weapon if not a.zombie else ""


def shot_reason(s, a: Fig, t: Fig) -> Reason:
    """Crossbow bolts and thrown daggers."""
    wk = ranged_kind(a)
    if not wk:
        return "it has no ranged weapon", "C11.1"
    r = attackable(s, a, t)
    if r:
        return r
    r = may_shoot_reason(s, a)
    if r:
        return r
    if a.ammo <= 0:
        return "no ammunition left [NO_AMMO]", "C11.8"
    if t.field == a.field:
        return "an enemy on the same field is attacked in melee [TARGET_SAME_FIELD]", "C11.7"
    if B.block_distance(a.field, t.field) > RANGED_RANGE[wk]:
        return f"out of range ({RANGED_RANGE[wk]} blocks) [OUT_OF_RANGE]", "C11.1"
    if sneak_shielded(s, a.field, t):
        return "a sneaking or hiding figure can be shot only from within 1 block [OUT_OF_RANGE]", "20.4"
    if not exposed(s, t, wk) and not s.flags.futile_ranged:
        return "the gladiator's armour still stops bolts and daggers [GLADIATOR_NOT_EXPOSED]", "C11.6"
    if COST["attack"] > available(s, a):
        return f"that costs {COST['attack']} MAN [NOT_ENOUGH_MAN]", "M7.9"
    shot = line_of_fire(s, a.field, t.field, a.id, t.id)
    if shot.blocked:
        return f"no line of fire: {shot.blocked} [NO_LINE_OF_FIRE]", "C11.4"
    return None


def may_shoot_reason(s, a: Fig) -> Reason:
    if a.attacked:
        return "it has already attacked this step [ALREADY_ATTACKED]", "C10.2"
    if a.disengaged:
        return "it disengaged this step and cannot attack [DISENGAGED_NO_ATTACK]", "C10.8"
    if a.down:
        return "a figure that was taken down cannot attack", "20.4"
    if has_flag(s, a, "no_aimed"):
        return "Numbing Poison: it cannot make aimed attacks", "15.8"
    return None


def declare_shot(s, a: Fig, t: Fig) -> None:
    pay(s, a, COST["attack"])
    _attacking(s, a)
    a.ammo -= 1
    s.log("shoots", fig=s.name(a.id), target=s.name(t.id))
    engage(s, Attack("ranged", a.id, t.id, origin=a.field))


def throw_reason(s, a: Fig, t: Fig, what: str) -> Reason:
    """W18.2: a gladiator's javelins and nets, with a free hand, at figures in C."""
    if not a.is_gladiator:
        return "only gladiators throw javelins and nets", "W18.2"
    r = attackable(s, a, t)
    if r:
        return r
    r = may_shoot_reason(s, a)
    if r:
        return r
    if (a.javelins if what == "javelin" else a.nets) <= 0:
        return f"no {what}s left [NO_AMMO]", "W18.2"
    w = weapon(a)
    if w is None or not w.hand_free:
        return f"a {what} needs a free hand: drop the shield, a sword or the two-handed weapon first", "W18.2"
    if not B.IN_C[t.field]:
        return "gladiators' throws cannot hit figures outside the central circle [ZONE_FORBIDDEN]", "C11.9"
    if t.field == a.field:
        return "an enemy on the same field is attacked in melee [TARGET_SAME_FIELD]", "C11.7"
    rng = JAVELIN_RANGE if what == "javelin" else NET_RANGE
    if B.block_distance(a.field, t.field) > rng:
        return f"out of range ({rng} blocks) [OUT_OF_RANGE]", "W18.2"
    if COST["attack"] > available(s, a):
        return f"that costs {COST['attack']} MAN [NOT_ENOUGH_MAN]", "M7.9"
    return None


def declare_throw(s, a: Fig, t: Fig, what: str) -> None:
    pay(s, a, COST["attack"])
    _attacking(s, a)
    if what == "javelin":
        a.javelins -= 1
    else:
        a.nets -= 1
    s.log(f"throws_{what}", fig=s.name(a.id), target=s.name(t.id))
    reveal_weapons_on_exchange(s, a, t)
    engage(s, Attack(what, a.id, t.id, origin=a.field))


# --- resolution ------------------------------------------------------------------------------------------
def may_dodge(s, t: Fig) -> bool:
    return t.alive and not t.zombie and has_skill(s, t, "dodge")


def engage(s, atk: Attack) -> None:
    t = s.figs[atk.target]
    if may_dodge(s, t):
        s.stack.push(Decision("dodge", t.seat, atk))
    else:
        resolve(s, atk, False)


def damage_of(s, att: int, dfn: int) -> int:
    diff = att - dfn
    return (diff + 1) // 2 if s.flags.round_up else diff // 2


def ranged_defence(s, atk: Attack, t: Fig, ignore_walls: bool = False) -> tuple[int, tuple]:
    """C11.3: 2 x (B + W + N + L) and the one spell modifier to the ranged defence."""
    a = s.figs[atk.attacker]
    shooter = a.id if atk.origin == a.field else (atk.prev if atk.prev >= 0 else a.id)
    shot = line_of_fire(s, atk.origin, t.field, shooter, t.id, ignore_walls)
    n = others_on_field(s, t.field, t.id)
    base = 2 * (shot.borders + shot.walls + n + shot.in_line)
    extra = []
    if storm_shields(s, t.field, shot.middle):
        extra.append(SPELL_BY_KEY["firestorm"].params["rve_into"])
    if in_own_cage(s, t):
        extra.append(SPELL_BY_KEY["prison"].params["caster_rve"])
    return base + modifier(s, t, "rve", tuple(extra)), shot.middle


def resolve(s, atk: Attack, dodged: bool) -> None:
    a = s.figs[atk.attacker]
    t = s.figs[atk.target]
    if not t.alive:
        s.log("comes_to_nothing", target=s.name(t.id))
        return
    if dodged:
        t.debt += DODGE_COST
        s.log("dodges", fig=s.name(t.id))
    bonus = DODGE_BONUS if dodged else 0
    kind = atk.kind
    roll_a = s.d10()
    roll_d = s.d10()
    if kind in ("melee", "touch"):
        att = te(s, a) + roll_a
        if kind == "touch":
            sp = SPELL_BY_KEY[atk.skill]
            extra = sp.params.get("touch_te", 0)
            if not s.enemies(a.seat, t.seat):
                extra = max(extra, 5)
            att += extra
        dfn = ve(s, t) + roll_d + bonus
    elif kind in ("javelin", "net"):
        base = JAVELIN_TE if kind == "javelin" else NET_TE
        att = base + te_bonus(s, a) + modifier(s, a, "te") + roll_a
        dfn = ve(s, t) + roll_d + bonus
    elif kind == "ranged":
        rd, middle = ranged_defence(s, atk, t)
        cloud = (SPELL_BY_KEY["acid"].params["ce_through"],) if cloud_hinders(s, atk.origin, middle) else ()
        att = ce(s, a, cloud) + (AIM_BONUS if a.aim else 0) + roll_a
        a.aim = False
        dfn = rd + roll_d + bonus
    else:  # lightning
        sp = SPELL_BY_KEY[atk.skill]
        hop_ce, _dmg = sp.params["lightning"][atk.hop]
        rd, middle = ranged_defence(s, atk, t, ignore_walls=bool(sp.params.get("ignores_walls")))
        cloud = (SPELL_BY_KEY["acid"].params["ce_through"],) if cloud_hinders(s, atk.origin, middle) else ()
        att = hop_ce + modifier(s, a, "ce", cloud) + roll_a
        dfn = rd + roll_d + bonus
    hit = att > dfn
    s.log("roll_hit" if hit else "roll_miss", fig=s.name(a.id), roll=roll_a, att=att, target=s.name(t.id),
          droll=roll_d, dfn=dfn)
    if hit:
        _hit(s, atk, a, t, damage_of(s, att, dfn))
        if s.phase == "over":
            return
        harmful = kind != "touch" or SPELL_BY_KEY[atk.skill].harmful
        if harmful and t.alive and a.alive and effect_with(s, t, "lightning_armour") is not None:
            if kind in ("melee", "touch") or not s.flags.armour_melee_only:
                discharge(s, a)
                if s.phase == "over":
                    return
    if kind == "melee":
        _offer_push(s, a, t, att, dfn, roll_a, roll_d)
    if kind == "lightning" and atk.skill == "chain":
        from .magic import continue_chain
        continue_chain(s, atk, hit)


def discharge(s, a: Fig) -> None:
    """Lightning Armour (spell 13): the successful attacker takes 4 Sp of lightning."""
    s.log("armour_discharges", fig=s.name(a.id))
    hurt_sp(s, a, ARMOUR_SP, "lightning", ARMOUR_LEVEL)


def _hit(s, atk: Attack, a: Fig, t: Fig, raw: int) -> None:
    kind = atk.kind
    if kind == "melee":
        if atk.skill == "break":
            i = next((k for k, st in enumerate(t.sets) if st == IN_HAND), -1)
            if i >= 0:
                t.sets[i] = DESTROYED
                t.part_at = -1
                s.log("weapon_broken", fig=s.name(t.id))
            return
        hurt_sp(s, t, raw, "melee")
        if atk.skill == "takedown" and t.alive:
            t.down = True
            s.log("taken_down", fig=s.name(t.id))
        if t.alive and a.coat:
            from .extras import vial_poison
            vial_poison(s, a, t)
        return
    if kind == "ranged":
        if t.is_gladiator and not exposed(s, t, ranged_kind(a)):
            s.log("armour_stops")
            return
        hurt_sp(s, t, raw, "ranged")
        if t.alive and a.coat:
            from .extras import vial_poison
            vial_poison(s, a, t)
        return
    if kind == "javelin":
        hurt_sp(s, t, raw, "ranged")
        return
    if kind == "net":
        t.netted = True
        s.log("netted", fig=s.name(t.id))
        return
    if kind == "touch":
        sp = SPELL_BY_KEY[atk.skill]
        if atk.skill == "sap":
            hurt_ep(s, t, sp.params["hit_ep"], ("spell", "sap"))
        elif atk.skill == "theft":
            hurt_ep(s, t, sp.params["hit_ep"], ("spell", "theft"))
            heal(s, a, sp.params["hit_ep"])
        else:
            from .magic import touch_effect
            touch_effect(s, a, t, sp)
        return
    sp = SPELL_BY_KEY[atk.skill]
    dmg = sp.params["lightning"][atk.hop][1]
    hurt_sp(s, t, dmg, "lightning", sp.level)


# --- pushes (C10.10, 20.4 Akrobatika) ----------------------------------------------------------------------------
def _offer_push(s, a: Fig, t: Fig, att: int, dfn: int, roll_a: int, roll_d: int) -> None:
    if not (a.alive and t.alive) or s.phase == "over":
        return
    x, y = (roll_a, roll_d) if s.flags.push_d10 else (att, dfn)
    if x == y:
        return
    winner, loser = (a, t) if x > y else (t, a)
    if winner.zombie or mad_enemy(s, winner) >= 0 or winner.down or has_flag(s, winner, "no_push"):
        return
    if winner.is_gladiator and loser.is_gladiator:
        mode = "gladiator"
    elif has_skill(s, winner, "acrobatics"):
        mode = "acrobatics"
        if winner is a and available(s, a) < ACRO_COST:
            return
    else:
        return
    if not push_dirs(s, winner, loser):
        return
    s.stack.push(Decision("push", winner.seat, (winner.id, loser.id, mode, winner is t)))


def reveal_weapons_on_exchange(s, a: Fig, t: Fig) -> None:
    """R17, weapon_reveal = first_exchange: a gladiator's weapon shows when he first fights."""
    if s.flags.reveal_first_step:
        return
    for f in (a, t):
        if f.is_gladiator and not s.teams[f.seat].weapon_shown:
            s.teams[f.seat].weapon_shown = True
            s.reveals += 1
            s.log("fights_with", fig=s.name(f.id), weapon=wield_key(f))


def crossbow_role(f: Fig) -> bool:
    return f.role == XB and not f.zombie
