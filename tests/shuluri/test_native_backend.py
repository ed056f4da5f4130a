"""The native Shuluri Viadal backend (grimoire/games/shuluri/native.py) against the Python engine:
random games of 2 and 4 players, both four-player modes, random optional rules, the saved JSON
compared after every action."""

from __future__ import annotations

import pytest

import grimoire
from grimoire.core import conformance as cf
from grimoire.core.episode import derive_seed
from grimoire.core.rng import Rng
from grimoire.games.shuluri import native

from .native_differential import options_for, play_pair

pytestmark = pytest.mark.skipif(not native.AVAILABLE, reason="the native Shuluri Viadal core is not built")


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (4, 3), (4, 4)])
def test_random_games_match_action_for_action(players, seed):
    opts = options_for(players, Rng(seed))
    n = play_pair(players, seed, {**opts, "max_rounds": 2})
    assert n > 50


def test_bench_plays_the_random_agents_games():
    """grimoire bench on the native engine (play_random: inside the core) plays the games the random
    agents play on the Python engine."""
    from grimoire.agents import make_agent
    from grimoire.cli.bench import bench_games
    from grimoire.core.episode import run_episode
    nat = bench_games("shuluri", 2, 2, 5, 3, None, {}, backend="native")
    assert nat["backend"] == "native"
    for g, played in enumerate(nat["games"]):
        py = grimoire.new_game("shuluri", 2, derive_seed(5, g), max_rounds=3)
        run_episode(py, [make_agent("shuluri", "random", derive_seed(5, g, 2, i)) for i in range(2)], timed=False)
        assert played == {"seed": py.seed, "scores": py.scores(), "actions": py._hist_len}
    assert nat["actions"] == sum(g["actions"] for g in nat["games"])


def test_play_random_is_the_random_agents_game():
    from grimoire.agents import make_agent
    from grimoire.core.episode import run_episode
    seeds = [derive_seed(9, 2, i) for i in range(4)]
    py = grimoire.new_game("shuluri", 4, 9, max_rounds=3, mode="pairs")
    run_episode(py, [make_agent("shuluri", "random", s) for s in seeds], timed=False)
    nat = grimoire.new_game("shuluri", 4, 9, backend="native", max_rounds=3, mode="pairs")
    assert nat.play_random(seeds) == py._hist_len
    assert nat.to_dict() == py.to_dict()


def test_the_ai_plays_the_same_game_on_both_engines():
    """The agents read the native state's internals through its reference state: the same decisions."""
    from grimoire.agents import make_agent
    from grimoire.core.episode import run_episode
    played = []
    for backend in ("python", "native"):
        s = grimoire.new_game("shuluri", 2, 3, max_rounds=2, backend=backend)
        run_episode(s, [make_agent("shuluri", "medium", 1), make_agent("shuluri", "easy", 2)], timed=False)
        played.append((s.history, s.winners()))
    assert played[0] == played[1] and len(played[0][0]) > 50


def test_illegal_actions_are_refused_alike_and_change_nothing():
    py = grimoire.new_game("shuluri", 2, 4)
    nat = grimoire.new_game("shuluri", 2, 4, backend="native")
    for text in ["xyzzy", "end", "gl move ne", "deploy gl 0,0", "pass"]:
        errors = []
        for s in (py, nat):
            before = s.to_dict()
            with pytest.raises(grimoire.IllegalAction) as e:
                s.apply(text)
            errors.append(str(e.value))
            assert s.to_dict() == before
        assert errors[0] == errors[1], text


def test_observations_and_hints_come_from_the_same_position():
    py = grimoire.new_game("shuluri", 2, 6)
    nat = grimoire.new_game("shuluri", 2, 6, backend="native")
    pick = Rng(6)
    for _ in range(120):
        legal = py.legal_actions()
        a = legal[pick.below(len(legal))]
        py.apply(a)
        nat.apply(a)
    seat = py.current_player
    assert seat is not None
    assert nat.observation(seat) == py.observation(seat) and nat.observation(None) == py.observation(None)
    assert (nat.observation_tensor(seat) == py.observation_tensor(seat)).all()
    assert nat.hints(seat) == py.hints(seat)
    assert nat.visible_history(1 - seat) == py.visible_history(1 - seat)
    assert nat.undo_barrier() == py.undo_barrier()


@pytest.mark.parametrize("players", [2, 4])
def test_conformance_suite_on_the_native_engine(players):
    """The shared contract checks (round trips, clones, illegal texts, codec, tensors, observations)."""
    state = cf.random_playthrough("shuluri", players, 1, {"max_rounds": 2}, deep_every=40, probe_every=40,
                                  backend="native")
    assert state.backend == "native" and state.is_terminal()


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_many_whole_random_games_match(players):
    """Whole games (the options' default round cap): 30 at 2 players, 10 at 4 (each about 2,000 actions)."""
    for seed in range(100, 130 if players == 2 else 110):
        play_pair(players, seed, options_for(players, Rng(seed)), deep_every=64)
