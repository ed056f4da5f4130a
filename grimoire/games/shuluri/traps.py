"""Traps (spec 16, cards 20.5).

Ranged traps (1-8): in his own step, the holder that entered the numbered field pays the card's MAN
from what it may spend, and the effect strikes a standing enemy within the card's reach.
Direct traps (9-16): played from the strategist's MAN in a reaction window that opens for every
enemy side after each single-field move of one of the acting side's figures (and, for gate-bound
cards, after it opens or closes a gate). The windows open on public facts only (the side still
holds cards and has MAN left), so their existence reveals nothing about the cards.
"""

from __future__ import annotations

from ...core.decisions import Decision
from . import board as B
from .damage import hurt_ep, hurt_sp, reveal_amulet
from .data import AMULETS, DIRECT_TRAPS, KITORO, TRAPS, Trap
from .fig import Effect, Fig
from .movement import edge_reason, relocate, room_reason, zone_reason
from .values import available, pay

Reason = tuple[str, str] | None
POISON = AMULETS.index("poison")
MIN_DIRECT_COST = min(TRAPS[n].cost for n in DIRECT_TRAPS)


def is_ranged(s, n: int) -> bool:
    return TRAPS[n].kind == "ranged" or (n == KITORO and s.flags.kitoro_ranged)


def card_in_hand(s, seat: int, n: int) -> list | None:
    for h in s.teams[seat].hand:
        if h[0] == n:
            return h
    return None


def _reach(s, n: int, trap_field: int, t: Fig) -> Reason:
    tr = TRAPS[n]
    if B.IN_C[t.field] and not tr.get("works_in_c"):
        return "no trap works inside the central circle [TRAP_IN_CENTRAL_CIRCLE]", "T16.7"
    reach = tr.get("reach")
    if reach == "quarter":
        k = B.QUARTER[trap_field]
        if not any(reg in (1 + k, 1 + B.NQ + k) for reg in B.regions_of(t.field, s.gate_open)):
            return f"trap {n} reaches only its own quarter [TRAP_TARGET_INVALID]", "20.5"
    elif reach == "blocks":
        if B.block_distance(trap_field, t.field) > tr.get("blocks"):
            return f"trap {n} reaches {tr.get('blocks')} blocks [TRAP_TARGET_INVALID]", "20.5"
    return None


def trap_actor(s, seat: int, n: int, any_holder: bool = False) -> Fig | None:
    """The acting figure that may activate ranged trap n: on the numbered field (card 16 as a ranged
    trap: any numbered field), entered this step (R11), holding the card (R20; not checked with
    ``any_holder``, which tells a wrong holder from a wrong field)."""
    h = card_in_hand(s, seat, n)
    if h is None:
        return None
    fields = B.TRAP_FIELDS if n == KITORO else (B.TRAP_FIELDS[n - 1],)
    for cid in s.named:
        f = s.figs[cid]
        if f.seat != seat or not f.alive or f.field not in fields:
            continue
        if s.flags.trap_needs_entry and not f.entered:
            continue
        if s.flags.traps_assigned and h[1] != f.id and not any_holder:
            continue
        from .values import mad_enemy
        if mad_enemy(s, f) >= 0:
            continue
        return f
    return None


def ranged_reason(s, seat: int, n: int, target: int) -> Reason:
    if not 1 <= n <= len(TRAPS) or not is_ranged(s, n):
        return f"trap {n} is not a ranged trap", "T16.3"
    if card_in_hand(s, seat, n) is None:
        return f"you do not hold trap card {n} [TRAP_NOT_HELD]", "T16.1"
    f = trap_actor(s, seat, n)
    if f is None and s.flags.traps_assigned and trap_actor(s, seat, n, any_holder=True) is not None:
        return (f"only the character holding trap card {n} may activate it (R20) [TRAP_NOT_HOLDER]"), "T16.3"
    if f is None:
        where = "a numbered trap field" if n == KITORO else f"trap field {n}"
        return (f"the card's holder must have entered {where} this step [TRAP_WRONG_FIELD]"
                if s.flags.traps_assigned else f"one of your acting figures must have entered {where} this step "
                "[TRAP_WRONG_FIELD]"), "T16.3"
    tr = TRAPS[n]
    if available(s, f) < tr.cost:
        return f"trap {n} costs {tr.cost} MAN [NOT_ENOUGH_MAN]", "T16.3"
    t = s.figs[target] if 0 <= target < len(s.figs) else None
    if t is None or not t.alive or t.field < 0 or not s.enemies(seat, t.seat):
        return "a trap strikes a living enemy [TRAP_TARGET_INVALID]", "T16.3"
    return _reach(s, n, f.field, t)


def do_ranged(s, seat: int, n: int, target: int) -> None:
    f = trap_actor(s, seat, n)
    assert f is not None, "checked by ranged_reason"
    tr = TRAPS[n]
    pay(s, f, tr.cost)
    _spend_card(s, seat, n)
    t = s.figs[target]
    s.log("springs_trap_on", fig=s.name(f.id), trap=n, target=s.name(t.id))
    _effect(s, tr, t, None)
    if tr.get("shove") and t.alive and s.phase != "over" and shove_dirs(s, t):
        s.stack.push(Decision("shove", seat, t.id))


def _spend_card(s, seat: int, n: int) -> None:
    team = s.teams[seat]
    team.hand = [h for h in team.hand if h[0] != n]
    team.played.append(n)
    s.reveals += 1


def _effect(s, tr: Trap, t: Fig, window: tuple | None) -> None:
    """The card's effect on figure t (window: the direct-trap window it was played in)."""
    if tr.get("poison_strength") is not None:
        if t.amulet == POISON:
            reveal_amulet(s, t)
            s.log("amulet_stops_poison", fig=s.name(t.id))
            return
        ra, rr = s.d10(), s.d10()
        att = tr.get("poison_strength") + ra
        ok = att <= t.eg + rr
        s.log("poison_resisted" if ok else "poison_takes_effect", att=att, fig=s.name(t.id), dfn=t.eg + rr)
        if ok:
            return
        if tr.get("fail_ep"):
            hurt_ep(s, t, tr.get("fail_ep"), ("trap", tr.number))
        if tr.get("fail_next_step_no_man"):
            t.next_no_man = True
        return
    if tr.get("sp"):
        hurt_sp(s, t, tr.get("sp"), "trap")
    if tr.get("ep"):
        hurt_ep(s, t, tr.get("ep"), ("trap", tr.number))
    if s.phase == "over" or not t.alive:
        return
    if tr.get("next_step_man_limit"):
        t.next_limit = tr.get("next_step_man_limit")
    if tr.get("next_step_double_move"):
        t.next_double = True
    if tr.get("next_step_no_man"):
        t.next_no_man = True
    if tr.get("mods"):
        rounds = tr.get("rounds")
        end = s.round if rounds == "this_round" else s.round + int(rounds) - 1
        t.effects = t.effects + (Effect(f"trap{tr.number}", "trap", "trap", s.round, end,
                                        tuple(sorted(tr.get("mods").items())), (), -1),)
    if tr.get("slams_gate") and window is not None:
        _mover, kind, gate, came_from = window
        if gate >= 0:
            from .movement import set_gate
            set_gate(s, gate, False)
            s.gate_jam[gate] = s.round + tr.get("jam_rounds")
            s.log("gate_slams", gate=B.GATES[gate].id, n=s.gate_jam[gate])
            if kind == "move" and t.field != came_from:
                relocate(s, [(t, came_from)])
    if tr.get("stops"):
        t.stopped = True


# --- direct traps: the reaction windows (T16.4, T16.5) --------------------------------------------------------
def open_windows(s, mover: Fig, kind: str, gate: int, came_from: int) -> None:
    if s.phase != "play" or not mover.alive:
        return
    n = s.num_players
    pending = []
    for i in range(1, n + 1):
        seat = (s.active + i) % n
        if not s.enemies(seat, mover.seat):
            continue
        team = s.teams[seat]
        if team.out or team.react_off or not team.hand or team.strat < MIN_DIRECT_COST:
            continue
        pending.append(Decision("react", seat, (mover.id, kind, gate, came_from)))
    if pending:
        s.stack.push_many(pending)


def direct_reason(s, seat: int, n: int, window: tuple) -> Reason:
    mover_id, kind, gate, _came = window
    if not 1 <= n <= len(TRAPS) or is_ranged(s, n):
        return f"trap {n} is not a direct trap", "T16.4"
    if card_in_hand(s, seat, n) is None:
        return f"you do not hold trap card {n} [TRAP_NOT_HELD]", "T16.1"
    tr = TRAPS[n]
    team = s.teams[seat]
    if tr.cost > team.strat:
        return f"trap {n} costs {tr.cost} of the strategist's MAN; {team.strat} left [NOT_ENOUGH_MAN]", "T16.4"
    t = s.figs[mover_id]
    if not t.alive:
        return "the figure is dead [TRAP_TARGET_INVALID]", "T16.4"
    if B.IN_C[t.field] and not tr.get("works_in_c"):
        return "no trap works inside the central circle [TRAP_IN_CENTRAL_CIRCLE]", "T16.7"
    if tr.get("gate_bound"):
        if gate < 0:
            return f"trap {n} strikes only at a gate [TRAP_TIMING]", "T16.5"
    elif kind != "move":
        return f"trap {n} strikes a moving figure [TRAP_TIMING]", "T16.4"
    return None


def do_direct(s, seat: int, n: int, window: tuple) -> None:
    tr = TRAPS[n]
    s.teams[seat].strat -= tr.cost
    _spend_card(s, seat, n)
    t = s.figs[window[0]]
    s.log("trap_springs", trap=n, fig=s.name(t.id))
    _effect(s, tr, t, window)


# --- Swinging Beam (card 8): the owner moves the target one field ------------------------------------------------
def shove_reason(s, t: Fig, d: int) -> Reason:
    r = edge_reason(s, t.field, d)
    if r:
        return r
    n = B.NEIGHBOURS[t.field][d]
    return zone_reason(t, n) or room_reason(s, n)


def shove_dirs(s, t: Fig) -> list[int]:
    return [d for d in range(6) if shove_reason(s, t, d) is None]


def do_shove(s, t: Fig, d: int) -> None:
    n = B.NEIGHBOURS[t.field][d]
    s.log("beam_throws", fig=s.name(t.id), dir=B.DIRS[d], field=B.field_name(n))
    relocate(s, [(t, n)])


