"""Optional rules (spec 20.8, design decision D8): the poison vial and the magic potion."""

from __future__ import annotations

from .damage import heal, hurt_ep, reveal_amulet
from .data import AMULETS, POTION, VIAL
from .fig import Fig
from .values import available, pay

Reason = tuple[str, str] | None
POISON = AMULETS.index("poison")


def coat_reason(s, f: Fig) -> Reason:
    if not s.flags.vials:
        return "the optional rule Poison Vial is not in play", "20.8"
    if not f.vial:
        return f"{s.name(f.id)} carries no poison vial", "20.8"
    if available(s, f) < VIAL["cost"]:
        return f"coating costs {VIAL['cost']} MAN [NOT_ENOUGH_MAN]", "20.8"
    return None


def do_coat(s, f: Fig) -> None:
    pay(s, f, VIAL["cost"])
    f.vial = False
    f.vial_shown = True
    f.coat = True
    s.reveals += 1
    s.log("coats", fig=s.name(f.id))


def vial_poison(s, a: Fig, t: Fig) -> None:
    """The coated weapon's next successful attack this round also poisons (E 5 against Eg)."""
    a.coat = False
    if t.amulet == POISON:
        reveal_amulet(s, t)
        return
    ra, rr = s.d10(), s.d10()
    if VIAL["strength"] + ra > t.eg + rr:
        hurt_ep(s, t, VIAL["fail_ep"], ("vial", None))
    else:
        s.log("resists_poison", fig=s.name(t.id))


def drink_reason(s, f: Fig) -> Reason:
    if not s.flags.potions:
        return "the optional rule Magic Potion is not in play", "20.8"
    if not f.potion:
        return f"{s.name(f.id)} carries no magic potion", "20.8"
    if available(s, f) < POTION["cost"]:
        return f"drinking costs {POTION['cost']} MAN [NOT_ENOUGH_MAN]", "20.8"
    return None


def do_drink(s, f: Fig) -> None:
    pay(s, f, POTION["cost"])
    f.potion = False
    f.potion_shown = True
    s.reveals += 1
    heal(s, f, POTION["heal"])
    s.log("drinks", fig=s.name(f.id))
