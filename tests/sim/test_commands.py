"""``grimoire simulate`` and ``grimoire report`` as real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest


def grimoire(*args, timeout=180):
    return subprocess.run([sys.executable, "-m", "grimoire", *args], capture_output=True, text=True, timeout=timeout,
                          env={"COLUMNS": "160", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"})


def test_simulate_then_report(tmp_path):
    run = tmp_path / "run"
    r = grimoire("simulate", "zavandor", "--players", "2", "--agents", "random", "--games", "6", "-o", "max_rounds=2",
                 "--batch-size", "2", "--workers", "2", "--out", str(run))
    assert r.returncode == 0, r.stderr
    assert "6 of 6" in r.stdout
    manifest = json.loads((run / "run.json").read_text())
    assert manifest["options"] == {"max_rounds": 2} and manifest["agents"] == ["random", "random"]
    assert manifest["engine"] in ("python", "native")             # "auto", resolved when the run started
    r = grimoire("simulate", "zavandor", "--players", "2", "--agents", "random", "--games", "6", "-o", "max_rounds=2",
                 "--batch-size", "2", "--out", str(run))
    assert r.returncode == 0 and "resuming" in r.stdout and "0 games in" in r.stdout, r.stdout + r.stderr
    r = grimoire("report", str(run), "--out", str(tmp_path / "rep"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "rep" / "index.html").read_text().count("<svg") >= 4
    r = grimoire("report", str(run), "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["runs"][0]["run"]["games"] == 6 and data["runs"][0]["par"] == 0.5


def test_clear_errors():
    r = grimoire("report", "/nonexistent-run")
    assert r.returncode != 0 and "not a simulation run" in r.stderr and "Traceback" not in r.stderr
    r = grimoire("simulate", "zavandor", "--agents", "nobody", "--out", "/tmp/never-made-run")
    assert r.returncode != 0 and "unknown agent" in r.stderr and "Traceback" not in r.stderr
    r = grimoire("simulate", "zavandor", "--agents", "random", "--backend", "spark", "--games", "1", "-o",
                 "max_rounds=1", "--out", "/tmp/never-made-run-2")
    assert r.returncode != 0 and "unknown backend" in r.stderr
    r = grimoire("simulate", "zavandor", "--agents", "random", "--engine", "cuda", "--games", "1", "--out",
                 "/tmp/never-made-run-3")
    assert r.returncode != 0 and "no 'cuda' engine" in r.stderr and "Traceback" not in r.stderr
    assert not os.path.exists("/tmp/never-made-run-3")
    assert not os.path.exists("/tmp/never-made-run-2")


def test_an_unreachable_ray_cluster_is_one_line(monkeypatch):
    """`--address` of a cluster that is not there: one line naming the address and what to do (it was a
    traceback). Ray's own failure is simulated: whether a Ray instance runs on the test machine varies."""
    from grimoire.core.errors import GameConfigError
    from grimoire.sim.backends import start_ray
    ray = pytest.importorskip("ray")

    def no_cluster(**_kw):
        raise ConnectionError("Could not find any running Ray instance.\nPlease specify the one to connect to")
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", no_cluster)
    with pytest.raises(GameConfigError, match=r"cannot connect to the Ray cluster at 'auto': Could not find any "
                       r"running Ray instance\. \(start one with `ray start --head`") as err:
        start_ray("auto", None)
    assert "\n" not in str(err.value)


def test_one_configuration_joins_an_existing_study_on_its_games(tmp_path):
    study = tmp_path / "study"
    common = ["--players", "2", "--games", "2", "-o", "max_rounds=1", "--batch-size", "2", "--workers", "1",
              "--engine", "python"]
    r = grimoire("simulate", "zavandor", "--agents", "random,easy", "--seed", "5", *common, "--out", str(study))
    assert r.returncode == 0, r.stderr
    r = grimoire("simulate", "zavandor", "--agents", "medium", "--seed", "5", *common, "--out", str(study))
    assert r.returncode == 0, r.stderr
    members = json.loads((study / "study.json").read_text())["members"]
    assert [m["dir"] for m in members] == ["medium", "random", "easy"]
    assert not (study / "run.json").exists() and (study / "medium" / "run.json").exists()
    from grimoire.sim import read_rows
    key = [(x["game"], x["seed"], x["seat"], x["role"]) for x in read_rows(study / "random").to_pylist()]
    assert [(x["game"], x["seed"], x["seat"], x["role"]) for x in read_rows(study / "medium").to_pylist()] == key
    r = grimoire("simulate", "zavandor", "--agents", "naive", "--seed", "6", *common, "--out", str(study))
    assert r.returncode != 0 and "seed 5" in r.stderr and "same game, --players and --seed" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and not (study / "naive").exists()
