"""The review's measure comes from the game's descriptor (``GameInfo.outcome``): projected points for
scored games, win chances for won-or-lost games (their scores are 1 for a winner, 0 otherwise)."""

from __future__ import annotations

import pytest

import grimoire
from grimoire.agents import make_agent
from grimoire.agents.review import ReviewSettings, summarize
from grimoire.core.registry import GameInfo, game_info


def finished(game: str, players: int, seed: int, **options):
    state = grimoire.new_game(game, players=players, seed=seed, **options)
    agents = [make_agent(game, "random", seed + i) for i in range(players)]
    while not state.is_terminal():
        state.apply(agents[state.current_player].choose(state, state.current_player))
    return state


@pytest.mark.parametrize("game,measure", [("shuluri", "win"), ("zavandor", "points"), ("zauberschmiede", "points")])
def test_every_game_declares_its_measure(game, measure):
    assert game_info(game).outcome == measure


def test_a_won_or_lost_game_is_reviewed_in_win_chances():
    final = finished("shuluri", 2, 3, max_rounds=2)
    body = summarize(final, 0, [], ReviewSettings())
    assert body["measure"] == "win"
    # its scores are a win (1) or not (0): the chart's last point is the result
    assert set(body["scores"]) <= {0, 1}
    assert body["chart"][-1]["scores"] == [1.0 if s in final.winners() else 0.0 for s in range(2)]


def test_a_descriptor_with_another_outcome_is_refused():
    info = game_info("shuluri")
    with pytest.raises(ValueError, match="outcome"):
        GameInfo(name="x", titles={"en": "X"}, new=info.new, load=info.load, player_counts=(2,), default_players=2,
                 outcome="stars")
