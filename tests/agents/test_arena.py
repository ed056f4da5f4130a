"""The arena: statistics, fair rotation of seats and characters, determinism, parallel runs, CLI."""

from __future__ import annotations

import dataclasses
import json
import math
import subprocess
import sys
from collections import Counter

import pytest

from grimoire.agents.arena import run_arena, schedule, summarize, write_csv, write_json
from grimoire.agents.stats import overlaps, wilson
from grimoire.core import registry
from grimoire.core.episode import derive_seed
from grimoire.core.errors import GameConfigError
from grimoire.core.registry import ArenaHooks, game_info
from grimoire.core.rng import Rng

# --- statistics ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("wins,n,lo,hi", [
    (5, 10, 0.2366, 0.7634),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (50, 100, 0.4038, 0.5962),
    (80, 100, 0.7112, 0.8666),
    (1, 40, 0.0044, 0.1288),
])
def test_wilson_interval_matches_known_values(wins, n, lo, hi):
    a, b = wilson(wins, n)
    assert a == pytest.approx(lo, abs=2e-4) and b == pytest.approx(hi, abs=2e-4)


def test_wilson_properties():
    assert wilson(0, 0) == (0.0, 1.0)
    for n in (1, 7, 30, 500):
        for w in range(0, n + 1, max(1, n // 7)):
            lo, hi = wilson(w, n)
            assert 0.0 <= lo <= w / n <= hi <= 1.0
    # narrower with more games, and shared wins on ties are allowed
    assert wilson(40, 100)[1] - wilson(40, 100)[0] < wilson(4, 10)[1] - wilson(4, 10)[0]
    lo, hi = wilson(2.5, 10)
    assert lo < 0.25 < hi
    # the half-width shrinks like 1/sqrt(n)
    w1 = wilson(250, 1000)
    w2 = wilson(1000, 4000)
    assert (w1[1] - w1[0]) / (w2[1] - w2[0]) == pytest.approx(2.0, rel=0.02)
    assert not overlaps(wilson(80, 100), wilson(20, 100)) and overlaps(wilson(50, 100), wilson(55, 100))


# --- scheduling --------------------------------------------------------------------------------------------

def test_rotation_gives_every_agent_every_seat_and_character_once_per_block():
    agents = ["hard", "medium", "easy", "random"]
    specs = schedule("zavandor", agents, 12, seed=5)
    for b in range(3):
        block = specs[4 * b:4 * b + 4]
        assert len({s.seed for s in block}) == 1                      # duplicate games: same shuffles
        assert all(s.roles == block[0].roles for s in block)           # same characters per seat
        assert len(set(block[0].roles)) == 4
        assert all(s.options["characters"] == s.roles for s in block)
        for seat in range(4):
            assert sorted(s.agents[seat] for s in block) == sorted(agents)   # every agent in every seat
        for name in agents:
            played = sorted(s.roles[s.agents.index(name)] for s in block)
            assert played == sorted(block[0].roles)                    # every agent plays every character
    assert len({s.seed for s in specs}) == 3
    assert len({tuple(s.roles) for s in specs[::4]}) > 1               # fresh characters each block
    # all six characters come round
    assert set(Counter(r for s in schedule("zavandor", agents, 80, seed=1) for r in s.roles)) == {
        "witch", "elf", "druid", "fairy", "mage", "kobold"}


def test_schedule_depends_only_on_the_seed():
    a = schedule("zavandor", ["medium", "easy"], 6, seed=9)
    b = schedule("zavandor", ["medium", "easy"], 6, seed=9)
    c = schedule("zavandor", ["medium", "easy"], 6, seed=10)
    assert [(s.seed, s.roles, s.agents, s.agent_seeds) for s in a] == [(s.seed, s.roles, s.agents, s.agent_seeds)
                                                                        for s in b]
    assert [s.seed for s in a] != [s.seed for s in c]


def test_schedule_seeds_follow_the_one_seed_scheme():
    # game of block b: derive_seed(seed, b); roles of block b: Rng(derive_seed(seed, b, 1));
    # agent of seat i in game g: derive_seed(seed, g, 2, i) (module text of grimoire.agents.arena)
    specs = schedule("zavandor", ["medium", "easy", "random"], 7, seed=23)
    pool = list(game_info("zavandor").arena.roles)
    for s in specs:
        block = s.index // 3
        assert s.seed == derive_seed(23, block)
        assert s.agent_seeds == [derive_seed(23, s.index, 2, i) for i in range(3)]
        rr, avail = Rng(derive_seed(23, block, 1)), pool[:]
        assert s.roles == [avail.pop(rr.below(len(avail))) for _ in range(3)]
    assert [s.agents for s in specs[:3]] == [["medium", "easy", "random"], ["easy", "random", "medium"],
                                            ["random", "medium", "easy"]]


def _with_arena(monkeypatch, game: str, hooks: ArenaHooks) -> None:
    monkeypatch.setitem(registry._GAMES, game, dataclasses.replace(game_info(game), arena=hooks))


def _seat_numbers(state) -> list[dict]:
    return [{"score_twice": 2 * sc, "seat": i} for i, sc in enumerate(state.scores())]


def test_roles_come_from_the_descriptor_hooks(monkeypatch):
    # a game whose descriptor declares a role option (here a pool borrowed for the test) is rotated
    # through that option; without the declaration nothing is rotated
    hooks = game_info("zavandor").arena
    assert hooks.role_option and len(hooks.roles) >= 2
    _with_arena(monkeypatch, "zavandor", ArenaHooks())
    assert all(s.roles is None and hooks.role_option not in s.options
               for s in schedule("zavandor", ["random", "random"], 4, seed=1))
    _with_arena(monkeypatch, "zavandor", ArenaHooks(role_option=hooks.role_option, roles=hooks.roles[:2]))
    specs = schedule("zavandor", ["random", "random"], 4, seed=1)
    assert all(sorted(s.roles) == sorted(hooks.roles[:2]) for s in specs)
    assert all(s.options[hooks.role_option] == s.roles for s in specs)


def test_seat_stats_are_recorded_when_declared(monkeypatch, tmp_path):
    _with_arena(monkeypatch, "zauberschmiede", ArenaHooks())
    plain = run_arena("zauberschmiede", ["greedy", "random"], 2, 5, {"max_rounds": 2})
    assert all("seat_stats" not in r for r in plain)
    assert all("seat_stat_means" not in a for a in summarize(plain)["agents"])
    _with_arena(monkeypatch, "zauberschmiede", ArenaHooks(seat_stats=_seat_numbers))
    results = run_arena("zauberschmiede", ["greedy", "random"], 2, 5, {"max_rounds": 2})
    for r in results:
        assert r["seat_stats"] == [{"score_twice": 2 * sc, "seat": i} for i, sc in enumerate(r["scores"])]
    # the seat stats do not change the games themselves
    strip = lambda rs: [{k: v for k, v in r.items() if k in ("seed", "agents", "scores", "winners")} for r in rs]  # noqa: E731
    assert strip(results) == strip(plain)
    by = {a["agent"]: a for a in summarize(results)["agents"]}
    greedy_scores = [r["scores"][r["agents"].index("greedy")] for r in results]
    assert by["greedy"]["seat_stat_means"]["score_twice"] == pytest.approx(2 * sum(greedy_scores) / 2)
    write_csv(str(tmp_path / "s.csv"), results)
    header, *rows = (tmp_path / "s.csv").read_text().splitlines()
    cols = header.split(",")
    assert cols[-2:] == ["seat_score_twice", "seat_seat"]
    for row in rows:
        cells = dict(zip(cols, row.split(","), strict=True))
        assert int(cells["seat_score_twice"]) == 2 * int(cells["score"])
        assert cells["seat_seat"] == cells["seat"]


def test_given_characters_are_not_rotated_and_games_without_roles_work():
    specs = schedule("zavandor", ["random", "random"], 4, seed=1, options={"characters": ["witch", "elf"]})
    assert all(s.roles is None and s.options["characters"] == ["witch", "elf"] for s in specs)
    zs = schedule("zauberschmiede", ["greedy", "random"], 4, seed=1)
    assert all(s.roles is None for s in zs)


# --- running ---------------------------------------------------------------------------------------------

def _strip_times(results):
    return [{k: v for k, v in r.items() if k not in ("think_seconds", "max_decision_seconds", "seconds")}
            for r in results]


def test_same_seed_same_results_in_one_or_two_processes():
    args = ("zavandor", ["medium", "naive", "random"], 6, 3, {"max_rounds": 3})
    one = run_arena(*args, workers=1)
    two = run_arena(*args, workers=2)
    again = run_arena(*args, workers=1)
    assert _strip_times(one) == _strip_times(two) == _strip_times(again)
    assert [r["index"] for r in two] == list(range(6))


def test_summary_pools_seats_and_counts_ties_as_shared_wins():
    results = run_arena("zavandor", ["naive", "naive", "random"], 6, 4, {"max_rounds": 4})
    s = summarize(results)
    by = {a["agent"]: a for a in s["agents"]}
    assert by["naive"]["seat_games"] == 12 and by["random"]["seat_games"] == 6
    total_wins = sum(a["wins"] for a in s["agents"])
    assert total_wins == pytest.approx(6.0)                              # one win per game, split on ties
    for a in s["agents"]:
        lo, hi = a["ci95"]
        assert lo <= a["win_rate"] <= hi
    assert s["game_means"]["rounds"] <= 4 and "sentinels" in s["game_means"]
    assert sum(r["seat_games"] for r in s["roles"].values()) == 18
    assert math.isclose(sum(r["win_rate"] * r["seat_games"] for r in s["roles"].values()), 6.0)


def test_csv_and_json_outputs(tmp_path):
    results = run_arena("zavandor", ["naive", "random"], 2, 8, {"max_rounds": 2})
    write_csv(str(tmp_path / "r.csv"), results)
    write_json(str(tmp_path / "r.json"), {"seed": 8}, results)
    lines = (tmp_path / "r.csv").read_text().splitlines()
    assert lines[0].startswith("game,seed,seat,agent,role,score,win_share")
    assert len(lines) == 1 + 2 * 2
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["config"] == {"seed": 8} and len(data["games"]) == 2 and data["summary"]["games"] == 2


def test_bad_arena_input_is_a_config_error():
    with pytest.raises(GameConfigError, match="unknown agent"):
        run_arena("zavandor", ["medium", "genius"], 2, 1)
    with pytest.raises(GameConfigError, match="players"):
        run_arena("zavandor", ["medium"], 2, 1)
    with pytest.raises(GameConfigError, match="unknown option"):
        run_arena("zavandor", ["random", "random"], 2, 1, {"no_such": 1})


# --- the command ------------------------------------------------------------------------------------------

def grimoire_cli(*args, timeout=240):
    return subprocess.run([sys.executable, "-m", "grimoire", *args], capture_output=True, text=True,
                          timeout=timeout, env={"COLUMNS": "160", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"})


def test_arena_command_smoke(tmp_path):
    csv_path, json_path = tmp_path / "a.csv", tmp_path / "a.json"
    r = grimoire_cli("arena", "zavandor", "--agents", "medium,random", "--games", "4", "--players", "2",
                     "--seed", "3", "--workers", "2", "--max-rounds", "3", "--csv", str(csv_path),
                     "--json", str(json_path))
    assert r.returncode == 0, r.stderr
    out = r.stdout
    for needle in ("win rate", "95% CI", "medium", "random", "mean game length", "win share by role"):
        assert needle in out, out
    assert csv_path.exists() and json.loads(json_path.read_text())["summary"]["games"] == 4


@pytest.mark.parametrize("args,needle", [
    (("arena", "zavandor", "--agents", "medium,genius", "--games", "2"), "unknown agent"),
    (("arena", "zavandor", "--agents", "medium,random", "--players", "3"), "one agent per seat"),
    (("arena", "chess", "--agents", "random,random"), "unknown game"),
    (("arena", "zavandor", "--agents", "random,random", "--games", "0"), "at least 1"),
])
def test_arena_command_errors_are_one_clear_line(args, needle):
    r = grimoire_cli(*args)
    assert r.returncode != 0
    assert needle in r.stderr and "Traceback" not in r.stderr
