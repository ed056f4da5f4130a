"""The official checkers on every registered game that declares an action codec and a tensor, at
each player count it allows among 1-4 (skipped, with the reason, for a game without them). The
default run plays short games (max_rounds=2); the ``slow`` ones play the games as the adapters do
by default (PettingZoo/Gymnasium: the rules' end, truncated at the length bound; OpenSpiel: the
round cap)."""

from __future__ import annotations

import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import grimoire.rl as rl

from .helpers import QUIET_CHECKERS, SHORT, real_game_cases

pytestmark = QUIET_CHECKERS
CASES = real_game_cases()


@pytest.mark.parametrize("game,players", CASES)
def test_pettingzoo_checkers(game, players):
    api_test(rl.pettingzoo_env(game, players=players, seed=1, **SHORT), num_cycles=40)
    seed_test(lambda: rl.pettingzoo_env(game, players=players, **SHORT), num_cycles=40)


@pytest.mark.parametrize("game,players", CASES)
def test_gymnasium_checker(game, players):
    check_env(rl.gymnasium_env(game, players=players, seat=players - 1, opponents="random", **SHORT))


@pytest.mark.parametrize("game,players", CASES)
def test_openspiel_random_simulations(game, players):
    pyspiel.random_sim_test(rl.openspiel_game(game, players=players, seed=1, **SHORT), num_sims=2,
                            serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("game,players", CASES)
def test_full_length_games(game, players):
    api_test(rl.pettingzoo_env(game, players=players, seed=2), num_cycles=2000)
    check_env(rl.gymnasium_env(game, players=players, opponents="medium"))
    pyspiel.random_sim_test(rl.openspiel_game(game, players=players, seed=2), num_sims=5, serialize=True,
                            verbose=False)
    pyspiel.random_sim_test(rl.openspiel_game(game, players=players, seed=2, chance="sampled"), num_sims=5,
                            serialize=False, verbose=False)
