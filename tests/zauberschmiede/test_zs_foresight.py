"""scripts/zs_foresight.py, the diagnostic planner with one round of foresight: the roll it reads is the
one the next round really rolls (random or preset), reading it leaves the game untouched, its lookahead
uses that roll alone, and it plays a whole game; the expert's lookahead still samples its rolls. (Its bad
input: test_zs_solo_runs.py.)"""

from __future__ import annotations

from repo_scripts import load_script
from zs_helpers import game

from grimoire.agents import make_agent

FS = load_script("zs_foresight")


def test_the_roll_read_is_the_next_rounds_and_the_game_is_untouched():
    s = game(seed=23)
    agent = make_agent("zauberschmiede", "medium", 1)
    seen = 0
    while not s.is_terminal():
        rnd = s.round
        if rnd < s.var.last_round and all(not u for u in s.players[0].used):
            rng_before = s.rng.state
            roll = FS.next_roll(s)
            assert s.rng.state == rng_before
            while s.round == rnd:
                s.apply(agent.choose(s, 0))
            assert tuple(s.roll) == roll
            seen += 1
            continue
        s.apply(agent.choose(s, 0))
    assert seen == 6                      # rounds 1-6 each foresaw the next


def test_a_preset_roll_is_read_from_the_option():
    rolls = [[1, 2, 3, 4, 5, 6], [6, 6, 5, 5, 4, 4], [2, 2, 2, 3, 3, 3]]
    s = game(rolls=rolls)
    assert FS.next_roll(s) == (6, 6, 5, 5, 4, 4)


def test_the_foresight_planner_looks_ahead_on_the_true_roll_and_plays_a_game():
    s = game(seed=29, max_rounds=3)
    agent = FS.ForesightPlanner(4)
    expected = FS.next_roll(s)
    s.apply(agent.choose(s, 0))
    assert agent.true_next == expected
    assert agent.next_rolls(1) == [expected]
    assert agent.la_rolls == 1
    while not s.is_terminal():
        s.apply(agent.choose(s, 0))
    assert s.scores()[0] > 0
    expert = make_agent("zauberschmiede", "expert:la_time=0,lookahead=3", 4)
    rolls = expert.next_rolls(1)
    assert len(rolls) == 3 and rolls != [expected] * 3

