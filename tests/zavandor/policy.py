"""A random but purposeful playing policy for Zavandor, so that random games really progress: players
buy the best gems they can, fill their slots, seek the artifacts that unlock gems or add slots, and
buy sentinels when they can pay for them; now and then anything legal at all, and rarely a bid beyond
their means (the curse). Only the state's public contract and plain fields are used."""

from __future__ import annotations

import random

from .helpers import (
    ACCUM,
    BELT,
    CHALICE,
    ELIXIR,
    PROTECTION,
    SPEC_ART,
    SPEC_SENT_MIN,
    SPELLBOOK,
    WAND,
    energy,
    spec_price,
)

WANTED = {SPELLBOOK, ELIXIR, BELT, WAND, PROTECTION, CHALICE}


def min_bid(item: int) -> int:
    return SPEC_ART[item][1] if item < 12 else SPEC_SENT_MIN


def choose(s, r: random.Random, curse_rate: float = 0.004):
    acts = s.legal_actions()
    d = s.pending.top.kind if s.pending else None
    seat = s.current_player
    me = s.players[seat]
    e = energy(me)
    if d == "bid":
        item, high = s.auc[0], s.auc[1]
        if high is not None and r.random() < curse_rate:
            return f"bid {high + 1 + max(0, e) + 200}"      # a bid nobody can pay: the curse
        bids = [a for a in acts if a.kind == "bid" and spec_price(s, seat, item, a.args[0]) <= e]
        passes = [a for a in acts if a.text == "pass"]
        if passes and (not bids or r.random() < 0.75):
            return passes[0]
        if bids:
            return bids[min(len(bids) - 1, int(r.expovariate(0.5)))]
        return acts[0]
    if d == "apay":
        pays = [a for a in acts if a.text == "pay"]
        return pays[0] if pays else r.choice(acts)
    if d is not None:
        return r.choice(acts)
    if r.random() < 0.03:
        return r.choice(acts)
    by: dict[str, list] = {}
    for a in acts:
        by.setdefault(a.kind, []).append(a)
    auc = [a for a in by.get("auction", []) if spec_price(s, seat, a.args[0], min_bid(a.args[0])) <= e]
    sent = [a for a in auc if a.args[0] >= 12]
    if sent and r.random() < 0.9:
        return r.choice(sent)
    if "activate" in by:
        return max(by["activate"], key=lambda a: a.args[0])
    buys = [a for a in by.get("buy", []) if a.args[1]]
    if buys and r.random() < 0.9:
        return max(buys, key=lambda a: a.args[0])
    want = [a for a in auc if a.args[0] in WANTED and not me.arts[a.args[0]]]
    if want and r.random() < 0.7:
        return r.choice(want)
    if not buys:
        adv = [a for a in by.get("advance", []) if a.args[0] == ACCUM]
        if adv and r.random() < 0.8:
            return adv[0]
        if me.levels[ACCUM] == 0 and me.pentagon == 0 and by.get("token") and r.random() < 0.8:
            return by["token"][0]
    adv = by.get("advance", [])
    if adv and r.random() < 0.15:
        return r.choice(adv)
    if by.get("sell") and r.random() < 0.02:
        return r.choice(by["sell"])
    for kind in ("end", "pay", "sell"):              # (combine variant: a debt may first need gem sales)
        if by.get(kind):
            return by[kind][0]
    return r.choice(acts)
