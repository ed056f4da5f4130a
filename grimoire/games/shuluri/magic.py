"""Magic (spec 14) and the 31 spells (15).

Casting: the warlock names a spell whose level matches a disc he holds and pays its level (+1 with a
withered arm); the disc returns to the pool and the spell and its level become public (G14.1, S5.7).
Resistance: strength + d10 against Eg or ME + d10, a tie resists (G14.2); the matching amulet makes
its wearer immune to that group's harmful spells (G14.3). Durations: cast in round N with duration
k, the effect applies through round N + k - 1 (G14.4).
"""

from __future__ import annotations

from ...core.decisions import Decision
from . import board as B
from .combat import Attack, engage, sneak_shielded
from .damage import hurt_ep, hurt_sp
from .data import AMULETS, SPELL_BY_KEY, SPELLS, WL, Spell
from .fig import PERMANENT, Effect, Fig, new_zombie
from .sight import line_of_fire
from .team import Area
from .values import available, has_flag, pay, spell_mods

Reason = tuple[str, str] | None
POISON, CURSE = AMULETS.index("poison"), AMULETS.index("curse")
CHAIN_RANGE = SPELL_BY_KEY["chain"].blocks


def cast_cost(s, w: Fig, sp: Spell) -> int:
    return sp.level + sum(spell_mods(s, w, "spell_cost"))


def may_cast_now(s, w: Fig) -> bool:
    """Whether the warlock could cast any spell at all now (ignoring discs, MAN and targets)."""
    return (w.role == WL and not w.zombie and not has_flag(s, w, "fireform") and not w.ordered
            and not (s.flags.spell_limit is not None and w.casts >= s.flags.spell_limit))


def is_self(sp: Spell, w: Fig, target: int) -> bool:
    return sp.target == "self" or target == w.id


def cast_reason(s, w: Fig, sp: Spell, target: int = -1, field: int = -1) -> Reason:
    """Can warlock ``w`` cast ``sp`` at figure ``target`` (or centre ``field``, or corpse ``target``)?"""
    if w.role != WL or w.zombie:
        return "only the warlock casts spells", "T4.1"
    if has_flag(s, w, "fireform"):
        return "in fire form the warlock cannot cast [CANNOT_CAST_IN_FIRE_FORM]", "15.24"
    if s.flags.spell_limit is not None and w.casts >= s.flags.spell_limit:
        return f"the spell limit of a step is {s.flags.spell_limit} [ONE_SPELL_PER_STEP]", "G14.10"
    if w.ordered:
        return "he gave a zombie an order this step, so he does not cast", "15.15"
    team = s.teams[w.seat]
    if sp.level not in team.discs:
        return f"no spell disc of level {sp.level} [NO_DISC_OF_LEVEL]", "G14.1"
    cost = cast_cost(s, w, sp)
    have = available(s, w)
    if cost > have:
        return f"{sp.en} costs {cost} MAN and he has {have} [NOT_ENOUGH_MAN]", "M7.9"
    own = is_self(sp, w, target)
    if not own or not s.flags.self_spell_free:
        if w.attacked:
            return "after an attack the warlock cannot cast this step [ALREADY_ATTACKED]", "C10.9"
        if w.disengaged:
            return "after disengaging the warlock cannot cast this step [DISENGAGED_NO_ATTACK]", "C10.9"
    return cast_target_reason(s, w, sp, target, field)


def cast_target_reason(s, w: Fig, sp: Spell, target: int = -1, field: int = -1) -> Reason:
    """The part of ``cast_reason`` about the target (or centre field, or corpse), for a warlock who may
    cast ``sp`` now: the legal-action listing checks the rest once per spell."""
    kind = sp.target
    if kind == "self":
        return None
    if kind == "area":
        if field < 0:
            return f"{sp.en} needs a centre field", "15"
        if B.block_distance(w.field, field) > sp.blocks:
            return f"{sp.en} reaches {sp.range} blocks [OUT_OF_RANGE]", "G14.5"
        return None
    if kind == "corpse":
        body = s.figs[target] if 0 <= target < len(s.figs) else None
        if body is None or body.alive or body.zombie or body.field < 0 or body.raised or body.is_gladiator:
            return "there is no body to raise there", "15.15"
        if body.field != w.field:
            return "the body must lie on the warlock's field [TOUCH_NEEDS_SAME_FIELD]", "G14.5"
        if s.count_at(w.field) >= B.CAPACITY:
            return "the field is full [FIELD_FULL]", "V9.5"
        return None
    t = s.figs[target] if 0 <= target < len(s.figs) else None
    if t is None or not t.alive or t.field < 0:
        return "there is no such living figure", "D12.6"
    if sp.harmful and s.mode == "pairs" and t.seat != w.seat and not s.enemies(t.seat, w.seat):
        return "partners may not attack each other", "20.10"
    if sp.is_touch:
        if t.field != w.field:
            return f"{sp.en} is a touch spell: the target must share his field [TOUCH_NEEDS_SAME_FIELD]", "G14.5"
        if sp.key in ("sap", "theft") and t.id == w.id:
            return f"{sp.en} is cast on another figure", "15"
        if t.id != w.id and w.down:
            return "a figure that was taken down cannot attack", "20.4"
        return None
    if kind == "chain" and t.id == w.id:
        return "the chain leaps from the warlock to other figures", "15.30"
    if (sp.is_lightning_attack or kind == "chain") and t.field == w.field:
        # the seed: lightning spells "work by the same rule" as ranged weapons, which strike another field (C11.7)
        return (f"{sp.en} strikes like a ranged weapon, at a figure on another field "
                "[TARGET_SAME_FIELD]"), "G14.6"
    if B.block_distance(w.field, t.field) > sp.blocks:
        return f"{sp.en} reaches {sp.range} blocks [OUT_OF_RANGE]", "G14.5"
    if t.id != w.id and sneak_shielded(s, w.field, t):
        return "a sneaking or hiding figure can be targeted only from within 1 block [OUT_OF_RANGE]", "20.4"
    if sp.is_lightning_attack or kind == "chain" or s.flags.spells_need_lof:
        if t.id != w.id:
            shot = line_of_fire(s, w.field, t.field, w.id, t.id, bool(sp.params.get("ignores_walls")))
            if shot.blocked:
                return f"no line of fire: {shot.blocked} [NO_LINE_OF_FIRE]", "G14.6"
    return None


def do_cast(s, w: Fig, sp: Spell, target: int = -1, field: int = -1) -> None:
    team = s.teams[w.seat]
    pay(s, w, cast_cost(s, w, sp))
    team.discs.remove(sp.level)
    team.cast.append(sp.level)
    s.reveals += 1
    w.casts += 1
    own = is_self(sp, w, target)
    if not own or not s.flags.self_spell_free:
        w.cast_other = True
    w.sneak = 0
    if sp.target == "area":
        s.log("casts_at", fig=s.name(w.id), spell=sp.key, level=sp.level, field=B.field_name(field))
    elif target >= 0:
        s.log("casts_on", fig=s.name(w.id), spell=sp.key, level=sp.level, target=s.name(target))
    else:
        s.log("casts", fig=s.name(w.id), spell=sp.key, level=sp.level)
    key = sp.key
    if sp.target == "area":
        _area(s, w, sp, field)
    elif key == "prison":
        _area(s, w, sp, w.field)
    elif key == "fireform":
        add_effect(s, w, sp, w.id, mods=sp.mods(), flags=("fireform",))
    elif key == "undead":
        _raise(s, w, s.figs[target])
    elif sp.target == "chain":
        engage(s, Attack("lightning", w.id, target, "chain", 0, w.field))
    elif sp.is_lightning_attack:
        engage(s, Attack("lightning", w.id, target, key, 0, w.field))
    elif sp.is_touch:
        t = s.figs[target]
        if t.id == w.id:
            touch_effect(s, w, t, sp)
        else:
            engage(s, Attack("touch", w.id, t.id, key))
    else:
        _targeted(s, w, sp, s.figs[target])


# --- effects ------------------------------------------------------------------------------------------------
def end_round(s, sp: Spell, start: int) -> int:
    d = sp.duration
    if d == "permanent":
        return PERMANENT
    if d == "instant":
        return start
    rounds = s.flags.numb_rounds if sp.key == "numb" else int(d)
    if sp.key == "dance" and s.flags.dance_full:
        rounds += 1
    return start + rounds - 1


def add_effect(s, t: Fig, sp: Spell, caster: int, mods: tuple = (), flags: tuple = (), data: int = -1,
               start: int | None = None, end: int | None = None) -> None:
    st = s.round if start is None else start
    e = Effect(sp.key, "spell", sp.type, st, end_round(s, sp, st) if end is None else end, mods, flags, caster, data)
    t.effects = t.effects + (e,)
    if e.end >= PERMANENT:
        s.log("under_spell_forever", fig=s.name(t.id), spell=sp.key)
    else:
        s.log("under_spell", fig=s.name(t.id), spell=sp.key, n=e.end)


def touch_effect(s, w: Fig, t: Fig, sp: Spell) -> None:
    """Lightning Blade and Lightning Armour once the touch landed (or cast on himself)."""
    if sp.key == "blade":
        add_effect(s, t, sp, w.id, mods=sp.mods())
    elif sp.key == "armour":
        add_effect(s, t, sp, w.id, flags=("lightning_armour",))


def _amulet_blocks(s, t: Fig, sp: Spell) -> bool:
    if not sp.harmful:
        return False
    if (sp.type == "poison" and t.amulet == POISON) or (sp.type == "curse" and t.amulet == CURSE):
        from .damage import reveal_amulet
        reveal_amulet(s, t)
        s.log("amulet_protects", fig=s.name(t.id), spell=sp.key)
        return True
    return False


def resisted(s, w: Fig, t: Fig, sp: Spell) -> bool:
    """G14.2: strength + d10 against Eg (or ME) + d10; a tie resists. Rolling ME reveals it (S5.7)."""
    ra, rr = s.d10(), s.d10()
    att = sp.strength + ra
    if sp.resistance == "me":
        val = t.me + t.me_extra
        if t.me_extra and not t.me_shown:
            t.me_shown = True
            s.reveals += 1
        what = "ME"
    else:
        val = t.eg
        what = "Eg"
    ok = att <= val + rr
    s.log("spell_resisted" if ok else "spell_takes_effect", spell=sp.key, roll=ra, strength=sp.strength, att=att,
          fig=s.name(t.id), stat=what, value=val, droll=rr, dfn=val + rr)
    if not ok and s.figs[t.id].alive:
        from .values import effect_with
        if effect_with(s, t, "lightning_armour") is not None and not s.flags.armour_melee_only and t.id != w.id:
            from .combat import discharge
            discharge(s, w)
    return ok


def _targeted(s, w: Fig, sp: Spell, t: Fig) -> None:
    key = sp.key
    p = sp.params
    if key == "denial":
        add_effect(s, t, sp, w.id, flags=("denial",))
        return
    if _amulet_blocks(s, t, sp):
        return
    # the milder poison effect always happens (G14.7)
    if "always_ep" in p:
        hurt_ep(s, t, p["always_ep"], ("spell", sp.key))
    if "always_sp" in p:
        hurt_sp(s, t, p["always_sp"], "spell")
    if key == "quintarha":
        nxt = s.round + 1
        add_effect(s, t, sp, w.id, mods=sp.mods(), start=nxt, end=nxt)
    if s.phase == "over" or not t.alive:
        return
    if sp.resistance == "none":
        return
    if resisted(s, w, t, sp) or s.phase == "over" or not t.alive:
        return
    if "fail_ep" in p:
        hurt_ep(s, t, p["fail_ep"], ("spell", sp.key))
    elif key in ("malediction", "dizzy", "curdle", "fatal", "numb"):
        flags = {"curdle": ("no_aiming", "no_running"), "numb": ("no_aimed", "no_push")}.get(key, ())
        add_effect(s, t, sp, w.id, mods=sp.mods(), flags=flags)
    elif key == "quintarha":
        nxt = s.round + 1
        add_effect(s, t, sp, w.id, flags=("no_man",), start=nxt, end=nxt)
    elif key == "rending":
        t.eg = 0
        add_effect(s, t, sp, w.id, flags=("eg0",))
    elif key == "haemophilia":
        add_effect(s, t, sp, w.id, flags=("haemophilia",))
    elif key == "dance":
        add_effect(s, t, sp, w.id, flags=("no_man",))
    elif key in ("nerves", "wasting", "wither"):
        s.stack.push(Decision("effect", w.seat, (key, t.id, w.id)))
    elif key == "madness":
        s.stack.push(Decision("enemy", w.seat, (t.id, w.id)))


def choice_effect(s, key: str, t: Fig, caster: int, choice: str) -> None:
    """G14.8: the warlock's choice for Burning Nerves, Muscle Wasting and Limb Withering."""
    sp = SPELL_BY_KEY[key]
    p = sp.params
    if key == "nerves":
        if choice == "man":
            add_effect(s, t, sp, caster, mods=(("man_limit", p["man_limit"]),))
        else:
            add_effect(s, t, sp, caster, mods=sp.mods("mods_defence"))
    elif key == "wasting":
        if choice == "legs":
            add_effect(s, t, sp, caster, flags=("double_move", "no_running"))
        else:
            add_effect(s, t, sp, caster, mods=sp.mods("mods_strength"))
    else:
        if choice == "leg":
            add_effect(s, t, sp, caster, mods=(("move", p["leg_move"]),))
        else:
            mods = sp.mods("mods_arm")
            if t.role == WL and not t.zombie:
                mods = mods + (("spell_cost", p["arm_spell_cost"]),)
            add_effect(s, t, sp, caster, mods=mods)


CHOICES = {sp.key: tuple(sp.params["choices"]) for sp in SPELLS if "choices" in sp.params}


def madness(s, t: Fig, caster: int, enemy: int) -> None:
    sp = SPELL_BY_KEY["madness"]
    add_effect(s, t, sp, caster, flags=("madness",), data=enemy)
    if t.id in s.named or (t.is_gladiator and s.active == t.seat and s.sched[s.step_i][1] == "glad"):
        t.mad_man = 0           # its madness MAN starts with its next step


# --- areas ---------------------------------------------------------------------------------------------------
def _area(s, w: Fig, sp: Spell, centre: int) -> None:
    s.area_seq += 1
    area = Area(s.area_seq, sp.key, w.id, w.seat, centre, B.area_fields(centre, s.gate_open), s.round,
                end_round(s, sp, s.round), sp.key == "prison" and s.flags.cage_follows)
    s.areas.append(area)
    if sp.key == "acid":
        for f in [f for f in s.figs if f is not None and f.alive and f.field in area.fields and f.id != w.id]:
            hurt_ep(s, f, sp.params["appear_ep"], ("spell", sp.key))
            if s.phase == "over":
                return
    elif sp.key == "firestorm":
        for f in [f for f in s.figs if f is not None and f.alive and f.field in area.fields and f.id != w.id]:
            hurt_sp(s, f, sp.params["blast_sp"], "blast")
            if s.phase == "over":
                return


def cloud_reason(s, w: Fig, k: int, d: int) -> Reason:
    clouds = [a for a in s.areas if a.key == "acid" and a.caster == w.id]
    if not 1 <= k <= len(clouds):
        return f"he has no acid cloud number {k}", "15.7"
    n = B.NEIGHBOURS[clouds[k - 1].centre][d]
    if n < 0:
        return "the cloud cannot leave the arena", "15.7"
    cost = SPELL_BY_KEY["acid"].params["move_cost"]
    if available(s, w) < cost:
        return f"moving the cloud costs {cost} MAN [NOT_ENOUGH_MAN]", "15.7"
    return None


def do_cloud(s, w: Fig, k: int, d: int) -> None:
    clouds = [a for a in s.areas if a.key == "acid" and a.caster == w.id]
    a = clouds[k - 1]
    pay(s, w, SPELL_BY_KEY["acid"].params["move_cost"])
    n = B.NEIGHBOURS[a.centre][d]
    new = a._replace(centre=n, fields=B.area_fields(n, s.gate_open))
    s.areas = [new if x.id == a.id else x for x in s.areas]
    s.log("cloud_moves", fig=s.name(w.id), dir=B.DIRS[d], field=B.field_name(n))


# --- Raise Undead (15) -------------------------------------------------------------------------------------------
def _raise(s, w: Fig, body: Fig) -> None:
    from .data import ZOMBIE_MAN
    zid = 5 * s.num_players + body.id
    z = new_zombie(zid, body, w.seat, w.id, body.field)
    z.zman = ZOMBIE_MAN
    body.raised = True
    s.figs[zid] = z
    s.log("rises", fig=s.name(body.id), zombie=s.name(zid))


# --- Chain Lightning (15.30) ---------------------------------------------------------------------------------------
def chain_targets(s, w: Fig, prev: Fig) -> list[int]:
    out = []
    for t in s.figs:
        if t is None or not t.alive or t.field < 0 or t.id in (prev.id, w.id):
            continue
        if B.block_distance(w.field, t.field) > CHAIN_RANGE:
            continue
        if s.mode == "pairs" and t.seat != w.seat and not s.enemies(t.seat, w.seat):
            continue
        if sneak_shielded(s, w.field, t):
            continue
        if t.field != prev.field and line_of_fire(s, prev.field, t.field, prev.id, t.id).blocked:
            continue
        out.append(t.id)
    return out


def continue_chain(s, atk: Attack, hit: bool) -> None:
    if not hit or atk.hop >= 2 or s.phase == "over":
        if not hit and atk.hop < 2:
            s.log("chain_breaks")
        return
    w = s.figs[atk.attacker]
    prev = s.figs[atk.target]
    if not w.alive or prev.field < 0:
        return
    if chain_targets(s, w, prev):
        s.stack.push(Decision("chain", w.seat, (w.id, atk.hop + 1, prev.id)))


def chain_hop(s, w: Fig, hop: int, prev: Fig, t: Fig) -> None:
    s.log("chain_leaps", fig=s.name(prev.id), target=s.name(t.id))
    engage(s, Attack("lightning", w.id, t.id, "chain", hop, prev.field, prev.id))
