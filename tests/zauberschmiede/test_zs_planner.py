"""Issue 22: the solo ``expert`` (the round planner, planner.py) plans a whole round at its first
decision, finds plans at least as good as the greedy agent's by the same measure, solves the last
round exactly, and decides only from its seat's information, solo and with other seats."""

from __future__ import annotations

from zs_helpers import game

from grimoire.agents import agent_names, make_agent, parse_agent
from grimoire.core.registry import game_info
from grimoire.core.rng import Rng
from grimoire.games.zauberschmiede.agents import GreedyAgent, _Ctx, potential
from grimoire.games.zauberschmiede.planner import (
    LAST_BEAM,
    LAST_PILOTS,
    SOLO_UPG_FUTURE,
    PlannerAgent,
    _Solo,
    beam_plans,
    ended,
    final_score,
    greedy_round,
    predict_metrics,
    rank_values,
)
from grimoire.games.zauberschmiede.scoring import dust_metric
from grimoire.games.zauberschmiede.sheet import SHEET
from grimoire.games.zauberschmiede.value import ranks

ALLOWED = frozenset({"legal_actions", "sample_hidden", "current_player", "num_players", "game", "is_terminal",
                     "backend"})


class Guarded:
    """The real state as the contract gives it to an agent (as tests/agents/helpers.py): reading
    anything else fails."""

    def __init__(self, state):
        object.__setattr__(self, "_state", state)

    def __getattr__(self, name):
        assert name in ALLOWED, f"the agent read state.{name}"
        return getattr(object.__getattribute__(self, "_state"), name)


def _greedy_round(state) -> None:
    g = GreedyAgent(1)
    while True:
        a = g.decide(state, 0, state.legal_actions())
        if a.kind == "end":
            return
        state.apply(a)


def test_expert_is_the_registered_top_level_with_parameters():
    assert "expert" in agent_names("zauberschmiede")
    spec = parse_agent("zauberschmiede", "expert:beam=8,rollouts=4,time=0")
    assert spec.params == {"beam": 8, "rollouts": 4, "time": 0}
    agent = make_agent("zauberschmiede", spec, 3)
    assert isinstance(agent, PlannerAgent) and agent.beam == 8 and agent.rollouts == 4


def test_beam_finds_a_round_at_least_as_good_as_greedy_by_the_potential():
    """By the planner's own (solo) potential, its beam's best round is at least the round the greedy agent
    plays with that potential (the beam's first pilot)."""
    for seed in range(2):
        s = game(seed=seed)
        for _ in range(3):                     # three rounds, each played by greedy afterwards
            p, rnd = s.players[0].copy(), s.round
            ctx = _Ctx(_Solo(s.var, p, rnd, SOLO_UPG_FUTURE), 0)
            best = beam_plans(s.var, p, rnd)[0]
            g = p.copy()
            greedy_round(s.var, GreedyAgent(0), g, rnd, _Solo(s.var, g, rnd, SOLO_UPG_FUTURE))
            g.used = ["-"] * len(g.used)       # as ended() leaves a sheet
            spent = p.trans_left - g.trans_left
            assert best[0] >= potential(ctx, g) - 5.0 * spent - 1e-9
            _greedy_round(s)
            s.apply("end")


def test_the_last_round_is_solved_for_the_exact_final_score():
    for seed in range(3):
        s = game(seed=seed, max_rounds=1)        # one round: the last, every plan's score is exact
        greedy = s.clone()
        _greedy_round(greedy)
        greedy.apply("end")
        agent = PlannerAgent(seed, time=0, last_beam=24, last_pilots=4, exact=0)   # the beam, not the solver
        while not s.is_terminal():
            s.apply(agent.choose(s, 0))
        assert s.scores()[0] >= greedy.scores()[0]
        plans = beam_plans(s.var, game(seed=seed, max_rounds=1).players[0], 1, 24, 4)
        assert s.scores()[0] == max(final_score(s.var, e) for _v, _seq, e in plans)


def test_the_last_round_is_planned_by_its_own_beam():
    """``last_beam``/``last_pilots`` set the last round's search alone: one sheet wide and no pilot, the
    plan is the narrow beam's best; the rounds before keep ``beam``."""
    s = game(seed=4, max_rounds=1)
    p, var = s.players[0].copy(), s.var
    narrow = max(final_score(var, e) for _v, _seq, e in beam_plans(var, p, 1, 1, 0))
    wide = max(final_score(var, e) for _v, _seq, e in beam_plans(var, p, 1, LAST_BEAM, LAST_PILOTS))
    agent = PlannerAgent(4, last_beam=1, last_pilots=0, exact=0)
    while not s.is_terminal():
        s.apply(agent.choose(s, 0))
    assert s.scores()[0] == narrow <= wide
    assert agent.beam == 24 and agent.last_beam == 1


def test_it_plans_once_per_round_and_plays_the_plan_out():
    s = game(seed=3)
    agent = PlannerAgent(5, rollouts=4, time=0, beam=8, lookahead=0, last_beam=8)   # rollouts; lookahead: below
    plans = 0
    while not s.is_terminal():
        a = agent.choose(Guarded(s), 0)
        assert a in s.legal_actions()
        plans += bool(agent.last_stats)
        agent.last_stats = {}
        s.apply(a)
    assert plans <= 7                            # one plan per round (a forced move needs none)
    assert 0 <= s.scores()[0] <= game_info("zauberschmiede").score_bounds[1]


def test_the_choice_uses_only_the_seats_information_and_is_deterministic():
    s = game(seed=8)
    s.apply(s.legal_actions()[0])
    s.apply("end")                               # round 2: later dice are unknown to the seat
    real = PlannerAgent(9, rollouts=4, time=0, beam=8, lookahead=0).choose(Guarded(s), 0)
    for k in range(2):
        det = s.sample_hidden(0, Rng(1000 + k))
        assert det.observation(0) == s.observation(0)
        assert str(PlannerAgent(9, rollouts=4, time=0, beam=8, lookahead=0).choose(Guarded(det), 0)) == str(real)


def test_with_other_seats_it_plans_from_what_its_seat_sees():
    s = game(players=2, seed=4)
    s.apply(s.legal_actions()[0])                # seat 1's sheet changes; seat 2 sees it only later
    s.apply("end")
    real = PlannerAgent(2, beam=8).choose(Guarded(s), 1)
    assert real in s.legal_actions()
    for k in range(2):
        det = s.sample_hidden(1, Rng(1000 + k))
        assert str(PlannerAgent(2, beam=8).choose(Guarded(det), 1)) == str(real)
    agents = [PlannerAgent(i, beam=4, pilots=1) for i in range(2)]
    while not s.is_terminal():                   # a whole game of two planners, legal throughout
        cp = s.current_player
        a = agents[cp].choose(s, cp)
        assert a in s.legal_actions()
        s.apply(a)


def test_lookahead_reranks_the_best_plans_by_the_next_rounds_sampled_rolls():
    s = game(seed=6)
    p, var = s.players[0], s.var
    plans = beam_plans(var, p, 1)
    ranked = PlannerAgent(3, lookahead=2, la_candidates=3, la_beam=2, la_time=0).look_ahead(var, p, 1, plans)
    assert sorted(map(id, ranked[:3])) == sorted(map(id, plans[:3])) and ranked[3:] == plans[3:]
    s5 = game(seed=6, max_rounds=2)                  # round 1 of 2: the next round is valued by its exact score
    agent = PlannerAgent(3, lookahead=2, la_beam=2, la_time=0)
    plans = beam_plans(s5.var, s5.players[0], 1)
    top = agent.look_ahead(s5.var, s5.players[0], 1, plans)[0]
    assert top in plans[:agent.la_candidates]


def test_lookahead_decides_from_the_seats_information_alone():
    s = game(seed=8)
    s.apply(s.legal_actions()[0])
    s.apply("end")
    real = PlannerAgent(9, lookahead=2, la_beam=2, beam=8, la_time=0).choose(Guarded(s), 0)
    for k in range(2):
        det = s.sample_hidden(0, Rng(2000 + k))
        assert str(PlannerAgent(9, lookahead=2, la_beam=2, beam=8, la_time=0).choose(Guarded(det), 0)) == str(real)


def test_out_of_time_the_lookahead_compares_the_plans_on_the_rolls_every_plan_had():
    """Past ``la_time`` no roll is begun; the first is always finished for every plan, so a decision
    out of time ranks as one with a single roll (the same first roll: the same seed draws it)."""
    s = game(seed=6)
    p, var = s.players[0], s.var
    plans = beam_plans(var, p, 1)
    agent = PlannerAgent(3, lookahead=3, la_candidates=4, la_beam=2, la_time=1e-9)
    hurried = agent.look_ahead(var, p, 1, plans)
    assert agent.la_rolls == 1
    one_roll = PlannerAgent(3, lookahead=1, la_candidates=4, la_beam=2, la_time=0).look_ahead(var, p, 1, plans)
    assert [id(x) for x in hurried] == [id(x) for x in one_roll]
    agent = PlannerAgent(3, lookahead=3, la_candidates=4, la_beam=2, la_time=0)
    three = agent.look_ahead(var, p, 1, plans)
    assert agent.la_rolls == 3
    assert sorted(map(id, three[:4])) == sorted(map(id, plans[:4]))


def test_at_a_table_the_solo_ranker_counts_the_dust_creator_as_a_race():
    """Solo, the dust creator is 15 points for more than 10 dust produced; at a table it goes to the
    seat that produced most. The ranker was trained solo, so with other seats its value of a sheet is
    its solo value with the solo dust-creator bonus taken off and the race's put on."""
    s = game(players=2, seed=4)
    p = ended(s.players[0], 1)
    p.boxes = [12] + [0] * (SHEET.rounds - 1)            # 12 produced: solo, the bonus is sure
    solo = float(ranks(s.var, [p], 1)[0])
    assert float(rank_values(s.var, [p], 1)[0]) == solo  # no table: the ranker as trained
    ctx = _Ctx(s, 0)
    ctx.metrics = [0, 20]                                # the other seat produced 20: the race is lost
    assert abs(float(rank_values(s.var, [p], 1, ctx)[0]) - (solo - SHEET.bonus_dust_creator)) < 1e-3
    ctx.metrics = [0, 5]                                 # ... and here won: the same as solo
    assert abs(float(rank_values(s.var, [p], 1, ctx)[0]) - solo) < 1e-3


def test_at_a_table_the_ranker_and_lookahead_choose_unless_table_is_off():
    s = game(players=2, seed=5)                          # here the ranker prefers another plan than the potential
    ctx = _Ctx(s, 0)
    p, var = s.players[0], s.var
    plans = beam_plans(var, p, 1, 8, 2, ctx)
    off = PlannerAgent(3, table=0, beam=8, pilots=2).plan(var, p, 1, _Ctx(s, 0))
    assert off == plans[0][1]                            # table=0: the potential's best plan
    top = plans[:PlannerAgent(3).rank_top]
    vals = rank_values(var, [t[2] for t in top], 1, _Ctx(s, 0))
    best = max(range(len(top)), key=lambda i: (vals[i], -i))
    ranked = PlannerAgent(3, beam=8, pilots=2, lookahead=0).plan(var, p, 1, _Ctx(s, 0))
    assert best > 0 and ranked == top[best][1]          # table=1 (default): the ranker's best
    agent = PlannerAgent(3, beam=8, pilots=2, lookahead=2, la_beam=2, la_time=0)
    looked = agent.plan(var, p, 1, _Ctx(s, 0))
    assert agent.la_rolls == 2                           # the lookahead ran at the table
    assert looked in [t[1] for t in plans]


def test_at_a_table_the_others_dust_after_the_round_is_predicted_from_what_the_seat_sees():
    """``predict=1``: each other seat's round is played from its round-start sheet by the greedy agent
    with the shared dice; against greedy seats that is exactly the dust they have when the round ends,
    in the first round, mid-game and the last, and it reads only the seat's information."""
    changed = []
    for seed, rnd in ((1, 1), (2, 3), (3, 7), (5, 7)):
        s = game(players=3, seed=seed)
        agents = [GreedyAgent(i) for i in range(3)]
        while s.round < rnd:
            cp = s.current_player
            s.apply(agents[cp].choose(s, cp))
        before = [dust_metric(s.var, p) for p in s.players]
        s.apply(agents[0].choose(s, 0))                  # seat 1 decides after seat 0's first move
        ctx = _Ctx(s, 1)
        det = s.sample_hidden(1, Rng(7))                 # seat 0's move of the round redrawn
        predict_metrics(det, 1, ctx, GreedyAgent(9))
        while s.round == rnd and not s.is_terminal():
            cp = s.current_player
            s.apply(agents[cp].choose(s, cp))
        after = [dust_metric(s.var, p) for p in s.players]
        assert [ctx.metrics[0], ctx.metrics[2]] == [after[0], after[2]]
        changed.append(after != before)
    assert all(changed[:2]) and any(changed[2:])         # the round's dust, not what the round began with
