"""The official checkers on every registered game that declares an action codec and a tensor, at
each player count it allows among 1-4 (skipped, with the reason, for a game without them). The
default run plays short games (max_rounds=2); the ``slow`` ones play the games as the adapters do
by default (PettingZoo/Gymnasium: the rules' end, truncated at the length bound; OpenSpiel: the
round cap)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import grimoire
import grimoire.rl as rl
from grimoire.core.registry import game_info

from .helpers import QUIET_CHECKERS, SHORT, masked_choice, real_game_cases

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


@pytest.mark.parametrize("game", [g for g in rl.learnable_games() if game_info(g).round_cap is not None])
def test_without_max_rounds_the_round_cap_ends_random_play(game):
    """Masked random play without max_rounds ended only at the length bound (Zavandor: round 28,368
    after 56,770 actions), truncated and unscored: the round cap now ends it as a termination."""
    cap = game_info(game).round_cap
    env = rl.pettingzoo_env(game, players=2, seed=3)
    env.reset()
    rng = np.random.default_rng(3)
    total = 0.0
    for _agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(masked_choice(rng, obs["action_mask"]))
    st = env.unwrapped.game_state
    assert st.is_terminal() and st.round <= cap
    assert env.agents == [] and total == pytest.approx(1.0)      # ended by termination: scored
    genv = rl.gymnasium_env(game, players=2, seed=3, opponents="random")
    _, info = genv.reset()
    terminated = truncated = False
    while not (terminated or truncated):
        _, _, terminated, truncated, info = genv.step(masked_choice(rng, info["action_mask"]))
    assert terminated and not truncated and genv.game_state.round <= cap


@pytest.mark.parametrize("game,players", CASES)
def test_observations_lie_within_the_declared_bounds(game, players):
    env = rl.pettingzoo_env(game, players=players, seed=4, max_rounds=3)
    space = env.observation_space(env.possible_agents[0])["observation"]
    env.reset()
    rng = np.random.default_rng(4)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        for a in env.agents:
            assert space.contains(env.observe(a)["observation"])
        env.step(None if term or trunc else masked_choice(rng, obs["action_mask"]))


def test_zauberschmiede_tensor_is_bounded_by_zero_and_one():
    low, high = game_info("zauberschmiede").tensor_spec(2).bounds()
    assert low.min() == 0.0 and high.max() == 1.0


def test_plane_fields_are_channels_over_cells_with_the_boards_adjacency():
    """The board planes of a tensor ([channels, cells]) and the cells' graph, for convolutional or
    graph models: checked against the figures' own fields in the observation."""
    for game in rl.learnable_games():
        spec = game_info(game).tensor_spec(2)
        if not spec.plane_fields():
            continue
        adj = spec.adjacency_matrix()
        cells = adj.shape[0]
        assert (adj == adj.T).all() and not adj.diagonal().any() and 1 <= adj.sum(1).min() <= adj.sum(1).max() <= 6
        st = grimoire.new_game(game, 2, 5)
        t = st.observation_tensor(0)
        planes = spec.planes(t)
        for name, (channels, n) in spec.plane_fields().items():
            assert n == cells and planes[name].shape == (channels, cells)
            assert np.array_equal(planes[name].ravel(), t[spec.field_slice(name)])
        batch = spec.planes(np.stack([t, t]))
        assert all(v.shape[0] == 2 for v in batch.values())


@pytest.mark.parametrize("game", rl.learnable_games())
def test_adapters_play_on_another_engine(game):
    from grimoire.core.registry import backends
    others = [b for b in backends(game) if b != "python"]
    if not others:
        pytest.skip(f"{game} has no other engine built here")
    for backend in others:
        py = rl.pettingzoo_raw_env(game, players=2, seed=6, max_rounds=2)
        other = rl.pettingzoo_raw_env(game, players=2, seed=6, max_rounds=2, backend=backend)
        py.reset()
        other.reset()
        assert other.game_state.backend == backend
        rng = np.random.default_rng(6)
        for _ in range(60):
            if py.game_state.is_terminal():
                break
            a = py.agent_selection
            o1, o2 = py.observe(a), other.observe(a)
            assert np.array_equal(o1["action_mask"], o2["action_mask"])
            assert np.array_equal(o1["observation"], o2["observation"])
            i = masked_choice(rng, o1["action_mask"])
            py.step(i)
            other.step(i)
        check_env(rl.gymnasium_env(game, players=2, backend=backend, **SHORT))
    with pytest.raises(grimoire.GameConfigError):
        rl.gymnasium_env(game, players=2, backend="no-such-engine")
