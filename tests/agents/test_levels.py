"""The levels easy / medium / hard (and the other agents) for both games: they exist, play only
legal moves to the end of real games, and keep to their time budget. Slow ladder checks at the end
(``-m slow``, or ``GRIMOIRE_SLOW=1``)."""

from __future__ import annotations

import functools
import itertools
import os

import pytest

import grimoire
from grimoire.agents import LEVELS, agent_names, make_agent, search_agent
from grimoire.agents.arena import run_arena, summarize

from .helpers import zavandor_positions

slow = pytest.mark.skipif(not os.environ.get("GRIMOIRE_SLOW"), reason="long ladder run: set GRIMOIRE_SLOW=1")


def _agent(game, name, seed):
    if name == "hard":
        a = make_agent(game, "hard", seed)
        a.iterations, a.time_limit = (15 if game == "zavandor" else 4), None
        return a
    return make_agent(game, name, seed)


def _only_legal(names):
    def check(state, seat, action):
        assert action in state.legal_actions(), f"{names[seat]} chose {action}"
    return check


@pytest.mark.parametrize("game", ["zavandor", "zauberschmiede"])
def test_levels_exist_for_every_game(game):
    names = agent_names(game)
    for level in LEVELS:
        assert level in names
        assert make_agent(game, level, 1).name == level


@pytest.mark.parametrize("players,names", [
    (2, ["hard", "easy"]),
    (4, ["medium", "easy", "naive", "random"]),
    (3, ["heuristic", "hard", "medium"]),
])
def test_zavandor_agents_play_only_legal_moves(players, names):
    state = grimoire.new_game("zavandor", players, 17 + players, max_rounds=5)
    agents = [_agent("zavandor", n, i) for i, n in enumerate(names)]
    ep = grimoire.run_episode(state, agents, on_step=_only_legal(names))
    assert state.is_terminal() and sum(ep.decisions) == ep.actions == len(state.history)


@pytest.mark.parametrize("players", [1, 3])
def test_zauberschmiede_levels_play_only_legal_moves(players):
    state = grimoire.new_game("zauberschmiede", players, 4, max_rounds=2)
    names = [LEVELS[i % 3] for i in range(players)]
    agents = [_agent("zauberschmiede", name, i) for i, name in enumerate(names)]
    grimoire.run_episode(state, agents, on_step=_only_legal(names))
    assert state.is_terminal()


def test_hard_keeps_to_its_time_budget():
    positions = [s for s in zavandor_positions(4, 31, every=5, limit=20) if not s.pending][:3]
    agent = search_agent("zavandor", 5)
    agent.iterations, agent.time_limit = None, 0.25
    agent.hooks.clear_gap = 99.0                                              # always search
    searched = 0
    for state in positions:
        agent.clock = functools.partial(next, map((1 / 64).__mul__, itertools.count()))   # 1/64 s per reading
        a = agent.choose(state, state.current_player)
        assert a in state.legal_actions()
        if agent.last_stats.get("shortcut"):
            continue
        assert agent.last_stats["iterations"] == 16                          # 0.25 s = 16 readings
        searched += 1
    assert searched >= 2


def test_easy_is_noisy_and_medium_is_not():
    positions = zavandor_positions(4, 12, every=3, limit=30)
    state = next(s for s in positions if not s.pending and len(s.legal_actions()) > 4)
    seat = state.current_player
    medium = {str(make_agent("zavandor", "medium", k).choose(state, seat)) for k in range(8)}
    easy = {str(make_agent("zavandor", "easy", k).choose(state, seat)) for k in range(24)}
    assert len(medium) == 1
    assert len(easy) > 1


# --- the ladder (slow) ---------------------------------------------------------------------------------------

def _rate(results, name):
    return next(a for a in summarize(results)["agents"] if a["agent"] == name)


@slow
def test_medium_beats_random_at_two_players():
    res = run_arena("zavandor", ["medium", "random"], 60, 7, workers=2)
    a = _rate(res, "medium")
    assert a["win_rate"] >= 0.8 and a["ci95"][0] > 0.5


@slow
def test_easy_beats_random_and_medium_beats_easy():
    res = run_arena("zavandor", ["easy", "random", "random", "random"], 40, 7, workers=2)
    assert _rate(res, "easy")["ci95"][0] > _rate(res, "random")["ci95"][1]
    res = run_arena("zavandor", ["medium", "easy"], 60, 7, workers=2)
    assert _rate(res, "medium")["ci95"][0] > 0.5


def test_generic_levels_seed_their_parts_with_derive_seed():
    # Zauberschmiede registers no easy level: it is built here, its noise seeded derive_seed(seed, "epsilon");
    # the generic hard level's playout policy is seeded derive_seed(seed, "playout")
    from grimoire import derive_seed
    from grimoire.agents import _generic_level
    from grimoire.core.rng import Rng

    easy = make_agent("zauberschmiede", "easy", 5)
    assert easy.rng.next64() == Rng(derive_seed(5, "epsilon")).next64()
    assert easy.base.rng.next64() == Rng(5).next64()
    hard = _generic_level("zauberschmiede", "hard", 5)
    assert hard.hooks.policy.rng.next64() == Rng(derive_seed(5, "playout")).next64()
