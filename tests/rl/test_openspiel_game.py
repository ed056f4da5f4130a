"""The OpenSpiel adapter on the toy game: OpenSpiel's random simulation test, the game type and
info, parameters, chance, clones, serialization, observers and the resampler."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

import grimoire
import grimoire.rl as rl
from grimoire.core.rng import Rng
from grimoire.rl.openspiel_bridge import SEEDS_PER_GAME, deal_digits
from grimoire.rl.openspiel_chance import MAX_OUTCOMES

from .toygame import ROUND_CAP, ToyState

ROOT = Path(__file__).resolve().parents[2]


def _deal(state, k: int = 0):
    if state.is_chance_node():
        for d in deal_digits(k):
            state.apply_action(d)
    return state


def _random_play(state, rng: np.random.Generator, steps: int):
    """``steps`` player actions, chance outcomes drawn at random on the way (the seed's digits first)."""
    while steps or state.is_chance_node():
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
        else:
            steps -= 1
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("params", [{}, {"max_rounds": 2, "bonus": 5}], ids=["round-cap", "max_rounds"])
def test_random_sim_test_with_serialization(toy, players, params):
    game = rl.openspiel_game("rltoy", players=players, seed=3, **params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_random_sim_test_in_the_sampled_chance_mode(toy, players):
    game = rl.openspiel_game("rltoy", players=players, seed=3, chance="sampled")
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    # pyspiel serializes a SAMPLED_STOCHASTIC game through Game::GetRNGState, which Python games cannot
    # provide: the states serialize on their own (below)
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)
    state = _random_play(game.new_initial_state(), np.random.default_rng(0), 3)
    back = game.deserialize_state(state.serialize())
    assert str(back) == str(state) and back.history() == state.history()


def test_game_type_and_info(toy):
    two = rl.openspiel_game("rltoy", players=2)
    t = two.get_type()
    assert t.short_name == "grimoire_rltoy"
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert (t.min_num_players, t.max_num_players) == (1, 4)
    assert t.provides_observation_tensor and t.provides_observation_string and t.provides_information_state_string
    assert t.provides_information_state_tensor
    assert two.num_distinct_actions() == 6       # keep, swap, knock and the raises by 1, 2, 3
    assert two.max_chance_outcomes() == MAX_OUTCOMES        # a draw's outcomes (the seed's digits: 16)
    assert rl.openspiel_game("rltoy", players=2, chance="seed").max_chance_outcomes() == 16
    assert two.max_game_length() == ROUND_CAP * 2
    assert (two.min_utility(), two.max_utility(), two.utility_sum()) == (0.0, 1.0, 1.0)
    assert two.observation_tensor_shape() == [grimoire.game_info("rltoy").observation_shape(2)[0]]
    solo = rl.openspiel_game("rltoy", players=1, max_rounds=3)
    assert solo.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert solo.utility_sum() is None
    assert (solo.min_utility(), solo.max_utility()) == (0.0, 24.0)
    assert solo.max_game_length() == 3
    assert rl.openspiel_game("rltoy", players=2, chance="sampled").max_chance_outcomes() == 0


def test_parameters_are_forwarded_and_the_game_string_loads_back(toy):
    game = pyspiel.load_game("grimoire_rltoy", {"players": 3, "seed": 2, "max_rounds": 2, "handicap": "[1;0;2]"})
    assert game.options == {"bonus": 3, "handicap": [1, 0, 2], "max_rounds": 2}
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game) and again.options == game.options and again.players == 3
    assert rl.openspiel_game("rltoy", players=2).options["max_rounds"] == ROUND_CAP   # the round cap applies
    assert rl.openspiel_game("rltoy", players=2, handicap="[2;3]").options["handicap"] == [2, 3]
    with pytest.raises(grimoire.GameConfigError):
        rl.openspiel_game("rltoy", players=2, bonus=9)
    with pytest.raises(grimoire.GameConfigError):
        rl.openspiel_game("rltoy", players=5)
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        rl.openspiel_game("rltoy", players=2, no_such_option=1)


def test_the_chance_node_deals_a_grimoire_seed(toy):
    game = rl.openspiel_game("rltoy", players=2, seed=3, max_rounds=2)
    state = game.new_initial_state()
    for digit in deal_digits(17):
        assert state.is_chance_node() and len(state.chance_outcomes()) == 16       # cheap for samplers
        assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
        assert not state.observation_tensor(0).any() and not any(pyspiel.State.observation_tensor(state, 0))
        state.apply_action(digit)
    expected = grimoire.new_game("rltoy", 2, 3 * SEEDS_PER_GAME + 17, max_rounds=2)
    assert state.grimoire_state.to_dict() == expected.to_dict()
    assert state.history() == [0, 0, 1, 1] and state.current_player() == 0


def test_the_sampled_mode_deals_successive_seeds(toy):
    game = rl.openspiel_game("rltoy", players=2, seed=3, chance="sampled")
    first, second = game.new_initial_state(), game.new_initial_state()
    assert not second.is_chance_node()
    assert second.grimoire_state.seed == 3 * SEEDS_PER_GAME     # dealt in order of first use
    assert first.grimoire_state.seed == 3 * SEEDS_PER_GAME + 1
    clone = first.clone()                                        # a clone deals nothing
    assert clone.grimoire_state.to_dict() == first.grimoire_state.to_dict()
    assert game.new_initial_state().grimoire_state.seed == 3 * SEEDS_PER_GAME + 2


def test_clones_use_the_games_clone(toy, monkeypatch):
    calls = []
    original = ToyState.clone

    def counting_clone(self):
        calls.append(1)
        return original(self)

    def no_deepcopy(self, memo):
        raise AssertionError("OpenSpiel deep-copied the game state")

    monkeypatch.setattr(ToyState, "clone", counting_clone)
    monkeypatch.setattr(ToyState, "__deepcopy__", no_deepcopy, raising=False)
    state = _deal(rl.openspiel_game("rltoy", players=3).new_initial_state(), 5)
    state.apply_action(3)
    calls.clear()                              # (an explicit-chance apply works on a clone of the game too)
    copy = state.clone()
    assert calls == [1]
    copy.apply_action(0)
    assert state.grimoire_state.history == ["bid 1"] and copy.grimoire_state.history == ["bid 1", "keep"]
    assert str(copy) != str(state) and copy.history() == [*deal_digits(5), 3, 0]


def test_states_serialize_as_records_and_resampled_states_whole(toy):
    game = rl.openspiel_game("rltoy", players=3, max_rounds=3, chance="seed")
    state = _random_play(game.new_initial_state(), np.random.default_rng(1), 5)
    text = state.serialize()
    dict_line = text.splitlines()[2]
    assert dict_line.startswith("__dict__=")
    assert b'"actions"' in pickle.dumps(state._box)      # the record inside
    back = game.deserialize_state(text)
    assert back.grimoire_state.to_dict() == state.grimoire_state.to_dict() and back.history() == state.history()
    again = pickle.loads(pickle.dumps(state))
    assert again.grimoire_state.to_dict() == state.grimoire_state.to_dict()
    det = state.resampled(1, Rng(7))
    assert det.grimoire_state.to_dict() != state.grimoire_state.to_dict()
    assert game.deserialize_state(det.serialize()).grimoire_state.to_dict() == det.grimoire_state.to_dict()
    assert game.deserialize_state(game.new_initial_state().serialize()).is_chance_node()


def test_resampling_keeps_what_the_player_knows_and_changes_the_rest(toy):
    game = rl.openspiel_game("rltoy", players=4, max_rounds=3)
    state = _random_play(game.new_initial_state(), np.random.default_rng(2), 3)
    seat = state.current_player()
    hands = set()
    sampler = pyspiel.UniformProbabilitySampler(11, 0.0, 1.0)
    for _ in range(20):
        det = state.resample_from_infostate(seat, sampler)
        assert det.information_state_string(seat) == state.information_state_string(seat)
        assert np.array_equal(det.observation_tensor(seat), state.observation_tensor(seat))
        assert det.legal_actions() == state.legal_actions() and det.history() == state.history()
        assert det.grimoire_state.hands[seat] == state.grimoire_state.hands[seat]
        assert det.grimoire_state.rng.state != state.grimoire_state.rng.state
        hands.add(tuple(det.grimoire_state.hands))
    assert len(hands) > 1


def test_relative_ids_are_decoded_in_the_state(toy):
    state = _deal(rl.openspiel_game("rltoy", players=2).new_initial_state())
    assert [state.action_to_string(a) for a in state.legal_actions()] == \
        ["keep", "swap", "knock", "bid 1", "bid 2", "bid 3"]
    state.apply_action(5)                      # bid 3
    assert state.action_to_string(3) == "bid 4" and state.action_to_string(5) == "bid 6"
    assert state.string_to_action("bid 5") == 4


def test_observers(toy):
    game = rl.openspiel_game("rltoy", players=3, max_rounds=3)
    state = _random_play(game.new_initial_state(), np.random.default_rng(3), 3)
    gs = state.grimoire_state
    obs = make_observation(game)
    obs.set_from(state, 1)
    assert np.array_equal(obs.tensor, gs.observation_tensor(1))
    spec = grimoire.game_info("rltoy").tensor_spec(3, game.options)
    assert list(obs.dict) == [f.name for f in spec.fields]
    assert obs.dict["hand"].tolist() == np.eye(9)[gs.hands[1] - 1].tolist()
    assert json.loads(state.observation_string(1)) == gs.observation(1)      # lossless: the observation
    assert json.loads(obs.string_from(state, 1)) == gs.observation(1)
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    info.set_from(state, 1)
    assert np.array_equal(info.tensor, state.information_state_tensor(1))
    assert np.array_equal(info.dict["hand"], obs.dict["hand"]) and info.dict["history"].size == 6 + 3
    assert json.loads(info.string_from(state, 1)) == [gs.observation(1), gs.visible_history(1)]
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(state, 1)
    assert np.array_equal(public.tensor, gs.observation_tensor(None))
    assert json.loads(public.string_from(state, 1)) == gs.observation(None)


def test_openspiel_bots_and_rl_environment_play_through_the_adapter(toy):
    game = rl.openspiel_game("rltoy", players=3, max_rounds=2)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 30, random_state=rng,
                           allow_inconsistent_action_sets=True)
    state = _deal(game.new_initial_state(), 9)
    while not state.is_terminal():             # the bot plays every seat, resampling by itself
        if state.is_chance_node():             # a card drawn by a swap
            state.apply_action(state.natural_outcome())
        else:
            state.apply_action(int(bot.step(state)))
    assert sum(state.returns()) == pytest.approx(1.0)
    env = rl_environment.Environment(game, seed=1)
    ts = env.reset()
    while not ts.last():
        p = ts.observations["current_player"]
        ts = env.step([ts.observations["legal_actions"][p][0]])
    assert sum(ts.rewards) == pytest.approx(1.0)


def test_a_process_that_used_the_adapter_exits_cleanly():
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
            "from tests.rl.toygame import toy_registered\n"
            "import grimoire.rl as rl, pyspiel\n"
            "with toy_registered():\n"
            "    g = rl.openspiel_game('rltoy', players=2)\n"
            "    pyspiel.random_sim_test(g, num_sims=1, serialize=True, verbose=False)\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_the_python_fast_paths_agree_with_pyspiels_own(toy):
    game = rl.openspiel_game("rltoy", players=3, max_rounds=3)
    state = _random_play(game.new_initial_state(), np.random.default_rng(4), 4)
    for p in range(3):
        fast = state.observation_tensor(p)
        assert fast.dtype == np.float32 and fast.tolist() == pyspiel.State.observation_tensor(state, p)
        assert state.observation_string(p) == pyspiel.State.observation_string(state, p)
        assert state.information_state_string(p) == pyspiel.State.information_state_string(state, p)
        assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p)
    assert state.legal_actions() == pyspiel.State.legal_actions(state)
    assert np.array_equal(state.observation_tensor(), state.observation_tensor(state.current_player()))
    assert np.array_equal(state.observation_tensor(np.int64(1)), state.observation_tensor(1))
    with pytest.raises(pyspiel.SpielError):
        state.observation_tensor(3)
    chance = game.new_initial_state()
    assert chance.legal_actions() == pyspiel.State.legal_actions(chance) == list(range(16))
    assert chance.observation_tensor(0).tolist() == pyspiel.State.observation_tensor(chance, 0)


def test_games_pickle_as_their_game_string(toy):
    game = rl.openspiel_game("rltoy", players=3, seed=2, max_rounds=2)
    back = pickle.loads(pickle.dumps(game))
    assert str(back) == str(game) and back.options == game.options
    sampled = rl.openspiel_game("rltoy", players=3, chance="sampled")
    assert str(pickle.loads(pickle.dumps(sampled))) == str(sampled)
    state = sampled.new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="GetRNGState"):   # pyspiel's limit for Python games
        pickle.dumps(state)
