"""Issue 5 point 3: the greedy agent plays legal games, clearly beats random, and uses no hidden info."""

import statistics

from zs_helpers import game, play

import grimoire
from grimoire.agents import agent_names, make_agent


def _play(names, seed, players=None):
    players = players or len(names)
    s = grimoire.new_game("zauberschmiede", players=players, seed=seed)
    ags = [make_agent("zauberschmiede", n, seed * 10 + i) for i, n in enumerate(names)]
    while not s.is_terminal():
        seat = s.current_player
        a = ags[seat].choose(s, seat)
        assert a in s.legal_actions()
        s.apply(a)
    return s


def test_greedy_is_registered():
    assert "greedy" in agent_names("zauberschmiede") and "random" in agent_names("zauberschmiede")


def test_greedy_beats_random_solo():
    greedy = [_play(["greedy"], seed).scores()[0] for seed in range(6)]
    rand = [_play(["random"], seed).scores()[0] for seed in range(6)]
    assert statistics.mean(greedy) > 150
    assert statistics.mean(greedy) > 3 * statistics.mean(rand)


def test_greedy_plays_multiplayer_and_usually_wins_against_random():
    wins = 0
    for seed in range(3):
        s = _play(["greedy", "random", "random"], seed)
        wins += 0 in s.winners()
    assert wins >= 2


def test_greedy_does_not_read_other_seats_hidden_choices():
    rolls = [[1, 3, 4, 5, 6, 6]] * 7
    a = game(players=3, rolls=rolls)
    b = game(players=3, rolls=rolls)
    play(a, "dust 1", "dust 3", "end", "upgrade green 4", "end")
    play(b, "charge bk green 6", "end", "transmute 1 to 6", "end")
    for _ in range(3):
        ga = make_agent("zauberschmiede", "greedy", 5).choose(a, 2)
        gb = make_agent("zauberschmiede", "greedy", 5).choose(b, 2)
        assert ga == gb
        a.apply(ga)
        b.apply(gb)
