"""Expected value of every kind of attack, spell and trap (in the unit of ``ctx``: Ep of an enemy
gladiator), from the exact d10 odds and the target's public values.

Each function answers for an attacker standing on a given field (the planner asks for fields it may
still walk to); the rule checks that need the field are done with the figure moved there.
"""

from __future__ import annotations

from .. import board as B
from ..combat import exposed, ranged_kind, sneak_shielded
from ..damage import effective_sfe
from ..data import (
    AIM_BONUS,
    JAVELIN_RANGE,
    JAVELIN_TE,
    NET_RANGE,
    NET_TE,
    RANGED_RANGE,
    SPELL_BY_KEY,
    STP_GLADIATOR,
    STP_RING,
    TRAPS,
)
from ..sight import cloud_hinders
from ..values import base_ve, ce, effect_with, has_flag, modifier, te, te_bonus, ve, weapon
from .ctx import CURSE, LIGHTNING, POISON, Ctx
from .odds import ep_at_least, hit_table, p_beat

# the lasting effects of spells and traps, in Ep of an enemy gladiator, for a gladiator victim and for
# any other victim (a weaker melee fighter or a worse shot matters less in the rings)
EFFECT_WORTH = {
    "malediction": (3.0, 1.0), "dizzy": (2.0, 0.8), "numb": (1.5, 2.0), "nerves": (3.5, 1.5),
    "wasting": (4.5, 1.2), "quintarha_fail": (6.0, 2.0), "quintarha": (1.5, 0.4), "rending": (1.0, 0.6),
    "wither": (3.0, 1.0), "curdle": (6.0, 1.5), "haemophilia": (3.0, 1.0), "fatal": (2.5, 0.8),
    "dance": (12.0, 3.0), "madness": (9.0, 3.0),
}
STP_WORTH = 1.2               # one STP off the enemy gladiator's armour (toward bolts and daggers)
TAKEDOWN_WORTH = 1.0
BREAK_WORTH = 2.5


def _lasting(ctx: Ctx, t, key: str) -> float:
    g, other = EFFECT_WORTH[key]
    if t.is_gladiator:
        return g
    return other * ctx.worth(t) / 5.0


def _weapon_hit_value(ctx: Ctx, a, t, margin: int, sfe: int, melee: bool) -> float:
    """A weapon attack that hits on margin + d10 - d10 > 0, raw Sp = half the margin, Ep = Sp - SFE."""
    s = ctx.s
    if has_flag(s, t, "fireform"):
        return 0.0
    p, ep, at_least = hit_table(margin, sfe, ctx.round_up)
    if effect_with(s, t, "haemophilia") is not None:
        ep += p * 0.8
    p_kill = ep_at_least(margin, sfe, t.ep, ctx.round_up)
    v = ctx.damage_value(t, ep, p_kill)
    if melee and t.stp > 0:
        k = STP_GLADIATOR if t.is_gladiator else STP_RING
        p_stp = at_least[min(k, 12)]
        v += p_stp * (STP_WORTH if t.is_gladiator else 0.3)
    if effect_with(s, t, "lightning_armour") is not None:
        v -= p * _discharge_loss(ctx, a)
    return v


def _discharge_loss(ctx: Ctx, a) -> float:
    """Lightning Armour's 4 Sp on the attacker (spell 13), as a loss for the attacker's side."""
    s = ctx.s
    if ctx.p_amulet(a, LIGHTNING) > 0.5 or effect_with(s, a, "denial") is not None:
        return 0.0
    ep = max(0, 4 - effective_sfe(s, a, lightning=True))
    return ctx.damage_value(a, ep, 1.0 if a.ep <= ep else 0.0)


# --- weapons ----------------------------------------------------------------------------------------------------
def melee(ctx: Ctx, a, t, skill: str = "") -> float:
    s = ctx.s
    margin = te(s, a) - ve(s, t)
    sfe = effective_sfe(s, t)
    if skill == "break":
        p = p_beat(margin)
        tw = weapon(t)
        if tw is None or tw.unbreakable:
            return -1.0
        return p * BREAK_WORTH
    v = _weapon_hit_value(ctx, a, t, margin, sfe, True)
    if skill == "takedown":
        v += p_beat(margin) * TAKEDOWN_WORTH
    return v


def shot(ctx: Ctx, a, t, field: int, aim: bool) -> float | None:
    """Crossbow or daggers from ``field`` at t; None when the shot is not possible from there."""
    s = ctx.s
    kind = ranged_kind(a)
    if not kind or a.ammo <= 0 or t.field == field:
        return None
    if B.block_distance(field, t.field) > RANGED_RANGE[kind]:
        return None
    if sneak_shielded(s, field, t):
        return None
    if t.is_gladiator and not exposed(s, t, kind):
        return None
    rd = ctx.ranged_defence(field, t, a.id)
    if rd is None:
        return None
    _blocked, _base, middle = ctx.lof(field, t, a.id)
    cloud = (SPELL_BY_KEY["acid"].params["ce_through"],) if cloud_hinders(s, field, middle) else ()
    margin = ce(s, a, cloud) + (AIM_BONUS if aim or a.aim else 0) - rd
    return _weapon_hit_value(ctx, a, t, margin, effective_sfe(s, t), False)


def throw(ctx: Ctx, a, t, field: int, what: str) -> float | None:
    """A gladiator's javelin or net (W18.2): TE against melee VE, no line-of-fire terms."""
    s = ctx.s
    if not B.IN_C[t.field] or t.field == field:
        return None
    rng = JAVELIN_RANGE if what == "javelin" else NET_RANGE
    if B.block_distance(field, t.field) > rng:
        return None
    base = JAVELIN_TE if what == "javelin" else NET_TE
    margin = base + te_bonus(s, a) + modifier(s, a, "te") - ve(s, t)
    if what == "net":
        return p_beat(margin) * (3.0 if t.is_gladiator else 1.0)
    return _weapon_hit_value(ctx, a, t, margin, effective_sfe(s, t), False)


# --- spells -------------------------------------------------------------------------------------------------------
def _p_fail(ctx: Ctx, sp, t) -> float:
    """P(the resistance roll fails): strength + d10 > Eg (or ME) + d10."""
    if sp.resistance == "me":
        return sum(p * p_beat(sp.strength - me) for me, p in ctx.me_mix(t))
    return p_beat(sp.strength - t.eg)


def _p_amulet_blocks(ctx: Ctx, sp, t) -> float:
    if sp.type == "poison":
        return ctx.p_amulet(t, POISON)
    if sp.type == "curse":
        return ctx.p_amulet(t, CURSE)
    return 0.0


def lightning(ctx: Ctx, w, sp, t, field: int, hop: int = 0, origin_id: int = -1) -> float | None:
    s = ctx.s
    if t.id == w.id:
        return None
    if B.block_distance(field, t.field) > sp.blocks or sneak_shielded(s, field, t):
        return None
    ignore = bool(sp.params.get("ignores_walls"))
    rd = ctx.ranged_defence(field, t, origin_id if origin_id >= 0 else w.id, ignore)
    if rd is None:
        return None
    _b, _base, middle = ctx.lof(field, t, origin_id if origin_id >= 0 else w.id, ignore)
    cloud = (SPELL_BY_KEY["acid"].params["ce_through"],) if cloud_hinders(s, field, middle) else ()
    hop_ce, dmg = sp.params["lightning"][hop]
    margin = hop_ce + modifier(s, w, "ce", cloud) - rd
    p = p_beat(margin)
    blocked = ctx.p_amulet(t, LIGHTNING)
    if sp.level <= 3 and effect_with(s, t, "denial") is not None:
        blocked = 1.0
    ep = max(0, dmg - effective_sfe(s, t, lightning=True))
    if effect_with(s, t, "haemophilia") is not None and ep > 0:
        ep += 1
    p_eff = p * (1.0 - blocked)
    v = ctx.damage_value(t, p_eff * ep, p_eff * (1.0 if ep >= t.ep else 0.0))
    if effect_with(s, t, "lightning_armour") is not None:
        v -= p * _discharge_loss(ctx, w)
    return v


def in_spell_range(s, w, sp, t, field: int) -> bool:
    """The range part of a cast from ``field`` (touch: the same field; else blocks, G14.5, 20.4)."""
    if sp.is_touch:
        return t.field == field
    if sp.target == "self":
        return True
    if B.block_distance(field, t.field) > sp.blocks:
        return False
    return t.id == w.id or not sneak_shielded(s, field, t)


def spell_on(ctx: Ctx, w, sp, t, field: int) -> float | None:
    """A spell on figure t with the warlock on ``field`` (None: not possible from there)."""
    if not in_spell_range(ctx.s, w, sp, t, field):
        return None
    if sp.is_lightning_attack:
        if not ctx.s.enemies(w.seat, t.seat):
            return None
        v = lightning(ctx, w, sp, t, field)
        return v * 1.3 if v is not None and sp.key == "chain" else v
    return spell_value(ctx, w, sp, t)


def spell_value(ctx: Ctx, w, sp, t) -> float | None:
    """The value of a non-lightning spell on t wherever the warlock stands (None: pointless)."""
    s = ctx.s
    key = sp.key
    enemy = ctx.s.enemies(w.seat, t.seat)
    if key == "denial":
        if enemy or not _enemy_lightning_likely(ctx, t):
            return None
        if ctx.p_amulet(t, LIGHTNING) > 0.5 or effect_with(s, t, "denial") is not None:
            return None
        return 2.5 if t.is_gladiator else 0.4 * ctx.worth(t) / 5.0
    if key == "armour":
        if enemy or effect_with(s, t, "lightning_armour") is not None:
            return None
        near = sum(1 for e in ctx.enemies if B.distance(e.field, t.field) <= 2 and not e.is_gladiator)
        return 0.4 * near
    if key == "blade":
        if enemy or t.is_gladiator or effect_with(s, t, "blade") is not None:
            return None
        return 0.2
    if not enemy:
        return None
    if key in ("sap", "theft"):
        margin = te(s, w) + sp.params["touch_te"] - ve(s, t)
        p = p_beat(margin)
        ep = sp.params["hit_ep"]
        v = ctx.damage_value(t, p * ep, p * (1.0 if ep >= t.ep else 0.0))
        if key == "theft":
            v += p * ctx.per_ep(w) * min(ep, w.max_ep - w.ep)
        return v
    p_block = _p_amulet_blocks(ctx, sp, t)
    p_fail = _p_fail(ctx, sp, t)
    prm = sp.params
    ep_always = prm.get("always_ep", 0)
    if "always_sp" in prm:
        ep_always += max(0, prm["always_sp"] - effective_sfe(s, t))
    ep_fail = prm.get("fail_ep", 0)
    ep = ep_always + p_fail * ep_fail
    p_kill = 1.0 if ep_always >= t.ep else (p_fail if ep_always + ep_fail >= t.ep else 0.0)
    v = ctx.damage_value(t, ep, p_kill)
    if key in EFFECT_WORTH and not _already(s, t, key):
        v += p_fail * _lasting(ctx, t, key)
    if key == "quintarha":
        v = _lasting(ctx, t, "quintarha") + p_fail * _lasting(ctx, t, "quintarha_fail")
    return v * (1.0 - p_block)


def _already(s, t, key: str) -> bool:
    for e in t.effects:
        if e.key == key and e.end >= s.round:
            return True
    return False


def _enemy_lightning_likely(ctx: Ctx, t) -> bool:
    s = ctx.s
    for e in ctx.live:
        if e.role == 1 and not e.zombie and s.enemies(e.seat, t.seat) and s.teams[e.seat].discs:
            return True
    return False


def area_spell(ctx: Ctx, w, sp, centre: int) -> float:
    """Firestorm or Acid Cloud centred on a field: what it does to everyone in the area."""
    s = ctx.s
    fields = set(B.area_fields(centre, s.gate_open))
    v = 0.0
    for f in ctx.live:
        if f.field not in fields or f.id == w.id:
            continue
        if sp.key == "firestorm":
            ep = 3.0 + 2 * 0.5 * max(0, 3 - effective_sfe(s, f))     # the blast, then two ticks (if still there)
        else:
            ep = 1.0
        val = ctx.damage_value(f, ep, 1.0 if f.ep <= 3 and sp.key == "firestorm" else 0.0)
        v += val if s.enemies(w.seat, f.seat) else -1.5 * val
    return v


# --- traps --------------------------------------------------------------------------------------------------------
def trap_value(ctx: Ctx, n: int, t) -> float:
    """Trap card n sprung on figure t (20.5)."""
    s = ctx.s
    tr = TRAPS[n]
    v = 0.0
    if tr.get("poison_strength") is not None:
        p = p_beat(tr.get("poison_strength") - t.eg) * (1.0 - ctx.p_amulet(t, POISON))
        if tr.get("fail_ep"):
            ep = tr.get("fail_ep")
            v += ctx.damage_value(t, p * ep, p * (1.0 if ep >= t.ep else 0.0))
        if tr.get("fail_next_step_no_man"):
            v += p * _step_worth(ctx, t)
        return v
    sp = tr.get("sp", 0)
    if sp:
        ep = max(0, sp - effective_sfe(s, t))
        v += ctx.damage_value(t, ep, 1.0 if ep >= t.ep else 0.0)
    ep2 = tr.get("ep", 0)
    if ep2:
        v += ctx.damage_value(t, ep2, 1.0 if ep2 >= t.ep else 0.0)
    if tr.get("next_step_no_man"):
        v += _step_worth(ctx, t)
    if tr.get("next_step_man_limit"):
        v += 0.5 * _step_worth(ctx, t)
    if tr.get("next_step_double_move"):
        v += 0.2 * _step_worth(ctx, t)
    mods = tr.get("mods")
    if mods:
        v += (0.8 if t.is_gladiator else 0.3 * ctx.worth(t) / 5.0) * (abs(sum(mods.values())) / 4.0)
    if tr.get("stops"):
        v += 0.4 if not t.is_gladiator else 1.0
    return v


def _step_worth(ctx: Ctx, t) -> float:
    """What losing one step of action costs a figure's side."""
    if t.is_gladiator:
        return 4.0
    return 0.5 * ctx.worth(t)


def melee_margin_now(s, a, t) -> int:
    return te(s, a) - ve(s, t)


def gladiator_power(s, a, t) -> float:
    """Expected Ep per exchange a deals to t in melee (for evaluation)."""
    p, ep, _ = hit_table(te(s, a) - (base_ve(t) + modifier(s, t, "ve")), effective_sfe(s, t), s.flags.round_up)
    return ep
