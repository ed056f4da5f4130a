"""The Gymnasium single-seat adapter on the toy game: Gymnasium's checker and the semantics of
docs/rl.md (masks, invalid actions, opponents and their seeds, truncation)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import grimoire
import grimoire.rl as rl
from grimoire.core.agent import RandomAgent
from grimoire.core.episode import derive_seed

from .helpers import QUIET_CHECKERS, masked_choice
from .toygame import ROUND_CAP

pytestmark = QUIET_CHECKERS


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("observation", ["dict", "flat"])
def test_gymnasium_checker_passes(toy, players, observation):
    env = rl.gymnasium_env("rltoy", players=players, seat=players - 1, opponents="medium", observation=observation)
    check_env(env)


def test_checker_passes_through_gymnasium_make_with_every_render_mode(toy):
    (gid,) = rl.register_gymnasium(["rltoy"])
    assert gid == "grimoire/rltoy-v0"
    env = gymnasium.make(gid, players=3, opponents="random", max_rounds=2)
    check_env(env.unwrapped)
    assert env.unwrapped.spec.id == gid


def test_observation_mask_and_info_of_the_learner(toy):
    env = rl.gymnasium_env("rltoy", players=2, seat=0, seed=4)
    obs, info = env.reset()
    assert set(obs) == {"observation", "action_mask"}
    assert np.array_equal(obs["observation"], env.game_state.observation_tensor(0))
    assert obs["action_mask"].tolist() == [1] * 6 == info["action_mask"].tolist()
    assert env.action_masks().tolist() == [True] * 6
    flat = rl.gymnasium_env("rltoy", players=2, seat=0, seed=4, observation="flat")
    fobs, finfo = flat.reset()
    assert isinstance(fobs, np.ndarray) and np.array_equal(fobs, obs["observation"])
    assert finfo["action_mask"].tolist() == [1] * 6


def test_an_invalid_action_is_a_penalized_no_op(toy):
    env = rl.gymnasium_env("rltoy", players=2, seat=1, seed=4, invalid_action_reward=-0.5)
    env.reset()
    before = env.game_state.to_dict()
    mask = env.action_masks()
    for bad in [i for i in range(6) if not mask[i]] + [6, -1, 99]:
        obs, reward, term, trunc, info = env.step(bad)
        assert reward == -0.5 and not term and info["invalid_action"]
        assert env.game_state.to_dict() == before
        assert obs["action_mask"].tolist() == mask.astype(int).tolist()


def test_endless_invalid_actions_are_truncated_at_the_bound(toy):
    env = rl.gymnasium_env("rltoy", players=2, seat=0, seed=4, max_rounds=3)
    env.reset()
    bound = 3 * 2                               # the toy's bound: 3 rounds of one action per seat
    for i in range(1, bound + 1):
        _, reward, term, trunc, info = env.step(99)
        assert reward == -1.0 and info["invalid_action"] and not term
        assert trunc == (i == bound), f"step {i}"
    assert env.game_state.history == []
    with pytest.raises(RuntimeError):
        env.step(0)


def test_opponents_play_until_the_learner_decides_and_are_seeded_from_the_game_seed(toy):
    env = rl.gymnasium_env("rltoy", players=4, seat=2, opponents="random", seed=9, max_rounds=2)
    env.reset()
    st = env.game_state
    assert st.current_player == 2 and len(st.history) == 2
    # the same moves as RandomAgents seeded with derive_seed(game seed, "opponent", seat)
    ref = grimoire.new_game("rltoy", 4, 9, max_rounds=2)
    agents = {s: RandomAgent(derive_seed(9, "opponent", s)) for s in (0, 1)}
    for s in (0, 1):
        ref.apply(agents[s].choose(ref, s))
    assert ref.to_dict() == st.to_dict()


def test_returns_at_the_end_and_per_seat_opponent_lists(toy):
    env = rl.gymnasium_env("rltoy", players=3, seat=1, opponents=["random", "ignored", "medium"], seed=2,
                           max_rounds=2)
    assert env.opponent_names == {0: "random", 2: "medium"}
    rng = np.random.default_rng(0)
    obs, info = env.reset()
    total, done = 0.0, False
    while not done:
        obs, reward, term, trunc, info = env.step(masked_choice(rng, info["action_mask"]))
        total += reward
        done = term or trunc
    assert term and not trunc
    assert total == info["returns"][1] == env.game_state.returns()[1]
    assert sum(info["returns"]) == pytest.approx(1.0)
    with pytest.raises(RuntimeError):
        env.step(0)


def test_without_max_rounds_the_round_cap_ends_the_episode_as_a_termination(toy):
    env = rl.gymnasium_env("rltoy", players=2, seat=1, opponents="keeper", seed=5)
    env.reset()
    assert env.game_state.options["max_rounds"] == ROUND_CAP
    for i in range(ROUND_CAP):
        _, reward, term, trunc, info = env.step(0)  # keep, as the opponent: the rules alone never end the game
        assert not trunc and term == (i == ROUND_CAP - 1)
    assert env.game_state.is_terminal() and len(env.game_state.history) == ROUND_CAP * 2
    assert reward == info["returns"][1] and sum(info["returns"]) == pytest.approx(1.0)


def _episode_seeds(vec, steps: int, rng) -> list[int]:
    """The grimoire seeds of every episode the sub-environments of ``vec`` start in ``steps`` steps."""
    envs = vec.envs
    seeds = [e.unwrapped.game_state.seed for e in envs]
    for _ in range(steps):
        masks = np.stack([e.unwrapped.action_masks() for e in envs])
        before = [e.unwrapped.game_state for e in envs]
        # (NEXT_STEP autoreset: after the final step the mask is all zero and the next action only resets)
        vec.step(np.array([masked_choice(rng, m) if m.any() else 0 for m in masks]))
        seeds += [e.unwrapped.game_state.seed for e, b in zip(envs, before, strict=True)
                  if e.unwrapped.game_state is not b]
    return seeds


@pytest.mark.parametrize("mode", ["same-step", "next-step"])
def test_vectorized_sub_envs_play_distinct_games(toy, mode):
    """SyncVectorEnv seeds sub-env i with seed + i; their later episodes must not repeat each other's."""
    autoreset = {"same-step": gymnasium.vector.AutoresetMode.SAME_STEP,
                 "next-step": gymnasium.vector.AutoresetMode.NEXT_STEP}[mode]
    vec = gymnasium.vector.SyncVectorEnv(
        [lambda: rl.gymnasium_env("rltoy", players=2, opponents="random", max_rounds=1) for _ in range(4)],
        autoreset_mode=autoreset)
    vec.reset(seed=0)
    seeds = _episode_seeds(vec, 60, np.random.default_rng(0))
    assert len(seeds) > 40                     # one action per episode for the learner
    assert len(set(seeds)) == len(seeds)


def test_bad_arguments_are_config_errors(toy):
    for kwargs in ({"seat": 2}, {"opponents": "nobody"}, {"observation": "image"}, {"opponents": ["a", "b", "c"]},
                   {"no_such_option": 1}):
        with pytest.raises(grimoire.GameConfigError):
            rl.gymnasium_env("rltoy", players=2, **kwargs)


def test_render_is_the_learners_board(toy):
    env = rl.gymnasium_env("rltoy", players=2, seed=1, render_mode="ansi")
    env.reset()
    text = env.render()
    assert "'seat': 0" in text and f"'hand': {env.game_state.hands[0]}" in text    # no renderer: its observation
