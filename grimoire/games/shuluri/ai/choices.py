"""The decisions outside the acting player's own moves: setup, naming, trap windows, dodges, pushes and
the warlock's follow-up choices. Each returns an action text among the legal ones (or None to fall
back on the first legal action)."""

from __future__ import annotations

from dataclasses import dataclass

from ....core.errors import GameConfigError
from .. import board as B
from ..combat import ranged_kind
from ..damage import effective_sfe
from ..data import (
    AIM_BONUS,
    D1,
    D2,
    DODGE_BONUS,
    GL,
    HEAP_SETS,
    JAVELIN_TE,
    NET_TE,
    ROLES,
    SPELL_BY_KEY,
    TRAPS,
    WL,
    XB,
)
from ..traps import is_ranged
from ..values import ce, modifier, te, te_bonus, ve
from . import attacks as X
from .ctx import LIGHTNING, Ctx
from .odds import ep_at_least, hit_table, p_beat

# setup: who holds what (ranged trap cards go to the mobile ring fighters, direct cards to the figure
# that lives longest; the lightning-negator and ME 3 to the gladiator: lightning ignores his metal
# armour, and a gladiator frozen by Death Dance loses the duel)
AMULETS_TO = ("xb", "gl", "wl")          # poison-neutralizer, lightning-negator, curse-averter
RESIST_TO = ("xb", "gl")                 # ME 2, ME 3
VIALS_TO = ("xb", "d1")
POTIONS_TO = ("gl", "wl")
START_WEAPON = "greatsword"
RANGED_HOLDERS = ("d1", "d2", "xb")
DODGE_COST_VALUE = 0.6                   # 2 MAN of the figure's next step
KEEP_CARD = 0.8                          # a trap card kept for later
STRAT_PRICE = 0.45


@dataclass(frozen=True)
class Setup:
    """How a side sets up (S5), one value for medium, hard and the expert alike; a bad value is one line.
    ``side_pref``: on winning the roll, "side" chooses the side (and is B), "first" takes the first step
    (and is A, S5.5). ``safe_deploy``: deploying after the enemy, each figure goes where the enemy threatens
    it least (``_safest``). ``weapon``: the gladiator's starting weapon set (S5.6)."""
    side_pref: str = "side"
    safe_deploy: bool = False
    weapon: str = START_WEAPON

    def __post_init__(self) -> None:
        if self.side_pref not in ("side", "first"):
            raise GameConfigError("side_pref: side or first")
        if self.weapon not in HEAP_SETS:
            raise GameConfigError(f"weapon: one of {', '.join(HEAP_SETS)}")


SETUP = Setup()


def setup_choice(ctx: Ctx, kind: str, legal: set[str], setup: Setup = SETUP) -> str | None:
    s = ctx.s
    team = s.teams[ctx.seat]
    if kind == "traps":
        roles = []
        k = 0
        for n, _h in team.hand:
            if is_ranged(s, n):
                roles.append(RANGED_HOLDERS[k % len(RANGED_HOLDERS)])
                k += 1
            else:
                roles.append("gl")
        return "traps " + " ".join(roles)
    if kind == "amulets":
        return "amulets " + " ".join(AMULETS_TO)
    if kind == "resist":
        return "resist " + " ".join(RESIST_TO)
    if kind == "vials":
        return "vials " + " ".join(VIALS_TO)
    if kind == "potions":
        return "potions " + " ".join(POTIONS_TO)
    if kind == "weapon":
        return f"weapon {setup.weapon}"
    if kind == "side":
        if setup.side_pref == "first" and "first" in legal:
            return "first"
        return next(iter(sorted(x for x in legal if x.startswith("side "))), None)
    if kind == "deploy":
        text = _deploy(ctx, legal)
        return _safest(ctx, legal, text) if setup.safe_deploy and text is not None else text
    return None


def _safest(ctx: Ctx, legal: set[str], text: str) -> str:
    """``safe_deploy``: once enemy figures stand on the board (side B deploys after A, S5.8), the figure
    goes to the field of its choices where the enemy's ranged attackers and warlock (and, for the
    gladiator, the enemy gladiator) threaten it least (``Ctx.threat``); on equal threat, ``_deploy``'s field."""
    s = ctx.s
    if not any(f is not None and f.field >= 0 and s.enemies(f.seat, ctx.seat) for f in s.figs):
        return text
    _d, role, chosen = text.split()
    fig = next(f for f in s.figs if f is not None and f.seat == ctx.seat and ROLES[f.role] == role)
    fields = {x: fld for a in legal if (p := a.split())[1] == role and (fld := B.parse_field(x := p[2])) is not None}
    best = min(fields, key=lambda x: (round(ctx.threat(fig, fields[x]), 2), x != chosen, x))
    return f"deploy {role} {best}"


def _deploy(ctx: Ctx, legal: set[str]) -> str | None:
    """One figure at a time: the gladiator first, then the others spread over both gates' fields,
    never more than two on a field."""
    s = ctx.s
    by_role: dict[str, list[str]] = {}
    for a in sorted(legal):
        _d, role, fld = a.split()
        by_role.setdefault(role, []).append(fld)
    for role in ("gl", "wl", "xb", "d1", "d2"):
        if role not in by_role:
            continue
        fields = by_role[role]
        if role == "gl":
            return f"deploy gl {fields[0]}"
        # the least crowded field, alternating between the two gates' fields
        placed = [f.field for f in s.figs[ctx.seat * 5:ctx.seat * 5 + 5] if f.field >= 0 and not f.is_gladiator]
        at = {x: f for x in fields if (f := B.parse_field(x)) is not None}
        best = min(at, key=lambda x: (sum(1 for p in placed if p == at[x]),
                                          -min((B.distance(at[x], p) for p in placed), default=0), x))
        return f"deploy {role} {best}"
    return None


# --- trap windows (T16.4, T16.5) --------------------------------------------------------------------------------
def react(ctx: Ctx, payload, legal: set[str]) -> str:
    s = ctx.s
    mover = s.figs[payload[0]]
    best, best_v = "pass", 0.0
    for a in sorted(legal):           # sorted: ties go the same way in every process (str hash order varies)
        if not a.startswith("trap "):
            continue
        n = int(a.split()[1])
        v = X.trap_value(ctx, n, mover) - STRAT_PRICE * TRAPS[n].cost - KEEP_CARD
        if v > best_v:
            best, best_v = a, v
    return best


# --- Kiteres (20.4) -----------------------------------------------------------------------------------------------
def dodge(ctx: Ctx, atk) -> str:
    s = ctx.s
    a = s.figs[atk.attacker]
    t = s.figs[atk.target]
    loss = _attack_loss(ctx, atk, a, t, 0)
    loss_dodged = _attack_loss(ctx, atk, a, t, DODGE_BONUS)
    return "dodge" if loss - loss_dodged > DODGE_COST_VALUE else "no dodge"


def _attack_loss(ctx: Ctx, atk, a, t, bonus: int) -> float:
    """The expected loss (value for t's side) of an attack, with ``bonus`` added to the defence."""
    s = ctx.s
    kind = atk.kind
    if kind in ("melee", "touch"):
        margin = te(s, a) - ve(s, t) - bonus
        if kind == "touch":
            sp = SPELL_BY_KEY[atk.skill]
            margin += sp.params.get("touch_te", 0)
            if not sp.harmful:
                return 0.0
            p = p_beat(margin)
            return p * (ctx.damage_value(t, sp.params.get("hit_ep", 2), 0.0) + 1.0)
        if atk.skill == "break":
            return p_beat(margin) * X.BREAK_WORTH
        p, ep, _ = hit_table(margin, effective_sfe(s, t), ctx.round_up)
        return ctx.damage_value(t, ep, ep_at_least(margin, effective_sfe(s, t), t.ep, ctx.round_up))
    if kind in ("javelin", "net"):
        base = JAVELIN_TE if kind == "javelin" else NET_TE
        margin = base + te_bonus(s, a) + modifier(s, a, "te") - ve(s, t) - bonus
        if kind == "net":
            return p_beat(margin) * (3.0 if t.is_gladiator else 1.0)
        p, ep, _ = hit_table(margin, effective_sfe(s, t), ctx.round_up)
        return ctx.damage_value(t, ep, ep_at_least(margin, effective_sfe(s, t), t.ep, ctx.round_up))
    # ranged and lightning: against the ranged defence
    origin = atk.origin
    rd = ctx.ranged_defence(origin, t, atk.prev if atk.prev >= 0 and origin != a.field else a.id,
                            bool(kind == "lightning" and SPELL_BY_KEY[atk.skill].params.get("ignores_walls")))
    if rd is None:
        return 0.0
    rd += bonus
    if kind == "ranged":
        margin = ce(s, a) + (AIM_BONUS if a.aim else 0) - rd
        p, ep, _ = hit_table(margin, effective_sfe(s, t), ctx.round_up)
        return ctx.damage_value(t, ep, ep_at_least(margin, effective_sfe(s, t), t.ep, ctx.round_up))
    sp = SPELL_BY_KEY[atk.skill]
    hop_ce, dmg = sp.params["lightning"][atk.hop]
    p = p_beat(hop_ce + modifier(s, a, "ce") - rd)
    if ctx.p_amulet(t, LIGHTNING) > 0.5:
        return 0.0
    ep = max(0, dmg - effective_sfe(s, t, lightning=True))
    return ctx.damage_value(t, p * ep, p if ep >= t.ep else 0.0)


# --- pushes and shoves --------------------------------------------------------------------------------------------
def push(ctx: Ctx, payload, legal: set[str]) -> str:
    """C10.10: push only when it puts the enemy where our shooters and warlock reach him better and
    ourselves no worse."""
    s = ctx.s
    w, o = s.figs[payload[0]], s.figs[payload[1]]
    best, best_v = "no push", 0.3
    for a in sorted(legal):
        if not a.startswith("push "):
            continue
        d = B.DIR_INDEX[a.split()[1]]
        nw, no = B.NEIGHBOURS[w.field][d], B.NEIGHBOURS[o.field][d]
        v = (ctx.threat(o, no) - ctx.threat(o, o.field)) - (ctx.threat(w, nw) - ctx.threat(w, w.field))
        if v > best_v:
            best, best_v = a, v
    return best


def shove(ctx: Ctx, payload, legal: set[str]) -> str | None:
    s = ctx.s
    t = s.figs[payload]
    best, best_v = None, -1e9
    for a in sorted(legal):
        d = B.DIR_INDEX[a.split()[1]]
        v = ctx.threat(t, B.NEIGHBOURS[t.field][d])
        if v > best_v:
            best, best_v = a, v
    return best


# --- the warlock's follow-ups -------------------------------------------------------------------------------------
def effect(ctx: Ctx, payload, legal: set[str]) -> str | None:
    s = ctx.s
    key, tid, _caster = payload
    t = s.figs[tid]
    if key == "nerves":
        pick = "man" if (t.is_gladiator or t.role == WL) else "defence"
    elif key == "wasting":
        pick = "strength"
    else:
        pick = "arm" if (t.is_gladiator or t.role in (WL, XB, D1, D2)) else "leg"
    text = f"effect {pick}"
    return text if text in legal else None


def enemy(ctx: Ctx, payload, legal: set[str]) -> str | None:
    """Assassin's Madness: the victim's mortal enemy. A gladiator victim gets one he cannot reach
    (he then stands still); any other victim gets the nearest of its own side."""
    s = ctx.s
    v = s.figs[payload[0]]
    options = []
    for a in sorted(legal):
        t = s.figs[_fid(s, a.split()[1])]
        same_side = not s.enemies(t.seat, v.seat)
        if v.is_gladiator:
            score = (0 if not B.IN_C[t.field] and same_side else 1 if not B.IN_C[t.field] else 2,
                     B.distance(v.field, t.field))
        else:
            score = (0 if same_side and ctx.is_enemy(t) else 1, B.distance(v.field, t.field))
        options.append((score, a))
    options.sort()
    return options[0][1] if options else None


def chain(ctx: Ctx, payload, legal: set[str]) -> str | None:
    s = ctx.s
    wid, hop, prev = payload
    w = s.figs[wid]
    p = s.figs[prev]
    sp = SPELL_BY_KEY["chain"]
    best, best_v = ("chain stop" if "chain stop" in legal else None), 0.0
    for a in sorted(legal):
        if a == "chain stop":
            continue
        t = s.figs[_fid(s, a.split()[1])]
        v = X.lightning(ctx, w, sp, t, p.field, hop=hop, origin_id=p.id)
        if v is None:
            v = 0.0
        if not ctx.is_enemy(t):
            v = -v - ctx.per_ep(t) * 3
        if best is None or v > best_v:
            best, best_v = a, v
    return best


def order(ctx: Ctx, payload, legal: set[str]) -> str | None:
    s = ctx.s
    z = s.figs[payload]
    foes = sorted((B.distance(z.field, e.field), e.id) for e in ctx.enemies if not B.IN_C[e.field])
    for _d, eid in foes:
        text = f"order attack {s.name(eid)}"
        if text in legal:
            return text
    return None


def _fid(s, name: str) -> int:
    from ..actions import fig_id
    return fig_id(s, name)


_ = (GL, ROLES, ranged_kind)
