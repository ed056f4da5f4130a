"""One DecisionKind handler per decision: what answers it, why an answer is refused, what it does.

The acting player's step ("act") is the decision at the bottom of the stack; interrupts (trap
windows, the defender's Kiteres, pushes, the warlock's follow-up choices) are pushed on top. Setup
choices are decisions too. Each handler's ``check`` and ``legal`` go through the same rule
functions (``*_reason``), so what is listed is exactly what is accepted.
"""

from __future__ import annotations

from typing import Any

from ...core.action import Action
from ...core.decisions import Decision, DecisionKind
from . import actions as A
from . import board as B
from .arms import (
    bell_reason,
    do_bell,
    do_drop,
    do_pickup,
    do_stand,
    do_wield,
    drop_reason,
    pickup_reason,
    stand_reason,
    wield_reason,
)
from .combat import (
    ACRO_COST,
    Attack,
    declare_melee,
    declare_shot,
    declare_throw,
    melee_reason,
    resolve,
    shot_reason,
    throw_reason,
)
from .data import (
    AIM_COST,
    COST,
    GL,
    HEAP_SETS,
    HIDE_COST,
    N_ROLES,
    RESIST_VALUES,
    ROLES,
    RUN_COST,
    SPELL_BY_KEY,
    SPELLS,
    TRAPS_PER_HAND,
    WL,
)
from .extras import coat_reason, do_coat, do_drink, drink_reason
from .flow import deploy_fields, naming_options, set_half
from .flow import name as do_name
from .magic import (
    CHOICES,
    cast_reason,
    chain_hop,
    chain_targets,
    choice_effect,
    cloud_reason,
    do_cast,
    do_cloud,
    madness,
    may_cast_now,
)
from .movement import do_gate, do_move, do_push, gate_reason, move_reason, player_controls, push_dirs, push_reason
from .traps import direct_reason, do_direct, do_ranged, do_shove, is_ranged, ranged_reason, shove_dirs, shove_reason
from .values import available, has_skill, pay, skill_blocked

Reason = tuple[str, str] | None


class Kind(DecisionKind):
    def stale(self, s, d: Decision) -> bool:
        """The decision no longer makes sense (a figure it is about died): it is dropped."""
        return False

    def describe(self, s, d: Decision, seat: int | None) -> dict[str, Any]:
        """The decision as ``seat`` may see it (observations)."""
        return {}


def _fig(s, name: str):
    cid = A.fig_id(s, name)
    return s.figs[cid] if cid >= 0 and s.figs[cid] is not None else None


# --- naming (F6.3, F6.4) ----------------------------------------------------------------------------------
class NameKind(Kind):
    kind = "name"
    answers = ("name",)
    prompt = "name the characters who act in this step"

    def legal(self, s, d):
        return [A.get("name " + " ".join(ROLES[r] for r in opt)) for opt in naming_options(s, d.seat,
                                                                                         s.sched[s.step_i][1])]

    def check(self, s, d, a):
        opts = naming_options(s, d.seat, s.sched[s.step_i][1])
        if tuple(a.args) in opts:
            return None
        if len(a.args) < 2 and not s.flags.single_naming:
            return "name two characters while two or more may act [MUST_NAME_TWO]", "F6.3"
        return "name living characters other than the gladiator that were not named yet this round " \
               "[ALREADY_NAMED_THIS_ROUND]", "F6.4"

    def do(self, s, d, a):
        s.stack.pop()
        do_name(s, tuple(a.args))


# --- the acting player's step -------------------------------------------------------------------------------
ACT_KINDS = ("move", "hide", "run", "aim", "coat", "drink", "attack", "shoot", "javelin", "net", "drop", "pickup",
             "stand", "bell", "wield", "gate", "cast", "cloud", "order", "trap", "end")


def actor(s, seat: int, role: int):
    return s.figs[seat * 5 + role]


def actor_reason(s, f) -> Reason:
    if not f.alive:
        return f"{s.name(f.id)} is dead", "D12.6"
    if f.id not in s.named:
        if s.sched[s.step_i][1] == "glad":
            return "only the gladiator acts in this step [GLADIATOR_ONLY_STEP]", "F6.2"
        if f.is_gladiator:
            return "the gladiator acts only in the gladiator steps [NOT_GLADIATOR_STEP]", "F6.2"
        return f"{s.name(f.id)} was not named for this step [NOT_NAMED]", "F6.3"
    if not player_controls(s, f):
        return f"{s.name(f.id)} is in the grip of Assassin's Madness and acts on its own", "15.28"
    return None


def act_reason(s, seat: int, a: Action) -> Reason:
    k = a.kind
    if k == "end":
        for cid in s.named:
            f = s.figs[cid]
            if f.must_attack and f.alive and not f.attacked and any(
                    melee_reason(s, f, g) is None for g in s.at(f.field) if g.id != f.id):
                return f"{s.name(f.id)} entered an enemy's field and must attack", "R10"
        return None
    if k == "trap":
        n, t = a.args
        if not is_ranged(s, n):
            return f"direct trap {n} is played only during an enemy's step [TRAP_TIMING]", "T16.4"
        tf = _fig(s, t)
        return ranged_reason(s, seat, n, tf.id if tf is not None else -1)
    f = actor(s, seat, a.args[0])
    r = actor_reason(s, f)
    if r:
        return r
    if k == "move":
        _r, d, mode = a.args
        if mode == "sneak" and not has_skill(s, f, "sneaking"):
            return "only a character with Lopakodas can sneak [SKILL_NOT_AVAILABLE]", "20.4"
        return move_reason(s, f, d, mode)
    if k == "hide":
        if not has_skill(s, f, "sneaking"):
            return "only a character with Lopakodas can hide [SKILL_NOT_AVAILABLE]", "20.4"
        if f.sneak == 2:
            return "it is already hiding", "20.4"
        return _afford(s, f, HIDE_COST)
    if k == "run":
        if not has_skill(s, f, "running") or skill_blocked(s, f, "running"):
            return "it cannot use Futas now [SKILL_NOT_AVAILABLE]", "20.4"
        if f.running:
            return "it is already running", "20.4"
        return _afford(s, f, RUN_COST)
    if k == "aim":
        if not has_skill(s, f, "aiming") or skill_blocked(s, f, "aiming"):
            return "it cannot use Celzas now [SKILL_NOT_AVAILABLE]", "20.4"
        if f.aim:
            return "it is already aiming", "20.4"
        if f.attacked or f.ammo <= 0:
            return "aiming helps only a ranged attack still to come in this step", "20.4"
        return _afford(s, f, AIM_COST)
    if k == "coat":
        return coat_reason(s, f)
    if k == "drink":
        return drink_reason(s, f)
    if k in ("attack", "shoot", "javelin", "net"):
        t = _fig(s, a.args[1])
        if t is None:
            return "there is no such figure", "D12.6"
        if k == "attack":
            return melee_reason(s, f, t, a.args[2])
        if k == "shoot":
            return shot_reason(s, f, t)
        return throw_reason(s, f, t, k)
    if k == "drop":
        return drop_reason(s, f)
    if k == "pickup":
        return pickup_reason(s, f)
    if k == "stand":
        return stand_reason(s, f)
    if k == "bell":
        return bell_reason(s, f)
    if k == "wield":
        return wield_reason(s, f, a.args[1])
    if k == "gate":
        return gate_reason(s, f, a.args[1], a.args[2])
    if k == "cast":
        _r, key, t, field = a.args
        sp = SPELL_BY_KEY[key]
        target = -1
        if t:
            tf = s.figs[A.fig_id(s, t)] if A.fig_id(s, t) >= 0 else None
            if tf is None:
                return "there is no such figure", "D12.6"
            target = tf.id
        return cast_reason(s, f, sp, target, field)
    if k == "cloud":
        return cloud_reason(s, f, a.args[1], a.args[2])
    if k == "order":
        z = _fig(s, a.args[1])
        if z is None or not z.alive or z.creator != f.id:
            return "he can order only a living zombie he raised", "15.15"
        if f.casts:
            return "he cast this step, so he cannot give orders [R31]", "15.15"
        return _afford(s, f, COST["zombie_order"])
    return f"'{a.text}' is not an action of a step", "6"


def _afford(s, f, cost: int) -> Reason:
    have = available(s, f)
    if cost > have:
        return f"that costs {cost} MAN and it has {have} [NOT_ENOUGH_MAN]", "M7.9"
    return None


class ActKind(Kind):
    kind = "act"
    answers = ACT_KINDS
    prompt = "act with the named characters, then 'end'"

    def legal(self, s, d):
        from .legal import act_actions
        return act_actions(s, d.seat)

    def check(self, s, d, a):
        return act_reason(s, d.seat, a)

    def do(self, s, d, a):
        k = a.kind
        seat = d.seat
        if k == "end":
            s.stack.pop()
            s.sub = "zomb"
            s.log("ends_step", player=seat)
            return
        if k == "trap":
            n, t = a.args
            do_ranged(s, seat, n, A.fig_id(s, t))
            return
        f = actor(s, seat, a.args[0])
        if k == "move":
            do_move(s, f, a.args[1], a.args[2])
        elif k == "hide":
            pay(s, f, HIDE_COST)
            f.sneak = 2
            s.log("hides", fig=s.name(f.id))
        elif k == "run":
            pay(s, f, RUN_COST)
            f.running = True
            f.run_credit = 0
            s.log("runs", fig=s.name(f.id))
        elif k == "aim":
            pay(s, f, AIM_COST)
            f.aim = True
            s.log("aims", fig=s.name(f.id))
        elif k == "coat":
            do_coat(s, f)
        elif k == "drink":
            do_drink(s, f)
        elif k == "attack":
            declare_melee(s, f, _fig(s, a.args[1]), a.args[2])
        elif k == "shoot":
            declare_shot(s, f, _fig(s, a.args[1]))
        elif k in ("javelin", "net"):
            declare_throw(s, f, _fig(s, a.args[1]), k)
        elif k == "drop":
            do_drop(s, f)
        elif k == "pickup":
            do_pickup(s, f)
        elif k == "stand":
            do_stand(s, f)
        elif k == "bell":
            do_bell(s, f)
        elif k == "wield":
            do_wield(s, f, a.args[1])
        elif k == "gate":
            do_gate(s, f, a.args[1], a.args[2])
        elif k == "cast":
            _r, key, t, field = a.args
            do_cast(s, f, SPELL_BY_KEY[key], A.fig_id(s, t) if t else -1, field)
        elif k == "cloud":
            do_cloud(s, f, a.args[1], a.args[2])
        elif k == "order":
            z = _fig(s, a.args[1])
            give = COST["zombie_order"]
            # spell 15: the warlock gives the zombie 2 of his own MAN (added to its 3 of the round). When zombie
            # MAN comes out of the step pool anyway (madness_from_pool, R15) the pool pays when the zombie spends.
            if not s.flags.madness_from_pool:
                pay(s, f, give)
            z.zman += give
            f.ordered = True
            s.log("gives_order", fig=s.name(f.id), target=s.name(z.id))
            s.stack.push(Decision("order", seat, z.id))


# --- trap windows (T16.4, T16.5) -----------------------------------------------------------------------------------
class ReactKind(Kind):
    kind = "react"
    answers = ("pass", "passall", "trap")
    prompt = "spring a direct trap on the moving enemy, or pass"

    def legal(self, s, d):
        out = [A.PASS, A.PASS_ALL]
        for n, _holder in sorted(s.teams[d.seat].hand):
            if not is_ranged(s, n) and direct_reason(s, d.seat, n, d.payload) is None:
                out.append(A.get(f"trap {n}"))
        return out

    def check(self, s, d, a):
        if a.kind == "trap":
            if a.args[1]:
                return "in a trap window play a direct trap: 'trap <n>'", "T16.4"
            return direct_reason(s, d.seat, a.args[0], d.payload)
        return None

    def do(self, s, d, a):
        s.stack.pop()
        if a.kind == "passall":
            s.teams[d.seat].react_off = True
        elif a.kind == "trap":
            do_direct(s, d.seat, a.args[0], d.payload)

    def stale(self, s, d):
        return not s.figs[d.payload[0]].alive

    def dump_payload(self, p):
        return list(p)

    def load_payload(self, p):
        return tuple(int(x) if not isinstance(x, str) else x for x in p)

    def describe(self, s, d, seat):
        mover, kind, gate, came = d.payload
        return {"mover": s.name(mover), "event": kind, "gate": B.GATES[gate].id if gate >= 0 else None,
                "from": B.field_name(came)}


# --- Kiteres (20.4) ------------------------------------------------------------------------------------------------
class DodgeKind(Kind):
    kind = "dodge"
    answers = ("dodge",)
    prompt = "dodge this attack (Kiteres, 2 MAN from your next step)?"

    def legal(self, s, d):
        return [A.DODGE, A.NO_DODGE]

    def check(self, s, d, a):
        return None

    def do(self, s, d, a):
        s.stack.pop()
        resolve(s, d.payload, a.args[0])

    def dump_payload(self, p):
        return list(p)

    def load_payload(self, p):
        return Attack(*p)

    def describe(self, s, d, seat):
        atk = d.payload
        out = {"attacker": s.name(atk.attacker), "target": s.name(atk.target), "attack": atk.kind}
        if atk.kind in ("touch", "lightning"):
            out["spell"] = atk.skill
        elif atk.skill:
            out["skill"] = atk.skill
        return out


# --- pushes (C10.10, Akrobatika) -----------------------------------------------------------------------------------
class PushKind(Kind):
    kind = "push"
    answers = ("push",)
    prompt = "push your opponent (and yourself) one field?"

    def legal(self, s, d):
        w, o = s.figs[d.payload[0]], s.figs[d.payload[1]]
        return [A.get(f"push {B.DIRS[x]}") for x in push_dirs(s, w, o)] + [A.NO_PUSH]

    def check(self, s, d, a):
        if a.args[0] < 0:
            return None
        return push_reason(s, s.figs[d.payload[0]], s.figs[d.payload[1]], a.args[0])

    def do(self, s, d, a):
        s.stack.pop()
        if a.args[0] < 0:
            return
        w, o = s.figs[d.payload[0]], s.figs[d.payload[1]]
        if d.payload[2] == "acrobatics":
            if d.payload[3]:
                w.debt += ACRO_COST
            else:
                pay(s, w, ACRO_COST)
        do_push(s, w, o, a.args[0])

    def stale(self, s, d):
        return not (s.figs[d.payload[0]].alive and s.figs[d.payload[1]].alive)

    def dump_payload(self, p):
        return list(p)

    def load_payload(self, p):
        return tuple(p)

    def describe(self, s, d, seat):
        return {"pusher": s.name(d.payload[0]), "other": s.name(d.payload[1]), "mode": d.payload[2]}


class ShoveKind(Kind):
    kind = "shove"
    answers = ("shove",)
    prompt = "the swinging beam moves its target one field: choose the direction"

    def legal(self, s, d):
        return [A.get(f"shove {B.DIRS[x]}") for x in shove_dirs(s, s.figs[d.payload])]

    def check(self, s, d, a):
        return shove_reason(s, s.figs[d.payload], a.args[0])

    def do(self, s, d, a):
        s.stack.pop()
        do_shove(s, s.figs[d.payload], a.args[0])

    def stale(self, s, d):
        t = s.figs[d.payload]
        return not t.alive or not shove_dirs(s, t)

    def describe(self, s, d, seat):
        return {"target": s.name(d.payload)}


# --- the warlock's follow-up choices ---------------------------------------------------------------------------
class EffectKind(Kind):
    kind = "effect"
    answers = ("effect",)
    prompt = "choose the spell's effect"

    def legal(self, s, d):
        return [A.get(f"effect {c}") for c in CHOICES[d.payload[0]]]

    def check(self, s, d, a):
        if a.args[0] not in CHOICES[d.payload[0]]:
            return f"choose one of: {', '.join(CHOICES[d.payload[0]])}", "G14.8"
        return None

    def do(self, s, d, a):
        s.stack.pop()
        key, t, caster = d.payload
        choice_effect(s, key, s.figs[t], caster, a.args[0])

    def stale(self, s, d):
        return not s.figs[d.payload[1]].alive

    def dump_payload(self, p):
        return list(p)

    def load_payload(self, p):
        return tuple(p)

    def describe(self, s, d, seat):
        return {"spell": d.payload[0], "target": s.name(d.payload[1])}


class EnemyKind(Kind):
    kind = "enemy"
    answers = ("enemy",)
    prompt = "designate the madman's mortal enemy"

    def legal(self, s, d):
        victim = d.payload[0]
        return [A.get(f"enemy {s.name(f.id)}") for f in s.figs
                if f is not None and f.alive and f.field >= 0 and f.id != victim]

    def check(self, s, d, a):
        t = _fig(s, a.args[0])
        if t is None or not t.alive or t.field < 0 or t.id == d.payload[0]:
            return "designate another living figure", "15.28"
        return None

    def do(self, s, d, a):
        s.stack.pop()
        victim, caster = d.payload
        madness(s, s.figs[victim], caster, _fig(s, a.args[0]).id)
        s.log("goes_mad", fig=s.name(victim), target=a.args[0])

    def stale(self, s, d):
        return not s.figs[d.payload[0]].alive

    def dump_payload(self, p):
        return list(p)

    def load_payload(self, p):
        return tuple(p)

    def describe(self, s, d, seat):
        return {"victim": s.name(d.payload[0])}


class ChainKind(Kind):
    kind = "chain"
    answers = ("chain",)
    prompt = "the chain lightning leaps on: choose its next target"

    def legal(self, s, d):
        w, hop, prev = d.payload
        out = [A.get(f"chain {s.name(t)}") for t in chain_targets(s, s.figs[w], s.figs[prev])]
        if hop >= 2:
            out.append(A.CHAIN_STOP)
        return out

    def check(self, s, d, a):
        w, hop, prev = d.payload
        if not a.args[0]:
            return None if hop >= 2 else ("the chain hits at least two figures", "15.30")
        t = _fig(s, a.args[0])
        if t is None or t.id not in chain_targets(s, s.figs[w], s.figs[prev]):
            return "it cannot leap there (range 3 blocks from the warlock, a line of fire, not the same " \
                   "figure twice in a row)", "15.30"
        return None

    def do(self, s, d, a):
        s.stack.pop()
        w, hop, prev = d.payload
        if a.args[0]:
            chain_hop(s, s.figs[w], hop, s.figs[prev], _fig(s, a.args[0]))

    def stale(self, s, d):
        w, _hop, prev = d.payload
        return not s.figs[w].alive or s.figs[prev].field < 0 or not chain_targets(s, s.figs[w], s.figs[prev])

    def dump_payload(self, p):
        return list(p)

    def load_payload(self, p):
        return tuple(p)

    def describe(self, s, d, seat):
        return {"hop": d.payload[1] + 1, "from": s.name(d.payload[2])}


class OrderKind(Kind):
    kind = "order"
    answers = ("orderto",)
    prompt = "the zombie's order"

    def legal(self, s, d):
        z = s.figs[d.payload]
        out = []
        for f in range(B.N_FIELDS):
            if not B.IN_C[f]:
                out.append(A.get(f"order goto {B.field_name(f)}"))
                out.append(A.get(f"order guard {B.field_name(f)}"))
        for g in B.GATES:
            out.append(A.get(f"order guard {g.id}"))
        for f in s.figs:
            if f is not None and f.alive and f.field >= 0 and f.id not in (z.id, z.creator):
                out.append(A.get(f"order attack {s.name(f.id)}"))
        return out

    def check(self, s, d, a):
        kind, arg = a.args
        z = s.figs[d.payload]
        if kind in ("goto", "guard") and B.IN_C[arg]:
            return "zombies cannot enter the central circle [ZONE_FORBIDDEN]", "15.15"
        if kind == "attack":
            t = _fig(s, arg)
            if t is None or not t.alive or t.field < 0 or t.id in (z.id, z.creator):
                return "order it to attack another living figure (never its creator)", "15.15"
        return None

    def do(self, s, d, a):
        s.stack.pop()
        z = s.figs[d.payload]
        kind, arg = a.args
        if kind == "gate":
            gate = B.GATES[arg]
            field = min(gate.fields, key=lambda f: (B.distance(z.field, f), f))
            z.order = ("guard", field)
        elif kind == "attack":
            z.order = ("attack", _fig(s, arg).id)
        else:
            z.order = (kind, arg)
        if kind == "gate":
            s.log("ordered_guard_gate", zombie=s.name(z.id), gate=B.GATES[arg].id)
        elif kind == "attack":
            s.log("ordered_attack", zombie=s.name(z.id), target=arg)
        else:
            s.log(f"ordered_{kind}", zombie=s.name(z.id), field=B.field_name(arg))

    def stale(self, s, d):
        return not s.figs[d.payload].alive

    def describe(self, s, d, seat):
        return {"zombie": s.name(d.payload)}


# --- setup (5) ------------------------------------------------------------------------------------------------------
def _note_secret(s, seat: int) -> None:
    s.secret = s.secret + ((s._hist_len, seat),)


class TrapsKind(Kind):
    kind = "traps"
    answers = ("traps",)
    prompt = "give each of your trap cards to a character (secret)"

    def legal(self, s, d):
        return [a for a in A.VOCABULARY if a.kind == "traps"]

    def check(self, s, d, a):
        return None

    def do(self, s, d, a):
        s.stack.pop()
        team = s.teams[d.seat]
        for h, role in zip(team.hand, a.args, strict=True):
            h[1] = d.seat * 5 + role
        _note_secret(s, d.seat)
        s.log("assigns_traps", d.seat, player=d.seat,
              cards=[[h[0], ROLES[r]] for h, r in zip(team.hand, a.args, strict=True)])


class AmuletsKind(Kind):
    kind = "amulets"
    answers = ("amulets",)
    prompt = "give the poison-neutralizer, lightning-negator and curse-averter amulets (secret)"

    def legal(self, s, d):
        return [a for a in A.VOCABULARY if a.kind == "amulets"]

    def check(self, s, d, a):
        return None

    def do(self, s, d, a):
        s.stack.pop()
        for i, role in enumerate(a.args):
            s.figs[d.seat * 5 + role].amulet = i
        _note_secret(s, d.seat)
        s.log("assigns_amulets", d.seat, player=d.seat, amulets=[ROLES[r] for r in a.args])


class ResistKind(Kind):
    kind = "resist"
    answers = ("resist",)
    prompt = "give ME 2 and ME 3 to two characters other than the warlock (secret)"

    def legal(self, s, d):
        return [a for a in A.VOCABULARY if a.kind == "resist"]

    def check(self, s, d, a):
        return None

    def do(self, s, d, a):
        s.stack.pop()
        for v, role in zip(RESIST_VALUES, a.args, strict=True):
            s.figs[d.seat * 5 + role].me_extra = v
        _note_secret(s, d.seat)
        s.log("assigns_resist", d.seat, player=d.seat, resist=[ROLES[r] for r in a.args])


class ItemsKind(Kind):
    """Poison vials / magic potions (20.8): two per team, at most one per character."""

    def __init__(self, kind: str):
        self.kind = kind
        self.answers = (kind,)
        self.prompt = f"give your two {'poison vials' if kind == 'vials' else 'magic potions'} (secret)"

    def legal(self, s, d):
        return [a for a in A.VOCABULARY if a.kind == self.kind]

    def check(self, s, d, a):
        return None

    def do(self, s, d, a):
        s.stack.pop()
        for role in a.args:
            f = s.figs[d.seat * 5 + role]
            if self.kind == "vials":
                f.vial = True
            else:
                f.potion = True
        _note_secret(s, d.seat)
        s.log(f"assigns_{self.kind}", d.seat, player=d.seat, roles=[ROLES[r] for r in a.args])


class SideKind(Kind):
    kind = "side"
    answers = ("side", "first")
    prompt = "choose your half of the arena, or to take the first step"

    def legal(self, s, d):
        out = [A.get(f"side {k}") for k in range(B.N_HALVES)]
        if d.payload:
            out.append(A.FIRST)
        return out

    def check(self, s, d, a):
        if a.kind == "first" and not d.payload:
            return "your opponent took the first step: choose your half", "S5.5"
        return None

    def do(self, s, d, a):
        s.stack.pop()
        if a.kind == "first":
            s.first = d.seat
            s.log("takes_first", player=d.seat, player2=1 - d.seat)
            s.stack.push(Decision("side", 1 - d.seat, 0))
            return
        set_half(s, d.seat, a.args[0])
        if d.payload:
            s.first = 1 - d.seat
        s.order = (s.first, 1 - s.first)
        s.log("chooses_half", player=d.seat, half=a.args[0], player2=s.first)


class WeaponKind(Kind):
    kind = "weapon"
    answers = ("weapon",)
    prompt = "choose your gladiator's starting weapon (secret)"

    def legal(self, s, d):
        return [A.get(f"weapon {k}") for k in HEAP_SETS]

    def check(self, s, d, a):
        return None

    def do(self, s, d, a):
        s.stack.pop()
        from .fig import IN_HAND
        t = s.teams[d.seat]
        t.weapon = a.args[0]
        s.figs[d.seat * 5 + GL].sets[a.args[0]] = IN_HAND
        _note_secret(s, d.seat)
        s.log("starting_weapon", d.seat, player=d.seat, weapon=HEAP_SETS[a.args[0]])


class DeployKind(Kind):
    kind = "deploy"
    answers = ("deploy",)
    prompt = "deploy your fighters at the gates of your half"

    def legal(self, s, d):
        out = []
        for role in range(N_ROLES):
            f = s.figs[d.seat * 5 + role]
            if f.field >= 0:
                continue
            for fld in deploy_fields(s, d.seat, role):
                if s.count_at(fld) < B.CAPACITY:
                    out.append(A.get(f"deploy {ROLES[role]} {B.field_name(fld)}"))
        return out

    def check(self, s, d, a):
        role, fld = a.args
        if s.figs[d.seat * 5 + role].field >= 0:
            return f"{ROLES[role]} is already deployed", "S5.8"
        if fld not in deploy_fields(s, d.seat, role):
            return ("the gladiator stands on a central-circle field touching one of your inner gates; the others "
                    "on inner-ring fields touching them"), "S5.8"
        if s.count_at(fld) >= B.CAPACITY:
            return "at most 3 figures per field [FIELD_FULL]", "S5.8"
        return None

    def do(self, s, d, a):
        role, fld = a.args
        f = s.figs[d.seat * 5 + role]
        f.field = fld
        s.log("deployed", fig=s.name(f.id), field=B.field_name(fld))
        if all(s.figs[d.seat * 5 + r].field >= 0 for r in range(N_ROLES)):
            s.stack.pop()


KINDS: dict[str, Kind] = {k.kind: k for k in (
    NameKind(), ActKind(), ReactKind(), DodgeKind(), PushKind(), ShoveKind(), EffectKind(), EnemyKind(),
    ChainKind(), OrderKind(), TrapsKind(), AmuletsKind(), ResistKind(), ItemsKind("vials"), ItemsKind("potions"),
    SideKind(), WeaponKind(), DeployKind())}

__all__ = ["KINDS", "TRAPS_PER_HAND", "SPELLS", "WL", "may_cast_now"]
