"""Seeded random games (solo and multiplayer) played to the end: 200 in the default run, the 1,000-game
soak behind the ``slow`` marker (``pytest -m slow``)."""

import pytest

import grimoire
from grimoire.core.agent import RandomAgent

GAMES_DEFAULT = 200
GAMES_SOAK = 1000


def _play_random_games(seeds: range) -> None:
    info = grimoire.game_info("zauberschmiede")
    totals = []
    for seed in seeds:
        players = 1 if seed % 5 < 3 else 2 + seed % 3          # 60% solo, 40% with 2-4 players
        s = grimoire.new_game("zauberschmiede", players=players, seed=seed)
        agent = RandomAgent(seed)
        steps = 0
        while not s.is_terminal():
            s.apply(agent.choose(s, s.current_player))
            steps += 1
        assert steps <= info.game_length_bound(players)
        assert s.round == 7 and s.current_player is None and s.legal_actions() == []
        sc = s.scores()
        assert len(sc) == players and all(isinstance(x, int) and x >= 0 for x in sc)
        assert [b["total"] for b in s.score_breakdown()] == sc
        assert s.winners() and all(sc[w] == max(sc) for w in s.winners())
        totals.append(sc[0])
    assert max(totals) > 0


def test_seeded_random_games_solo_and_multiplayer():
    _play_random_games(range(GAMES_DEFAULT))


@pytest.mark.slow
def test_1000_seeded_random_games_soak():
    _play_random_games(range(GAMES_SOAK))
