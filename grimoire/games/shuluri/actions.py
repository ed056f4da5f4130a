"""Shuluri Viadal's action texts: the vocabulary (every text that can ever be legal), interning and
parsing. Documented in docs/games/shuluri.md.

Figures are named by team letter (a-d, by seat) and role code: agl awl axb ad1 ad2 ... dd2; a zombie
by 'z' and its body's name (zbd1). Acting figures are your own and named by role code only
("xb shoot bgl"). Fields are "q,r" (axial coordinates), directions e ne nw w sw se, gates I0-I3,
M0-M3, W0-W3.

    name <r> [<r>]               name the characters acting in this step (F6.3)
    <r> move|sneak|disengage <dir>   one field (disengage: back out of melee first, C10.7)
    <r> hide | run | aim         Lopakodas without moving, Futas, Celzas (20.4)
    <r> attack <fig> [break|takedown]   melee (C10); the gladiator's skills (20.4)
    <r> shoot <fig>              crossbow or thrown daggers (C11)
    gl javelin|net <fig>         the gladiator's throws (W18.2)
    gl drop | gl pickup | gl wield <set> | gl stand | gl bell     weapons and skills (18, 20.3)
    <r> open|close <gate>        (V9.8)
    wl cast <spell> [<fig>|<field>]      (14, 15)
    wl cloud <k> <dir>           move your k-th acid cloud one field (spell 7)
    wl order <zombie>            give a zombie an order (then: order goto|guard <field>, order guard
                                 <gate>, order attack <fig>)
    <r> coat | <r> drink         optional rules (20.8)
    trap <n> <fig>               a ranged trap (T16.3);  trap <n>: a direct trap in a window (T16.4)
    end                          end your step
    pass | pass all              let a trap window go (all: for the rest of this step)
    dodge | no dodge             Kiteres when attacked (20.4)
    push <dir> | no push         after winning a melee exchange (C10.10)
    shove <dir>                  Swinging Beam moves its target (trap 8)
    effect <choice>              the warlock's choice (G14.8): man defence | legs strength | leg arm
    chain <fig> | chain stop     Chain Lightning's next target (spell 30)
    enemy <fig>                  Assassin's Madness: the victim's mortal enemy (spell 28)
    traps <r> <r> <r>            setup: who holds each trap card, in card order (S5.1)
    amulets <r> <r> <r>          setup: poison-neutralizer, lightning-negator, curse-averter (S5.2)
    resist <r> <r>               setup: who gets ME 2 and ME 3 (S5.4)
    vials <r> <r> | potions <r> <r>   setup of the optional rules (20.8)
    side <k> | first             side choice (S5.5): half k = quarters k and k+1, or the first step
    weapon <set>                 setup: the gladiator's starting weapon (S5.6)
    deploy <r> <field>           deployment (S5.8)
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, permutations, product

from ...core.action import Action, ActionTable
from ...core.errors import IllegalAction
from . import board as B
from .data import (
    AMULETS,
    D1,
    D2,
    DIRECT_TRAPS,
    DISCS_PER_HAND,
    GL,
    HEAP_SETS,
    KITORO,
    LETTERS,
    MAX_SEATS,
    N_ROLES,
    RANGED_TRAPS,
    RESIST_VALUES,
    ROLES,
    SPELLS,
    TRAPS_PER_HAND,
    WL,
    XB,
    char_name,
)

TABLE = ActionTable()
_get = TABLE.get

FIG_NAMES: tuple[str, ...] = tuple(char_name(i, MAX_SEATS) for i in range(5 * MAX_SEATS)) + tuple(
    char_name(5 * MAX_SEATS + i, MAX_SEATS) for i in range(5 * MAX_SEATS) if i % 5 != GL)
ZOMBIE_NAMES = tuple(n for n in FIG_NAMES if n.startswith("z"))
CORPSE_NAMES = tuple(char_name(i, MAX_SEATS) for i in range(5 * MAX_SEATS) if i % 5 != GL)
MOVERS = ROLES
RANGED_ROLES = (XB, D1, D2)
CHOICE_WORDS = ("man", "defence", "legs", "strength", "leg", "arm")
SECRET_HEADS = ("traps", "amulets", "resist", "vials", "potions", "weapon")


def fig_id(s, name: str) -> int:
    """A figure's id in this game from its name (-1 if there is no such figure)."""
    zombie = name.startswith("z")
    base = name[1:] if zombie else name
    if len(base) < 3 or base[0] not in LETTERS:
        return -1
    seat = LETTERS.index(base[0])
    role = ROLES.index(base[1:]) if base[1:] in ROLES else -1
    if seat >= s.num_players or role < 0:
        return -1
    cid = seat * 5 + role
    return 5 * s.num_players + cid if zombie else cid


def _build() -> list[Action]:
    out: list[Action] = []

    def add(text: str, kind: str, args: tuple = ()) -> None:
        out.append(_get(text, kind, args))

    add("end", "end")
    add("pass", "pass")
    add("pass all", "passall")
    add("dodge", "dodge", (True,))
    add("no dodge", "dodge", (False,))
    add("no push", "push", (-1,))
    add("chain stop", "chain", ("",))
    add("first", "first")
    for k in range(B.N_HALVES):
        add(f"side {k}", "side", (k,))
    for n in range(1, 3):
        for combo in combinations(range(N_ROLES), n):
            if GL not in combo:
                add("name " + " ".join(ROLES[r] for r in combo), "name", combo)
    for r in range(N_ROLES):
        rc = ROLES[r]
        for mode in ("move", "sneak", "disengage"):
            for d, dn in enumerate(B.DIRS):
                add(f"{rc} {mode} {dn}", "move", (r, d, mode))
        for verb in ("hide", "run", "aim", "coat", "drink"):
            add(f"{rc} {verb}", verb, (r,))
        for t in FIG_NAMES:
            add(f"{rc} attack {t}", "attack", (r, t, ""))
        for g in B.GATES:
            add(f"{rc} open {g.id}", "gate", (r, g.index, True))
            add(f"{rc} close {g.id}", "gate", (r, g.index, False))
    for t in FIG_NAMES:
        for skill in ("break", "takedown"):
            add(f"gl attack {t} {skill}", "attack", (GL, t, skill))
    for r in RANGED_ROLES:
        for t in FIG_NAMES:
            add(f"{ROLES[r]} shoot {t}", "shoot", (r, t))
    for what in ("javelin", "net"):
        for t in FIG_NAMES:
            add(f"gl {what} {t}", what, (GL, t))
    for verb in ("drop", "pickup", "stand", "bell"):
        add(f"gl {verb}", verb, (GL,))
    for i, key in enumerate(HEAP_SETS):
        add(f"gl wield {key}", "wield", (GL, i))
    for sp in SPELLS:
        if sp.target in ("char", "chain"):
            for t in FIG_NAMES:
                add(f"wl cast {sp.key} {t}", "cast", (WL, sp.key, t, -1))
        elif sp.target == "corpse":
            for t in CORPSE_NAMES:
                add(f"wl cast {sp.key} {t}", "cast", (WL, sp.key, t, -1))
        elif sp.target == "area":
            for f in range(B.N_FIELDS):
                add(f"wl cast {sp.key} {B.field_name(f)}", "cast", (WL, sp.key, "", f))
        else:
            add(f"wl cast {sp.key}", "cast", (WL, sp.key, "", -1))
    for k in range(1, DISCS_PER_HAND + 1):
        for d, dn in enumerate(B.DIRS):
            add(f"wl cloud {k} {dn}", "cloud", (WL, k, d))
    for z in ZOMBIE_NAMES:
        add(f"wl order {z}", "order", (WL, z))
    for f in range(B.N_FIELDS):
        add(f"order goto {B.field_name(f)}", "orderto", ("goto", f))
        add(f"order guard {B.field_name(f)}", "orderto", ("guard", f))
    for g in B.GATES:
        add(f"order guard {g.id}", "orderto", ("gate", g.index))
    for t in FIG_NAMES:
        add(f"order attack {t}", "orderto", ("attack", t))
    for n in RANGED_TRAPS + (KITORO,):
        for t in FIG_NAMES:
            add(f"trap {n} {t}", "trap", (n, t))
    for n in DIRECT_TRAPS:
        add(f"trap {n}", "trap", (n, ""))
    for d, dn in enumerate(B.DIRS):
        add(f"push {dn}", "push", (d,))
        add(f"shove {dn}", "shove", (d,))
    for w in CHOICE_WORDS:
        add(f"effect {w}", "effect", (w,))
    for t in FIG_NAMES:
        add(f"chain {t}", "chain", (t,))
        add(f"enemy {t}", "enemy", (t,))
    for combo in product(range(N_ROLES), repeat=TRAPS_PER_HAND):
        add("traps " + " ".join(ROLES[r] for r in combo), "traps", combo)
    for combo in permutations(range(N_ROLES), len(AMULETS)):
        add("amulets " + " ".join(ROLES[r] for r in combo), "amulets", combo)
    for combo in permutations([r for r in range(N_ROLES) if r != WL], len(RESIST_VALUES)):
        add("resist " + " ".join(ROLES[r] for r in combo), "resist", combo)
    for head in ("vials", "potions"):
        for combo in combinations(range(N_ROLES), 2):
            add(f"{head} " + " ".join(ROLES[r] for r in combo), head, combo)
    for i, key in enumerate(HEAP_SETS):
        add(f"weapon {key}", "weapon", (i,))
    c_fields = sorted({f for fs in B.DEPLOY_C for f in fs})
    r_fields = sorted({f for fs in B.DEPLOY_R1 for f in fs})
    for f in c_fields:
        add(f"deploy gl {B.field_name(f)}", "deploy", (GL, f))
    for r in range(N_ROLES):
        if r != GL:
            for f in r_fields:
                add(f"deploy {ROLES[r]} {B.field_name(f)}", "deploy", (r, f))
    return out


def get(text: str) -> Action:
    a = TABLE.lookup(text)
    if a is None:
        raise KeyError(text)
    return a


VOCABULARY: tuple[Action, ...] = tuple(_build())
END = get("end")
PASS = get("pass")
PASS_ALL = get("pass all")
DODGE = get("dodge")
NO_DODGE = get("no dodge")
NO_PUSH = get("no push")
CHAIN_STOP = get("chain stop")
FIRST = get("first")


@cache
def vocabulary_texts() -> tuple[str, ...]:
    return tuple(a.text for a in VOCABULARY)


def _malformed(text: str, why: str) -> IllegalAction:
    return IllegalAction(f"cannot read {text!r}: {why}. Type 'help' for the action texts")


def parse(text: str) -> Action:
    a = TABLE.lookup(text)
    if a is not None:
        return a
    norm = " ".join(text.lower().split())
    a = TABLE.lookup(norm)
    if a is not None:
        return a
    words = norm.split(" ")
    head = words[0] if words else ""
    if head in ROLES and len(words) >= 2:
        raise _malformed(text, f"'{words[1]}' is not something {head} can do with these words "
                               "(e.g. 'xb move ne', 'xb shoot bgl', 'wl cast bolt bxb')")
    if head in ("trap", "chain", "enemy", "order", "push", "shove", "effect", "name", "deploy", "weapon", "side",
                "traps", "amulets", "resist", "vials", "potions"):
        raise _malformed(text, f"wrong arguments for '{head}'")
    raise _malformed(text, "unknown action")
