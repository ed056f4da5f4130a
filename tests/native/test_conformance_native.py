"""The shared conformance suite (grimoire/core/conformance.py) on the native Zavandor engine."""

import pytest

from grimoire.core import conformance as cf
from grimoire.core.registry import game_info

INFO = game_info("zavandor")


def _cases():
    """Two seeds per player count; above four players the second runs with the slow tests."""
    for n in INFO.player_counts:
        if n <= 4:
            yield pytest.param(n, (1, 2), id=f"{n}p")
        else:
            yield pytest.param(n, (1,), id=f"{n}p")
            yield pytest.param(n, (2,), id=f"{n}p-seed2", marks=pytest.mark.slow)


@pytest.mark.parametrize("players,seeds", list(_cases()))
def test_random_playthrough_with_deep_checks(players, seeds):
    for seed in seeds:
        state = cf.random_playthrough("zavandor", players, seed, dict(INFO.conformance_options), deep_every=7,
                                      probe_every=5, backend="native")
        assert state.backend == "native"


def test_same_seed_same_actions_same_state_in_another_process():
    """The reference engine replays a native game's record to the same state hash."""
    state = cf.random_playthrough("zavandor", INFO.default_players, 11, dict(INFO.conformance_options),
                                  backend="native")
    cf.check_separate_process(state)


def test_max_rounds_ends_the_game():
    state = cf.random_playthrough("zavandor", 4, 3, {"max_rounds": 1}, backend="native")
    assert state.is_terminal() and state.round == 1
