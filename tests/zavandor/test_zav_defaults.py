"""The hints tell the deciding seat what the default 'pay' / 'discard' would do, as an explicit action
text with exactly the same effect (interfaces preselect it); the static tables."""

import json

import grimoire
from grimoire.core.registry import game_info
from grimoire.core.rng import Rng


def _without_history(d):
    return {k: v for k, v in d.items() if k != "history"}


def test_default_payment_and_discard_texts_equal_the_defaults():
    seen = {"pay": 0, "discard": 0}
    for seed in range(25):
        s = grimoire.new_game("zavandor", 3, seed, max_rounds=12)
        r = Rng(seed)
        while not s.is_terminal():
            cp = s.current_player
            h = s.hints(cp)
            for verb in ("pay", "discard"):
                text = h.get(verb, {}).get("text")
                if text:
                    assert text.split()[0] == verb
                    a, b = s.clone(), s.clone()
                    a.apply(verb)
                    b.apply(text)
                    assert _without_history(a.to_dict()) == _without_history(b.to_dict()), h[verb]
                    seen[verb] += 1
            # the defaults are hints for the deciding seat only, never part of any observation
            for other in range(3):
                if other != cp:
                    assert s.hints(other) == {}
            for seat in (0, 1, 2, None):
                o = s.observation(seat)
                assert "default_payment" not in o["zavandor"] and "default_discard" not in o["zavandor"]
            acts = [x for x in s.legal_actions() if not str(x).startswith("sell")] or s.legal_actions()
            s.apply(acts[r.below(len(acts))])
    assert seen["pay"] > 50 and seen["discard"] > 5


def test_pay_hint_counts_what_is_owed_and_the_discard_hint_reaches_the_hand_limit():
    """7.6: the default payment covers the debt (owed minus credit); 8.1: what the default discard
    leaves counts no more than the hand limit (cards 1, concentrated 3, dust in the fewest tokens)."""
    conc_value = {"blue": 20, "green": 30, "white": 40, "red": 60}          # 2.3

    def dust_units(v: int) -> int:
        """2.5 / 7.6: the hand-limit count of v dust in its canonical tokens (10: 3, 5: 2, 2: 1)."""
        tens = v // 10 - (1 if v % 10 in (1, 3) and v >= 10 else 0)
        r = v - 10 * tens
        fives = r % 2
        return 3 * tens + 2 * fives + (r - 5 * fives) // 2

    checked = {"pay": 0, "discard": 0}
    for seed in range(12):
        s = grimoire.new_game("zavandor", 3, seed, max_rounds=10)
        r = Rng(seed)
        while not s.is_terminal():
            cp = s.current_player
            h = s.hints(cp)
            me = s.observation(cp)["zavandor"]["players"][cp]
            pay = h.get("pay")
            if pay and "text" in pay:
                tab = s.observation(cp)["zavandor"]["tab"]
                assert pay["need"] == tab["owed"] - tab["credit"] > 0
                handed = (sum(v for v, _c in pay["cards"]) + pay["dust"]
                          + sum(conc_value[c] * n for c, n in pay["concentrated"].items()))
                assert handed >= pay["need"]
                checked["pay"] += 1
            disc = h.get("discard")
            if disc:
                left_cards = len(me["card_values"]) - len(disc["cards"])
                left_conc = sum(me["concentrated"].values()) - sum(disc["concentrated"].values())
                assert disc["dust_kept"] == me["dust"] - disc["dust"]
                assert left_cards + 3 * left_conc + dust_units(disc["dust_kept"]) <= me["hand_limit"]
                checked["discard"] += 1
            acts = s.legal_actions()
            s.apply(acts[r.below(len(acts))])
    assert checked["pay"] > 10 and checked["discard"] > 0


def test_static_data_is_json_and_matches_the_rules_tables():
    d = game_info("zavandor").static_data()
    assert json.loads(json.dumps(d)) == d
    arts = {a["id"]: a for a in d["artifacts"]}
    assert arts["chalice"]["min_bid"] == 80 and arts["talisman"]["vp"] == 8 and arts["belt"]["deck"] == "B"
    assert [g["cost_by_level"] for g in d["gems"]][2] == [30, 27, 24, 21, 18]
    assert d["sentinel_min_bid"] == 120 and len(d["sentinels"]) == 9
    fox = next(x for x in d["sentinels"] if x["id"] == "fox")
    assert fox["cap"] == 12 and fox["counts"] == ["sapphire"]


def test_observations_of_several_seats_equal_single_observations():
    s = grimoire.new_game("zavandor", 4, 5, max_rounds=6)
    r = Rng(5)
    step = 0
    while not s.is_terminal():
        if step % 11 == 0:
            seats = [None, 0, 1, 2, 3]
            assert s.observations(seats) == [s.observation(x) for x in seats]
        acts = s.legal_actions()
        s.apply(acts[r.below(len(acts))])
        step += 1


def test_the_game_part_repeats_nothing_of_the_envelope():
    from grimoire.core.state import ENVELOPE_KEYS
    s = grimoire.new_game("zavandor", 3, 8, max_rounds=3)
    r = Rng(8)
    while True:
        for seat in (0, 1, 2, None):
            o = s.observation(seat)
            assert set(ENVELOPE_KEYS) | {"zavandor"} == set(o)
            assert not set(o["zavandor"]) & set(ENVELOPE_KEYS) and "over" not in o["zavandor"]
            assert o["legal_actions"] == ([a.text for a in s.legal_actions()] if seat == s.current_player
                                          and seat is not None else None)
        if s.is_terminal():
            break
        acts = s.legal_actions()
        s.apply(acts[r.below(len(acts))])
