"""Zavandor knowledge for the generic IS-MCTS: the hard level, declared as the game's ``SearchSpec``
(``grimoire.agents`` builds the search agent from it; this package never imports the agents).

The search covers the decision at hand up to the end of the deciding seat's own turn (or, when it
is bidding in another player's auction, up to the end of that auction); there it stops and every
seat's position is evaluated with the heuristic's projection (``evaluate.value``). Rewards are the
seats' chances of winning estimated from those projections (a softmax over projected final VP), so
each seat cares about beating the others, not only about its own VP.

- Its own turn: the candidates are the heuristic's best few actions (purchases, knowledge,
  auctions to open, ending the turn); deeper in the turn, the playout follows the heuristic's
  first choice.
- Its own bids: raise by one, or pass.
- The other seats' bids follow the heuristic's auction valuation (how the medium level bids): each
  raises by one while the price stays within what the item is worth to him. Their other decisions
  (paying, losing a gem to a Mirror, free advances) follow the heuristic.

All of it runs on the determinizations the search samples (``state.sample_hidden``).
"""

from __future__ import annotations

import math
from typing import Any

from ....core.action import Action
from ....core.episode import derive_seed
from ....core.rng import Rng
from ....core.search import SearchHooks
from .. import actions as A
from ..auction import price_for
from ..data import SENT_END
from .evaluate import DEFAULT, Ctx, Params, end_value, energy_in_hand, value
from .heuristic import Heuristic, TurnGuard, _inverse

# What changes where the budget is time only (no iteration cap: the native core's thousands of
# iterations per decision), keys as ZavandorSearch's arguments. Empty: none of the wider, deeper or
# less shortcut variants tried measured better (docs/native.md), so the core searches as declared.
OPEN_MODE: dict = {}


class ZavandorSearch(SearchHooks):
    """The hard level's knowledge for the generic IS-MCTS (declared as the game's ``SearchSpec``).

    ``shortcut`` decides without searching where the decision is not close (the heuristic on one
    determinization): the small decisions (paying, discarding, a gem lost, free advances and tokens),
    a clearly best turn action (ahead of the next by ``clear_gap``), a bid far inside or outside what
    the item is worth (``bid_band``). The other hooks guide the search where it is close.

    The search's reach is explicit: ``top_k`` (at most that many of the heuristic's best turn
    actions, besides ending the turn), ``widen`` (progressive widening ``(c, alpha)``: a node visited
    v times considers the best ``min(top_k, ceil(c * v**alpha))``; None: always ``top_k``) and
    ``horizon`` ("turn": stop at the end of the deciding seat's turn; "round": play the other seats'
    turns on to the end of the round). ``open_mode`` overrides some of these (and ``clear_gap``)
    where the budget has no iteration cap, only a time limit: the native core then runs thousands of
    iterations (docs/native.md); a fixed iteration budget always uses the attributes themselves, on
    both engines.
    """

    def __init__(self, seed: int = 0, params: Params = DEFAULT, top_k: int = 4, temperature: float = 4.0,
                 scale: float = 20.0, clear_gap: float = 1.5, bid_band: float = 0.15,
                 widen: tuple[float, float] | None = None, horizon: str = "turn",
                 open_mode: dict | None = None):
        self.params = params
        self.top_k = top_k
        self.widen = widen
        self.horizon = horizon
        self.open_mode = dict(OPEN_MODE if open_mode is None else open_mode)
        self.temperature = temperature
        self.scale = scale
        self.clear_gap = clear_gap
        self.bid_band = bid_band
        self.h = Heuristic(params, rng=Rng(derive_seed(seed, "search")))     # inside the search
        self.rng = Rng(seed)                                   # the shortcut's determinizations
        self.quick = Heuristic(params, rng=self.rng)           # the shortcut's heuristic
        self.guard = TurnGuard()
        self.seat = -1
        self.round = -1
        self.turn_cache: dict = {}
        self.price_cache: dict = {}
        self.decided = 0            # decisions with a choice
        self.searched = 0           # ... of which the search took

    # --- SearchHooks ----------------------------------------------------------------------------------
    def mode(self, capped: bool) -> tuple:
        """(top_k, widen, round horizon, clear_gap) of a search with (or without) an iteration cap."""
        m: dict[str, Any] = {"top_k": self.top_k, "widen": self.widen, "horizon": self.horizon,
                             "clear_gap": self.clear_gap}
        if not capped:
            m.update(self.open_mode)
            m["clear_gap"] = max(self.clear_gap, m["clear_gap"])   # it only leaves more to the search
        w = m["widen"]
        return (int(m["top_k"]), None if w is None else (float(w[0]), float(w[1])), m["horizon"] == "round",
                float(m["clear_gap"]))

    def native_choose(self, agent, state, seat: int) -> Action:
        """The whole decision (shortcut, then the search) in the native core, on a native state."""
        from ..native import search_choose
        return search_choose(self, agent, state, seat)

    def begin(self, root, seat: int) -> None:
        self.seat = seat
        self.round = root.round
        self.root_active = root.active_seat
        self.root_len = root._hist_len
        self.base_values = self._values(root)
        self.turn_cache = {}

    def candidates(self, s, cp: int, actions: list[Action], cache: dict) -> list[Action]:
        if len(actions) == 1:
            return actions
        if s.pending:
            kind = s.pending.top.kind
            if kind == "bid":
                if cp == self.seat and s.auc[1] is not None:
                    bids = [a for a in actions if a.kind == "bid"]
                    return [bids[0], A.PASS] if bids else [A.PASS]
                return [self._bid(s, cp, actions)]
            return [self.h.decide(s, cp, actions)]
        if cp != self.seat:
            return [self._turn_choice(s, cp, actions)]
        ranked = cache.get("ranked")
        if ranked is None:
            ranked = self.h.rank_turn(s, cp, actions, lookahead=s._hist_len == self.root_len)
            cache["ranked"] = ranked
        visits = cache["visits"] = cache.get("visits", 0) + 1
        k = self.top_k
        if self.widen is not None:
            k = min(k, max(1, math.ceil(self.widen[0] * visits ** self.widen[1])))
        undo = _inverse(s)
        out = [a for _v, a in ranked[:k] if a is not undo]
        if A.END not in out:
            out.append(A.END)
        return out

    def rollout(self, s, rng) -> Action:
        actions = s.legal_actions()
        if len(actions) == 1:
            return actions[0]
        cp = s.current_player
        if s.pending:
            if s.pending.top.kind == "bid":
                return self._bid(s, cp, actions)
            return self.h.decide(s, cp, actions)
        return self._turn_choice(s, cp, actions)

    def cutoff(self, s, depth: int) -> bool:
        if s.over or s.round != self.round:
            return True
        if s.pending or self.horizon == "round":
            return False
        return s.active_seat != self.root_active

    def evaluate(self, s) -> list[float]:
        """Rewards from every seat's projected final VP. In the last round these are the final scores
        (a win is what counts); before it, each seat's gain since the root minus the others' mean gain
        (the projections differ between players by more than any one decision changes them)."""
        vals = self._values(s)
        if s.sent_sold >= SENT_END or (s.max_rounds is not None and s.round >= s.max_rounds):
            return softmax_win(vals, 1.0)
        base = self.base_values
        n = len(vals)
        gains = [vals[i] - base[i] if vals[i] > -1e8 else -30.0 for i in range(n)]
        out = []
        for i in range(n):
            others = [gains[j] for j in range(n) if j != i]
            rel = gains[i] - (sum(others) / len(others) if others else 0.0)
            out.append(min(1.0, max(0.0, 0.5 + rel / self.scale)))
        return out

    def _values(self, s) -> list[float]:
        ctx = Ctx(s, self.params)
        vals = []
        done = set(s.order[:s.turn_idx]) if s.stage == "turn" else set(s.order)
        for p in s.players:
            if p.out:
                vals.append(-1e9)
            elif p.seat in done or ctx.final:
                vals.append(end_value(s, p.seat, ctx))
            else:
                vals.append(value(p, ctx, energy_in_hand(p)))
        return vals

    # --- policies inside the search -----------------------------------------------------------------
    def _turn_choice(self, s, cp: int, actions: list[Action]) -> Action:
        key = _turn_key(s, cp)
        a = self.turn_cache.get(key)
        if a is None or a not in actions:      # (the key is the seat's holdings: chosen anew where illegal)
            a = self.h.rank_turn(s, cp, actions, lookahead=False, auctions=False)[0][1]
            self.turn_cache[key] = a
        return a

    def _bid(self, s, cp: int, actions: list[Action]) -> Action:
        item, high, _hs, _passed = s.auc
        if high is None:
            return actions[0]
        bids = [a for a in actions if a.kind == "bid"]
        if not bids:
            return A.PASS
        pmax = self.bid_limit(s, cp)
        if pmax >= 0 and price_for(s, cp, item, bids[0].args[0]) <= pmax:
            return bids[0]
        return A.PASS

    def bid_limit(self, s, cp: int) -> int:
        """The highest price the heuristic would pay for the item on auction (as medium bids)."""
        item, _high, hs, _passed = s.auc
        key: tuple = (cp, item, hs, s.round, s.turn_idx, s.sent_sold, len(s.display))
        if cp != self.seat:
            # a rival's limit depends on his hidden hand: one limit per determinization's hand, not
            # the first sample's for the whole search (that made the search overconfident)
            q = s.players[cp]
            key += (q.cardsum, q.dust, len(q.cards))
        pmax = self.price_cache.get(key)
        if pmax is None:
            pmax = self.h.bid_limit(s, cp)
            if len(self.price_cache) > 256:
                self.price_cache.clear()
            self.price_cache[key] = pmax
        return pmax

    # --- deciding without a search -------------------------------------------------------------------
    def shortcut(self, state, seat: int, actions: list[Action]) -> Action | None:
        det = state.sample_hidden(seat, self.rng)
        self.decided += 1
        d = det.pending.top
        if d is not None:
            if d.kind != "bid" or det.auc[1] is None:
                return self.quick.decide(det, seat, actions)
            bids = [a for a in actions if a.kind == "bid"]
            if not bids:
                return A.PASS
            item = det.auc[0]
            pmax = self.bid_limit(det, seat)
            nxt = price_for(det, seat, item, bids[0].args[0])
            band = max(4.0, self.bid_band * max(0, pmax))
            if pmax < 0 or nxt > pmax + band:
                return A.PASS
            if nxt <= pmax - band:
                return bids[0]
        else:
            if self.guard.exhausted(det, seat) and A.END in actions:
                return A.END
            ranked = self.quick.rank_turn(det, seat, actions)
            if len(ranked) == 1 or ranked[0][0] - ranked[1][0] >= self.clear_gap:
                return ranked[0][1]
        self.searched += 1
        return None


def search_hooks(seed: int = 0) -> ZavandorSearch:
    """The hooks of one hard player (the ``SearchSpec`` factory)."""
    return ZavandorSearch(seed)


def softmax_win(values: list[float], temperature: float) -> list[float]:
    """Chances of winning from projected final VP (a softmax with the given temperature)."""
    m = max(values)
    ex = [math.exp((v - m) / temperature) if v > -1e8 else 0.0 for v in values]
    tot = sum(ex)
    return [x / tot for x in ex]


def _turn_key(s, cp: int):
    p = s.players[cp]
    return (cp, s.round, tuple(p.active), tuple(p.inactive), tuple(p.levels), tuple(p.arts), len(p.sents),
            p.pentagon, p.advanced, p.dust, tuple(p.cards), tuple(p.conc), s.group, s.groups_done,
            s.tab_owed, s.tab_credit, tuple(s.display), tuple(s.sent_avail), s.sent_sold)
