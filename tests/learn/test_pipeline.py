"""The training pipeline end to end on a tiny budget (NumPy trainer): it makes networks of the file
format, resumes an interrupted run to the same networks, is deterministic given its seed, and refuses
bad settings in one line before any work."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from grimoire.agents import net as netmod
from grimoire.core.errors import GameConfigError
from grimoire.learn import TrainConfig, run
from grimoire.learn.samples import read_shard


def tiny(out: Path, **kw) -> TrainConfig:
    base = dict(game="zauberschmiede", players=1, out=str(out), games=3, generations=2, seed=5, hidden=[16],
                simulations=4, gate_games=1, epochs=1, batch=64, chunk=1, command="test")
    return TrainConfig(**{**base, **kw})


def hashes(out: Path) -> dict[str, str]:
    found = {p.relative_to(out).as_posix(): netmod.load(p).meta["sha256"] for p in out.glob("**/*.npz")
             if not p.name.startswith("games-")}
    found.update({p.relative_to(out).as_posix(): str(read_shard(p).value.tolist()) for p in out.glob("gen-*/games-*")})
    return found


def test_a_tiny_run_makes_a_network_of_every_generation(tmp_path):
    best = run(tiny(tmp_path / "r"))
    net = netmod.load(best)
    assert net.meta["game"] == "zauberschmiede" and net.meta["players"] == 1
    assert net.meta["sha256"] == netmod.weights_hash(net)
    assert net.meta["command"] == "test" and net.meta["hidden"] == [16]
    assert net.meta["generation"] in (0, 1) and net.meta["positions"] > 0
    for g in (0, 1):
        d = tmp_path / "r" / f"gen-{g:03d}"
        assert len(list(d.glob("games-*.npz"))) == 3
        s = read_shard(d / "games-00000.npz")
        assert len(s) > 20 and np.all((s.value >= 0) & (s.value <= 1))
        # every policy target is a distribution over legal ids
        masks = s.masks(net.num_actions)
        targets = s.targets(net.num_actions)
        assert np.allclose(targets.sum(1), 1.0, atol=1e-5)
        assert not (targets[~masks] > 0).any()
        gate = json.loads((d / "gate.json").read_text())
        assert gate["generation"] == g and isinstance(gate["accepted"], bool)
    assert json.loads((tmp_path / "r" / "gen-001" / "gate.json").read_text())["games"] == 1
    # generation 0 imitates the teacher: its targets are one-hot, later ones are visit distributions
    g0 = read_shard(tmp_path / "r" / "gen-000" / "games-00000.npz")
    assert np.all(g0.pol_p[:, 0] == 1.0)
    g1 = read_shard(tmp_path / "r" / "gen-001" / "games-00000.npz")
    assert (g1.pol_p[:, 1] > 0).any()


class Stop(Exception):
    pass


def test_an_interrupted_run_resumes_to_the_same_networks(tmp_path):
    run(tiny(tmp_path / "whole"))
    calls = []

    def stop_in_generation_1(phase: str, generation: int, done: int, total: int) -> None:
        calls.append((phase, generation))
        if (phase, generation) == ("games", 1) and done == 1:
            raise Stop

    with pytest.raises(Stop):
        run(tiny(tmp_path / "cut"), progress=stop_in_generation_1)
    assert not (tmp_path / "cut" / "gen-001" / "net.npz").exists()
    # a SIGKILL in the middle of a write leaves a temporary file at most: it is never read
    (tmp_path / "cut" / "gen-001" / "games-00002.npz.tmp").write_bytes(b"half")
    run(tiny(tmp_path / "cut"))
    assert hashes(tmp_path / "cut") == hashes(tmp_path / "whole")


def test_the_seed_decides_the_run(tmp_path):
    a = run(tiny(tmp_path / "a", generations=1))
    b = run(tiny(tmp_path / "b", generations=1))
    c = run(tiny(tmp_path / "c", generations=1, seed=6))
    assert netmod.load(a).meta["sha256"] == netmod.load(b).meta["sha256"] != netmod.load(c).meta["sha256"]


def test_more_generations_extend_a_run(tmp_path):
    run(tiny(tmp_path / "r", generations=1))
    run(tiny(tmp_path / "r", generations=2))
    assert (tmp_path / "r" / "gen-001" / "net.npz").exists()


@pytest.mark.parametrize(("change", "message"), [
    ({"games": 0}, "--games must be at least 1"),
    ({"hidden": []}, "--hidden"),
    ({"teacher": "nobody"}, "unknown agent 'nobody'"),
    ({"players": 9}, "played by"),
    ({"trainer": "jax"}, "--trainer must be numpy or torch"),
    ({"backend": "cloud"}, "unknown backend"),
    ({"options": {"no_such_option": 1}}, "no_such_option"),
])
def test_bad_settings_are_refused_before_any_work(tmp_path, change, message):
    with pytest.raises(GameConfigError, match=message):
        run(tiny(tmp_path / "r", **change))
    assert not (tmp_path / "r").exists()


def test_out_must_be_a_run_folder(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(GameConfigError, match="is a file"):
        run(tiny(tmp_path / "file"))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("x")
    with pytest.raises(GameConfigError, match="something else"):
        run(tiny(tmp_path / "other"))
    run(tiny(tmp_path / "r", generations=1))
    with pytest.raises(GameConfigError, match=r"other settings \(epochs\)"):
        run(tiny(tmp_path / "r", generations=1, epochs=2))


@pytest.mark.slow
def test_a_two_player_game_trains_with_gate_games_for_each_seat(tmp_path):
    best = run(tiny(tmp_path / "r", game="shuluri", players=2, games=2, options={"max_rounds": 2}, hidden=[8],
                    simulations=2, gate_games=2))
    assert netmod.load(best).meta["players"] == 2
    gate = json.loads((tmp_path / "r" / "gen-001" / "gate.json").read_text())
    assert gate["games"] == 2 and 0.0 <= gate["candidate_share"] <= 1.0


def test_the_command_refuses_bad_input_in_one_line(tmp_path):
    import subprocess
    import sys
    (tmp_path / "file").write_text("x")
    for args, message in ((["--out", str(tmp_path / "file")], "is a file"),
                          (["--out", str(tmp_path / "r"), "--hidden", "a,b"], "--hidden takes whole numbers"),
                          (["--out", str(tmp_path / "r"), "--trainer", "jax"], "--trainer must be")):
        r = subprocess.run([sys.executable, "-m", "grimoire", "train", "zauberschmiede", *args], capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 2
        assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert not (tmp_path / "r").exists()
