"""The simulation runner: the rows it stores, determinism across backends, worker counts and batch
sizes, resuming an interrupted run."""

from __future__ import annotations

import dataclasses
import os

import pytest

from grimoire.core.errors import GameConfigError
from grimoire.sim import make_config, read_rows, simulate
from grimoire.sim.store import finished_batches, parts

from .helpers import rows_of, small_config


def test_one_row_per_game_and_seat_with_the_games_statistics(tmp_path):
    cfg = small_config(games=8)
    res = simulate(cfg, tmp_path / "run", workers=1)
    assert res.games_played == 8 and res.games_before == 0
    t = read_rows(tmp_path / "run")
    assert t.num_rows == 8 * 4
    rows = t.to_pylist()
    assert [(r["game"], r["seat"]) for r in rows] == [(g, s) for g in range(8) for s in range(4)]
    for g in range(8):
        game = rows[4 * g:4 * g + 4]
        assert len({r["seed"] for r in game}) == 1
        assert sorted(r["turn_position"] for r in game) == [0, 1, 2, 3]
        assert abs(sum(r["win_share"] for r in game) - 1.0) < 1e-9     # shares of the win add up to one
        winners = [r for r in game if r["winner"]]
        assert winners and all(r["rank"] == 1 for r in winners)
        best_loser = max((r["score"] for r in game if not r["winner"]), default=None)
        if best_loser is not None:
            assert all(r["rank"] > 1 for r in game if not r["winner"])
        assert len({r["role"] for r in game}) == 4                     # four different characters
        assert all(r["rounds"] == 3 for r in game)                     # ended by max_rounds=3
    # the game's own statistics (ArenaHooks): per game and per seat, items included
    cols = t.column_names
    assert "stat_sentinels" in cols and "seat_vp" in cols
    assert "seat_artifact_cloak" in cols and "seat_sentinel_owl" in cols and "seat_track_fire" in cols
    for r in rows:
        assert r["score"] == r["seat_vp"]


def test_roles_rotate_through_every_seat_of_a_block(tmp_path):
    simulate(small_config(games=8), tmp_path / "run", workers=1)
    rows = rows_of(tmp_path / "run")
    for block in range(2):
        games = [[r for r in rows if r["game"] == g] for g in range(4 * block, 4 * block + 4)]
        assert len({g[0]["seed"] for g in games}) == 1                 # one deal per block
        roles = {g[0]["role"] for g in games}
        assert len(roles) == 4                                         # every role of the block ...
        for role in {r["role"] for r in games[0]}:
            seats = sorted(r["seat"] for g in games for r in g if r["role"] == role)
            assert seats == [0, 1, 2, 3]                               # ... plays every seat once


def test_same_rows_for_any_worker_count_and_batch_size(tmp_path):
    cfg = small_config(games=12, batch_size=3)
    simulate(cfg, tmp_path / "w1", workers=1)
    simulate(cfg, tmp_path / "w2", workers=2)
    simulate(dataclasses.replace(cfg, batch_size=5), tmp_path / "b5", workers=2)
    base = rows_of(tmp_path / "w1")
    assert rows_of(tmp_path / "w2") == base
    assert rows_of(tmp_path / "b5") == base
    other = small_config(games=12, batch_size=3, seed=8)
    simulate(other, tmp_path / "s8", workers=1)
    assert rows_of(tmp_path / "s8") != base


def test_an_interrupted_run_resumes_where_it_stopped(tmp_path):
    cfg = small_config(games=15, batch_size=3)
    out = tmp_path / "run"
    seen = []

    def stop_after_two(n):
        seen.append(n)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate(cfg, out, workers=1, on_batch=stop_after_two)
    assert finished_batches(out) == {0, 1}                              # what was finished was kept
    assert len(read_rows(out)) == 6 * 4
    res = simulate(cfg, out, workers=2)
    assert res.games_before == 6 and res.games_played == 9
    assert finished_batches(out) == set(range(5))
    simulate(cfg, tmp_path / "whole", workers=1)
    assert rows_of(out) == rows_of(tmp_path / "whole")
    again = simulate(cfg, out, workers=1)                              # nothing left to do
    assert again.games_played == 0 and again.games_before == 15
    assert len(parts(out)) == 2


def test_a_run_directory_holds_one_configuration(tmp_path):
    out = tmp_path / "run"
    simulate(small_config(games=3), out, workers=1)
    with pytest.raises(GameConfigError, match="seed"):
        simulate(small_config(games=3, seed=99), out, workers=1)
    with pytest.raises(GameConfigError, match="games"):
        simulate(small_config(games=2), out, workers=1)


def test_bad_configurations_fail_with_one_clear_line():
    with pytest.raises(GameConfigError, match="agents for"):
        make_config("zavandor", 4, ["random", "random"], 10)
    with pytest.raises(GameConfigError, match="unknown agent"):
        make_config("zavandor", 4, ["nobody"], 10)
    with pytest.raises(GameConfigError):
        make_config("zavandor", 4, ["random"], 10, options={"no_such_option": 1})
    with pytest.raises(GameConfigError, match="human"):
        make_config("zavandor", 2, ["human"], 10)
    with pytest.raises(GameConfigError, match="at least one game"):
        make_config("zavandor", 2, ["random"], 0)


@pytest.mark.parametrize("game,players,agents", [("zauberschmiede", 1, ["greedy"]), ("shuluri", 2, ["random"])])
def test_every_game_runs_through_its_descriptor(tmp_path, game, players, agents):
    cfg = make_config(game, players, agents, 2, 3, {"max_rounds": 2}, batch_size=1)
    simulate(cfg, tmp_path / game, workers=1)
    rows = rows_of(tmp_path / game)
    assert len(rows) == 2 * players
    assert any(k.startswith("seat_") for k in rows[0]) and any(k.startswith("stat_") for k in rows[0])


def ray_skip_reason() -> str | None:
    from grimoire.sim.backends import ray_available
    why = ray_available()
    if why:
        return why
    if os.environ.get("GRIMOIRE_TEST_NO_RAY") == "1":
        return "GRIMOIRE_TEST_NO_RAY=1"
    return None


@pytest.fixture
def local_ray():
    """A small local Ray instance (2 CPUs, no dashboard, a 100 MB object store), started the way the
    backend starts it. Ray gives its node 30 s to come up; on an overloaded machine it may not: the
    test then skips with that reason (tried twice)."""
    why = ray_skip_reason()
    if why:
        pytest.skip(why)
    import ray

    from grimoire.sim.backends import start_ray
    for attempt in (1, 2):
        try:
            start_ray(None, 2)
            break
        except Exception as e:          # Ray raises a plain Exception when its node times out
            if "timed out during startup" not in str(e):
                raise
            ray.shutdown()
            if attempt == 2:
                pytest.skip(f"Ray's node did not start within Ray's 30 s limit (load average "
                            f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    yield ray
    ray.shutdown()


def test_ray_gives_the_same_rows_as_the_local_backend(tmp_path, local_ray):
    from grimoire.sim.store import read_timings
    cfg = small_config(games=12, batch_size=3)
    simulate(cfg, tmp_path / "local", workers=1)
    res = simulate(cfg, tmp_path / "ray", backend="ray", workers=2)
    assert res.games_played == 12
    assert rows_of(tmp_path / "ray") == rows_of(tmp_path / "local")
    timings = read_timings(tmp_path / "ray")
    assert {t["backend"] for t in timings} == {"ray"} and len(timings) == 4
