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
    assert resolve_engine("zavandor", "auto", ["random"]) == "native"           # only lists legal actions
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


def _report(agent: str, roles: dict[str, tuple[float, int]], players: int = 4) -> dict:
    from grimoire.agents.stats import wilson
    from grimoire.sim.report.stats import MIN_N
    rows = []
    for role, (rate, n) in roles.items():
        few = n < MIN_N
        rows.append({"key": role, "seat_games": n, "wins": rate * n, "rate": rate, "too_few": few,
                     "ci95": None if few else list(wilson(rate * n, n))})
    return {"solo": False, "par": 1 / players, "by_role": rows, "by_turn_position": [], "by_seat": [],
            "run": {"game": "zavandor", "players": players, "options": {}, "agents": [agent] * players,
                    "games": 1000, "agent_params": {agent: {}}}}


def test_the_report_keeps_as_the_games_only_what_holds_under_every_agent():
    from grimoire.sim.report.agents import agent_study
    reports = [_report("medium", {"elf": (0.38, 8000), "witch": (0.14, 8000), "druid": (0.25, 8000)}),
               _report("naive", {"elf": (0.35, 8000), "witch": (0.44, 8000), "druid": (0.02, 8000)}),
               _report("hard:iterations=100,time=0", {"elf": (0.30, 600), "witch": (0.2, 6), "druid": (0.26, 600)})]
    study = agent_study(reports, ["medium", "naive", "hard"])
    rows = {r["key"]: r["verdict"] for r in study["tables"]["role"]}
    assert rows["elf"]["kind"] == "holds" and rows["elf"]["holds"]              # above par under all three
    assert rows["witch"]["kind"] == "depends" and not rows["witch"]["holds"]    # flips between agent families
    assert "too few games under hard:iterations=100,time=0" in rows["witch"]["text"]
    assert rows["druid"]["kind"] == "depends" and "below par under novice" in rows["druid"]["text"]   # ai.naive
    assert any("role Elf: above par under every agent" in f for f in study["game_findings"])
    assert any(f.startswith("role Witch: depends on the agent") for f in study["agent_findings"])
    assert not any("Witch" in f for f in study["game_findings"])


def test_direction_alone_is_named_as_such():
    import numpy as np

    from grimoire.sim.report.agents import verdict
    from grimoire.sim.report.stats import rate_row
    strong = rate_row("elf", np.r_[np.ones(380), np.zeros(620)], np.zeros(1000), 0.25)
    weak = rate_row("elf", np.r_[np.ones(28), np.zeros(72)], np.zeros(100), 0.25)
    v = verdict({"medium": strong, "hard": weak}, 0.25)
    assert v["kind"] == "direction" and "significant under medium" in v["text"] and v["holds"]
    few = rate_row("elf", np.ones(5), np.zeros(5), 0.25)
    assert few["too_few"] and few["ci95"] is None and not few["significant"]       # no interval under 10


def test_bounds_near_par_are_printed_exactly():
    from grimoire.sim.report.html import ci
    from grimoire.sim.report.stats import holm, pct_bound
    assert pct_bound(0.24953, 0.25) == "24.95%" and pct_bound(0.24953) == "25.0%"   # below par, not "25.0%"
    assert pct_bound(0.25, 0.25) == "25.0%" and pct_bound(0.3712, 0.25) == "37.1%"
    assert ci([0.231, 0.24953], par=0.25) == "23.1–24.95%"
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])


def test_item_effects_within_each_role_undo_the_pooled_paradox():
    """The weak role buys the item more: pooled, the item looks harmful; within each role it helps."""
    import numpy as np

    from grimoire.sim.report.within import within_roles
    # strong role: 100 seat-games, 10 with the item (win 6/10), 90 without (win 45/90)
    # weak role:   100 seat-games, 90 with the item (win 18/90), 10 without (win 1/10)
    roles = np.array(["strong"] * 100 + ["weak"] * 100, dtype=object)
    value = np.r_[np.ones(10), np.zeros(90), np.ones(90), np.zeros(10)]
    shares = np.r_[np.ones(6), np.zeros(4), np.ones(45), np.zeros(45), np.ones(18), np.zeros(72), np.ones(1),
                   np.zeros(9)]
    pooled = shares[value > 0].mean() - shares[value == 0].mean()
    assert pooled < -0.2
    w = within_roles(value, shares, roles)
    by = {r["role"]: r for r in w["by_role"]}
    assert by["strong"]["diff"]["diff"] == pytest.approx(0.1) and by["weak"]["diff"]["diff"] == pytest.approx(0.1)
    assert w["adjusted"]["diff"] == pytest.approx(0.1)


def test_head_to_head_counts_who_finished_ahead():
    import numpy as np

    from grimoire.sim.report.within import head_to_head
    roles = np.array(["elf", "witch", "witch", "elf", "elf", "mage"], dtype=object)
    ranks = np.array([1, 2, 1, 2, 1, 1])            # game 3: a tie between elf and mage
    h = head_to_head(roles, ranks, 2)
    i = {r: k for k, r in enumerate(h["roles"])}
    assert h["share"][i["elf"]][i["witch"]] == 0.5 and h["games"][i["elf"]][i["witch"]] == 2
    assert h["share"][i["elf"]][i["mage"]] == 0.5 and h["share"][i["witch"]][i["mage"]] is None


def test_paired_differences_of_same_seed_runs_cancel_the_shared_luck(tmp_path):
    from grimoire.sim.report import build
    for name, agent in (("a", "random"), ("b", "random"), ("c", "naive")):
        simulate(make_config("zavandor", 2, [agent], 24, 5, {"max_rounds": 1}, batch_size=24, engine="python"),
                 tmp_path / name, workers=1)
    data = build([tmp_path / "a", tmp_path / "b", tmp_path / "c"])
    same, other = data["comparisons"]
    for p in same["paired_by_role"]:           # the same agent on the same games: no difference, no width
        assert p["diff"] == 0 and (p.get("too_few") or p["ci95"] == [0, 0])
    assert sum(p["pairs"] for p in other["paired_by_role"]) == 48       # every seat-game paired by game and role
    for p in other["paired_by_role"]:
        if p.get("ci95"):
            assert p["ci95"][0] <= p["diff"] <= p["ci95"][1]


@pytest.mark.parametrize("bad", ["max_rounds", "=3", " =3"])
def test_an_option_without_key_and_value_is_refused_in_one_line_by_both_parsers(bad):
    from grimoire.cli.common import parse_option_pairs
    for parse in (parse_option_pairs, parse_sweep_pairs):
        with pytest.raises(GameConfigError, match="options are given as key=value"):
            parse([bad])
    assert parse_option_pairs(["max-rounds=3"]) == parse_sweep_pairs(["max-rounds=3"]) == {"max_rounds": 3}


def test_the_expert_level_joins_a_study_with_a_fixed_budget_and_the_same_rows_twice(tmp_path):
    # the balance studies run expert:iterations=N,time=0: no time limit, so its moves (and the rows)
    # do not depend on the machine's load
    from grimoire.core.registry import backends
    if "native" not in backends("zavandor"):
        pytest.skip("the native engine is not built here")
    assert resolve_engine("zavandor", "auto", ["expert:iterations=10,time=0"]) == "native"
    spec = parse_agent("zavandor", "expert:time=0,iterations=8")
    assert spec.label == "expert:iterations=8,time=0" and spec.params == {"iterations": 8, "time": 0.0}
    rows = []
    for name in ("a", "b"):
        cfg = make_config("zavandor", 2, [spec.label], 2, 7, {"max_rounds": 2}, batch_size=2, engine="auto")
        simulate(cfg, tmp_path / name, workers=1)
        m = json.loads((tmp_path / name / "run.json").read_text())
        assert m["engine"] == "native"
        assert m["provenance"]["agents"][spec.label] == {"name": "expert", "params": {"iterations": 8, "time": 0.0}}
        rows.append(read_rows(tmp_path / name).to_pylist())
    assert len(rows[0]) == 4 and {r["agent"] for r in rows[0]} == {spec.label}
    assert rows[0] == rows[1]
