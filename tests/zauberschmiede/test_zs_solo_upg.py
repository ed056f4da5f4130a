"""Issue 22: solo, the planner values future colour levels with its own credit (planner.SOLO_UPG_FUTURE),
measured as a scratch patch of agents.UPG_FUTURE; the shipped form must play those same moves solo, and
leave the table, the greedy agent and hard (which share the potential) as they were."""

from __future__ import annotations

import pytest
from zs_helpers import game

from grimoire.games.zauberschmiede import agents, planner
from grimoire.games.zauberschmiede.agents import TRANSMUTE_COST, GreedyAgent, _Ctx, potential
from grimoire.games.zauberschmiede.planner import PlannerAgent, _Solo, beam_plans


def _positions():
    """Solo sheets at the first decision of rounds 1-5 of two games, the rounds played by the greedy agent."""
    out = []
    for seed in (3, 11):
        s = game(seed=seed)
        g = GreedyAgent(seed)
        while s.round <= 5:
            out.append((s.var, s.players[0].copy(), s.round))
            while True:
                a = g.decide(s, 0, s.legal_actions())
                s.apply(a)
                if a.kind == "end":
                    break
    return out


def _plans(positions) -> list[list[str]]:
    # a narrower beam than the default's keeps the test quick; every part that values a sheet runs
    agent = PlannerAgent(7, beam=8, pilots=2, lookahead=2, la_beam=2, la_time=0)
    return [[str(a) for a in agent.plan(var, p.copy(), rnd)] for var, p, rnd in positions]


def test_solo_the_planner_plays_as_the_measured_patch(monkeypatch):
    assert planner.SOLO_UPG_FUTURE != agents.UPG_FUTURE
    pos = _positions()
    shipped = _plans(pos)
    monkeypatch.setattr(agents, "UPG_FUTURE", planner.SOLO_UPG_FUTURE)   # the patch: every potential
    assert _plans(pos) == shipped
    monkeypatch.setattr(agents, "UPG_FUTURE", 0.3)
    monkeypatch.setattr(planner, "SOLO_UPG_FUTURE", 0.3)                 # the planner before
    assert _plans(pos) != shipped                                       # ... played otherwise somewhere


def test_solo_the_beam_values_sheets_with_the_solo_credit():
    var, p, rnd = _positions()[2]
    for value, _seq, e in beam_plans(var, p, rnd)[:5]:
        spent = p.trans_left - e.trans_left
        own = potential(_Ctx(_Solo(var, e, rnd, planner.SOLO_UPG_FUTURE), 0), e) - TRANSMUTE_COST * spent
        assert value == pytest.approx(own)


def test_the_table_greedy_and_hard_keep_the_potentials_credit(monkeypatch):
    s = game(players=2, seed=4)
    assert _Ctx(s, 0).upg_future == agents.UPG_FUTURE            # greedy and hard build their view so
    p = s.players[0]
    before = [str(a) for a in PlannerAgent(3, beam=8, pilots=2, lookahead=0).plan(s.var, p.copy(), 1, _Ctx(s, 0))]
    monkeypatch.setattr(planner, "SOLO_UPG_FUTURE", 0.3)
    after = [str(a) for a in PlannerAgent(3, beam=8, pilots=2, lookahead=0).plan(s.var, p.copy(), 1, _Ctx(s, 0))]
    assert after == before
