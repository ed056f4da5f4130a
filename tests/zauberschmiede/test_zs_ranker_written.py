"""Issue 22: the plan ranker's second kind of inputs, what the values written leave open
(value.py ``written_features``, ``rank_features_written``): a sheet set up by hand, the ranker's file
choosing its feature function by its meta (the shipped kind and the new kind both load), and the
training script's option making the new kind from a tiny data file."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from repo_scripts import load_script
from zs_helpers import game

from grimoire.agents.net import Network, save
from grimoire.games.zauberschmiede import agents, value
from grimoire.games.zauberschmiede.planner import beam_plans
from grimoire.games.zauberschmiede.sheet import SHEET

ART = {a.id: a for a in SHEET.artifacts}


def _write(p, art: str, colour: int, *vals: int) -> None:
    """Values into the fields of one colour of an artifact (as R5.1 would, highest minimum first)."""
    a = SHEET.artifacts.index(ART[art])
    fs = dict(ART[art].groups)[colour]
    for f, v in zip(fs[:len(vals)], vals, strict=True):
        p.fields[f] = v
        p.nfill[a] += 1


def test_written_features_of_a_sheet_set_up_by_hand():
    s = game(seed=3)
    p = s.players[0].copy()
    p.fresh, p.stock = 0, [0] * len(p.stock)
    # harmony (R10.1, default: per artifact and colour, groups of at least 2 fields): the groups of
    # two or more fields are AM1-3 (one each), WA1-3 (one each) and RE1-3 (two each)
    multi = [a for a in SHEET.artifacts if any(len(fs) >= s.var.hmin for _c, fs in a.groups)]
    assert sorted(a.id for a in multi) == ["AM1", "AM2", "AM3", "RE1", "RE2", "RE3", "WA1", "WA2", "WA3"]
    all_empty = sum(a.base for a in multi for _c, fs in a.groups if len(fs) >= s.var.hmin)
    out = np.zeros(value.WRITTEN, np.float32)
    value.written_features(s.var, p, out)
    assert out.tolist() == [0, 0, 0, all_empty, 0, 0]
    _write(p, "AM1", 0, 3)           # half written: harmony still open, one field needs exactly a 3
    _write(p, "WA1", 0, 4, 5)        # two values: harmony lost
    _write(p, "RE1", 0, 4, 4)        # full and pure
    _write(p, "AM2", 1, 6, 6)        # full and pure, and AM2 fully charged: its dust is needed, none in hand
    value.written_features(s.var, p, out)
    am, wa, re = ART["AM1"].base, ART["WA1"].base, ART["RE1"].base
    full = re + ART["AM2"].base
    assert out.tolist() == [full, am, wa, all_empty - am - wa - full, 1, ART["AM2"].dust]
    p.fresh = ART["AM2"].dust        # the dust in hand covers it
    value.written_features(s.var, p, out)
    assert out[5] == 0


def test_rank_features_written_extend_the_shipped_inputs_and_scale_by_the_game_left():
    s = game(seed=3)
    p = beam_plans(s.var, s.players[0], 1, 8, 1)[0][2]
    x = value.rank_features_written(s.var, p, 1)
    n = value.BASE + value.WRITTEN
    assert x.shape == (value.RANK_SIZE_WRITTEN,) == (2 * n,)
    assert np.array_equal(x[:value.BASE], value.rank_features(s.var, p, 1)[:value.BASE])
    w = np.zeros(value.WRITTEN, np.float32)
    value.written_features(s.var, p, w)
    assert np.array_equal(x[value.BASE:n], w)
    assert np.allclose(x[n:], x[:n])                 # round 1: the whole game is left


def _ranker_file(path: Path, inputs: str, size: int) -> Path:
    w = np.arange(size, dtype=np.float32)[:, None]
    net = Network([], (w, np.zeros(1, np.float32)), (np.zeros((size, 1), np.float32), np.zeros(1, np.float32)))
    net.meta = {"game": "zauberschmiede", "players": 1, "options": {}, "generation": 0, "inputs": inputs}
    save(net, path)
    return path


def test_the_ranker_picks_its_feature_function_by_the_files_meta(tmp_path):
    first = value.Ranker(_ranker_file(tmp_path / "v.npz", "value.rank_features", value.RANK_SIZE))
    assert first.features is value.rank_features and first.size == value.RANK_SIZE       # the first kind shipped
    shipped = value.Ranker(value.RANK_FILE)
    assert shipped.features is value.rank_features_written and shipped.size == value.RANK_SIZE_WRITTEN
    new = value.Ranker(_ranker_file(tmp_path / "w.npz", "value.rank_features_written", value.RANK_SIZE_WRITTEN))
    assert new.features is value.rank_features_written and new.size == value.RANK_SIZE_WRITTEN
    s = game(seed=3)
    p = beam_plans(s.var, s.players[0], 1, 8, 1)[0][2]
    x = value.rank_features_written(s.var, p, 1)
    assert new(x[None])[0] == pytest.approx(float(x.astype(np.float64) @ np.arange(value.RANK_SIZE_WRITTEN)))
    with pytest.raises(ValueError):          # the new kind's name on a file of the shipped kind's size
        value.Ranker(_ranker_file(tmp_path / "x.npz", "value.rank_features_written", value.RANK_SIZE))
    with pytest.raises(ValueError):
        value.Ranker(_ranker_file(tmp_path / "y.npz", "value.features", value.RANK_SIZE))


def _plan_lines(data) -> list[str]:
    """Five positions of the last round but one: three plans each, played out on one set of dice."""
    s = game(seed=4)
    var = s.var
    rnd = var.last_round - 1                     # one round left: the finish is cheap
    plans = beam_plans(var, s.players[0].copy(), rnd, 4, 1)[:3]
    rng = np.random.default_rng(0)
    lines = []
    for k in range(5):
        rolls = [tuple(int(v) for v in rng.integers(1, 7, 6))]
        rows = [{"potential": v, "sheet": e.to_dict(False), "scores": [data.finish(var, e, rnd, rolls, 2, 1)]}
                for v, _seq, e in plans]
        lines.append(json.dumps({"seed": 10 + k, "positions": [{"round": rnd, "plans": rows}]}) + "\n")
    return lines


def test_the_training_script_makes_the_new_kind(tmp_path, capsys, monkeypatch):
    data, train = load_script("zs_plan_data"), load_script("zs_plan_train")
    lines = _plan_lines(data)
    path = tmp_path / "d.jsonl"
    path.write_text("".join(lines) + lines[0][:40])               # a half-written last line is left out
    assert len(train.complete_lines(str(path))) == 5
    out = tmp_path / "r.npz"
    monkeypatch.setattr("sys.argv", ["zs_plan_train.py", str(path), "--inputs", "value.rank_features_written",
                                     "--folds", "2", "--against", "value.rank_features", "--out", str(out)])
    train.main()
    text = capsys.readouterr().out
    assert "5 games, 5 positions, 15 plans" in text and "the ranker - the planner" in text
    assert "the ranker - value.rank_features, same positions" in text
    r = value.Ranker(out)
    assert r.meta["inputs"] == "value.rank_features_written" and r.features is value.rank_features_written
    x, y, _v, pos, _g, _r = train.dataset([str(path)], "value.rank_features_written")
    assert x.shape == (15, value.RANK_SIZE_WRITTEN)
    assert np.allclose(r.w, train.fit(x, y, pos, 1.0), atol=1e-6)     # the file holds the fit on all the data


def test_a_prior_ranker_pulls_the_fit_towards_its_weights(tmp_path, capsys, monkeypatch):
    data, train = load_script("zs_plan_data"), load_script("zs_plan_train")
    path = tmp_path / "d.jsonl"
    path.write_text("".join(_plan_lines(data)))
    x, y, _v, pos, _g, _r = train.dataset([str(path)], "value.rank_features_written")
    w0 = np.linspace(-1.0, 1.0, x.shape[1])
    free = train.fit(x, y, pos, 1.0)
    assert np.allclose(train.fit(x, y, pos, 1e9, prior=w0), w0, atol=1e-4)   # a hard pull keeps the prior
    assert np.allclose(train.fit(x, y, pos, 1.0, prior=np.zeros_like(w0)), free)  # a prior of 0 is plain ridge
    assert not np.allclose(train.fit(x, y, pos, 1.0, prior=w0), free, atol=1e-3)
    before = _ranker_file(tmp_path / "before.npz", "value.rank_features_written", value.RANK_SIZE_WRITTEN)
    out = tmp_path / "after.npz"
    monkeypatch.setattr("sys.argv", ["zs_plan_train.py", str(path), "--inputs", "value.rank_features_written",
                                     "--folds", "2", "--prior", str(before), "--l2", "3", "--out", str(out)])
    train.main()
    assert "the ranker - before.npz as it is, same positions" in capsys.readouterr().out
    r = value.Ranker(out)
    assert r.meta["prior"]["file"] == "before.npz" and len(r.meta["prior"]["sha256"]) == 64
    assert np.allclose(r.w, train.fit(x, y, pos, 3.0, prior=value.Ranker(before).w), atol=1e-6)
    monkeypatch.setattr("sys.argv", ["zs_plan_train.py", str(path), "--prior", str(before)])
    with pytest.raises(SystemExit, match="takes the inputs value.rank_features_written"):
        train.main()                             # a prior of the other kind of inputs is refused


def test_tops_compare_the_choice_among_the_first_k_plans(tmp_path, capsys, monkeypatch):
    train = load_script("zs_plan_train")
    y = np.array([1.0, 5.0, 3.0, 2.0, 0.0, 7.0])      # two positions of three plans, each mean 3
    pos = np.array([0, 0, 0, 1, 1, 1])
    train.among_tops([("last", np.arange(6.0))], y, pos, [3, 2, 1])   # a ranking that prefers later plans
    text = capsys.readouterr().out
    assert "last, among the first 3: +2.000" in text          # the last plan: (0 + 4) / 2
    assert "last, among the first 2: -0.500" in text          # the second: (2 - 3) / 2
    assert "last, among the first 1: -1.500" in text          # the potential's first: (-2 - 1) / 2
    assert "last: among the first 1 - among the first 3, same positions: -3.500" in text
    data = load_script("zs_plan_data")
    path = tmp_path / "d.jsonl"
    path.write_text("".join(_plan_lines(data)))
    monkeypatch.setattr("sys.argv", ["zs_plan_train.py", str(path), "--folds", "2", "--tops", "3,2"])
    train.main()
    assert "the ranker: among the first 2 - among the first 3, same positions" in capsys.readouterr().out


def test_extra_data_trains_every_fold_and_the_file_but_is_never_ranked(tmp_path, capsys, monkeypatch):
    data, train = load_script("zs_plan_data"), load_script("zs_plan_train")
    lines = _plan_lines(data)
    path, more = tmp_path / "d.jsonl", tmp_path / "e.jsonl"
    path.write_text("".join(lines[:3]))
    recs = [json.loads(ln) for ln in lines[3:]]
    for r in recs:
        r["seed"] += 100                                 # other games, where the plans' scores differ
        for i, plan in enumerate(r["positions"][0]["plans"]):
            plan["scores"] = [plan["scores"][0] + 3 * (i == 1)]
    more.write_text("".join(json.dumps(r) + "\n" for r in recs))
    x, y, _v, pos, g, _r = train.dataset([str(path)])
    xe, ye, _ve, pe, _ge, _re = train.dataset([str(more)])
    fold = np.array([0 if s == g[0] else 1 for s in g])
    pred = train.cross_validated(x, y, pos, fold, 2, 1.0, False, extra=(xe, ye, pe))
    tr = fold == 1                                       # fold 0 is ranked by a fit on fold 1 and the extra
    xt, yt, pt = train.joined((x[tr], y[tr], np.unique(pos[tr], return_inverse=True)[1]), (xe, ye, pe))
    assert len(yt) == tr.sum() + len(ye) and pt.max() + 1 == len(set(pos[tr])) + len(set(pe))
    assert np.allclose(pred[~tr], x[~tr] @ train.fit(xt, yt, pt, 1.0))
    assert not np.allclose(pred, train.cross_validated(x, y, pos, fold, 2, 1.0, False))
    out = tmp_path / "r.npz"
    monkeypatch.setattr("sys.argv", ["zs_plan_train.py", str(path), "--folds", "2", "--extra", str(more),
                                     "--out", str(out)])
    train.main()
    text = capsys.readouterr().out
    assert "3 games, 3 positions, 9 plans; 2-fold" in text          # only the data's positions are ranked
    assert "and 2 games, 2 positions, 6 plans in every fit (--extra)" in text
    r = value.Ranker(out)
    assert r.meta["games"] == 5 and r.meta["plans"] == 15
    xa, ya, pa = train.joined((x, y, pos), (xe, ye, pe))
    assert np.allclose(r.w, train.fit(xa, ya, pa, 1.0), atol=1e-6)  # the file holds the fit on both
    monkeypatch.setattr("sys.argv", ["zs_plan_train.py", str(path), "--extra", str(path)])
    with pytest.raises(SystemExit, match="a game is in both --extra and the data"):
        train.main()


def test_the_inputs_potential_can_take_the_solo_planners_credit(tmp_path, capsys, monkeypatch):
    """--upg-future computes the potential among the inputs with that credit for colour levels still to
    score: only the potential and its game-left copy change, the file is fit on those inputs and says so."""
    data, train = load_script("zs_plan_data"), load_script("zs_plan_train")
    recs = [json.loads(ln) for ln in _plan_lines(data)]
    for r in recs:
        for plan in r["positions"][0]["plans"]:
            plan["sheet"]["upg"] = 1             # a first level in the first colour, with a round to score on
    path = tmp_path / "d.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    inputs = "value.rank_features_written"
    x, y, _v, pos, _g, _r = train.dataset([str(path)], inputs)
    assert np.array_equal(x, train.dataset([str(path)], inputs, agents.UPG_FUTURE)[0])   # None: the greedy's
    x2 = train.dataset([str(path)], inputs, 2.0)[0]
    n = value.BASE + value.WRITTEN
    changed = set(np.flatnonzero((x != x2).any(axis=0)).tolist())
    assert changed == {0, n}                     # the potential, and the potential times the game left
    assert (x2[:, 0] >= x[:, 0]).all() and (x2[:, 0] > x[:, 0]).any()     # more credit for open colour levels
    out = tmp_path / "r.npz"
    monkeypatch.setattr("sys.argv", ["zs_plan_train.py", str(path), "--inputs", inputs, "--folds", "2",
                                     "--upg-future", "2", "--out", str(out)])
    train.main()
    r = value.Ranker(out)
    assert r.meta["upg_future"] == 2.0 and "--upg-future 2" in r.meta["command"]
    assert np.allclose(r.w, train.fit(x2, y, pos, 1.0), atol=1e-6)
    monkeypatch.setattr("sys.argv", ["zs_plan_train.py", str(path), "--upg-future", "-1", "--out", str(out)])
    with pytest.raises(SystemExit, match="--upg-future must be 0 or more"):
        train.main()
