"""A heuristic Zavandor player: an economy valued in VP (``evaluate``), greedy turns with a short
lookahead, auctions valued item by item for this seat, hand-limit-aware payments.

How it decides (all on a determinization, see ``HeuristicAgent``):

- **Its turn** (3a/3b/3c): every purchase, sale, (de)activation, token and advance is tried on a
  copy and valued by ``end_value`` (the position if the turn ended now: tab paid, hand cut to the
  hand limit). Precursor actions (tokens, deactivations) and the best few are looked at two steps
  deep, so that "token + advance", "advance Gems + buy" and "deactivate + buy better" are seen.
  Opening an auction is valued by its surplus at the minimum price (item worth minus what paying
  costs). It ends the turn when nothing is worth more than keeping the energy.
- **Auctions**: the item's worth for this seat is the change in evaluation when it owns the item
  (its VP, slots, gem access, income, free advances, free token, discounts, sentinel bonus), plus a
  share of the gem each rival loses to a Mirror/Cloak, plus a share of what the current high bidder
  would gain (denial). When the sale would end the game (fifth sentinel), the item is worth a win or
  a loss. It raises by 1 while the price stays below that worth (cost of paying = loss in evaluation,
  including gems it would have to sell).
- **Payments**: the engine's default payment (least energy lost, smallest hand); when it must sell
  gems, it sells those whose loss hurts least. **Discards**: the engine's default (keep the most).
  **Gem loss**: the gem whose loss hurts least. **Free token**: the most expensive.

``noise`` > 0 makes it weaker (easy level): its choices get a random perturbation of that many VP,
its auction limits vary by ``bid_noise``, and it looks only one step ahead.
"""

from __future__ import annotations

import math

from ....core.action import Action
from ....core.agent import Agent
from ....core.rng import Rng
from .. import actions as A
from ..auction import price_for
from ..data import (
    CARD_AVG,
    FREE_ADVANCES,
    FREE_GEM,
    GEM_LOSS,
    GEM_SALE,
    GEMS_T,
    ITEM_MIN_BID,
    N_ART,
    SAGES,
    SAGES_COLOUR,
    SENT_END,
)
from ..scoring import score
from .evaluate import (
    DEFAULT,
    Ctx,
    Params,
    end_value,
    energy_in_hand,
    gem_loss,
    hand_after_paying,
    hand_limit,
    kept_energy,
    value,
)

MAX_TURN_STEPS = 40      # own decisions in one turn before the agent ends it regardless
WIN_VALUE = 12.0          # VP-equivalent of winning when a purchase ends the game


class TurnGuard:
    """Counts a seat's decisions in its current turn: a safety net so that no turn goes on for ever."""

    def __init__(self) -> None:
        self._key: tuple | None = None
        self._steps = 0

    def exhausted(self, s, seat: int) -> bool:
        key = (s.round, s.turn_idx, seat)
        if key != self._key:
            self._key, self._steps = key, 0
        self._steps += 1
        return self._steps > MAX_TURN_STEPS


class Heuristic:
    """The decision procedure, applied to a full (determinized) state."""

    def __init__(self, params: Params = DEFAULT, noise: float = 0.0, bid_noise: float = 0.0,
                 lookahead: bool = True, rng: Rng | None = None):
        self.params = params
        self.noise = noise
        self.bid_noise = bid_noise
        self.lookahead = lookahead
        self.rng = rng or Rng(0)
        self._cache: dict = {}
        self.guard = TurnGuard()

    # --- entry point ----------------------------------------------------------------------------
    def decide(self, s, seat: int, actions: list[Action] | None = None) -> Action:
        if actions is None:
            actions = s.legal_actions()
        if len(actions) == 1:
            return actions[0]
        d = s.pending.top
        if d is not None:
            kind = d.kind
            if kind == "bid":
                return self.bid(s, seat, actions)
            if kind == "apay":
                if A.PAY in actions:
                    return A.PAY
                return self.pay_auction(s, seat, actions)
            if kind == "ftoken":             # a free token costs nothing: the most expensive one
                return max((a for a in actions if a.kind == "token"), key=lambda a: a.args[0])
            if kind in ("free", "lose"):
                return self._best_by_value(s, seat, actions)
            return actions[0]           # discard: the engine's default keeps the most energy
        return self.turn(s, seat, actions)

    def _jitter(self) -> float:
        if not self.noise:
            return 0.0
        u = self.rng.random()
        return -self.noise * math.log(-math.log(min(max(u, 1e-12), 1 - 1e-12)))   # Gumbel

    def _best_by_value(self, s, seat, actions):
        ctx = Ctx(s, self.params)
        best, best_v = actions[0], -math.inf
        for a in actions:
            c = s.clone()
            c.apply(a)
            v = end_value(c, seat, ctx) + self._jitter()
            if v > best_v:
                best, best_v = a, v
        return best

    # --- the turn ---------------------------------------------------------------------------------
    def turn(self, s, seat: int, actions: list[Action]) -> Action:
        if self.guard.exhausted(s, seat) and A.END in actions:
            return A.END
        ranked = self.rank_turn(s, seat, actions)
        if self.noise:
            return max(ranked, key=lambda x: x[0] + self._jitter())[1]
        return ranked[0][1]

    def rank_turn(self, s, seat: int, actions: list[Action], lookahead: bool | None = None, auctions: bool = True):
        """Every turn action worth considering with its value (END = ending the turn now), best first.

        Auctions are valued at 0.8 of their surplus at the minimum price (they may be outbid)."""
        if lookahead is None:
            lookahead = self.lookahead
        ctx = Ctx(s, self.params)
        base = end_value(s, seat, ctx)
        scored = []
        out = [(base + 0.05, A.END)]
        undo = _inverse(s)
        for a in actions:
            k = a.kind
            if k in ("end", "pay") or a is undo:
                continue
            if k == "auction":
                if not auctions:
                    continue
                surplus = self._opening_surplus(s, seat, a.args[0], ctx, base)
                if surplus > 0.3:
                    out.append((base + 0.8 * surplus, a))
                continue
            if k == "sell" and a.args[1]:
                continue                 # selling active gems: only to pay for what one won
            c = s.clone()
            c.apply(a)
            scored.append([end_value(c, seat, ctx), a, c])
        if lookahead and scored:
            scored.sort(key=lambda x: -x[0])
            for i, item in enumerate(scored):
                if i < 4 or item[1].kind in ("token", "deactivate", "sell"):
                    item[0] = max(item[0], self._follow_up(item[2], seat, ctx))
        out += [(v, a) for v, a, _c in scored]
        out.sort(key=lambda x: -x[0])
        return out

    def _follow_up(self, c, seat: int, ctx: Ctx) -> float:
        if c.current_player != seat or c.pending:
            return -math.inf
        best = -math.inf
        undo = _inverse(c)
        for a in c.legal_actions():
            k = a.kind
            if k in ("end", "pay", "auction") or (k == "sell" and a.args[1]) or a is undo:
                continue
            c2 = c.clone()
            c2.apply(a)
            v = end_value(c2, seat, ctx)
            if v > best:
                best = v
        return best

    # --- auctions -----------------------------------------------------------------------------------
    def owner_copy(self, s, seat: int, item: int, ctx: Ctx):
        """A copy of ``seat``'s player as if he owned ``item`` (effects applied, nothing paid)."""
        q = s.players[seat].copy()
        if item < N_ART:
            q.arts[item] += 1
            gem = FREE_GEM[item]
            if gem >= 0 and s.gem_supply[gem] > 0:
                q.inactive[gem] += 1
            if item in GEM_LOSS and q.tokens:
                q.tokens.remove(max(q.tokens))
                q.pentagon += 1
            for _ in range(FREE_ADVANCES[item]):
                _best_free_advance(q, ctx, s.free_new_track)
        else:
            q.sents.append(item - N_ART)
        return q

    def side_value(self, s, seat: int, item: int, ctx: Ctx) -> float:
        """What the purchase is worth beyond the buyer's own position: rivals' gem losses to a
        Mirror/Cloak, the sentinel bias, and winning or losing when it ends the game."""
        v = 0.0
        if item < N_ART:
            if item in GEM_LOSS:
                rivals = [r for r in s.players if r.seat != seat and not r.out]
                v += sum(gem_loss(r, ctx) for r in rivals) / max(1, len(rivals))
        else:
            v += ctx.params.sentinel_extra
            if not ctx.final and s.sent_sold + 1 >= SENT_END:
                v += self._race(s, seat, item, ctx)
        return v

    def _race(self, s, seat: int, item: int, ctx: Ctx) -> float:
        """Buying the fifth sentinel ends the game after this round: worth a win, or a loss."""
        q = s.players[seat].copy()
        q.sents.append(item - N_ART)
        mine = score(q)
        done = set(s.order[:s.turn_idx])
        best_other = 0.0
        for r in s.players:
            if r.seat == seat or r.out:
                continue
            est = float(score(r))
            if r.seat not in done:
                est += energy_in_hand(r) / 12.0      # they still convert energy this round
            best_other = max(best_other, est)
        return WIN_VALUE * math.tanh((mine - best_other) / 4.0)

    def outcome(self, s, seat: int, item: int, price: int, ctx: Ctx, q=None) -> float:
        """Evaluation of ``seat`` after winning ``item`` at ``price`` and paying it (selling the gems
        whose loss hurts least if his energy does not cover it); -inf if he cannot pay."""
        if q is None:
            q = self.owner_copy(s, seat, item, ctx)
        need = price
        if s.tab_seat == seat:
            need += s.tab_owed - s.tab_credit
        have = energy_in_hand(q)
        if need > have:
            q = q.copy()
            credit = 0
            lvl = q.levels[GEMS_T]
            while have + credit < need:
                best_g, best_loss, best_active = -1, math.inf, False
                for g in range(5):
                    sale = GEM_SALE[g][lvl]
                    for active in (False, True):
                        if not (q.active if active else q.inactive)[g]:
                            continue
                        r = q.copy()
                        (r.active if active else r.inactive)[g] -= 1
                        loss = (value(q, ctx) - value(r, ctx)) / max(1, sale)
                        if loss < best_loss:
                            best_g, best_loss, best_active = g, loss, active
                if best_g < 0:
                    return -math.inf
                (q.active if best_active else q.inactive)[best_g] -= 1
                credit += GEM_SALE[best_g][lvl]
            need -= credit
        cards, conc, dust = hand_after_paying(q, need)
        e = 0 if ctx.final else kept_energy(cards, conc, dust, hand_limit(q), ctx.whole_dust)
        return value(q, ctx, e)

    def max_price(self, s, seat: int, item: int, ctx: Ctx, extra: float = 0.0) -> int:
        """The highest price at which winning ``item`` is still worth it (-1: not at any price)."""
        base = end_value(s, seat, ctx)
        side = self.side_value(s, seat, item, ctx) + extra
        q = self.owner_copy(s, seat, item, ctx)
        if self.bid_noise:
            side += self.bid_noise * (2 * self.rng.random() - 1) * max(1.0, value(q, ctx) - value(s.players[seat], ctx))

        def worth(price):
            return self.outcome(s, seat, item, price, ctx, q) + side - base

        p = s.players[seat]
        tab = s.tab_credit - s.tab_owed if s.tab_seat == seat else 0
        if ctx.R > 1:
            # before the last rounds, never sell active gems for an auction: the income lost
            # compounds (only energy in hand and inactive gems pay)
            lvl = p.levels[GEMS_T]
            hi = energy_in_hand(p) + tab + sum(p.inactive[g] * GEM_SALE[g][lvl] for g in range(5))
        else:
            hi = p.capacity() + tab
        hi = max(0, hi)
        if worth(0) < 0:
            return -1
        if worth(hi) >= 0:
            return hi
        lo = 0
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if worth(mid) >= 0:
                lo = mid
            else:
                hi = mid
        return lo

    def _opening_surplus(self, s, seat: int, item: int, ctx: Ctx, base: float) -> float:
        price = price_for(s, seat, item, ITEM_MIN_BID[item])
        return self.outcome(s, seat, item, price, ctx) + self.side_value(s, seat, item, ctx) - base

    def bid_limit(self, s, seat: int) -> int:
        """The highest price worth paying for the item on auction; the high bidder's gain from it
        counts too (``denial``)."""
        item, _high, hs, _passed = s.auc
        ctx = Ctx(s, self.params)
        extra = 0.0
        if hs >= 0 and hs != seat and ctx.params.denial:
            rq = self.owner_copy(s, hs, item, ctx)
            extra = ctx.params.denial * max(0.0, value(rq, ctx) - value(s.players[hs], ctx))
        return self.max_price(s, seat, item, ctx, extra)

    def bid(self, s, seat: int, actions: list[Action]) -> Action:
        item, high, hs, _passed = s.auc
        if high is None:
            return actions[0]            # the opener bids the minimum
        bids = [a for a in actions if a.kind == "bid"]
        if not bids:
            return A.PASS
        key = (s.round, s.turn_idx, s.sent_sold, item, seat, hs, len(s.display))
        pmax = self._cache.get(key)
        if pmax is None:
            pmax = self.bid_limit(s, seat)
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[key] = pmax
        nxt = bids[0]
        if pmax >= 0 and price_for(s, seat, item, nxt.args[0]) <= pmax:
            return nxt
        return A.PASS

    def pay_auction(self, s, seat: int, actions: list[Action]) -> Action:
        """Must sell gems to pay: the one whose loss hurts least, counting the item won."""
        item = s.pending.top.payload.item
        ctx = Ctx(s, self.params)
        q = self.owner_copy(s, seat, item, ctx)
        best, best_v = actions[0], -math.inf
        for a in actions:
            g, active = a.args
            r = q.copy()
            (r.active if active else r.inactive)[g] -= 1
            v = value(r, ctx) + ctx.params.kappa * GEM_SALE[g][r.levels[GEMS_T]]
            if v > best_v:
                best, best_v = a, v
        return best


def _inverse(s):
    """The action that would undo the last one (activate <-> deactivate the same gem), or None:
    the agents never play it, so a turn cannot go round in circles."""
    if s._hist is None:
        return None
    last = A.TABLE.lookup(s._hist[0])
    if last is None:
        return None
    if last.kind == "activate":
        return A.DEACTIVATE[last.args[0]]
    if last.kind == "deactivate":
        return A.ACTIVATE[last.args[0]]
    return None


def _best_free_advance(q, ctx: Ctx, new_track: bool) -> None:
    """Apply (to a player copy) the free advance worth most to him."""
    best_t, best_v = -1, value(q, ctx)
    for t in range(6):
        lv = q.levels[t]
        if lv >= 4 or (lv == 0 and not (new_track and q.pentagon)):
            continue
        r = q.copy()
        _raise(r, t)
        v = value(r, ctx)
        if v > best_v:
            best_t, best_v = t, v
    if best_t >= 0:
        _raise(q, best_t)


def _raise(q, t: int) -> None:
    if q.levels[t] == 0:
        q.pentagon -= 1
    q.levels[t] += 1
    if t == SAGES:
        q.under_dust += 2 * CARD_AVG[SAGES_COLOUR[q.levels[t] - 1]]


class HeuristicAgent(Agent):
    """The heuristic on a determinization of what ``seat`` knows."""

    name = "heuristic"

    def __init__(self, seed: int = 0, params: Params = DEFAULT, noise: float = 0.0, bid_noise: float = 0.0,
                 lookahead: bool = True):
        super().__init__(seed)
        self.policy = Heuristic(params, noise, bid_noise, lookahead, self.rng)

    def fast_on(self, engine: str) -> bool:
        return engine in ("python", "native")     # decides inside the native core there

    def choose(self, state, seat: int) -> Action:
        if state.backend == "native":           # the same choice, made in the native core
            from ..native import heuristic_choose
            return heuristic_choose(self.policy, state, seat)
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        det = state.sample_hidden(seat, self.rng)
        return self.policy.decide(det, seat, actions)
