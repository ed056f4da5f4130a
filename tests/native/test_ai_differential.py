"""The medium and easy heuristic decide the same on both engines (native: computed in the core).

Agents of the same level and seed play the same game, one set on each engine: at every decision both
must choose the same action. The default run plays short games (three rounds) over 2-6 players; the
slow run 200 whole games of each level.
"""

import pytest

import grimoire
from grimoire.agents import make_agent
from grimoire.core.episode import derive_seed


def play_ai_pair(level: str, players: int, seed: int, **options) -> int:
    py = grimoire.new_game("zavandor", players, seed, **options)
    nat = grimoire.new_game("zavandor", players, seed, backend="native", **options)
    agents_py = [make_agent("zavandor", level, derive_seed(seed, "ai", i)) for i in range(players)]
    agents_nat = [make_agent("zavandor", level, derive_seed(seed, "ai", i)) for i in range(players)]
    decisions = 0
    while not py.is_terminal():
        seat = py.current_player
        assert nat.current_player == seat
        a = agents_py[seat].choose(py, seat)
        b = agents_nat[seat].choose(nat, seat)
        assert b == a, f"{level} seat {seat}, decision {decisions}: native {b.text!r}, python {a.text!r}"
        py.apply(a)
        nat.apply(b)
        decisions += 1
    assert nat.to_dict() == py.to_dict()
    for ap, an in zip(agents_py, agents_nat, strict=True):
        assert an.rng.state == ap.rng.state       # the same draws (determinizations, noise)
    return decisions


@pytest.mark.parametrize("level", ["medium", "easy"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_short_ai_games_take_the_same_decisions(level, players):
    assert play_ai_pair(level, players, 40 + players, max_rounds=3) > 20


@pytest.mark.parametrize("rule_flags", [{"strict_subphases": False, "combine_with_auction": True},
                                        {"free_advance_new_track": True, "whole_dust_tokens": False,
                                         "druid_level3_ruby": False, "nine_sages_dust": False}])
def test_ai_decisions_under_other_rule_flags(rule_flags):
    play_ai_pair("medium", 4, 77, max_rounds=4, **rule_flags)


@pytest.mark.slow
@pytest.mark.parametrize("level", ["medium", "easy"])
@pytest.mark.parametrize("chunk", range(4))
def test_whole_ai_games_take_the_same_decisions(level, chunk):
    for g in range(chunk, 200, 4):
        play_ai_pair(level, 2 + g % 5, 1000 + g)


def play_hard_pair(players: int, seed: int, iterations: int, reach: dict | None = None, **options) -> int:
    """Seat 0 is the hard level (IS-MCTS at a fixed iteration budget, no time limit), the others medium:
    the same decisions on both engines; returns how many of seat 0's decisions were searched.
    ``reach``: attributes of the hooks to set on both engines (top_k, widen, horizon)."""
    py = grimoire.new_game("zavandor", players, seed, **options)
    nat = grimoire.new_game("zavandor", players, seed, backend="native", **options)

    def hard():
        a = make_agent("zavandor", "hard", derive_seed(seed, "hard"))
        a.iterations, a.time_limit = iterations, None
        for k, v in (reach or {}).items():
            setattr(a.hooks, k, v)
        return a

    agents_py = [hard()] + [make_agent("zavandor", "medium", derive_seed(seed, "ai", i)) for i in range(1, players)]
    agents_nat = [hard()] + [make_agent("zavandor", "medium", derive_seed(seed, "ai", i)) for i in range(1, players)]
    step = 0
    while not py.is_terminal():
        seat = py.current_player
        a = agents_py[seat].choose(py, seat)
        b = agents_nat[seat].choose(nat, seat)
        assert b == a, f"seat {seat}, step {step}: native {b.text!r}, python {a.text!r}"
        if seat == 0:
            assert agents_nat[0].last_stats["iterations"] == agents_py[0].last_stats["iterations"]
        py.apply(a)
        nat.apply(b)
        step += 1
    assert nat.to_dict() == py.to_dict()
    assert agents_nat[0].rng.state == agents_py[0].rng.state
    assert agents_nat[0].hooks.rng.state == agents_py[0].hooks.rng.state
    return agents_py[0].hooks.searched


@pytest.mark.parametrize("players", [2, 4])
def test_the_hard_search_takes_the_same_decisions(players):
    assert play_hard_pair(players, 60 + players, iterations=40, max_rounds=3) > 3


@pytest.mark.parametrize("players", [2, 4])
def test_a_wider_and_deeper_search_takes_the_same_decisions(players):
    """The time-only mode's reach (progressive widening over more candidates, the horizon at the end
    of the round) as explicit parameters at a fixed budget: the same decisions on both engines."""
    reach = {"top_k": 10, "widen": (1.5, 0.5), "horizon": "round"}
    assert play_hard_pair(players, 70 + players, iterations=60, reach=reach, max_rounds=4) > 3


@pytest.mark.slow
@pytest.mark.parametrize("game", range(12))
def test_whole_games_with_a_hard_seat_take_the_same_decisions(game):
    play_hard_pair(2 + game % 5, 3000 + game, iterations=300)
