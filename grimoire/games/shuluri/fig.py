"""A figure on the board (a fighter or a zombie) and the effects on it.

Plain slotted data; the rules live in the rule modules. ``Effect`` records are immutable (NamedTuple),
so a figure's ``effects`` tuple is shared between clones until it changes.
"""

from __future__ import annotations

from typing import NamedTuple

from .data import (
    GL,
    GLADIATOR_TYPES,
    N_SETS,
    ROLE_STATS,
    ZOMBIE_EP_DIVISOR,
    ZOMBIE_SFE,
    GladiatorType,
)

PERMANENT = 10**6

# weapon set states (Fig.sets): in the heap, in hand, destroyed; a value >= 0 is the field where it lies
IN_HEAP, IN_HAND, DESTROYED = -1, -2, -3


class Effect(NamedTuple):
    key: str                # spell key or "trap<n>"
    src: str                # "spell" or "trap"
    type: str               # the spell's type (curse, poison, ...) or "trap"
    start: int              # first round it applies
    end: int                # last round it applies (PERMANENT)
    mods: tuple             # ((value, amount), ...): te, ve, ce, rve (ranged defence)
    flags: tuple            # behaviour flags: no_man, man_limit, double_move, no_running, ...
    caster: int             # the figure that caused it (-1 for traps)
    data: int = -1          # madness: the mortal enemy


class Fig:
    __slots__ = (
        "id", "seat", "role", "zombie", "creator", "field", "alive", "ep", "max_ep", "eg", "me", "te", "ve", "ce",
        "move", "armour", "sfe", "stp", "stp_max", "ammo", "javelins", "nets", "sets", "part_at", "down", "sneak",
        "bell", "effects", "named", "attacked", "disengaged", "casts", "moved", "entered", "stopped", "running",
        "run_credit", "aim", "spent", "debt", "coat", "next_no_man", "next_limit", "next_double", "cur_no_man",
        "cur_limit", "cur_double", "zman", "zfields", "order", "mad_man", "amulet", "amulet_shown", "me_extra",
        "me_shown", "vial", "vial_shown", "potion", "potion_shown", "raised", "must_attack", "netted", "cast_other",
        "ordered", "zdone", "tc",
    )
    id: int
    seat: int
    role: int
    zombie: bool
    creator: int
    field: int
    alive: bool
    ep: int
    max_ep: int
    eg: int
    me: int
    te: int
    ve: int
    ce: int
    move: int
    armour: str
    sfe: int
    stp: int
    stp_max: int
    ammo: int
    javelins: int
    nets: int
    sets: list[int]
    part_at: int
    down: bool
    sneak: int
    bell: bool
    effects: tuple
    named: bool
    attacked: bool
    disengaged: bool
    casts: int
    moved: int
    entered: bool
    stopped: bool
    running: bool
    run_credit: int
    aim: bool
    spent: int
    debt: int
    coat: bool
    next_no_man: bool
    next_limit: int
    next_double: bool
    cur_no_man: bool
    cur_limit: int
    cur_double: bool
    zman: int
    zfields: int
    order: tuple | None
    mad_man: int
    amulet: int
    amulet_shown: bool
    me_extra: int
    me_shown: bool
    vial: bool
    vial_shown: bool
    potion: bool
    potion_shown: bool
    raised: bool
    must_attack: bool
    netted: bool
    cast_other: bool
    ordered: bool
    zdone: bool
    tc: dict | None         # tensor_into's rows of this figure while it is a CleanFig (not game state)

    def copy(self) -> Fig:  # replaced below by a generated function (one assignment per slot: fast clones)
        raise NotImplementedError

    @property
    def is_gladiator(self) -> bool:
        return self.role == GL and not self.zombie

    def reset_step(self) -> None:
        """The per-step flags (F6, C10.2, C10.8, skills)."""
        self.attacked = False
        self.disengaged = False
        self.casts = 0
        self.cast_other = False
        self.ordered = False
        self.zdone = False
        self.moved = 0
        self.entered = False
        self.stopped = False
        self.running = False
        self.run_credit = 0
        self.aim = False
        self.spent = 0
        self.must_attack = False


def _make_copier(cls, lists: tuple[str, ...]):
    lines = ["def copy(self):", "    f = _new(_cls)"]
    lines += [f"    f.{n} = self.{n}[:]" if n in lists else f"    f.{n} = self.{n}" for n in cls.__slots__]
    lines.append("    return f")
    ns: dict = {"_new": object.__new__, "_cls": cls}
    exec("\n".join(lines), ns)
    return ns["copy"]


Fig.copy = _make_copier(Fig, ("sets",))  # type: ignore[method-assign]


class CleanFig(Fig):
    """A figure not changed since tensor_into last wrote its row (which it keeps in ``tc``).

    The tensor writer turns a figure into a CleanFig (same slots, so ``__class__`` can be swapped) after
    computing its row; the first attribute set on it turns it back into a plain Fig, so a CleanFig's row
    is up to date without comparing anything. Only ``sets`` (a list changed in place) escapes this: the
    writer compares it. Copies (``copy``) and loaded states are plain Figs. The engine never makes a
    CleanFig, so play without tensors pays nothing; with them, one extra call per changed figure.
    """

    __slots__ = ()

    def __setattr__(self, name: str, value) -> None:
        object.__setattr__(self, "__class__", Fig)
        object.__setattr__(self, name, value)


def new_fighter(cid: int, seat: int, role: int, gtype: GladiatorType | None = None) -> Fig:
    st = ROLE_STATS[role]
    f = Fig.__new__(Fig)
    f.id, f.seat, f.role, f.zombie, f.creator = cid, seat, role, False, -1
    f.field, f.alive = -1, True
    g = gtype if role == GL else None
    f.ep = f.max_ep = g.ep if g else st.ep
    f.eg, f.me = st.eg, st.me
    f.te, f.ve, f.ce = st.te, st.ve, st.ce
    f.move = st.move
    f.armour = g.armour if g else st.armour
    f.sfe = g.sfe if g else st.sfe
    f.stp = f.stp_max = g.stp if g else st.stp
    f.ammo, f.javelins, f.nets = st.ammo, st.javelins, st.nets
    f.sets = [IN_HEAP] * N_SETS if role == GL else []
    f.part_at = -1
    f.down = False
    f.sneak = 0
    f.bell = False
    f.effects = ()
    f.named = False
    f.reset_step()
    f.debt = 0
    f.coat = False
    f.next_no_man = False
    f.next_limit = -1
    f.next_double = False
    f.cur_no_man = False
    f.cur_limit = -1
    f.cur_double = False
    f.zman = 0
    f.zfields = 0
    f.order = None
    f.mad_man = 0
    f.amulet = -1
    f.amulet_shown = False
    f.me_extra = 0
    f.me_shown = False
    f.vial = False
    f.vial_shown = False
    f.potion = False
    f.potion_shown = False
    f.raised = False
    f.netted = False
    f.tc = None
    return f


def new_zombie(zid: int, body: Fig, seat: int, creator: int, field: int) -> Fig:
    """Spell 15: the original's combat values, half its maximum Ep, no skills, no armour."""
    f = new_fighter(zid, seat, body.role, GLADIATOR_TYPES["heavy"])
    f.zombie = True
    f.creator = creator
    f.field = field
    f.te, f.ve, f.ce = body.te, body.ve, body.ce
    f.ep = f.max_ep = body.max_ep // ZOMBIE_EP_DIVISOR
    f.armour = "none"
    f.sfe = ZOMBIE_SFE
    f.stp = f.stp_max = 0
    f.ammo = 0
    f.javelins = f.nets = 0
    f.sets = []
    return f
