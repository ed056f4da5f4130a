"""scripts/zs_table_runs.py: the games it plays (all of a seed's schedule, or one per deal with the
first agent's seat turning), the first agent's seat in each, and the paired comparison of two runs."""

from __future__ import annotations

import json
import sys

import pytest
from repo_scripts import load_script

from grimoire.agents.arena import game_spec

runs = load_script("zs_table_runs")


def test_seed_ranges():
    assert runs.seeds("7801") == [7801]
    assert runs.seeds("7801-7803") == [7801, 7802, 7803]
    with pytest.raises(ValueError):
        runs.seeds("9-3")


def test_one_game_per_deal_with_the_first_agents_seat_turning():
    labels = ["expert", "medium", "medium", "medium"]
    assert runs.games(labels, 3, False) == [0, 1, 2]
    picked = runs.games(labels, 6, True)
    assert picked == [0, 5, 10, 15, 16, 21]
    specs = [game_spec("zauberschmiede", labels, g, 7) for g in picked]
    assert len({s.seed for s in specs}) == 6                     # six different deals
    seats = [s.agents.index("expert") for s in specs]
    assert seats == [0, 3, 2, 1, 0, 3]                           # every seat in turn
    for s, seat in zip(specs, seats, strict=True):
        assert runs.first_seat({"index": s.index, "agents": s.agents}) == seat


def test_a_run_and_the_paired_comparison_of_two(tmp_path, monkeypatch, capsys):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for agents, path in (("greedy,medium", a), ("medium,greedy", b)):
        monkeypatch.setattr(sys, "argv", ["zs_table_runs.py", "--agents", agents, "--games", "2", "--one-per-deal",
                                          "--seed", "5-6", "--jsonl", str(path)])
        runs.main()
    rows = [json.loads(line) for line in a.read_text().splitlines()]
    assert [(r["index"]) for r in rows] == [0, 3, 0, 3]          # deal 0 and deal 1 of seeds 5 and 6
    other = {(r["seed"], r["index"]): r for r in map(json.loads, b.read_text().splitlines())}
    want = []
    for r in rows:                                                # the same games, seats as the schedule gives
        o = other[(r["seed"], r["index"])]
        i = runs.first_seat(r)
        assert r["agents"][i] == "greedy" and o["agents"][i] == "medium"
        want.append(r["scores"][i] - o["scores"][i])
    capsys.readouterr()
    monkeypatch.setattr(sys, "argv", ["zs_table_runs.py", "--agents", "greedy,medium", "--jsonl", str(a),
                                      "--against", str(b), "--summary"])
    runs.main()
    out = capsys.readouterr().out
    assert "greedy - medium on the same 4 games:" in out
    assert f"{sum(want) / 4:+.2f} [" in out
    monkeypatch.setattr(sys, "argv", ["zs_table_runs.py", "--agents", "greedy,medium", "--jsonl", str(a),
                                      "--against", str(tmp_path / "none.jsonl"), "--summary"])
    with pytest.raises(SystemExit, match="no such file"):
        runs.main()
    monkeypatch.setattr(sys, "argv", ["zs_table_runs.py", "--agents", "greedy,medium", "--jsonl",
                                      str(tmp_path / "none.jsonl"), "--summary"])
    with pytest.raises(SystemExit, match="--jsonl .*no such file"):
        runs.main()
    (tmp_path / "empty.jsonl").write_text("")
    assert runs.summary(str(tmp_path / "empty.jsonl")).startswith("no finished games")
