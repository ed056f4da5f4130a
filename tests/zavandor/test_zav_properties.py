"""Property tests: the default payment and the default discard against exhaustive searches (7.6, 8.1), and
random legal play checked after every action for the game's invariants (conservation, no negative or
1/3 dust, slots, VP by 8.2, auction prices by 7.4.4, the curse by 7.5, listed == legal, records replay)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import grimoire
from grimoire import IllegalAction
from grimoire.core.rng import Rng
from grimoire.games.zavandor.actions import vocabulary
from grimoire.games.zavandor.energy import best_payment, keep_best

from .helpers import (
    CHARS,
    ELIXIR,
    SPEC_ART,
    SPEC_CARDS,
    SPEC_CONC,
    SPEC_GEM_SUPPLY,
    SPEC_SENT_MIN,
    SPELLBOOK,
    all_subsets,
    code,
    dust_units,
    energy,
    fresh,
    give_art,
    keepable_by_tokens,
    representable,
    set_hand,
    spec_capacity,
    spec_hand_limit,
    spec_order_mods,
    spec_price,
    spec_slots,
    spec_tokens,
    spec_vp,
)
from .policy import choose

ALL_CARDS = [(v, c) for c in range(4) for v, n in SPEC_CARDS[c].items() for _ in range(n)]
hands = st.tuples(
    st.lists(st.integers(0, len(ALL_CARDS) - 1), unique=True, max_size=7).map(lambda ix: [ALL_CARDS[i] for i in ix]),
    st.lists(st.integers(0, 3), max_size=3),
    st.integers(0, 45).filter(representable),
)


def _items(cards, conc_list):
    return [(v, 1) for v, _c in cards] + [(SPEC_CONC[c], 3) for c in conc_list]


def brute_best_payment(cards, conc_list, dust, need):
    """7.6 by exhaustive search: the least energy lost (0 or 1), then the smallest hand afterwards."""
    items = _items(cards, conc_list)
    total_units = sum(u for _v, u in items)
    best = None
    for sub in all_subsets(items):
        paid = sum(items[i][0] for i in sub)
        if paid + dust < need:
            continue
        f = dust + paid - need
        lost = 1 if f in (1, 3) else 0
        units = total_units - sum(items[i][1] for i in sub) + dust_units(f - lost)
        key = (lost, units)
        best = key if best is None or key < best else best
    return best


@settings(max_examples=400, deadline=None)
@given(hands, st.data())
def test_s7_6_default_payment_is_least_waste_then_smallest_hand(hand, data):
    cards, conc_list, dust = hand
    conc = [conc_list.count(c) for c in range(4)]
    total = sum(v for v, _c in cards) + sum(SPEC_CONC[c] for c in conc_list) + dust
    if total == 0:
        return
    need = data.draw(st.integers(1, total))
    codes = sorted(code(v, c) for v, c in cards)
    used, used_conc, final_dust, lost = best_payment(codes, conc, dust, need)
    pool = codes[:]
    for k in used:
        pool.remove(k)                                  # only cards he holds
    assert all(0 <= used_conc[c] <= conc[c] for c in range(4))
    paid = sum(k >> 2 for k in used) + sum(used_conc[c] * SPEC_CONC[c] for c in range(4))
    assert paid + dust >= need
    f = dust + paid - need
    assert lost == (1 if f in (1, 3) else 0) and final_dust == f - lost
    assert representable(final_dust)
    units = len(pool) + 3 * (sum(conc) - sum(used_conc)) + dust_units(final_dust)
    assert (lost, units) == brute_best_payment(cards, conc_list, dust, need)


def brute_keep_best(cards, conc_list, dust, limit, whole_tokens=True):
    """The most energy kept within the limit: the dust's canonical tokens returned whole or exchanged
    upwards (7.6, 8.1); with ``whole_tokens`` False any representable amount of dust."""
    items = _items(cards, conc_list)
    keepable = keepable_by_tokens(spec_tokens(dust)) if whole_tokens else set(range(dust + 1))
    best = 0
    for sub in all_subsets(items):
        value = sum(items[i][0] for i in sub)
        units = sum(items[i][1] for i in sub)
        if units > limit:
            continue
        d = max((x for x in keepable if representable(x) and units + dust_units(x) <= limit), default=0)
        best = max(best, value + d)
    return best


@settings(max_examples=400, deadline=None)
@given(hands, st.integers(1, 14), st.booleans())
def test_s8_1_default_discard_keeps_the_most_energy(hand, limit, whole_tokens):
    cards, conc_list, dust = hand
    conc = [conc_list.count(c) for c in range(4)]
    codes = sorted(code(v, c) for v, c in cards)
    disc_cards, disc_conc, kept_dust = keep_best(codes, conc, dust, limit, whole_tokens)
    pool = codes[:]
    for k in disc_cards:
        pool.remove(k)
    left_conc = [conc[c] - disc_conc[c] for c in range(4)]
    assert all(x >= 0 for x in left_conc)
    assert representable(kept_dust) and 0 <= kept_dust <= dust
    assert len(pool) + 3 * sum(left_conc) + dust_units(kept_dust) <= limit
    kept = sum(k >> 2 for k in pool) + sum(left_conc[c] * SPEC_CONC[c] for c in range(4)) + kept_dust
    assert kept == brute_keep_best(cards, conc_list, dust, limit, whole_tokens)
    if whole_tokens:
        assert kept_dust in keepable_by_tokens(spec_tokens(dust))


# --- random play ---------------------------------------------------------------------------------------
def min_bid_of(item):
    return SPEC_ART[item][1] if item < 12 else SPEC_SENT_MIN


def play_checked(seed, players, chars, options, rich=0, probe_every=9):
    r = random.Random(seed)
    s = grimoire.new_game("zavandor", players=players, seed=seed, characters=chars, **options)
    if rich:                                           # a rich start so that sentinels sell early
        for p in s.players:
            p.dust += rich
    start = json.loads(json.dumps(s.to_dict()))
    check_invariants(s, "start")
    last_bid = None
    rounds_seen = set()
    step = 0
    while not s.is_terminal():
        assert s.legal_actions(), f"seed {seed} step {step}: no legal action"
        step += 1
        where = f"seed {seed} step {step} round {s.round}"
        if step % probe_every == 0:
            probe_state(s, where)
        a = choose(s, r)
        text = a if isinstance(a, str) else a.text
        actor = s.current_player
        round_before = s.round
        if text.startswith("bid "):
            item = s.auc[0]
            price = spec_price(s, actor, item, int(text.split()[1]))
            cap = spec_capacity(s, actor)
        s.apply(text)
        if text.startswith("bid "):
            assert s.players[actor].out == (price > cap), f"{where}: curse mismatch for {text!r} ({price} vs {cap})"
            # combine_with_auction: a winner who already owes pays his tab and the price together
            last_bid = (actor, item, int(text.split()[1]), s.tab_owed if s.tab_seat == actor else 0)
        if s.pending and s.pending.top.kind == "apay" and last_bid is not None:
            seat, item, bid, owed_before = last_bid
            assert s.pending.top.seat == seat and s.pending.top.payload.item == item
            assert s.tab_owed == owed_before + spec_price(s, seat, item, bid), f"{where}: auction price"
            last_bid = None
        check_invariants(s, where)
        if s.round != round_before or s.is_terminal():
            # a phase 4 was just played: the VP fixed there follow 8.2
            for p in s.players:
                assert p.vp == spec_vp(p), f"{where}: seat {p.seat} VP {p.vp} != {spec_vp(p)}"
            if not s.is_terminal():
                rounds_seen.add(s.round)
                assert s.observation(None)["zavandor"]["modifiers"] == [
                    {"artifact": a_, "sentinel": b_} for a_, b_ in spec_order_mods(s)], f"{where}: 2.10"
                alive = [p for p in s.players if not p.out]
                assert sorted(s.order) == sorted(p.seat for p in alive)
                vps = [(s.players[x].vp, sum(s.players[x].active[g] * (1, 1, 2, 2, 3)[g] for g in range(5)))
                       for x in s.order]
                assert vps == sorted(vps, reverse=True), f"{where}: turn order"
                assert len(s.display) >= min(len(alive), len(s.display) + sum(s.art_pile))
    # the end
    alive = [p for p in s.players if not p.out]
    assert s.scores() == [spec_vp(p) for p in s.players]
    if s.end_reason == "last_player":
        assert len(alive) == 1 and s.winners() == [alive[0].seat]
    else:
        best = max(p.vp for p in alive)
        assert s.winners() == [p.seat for p in alive if p.vp == best]
        if s.end_reason == "sentinels":
            assert s.sent_sold >= 5
        else:
            assert s.end_reason == "max_rounds" and s.round == options["max_rounds"]
    # records: the actions replay to the identical state (from the record, or from the saved start)
    if not rich:
        assert grimoire.replay(s.record()).to_dict() == s.to_dict()
    else:
        again = grimoire.load_game(start)
        for t in s.history:
            again.apply(t)
        assert again.to_dict() == s.to_dict()
    assert grimoire.load_game(json.loads(json.dumps(s.to_dict()))).to_dict() == s.to_dict()
    return s


def check_invariants(s, where):
    n = s.num_players
    for c in range(4):
        lo = min(SPEC_CARDS[c])
        count = [s.deck[c][i] + s.disc[c][i] for i in range(len(SPEC_CARDS[c]))]
        for p in s.players:
            for k in p.cards + p.under_cards:
                if k & 3 == c:
                    count[(k >> 2) - lo] += 1
        assert count == [SPEC_CARDS[c][v] for v in sorted(SPEC_CARDS[c])], f"{where}: energy cards not conserved"
        assert min(s.deck[c]) >= 0 and min(s.disc[c]) >= 0, where
    for g in range(5):
        owned = sum(p.active[g] + p.inactive[g] for p in s.players)
        assert s.gem_supply[g] >= 0 and s.gem_supply[g] + owned == SPEC_GEM_SUPPLY[g], f"{where}: gems"
    copies = {2: 1, 3: 2, 4: 2, 5: 3, 6: 3}[n]
    for k in range(12):
        assert s.art_pile[k] >= 0
        assert s.art_pile[k] + s.display.count(k) + sum(p.arts[k] for p in s.players) <= copies, where
    assert s.sent_sold == 9 - len(s.sent_avail)
    owned_sents = [x for p in s.players for x in p.sents]
    assert len(set(owned_sents) | set(s.sent_avail)) == len(owned_sents) + len(s.sent_avail)
    for p in s.players:
        assert p.dust >= 0 and p.dust not in (1, 3), f"{where}: seat {p.seat} has dust {p.dust}"
        assert p.under_dust >= 0 and p.under_dust not in (1, 3), where
        assert min(p.conc) >= 0 and min(p.active) >= 0 and min(p.inactive) >= 0 and min(p.arts) >= 0, where
        assert all(0 <= lv <= 4 for lv in p.levels) and p.pentagon >= 0, where
        assert sum(1 for lv in p.levels if lv) + p.pentagon + len(p.tokens) == 6, f"{where}: tokens"
        assert p.cardsum == sum(k >> 2 for k in p.cards), where
        assert sum(p.active) <= spec_slots(p), f"{where}: seat {p.seat} has more active gems than slots"
        assert p.active[4] + p.inactive[4] <= 5, f"{where}: more than 5 rubies"
        assert p.arts[3] <= 1 and p.arts[8] <= 1, f"{where}: two Belts or Wands"
        assert spec_hand_limit(p) == p.hand_limit() or p.out
        if p.out:
            assert energy(p) == 0 and not any(p.active) and not any(p.inactive) and not p.cards and not p.sents
            assert not any(p.arts) and p.under_dust == 0 and not p.under_cards
    if s.tab_seat >= 0:
        assert s.tab_owed >= 0 and s.tab_credit >= 0, where


def probe_state(s, where):
    """Every listed action applies; every unlisted vocabulary text is refused with a reason and leaves
    the state unchanged."""
    before = s.to_dict()
    listed = s.legal_actions()
    texts = {a.text for a in listed}
    assert listed, f"{where}: no legal action"
    sample = [a for a in listed if a.kind != "bid"] + [a for a in listed if a.kind == "bid"][:3]
    for a in sample:
        c = s.clone()
        c.apply(a.text)                                 # every listed action applies
    for t in vocabulary():
        if t in texts:
            continue
        if s.is_legal(t):
            # legal although unlisted: only an auction opening the opener cannot pay may be (7.4.1 sets no
            # condition on the opener's means; typed, its only bid is the minimum, which brings the curse)
            assert t.startswith("auction "), f"{where}: unlisted {t!r} is legal"
            c = s.clone()
            c.apply(t)
            seat, item = c.pending.top.seat, c.auc[0]
            price = spec_price(c, seat, item, min_bid_of(item))
            # (known, reported: with an open tab the engine lists an opening only with 1 energy to spare,
            # so one that is exactly affordable once the tab is paid may be unlisted; see test_zav_auction)
            tab_open = s.tab_seat == seat and s.tab_owed > 0
            assert price > spec_capacity(c, seat) or (tab_open and price == spec_capacity(c, seat)), \
                f"{where}: {t!r} was affordable but not listed"
            assert [a.text for a in c.legal_actions()] == [f"bid {min_bid_of(item)}"]
            continue
        try:
            s.apply(t)
        except IllegalAction as e:
            assert str(e), f"{where}: {t!r} refused without a reason"
        else:
            raise AssertionError(f"{where}: unlisted {t!r} was accepted")
    assert s.to_dict() == before, f"{where}: a refused action changed the state"
    # a saved game loads to the identical, playable state
    loaded = grimoire.load_game(json.loads(json.dumps(before)))
    assert loaded.to_dict() == before and [a.text for a in loaded.legal_actions()] == [a.text for a in listed]
    # the determinization of a seat's unknowns is consistent with what that seat sees
    seat = s.current_player
    obs = s.observation(seat)
    sampled = s.sample_hidden(seat, Rng(len(before["history"]) + 1))
    assert sampled.observation(seat) == obs, f"{where}: sample_hidden changed what seat {seat} sees"
    assert s.to_dict() == before


OPTION_FLAGS = st.fixed_dictionaries({
    "strict_subphases": st.booleans(),
    "combine_with_auction": st.booleans(),
    "nine_sages_dust": st.booleans(),
    "druid_level3_ruby": st.booleans(),
    "max_rounds": st.integers(6, 24),
})


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])   # no shrinking: a failure names its seed
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), options=OPTION_FLAGS,
       rich=st.sampled_from([0, 0, 40, 80, 120]),
       perm=st.permutations(CHARS))
def test_random_play_invariants(seed, players, options, rich, perm):
    play_checked(seed, players, list(perm[:players]), options, rich)


def test_random_play_reaches_every_ending():
    reasons = {}
    for seed in range(48):
        n = 2 + seed % 5
        s = play_checked(seed, n, random.Random(seed).sample(CHARS, n), {"max_rounds": 8 + seed % 9},
                         rich=(0, 60, 120)[seed % 3], probe_every=17)
        reasons[s.end_reason] = reasons.get(s.end_reason, 0) + 1
        assert s.end_reason in ("sentinels", "max_rounds", "last_player")
    assert reasons.get("sentinels", 0) >= 5 and reasons.get("max_rounds", 0) >= 5, reasons


@settings(max_examples=150, deadline=None)
@given(hands, st.sampled_from([("opal", 9), ("sapphire", 18), ("emerald", 27), ("diamond", 36)]))
def test_s7_6_default_pay_in_play_matches_brute_force(hand, purchase):
    cards, conc_list, dust = hand
    gem, cost = purchase
    conc = tuple(conc_list.count(c) for c in range(4))
    total = sum(v for v, _c in cards) + sum(SPEC_CONC[c] for c in conc_list) + dust
    if total < cost:
        return
    s = fresh(2, ["witch", "elf"])                      # Knowledge of Gems 1: 9 / 18 / 27 / 36
    give_art(s, 0, SPELLBOOK)
    give_art(s, 0, ELIXIR)
    set_hand(s, 0, cards=[(v, c) for v, c in cards], dust=dust, conc=conc)
    s.apply(f"buy {gem} inactive")
    s.apply("pay")
    p = s.players[0]
    after = energy(p)
    lost = total - cost - after
    units = len(p.cards) + 3 * sum(p.conc) + dust_units(p.dust)
    assert (lost, units) == brute_best_payment(cards, conc_list, dust, cost)
