"""Hidden information, in one place: what a seat may see, and determinizations.

Public (S5.7, 17): the board, every figure's values, Ep, STP, ammunition, effects (the effects table
is public), sneaking, the gates and areas, the cards played or lost, the levels of the discs spent,
the number of trap cards and discs each side still holds, every roll and its result (the event
log). Secret until revealed: trap cards in hand and who holds them, spell discs held, amulets, the
extra ME tokens, vials and potions, the gladiator's starting weapon (until the first step, R17), the
other seats' setup choices, the order of the undealt cards and discs, and the RNG.

The spec's ruling that exact Ep and ammunition are secret (17) is not modelled: every roll and every
loss is announced at the table, so both are derivable from public events; the observation shows them.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from ...core.parts import Kept
from ...core.rng import Rng
from . import board as B
from .combat import exposed
from .data import (
    AMULETS,
    DISC_POOL,
    GL,
    HEAP_SETS,
    LETTERS,
    N_TRAP_CARDS,
    RESIST_VALUES,
    ROLES,
    SPELL_BY_KEY,
    TRAPS,
    WL,
)
from .events import english
from .fig import DESTROYED, IN_HAND, IN_HEAP, PERMANENT, Fig
from .values import ce, move_limit, te, ve, wield_key

EVENTS_SHOWN = 40
_SET_STATE = {IN_HEAP: "heap", IN_HAND: "hand", DESTROYED: "destroyed"}


def _field(f: int) -> str | None:
    return B.field_name(f) if f >= 0 else None


def _effect(e) -> dict[str, Any]:
    if e.src == "spell":
        name = SPELL_BY_KEY[e.key].en
    else:
        name = TRAPS[int(e.key[4:])].en
    out: dict[str, Any] = {"key": e.key, "name": name, "source": e.src, "type": e.type, "from_round": e.start,
                           "until_round": None if e.end >= PERMANENT else e.end}
    if e.mods:
        out["mods"] = {k: v for k, v in e.mods}
    if e.flags:
        out["flags"] = list(e.flags)
    if e.data >= 0:
        out["target"] = e.data
    return out


def _figure(s, f: Fig, seat: int | None) -> dict[str, Any]:
    own = seat is not None and f.seat == seat
    out: dict[str, Any] = {
        "name": s.name(f.id), "seat": f.seat, "role": ROLES[f.role], "zombie": f.zombie,
        "alive": f.alive, "field": _field(f.field), "ep": f.ep, "max_ep": f.max_ep, "eg": f.eg,
        "te": f.te, "ve": f.ve, "ce": f.ce, "move": f.move, "armour": f.armour, "sfe": f.sfe, "stp": f.stp,
        "stp_max": f.stp_max, "ammo": f.ammo, "down": f.down, "sneak": ("", "sneaking", "hiding")[f.sneak],
        "bell": f.bell, "named": f.named, "attacked": f.attacked, "disengaged": f.disengaged, "cast": f.casts,
        "moved": f.moved, "running": f.running, "aiming": f.aim, "spent": f.spent, "debt": f.debt,
        "stopped": f.stopped, "no_man_next_step": f.next_no_man or f.netted, "man_limit_next_step": f.next_limit,
        "double_move_next_step": f.next_double, "coated": f.coat,
        "effects": [_effect(e) for e in f.effects],
        "me": f.me + (f.me_extra if (own or f.me_shown) else 0),
        "amulet": (AMULETS[f.amulet] if f.amulet >= 0 else None) if (own or f.amulet_shown) else "?",
        "vial": f.vial if (own or f.vial_shown) else "?",
        "potion": f.potion if (own or f.potion_shown) else "?",
    }
    if not f.is_gladiator or own or s.teams[f.seat].weapon_shown:
        # the values in play now (weapon, sword-artist bonus, the one spell/trap modifier, takedown)
        out["now"] = {"te": te(s, f), "ve": ve(s, f), "ce": ce(s, f) if f.ce else 0, "move": move_limit(s, f)}
    if f.zombie:
        out["creator"] = s.name(f.creator)
        out["man_left"] = f.zman
        out["fields_moved"] = f.zfields
        out["order"] = None if f.order is None else [f.order[0], _field(f.order[1]) if f.order[0] != "attack"
                                                     else s.name(f.order[1])]
    if f.is_gladiator:
        out["javelins"] = f.javelins
        out["nets"] = f.nets
        out["exposed_to"] = {"crossbow": exposed(s, f, "crossbow"), "daggers": exposed(s, f, "daggers")}
        if own or s.teams[f.seat].weapon_shown:
            out["weapon"] = wield_key(f)
            out["weapon_sets"] = {HEAP_SETS[i]: _SET_STATE.get(st, _field(st)) for i, st in enumerate(f.sets)}
            out["part_dropped_at"] = _field(f.part_at)
        else:
            out["weapon"] = "?"
    return out


# A figure's view is a function of its attributes (every slot but ``tc``, which holds caches, and ``sets``,
# a list changed in place: compared as a tuple), its team's gladiator type and whether the team's weapon
# is shown, and the round (effects apply from one round to another); the game's rule flags and number of
# players never change. A figure keeps its last views in ``f.tc`` (copies share the dict, so the next
# state's unchanged figures find them) under that key, and they are handed out again while the key is
# equal (about one figure in ten changes with an action): ``Kept``, so never changed after they are made.
_FIG_ATTRS = attrgetter(*(n for n in Fig.__slots__ if n not in ("tc", "sets")))
_VIEW = "view"          # the entry's key in f.tc (tensor_into keys its rows by seat: int or None)


def _views(s, f: Fig) -> list:
    """[key, the public view, the owner's view or None until asked for], reused while the key is equal."""
    t = s.teams[f.seat]
    key = (_FIG_ATTRS(f), tuple(f.sets), t.gtype, t.weapon_shown, s.round)
    tc = f.tc
    if tc is None:
        tc = f.tc = {}
    else:
        got = tc.get(_VIEW)
        if got is not None and got[0] == key:
            return got
    got = tc[_VIEW] = [key, Kept(_figure(s, f, None)), None]
    return got


def _owners_view(s, f: Fig, views: list) -> Kept:
    own = views[2]
    if own is None:
        own = views[2] = Kept(_own_figure(s, f, views[1]))
    return own


def _own_figure(s, f: Fig, public: dict[str, Any]) -> dict[str, Any]:
    """``_figure(s, f, f.seat)`` from the figure's public view: only the values it hides from the others
    differ (the same keys in the same order), except for a gladiator whose weapon is not shown yet."""
    if f.is_gladiator and not s.teams[f.seat].weapon_shown:
        return _figure(s, f, f.seat)
    out = dict(public)
    out["me"] = f.me + f.me_extra
    out["amulet"] = AMULETS[f.amulet] if f.amulet >= 0 else None
    out["vial"] = f.vial
    out["potion"] = f.potion
    return out


# A team's view is a function of its slots (the public one sees how many cards and discs it holds, not
# which) and of the number of players (the names of the cards' holders): kept by that key and handed out
# again (``Kept``, as the figures' views); an action changes a team now and then. The cache starts afresh
# rather than grow (~0.5 KB an entry; at 1,000 games an entry is needed again within an action or two).
_TEAMS: dict[tuple, Kept] = {}
_TEAMS_MAX = 16384


def _kept_team(s, t, own: bool) -> Kept:
    key = (own, s.num_players, t.seat, t.half, t.quarters, t.inner_gates, t.heaps, t.strat, t.gtype, t.out,
           tuple(map(tuple, t.hand)) if own else len(t.hand), tuple(t.played), tuple(t.lost),
           tuple(t.discs) if own else len(t.discs), tuple(t.cast), t.roll, t.react_off, t.weapon, t.weapon_shown)
    got = _TEAMS.get(key)
    if got is None:
        if len(_TEAMS) >= _TEAMS_MAX:
            _TEAMS.clear()
        got = _TEAMS[key] = Kept(_team(s, t, t.seat if own else None))
    return got


def _team(s, t, seat: int | None) -> dict[str, Any]:
    own = seat is not None and t.seat == seat
    out: dict[str, Any] = {
        "seat": t.seat, "letter": LETTERS[t.seat], "half": t.half, "quarters": list(t.quarters),
        "inner_gates": [B.GATES[g].id for g in t.inner_gates], "heaps": [B.field_name(h) for h in t.heaps],
        "strategist_man": t.strat, "gladiator_type": t.gtype, "out": t.out, "cards_in_hand": len(t.hand),
        "cards_played": list(t.played), "cards_lost": list(t.lost), "discs_left": len(t.discs),
        "discs_cast": list(t.cast), "side_roll": t.roll, "passed_all": t.react_off,
    }
    if own:
        out["hand"] = [{"card": c, "holder": s.name(h) if h >= 0 else None, "kind": TRAPS[c].kind}
                       for c, h in t.hand]
        out["discs"] = list(t.discs)
        out["starting_weapon"] = HEAP_SETS[t.weapon] if t.weapon >= 0 else None
    elif t.weapon_shown and t.weapon >= 0:
        out["starting_weapon"] = HEAP_SETS[t.weapon]
    return out


def _decision(s, seat: int | None) -> dict[str, Any] | None:
    top = s.stack.top
    if top is None:
        return None
    from .kinds import KINDS
    k = KINDS[top.kind]
    out = {"kind": top.kind, "seat": top.seat, "prompt": k.prompt}
    out.update(k.describe(s, top, seat))
    return out


def _events(s, seat: int) -> tuple[list[str], list[list]]:
    """The last EVENTS_SHOWN events ``seat`` may see: the English lines and the same events as data
    ([key, args], events.py) for interfaces in other languages. Slid from the window of an older list
    (``_SEAT_WINDOWS``), as the public one (``_public_events``)."""
    first = s.events
    got = _SEAT_WINDOWS.get((id(first), seat))
    if got is not None and got[0] is first:
        return got[1], got[2]
    lines: list[str] = []
    data: list[list] = []
    node = first
    while node is not None and len(lines) < EVENTS_SHOWN:
        got = _SEAT_WINDOWS.get((id(node), seat))
        if got is not None and got[0] is node:
            break
        ev = node[0]
        vis, text, key, args = ev
        if vis is None or vis == seat:
            if text is None:
                text = ev[1] = english(key, args)     # a pure function of the event: shared by clones
            lines.append(text)
            data.append([key, args])
        node = node[1]
        got = None
    lines.reverse()
    data.reverse()
    if got is not None:
        lines, data = _slide(got[1], got[2], lines, data)
    if len(_SEAT_WINDOWS) >= _WINDOWS_MAX:
        _SEAT_WINDOWS.clear()
    _SEAT_WINDOWS[(id(first), seat)] = (first, lines, data)
    return lines, data


def _slide(old_lines: list[str], old_data: list[list], lines: list[str], data: list[list]) -> tuple[list, list]:
    """An older window followed by the newer events, the last EVENTS_SHOWN of them."""
    keep = EVENTS_SHOWN - len(lines)
    if keep < len(old_lines):
        old_lines, old_data = old_lines[len(old_lines) - keep:], old_data[len(old_data) - keep:]
    return old_lines + lines, old_data + data


# The public window of an event list (``_public_events``) by the list's first node: the next state's list is
# this one with the new events in front (or the very same), so its window is this one's, slid by the new
# events (the nodes are never changed). With it, per seat with an event of its own in the window: how many
# public events are newer than its newest own one (the window ends at EVENTS_SHOWN of them). The cache holds
# the nodes (so an id is never reused while in it) and starts afresh rather than grow.
_WINDOWS: dict[int, tuple[Any, list[str], list[list], dict[int, int]]] = {}
_WINDOWS_MAX = 8192
# a seat's own window (``_events``) by the list's first node and the seat
_SEAT_WINDOWS: dict[tuple[int, int], tuple[Any, list[str], list[list]]] = {}


def _public_events(s) -> tuple[tuple[list[str], list[list]], dict[int, int]]:
    """The events every seat sees (``_events(s, None)``), and the seats with an event of their own among
    them (the keys): every other seat's window is this one (read-only, shared)."""
    first = s.events
    got = _WINDOWS.get(id(first))
    if got is not None and got[0] is first:
        return (got[1], got[2]), got[3]
    lines: list[str] = []
    data: list[list] = []
    private: dict[int, int] = {}
    node = first
    while node is not None and len(lines) < EVENTS_SHOWN:
        got = _WINDOWS.get(id(node))
        if got is not None and got[0] is node:        # the window of an older list: slide it
            break
        ev = node[0]
        vis, text, key, args = ev
        if vis is None:
            if text is None:
                text = ev[1] = english(key, args)
            lines.append(text)
            data.append([key, args])
        elif vis not in private:
            private[vis] = len(lines)
        node = node[1]
        got = None
    lines.reverse()
    data.reverse()
    if got is not None:
        new = len(lines)
        lines, data = _slide(got[1], got[2], lines, data)
        for vis, newer in got[3].items():
            if vis not in private and newer + new < EVENTS_SHOWN:
                private[vis] = newer + new
    if len(_WINDOWS) >= _WINDOWS_MAX:
        _WINDOWS.clear()
    _WINDOWS[id(first)] = (first, lines, data, private)
    return (lines, data), private


def observe(s, seats: list[int | None]) -> list[dict[str, Any]]:
    gates = {g.id: {"open": s.gate_open[g.index], "jammed_until": s.gate_jam[g.index] or None} for g in B.GATES}
    areas = [{"spell": a.key, "caster": s.name(a.caster), "centre": B.field_name(a.centre),
              "fields": [B.field_name(x) for x in a.fields], "until_round": a.end, "follows": a.follows}
             for a in s.areas]
    corpses = [{"name": s.name(f.id), "field": B.field_name(f.field)} for f in s.figs[:5 * s.num_players]
               if f is not None and not f.alive and f.field >= 0 and not f.raised]
    step = None
    if s.phase == "play" and s.sched and s.step_i < len(s.sched):
        seat_, kind = s.sched[s.step_i]
        step = {"index": s.step_i + 1, "of": len(s.sched), "seat": seat_, "kind": kind,
                "named": [s.name(c) for c in s.named], "pool": s.pool, "gladiator_man": s.gpool}
    # a figure or team looks the same to every seat but its owner (``own`` is the only use of the seat):
    # built once for all of them (read-only, like the other shared parts) and once for the owner; the
    # figures' are ``Kept`` (never changed once built, and handed out again while the figure is the same)
    figs = [f for f in s.figs if f is not None]
    views = [_views(s, f) for f in figs]
    public = [v[1] for v in views]
    public_teams: dict[int, dict[str, Any]] = {}

    def figures(seat: int | None) -> list[dict[str, Any]]:
        out = public
        for i, f in enumerate(figs):
            if f.seat == seat:
                if out is public:
                    out = public[:]
                out[i] = _owners_view(s, f, views[i])
        return out

    def team(t, seat: int | None) -> dict[str, Any]:
        if seat is not None and t.seat == seat:
            return _kept_team(s, t, True)
        got = public_teams.get(t.seat)
        if got is None:
            got = public_teams[t.seat] = _kept_team(s, t, False)
        return got

    public_events, private_events = _public_events(s)
    order, alliances = list(s.order), list(s.alliance)
    out = []
    for seat in seats:
        lines, data = _events(s, seat) if seat in private_events else public_events
        out.append({
            "phase": s.phase, "mode": s.mode, "step": step, "first": s.first, "order": order,
            "alliances": alliances, "decision": _decision(s, seat), "gates": gates, "areas": areas,
            "corpses": corpses, "teams": [team(t, seat) for t in s.teams],
            "figures": figures(seat),
            "events": lines, "event_data": data, "end_reason": s.end_reason or None,
        })
    return out


# --- determinizations -----------------------------------------------------------------------------------------
def sample_hidden(s, seat: int, rng: Rng):
    """A copy in which everything ``seat`` cannot see is redrawn consistently with what it saw."""
    d = s.clone()
    d.rng = Rng(rng.next64())
    mine = d.teams[seat]
    others = [t for t in d.teams if t.seat != seat]
    # trap cards: the unseen cards go to the other hands, to living holders
    seen = {c for c, _h in mine.hand} | set(mine.played) | set(mine.lost)
    for t in d.teams:
        seen |= set(t.played) | set(t.lost)
    unknown = [c for c in range(1, N_TRAP_CARDS + 1) if c not in seen]
    rng.shuffle(unknown)
    for t in others:
        k = len(t.hand)
        cards, unknown = sorted(unknown[:k]), unknown[k:]
        holders = [f.id for f in d.figs[t.seat * 5:t.seat * 5 + 5] if f.alive]
        assigned = any(h >= 0 for _c, h in t.hand)
        t.hand = [[c, holders[rng.below(len(holders))] if assigned and holders else -1] for c in cards]
    # spell discs: the pool minus what this seat knows
    pool = [lv + 1 for lv, n in enumerate(DISC_POOL) for _ in range(n)]
    for lv in mine.discs + mine.cast:
        pool.remove(lv)
    for t in others:
        for lv in t.cast:
            pool.remove(lv)
    rng.shuffle(pool)
    for t in others:
        k = len(t.discs)
        t.discs, pool = sorted(pool[:k]), pool[k:]
    for t in others:
        _resample_items(d, t.seat, rng)
        if not t.weapon_shown and t.weapon >= 0:
            w = rng.below(len(HEAP_SETS))
            t.weapon = w
            g = d.figs[t.seat * 5 + GL]
            g.sets = [IN_HEAP] * len(HEAP_SETS)
            g.sets[w] = IN_HAND
    return d


def _resample_items(d, seat: int, rng: Rng) -> None:
    figs = [d.figs[seat * 5 + r] for r in range(5)]
    # amulets (S5.2): the unseen ones on distinct figures whose amulet is unknown
    if any(f.amulet >= 0 for f in figs):
        hidden = [f for f in figs if not f.amulet_shown]
        kinds = sorted(f.amulet for f in hidden if f.amulet >= 0)     # sorted: a function of the observation
        for f in hidden:
            f.amulet = -1
        rng.shuffle(hidden)
        for f, k in zip(hidden, kinds, strict=False):
            f.amulet = k
    # ME tokens (S5.4): not the warlock, distinct figures
    if any(f.me_extra for f in figs):
        hidden = [f for f in figs if not f.me_shown and f.role != WL]
        values = sorted(f.me_extra for f in hidden if f.me_extra)
        for f in hidden:
            f.me_extra = 0
        rng.shuffle(hidden)
        for f, v in zip(hidden, values, strict=False):
            f.me_extra = v
    assert all(v in (0,) + RESIST_VALUES for v in (f.me_extra for f in figs))
    for attr, shown in (("vial", "vial_shown"), ("potion", "potion_shown")):
        hidden = [f for f in figs if not getattr(f, shown)]
        n = sum(1 for f in hidden if getattr(f, attr))
        for f in hidden:
            setattr(f, attr, False)
        rng.shuffle(hidden)
        for f in hidden[:n]:
            setattr(f, attr, True)
