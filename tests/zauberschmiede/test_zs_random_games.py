"""Issue 5 point 5: 1,000 seeded random games (solo and multiplayer) played to the end."""

import time

import grimoire
from grimoire.core.agent import RandomAgent
from grimoire.games.zauberschmiede.sheet import SHEET

# per seat and round: at most 6 dice, 2 transmutations per game, one payment per artifact, and 'end'
MAX_ACTIONS_PER_SEAT = SHEET.rounds * (SHEET.dice_per_round + 1) + SHEET.transmutations + len(SHEET.artifacts)


def test_1000_seeded_random_games_solo_and_multiplayer():
    t0 = time.perf_counter()
    totals = []
    for seed in range(1000):
        players = 1 if seed % 5 < 3 else 2 + seed % 3          # 600 solo, 400 with 2-4 players
        s = grimoire.new_game("zauberschmiede", players=players, seed=seed)
        agent = RandomAgent(seed)
        steps = 0
        while not s.is_terminal():
            s.apply(agent.choose(s, s.current_player))
            steps += 1
        assert steps <= players * MAX_ACTIONS_PER_SEAT
        assert s.round == 7 and s.current_player is None and s.legal_actions() == []
        sc = s.scores()
        assert len(sc) == players and all(isinstance(x, int) and x >= 0 for x in sc)
        assert [b["total"] for b in s.score_breakdown()] == sc
        assert s.winners() and all(sc[w] == max(sc) for w in s.winners())
        totals.append(sc[0])
    print(f"random games in {time.perf_counter() - t0:.1f} s")
    assert max(totals) > 0
