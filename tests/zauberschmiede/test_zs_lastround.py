"""Issue 22: the planner's last round solved exactly (lastround.py). Its best score is checked against a plain
search over every legal sequence of actions, its plan is replayed through the engine's checks, and it beats
or equals the widest beam on the same sheets."""

from __future__ import annotations

import random
from functools import partial

import pytest
from zs_helpers import complete, game

from grimoire.games.zauberschmiede import lastround, rules
from grimoire.games.zauberschmiede.agents import GreedyAgent, potential_key
from grimoire.games.zauberschmiede.planner import PlannerAgent, beam_plans, final_score


def _exhaustive(var, p) -> float:
    """The best final score over every legal sequence of actions of the round (a sheet met twice is solved once:
    the same marks, dust and transmutations left, and the same values on the dice still unused)."""
    memo: dict = {}

    def best(q) -> float:
        k = (potential_key(q), q.trans_left, tuple(sorted(v for v, u in zip(q.vals, q.used, strict=True) if not u)))
        if k not in memo:
            v = float("-inf")
            for a in rules.legal_actions(var, q):
                if a.kind == "end":
                    v = max(v, final_score(var, q))
                    continue
                c = q.copy()
                rules.do(var, c, a, var.last_round)
                v = max(v, best(c))
            memo[k] = v
        return memo[k]

    return best(p)


def _last_round(seed: int, rounds: int, unused: int):
    """A solo sheet in its last round: the greedy agent plays the rounds before, then random actions use
    dice until ``unused`` are left (with one round the sheet is empty but for those moves)."""
    s = game(seed=seed, max_rounds=rounds)
    greedy = GreedyAgent(seed)
    while s.round < s.var.last_round:
        s.apply(greedy.decide(s, 0, s.legal_actions()))
    p, var = s.players[0].copy(), s.var
    rng = random.Random(seed)
    while sum(1 for u in p.used if not u) > unused:
        moves = [a for a in rules.legal_actions(var, p) if a.kind not in ("end", "transmute")]
        rules.do(var, p, rng.choice(moves), var.last_round)
    return var, p


def _replayed(var, p, seq) -> int:
    """The final score of ``seq`` played from ``p``, every action checked by the engine first."""
    q = p.copy()
    for a in seq:
        rules.check(var, q, a)
        rules.do(var, q, a, var.last_round)
    assert seq[-1].kind == "end" and q.done
    return final_score(var, q)


# two dice left keep the plain search quick; three dice (up to half a minute each) are in the slow set
SEARCHED = [(1, 1, 2), (2, 1, 2), (3, 7, 2), (4, 7, 2), (5, 7, 2), (6, 3, 2), (7, 7, 2), (8, 2, 2)]
SLOW = [pytest.param(s, r, 3, marks=pytest.mark.slow) for s, r in ((2, 1), (4, 7), (5, 7), (6, 3), (8, 2))]


@pytest.mark.parametrize("seed,rounds,unused", SEARCHED + SLOW)
def test_the_solver_finds_the_best_score_of_every_legal_sequence(seed, rounds, unused):
    var, p = _last_round(seed, rounds, unused)
    value, seq = lastround.solve(var, p, partial(final_score, var), 0)[:2]
    assert value == _exhaustive(var, p)
    assert _replayed(var, p, seq) == value


@pytest.mark.parametrize("seed,rounds", [(11, 1), (12, 7), (13, 7), (14, 4)])
def test_the_solver_beats_or_equals_the_widest_beam_with_all_six_dice(seed, rounds):
    var, p = _last_round(seed, rounds, 6)
    value, seq = lastround.solve(var, p, partial(final_score, var), 0)[:2]
    beam = max(final_score(var, e) for _v, _seq, e in beam_plans(var, p, var.last_round, 96, 8))
    assert value >= beam
    assert _replayed(var, p, seq) == value


def test_no_set_of_artifacts_reaches_above_its_bound():
    for seed in (21, 22, 23):
        var, p = _last_round(seed, 7, 6)
        score = partial(final_score, var)
        sets = lastround.targets(p)
        assert () in sets
        for s in sets:
            got, _seq = lastround._solve_set(var, p, score, s)
            assert got <= lastround._bound(p, score, s)


def test_the_planner_plays_the_solved_last_round_unless_exact_is_off():
    for seed in range(3):
        p = game(seed=seed, max_rounds=1).players[0]
        var = game(seed=seed, max_rounds=1).var
        best, _seq = lastround.solve(var, p, partial(final_score, var), 0)[:2]
        beam = max(final_score(var, e) for _v, _s, e in beam_plans(var, p, 1, 8, 1))
        for exact, want in ((1, best), (0, beam)):
            s = game(seed=seed, max_rounds=1)
            agent = PlannerAgent(seed, last_beam=8, last_pilots=1, exact=exact)
            while not s.is_terminal():
                s.apply(agent.choose(s, 0))
            assert s.scores()[0] == want


@pytest.mark.parametrize("costs,stocks,fresh", [
    ((2,), (), 2), ((2,), (4,), 0), ((1, 2), (4,), 1),          # a stock pays one payment whole, the excess is lost
    ((1, 1, 2), (4,), 2), ((2,), (1, 1), 0),                    # several stocks can go into one payment
    ((1, 1), (1, 1), 0), ((1, 2), (1, 1), 1), ((2, 2), (3,), 2)])
def test_the_dust_a_set_still_needs_counts_each_stock_whole_in_one_payment(costs, stocks, fresh):
    assert lastround._fresh_needed(tuple(sorted(costs)), stocks) == fresh


def test_with_the_amplifier_unlocked_the_dice_kept_activate_the_complete_artifacts():
    """Amplifier level 2 and three complete amulets, six dice showing 1 and no transmutation left (rules:
    amplifier): each activation scores the final level, more than a point of dust; the solver keeps dice for
    them and matches the plain search. From level 0 with six dice the amplifier never pays (a level and each
    activation cost a die)."""
    s = game(rolls=[(1,) * 6], max_rounds=1)
    p, var = s.players[0].copy(), s.var
    p.trans_left = 0                    # (with them, two dice transmuted to 3 and two dust complete a spell)
    for art in ("AM1", "AM2", "AM3"):
        complete(p, art, [1, 1])
    assert not lastround._activations_pay(p)
    p.amp_level = 2
    assert lastround._activations_pay(p)
    value, seq = lastround.solve(var, p, partial(final_score, var), 0)[:2]
    assert value == _exhaustive(var, p) == _replayed(var, p, seq)
    assert sum(a.kind == "amplify" for a in seq) == 3
    for t in lastround.targets(p):
        assert lastround._solve_set(var, p, partial(final_score, var), t)[0] <= lastround._bound(
            p, partial(final_score, var), t)
    dust = p.copy()
    for _ in range(6):
        rules.do(var, dust, rules.DUST[1], 1)
    assert value > final_score(var, dust)


def test_out_of_time_the_planner_plays_the_better_of_the_best_found_and_the_beams():
    for seed in range(2):
        p = game(seed=seed, max_rounds=1).players[0]
        var = game(seed=seed, max_rounds=1).var
        value, seq, proven = lastround.solve(var, p, partial(final_score, var), 1e-9)
        assert not proven and value == float("-inf") and seq == []         # no set solved in the time
        assert lastround.solve(var, p, partial(final_score, var), 0)[2]     # without a limit: proven
        beam = max(final_score(var, e) for _v, _s, e in beam_plans(var, p, 1, 8, 1))
        s = game(seed=seed, max_rounds=1)
        agent = PlannerAgent(seed, last_beam=8, last_pilots=1, exact_time=1e-9)
        while not s.is_terminal():
            s.apply(agent.choose(s, 0))
        assert s.scores()[0] == beam and agent.last_stats["proven"] is False
