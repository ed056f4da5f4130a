"""The observation tells the deciding seat what the default 'pay' / 'discard' would do, as an explicit
action text with exactly the same effect (interfaces preselect it), and the static tables."""

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
            o = s.observation(cp)
            for key, verb in (("default_payment", "pay"), ("default_discard", "discard")):
                if key in o:
                    a, b = s.clone(), s.clone()
                    a.apply(verb)
                    b.apply(o[key]["text"])
                    assert _without_history(a.to_dict()) == _without_history(b.to_dict()), o[key]
                    seen[verb] += 1
            for other in range(3):
                if other != cp:
                    assert "default_payment" not in s.observation(other)
                    assert "default_discard" not in s.observation(other)
            acts = [x for x in s.legal_actions() if not str(x).startswith("sell")] or s.legal_actions()
            s.apply(acts[r.below(len(acts))])
    assert seen["pay"] > 50 and seen["discard"] > 5


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
