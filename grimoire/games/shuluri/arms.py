"""The gladiator's weapons (spec 18, 20.3): dropping to free a hand, picking up, changing at his weapon
heap (C10.11), standing up after a takedown and the sword-artist's Golden Bell (W18.3)."""

from __future__ import annotations

from . import board as B
from .data import BELL_COST, COST, HEAP_SETS, STAND_COST, WEAPONS
from .fig import IN_HAND, IN_HEAP, Fig
from .values import available, hand_set, has_skill, pay, wield_key

Reason = tuple[str, str] | None


def _afford(s, f: Fig, cost: int) -> Reason:
    have = available(s, f)
    if cost > have:
        return f"that costs {cost} MAN and he has {have} [NOT_ENOUGH_MAN]", "M7.9"
    return None


def drop_reason(s, f: Fig) -> Reason:
    if not f.is_gladiator:
        return "only a gladiator drops weapons", "W18.2"
    k = wield_key(f)
    if WEAPONS[k].hand_free:
        return f"he already has a hand free ({WEAPONS[k].name})", "W18.2"
    return None


def do_drop(s, f: Fig) -> None:
    i = hand_set(f)
    key = HEAP_SETS[i]
    if WEAPONS[key].two_handed:
        f.sets[i] = f.field
    else:
        f.part_at = f.field
    _public(s, f)
    if WEAPONS[key].two_handed:
        s.log("drops_two_handed", fig=s.name(f.id), weapon=key, wield=wield_key(f))
    else:
        s.log("drops", fig=s.name(f.id), wield=wield_key(f))


def pickup_reason(s, f: Fig) -> Reason:
    if not f.is_gladiator:
        return "only a gladiator picks up weapons", "W18.2"
    if f.part_at == f.field:
        return _afford(s, f, COST["pick_up"])
    if hand_set(f) < 0 and f.field in f.sets:
        return _afford(s, f, COST["pick_up"])
    return "nothing of his lies here that he could pick up", "W18.2"


def do_pickup(s, f: Fig) -> None:
    pay(s, f, COST["pick_up"])
    if f.part_at == f.field:
        f.part_at = -1
    else:
        f.sets[f.sets.index(f.field)] = IN_HAND
    _public(s, f)
    s.log("picks_up", fig=s.name(f.id), weapon=wield_key(f))


def wield_reason(s, f: Fig, i: int) -> Reason:
    if not f.is_gladiator:
        return "only a gladiator changes weapons", "C10.11"
    if f.field not in s.teams[f.seat].heaps:
        return "he must stand on his weapon heap [NOT_ON_HEAP]", "C10.11"
    st = f.sets[i]
    if st != IN_HEAP:
        why = {IN_HAND: "he already holds it"}.get(st, "it is destroyed [WEAPON_DESTROYED]" if st == -3
                                                   else "it lies elsewhere in the arena")
        return f"the {WEAPONS[HEAP_SETS[i]].name}: {why}", "C10.11"
    if f.part_at >= 0:
        return f"part of his weapon lies at {B.field_name(f.part_at)}: pick it up first", "C10.11"
    return _afford(s, f, COST["weapon_change"])


def do_wield(s, f: Fig, i: int) -> None:
    pay(s, f, COST["weapon_change"])
    h = hand_set(f)
    if h >= 0:
        f.sets[h] = IN_HEAP
    f.sets[i] = IN_HAND
    _public(s, f)
    s.log("changes_weapons", fig=s.name(f.id), weapon=HEAP_SETS[i])


def stand_reason(s, f: Fig) -> Reason:
    if not f.down:
        return "it is not down", "20.4"
    return _afford(s, f, STAND_COST)


def do_stand(s, f: Fig) -> None:
    pay(s, f, STAND_COST)
    f.down = False
    s.log("stands", fig=s.name(f.id))


def bell_reason(s, f: Fig) -> Reason:
    if not has_skill(s, f, "golden_bell"):
        return "only the sword-artist has the Golden Bell [SKILL_NOT_AVAILABLE]", "W18.3"
    if f.bell:
        return "the Golden Bell already rings", "W18.3"
    return _afford(s, f, BELL_COST)


def do_bell(s, f: Fig) -> None:
    pay(s, f, BELL_COST)
    f.bell = True
    s.log("bell", fig=s.name(f.id))


def _public(s, f: Fig) -> None:
    """C10.11 (R): a change of weapons is recorded and public."""
    t = s.teams[f.seat]
    if not t.weapon_shown:
        t.weapon_shown = True
        s.reveals += 1
