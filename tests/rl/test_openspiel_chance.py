"""OpenSpiel fidelity on the real games: explicit chance nodes for draws, the information state tensor,
lossless strings (docs/rl.md, "OpenSpiel")."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import mcts

import grimoire
import grimoire.rl as rl
from grimoire.rl.openspiel_bridge import SEEDS_PER_GAME


def _play_natural(game, rng, steps):
    """Random actions; at each draw the outcome the game's own RNG draws. The action texts played."""
    state = game.new_initial_state()
    for d in (0, 0, 0, 7):
        state.apply_action(d)
    texts, draws = [], []
    while not state.is_terminal() and len(texts) < steps:
        if state.is_chance_node():
            draws.append(len(state.chance_outcomes()))
            state.apply_action(state.natural_outcome())
        else:
            a = int(rng.choice(state.legal_actions()))
            texts.append(state.action_to_string(state.current_player(), a))
            state.apply_action(a)
    return state, texts, draws


@pytest.mark.parametrize("game,players", [("zauberschmiede", 1), ("zavandor", 2), ("shuluri", 2)])
def test_natural_outcomes_reproduce_the_engines_game(game, players):
    g = rl.openspiel_game(game, players=players, seed=2, max_rounds=3)
    state, texts, draws = _play_natural(g, np.random.default_rng(1), 80)
    assert draws and max(draws) <= g.max_chance_outcomes()
    ref = grimoire.new_game(game, players, 2 * SEEDS_PER_GAME + 7, max_rounds=3)
    for t in texts:
        ref.apply(t)
    assert state.grimoire_state.to_dict() == ref.to_dict()


def test_zauberschmiede_dice_are_chance_nodes_of_six_outcomes():
    g = rl.openspiel_game("zauberschmiede", players=1, seed=0, max_rounds=2)
    _, _, draws = _play_natural(g, np.random.default_rng(0), 200)
    assert draws.count(6) >= 6            # the second round's roll: six dice, one chance node each


def test_other_outcomes_play_other_dice_and_serialize():
    g = rl.openspiel_game("zauberschmiede", players=1, seed=0, max_rounds=2)
    state = g.new_initial_state()
    rng = np.random.default_rng(5)
    rolls = set()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        back = g.deserialize_state(state.serialize())
        assert str(back) == str(state) and back.history() == state.history()
        if not state.is_chance_node():
            rolls.add(tuple(state.grimoire_state.observation(0)["zauberschmiede"]["roll"] or ()))
    assert state.returns()[0] >= 0 and len(rolls) >= 2


def test_mcts_with_chance_nodes_plays_zauberschmiede_solo():
    g = rl.openspiel_game("zauberschmiede", players=1, seed=1, max_rounds=2)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(g, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = g.new_initial_state()
    chance = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance += 1
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bot.step(state))
    assert chance >= 4 + 6 and 0 <= state.returns()[0] <= g.max_utility()


@pytest.mark.parametrize("game,players", [("zavandor", 2), ("zauberschmiede", 2), ("shuluri", 2)])
def test_information_state_tensor_feeds_openspiel(game, players):
    g = rl.openspiel_game(game, players=players, seed=1, max_rounds=2)
    assert g.get_type().provides_information_state_tensor
    env = rl_environment.Environment(g, seed=1, observation_type=rl_environment.ObservationType.INFORMATION_STATE)
    ts = env.reset()
    size = g.information_state_tensor_size()
    seen = 0
    while not ts.last() and seen < 40:
        p = ts.observations["current_player"]
        info = np.asarray(ts.observations["info_state"][p])
        assert info.shape == (size,)
        state = env.get_state
        spec = grimoire.game_info(game).tensor_spec(players, g.options)
        assert np.array_equal(info[:spec.size], state.observation_tensor(p))
        assert info[-1] == pytest.approx(len(state.grimoire_state.history) / g.max_game_length())
        ts = env.step([ts.observations["legal_actions"][p][0]])
        seen += 1
    assert seen >= 3


def test_strings_are_lossless():
    """Shuluri's summary line mapped 386 distinct tensors to 70 strings."""
    g = rl.openspiel_game("shuluri", players=2, seed=3, max_rounds=2)
    state = g.new_initial_state()
    rng = np.random.default_rng(3)
    tensors, strings = {}, {}
    while not state.is_terminal() and len(tensors) < 150:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            continue
        for p in range(2):
            s = state.observation_string(p)
            assert json.loads(s) == state.grimoire_state.observation(p)
            tensors[state.observation_tensor(p).tobytes()] = s
            strings[s] = 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(strings) >= len(tensors) > 50


def test_the_seed_mode_is_the_old_explicit_model():
    g = rl.openspiel_game("zauberschmiede", players=1, seed=0, max_rounds=2, chance="seed")
    pyspiel.random_sim_test(g, num_sims=2, serialize=True, verbose=False)
    state = g.new_initial_state()
    for d in (0, 0, 0, 1):
        state.apply_action(d)
    while not state.is_terminal():
        assert not state.is_chance_node()
        state.apply_action(state.legal_actions()[0])
