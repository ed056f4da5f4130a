"""Issue 22: the solo planner's plan ranker (value.py ``Ranker``, option ``expert:rank=1``): its inputs
are the value's features without the round and again scaled by the share of the game left, the shipped
file is the one its recorded command makes (hash, provenance in docs/ai.md), the planner re-ranks only
its best plans by it (solo, default rules), and the data and training scripts make a loadable ranker
end to end."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from repo_scripts import load_script
from zs_helpers import game

from grimoire.agents.net import load, weights_hash
from grimoire.games.zauberschmiede import rules, value
from grimoire.games.zauberschmiede.planner import PlannerAgent, beam_plans, ended, final_score

ROOT = Path(__file__).resolve().parents[2]


def test_rank_features_are_the_features_then_scaled_by_the_game_left():
    s = game(seed=3)
    p = ended(s.players[0], 2)
    f = value.features(s.var, p, 2)[:value.BASE]
    x = value.rank_features(s.var, p, 2)
    assert x.shape == (value.RANK_SIZE,) == (2 * value.BASE,)
    left = (s.var.last_round - 2) / (s.var.last_round - 1)
    assert np.array_equal(x[:value.BASE], f) and np.allclose(x[value.BASE:], f * left)


def test_the_shipped_ranker_loads_matches_its_hash_and_names_its_command():
    net = load(value.RANK_FILE)
    assert value.RANK_FILE.stat().st_size < 100_000
    assert net.meta["sha256"] == weights_hash(net) and not net.layers
    assert net.meta["inputs"] == "value.rank_features_written"
    assert net.obs_size == value.RANK_SIZE_WRITTEN == value.RANK_INPUTS[net.meta["inputs"]][1]
    assert net.meta["positions"] > 1000 and net.meta["games"] > 150      # 24 (and 16) plans a position
    prior = net.meta["prior"]                   # ridge towards the ranker trained before, on other games
    assert prior["games"] > 600 and len(prior["sha256"]) == 64
    assert prior["sha256"][:12] in (ROOT / "docs" / "ai.md").read_text(encoding="utf-8")
    assert net.meta["command"].startswith("python scripts/zs_plan_train.py ")
    assert net.meta["command"] in (ROOT / "docs" / "ai.md").read_text(encoding="utf-8")


def test_the_planner_reranks_its_best_plans_by_the_ranker_solo_only():
    s = game(seed=7)
    p, var = s.players[0], s.var
    plans = beam_plans(var, p, 1, 8, 1)
    top = plans[:3]
    r = value.ranks(var, [e for _v, _seq, e in top], 1)
    best = top[int(np.argmax(r))][1]              # the first of equals, as the planner's stable sort
    got = PlannerAgent(1, rank=1, rank_top=3, lookahead=0, beam=8, pilots=1).plan(var, p, 1)
    assert [str(a) for a in got] == [str(a) for a in best]
    other = game(seed=7, max_rounds=3)                       # another variant: the potential's order
    assert not value.applies(other.var)
    plain = beam_plans(other.var, other.players[0], 1, 8, 1)
    got = PlannerAgent(1, rank=1, lookahead=0, beam=8, pilots=1).plan(other.var, other.players[0], 1)
    assert [str(a) for a in got] == [str(a) for a in plain[0][1]]


def test_data_and_training_scripts_make_a_loadable_ranker(tmp_path):
    data, train = load_script("zs_plan_data"), load_script("zs_plan_train")
    s = game(seed=4)
    var = s.var
    rnd = var.last_round - 1                     # one round left: the finish is cheap
    p = s.players[0].copy()
    rng = np.random.default_rng(0)
    positions = []
    plans = beam_plans(var, p, rnd, 4, 1)[:3]
    for _ in range(4):
        rolls = [tuple(int(v) for v in rng.integers(1, 7, 6))]
        rows = [{"potential": v, "sheet": e.to_dict(False),
                 "scores": [data.finish(var, e, rnd, rolls, 2, 1)]} for v, _seq, e in plans]
        assert all(0 < r["scores"][0] <= value.BOUND for r in rows)
        positions.append({"round": rnd, "plans": rows})
    out = tmp_path / "d.jsonl"
    out.write_text("".join(json.dumps({"seed": 10 + k, "positions": [positions[k]]}) + "\n" for k in range(4)))
    x, y, v, pos, g, r = train.dataset([str(out)])
    assert x.shape == (len(y), value.RANK_SIZE) and len(set(pos)) == 4 and set(r) == {rnd}
    c = train.centred(y, pos)
    assert np.allclose(np.bincount(pos, c), 0.0)               # centred within each position
    w = train.fit(x, y, pos, 1.0)
    assert w.shape == (value.RANK_SIZE,) and np.all(np.isfinite(w))


def test_rank_lets_the_ranker_choose_the_data_policys_plans(monkeypatch):
    """zs_plan_data.py --rank (a second generation of data): the cheap planner's rounds and the game's walk
    take the ranker's choice; here a stand-in ranker that prefers the potential's last plan."""
    data = load_script("zs_plan_data")
    calls = []

    def last_first(var, sheets, rnd):
        calls.append((len(sheets), rnd))
        return np.arange(len(sheets), dtype=float)

    monkeypatch.setattr(data, "rank_values", last_first)
    s = game(seed=4)
    var = s.var
    rnd = var.last_round - 2                     # one ranked round, then the last (by its final score)
    e = beam_plans(var, s.players[0].copy(), rnd, 4, 1)[0][2]
    rolls = [(1, 2, 3, 4, 5, 6), (6, 5, 4, 3, 2, 1)]
    got = data.finish(var, e, rnd, rolls, 4, 1, rank=True)
    q = e.copy()
    rules.start_round(q, rolls[0])
    top = beam_plans(var, q, rnd + 1, 4, 1)[:data.RANK_TOP]
    q = top[-1][2].copy()                        # the stand-in's choice: the last of the potential's best
    rules.start_round(q, rolls[1])
    assert got == max(final_score(var, t[2]) for t in beam_plans(var, q, rnd + 2, 4, 1))
    assert calls == [(len(top), rnd + 1)]
    assert data.ranked_first(var, [e] * 5, rnd, 3) == [4, 3, 2]
    calls.clear()
    rec = data.play(11, 3, 1, 2, 1, rank=True)
    assert len(rec["positions"]) == var.last_round - 1
    assert all(0 < sc <= value.BOUND for pos in rec["positions"] for plan in pos["plans"] for sc in plan["scores"])
    assert (3, 1) in calls                       # the walk from round 1 asked the ranker about its 3 plans
