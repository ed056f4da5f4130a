"""Position evaluation for the Zavandor AI: the VP a player's position is worth at the end.

``value(p, ctx)`` projects the player's game forward on his own: for each income phase still to come
(``ctx.R``, estimated from the sentinels sold and the round) he collects his average income, makes
one knowledge advance, fills and upgrades his gem slots with the best gem type he may buy (when it
pays back before the end), buys a sentinel when he can afford one (up to his share of those still
to be sold), and keeps only what fits his hand limit. The result is the VP he would hold at the end
(gems, level-4 tracks, artifacts, sentinels with their bonus then), plus a little for energy left.

This is a one-player model of the rest of the game — the deciding agents compare positions by it
(one step of policy improvement over that simple plan), so it only has to rank positions well:
it values gem access (Spellbook, Elixir, Fire 4), slots (Accumulation, Belt, Wand), income
(Flow, Crystal of Protection, Chalice), hand limit (Crystal Ball, Wand), discounts (Gems and
Artifacts tracks, Mask) and sentinel bonuses through what they let the plan do.

``end_value`` is ``value`` as if the player ended his turn now: his open tab paid the default way
and his hand cut to the hand limit. The evaluation reads one ``Player`` and public facts (round,
sentinels sold, players, options); the agents call it on determinizations only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..data import (
    ACCUM,
    ART_DISCOUNT,
    ART_HAND_LIMIT,
    ART_SLOTS,
    ART_VP,
    ARTS_T,
    BASE_HAND_LIMIT,
    BASE_SLOTS,
    CARD_AVG,
    CHALICE,
    CHARACTERS,
    CONC_VALUE,
    DRUID,
    ELIXIR,
    EXTRA_SLOTS,
    FIRE,
    FLOW,
    FLOW_DUST,
    GEM_COST,
    GEM_SALE,
    GEM_VP,
    GEMS_T,
    HAND_ENTRY,
    LEVEL4_VP,
    MASK,
    MASK_SENT_DISCOUNT,
    MAX_RUBIES,
    OPAL_PER_THREE,
    OPAL_REMAINDER,
    PROTECTION,
    SAGES,
    SAGES_COLOUR,
    SENT_BASE_VP,
    SENT_BONUS,
    SENT_DISCOUNT,
    SENT_END,
    SENT_MIN_BID,
    SPELLBOOK,
    TRACK_COST,
)
from ..energy import best_payment, hand_units, keep_best
from ..player import Player

GEM_INCOME = (10 / 3, CARD_AVG[0], CARD_AVG[1], CARD_AVG[2], CARD_AVG[3])
OWL = 1


@dataclass(frozen=True)
class Params:
    """Tunable constants of the projection (chosen by self-play)."""

    end_round: tuple = (0, 0, 19, 18, 17, 16, 16)   # expected last round by player count
    sentinel_rounds: float = 3.5     # expected rounds per sentinel still to be sold
    vp_per_energy: float = 1 / 14    # end value of energy held when the projection stops
    hand_unit: float = 1.4           # kept energy per hand-limit unit, times the income's value per unit
    hand_unit_min: float = 10.0      # ... at least
    hand_unit_max: float = 22.0      # ... at most
    gem_spend: float = 15.0          # base energy spent on gems per round (the Gems track's worth)
    sink_rate: float = 1 / 16        # VP per energy above the hand limit (spent on artifacts instead)
    art_rate: float = 1 / 13         # VP per energy spent on artifacts in the projection
    art_budget: float = 45.0         # energy per round the projection may spend on artifacts
    art_share: float = 1.2           # artifacts one expects, times a fair share of those left
    sentinel_share: float = 1.6      # sentinels one expects, as a multiple of a fair share
    sentinel_surcharge: float = 5.0  # expected turn-order modifier on a sentinel
    payback: float = 14.0            # energy per VP when judging whether a gem pays back
    sentinel_extra: float = 1.0      # VP added to a sentinel's worth in auctions
    denial: float = 0.2              # share of a rival's gain worth paying to deny it
    tie_income: float = 0.05         # small credit for income now (the projection is coarse)
    tie_energy: float = 0.01         # small credit for energy now
    kappa: float = 1 / 14            # VP per energy for quick comparisons (gem losses)
    round_plan: tuple = ("advance", "gems")  # the order of a projected round's purchases
    fire_step: float = 0.6           # share of the ruby access credited to a Fire level below the target
    # per-character plans: ((character, ((field, value), ...)), ...) replacing the fields above in
    # that character's projection, so each character plays to his own strengths (docs/ai.md)
    by_char: tuple = (
        # the druid: gems before knowledge, every Fire level credited fully, gem VP valued higher —
        # he saves for rubies instead of following the Flow-and-Sages plan that suits the elf
        # (4 players, druid in every game: win share 8.8% -> 26.0%, 200 games each)
        (DRUID, (("round_plan", ("gems", "advance")), ("fire_step", 1.0), ("payback", 17.0))),
    )


DEFAULT = Params()

# the fields a per-character plan may replace: those the projection reads (the others are read once
# per decision for the whole table: rounds left, sentinel quota, auction and comparison constants)
PLAN_FIELDS = frozenset({"vp_per_energy", "hand_unit", "hand_unit_min", "hand_unit_max", "gem_spend",
                         "sink_rate", "art_rate", "art_budget", "art_share", "sentinel_surcharge",
                         "payback", "round_plan", "fire_step"})

_PLANS: dict = {}


def plans(params: Params) -> tuple[int, tuple[Params, ...]]:
    """(a small id of ``params`` for memo keys, the projection constants of each character)."""
    got = _PLANS.get(params)
    if got is None:
        table = tuple(replace(params, by_char=(), **dict(dict(params.by_char).get(c, ())))
                      for c in range(len(CHARACTERS)))
        got = _PLANS[params] = (len(_PLANS), table)
    return got


def for_char(params: Params, char: int) -> Params:
    """The projection constants of a player of character ``char``."""
    return plans(params)[1][char]


def opal_dust(n: int) -> int:
    return OPAL_PER_THREE * (n // 3) + OPAL_REMAINDER[n % 3]


def _income(act, lv, arts) -> float:
    d0, d1, d2, d3 = act[1], act[2] + arts[PROTECTION], act[3], act[4] + arts[CHALICE]
    return (opal_dust(act[0]) + FLOW_DUST[lv[FLOW]]
            + d0 * CARD_AVG[0] + d1 * CARD_AVG[1] + d2 * CARD_AVG[2] + d3 * CARD_AVG[3]
            + 2 * (d0 // 4 + d1 // 4 + d2 // 4 + d3 // 4))


def income(p: Player) -> float:
    return _income(p.active, p.levels, p.arts)


def slots(p: Player) -> int:
    arts = p.arts
    return BASE_SLOTS + EXTRA_SLOTS[p.levels[ACCUM]] + ART_SLOTS[3] * arts[3] + ART_SLOTS[8] * arts[8]


def hand_limit(p: Player) -> int:
    lim = BASE_HAND_LIMIT
    lv = p.levels
    for t in range(6):
        if lv[t]:
            lim += HAND_ENTRY[t]
    arts = p.arts
    return lim + ART_HAND_LIMIT[2] * arts[2] + ART_HAND_LIMIT[8] * arts[8]


class Ctx:
    """What the evaluation needs to know about the game around a player (all public)."""

    __slots__ = ("params", "pid", "plans", "R", "n", "druid_l3", "whole_dust", "final", "sold", "round", "quota",
                 "avail", "arts_left")

    def __init__(self, s, params: Params = DEFAULT, R: float | None = None):
        self.params = params
        self.pid, self.plans = plans(params)
        self.n = max(1, sum(1 for q in s.players if not q.out))
        self.druid_l3 = s.druid_l3
        self.whole_dust = s.whole_dust
        self.sold = s.sent_sold
        self.round = s.round
        self.R = rounds_left(s, params) if R is None else R
        self.final = self.R <= 0
        left = max(0, SENT_END - s.sent_sold)
        self.quota = left * params.sentinel_share / self.n
        self.avail = tuple(s.sent_avail)
        self.arts_left = (sum(s.art_pile) + len(s.display)) / self.n


def rounds_left(s, params: Params = DEFAULT) -> float:
    """Expected income phases still to come after this round (0: this round is the last)."""
    if s.sent_sold >= SENT_END or s.over:
        return 0.0
    if s.max_rounds is not None and s.round >= s.max_rounds:
        return 0.0
    n = max(2, sum(1 for q in s.players if not q.out))
    r = min(params.end_round[min(n, 6)] - s.round, params.sentinel_rounds * (SENT_END - s.sent_sold))
    if s.max_rounds is not None:
        r = min(r, s.max_rounds - s.round)
    return max(1.0, float(r))


def _final_vp(act, lv, arts, sents) -> float:
    v = act[0] + act[1] + 2 * (act[2] + act[3]) + 3 * act[4]
    for x in lv:
        if x >= 4:
            v += LEVEL4_VP
    for k in range(12):
        if arts[k]:
            v += arts[k] * ART_VP[k]
    for sid in sents:
        v += SENT_BASE_VP + _bonus(sid, act, lv, arts)
    return v


def _bonus(sid: int, act, lv, arts) -> int:
    what, which, per, cap = SENT_BONUS[sid]
    if what == "types":
        n = sum(1 for x in act if x)
    elif what == "level4":
        n = sum(1 for x in lv if x >= 4)
    elif what == "active":
        n = sum(act[g] for g in which)
    else:
        n = sum(arts[k] for k in which)
    b = per * n
    return min(b, cap) if cap else b


def _unit_value(act, lv, arts, P) -> float:
    """Energy per hand-limit unit the player can keep, from the make-up of his income."""
    d = opal_dust(act[0]) + FLOW_DUST[lv[FLOW]]
    units = d / 3.3
    total = float(d)
    due = (act[1], act[2] + arts[PROTECTION], act[3], act[4] + arts[CHALICE])
    for c in range(4):
        n = due[c]
        if n:
            units += n % 4 + 3 * (n // 4)
            total += n * CARD_AVG[c] + 2 * (n // 4)
    if units <= 0:
        return P.hand_unit_min
    return min(P.hand_unit_max, max(P.hand_unit_min, P.hand_unit * total / units))


def _best_income_per_slot(act, lv, arts, druid_ruby) -> float:
    if lv[FIRE] >= 4 or (druid_ruby and lv[FIRE] >= 3):
        return GEM_INCOME[4]
    if arts[ELIXIR]:
        return GEM_INCOME[3]
    if arts[SPELLBOOK]:
        return GEM_INCOME[2]
    return GEM_INCOME[1]


def _level_benefit(t: int, level: int, left: int, act, lv, arts, n_slots: int, char: int, druid_ruby: bool,
                   P) -> float:
    """What reaching ``level`` on track ``t`` is worth in the projection, in energy."""
    per_vp = P.payback
    b = LEVEL4_VP * per_vp if level == 4 else 0.0
    if t == GEMS_T:
        b += 0.1 * P.gem_spend * left
    elif t == FLOW:
        b += (FLOW_DUST[level] - FLOW_DUST[level - 1]) * left
    elif t == FIRE:
        target = 3 if druid_ruby else 4
        if level <= target:
            per_slot = GEM_INCOME[4] - _best_income_per_slot(act, lv, arts, False)
            access = (min(5, n_slots) if target == 4 else 1) * (per_slot * left * 0.5 + per_vp)
            b += access / (target - level + 1) * (1.0 if level == target else P.fire_step)
    elif t == SAGES:
        b += 2 * CARD_AVG[SAGES_COLOUR[level - 1]]
    elif t == ARTS_T:
        b += (SENT_DISCOUNT[level] - SENT_DISCOUNT[level - 1]) * 1.0 \
            + (ART_DISCOUNT[level] - ART_DISCOUNT[level - 1]) * 0.25 * left
    elif t == ACCUM:
        extra = EXTRA_SLOTS[level] - EXTRA_SLOTS[level - 1]
        b += extra * (_best_income_per_slot(act, lv, arts, druid_ruby) * left * 0.6 + per_vp)
    if level == 1:
        b += HAND_ENTRY[t] * 0.5 * P.hand_unit_min * min(left, 4)
    return b


_MEMO: dict = {}
MEMO_MAX = 300_000


def project(p: Player, ctx: Ctx, energy: float) -> float:
    """The player's VP at the end if he follows the simple plan (see the module text). Memoized:
    searches evaluate the same positions again and again."""
    key = (p.char, tuple(p.active), tuple(p.inactive), tuple(p.levels), tuple(p.arts), tuple(p.sents), energy,
           p.under_dust, tuple(p.under_cards), p.pentagon, p.druid_ruby, ctx.R, ctx.quota, ctx.avail,
           ctx.arts_left, ctx.druid_l3, ctx.pid)
    v = _MEMO.get(key)
    if v is None:
        if len(_MEMO) >= MEMO_MAX:
            _MEMO.clear()
        v = _MEMO[key] = _project(p, ctx, energy)
    return v


def _project(p: Player, ctx: Ctx, energy: float) -> float:
    R = ctx.R
    act = p.active[:]
    ina = p.inactive[:]
    lv = p.levels[:]
    arts = p.arts
    sents = list(p.sents)
    if R <= 0:
        return float(_final_vp(act, lv, arts, sents))
    P = ctx.plans[p.char]
    E = float(energy)
    under: float = p.under_dust + sum(code >> 2 for code in p.under_cards)
    n_slots = slots(p)
    hl = hand_limit(p)
    spell = arts[SPELLBOOK] > 0
    elixir = arts[ELIXIR] > 0
    druid_ruby = ctx.druid_l3 and p.char == DRUID and not p.druid_ruby
    pentagon = p.pentagon
    quota = ctx.quota
    arts_left = ctx.arts_left * P.art_share
    avail = [x for x in ctx.avail]
    sent_disc = MASK_SENT_DISCOUNT * arts[MASK]
    payback = P.payback
    # an inactive gem goes onto a free slot at the next turn
    free = n_slots - sum(act)
    for g in (4, 3, 2, 1, 0):
        while ina[g] and free > 0:
            ina[g] -= 1
            act[g] += 1
            free -= 1
    rounds = int(R + 0.5)
    sunk = 0.0
    for r in range(rounds):
        left = rounds - r - 1              # income phases after this round's purchases
        E += _income(act, lv, arts) + under
        under = 0.0
        for step in P.round_plan:
            if step == "advance":
                # one knowledge advance: the level worth most for what it costs
                if left >= 1:
                    best_t, best_net = -1, 0.0
                    for t in range(6):
                        x = lv[t]
                        if x >= 4 or (x == 0 and not pentagon):
                            continue
                        c = TRACK_COST[t][x]
                        if c > E:
                            continue
                        net = _level_benefit(t, x + 1, left, act, lv, arts, n_slots, p.char, druid_ruby, P) - c
                        if net > best_net:
                            best_t, best_net = t, net
                    if best_t >= 0:
                        x = lv[best_t]
                        E -= TRACK_COST[best_t][x]
                        if x == 0:
                            pentagon -= 1
                            hl += HAND_ENTRY[best_t]
                        lv[best_t] = x + 1
                        if best_t == SAGES:
                            under += 2 * CARD_AVG[SAGES_COLOUR[x]]
                        elif best_t == ACCUM:
                            n_slots += EXTRA_SLOTS[x + 1] - EXTRA_SLOTS[x]
            else:
                # gems: fill free slots and replace weak gems with the best type one may buy
                gl = lv[GEMS_T]
                for _ in range(12):
                    ruby_ok = (act[4] + ina[4] < MAX_RUBIES) and (lv[FIRE] >= 4 or (druid_ruby and lv[FIRE] >= 3))
                    b = 4 if ruby_ok else 3 if elixir else 2 if spell else 1
                    cost = GEM_COST[b][gl]
                    if sum(act) < n_slots:
                        if E < cost:
                            b = 0 if E >= GEM_COST[0][gl] else -1
                            if b < 0:
                                break
                            cost = GEM_COST[0][gl]
                        if GEM_VP[b] * payback + left * GEM_INCOME[b] < cost:
                            break
                        E -= cost
                        act[b] += 1
                    else:
                        low = -1
                        for g in range(b):
                            if act[g]:
                                low = g
                                break
                        if low < 0:
                            break
                        net = cost - GEM_SALE[low][gl]
                        gain = (GEM_VP[b] - GEM_VP[low]) * payback + left * (GEM_INCOME[b] - GEM_INCOME[low])
                        if E < net or gain < net:
                            break
                        E -= net
                        act[low] -= 1
                        act[b] += 1
                    if b == 4 and lv[FIRE] < 4:
                        druid_ruby = False
        # a sentinel when affordable (up to one's share of those still to be sold)
        if quota >= 1 and avail:
            price = SENT_MIN_BID + P.sentinel_surcharge - SENT_DISCOUNT[lv[ARTS_T]] - sent_disc
            if E >= price:
                sid = max(avail, key=lambda x: _bonus(x, act, lv, arts))
                avail.remove(sid)
                sents.append(sid)
                E -= price
                quota -= 1
        # artifacts: a steady way to turn energy into VP while they last (keeping enough for a
        # sentinel within reach)
        if arts_left > 0:
            spend = min(E, P.art_budget, arts_left * 60.0)
            if quota >= 1 and avail:
                price = SENT_MIN_BID + P.sentinel_surcharge - SENT_DISCOUNT[lv[ARTS_T]] - sent_disc
                nxt = E + _income(act, lv, arts)
                if nxt >= price and nxt - spend < price:
                    spend = max(0.0, nxt - price)
            if spend > 0:
                sunk += spend * P.art_rate
                E -= spend
                arts_left -= spend / 60.0
        if left:
            cap = hl * _unit_value(act, lv, arts, P)
            if E > cap:
                sunk += (E - cap) * P.sink_rate
                E = cap
    v = _final_vp(act, lv, arts, sents) + E * P.vp_per_energy + sunk
    if quota > 0 and avail:
        # part of a sentinel still within reach
        price = SENT_MIN_BID + P.sentinel_surcharge - SENT_DISCOUNT[lv[ARTS_T]] - sent_disc
        frac = min(1.0, quota) * min(1.0, E / price) * 0.5
        sid = max(avail, key=lambda x: _bonus(x, act, lv, arts))
        v += frac * (SENT_BASE_VP + _bonus(sid, act, lv, arts) - price * P.vp_per_energy)
    return v


def energy_in_hand(p: Player) -> int:
    c = p.conc
    return p.dust + p.cardsum + c[0] * CONC_VALUE[0] + c[1] * CONC_VALUE[1] + c[2] * CONC_VALUE[2] \
        + c[3] * CONC_VALUE[3]


def value(p: Player, ctx: Ctx, energy: float | None = None) -> float:
    """Expected final VP of this player's position (see the module text)."""
    if p.out:
        return -100.0
    if energy is None:
        energy = energy_in_hand(p)
    v = project(p, ctx, energy)
    if ctx.R > 0:
        v += ctx.params.tie_income * income(p) + ctx.params.tie_energy * energy
    return v


def hand_after_paying(p: Player, need: int):
    """(cards, conc, dust) after paying ``need`` the default way (need <= 0: a credit)."""
    if need <= 0:
        f = p.dust - need
        return p.cards, p.conc, (f - 1 if f in (1, 3) else f)
    cards_used, conc_used, final_dust, _lost = best_payment(p.cards, p.conc, p.dust, need)
    cards = p.cards
    if cards_used:
        cards = cards[:]
        for c in cards_used:
            cards.remove(c)
    conc = [p.conc[c] - conc_used[c] for c in range(4)]
    return cards, conc, final_dust


def kept_energy(cards, conc, dust, limit: int, whole_tokens: bool = True) -> int:
    """Energy left after the phase-4 hand limit (the default discard keeps the most)."""
    total = dust + sum(c >> 2 for c in cards) + sum(conc[c] * CONC_VALUE[c] for c in range(4))
    if hand_units(cards, conc, dust) <= limit:
        return total
    cd, kd, kept_dust = keep_best(cards, conc, dust, limit, whole_tokens)
    return (kept_dust + sum(c >> 2 for c in cards) - sum(c >> 2 for c in cd)
            + sum((conc[c] - kd[c]) * CONC_VALUE[c] for c in range(4)))


def end_value(s, seat: int, ctx: Ctx, pay: int = 0) -> float:
    """``value`` of ``seat`` as if his open tab (plus ``pay`` more) were paid now and his hand cut
    to the hand limit. A shortfall (which the caller should avoid) costs heavily."""
    p = s.players[seat]
    need = pay
    if s.tab_seat == seat:
        need += s.tab_owed - s.tab_credit
    have = energy_in_hand(p)
    short = 0
    if need > have:
        short = need - have
        need = have
    cards, conc, dust = hand_after_paying(p, need)
    e = 0 if ctx.final else kept_energy(cards, conc, dust, hand_limit(p), ctx.whole_dust)
    return value(p, ctx, e) - short


def gem_loss(r: Player, ctx: Ctx) -> float:
    """What a player loses when he must give up one active gem: the least valuable one."""
    if not any(r.active):
        return 0.0
    base = value(r, ctx)
    best = math.inf
    for g in range(5):
        if r.active[g]:
            q = r.copy()
            q.active[g] -= 1
            best = min(best, base - value(q, ctx))
    return best
