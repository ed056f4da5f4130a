"""Energy arithmetic: dust (7.6), hand-limit counts (2.5), paying with change, keeping the best hand.

Dust is held as one integer D per player (the spec's equivalent integer model, 7.6): it is always
0 or a value >= 2 other than 3, and its hand-limit count is that of its canonical representation.
The integer is exact for paying (change is made in dust, so any amount can be handed over) and for
the hand count (any set of tokens exchanges upwards, without loss, into the canonical one). At the
hand-limit discard no change is made: the player returns whole tokens after exchanging upwards
(7.6, 8.1), so his tokens are those of the canonical representation of D — the bank pays out
canonically and he may always merge up to it — and only what they make can be kept
(``keepable_dust``: from 10+10 he keeps 0, 10 or 20, never 12).
Energy cards are integers ``code = value * 4 + colour`` so that sorting codes sorts by value.
"""

from __future__ import annotations

import itertools

from .data import CARD_UNITS, CONC_UNITS, CONC_VALUE, DUST_DENOMS, DUST_UNITS


def representable(v: int) -> bool:
    """Can v be made of 2-, 5- and 10-dust tokens? (0 counts: no tokens.)"""
    return v == 0 or (v >= 2 and v != 3)


def payout(v: int) -> int:
    """What the bank actually pays for a value v >= 0: no 1-dust, so 1 -> 0 and 3 -> 2 (7.6)."""
    return 0 if v == 1 else 2 if v == 3 else v


def dust_tokens(v: int) -> list[int]:
    """Canonical representation with the fewest hand-limit units (7.6); v must be representable."""
    if v in (1, 3):
        v = payout(v)
    tens = v // 10
    if v % 10 in (1, 3) and tens:
        tens -= 1
    r = v - 10 * tens
    out = [DUST_DENOMS[0]] * tens
    if r % 2:
        out.append(DUST_DENOMS[1])
        r -= DUST_DENOMS[1]
    out += [DUST_DENOMS[2]] * (r // 2)
    return out


_UNIT_OF = dict(zip(DUST_DENOMS, DUST_UNITS, strict=True))
_DUST_UNITS: list[int] = []


def _extend_units(upto: int) -> None:
    for v in range(len(_DUST_UNITS), upto + 1):
        _DUST_UNITS.append(sum(_UNIT_OF[t] for t in dust_tokens(v)) if representable(v) else -1)


_extend_units(1000)


def dust_units(v: int) -> int:
    """Hand-limit count of v dust in canonical tokens (2-dust 1, 5-dust 2, 10-dust 3)."""
    if v >= len(_DUST_UNITS):
        _extend_units(v + 200)
    return _DUST_UNITS[v]


def hand_units(cards: list[int], conc: list[int], dust: int) -> int:
    return len(cards) * CARD_UNITS + sum(conc) * CONC_UNITS + dust_units(dust)


# --- paying (7.6) -----------------------------------------------------------------------------------
# How far above (need + the largest item) a default payment may overshoot. Overshooting only turns
# cards into dust (more hand-limit units), so the best payment never goes far above the need; the
# test suite checks this bound against an exhaustive search.
OVERPAY_WINDOW = 10


_PAY_CACHE: dict[tuple, tuple] = {}


def cached_payment(cards: list[int], conc: list[int], dust: int, need: int) -> tuple:
    """Cached :func:`_best_payment` (search agents pay from the same hands again and again), as
    tuples: ``(cards_used, conc_used, final_dust, lost)``, shared with the cache (read only)."""
    key = (tuple(cards), tuple(conc), dust, need)
    hit = _PAY_CACHE.get(key)
    if hit is None:
        if len(_PAY_CACHE) > 100_000:
            _PAY_CACHE.clear()
        used, used_conc, final, lost = _best_payment(cards, conc, dust, need)
        hit = _PAY_CACHE[key] = (tuple(used), tuple(used_conc), final, lost)
    return hit


def best_payment(cards: list[int], conc: list[int], dust: int, need: int):
    """:func:`_best_payment`, cached; the lists are the caller's own."""
    hit = cached_payment(cards, conc, dust, need)
    return list(hit[0]), list(hit[1]), hit[2], hit[3]


def _best_payment(cards: list[int], conc: list[int], dust: int, need: int):
    """The default payment of ``need`` energy (7.6; issue: least waste, then smallest hand count).

    Returns ``(cards_used, conc_used, final_dust, lost)``: the card codes and concentrated cards
    (count per colour) handed over, the player's dust afterwards and the energy lost (0 or 1).
    Dust is fungible: whatever is handed over, the final dust is D + cards_paid - need, minus 1 if
    that would be 1 or 3 (no 1-dust). Requires dust + value(cards) + value(conc) >= need.
    """
    if need <= 0:
        # nothing to pay: the surplus (from gem sales) joins the dust, 1 lost if it would be 1 or 3
        f = dust - need
        lost = 1 if f in (1, 3) else 0
        return [], [0, 0, 0, 0], f - lost, lost
    # group the items by (value, units): cards of equal value are interchangeable for paying
    groups: list[tuple[int, int, list]] = []   # (value, units, [idents])
    by_value: dict[int, list[int]] = {}
    for code in cards:
        by_value.setdefault(code >> 2, []).append(code)
    for v in sorted(by_value):
        groups.append((v, CARD_UNITS, by_value[v]))
    for c in range(4):
        if conc[c]:
            groups.append((CONC_VALUE[c], CONC_UNITS, [-1 - c] * conc[c]))
    lo = need - dust
    hi = max(lo, 0) + max(g[0] for g in groups) + OVERPAY_WINDOW if groups else max(lo, 0)
    # dp: total -> units used (max); parents per group to rebuild the choice
    dp = {0: 0}
    parents = []
    for v, u, idents in groups:
        new = dict(dp)
        par = {}
        for t, units in dp.items():
            nt, nu = t, units
            for take in range(1, len(idents) + 1):
                nt += v
                nu += u
                if nt > hi:
                    break
                old = new.get(nt)
                if old is None or nu > old:
                    new[nt] = nu
                    par[nt] = (t, take)
        parents.append(par)
        dp = new
    best = None
    best_t = None
    for t, units in dp.items():
        if t < lo:
            continue
        f = dust + t - need
        lost = 1 if f in (1, 3) else 0
        key = (lost, dust_units(f - lost) - units, t)
        if best is None or key < best:
            best, best_t = key, t
    if best_t is None:
        raise ValueError("best_payment: not enough energy")
    # rebuild which items were taken
    used_cards: list[int] = []
    used_conc = [0, 0, 0, 0]
    t = best_t
    for gi in range(len(groups) - 1, -1, -1):
        p = parents[gi].get(t)
        # the group contributed only if this total was (re)set by it
        if p is None:
            continue
        prev_t, take = p
        # it may be that the total was reachable before this group with at least as many units
        v, u, idents = groups[gi]
        if t - take * v != prev_t:
            continue
        for ident in idents[:take]:
            if ident < 0:
                used_conc[-1 - ident] += 1
            else:
                used_cards.append(ident)
        t = prev_t
    f = dust + best_t - need
    lost = 1 if f in (1, 3) else 0
    return used_cards, used_conc, f - lost, lost


# --- the hand limit (8.1) -----------------------------------------------------------------------------
def _small_keepable(counts: tuple[int, ...]) -> frozenset[int]:
    """Values that tokens of the smaller denominations (``counts`` per DUST_DENOMS[1:]) can be
    turned into by returning tokens and exchanging upwards: several smaller tokens for one larger
    token worth at most their total (7.6; a loss is allowed, e.g. three 2s for a 5)."""
    denoms = DUST_DENOMS                      # largest first
    start = (0, *counts)
    seen = {start}
    todo = [start]
    while todo:
        ms = todo.pop()
        nxt = []
        for i, n in enumerate(ms):
            if n:
                nxt.append(ms[:i] + (n - 1,) + ms[i + 1:])          # return one token
        for t, target in enumerate(denoms[:-1]):                      # exchange up into ``target``
            smaller = range(t + 1, len(denoms))
            for take in itertools.product(*(range(ms[i] + 1) for i in smaller)):
                if sum(take) >= 2 and sum(k * denoms[i] for k, i in zip(take, smaller, strict=True)) >= target:
                    new = list(ms)
                    new[t] += 1
                    for k, i in zip(take, smaller, strict=True):
                        new[i] -= k
                    nxt.append(tuple(new))
        for x in nxt:
            if x not in seen:
                seen.add(x)
                todo.append(x)
    return frozenset(sum(n * d for n, d in zip(ms, denoms, strict=True)) for ms in seen)


_SMALL: dict[tuple[int, ...], frozenset[int]] = {}
_KEEPABLE: dict[int, tuple[int, ...]] = {}


def keepable_dust(dust: int) -> tuple[int, ...]:
    """The dust values a player holding ``dust`` (its canonical tokens) can keep at the hand-limit
    discard with whole tokens, ascending. The largest tokens cannot be exchanged further: any
    number of them is kept, with what the smaller ones make."""
    hit = _KEEPABLE.get(dust)
    if hit is None:
        tokens = dust_tokens(dust)
        top = DUST_DENOMS[0]
        counts = tuple(tokens.count(d) for d in DUST_DENOMS[1:])
        small = _SMALL.get(counts)
        if small is None:
            small = _SMALL[counts] = _small_keepable(counts)
        big = tokens.count(top)
        hit = tuple(sorted({top * k + v for k in range(big + 1) for v in small}))
        if len(_KEEPABLE) > 10_000:
            _KEEPABLE.clear()
        _KEEPABLE[dust] = hit
    return hit


def _max_dust_within(dust: int, units: int, whole_tokens: bool) -> int:
    """The most dust that can be kept within ``units`` hand-limit units: of the values the tokens
    make (``whole_tokens``), or of every representable value up to ``dust`` (dust split freely)."""
    if units <= 0:
        return 0
    if whole_tokens:
        return max(v for v in keepable_dust(dust) if dust_units(v) <= units)
    cap = 10 * (units // 3) + (0, 2, 5)[units % 3]
    v = min(dust, cap)
    while v > 0 and (not representable(v) or dust_units(v) > units):
        v -= 1
    return v


def keep_best(cards: list[int], conc: list[int], dust: int, limit: int, whole_tokens: bool = True):
    """The default hand-limit discard: keep the most energy within ``limit`` units (8.1).

    Returns ``(cards_discarded, conc_discarded, dust_kept)``. At equal kept energy the smaller hand
    is kept, then the one with more cards. ``whole_tokens``: dust goes back as whole tokens
    (``keepable_dust``); False: any representable amount of it may be kept (the old reading).
    """
    sorted_cards = sorted(cards, reverse=True)
    conc_list = sorted(((CONC_VALUE[c], c) for c in range(4) for _ in range(conc[c])), reverse=True)
    best = None
    for k in range(len(conc_list) + 1):
        budget = limit - CONC_UNITS * k
        if budget < 0:
            break
        conc_value = sum(v for v, _ in conc_list[:k])
        card_value = 0
        for j in range(min(len(sorted_cards), budget // CARD_UNITS) + 1):
            if j:
                card_value += sorted_cards[j - 1] >> 2
            d = _max_dust_within(dust, budget - j * CARD_UNITS, whole_tokens)
            kept = conc_value + card_value + d
            units = k * CONC_UNITS + j * CARD_UNITS + dust_units(d)
            key = (-kept, units, -j)
            if best is None or key < best[0]:
                best = (key, k, j, d)
    assert best is not None                 # k = j = 0 is always a candidate
    _, k, j, d = best
    conc_disc = [0, 0, 0, 0]
    for _v, c in conc_list[k:]:
        conc_disc[c] += 1
    return sorted_cards[j:], conc_disc, d
