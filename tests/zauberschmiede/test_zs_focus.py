"""Issue 22: solo, before the last round, the planner leaves alone the artifacts that can score no harmony
(planner.FOCUS, the default; ``expert:focus=0`` plans as before). Measured as a scratch patch that filtered
the planner's legal actions; the shipped form must plan those same rounds, and leave the last round and the
table as they were."""

from __future__ import annotations

import types

import pytest
from zs_helpers import game

from grimoire.agents import make_agent
from grimoire.games.zauberschmiede import planner, rules
from grimoire.games.zauberschmiede.agents import GreedyAgent, _Ctx
from grimoire.games.zauberschmiede.planner import PlannerAgent, beam_plans, idle_artifacts
from grimoire.games.zauberschmiede.sheet import SHEET

# The default sheet (spec §13.3): the potions, the spells and the book have one field of each of their
# colours, so no colour group of two fields (harmony_min_fields) on them; amulets, wands and relics have.
NO_HARMONY = {"PO1", "PO2", "PO3", "SP1", "SP2", "SP3", "BK"}
ON_ARTIFACT = ("charge", "pay", "amplify")


def _ids(arts) -> set[str]:
    return {SHEET.artifacts[a].id for a in arts}


def _touched(seq) -> set[str]:
    return {SHEET.artifacts[a.args[0]].id for a in seq if a.kind in ON_ARTIFACT}


def test_the_artifacts_without_harmony_are_those_of_the_sheet_with_no_two_fields_of_a_colour():
    assert _ids(idle_artifacts(game().var)) == NO_HARMONY
    assert _ids(idle_artifacts(game(harmony_min_fields=3).var)) == {a.id for a in SHEET.artifacts}   # 2 at most
    assert idle_artifacts(game(harmony_mode="global").var) == frozenset()   # any artifact joins a colour's


def _positions(last: bool = False):
    """Solo sheets at the first decision of every round before the last (or of the last round) of two games
    played by the greedy agent (seeds where the focus changes a plan: rounds 3 and 6)."""
    out = []
    for seed in (1, 3):
        s = game(seed=seed)
        g = GreedyAgent(seed)
        while not s.over:
            if (s.round >= s.var.last_round) == last:
                out.append((s.var, s.players[0].copy(), s.round))
            while True:
                a = g.decide(s, 0, s.legal_actions())
                s.apply(a)
                if a.kind == "end" or s.over:
                    break
    return out


def _plans(positions, focus: int) -> list[list]:
    # a narrower beam than the default's keeps the test quick; the lookahead's next rounds are planned too
    agent = PlannerAgent(7, beam=8, pilots=2, lookahead=2, la_beam=2, la_time=0, focus=focus)
    return [agent.plan(var, p.copy(), rnd) for var, p, rnd in positions]


def test_solo_the_planner_plays_as_the_measured_patch(monkeypatch):
    pos = _positions()
    shipped = _plans(pos, 1)
    assert not any(_touched(plan) & NO_HARMONY for plan in shipped)
    bad = {a.index for a in SHEET.artifacts if a.id in NO_HARMONY}     # the table above, not the engine's

    def legal(var, p):       # the patch measured: the artifacts without harmony filtered out of every plan
        return [a for a in rules.legal_actions(var, p) if not (a.kind in ON_ARTIFACT and a.args[0] in bad)]

    patched = types.SimpleNamespace(**{k: getattr(rules, k) for k in dir(rules) if not k.startswith("__")})
    patched.legal_actions = legal
    monkeypatch.setattr(planner, "rules", patched)
    assert _plans(pos, 0) == shipped
    monkeypatch.undo()
    assert _plans(pos, 0) != shipped                  # ... the planner without it plays otherwise somewhere


def test_before_the_last_round_no_plan_acts_on_an_artifact_without_harmony():
    found = False
    for var, p, rnd in _positions():
        free = beam_plans(var, p.copy(), rnd, 8, 2)
        found |= any(_touched(seq) & NO_HARMONY for _v, seq, _e in free)    # there was something to leave
        skip = PlannerAgent(1, focus=1).skip(var, rnd, None)
        assert _ids(skip) == NO_HARMONY
        for _v, seq, _e in beam_plans(var, p.copy(), rnd, 8, 2, skip=skip):
            assert not _touched(seq) & NO_HARMONY, seq
    assert found


@pytest.mark.parametrize("focus", [0, 1])
def test_the_last_round_the_table_and_other_rules_are_left_as_they_were(focus):
    agent = PlannerAgent(1, focus=focus)
    (var, _p, rnd), = _positions(last=True)[:1]
    assert agent.skip(var, rnd, None) == frozenset()            # the last round's plans are exact scores
    table = game(players=2)
    assert agent.skip(table.var, 1, _Ctx(table, 0)) == frozenset()
    assert agent.skip(game(harmony_min_fields=3).var, 1, None) == frozenset()   # measured on the defaults only
    assert _ids(agent.skip(game().var, 1, None)) == (NO_HARMONY if focus else set())


def test_the_shipped_expert_leaves_them_alone_solo():
    agent = make_agent("zauberschmiede", "expert", 1)
    assert _ids(agent.skip(game().var, 1, None)) == NO_HARMONY
    assert make_agent("zauberschmiede", "expert:focus=0", 1).skip(game().var, 1, None) == frozenset()
