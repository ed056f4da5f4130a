"""The PettingZoo AEC adapter on the toy game: PettingZoo's own checkers and the semantics of
docs/rl.md (masks, rewards from returns, truncation at the length bound, seeds, options)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils import wrappers

import grimoire
import grimoire.rl as rl
from grimoire.core import registry
from grimoire.core.episode import derive_seed
from grimoire.rl.pettingzoo_aec import GrimoireAECEnv

from .helpers import QUIET_CHECKERS, masked_choice
from .toygame import INFO, ROUND_CAP

pytestmark = QUIET_CHECKERS


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("options", [{}, {"max_rounds": 2}], ids=["capped-by-truncation", "max_rounds"])
def test_pettingzoo_checkers_pass(toy, players, options):
    api_test(rl.pettingzoo_env("rltoy", players=players, seed=3, **options), num_cycles=60)
    seed_test(lambda: rl.pettingzoo_env("rltoy", players=players, **options), num_cycles=60)


def test_only_the_deciding_agent_has_a_mask_and_observations_are_its_tensor(toy):
    env = rl.pettingzoo_env("rltoy", players=3, seed=5)
    env.reset()
    st = env.game_state
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)
        assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
        assert np.array_equal(obs["observation"], st.observation_tensor(seat))
        # at the start everything is legal: keep, swap, knock and the raises to 1, 2, 3 (ids 0-5)
        expected = [1] * 6 if seat == 0 else [0] * 6
        assert obs["action_mask"].tolist() == expected
    env.step(2)                                # player_0 knocks: nobody may knock again
    assert env.agent_selection == "player_1"
    assert env.observe("player_1")["action_mask"].tolist() == [1, 1, 0, 1, 1, 1]
    assert env.observe("player_0")["action_mask"].tolist() == [0] * 6


def _toy_winners(hands, handicap, high_bidder, bonus):
    """The toy's scoring, written from its rules: card + handicap, + bonus for a high bidder holding
    the strictly best card."""
    best = max(hands)
    scores = [c + h + (bonus if i == high_bidder and hands.count(best) == 1 and c == best else 0)
              for i, (c, h) in enumerate(zip(hands, handicap, strict=True))]
    return [i for i, s in enumerate(scores) if s == max(scores)]


@pytest.mark.parametrize("seed", range(6))
def test_rewards_are_the_shares_of_the_win_at_the_end(toy, seed):
    env = rl.pettingzoo_env("rltoy", players=3, seed=seed, max_rounds=3, handicap=[0, 2, 1])
    env.reset()
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    done_at = None
    for step, agent in enumerate(env.agent_iter()):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            assert term and not trunc
            done_at = done_at or step
            env.step(None)
            continue
        assert reward == 0.0                   # no reward before the end
        env.step(masked_choice(rng, obs["action_mask"]))
    st = env.game_state
    assert st.is_terminal() and env.agents == []
    winners = _toy_winners(st.hands, [0, 2, 1], st.high_bidder, 3)
    assert [totals[f"player_{i}"] for i in range(3)] == [1 / len(winners) if i in winners else 0.0 for i in range(3)]


def test_without_max_rounds_the_round_cap_ends_the_game_as_a_scored_termination(toy):
    env = rl.pettingzoo_env("rltoy", players=2, seed=1)
    env.reset()
    assert env.game_state.options["max_rounds"] == ROUND_CAP
    for i in range(ROUND_CAP * 2):             # one action per seat and round
        assert not any(env.terminations.values()), f"ended after {i} actions"
        env.step(0)                            # everybody keeps: the rules alone never end the game
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.game_state.is_terminal()
    assert sum(env.rewards.values()) == pytest.approx(1.0)


def test_a_game_without_a_round_cap_is_truncated_at_its_length_bound(toy):
    registry.register(dataclasses.replace(INFO, name="rltoy_uncapped", round_cap=None,
                                          max_game_length=lambda players, options: 3 * players))
    try:
        env = rl.pettingzoo_raw_env("rltoy_uncapped", players=2, seed=1)
        env.reset()
        assert env.setup.step_limit == 6 and env.game_state.options["max_rounds"] is None
        for i in range(6):
            assert not any(env.truncations.values()), f"truncated after {i} actions"
            env.step(0)
        assert all(env.truncations.values()) and not any(env.terminations.values())
        assert not env.game_state.is_terminal()
        assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    finally:
        registry._GAMES.pop("rltoy_uncapped")


def test_max_rounds_is_forwarded_and_ends_the_game_as_a_termination(toy):
    env = rl.pettingzoo_env("rltoy", players=2, seed=1, max_rounds=3, bonus=5)
    env.reset()
    assert env.game_state.options == {"max_rounds": 3, "bonus": 5, "handicap": None}
    for _ in range(6):
        env.step(0)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert sum(env.rewards.values()) == pytest.approx(1.0)


def test_bad_options_and_games_without_a_codec_are_config_errors(toy):
    with pytest.raises(grimoire.GameConfigError):
        rl.pettingzoo_env("rltoy", players=2, no_such_option=1)
    with pytest.raises(grimoire.GameConfigError):
        rl.pettingzoo_env("rltoy", players=5)
    registry.register(dataclasses.replace(INFO, name="rltoy_nocodec", codec=None))
    try:
        with pytest.raises(grimoire.GameConfigError, match="action codec"):
            rl.pettingzoo_env("rltoy_nocodec", players=2)
    finally:
        registry._GAMES.pop("rltoy_nocodec")


def test_reset_seed_is_the_grimoire_seed_and_resets_without_one_continue(toy):
    env = rl.pettingzoo_env("rltoy", players=2, seed=10, max_rounds=2)
    env.reset()
    assert env.game_state.to_dict() == grimoire.new_game("rltoy", 2, 10, max_rounds=2).to_dict()
    env.reset()
    assert env.game_state.seed == derive_seed(10, "episode", 1)
    env.reset(seed=42)
    assert env.game_state.to_dict() == grimoire.new_game("rltoy", 2, 42, max_rounds=2).to_dict()
    env.reset()
    assert env.game_state.seed == derive_seed(42, "episode", 1)
    env.reset()
    assert env.game_state.seed == derive_seed(42, "episode", 2)


def test_sequences_of_neighbouring_seeds_share_no_game(toy):
    """A vector of environments seeds sub-env i with seed + i: their episodes must not overlap."""
    seeds = []
    for start in range(8):
        env = rl.pettingzoo_raw_env("rltoy", players=2, max_rounds=2)
        env.reset(seed=start)
        seeds.append(env.game_state.seed)
        for _ in range(20):
            env.reset()
            seeds.append(env.game_state.seed)
    assert len(set(seeds)) == len(seeds)


def test_the_raw_env_raises_for_an_illegal_id_and_changes_nothing(toy):
    env = rl.pettingzoo_raw_env("rltoy", players=2, seed=1)
    env.reset()
    env.step(2)                                # knock
    before = env.game_state.to_dict()
    for bad in (2, 99, -1, 1.5, True):
        with pytest.raises(grimoire.IllegalAction):
            env.step(bad)
        assert env.game_state.to_dict() == before
        assert env.agent_selection == "player_1"


def test_text_actions_reach_actions_without_an_id(toy):
    env = rl.pettingzoo_env("rltoy", players=2, seed=1).unwrapped
    env.reset()
    env.step("bid 5")                          # a raise of 5 has no id (only 1-3 have)
    assert env.game_state.high_bid == 5 and env.agent_selection == "player_1"
    env.step(np.int64(3))                      # id 3: the lowest legal bid, now 6
    assert env.game_state.high_bid == 6


def test_render_shows_the_spectators_board(toy, capsys):
    env = rl.pettingzoo_env("rltoy", players=2, seed=1, render_mode="ansi")
    env.reset()
    text = env.render()
    assert isinstance(text, str) and "'round': 1" in text   # a game without a renderer: its observation
    assert "'hands': None" in text             # the spectator sees no card
    human = rl.pettingzoo_env("rltoy", players=2, seed=1, render_mode="human")
    human.reset()
    human.step(0)
    assert "'round': 1" in capsys.readouterr().out


def test_pettingzoo_env_is_wrapped_like_the_classic_games(toy):
    env = rl.pettingzoo_env("rltoy", players=2, seed=1)
    assert isinstance(env, wrappers.OrderEnforcingWrapper)
    assert isinstance(env.unwrapped, GrimoireAECEnv)
    with pytest.raises(AssertionError, match="reset"):       # order enforcing: reset first
        env.step(0)
    env.reset()
    env.step(2)
    env.step(2)                                # a second knock is illegal (PettingZoo logs a warning)
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 0, "player_1": -1}
    fresh = rl.pettingzoo_env("rltoy", players=2, seed=1)
    fresh.reset()
    with pytest.raises(AssertionError):        # out of bounds
        fresh.step(99)


def test_the_turn_based_parallel_env_plays_the_acting_agents_action(toy):
    penv = rl.pettingzoo_parallel_env("rltoy", players=2, seed=4, max_rounds=2)
    parallel_api_test(penv, num_cycles=20)
    observations, infos = penv.reset(seed=4)
    assert set(observations) == {"player_0", "player_1"}
    assert observations["player_1"]["action_mask"].sum() == 0
    observations, rewards, terms, truncs, infos = penv.step({"player_0": 2, "player_1": 0})   # player_0 knocks
    assert penv.unwrapped.game_state.history == ["knock"]
    assert infos["player_0"]["active_agent"] == "player_1"
    while penv.agents:
        acting = infos[penv.agents[0]]["active_agent"]
        mask = observations[acting]["action_mask"]
        observations, rewards, terms, truncs, infos = penv.step({a: int(np.flatnonzero(mask)[0]) for a in penv.agents})
    assert sum(rewards.values()) == pytest.approx(1.0) and all(terms.values())
