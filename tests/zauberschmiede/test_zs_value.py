"""Issue 22: the solo planner's learned value (value.py): its inputs read the ended sheet as the
potential and the scoring do, the shipped file is the one its recorded command makes (hash, size,
provenance in docs/ai.md), the planner ranks its plans by it solo under the default rules and keeps
the potential elsewhere, and the data and training scripts make a loadable value end to end."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from repo_scripts import load_script
from zs_helpers import game, set_fields

from grimoire.agents.net import load, weights_hash
from grimoire.games.zauberschmiede import value
from grimoire.games.zauberschmiede.agents import _Ctx, potential
from grimoire.games.zauberschmiede.planner import PlannerAgent, beam_plans, ended
from grimoire.games.zauberschmiede.scoring import breakdowns

ROOT = Path(__file__).resolve().parents[2]


def test_features_read_the_potential_and_the_score_of_the_ended_sheet():
    s = game(seed=2)
    p = ended(s.players[0], 1)
    set_fields(p, "AM1", [1, 1])
    p.nfill = [sum(1 for f in fs if p.fields[f]) for fs in value.SHEET.art_fields]
    p.paid |= 1
    p.boxes[0] = 3
    x = value.features(s.var, p, 1)
    assert x.shape == (value.SIZE,)
    assert x[0] == np.float32(potential(_Ctx(value._Solo(s.var, p, 1), 0), p))
    b = breakdowns(s.var, [p])[0]
    assert list(x[1:9]) == [b[f"S{i}"] for i in range(1, 9)]
    assert x[11] == p.trans_left and x[-(value.ROUNDS - 1)] == 1.0 and x[-(value.ROUNDS - 2):].sum() == 0
    k = 16 + value.NC
    assert x[k] == 1.0 and x[k + 1] == 0.0                   # am1 complete; its progress counts as done


def test_the_shipped_value_loads_matches_its_hash_and_names_its_command():
    net = load(value.FILE)
    assert value.FILE.stat().st_size < 200_000
    assert net.meta["sha256"] == weights_hash(net)
    assert net.obs_size == value.SIZE
    assert net.meta["game"] == "zauberschmiede" and net.meta["players"] == 1
    assert net.meta["positions"] > 1000 and net.meta["games"] > 100
    assert net.meta["command"].startswith("python scripts/zs_value_train.py ")
    assert net.meta["command"] in (ROOT / "docs" / "ai.md").read_text(encoding="utf-8")


def test_the_value_of_a_fresh_sheet_is_a_plausible_final_score():
    s = game(seed=5)
    v = value.values(s.var, [ended(s.players[0], 1)], 1)
    assert 120 < v[0] < 340                                   # the planner's games score ~200-320


def test_the_planner_ranks_by_the_learned_value_solo_and_by_the_potential_elsewhere():
    s = game(seed=7)
    p, var = s.players[0], s.var
    assert value.applies(var)
    assert not value.applies(game(seed=7, max_rounds=3).var)
    assert not value.applies(game(seed=7, harmony_mode="global").var)
    plans = beam_plans(var, p, 1)
    vals = value.values(var, [e for _v, _seq, e in plans], 1)
    best = plans[int(np.argmax(vals))][1]
    assert [str(a) for a in PlannerAgent(1, value=1, lookahead=0).plan(var, p, 1)] == [str(a) for a in best]
    plain = PlannerAgent(1, value=0, rank=0, lookahead=0).plan(var, p, 1)
    assert [str(a) for a in plain] == [str(a) for a in plans[0][1]]


def test_data_and_training_scripts_make_a_loadable_value(tmp_path):
    data, train = load_script("zs_value_data"), load_script("zs_value_train")
    out = tmp_path / "d.jsonl"
    with out.open("w") as f:
        for g in range(6):
            rec = data.play("greedy", 100 + g)
            assert [r["round"] for r in rec["rows"]] == list(range(1, value.ROUNDS))
            f.write(json.dumps(rec) + "\n")
    x, y, g, r = train.dataset([str(out)])
    assert x.shape == (6 * (value.ROUNDS - 1), value.SIZE) and len(set(g)) == 6
    for hidden in ([], [8]):
        net = train.fit_mlp(x, y, hidden, 1, 3, 1e-3, 1e-3)
        path = tmp_path / "v.npz"
        from grimoire.agents.net import save
        save(net, path)
        pred = train.predict(load(path), x)
        assert pred.shape == y.shape and np.all((pred > 0) & (pred < value.BOUND))
