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
once.
"""

from __future__ import annotations

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


def targets(p: Player) -> list[tuple[int, ...]]:
    """Every set of artifacts not yet complete that the round's dice could complete: their empty fields,
    and the dust they cost beyond all the dust at hand, within the dice (the empty set included)."""
    dice = sum(1 for u in p.used if not u)
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


def solve(var: rules.Variant, p: Player, score: Callable[[Player], float]) -> tuple[float, list[Action]]:
    """(best final score, its actions ending with ``end``) of sheet ``p`` in its last round; ``score(q)``:
    the final score of the sheet ``q`` (solo: its total; at a table: against what the seat sees)."""
    best: tuple[float, list[Action]] = (float("-inf"), [])
    for bound, s in sorted(((_bound(p, score, s), s) for s in targets(p)), key=lambda t: -t[0]):
        if bound <= best[0]:
            break                              # no set left can beat the best found
        got = _solve_set(var, p, score, s)
        if got[0] > best[0]:
            best = got
    return best


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
    gains: list[int] = []                      # what a die can score other than as dust, best first
    for k, v in enumerate(SHEET.upgrade_values):
        boxes = sorted((sum(SHEET.artifacts[a].colour_count[c] for a in complete)
                        for c in range(len(SHEET.colours)) if not q.upg >> (c * len(SHEET.upgrade_values) + k) & 1),
                       reverse=True)
        gains += boxes[:cnt[v] + p.trans_left]
    if _activations_pay(p):
        gains += [max(len(SHEET.amp_costs), bin(q.amped).count("1"))] * rest
    gains.sort(reverse=True)
    # k of the dice put to those uses, the others dust (the dust creator counts only the dust)
    best = float("-inf")
    made = q.boxes[-1]
    for k in range(min(len(gains), rest - _dust_lacking(p, list(target))) + 1):
        q.boxes[-1] = made + rest - k
        best = max(best, score(q) + sum(gains[:k]))
    return best


def _activations_pay(p: Player) -> bool:
    """Whether the amplifier can be worth a die in this round: a kept die is worth an activation at most,
    and from level 0 with nothing paid, unlocking level L and activating k artifacts takes the dice of the
    levels and k more for L points each, which beats as many dice of dust only if k (L - 1) exceeds the
    levels' dice (with six dice and levels of 1, 2 and 3 dice, never)."""
    if p.amp_level or p.amp_paid:
        return True
    dice = sum(1 for u in p.used if not u)
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
               target: tuple[int, ...]) -> tuple[float, list[Action]]:
    """The best of ``solve`` among the plans that charge only, and complete all of, the artifacts ``target``."""
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

    keep_ok = _activations_pay(p)

    def dice(q: Player, kept: tuple[int, ...]) -> tuple[float, list[Action]]:
        """The best from sheet ``q`` whose unused dice showing v are ``kept[v]`` kept, the others to decide."""
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
        best = dice(q, kept[:v] + (kept[v] + 1,) + kept[v + 1:]) if keep_ok else no      # kept for an activation
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
