"""A fixed-priority Zavandor player, modelled on the simple AI of the only other implementation
(the Perl ``Game::ScepterOfZavandor::AI::Naive``): a yardstick for pacing and strength, not a level.

Each step of its turn, the first that applies: auction the sentinel with the best bonus when the
minimum price is in hand; buy the best gem type it may buy onto a free slot (or to replace a weaker
gem), and if it cannot afford it do nothing else but knowledge; advance the cheapest track; open an
auction for the first wanted artifact at its minimum; buy a token for a new track; buy opals while
over the hand limit. In auctions it raises by 1 while the bid stays within 5% of the minimum.
"""

from __future__ import annotations

from ....core.action import Action
from ....core.agent import Agent
from .. import actions as A
from ..auction import price_for
from ..data import (
    ACCUM,
    ARTS_T,
    ELIXIR,
    GEM_COST,
    ITEM_MIN_BID,
    MAX_LEVEL,
    N_ART,
    SAGES,
    SPELLBOOK,
    TRACK_COST,
)
from ..scoring import sentinel_bonus
from ..turn import may_buy_kind

_NEW_TRACKS = (ARTS_T, ACCUM, SAGES)


class NaiveAgent(Agent):
    name = "naive"

    def choose(self, state, seat: int) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        s = state.sample_hidden(seat, self.rng)
        legal = set(actions)
        if s.pending:
            kind = s.pending.top.kind
            if kind == "bid":
                return self._bid(s, seat, actions)
            if kind == "apay":
                return A.PAY if A.PAY in legal else actions[-1]
            if kind == "ftoken":             # a free token costs nothing: the most expensive one
                return max((a for a in actions if a.kind == "token"), key=lambda a: a.args[0])
            if kind == "free":
                adv = [a for a in actions if a.kind == "advance"]
                return min(adv, key=lambda a: TRACK_COST[a.args[0]][s.players[seat].levels[a.args[0]]]) \
                    if adv else A.SKIP
            return actions[0]
        return self._turn(s, seat, legal)

    def _want(self, s, p, item: int) -> bool:
        if item >= N_ART:
            return sentinel_bonus(p, item - N_ART) > 0
        if item == SPELLBOOK and p.arts[SPELLBOOK]:
            return False
        if item == ELIXIR and p.arts[SPELLBOOK]:
            return False
        return True

    def _turn(self, s, seat: int, legal) -> Action:
        p = s.players[seat]
        liquid = p.energy() - (s.tab_owed - s.tab_credit if s.tab_seat == seat else 0)
        # 1. a sentinel with the best bonus
        if s.sent_avail and liquid >= price_for(s, seat, N_ART, ITEM_MIN_BID[N_ART]):
            best = max(s.sent_avail, key=lambda x: sentinel_bonus(p, x))
            if sentinel_bonus(p, best) > 0 and A.AUCTION[N_ART + best] in legal:
                return A.AUCTION[N_ART + best]
        # 2. the best gem type it may buy
        best_g = max(g for g in range(5) if g < 2 or may_buy_kind(s, p, g) is None)
        wanted = None
        if sum(p.active) < p.slots():
            wanted = best_g
        elif any(p.active[g] for g in range(best_g)):
            wanted = best_g
        if wanted is not None:
            if liquid < GEM_COST[wanted][p.levels[0]]:
                gem_state = "poor"
            else:
                if sum(p.active) >= p.slots():
                    low = min(g for g in range(best_g) if p.active[g])
                    if A.DEACTIVATE[low] in legal:
                        return A.DEACTIVATE[low]
                if A.BUY[wanted] in legal:
                    return A.BUY[wanted]
                gem_state = "none"
        else:
            gem_state = "none"
        # 3. knowledge: advance the cheapest track, or start a new one with a pentagon token
        if not p.advanced:
            tracks = [t for t in range(6) if 0 < p.levels[t] < MAX_LEVEL]
            if tracks:
                t = min(tracks, key=lambda t: TRACK_COST[t][p.levels[t]])
                if A.ADVANCE[t] in legal:
                    return A.ADVANCE[t]
            elif p.pentagon:
                for t in _NEW_TRACKS:
                    if not p.levels[t] and A.ADVANCE[t] in legal:
                        return A.ADVANCE[t]
        if gem_state != "poor":
            # 4. an artifact at its minimum
            for k in s.display:
                if self._want(s, p, k) and A.AUCTION[k] in legal and \
                        liquid >= price_for(s, seat, k, ITEM_MIN_BID[k]):
                    return A.AUCTION[k]
            # 5. a token for a new track
            if not p.advanced and not p.pentagon and p.tokens:
                new = [t for t in _NEW_TRACKS if not p.levels[t]]
                price = min(p.tokens)
                if new and liquid >= price + TRACK_COST[new[0]][0] and A.TOKEN[price] in legal:
                    return A.TOKEN[price]
        # 6. bank energy above the hand limit in opals
        if p.hand_count() > p.hand_limit():
            if A.BUY[0] in legal:
                return A.BUY[0]
            if A.BUY_INACTIVE[0] in legal:
                return A.BUY_INACTIVE[0]
        return A.END

    def _bid(self, s, seat: int, actions) -> Action:
        item, high, _hs, _passed = s.auc
        if high is None:
            return actions[0]
        p = s.players[seat]
        bids = [a for a in actions if a.kind == "bid"]
        if not bids or not self._want(s, p, item):
            return A.PASS
        nxt = bids[0].args[0]
        if p.energy() < price_for(s, seat, item, nxt) or high > ITEM_MIN_BID[item] * 1.05:
            return A.PASS
        return bids[0]
