"""Agent specifications with parameters, and studies of several configurations with the same seeds."""

from __future__ import annotations

import json

import pytest

from grimoire.agents import make_agent, parse_agent, parse_agents
from grimoire.core.errors import GameConfigError
from grimoire.sim import make_config, read_rows, simulate
from grimoire.sim.config import resolve_engine
from grimoire.sim.study import agent_sets, member_runs, parse_sweep_pairs, plan, write_study


def test_agent_parameters_are_parsed_once_into_a_canonical_label():
    specs = parse_agents("zavandor", "medium, hard:time=0,iterations=100 ,easy:noise=0.1")
    assert [s.label for s in specs] == ["medium", "hard:iterations=100,time=0", "easy:noise=0.1"]
    assert specs[1].params == {"iterations": 100, "time": 0.0}          # typed, not text
    hard = make_agent("zavandor", "hard:iterations=100,time=0", 3)
    assert hard.iterations == 100 and hard.time_limit is None           # time 0 = no wall-time limit
    assert make_agent("zavandor", "easy:noise=0.1", 3).policy.noise == 0.1
    assert make_agent("zauberschmiede", "easy:epsilon=0.5", 1).epsilon == 0.5     # a generic level's parameter


@pytest.mark.parametrize("text,message", [
    ("hard:iters=3", "agent 'hard' has no parameter 'iters': it takes c, iterations, time"),
    ("medium:depth=2", "agent 'medium' has no parameter 'depth': it takes no parameters"),
    ("hard:iterations=many", "agent hard: iterations=many is not an integer"),
    ("hard:iterations", "agent parameters are key=value, not 'iterations'"),
    ("hard:time=-1", "agent hard: time=-1 must not be negative"),
    ("hard:iterations=0", "iterations must be at least 1"),
    ("hard:c=1,c=2", "given twice"),
    ("genius", "unknown agent 'genius' for zavandor"),
])
def test_bad_agent_specifications_are_one_line(text, message):
    with pytest.raises(GameConfigError, match=message) as e:
        parse_agent("zavandor", text)
    assert "\n" not in str(e.value)


def test_commas_separate_configurations_and_plus_joins_seats():
    assert agent_sets("zavandor", "medium,hard:iterations=100,time=0,naive") == [
        ["medium"], ["hard:iterations=100,time=0"], ["naive"]]
    assert agent_sets("zavandor", "hard+medium+medium+medium") == [["hard", "medium", "medium", "medium"]]
    with pytest.raises(GameConfigError, match="listed twice.*joined with \\+"):
        agent_sets("zavandor", "hard,medium,medium,medium")      # the old per-seat spelling: a clear pointer


def test_auto_engine_skips_the_compiled_engine_for_agents_that_are_slow_there():
    from grimoire.core.registry import backends
    if "native" not in backends("zavandor"):
        pytest.skip("the native engine is not built here")
    assert resolve_engine("zavandor", "auto", ["medium"]) == "native"
    assert resolve_engine("zavandor", "auto", ["naive"]) == "python"          # 4x slower on native
    assert resolve_engine("zavandor", "auto", ["medium", "naive"]) == "python"
    assert resolve_engine("zavandor", "auto", ["hard:iterations=10,time=0"]) == "native"


def test_run_json_records_agent_parameters_and_provenance(tmp_path):
    cfg = make_config("zavandor", 2, ["random"], 2, 4, {"max_rounds": 1}, batch_size=2)
    simulate(cfg, tmp_path / "r", workers=1)
    m = json.loads((tmp_path / "r" / "run.json").read_text())
    p = m["provenance"]
    assert p["agents"] == {"random": {"name": "random", "params": {}}}
    assert p["commit"] and "python" in p and m["created"]
    cfg = make_config("zavandor", 2, ["hard:iterations=2,time=0"], 2, 4, {"max_rounds": 1}, batch_size=2,
                      engine="python")
    assert cfg.agents == ("hard:iterations=2,time=0",) * 2
    simulate(cfg, tmp_path / "h", workers=1)
    m = json.loads((tmp_path / "h" / "run.json").read_text())
    assert m["provenance"]["agents"]["hard:iterations=2,time=0"]["params"] == {"iterations": 2, "time": 0.0}
    assert set(read_rows(tmp_path / "h").column("agent").to_pylist()) == {"hard:iterations=2,time=0"}


def test_a_study_plays_every_configuration_on_the_same_games(tmp_path):
    members = plan("zavandor", 4, "random,naive", 4, 9, {"max_rounds": 2}, batch_size=4, engine="python")
    assert [m.name for m in members] == ["random", "naive"]
    write_study(tmp_path, members)
    for m in members:
        simulate(m.config, tmp_path / m.name, workers=1)
    runs = member_runs(tmp_path)
    assert [r.name for r in runs] == ["random", "naive"]
    a, b = (read_rows(r).to_pylist() for r in runs)
    # the same deal and roles per game: the seeds and the characters are paired across the agents
    assert [(x["game"], x["seed"], x["seat"], x["role"]) for x in a] == [(x["game"], x["seed"], x["seat"], x["role"])
                                                                         for x in b]
    assert {x["agent"] for x in a} == {"random"} and {x["agent"] for x in b} == {"naive"}


def test_option_sweeps_make_one_variant_per_value_after_the_base():
    opts = parse_sweep_pairs(["max_rounds=2,3", "combine_with_auction=true", 'characters=["elf","witch"]'])
    assert opts["max_rounds"] == {"sweep": [2, 3]} and opts["characters"] == ["elf", "witch"]
    members = plan("zavandor", 2, "random", 2, 1, opts, batch_size=2, engine="python")
    assert [m.name for m in members] == ["random", "random--max_rounds-2", "random--max_rounds-3"]
    assert [m.config.options.get("max_rounds") for m in members] == [None, 2, 3]
    with pytest.raises(GameConfigError, match="max_rounds"):
        plan("zavandor", 2, "random", 2, 1, parse_sweep_pairs(["max_rounds=2,zero"]), engine="python")
