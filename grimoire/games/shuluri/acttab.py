"""The acting player's actions as tables indexed by numbers (role, direction, figure id, field), built
once per player count from the interned vocabulary: the legal-action generator picks its actions out
of them instead of formatting a text for every candidate and looking it up.

Every entry is the very Action object that ``actions.get(text)`` returns (``tests/shuluri/
test_speed_paths.py`` checks the tables against the texts).
"""

from __future__ import annotations

from functools import cache

from ...core.action import Action
from . import actions as A
from . import board as B
from .data import DISCS_PER_HAND, GL, HEAP_SETS, KITORO, N_ROLES, RANGED_TRAPS, ROLE_STATS, ROLES, SPELLS, char_name

MODES = ("move", "sneak", "disengage")
VERBS = ("hide", "run", "aim", "coat", "drink")
GL_VERBS = ("drop", "pickup", "stand", "bell")
SKILLS = ("break", "takedown")
THROWS = ("javelin", "net")

# per role: MOVE[role][mode] -> (action per direction); VERB[role][verb]; GATE[role][gate] -> (open, close)
MOVE: tuple[dict[str, tuple[Action, ...]], ...] = tuple(
    {m: tuple(A.get(f"{ROLES[r]} {m} {dn}") for dn in B.DIRS) for m in MODES} for r in range(N_ROLES))
VERB: tuple[dict[str, Action], ...] = tuple({v: A.get(f"{ROLES[r]} {v}") for v in VERBS} for r in range(N_ROLES))
GATE: tuple[tuple[tuple[Action, Action], ...], ...] = tuple(
    tuple((A.get(f"{ROLES[r]} open {g.id}"), A.get(f"{ROLES[r]} close {g.id}")) for g in B.GATES)
    for r in range(N_ROLES))
GL_VERB: dict[str, Action] = {v: A.get(f"gl {v}") for v in GL_VERBS}
WIELD: tuple[Action, ...] = tuple(A.get(f"gl wield {k}") for k in HEAP_SETS)
CAST_SELF: dict[str, Action] = {sp.key: A.get(f"wl cast {sp.key}") for sp in SPELLS if sp.target == "self"}
CLOUD: tuple[tuple[Action, ...], ...] = tuple(
    tuple(A.get(f"wl cloud {k} {dn}") for dn in B.DIRS) for k in range(1, DISCS_PER_HAND + 1))


class Targeted:
    """The actions that name a figure, by figure id, for one player count."""

    def __init__(self, players: int):
        n_ids = 10 * players
        names = [char_name(i, players) for i in range(n_ids)]

        def row(fmt: str) -> tuple[Action | None, ...]:   # None: no such action (a gladiator's corpse)
            return tuple(A.TABLE.lookup(fmt.format(t=t)) for t in names)

        self.attack = tuple(row(ROLES[r] + " attack {t}") for r in range(N_ROLES))
        self.skill = {k: row("gl attack {t} " + k) for k in SKILLS}
        self.shoot = tuple(row(ROLES[r] + " shoot {t}") if r in A.RANGED_ROLES else () for r in range(N_ROLES))
        self.throw = {w: row("gl " + w + " {t}") for w in THROWS}
        self.cast = {sp.key: row("wl cast " + sp.key + " {t}") for sp in SPELLS
                     if sp.target in ("char", "chain", "corpse")}
        self.order = row("wl order {t}")
        self.trap = {n: row(f"trap {n} " + "{t}") for n in RANGED_TRAPS + (KITORO,)}


@cache
def targeted(players: int) -> Targeted:
    return Targeted(players)


_VERB_SKILL = {"hide": "sneaking", "run": "running", "aim": "aiming"}


@cache
def verb_candidates(role: int, vials: bool, potions: bool) -> tuple[str, ...]:
    """The verbs a character of ``role`` may possibly use (kinds.verb_reason decides): a skill of the
    role (a gladiator's come with his weapon), the vial and the potion only with their optional rules."""
    out = []
    for v in VERBS:
        skill = _VERB_SKILL.get(v)
        if skill is not None:
            if role == GL or skill in ROLE_STATS[role].skills:
                out.append(v)
        elif (v == "coat" and vials) or (v == "drink" and potions):
            out.append(v)
    return tuple(out)


@cache
def area_casts(key: str, field: int) -> tuple[Action, ...]:
    """``wl cast <key> <field>`` for every field within the spell's reach of a warlock on ``field``."""
    sp = next(x for x in SPELLS if x.key == key)
    return tuple(A.get(f"wl cast {key} {B.field_name(x)}") for x in B.fields_within_blocks(field, sp.blocks))

