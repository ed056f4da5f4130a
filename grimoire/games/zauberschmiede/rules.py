"""The rules of one player's round (spec §4-§9): what is legal now, why not, and the effects.

Everything here works on one :class:`Player` and the game's variant settings, so the same code
serves the real game, the determinizations of ``sample_hidden`` and the agents' look-ahead.
Function names follow the rulebook; every rejection cites the spec rule and its reason code (§15).
"""

from __future__ import annotations

from ...core.action import Action
from ...core.errors import IllegalAction
from . import tables
from .actions import (
    DUST,
    END,
    KIND_AMPLIFY,
    KIND_CHARGE,
    KIND_DUST,
    KIND_END,
    KIND_PAY,
    KIND_TRANSMUTE,
    KIND_UNLOCK,
    KIND_UPGRADE,
    SIDES,
)
from .player import Player
from .sheet import SHEET

ARTS = SHEET.artifacts
NA = len(ARTS)
NC = len(SHEET.colours)
UPG_VALUES = SHEET.upgrade_values
NK = len(UPG_VALUES)
AMP_COSTS = SHEET.amp_costs
MAX_LEVEL = len(AMP_COSTS)
KMASK = (1 << NK) - 1
VALUES = tuple(range(1, SIDES + 1))


class Variant:
    """The rule flags of spec §14 and the other per-game settings, shared (immutable) by clones."""

    __slots__ = ("mins", "divisible", "partial", "hmode", "hmin", "metric", "ties", "last_round", "preset")

    def __init__(self, opts: dict):
        self.mins = SHEET.field_min if opts["field_min_constraints"] else SHEET.no_mins
        self.divisible = opts["fresh_dust_divisible"]
        self.partial = opts["amplifier_partial_payment"]
        self.hmode = opts["harmony_mode"]
        self.hmin = opts["harmony_min_fields"]
        self.metric = opts["dust_creator_metric"]
        self.ties = opts["dust_creator_ties"]
        mr = opts["max_rounds"]
        self.last_round = SHEET.rounds if mr is None else min(mr, SHEET.rounds)
        self.preset = tuple(tuple(r) for r in (opts["rolls"] or ()))


# ---------------------------------------------------------------------------------------------------
# helpers

def available(p: Player) -> list[int]:
    """count[v] of unused dice showing v this round (index 0 unused)."""
    cnt = [0] * (SIDES + 1)
    vals, used = p.vals, p.used
    for i in range(len(vals)):
        if not used[i]:
            cnt[vals[i]] += 1
    return cnt


def paying_amplifier(var: Variant, p: Player) -> bool:
    """R7.1/A14: without instalments, a started amplifier level must be finished before anything else."""
    return p.amp_paid > 0 and not var.partial


def payments(var: Variant, p: Player, cost: int) -> list[tuple[tuple[int, ...], int]]:
    """The payments of R6.4 for a cost: (stock rounds, fresh dust used), each stock needed.

    A listed payment names no stock it does not need (dropping any named stock would leave the
    stocks short of the cost); naming a superfluous stock would only throw it away (see docs).
    """
    stocks = p.unspent_stocks()
    fresh = p.fresh
    out = []
    k = len(stocks)
    for m in range(1 << k):
        s = 0
        rounds = []
        amounts = []
        for i in range(k):
            if m >> i & 1:
                r, amt = stocks[i]
                s += amt
                rounds.append(r)
                amounts.append(amt)
        if any(s - amt >= cost for amt in amounts):
            continue
        need = cost - s if cost > s else 0
        if need > fresh:
            continue
        out.append((tuple(rounds), need))
    out.sort()
    return out


# ---------------------------------------------------------------------------------------------------
# legal actions (the listing must agree exactly with check(); tests enforce it)

def legal_actions(var: Variant, p: Player) -> list[Action]:
    return _walk(tables.ACTIONS, var, p)


def legal_ids(var: Variant, p: Player) -> list[int]:
    """The action ids of ``legal_actions`` in the same order (data/actions.txt has every action)."""
    return _walk(tables.ids(), var, p)


def _walk(T: tables.Tables, var: Variant, p: Player) -> list:
    """The legal actions of p in the listing's order, as items of the tables T (tables.py)."""
    vsm = 0                     # bit v: an unused die shows v
    unused = 0
    for v, u in zip(p.vals, p.used, strict=True):
        if not u:
            vsm |= 1 << v
            unused += 1
    if p.amp_paid > 0 and not var.partial:          # paying_amplifier
        return list(T.unlock[vsm])
    paid = p.paid
    cs = tables.charge_state(p, var.mins)
    # R5.1 charge
    out: list = list(T.charges(cs, vsm)) if vsm else []
    full = cs.full
    # R6.4 pay
    if full:
        pay_cache: dict[int, list] = {}
        for a in range(NA):
            if full >> a & 1:
                cost = SHEET.dust[a]
                opts = pay_cache.get(cost)
                if opts is None:
                    opts = pay_cache[cost] = payments(var, p, cost)
                for rounds, _need in opts:
                    out.append(T.pay(a, rounds))
    if vsm:
        # R7.2 amplify
        level = p.amp_level
        if level >= 1:
            cand = paid & ~p.amped
            while cand:
                low = cand & -cand
                out += T.amplify[low.bit_length() - 1][vsm]
                cand ^= low
        # R8.1 upgrade
        upg = p.upg
        for c, row in enumerate(T.upgrade):
            out += row[vsm << NK | upg >> (c * NK) & KMASK]
        # R7.1 unlock
        if level < MAX_LEVEL and (var.partial or unused >= AMP_COSTS[level]):
            out += T.unlock[vsm]
        # R6.1 dust
        out += T.dust[vsm]
        # R9 transmute
        if p.trans_left > 0:
            out += T.transmute[vsm]
    out.append(T.end)
    return out


# ---------------------------------------------------------------------------------------------------
# checks

def _die(p: Player, v: int, rule: str = "R4.1") -> None:
    vals, used = p.vals, p.used
    seen = False
    for i in range(len(vals)):
        if vals[i] == v:
            if not used[i]:
                return
            seen = True
    if seen:
        raise IllegalAction(f"every die showing {v} is already used this round [DIE_USED]", rule=rule)
    raise IllegalAction(f"no die shows {v} this round (dice: {' '.join(map(str, vals))}) [DIE_NOT_IN_ROUND]",
                        rule=rule)


def check(var: Variant, p: Player, action: Action) -> None:
    """Raise IllegalAction unless ``action`` is legal for ``p`` now. Never changes anything."""
    kind = action.kind
    if paying_amplifier(var, p) and kind != KIND_UNLOCK:
        need = AMP_COSTS[p.amp_level] - p.amp_paid
        raise IllegalAction(f"finish paying amplifier level {p.amp_level + 1} first: {need} more "
                            f"die/dice with 'unlock <value>' [AMP_WRONG_DICE_COUNT]", rule="R7.1")
    if kind == KIND_CHARGE:
        a, c, v = action.args
        art = ARTS[a]
        if p.paid >> a & 1:
            raise IllegalAction(f"{art.id} is already complete [ARTIFACT_COMPLETE]", rule="R5.1")
        group = art.groups[art.colours.index(c)][1]
        empty = [f for f in group if not p.fields[f]]
        if not empty:
            raise IllegalAction(f"every {SHEET.colours[c]} field of {art.id} is already charged [FIELD_FILLED]",
                                rule="R5.1")
        lo = min(var.mins[f] for f in empty)
        if v < lo:
            raise IllegalAction(f"the empty {SHEET.colours[c]} field(s) of {art.id} need a die of at least {lo}, "
                                f"not {v} [VALUE_BELOW_MIN]", rule="R5.1")
        _die(p, v)
    elif kind == KIND_PAY:
        a, rounds = action.args
        art = ARTS[a]
        if p.paid >> a & 1:
            raise IllegalAction(f"{art.id}'s dust is already paid [ALREADY_PAID]", rule="R5.3")
        if p.nfill[a] != SHEET.art_nfields[a]:
            raise IllegalAction(f"{art.id} is not fully charged; dust can only be spent on fully charged "
                                f"artifacts [NOT_FULLY_CHARGED]", rule="R6.5")
        s = 0
        amounts = []
        for r in rounds:
            if r > len(p.stock) or not p.stock[r - 1] or p.spent >> (r - 1) & 1:
                raise IllegalAction(f"there is no unspent dust stock from round {r} [STOCK_UNKNOWN]", rule="R6.4")
            s += p.stock[r - 1]
            amounts.append(p.stock[r - 1])
        cost = art.dust
        for r, amt in zip(rounds, amounts, strict=True):
            if s - amt >= cost:
                raise IllegalAction(f"the stock of round {r} is not needed for {art.id}'s {cost} dust; a stock "
                                    f"is spent whole, so naming it would only waste it [STOCK_NOT_NEEDED]",
                                    rule="R6.4")
        need = cost - s if cost > s else 0
        if need > p.fresh:
            raise IllegalAction(f"{art.id} needs {cost} dust: the stocks named give {s}, so {need} fresh dust is "
                                f"needed but only {p.fresh} is available [INSUFFICIENT_DUST]", rule="R6.4")
    elif kind == KIND_AMPLIFY:
        a, v = action.args
        art = ARTS[a]
        if p.amp_level < 1:
            raise IllegalAction("the amplifier is locked: unlock level 1 first [AMP_LOCKED]", rule="R7.2")
        if not p.paid >> a & 1:
            raise IllegalAction(f"{art.id} is not complete; only complete artifacts can be amplified "
                                f"[NOT_COMPLETE]", rule="R7.2")
        if p.amped >> a & 1:
            raise IllegalAction(f"{art.id}'s amplifier gem is already used [ALREADY_AMPLIFIED]", rule="R7.2")
        _die(p, v)
    elif kind == KIND_UPGRADE:
        c, v = action.args
        if p.upg >> (c * NK + UPG_VALUES.index(v)) & 1:
            raise IllegalAction(f"the {SHEET.colours[c]} box {v} is already marked [UPGRADE_BOX_TAKEN]", rule="R8.1")
        _die(p, v, "R8.1")
    elif kind == KIND_UNLOCK:
        (v,) = action.args
        if p.amp_level >= MAX_LEVEL:
            raise IllegalAction(f"the amplifier is at its top level {MAX_LEVEL} [AMP_MAX]", rule="R7.1")
        _die(p, v)
        if not var.partial and p.amp_paid == 0:
            cost = AMP_COSTS[p.amp_level]
            left = sum(1 for u in p.used if not u)
            if left < cost:
                raise IllegalAction(f"level {p.amp_level + 1} costs {cost} dice paid in one round, but only {left} "
                                    f"unused die/dice are left [AMP_WRONG_DICE_COUNT]", rule="R7.1")
    elif kind == KIND_DUST:
        _die(p, action.args[0], "R6.1")
    elif kind == KIND_TRANSMUTE:
        v, w = action.args
        if p.trans_left <= 0:
            raise IllegalAction("both transmutations are used up [NO_TRANSMUTATIONS]", rule="R9.1")
        _die(p, v, "R9.2")
    elif kind == KIND_END:
        pass
    else:  # pragma: no cover - parse() only builds the kinds above
        raise IllegalAction(f"unknown action {action.text!r}", rule="R4.5")


# ---------------------------------------------------------------------------------------------------
# effects (the action has been checked)

def _take_die(p: Player, v: int, label: str) -> None:
    vals, used = p.vals, p.used
    for i in range(len(vals)):
        if vals[i] == v and not used[i]:
            used[i] = label
            return
    raise AssertionError("unchecked action")  # pragma: no cover


def charge_field(var: Variant, p: Player, a: int, c: int, v: int) -> None:
    """R5.1: the die goes into the empty field of that colour with the highest minimum it meets."""
    art = ARTS[a]
    fields, mins = p.fields, var.mins
    for f in art.groups[art.colours.index(c)][1]:
        if not fields[f] and mins[f] <= v:
            fields[f] = v
            break
    p.nfill[a] += 1
    _take_die(p, v, f"{art.id} {SHEET.colours[c]}")


def pay_dust(var: Variant, p: Player, a: int, rounds: tuple[int, ...]) -> None:
    """R6.4: named stocks are consumed whole; fresh dust covers the rest (all of it if indivisible)."""
    s = 0
    for r in rounds:
        s += p.stock[r - 1]
        p.spent |= 1 << (r - 1)
    cost = SHEET.dust[a]
    need = cost - s if cost > s else 0
    if need:
        p.fresh = p.fresh - need if var.divisible else 0
    p.paid |= 1 << a


def produce_dust(p: Player, v: int, rnd: int) -> None:
    """R6.1: one die into the cauldron: this round's blue box and the fresh dust grow by one."""
    _take_die(p, v, "dust")
    p.boxes[rnd - 1] += 1
    p.fresh += 1


def unlock_amplifier(p: Player, v: int) -> None:
    """R7.1: one die towards the next level; the level unlocks when its cost is paid."""
    _take_die(p, v, f"amp L{p.amp_level + 1}")
    p.amp_paid += 1
    if p.amp_paid == AMP_COSTS[p.amp_level]:
        p.amp_level += 1
        p.amp_paid = 0


def amplify(p: Player, a: int, v: int) -> None:
    """R7.2: activate the amplifier on a complete artifact."""
    _take_die(p, v, f"amplify {ARTS[a].id}")
    p.amped |= 1 << a


def upgrade_colour(p: Player, c: int, v: int) -> None:
    """R8.1: mark the colour box with a die of exactly that value."""
    _take_die(p, v, f"{SHEET.colours[c]} {v}")
    p.upg |= 1 << (c * NK + UPG_VALUES.index(v))


def transmute(p: Player, v: int, w: int) -> None:
    """R9: the first unused die showing v now shows w; it stays unused."""
    vals, used = p.vals, p.used
    for i in range(len(vals)):
        if vals[i] == v and not used[i]:
            vals[i] = w
            p.tmask |= 1 << i
            break
    p.trans_left -= 1


def do(var: Variant, p: Player, action: Action, rnd: int) -> None:
    """Carry out a checked action for player p in round rnd (END only marks p as decided)."""
    kind, args = action.kind, action.args
    if kind == KIND_CHARGE:
        charge_field(var, p, *args)
    elif kind == KIND_DUST:
        produce_dust(p, args[0], rnd)
    elif kind == KIND_PAY:
        pay_dust(var, p, *args)
    elif kind == KIND_UPGRADE:
        upgrade_colour(p, *args)
    elif kind == KIND_UNLOCK:
        unlock_amplifier(p, args[0])
    elif kind == KIND_AMPLIFY:
        amplify(p, *args)
    elif kind == KIND_TRANSMUTE:
        transmute(p, *args)
    else:
        p.done = True


def end_of_round(p: Player, rnd: int) -> None:
    """R3.2 step 3: unused dice expire; unspent fresh dust becomes one stock labelled with the round."""
    p.past = p.past + ((tuple(p.vals), tuple(p.used), p.tmask),)
    if p.fresh > 0:
        p.stock[rnd - 1] = p.fresh
        p.fresh = 0


def start_round(p: Player, roll: tuple[int, ...]) -> None:
    p.vals = list(roll)
    p.used = [""] * len(roll)
    p.tmask = 0
    p.done = False


__all__ = ["Variant", "available", "check", "do", "end_of_round", "legal_actions", "payments", "start_round",
           "DUST", "END"]
