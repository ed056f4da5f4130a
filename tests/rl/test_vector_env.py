"""``rl.vector_env`` / ``rl.selfplay_vector_env``: per env exactly the single-env adapter, on the
native core's batch and on the Python engines; Gymnasium's VectorEnv conventions."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import grimoire
import grimoire.rl as rl
from grimoire.core.errors import GameConfigError
from grimoire.games.zavandor.native import AVAILABLE

ENGINES = [("zavandor", "native"), ("zavandor", "python"), ("zauberschmiede", None)]


def _engine_params():
    for game, backend in ENGINES:
        native = backend == "native"
        marks = [pytest.mark.skipif(not AVAILABLE, reason="the native core is not built")] if native else []
        yield pytest.param(game, backend, marks=marks, id=f"{game}-{backend}")


def _opts(game: str) -> dict:
    return {"max_rounds": 2}


def _pick(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A legal id per row (any id where the mask is empty), and now and then an illegal one."""
    out = np.zeros(len(mask), np.int64)
    for i, m in enumerate(mask):
        legal = np.flatnonzero(m)
        if len(legal) == 0 or rng.random() < 0.05:
            out[i] = rng.integers(mask.shape[1])
        else:
            out[i] = rng.choice(legal)
    return out


@pytest.mark.parametrize(("game", "backend"), list(_engine_params()))
def test_each_sub_env_is_the_single_env_adapter(game, backend):
    n, players, seed = 3, 3 if game == "zavandor" else 2, 40
    venv = rl.vector_env(game, num_envs=n, players=players, backend=backend, **_opts(game))
    ref = SyncVectorEnv([lambda: rl.gymnasium_env(game, players, backend=backend, **_opts(game))
                         for _ in range(n)])
    obs, info = venv.reset(seed=seed)
    robs, rinfo = ref.reset(seed=seed)
    assert venv.game_seeds() == [seed + i for i in range(n)]
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(400 if game == "zavandor" else 250):
        assert np.array_equal(obs["observation"], robs["observation"])
        assert np.array_equal(obs["action_mask"], robs["action_mask"])
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        a = _pick(rng, obs["action_mask"])
        obs, r, term, trunc, info = venv.step(a)
        robs, rr, rterm, rtrunc, rinfo = ref.step(a)
        assert np.allclose(r, rr) and term.tolist() == rterm.tolist() and trunc.tolist() == rtrunc.tolist()
        ends += int(term.sum() + trunc.sum())
    assert ends >= 3                                  # episodes ended and sub-envs were reset automatically


@pytest.mark.parametrize(("game", "backend"), list(_engine_params()))
def test_self_play_batch_plays_the_games_move_for_move(game, backend):
    n, players, seed = 3, 4 if game == "zavandor" else 2, 11
    env = rl.selfplay_vector_env(game, num_envs=n, players=players, backend=backend, **_opts(game))
    obs, mask, to_move = env.reset(seed=seed)
    states = [grimoire.new_game(game, players, seed + i, **_opts(game)) for i in range(n)]
    rng = np.random.default_rng(2)
    done = [False] * n
    finished = 0
    for _ in range(300):
        for i, s in enumerate(states):
            if done[i]:
                continue
            assert to_move[i] == (-1 if s.current_player is None else s.current_player)
            seat = s.current_player if s.current_player is not None else 0
            assert obs[i].tobytes() == s.observation_tensor(seat).tobytes()
            if s.current_player is not None:
                assert mask[i].tolist() == s.legal_mask().tolist()
        a = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask], np.int64)
        for i, s in enumerate(states):
            if not done[i] and not s.is_terminal():
                s.apply(s.action_from_id(int(a[i])))
        obs, mask, rewards, term, trunc, to_move = env.step(a)
        for i, s in enumerate(states):
            if done[i]:
                continue
            if term[i]:
                assert rewards[i].tolist() == pytest.approx(s.returns())
                done[i] = True
                finished += 1
            else:
                assert not rewards[i].any()
        if all(done):
            break
    assert finished == n


@pytest.mark.skipif(not AVAILABLE, reason="the native core is not built")
def test_the_native_batch_is_deterministic_and_every_episode_a_new_deal():
    def run(seed):
        env = rl.vector_env("zavandor", num_envs=4, players=2, backend="native", seed=seed, max_rounds=1,
                            observation="flat")
        obs, info = env.reset()
        rng = np.random.default_rng(0)
        seen, trace = set(env.game_seeds()), []
        for _ in range(200):
            obs, r, term, trunc, info = env.step(_pick(rng, info["action_mask"]))
            trace.append((obs.tobytes(), r.tobytes(), term.tobytes()))
            seen.update(env.game_seeds())
        return trace, seen

    t1, seen = run(5)
    t2, _ = run(5)
    assert t1 == t2
    assert len(seen) > 8                                  # sub-envs never replay each other's deals


@pytest.mark.skipif(not AVAILABLE, reason="the native core is not built")
def test_it_is_a_gymnasium_vector_env():
    env = rl.vector_env("zavandor", num_envs=5, players=4, backend="native", max_rounds=2)
    assert isinstance(env, gymnasium.vector.VectorEnv) and env.native
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(env)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(300):
        obs, r, term, trunc, info = env.step(_pick(rng, obs["action_mask"]))
        assert env.observation_space.contains(obs)
        assert r.dtype == np.float64 and term.dtype == np.bool_ and trunc.dtype == np.bool_
        if "episode" in info:
            episodes += int(info["_episode"].sum())
    assert episodes > 0
    # copies by default: what a caller keeps is not overwritten by the next step
    kept = obs["observation"].copy()
    held = obs["observation"]
    env.step(np.zeros(5, np.int64))
    assert np.array_equal(held, kept)


def test_bad_arguments_are_one_line_errors():
    with pytest.raises(GameConfigError, match="num_envs"):
        rl.vector_env("zauberschmiede", num_envs=0)
    with pytest.raises(GameConfigError, match="one seed per environment"):
        rl.vector_env("zauberschmiede", num_envs=2, players=2).reset(seed=[1, 2, 3])
    with pytest.raises(GameConfigError, match="seat"):
        rl.vector_env("zauberschmiede", num_envs=2, players=2, seat=2)


@pytest.mark.skipif(not AVAILABLE, reason="the native core is not built")
def test_the_native_self_play_rows_are_the_python_tensors_across_autoresets():
    """Every row the core's batch writes, episode after episode, is bit for bit the Python engine's
    tensor and mask of the same game (the autoreset starts the next deal: a fresh Python game)."""
    n, players = 4, 4
    env = rl.selfplay_vector_env("zavandor", num_envs=n, players=players, backend="native", max_rounds=1)
    obs, mask, to_move = env.reset(seed=21)
    states = [grimoire.new_game("zavandor", players, s, max_rounds=1) for s in env.game_seeds()]
    rng = np.random.default_rng(3)
    resets = rows = 0
    ended = [False] * n
    for _ in range(220):
        for i, s in enumerate(states):
            seat = s.current_player if s.current_player is not None else 0
            assert obs[i].tobytes() == s.observation_tensor(seat).tobytes(), f"game {i}"
            want = s.legal_mask() if s.current_player is not None else np.zeros(mask.shape[1], np.int8)
            assert mask[i].tolist() == want.tolist()
            rows += 1
        a = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask], np.int64)
        for i, s in enumerate(states):
            if not ended[i]:
                s.apply(s.action_from_id(int(a[i])))
        obs, mask, rewards, term, trunc, to_move = env.step(a)
        seeds = env.game_seeds()
        for i in range(n):
            if ended[i]:                                  # this step was the autoreset: the next deal
                states[i] = grimoire.new_game("zavandor", players, seeds[i], max_rounds=1)
                resets += 1
            ended[i] = bool(term[i] or trunc[i])
    assert resets >= 2 and rows > 600


@pytest.mark.skipif(not AVAILABLE, reason="the native core is not built")
@pytest.mark.parametrize("players", [2, 3, 5, 6])
@pytest.mark.parametrize("selfplay", [True, False])
def test_the_native_batch_rows_are_the_full_tensor_of_its_states_across_autoresets(players, selfplay):
    """The batch rewrites only what an action changed (native/src/tensor_cache.rs): every row it
    writes, episode after episode, is bit for bit the full writer's tensor of the same state."""
    n = 6
    if selfplay:
        env = rl.selfplay_vector_env("zavandor", num_envs=n, players=players, backend="native", max_rounds=1)
        obs, mask, to_move = env.reset(seed=40 + players)
    else:
        env = rl.vector_env("zavandor", num_envs=n, players=players, backend="native", seed=40 + players,
                            max_rounds=1, observation="flat")
        obs, info = env.reset()
        mask = info["action_mask"]
    core, rng = env._core, np.random.default_rng(players)
    row = np.zeros(obs.shape[1], np.float32)
    ends = 0
    for _ in range(150):
        for i in range(n):
            state = core.core(i)
            seat = (state.current_player if state.current_player is not None else 0) if selfplay else 0
            state.tensor_into(seat, row)
            assert obs[i].tobytes() == row.tobytes(), f"game {i}"
        actions = _pick(rng, mask)
        if selfplay:
            obs, mask, _, term, trunc, _ = env.step(actions)
        else:
            obs, _, term, trunc, info = env.step(actions)
            mask = info["action_mask"]
        ends += int(term.sum() + trunc.sum())
    assert ends >= 3
