"""1,000 random games to the end, across 2-6 players and all six characters, without an error."""

from __future__ import annotations

import random
import time

import grimoire

from .helpers import CHARS, spec_vp
from .policy import choose
from .test_zav_properties import check_invariants

GAMES = 1000


def test_one_thousand_random_games():
    t0 = time.perf_counter()
    seen_chars = {n: set() for n in range(2, 7)}
    reasons: dict[str, int] = {}
    eliminated = 0
    for i in range(GAMES):
        r = random.Random(1_000_003 * i + 7)
        n = 2 + i % 5
        chars = r.sample(CHARS, n)
        seen_chars[n].update(chars)
        options = {"max_rounds": 8 + i % 8}
        if i % 7 == 3:
            options["strict_subphases"] = False
        if i % 11 == 5:
            options["combine_with_auction"] = True
        if i % 13 == 6:
            options["nine_sages_dust"] = False
        if i % 17 == 8:
            options["druid_level3_ruby"] = False
        s = grimoire.new_game("zavandor", players=n, seed=i, characters=chars, **options)
        uniform = i % 3 == 2                          # every third game: uniformly random legal actions
        if i % 3 == 1:
            for p in s.players:                       # a rich start: sentinels sell early
                p.dust += 120
        steps = 0
        while not s.is_terminal():
            acts = s.legal_actions()
            assert acts, f"game {i} step {steps}: no legal action"
            s.apply(r.choice(acts) if uniform else choose(s, r))
            steps += 1
            assert steps < 20_000, f"game {i} does not end"
        check_invariants(s, f"game {i}")
        assert s.is_terminal(), f"game {i}: no legal action"
        assert s.scores() == [spec_vp(p) for p in s.players], f"game {i}"
        assert s.winners(), f"game {i}: no winner"
        assert s.round <= options["max_rounds"]
        reasons[s.end_reason] = reasons.get(s.end_reason, 0) + 1
        eliminated += sum(p.out for p in s.players)
    elapsed = time.perf_counter() - t0
    assert all(seen == set(CHARS) for seen in seen_chars.values())
    assert reasons.get("sentinels", 0) > 50 and reasons.get("max_rounds", 0) > 50, reasons
    print(f"{GAMES} games in {elapsed:.1f} s; endings {reasons}; {eliminated} players cursed")
