"""Games stored before an option existed replay exactly as they were played (GameInfo.legacy_options)."""

import grimoire
from grimoire.core.record import make_record, replay, state_hash
from grimoire.core.rng import Rng

OLD_READINGS = {"free_advance_new_track": True, "whole_dust_tokens": False, "turn_action_limit": 1_000_000}


def _play(seed: int, **options):
    s = grimoire.new_game("zavandor", 3, seed, max_rounds=8, **options)
    rng = Rng(seed)
    while not s.is_terminal():
        acts = s.legal_actions()
        s.apply(acts[rng.below(len(acts))])
    return s


def test_a_record_without_the_new_options_replays_under_the_old_readings():
    for seed in range(4):
        old = _play(seed, **OLD_READINGS)
        rec = make_record(old)
        for key in OLD_READINGS:
            del rec["options"][key]                  # as written before the options existed
        again = replay(rec)
        assert state_hash(again) == state_hash(old)
        assert {k: again.options[k] for k in OLD_READINGS} == OLD_READINGS


def test_a_save_without_the_new_options_loads_under_the_old_readings():
    old = _play(9, **OLD_READINGS)
    d = old.to_dict()
    for key in OLD_READINGS:
        del d["options"][key]
    assert grimoire.load_game(d).to_dict() == old.to_dict()


def test_new_games_take_the_current_defaults():
    s = grimoire.new_game("zavandor", 3, 1)
    assert s.options["whole_dust_tokens"] is True and s.options["free_advance_new_track"] is False
    assert s.options["turn_action_limit"] == 100
