"""The last round solved exactly: the best final score a sheet can reach with the round's six dice.

In the last round nothing is left to chance and nothing comes after, so the planner can search every
way of using the dice instead of a beam (docs/ai.md, "The last round solved exactly"). An artifact
scores only if complete, so an artifact charged in the last round and left incomplete scores nothing,
while the same dice as dust would have scored a point each: the best use of the dice completes every
artifact it charges. The search therefore takes each set of artifacts the dice could complete (its
empty fields and the dust it lacks within the dice left), and for each walks the action sequences
that charge only those artifacts, in one canonical order, so that each set of actions is seen once:

1. the dice in ascending order of value, each one used (charge, dust, upgrade, unlock), transmuted and
   then used (charge or upgrade: the uses whose value matters), or kept for the amplifier;
2. then the payments and, with the dice kept, the amplifier's activations (an artifact paid this round
   can be amplified too);
3. ``end``, scored exactly, once the set is complete.

Only the order is canonical, not the moves: every step is one of the engine's legal actions, carried out
by the engine. A sheet met before (the same fields, dust, marks, transmutations and dice left) is solved
once. The sets are solved best bound first (``_bound``), until no bound left can beat the best found; past
``SECONDS`` of CPU the best so far is returned as not proven.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import lru_cache
from itertools import combinations

from ...core.action import Action
from . import rules
from .actions import (
    KIND_AMPLIFY,
    KIND_CHARGE,
    KIND_DUST,
    KIND_END,
    KIND_PAY,
    KIND_UNLOCK,
    KIND_UPGRADE,
    SIDES,
    TRANSMUTE,
)
from .agents import _die_value, potential_key
from .player import Player
from .sheet import SHEET

_AFTER_TRANSMUTE = (KIND_CHARGE, KIND_UPGRADE)                   # the uses a transmuted die's value changes
_CLOSE = (KIND_PAY, KIND_AMPLIFY, KIND_END)                      # the second phase
_NFIELDS = SHEET.art_nfields
_DUST = SHEET.dust
_FIELDS = SHEET.art_fields
SECONDS = 1.0          # CPU seconds the solver searches at most (0: no limit, the same plans on any machine);
                       # beyond, the best found so far and the beam's (planner.py) are compared: measured in
                       # docs/ai.md, "The last round solved exactly"


def targets(p: Player) -> list[tuple[int, ...]]:
    """Every set of artifacts not yet complete that the round's dice could complete: their empty fields,
    and the dust they lack beyond the dust at hand (``_dust_lacking``), within the dice (the empty set
    included)."""
    dice = p.used.count("")
    open_ = [a for a in range(len(_NFIELDS)) if not p.paid >> a & 1 and _NFIELDS[a] - p.nfill[a] <= dice]
    out: list[tuple[int, ...]] = []
    for k in range(len(open_) + 1):
        found = False
        for s in combinations(open_, k):
            empty = sum(_NFIELDS[a] - p.nfill[a] for a in s)
            if empty + _dust_lacking(p, list(s)) <= dice:
                out.append(s)
                found = True
        if not found:
            break                              # no set of k fits, so none larger does
    return out


class _OutOfTime(Exception):
    pass


def solve(var: rules.Variant, p: Player, score: Callable[[Player], float],
          seconds: float = SECONDS) -> tuple[float, list[Action], bool]:
    """(best final score, its actions ending with ``end``, whether it is proven best) of sheet ``p`` in its
    last round; ``score(q)``: the final score of the sheet ``q`` (solo: its total; at a table: against what
    the seat sees). After ``seconds`` of CPU (0: no limit) the best of the sets solved so far is returned,
    not proven (the planner then also asks its beam)."""
    best: tuple[float, list[Action]] = (float("-inf"), [])
    deadline = time.thread_time() + seconds if seconds else float("inf")
    for bound, s in sorted(((_bound(p, score, s), s) for s in targets(p)), key=lambda t: -t[0]):
        if bound <= best[0]:
            break                              # no set left can beat the best found
        try:
            got = _solve_set(var, p, score, s, deadline)
        except _OutOfTime:
            return best[0], best[1], False
        if got[0] > best[0]:
            best = got
    return best[0], best[1], True


def _bound(p: Player, score: Callable[[Player], float], target: tuple[int, ...]) -> float:
    """A score no plan completing just ``target`` can beat: the target complete with every colour group in
    harmony where the values already written allow it; of the dice it does not need for its fields, some
    put to their best other uses (a colour box, worth its colour's fields on the complete artifacts, and
    only for a die showing its value or a transmuted one; the amplifier) and the rest made dust, scored;
    the best over how many."""
    q = p.copy()
    fields = q.fields
    for a in target:
        for _c, fs in SHEET.artifacts[a].groups:
            v = next((fields[f] for f in fs if fields[f]), SIDES)
            for f in fs:
                if not fields[f]:
                    fields[f] = v
        q.nfill[a] = _NFIELDS[a]
        q.paid |= 1 << a
    cnt = rules.available(p)
    dice = sum(cnt)
    rest = dice - sum(_NFIELDS[a] - p.nfill[a] for a in target)      # the dust it buys is among these
    complete = [a for a in range(len(_NFIELDS)) if q.paid >> a & 1]
    gains: list[int] = []                      # what a die can score in a colour box, best first
    for k, v in enumerate(SHEET.upgrade_values):
        boxes = sorted((sum(SHEET.artifacts[a].colour_count[c] for a in complete)
                        for c in range(len(SHEET.colours)) if not q.upg >> (c * len(SHEET.upgrade_values) + k) & 1),
                       reverse=True)
        gains += boxes[:cnt[v] + p.trans_left]
    gains.sort(reverse=True)
    # the dice put to colour boxes and the amplifier, the others dust (the dust creator counts only the dust)
    free = rest - _dust_lacking(p, list(target))
    made = q.boxes[-1]
    scored = []
    for dust in range(rest + 1):
        q.boxes[-1] = made + dust
        scored.append(score(q))
    best = float("-inf")
    for amp_dice, amp_gain in _amplifier_uses(p, q, free):
        for k in range(min(len(gains), free - amp_dice) + 1):
            best = max(best, scored[rest - amp_dice - k] + amp_gain + sum(gains[:k]))
    return best


def _amplifier_uses(p: Player, q: Player, dice: int) -> list[tuple[int, int]]:
    """(dice, points gained) of each way to spend at most ``dice`` dice on the amplifier: unlock levels, then
    activate artifacts complete in sheet ``q`` (each scores the final level). None where it cannot beat dust."""
    out = [(0, 0)]
    if not _activations_pay(p):
        return out
    amped = bin(p.amped & p.paid).count("1")
    open_ = bin(q.paid & ~p.amped).count("1")
    level, used = p.amp_level, 0
    costs = SHEET.amp_costs
    while True:
        for m in range(min(open_, dice - used) + 1):
            out.append((used + m, level * (amped + m) - p.amp_level * amped))
        if level >= len(costs):
            break
        used += costs[level] - (p.amp_paid if level == p.amp_level else 0)
        level += 1
        if used > dice:
            break
    return out


def _activations_pay(p: Player) -> bool:
    """Whether the amplifier can be worth a die in this round: a kept die is worth an activation at most,
    and from level 0 with nothing paid, unlocking level L and activating k artifacts takes the dice of the
    levels and k more for L points each, which beats as many dice of dust only if k (L - 1) exceeds the
    levels' dice (with six dice and levels of 1, 2 and 3 dice, never)."""
    if p.amp_level or p.amp_paid:
        return True
    dice = p.used.count("")
    cost = 0
    for level, c in enumerate(SHEET.amp_costs, start=1):
        cost += c
        k = dice - cost
        if k > 0 and k * (level - 1) > cost:
            return True
    return False


def _dust_lacking(p: Player, arts: list[int]) -> int:
    """The fresh dust still to make to pay the artifacts ``arts``: each stock goes whole into one payment
    (a stock is indivisible), the fresh dust at hand anywhere."""
    return max(0, _fresh_needed(tuple(sorted(_DUST[a] for a in arts)), tuple(amt for _r, amt in p.unspent_stocks()))
               - p.fresh)


@lru_cache(maxsize=4096)
def _fresh_needed(costs: tuple[int, ...], stocks: tuple[int, ...]) -> int:
    """The least dust beyond the stocks that pays these costs, every stock given whole to one cost or kept."""
    if not stocks:
        return sum(costs)
    first, rest = stocks[0], stocks[1:]
    best = _fresh_needed(costs, rest)
    for i in range(len(costs)):
        if i and costs[i] == costs[i - 1]:
            continue
        c = costs[:i] + (max(0, costs[i] - first),) + costs[i + 1:]
        best = min(best, _fresh_needed(tuple(sorted(c)), rest))
    return best


def _fillable(mins: list[int], left: list[int], transmutes: int) -> bool:
    """Whether the dice ``left`` (count per value) can fill fields of these minimums, a transmuted die
    filling any: the largest dice on the highest minimums, greedily (which is optimal for thresholds)."""
    dice = [v for v in range(SIDES, 0, -1) for _ in range(left[v])]
    j = 0
    unmatched = 0
    for m in sorted(mins, reverse=True):
        if j < len(dice) and dice[j] >= m:
            j += 1
        else:
            unmatched += 1
    return unmatched <= transmutes


def _solve_set(var: rules.Variant, p: Player, score: Callable[[Player], float],
               target: tuple[int, ...], deadline: float = float("inf")) -> tuple[float, list[Action]]:
    """The best of ``solve`` among the plans that charge only, and complete all of, the artifacts ``target``
    (raises ``_OutOfTime`` past ``deadline``, in ``time.thread_time`` seconds)."""
    mask = 0
    for a in target:
        mask |= 1 << a
    rnd, mins = var.last_round, var.mins
    memo: dict[tuple, tuple[float, list[Action]]] = {}
    no: tuple[float, list[Action]] = (float("-inf"), [])

    def need(q: Player) -> int:
        """Dice the target still needs: its empty fields and the dust it lacks beyond the dust at hand."""
        unpaid = [a for a in target if not q.paid >> a & 1]
        return sum(_NFIELDS[a] - q.nfill[a] for a in unpaid) + (_dust_lacking(q, unpaid) if unpaid else 0)

    def empty_mins(q: Player) -> list[int]:
        return [mins[f] for a in target for f in _FIELDS[a] if not q.fields[f]]

    def close(q: Player) -> tuple[float, list[Action]]:
        """The best payments and activations, then ``end`` (the target complete)."""
        key = potential_key(q)
        got = memo.get(key)
        if got is not None:
            return got
        best = no
        for a in rules.legal_actions(var, q):
            kind = a.kind
            if kind == KIND_END:
                if q.paid & mask == mask:
                    v = score(q)
                    if v > best[0]:
                        best = (v, [a])
                continue
            if kind == KIND_PAY and not mask >> a.args[0] & 1:
                continue                       # another set's plan
            if kind not in _CLOSE:
                continue
            c = q.copy()
            rules.do(var, c, a, rnd)
            v, seq = close(c)
            if v > best[0]:
                best = (v, [a] + seq)
        memo[key] = best
        return best

    def useful(a: Action) -> bool:
        """A first-phase use of a die: a charge of the target, dust, a colour box, the amplifier."""
        kind = a.kind
        if kind == KIND_CHARGE:
            return bool(mask >> a.args[0] & 1)
        return kind in (KIND_DUST, KIND_UPGRADE, KIND_UNLOCK)

    # dice kept for activations: at most one for each artifact that can be activated
    can_activate = bin((p.paid | mask) & ~p.amped).count("1") if _activations_pay(p) else 0

    def dice(q: Player, kept: tuple[int, ...]) -> tuple[float, list[Action]]:
        """The best from sheet ``q`` whose unused dice showing v are ``kept[v]`` kept, the others to decide."""
        if time.thread_time() > deadline:
            raise _OutOfTime
        cnt = rules.available(q)
        left = [cnt[v] - kept[v] for v in range(SIDES + 1)]
        n_left = sum(left)
        if need(q) > n_left or not _fillable(empty_mins(q), left, q.trans_left):
            return no
        if n_left == 0:
            return close(q)
        key = (potential_key(q), q.trans_left, tuple(left), kept)
        got = memo.get(key)
        if got is not None:
            return got
        v = next(x for x in range(1, SIDES + 1) if left[x])
        best = dice(q, kept[:v] + (kept[v] + 1,) + kept[v + 1:]) if sum(kept) < can_activate else no
        for a in rules.legal_actions(var, q):
            if _die_value(a) == v and useful(a):
                c = q.copy()
                rules.do(var, c, a, rnd)
                s, seq = dice(c, kept)
                if s > best[0]:
                    best = (s, [a] + seq)
        if q.trans_left and not rules.paying_amplifier(var, q):
            for w in range(1, SIDES + 1):
                if w == v:
                    continue
                t = TRANSMUTE[v][w]
                c = q.copy()
                rules.do(var, c, t, rnd)
                for a in rules.legal_actions(var, c):
                    if a.kind in _AFTER_TRANSMUTE and _die_value(a) == w and useful(a):
                        c2 = c.copy()
                        rules.do(var, c2, a, rnd)
                        s, seq = dice(c2, kept)
                        if s > best[0]:
                            best = (s, [t, a] + seq)
        memo[key] = best
        return best

    return dice(p, (0,) * (SIDES + 1))


__all__ = ["solve", "targets"]
