"""The engine a simulation plays on (``--engine python|native|auto``): the same rows on every engine,
recorded in the run's manifest and kept when the run is resumed."""

from __future__ import annotations

import dataclasses
import json

import pytest

from grimoire.core.errors import GameConfigError
from grimoire.core.registry import backends
from grimoire.sim import make_config, simulate
from grimoire.sim.config import resolve_engine

from .helpers import rows_of, small_config

NATIVE = "native" in backends("zavandor")
needs_native = pytest.mark.skipif(not NATIVE, reason="the native Zavandor core is not built here (needs cargo)")


@needs_native
@pytest.mark.parametrize("agents,rounds", [(["random"], 3), (["medium"], 2)])
def test_the_python_and_native_engines_give_identical_rows(tmp_path, agents, rounds):
    # the medium agent decides inside the core on a native state: its rows must not change either
    cfg = make_config("zavandor", 4, agents, 8, 5, {"max_rounds": rounds}, batch_size=4, engine="python")
    py = simulate(cfg, tmp_path / "python", workers=1)
    nat = simulate(dataclasses.replace(cfg, engine="native"), tmp_path / "native", workers=1)
    assert py.config.engine == "python" and nat.config.engine == "native"
    rows = rows_of(tmp_path / "python")
    assert len(rows) == 8 * 4 and len({r["score"] for r in rows}) > 1
    assert rows_of(tmp_path / "native") == rows


def test_the_engine_is_resolved_and_recorded_in_the_manifest(tmp_path):
    res = simulate(small_config(games=4, batch_size=4), tmp_path / "run", workers=1)   # engine "auto"
    want = "native" if NATIVE else "python"
    assert res.config.engine == want
    assert json.loads((tmp_path / "run" / "run.json").read_text())["engine"] == want


@needs_native
def test_a_resumed_run_keeps_its_engine(tmp_path):
    out = tmp_path / "run"
    cfg = dataclasses.replace(small_config(games=6, batch_size=3), engine="python")
    seen = []

    def stop(n):
        seen.append(n)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate(cfg, out, workers=1, on_batch=stop)
    # "auto" would choose native on a new run; the resumed run stays on the engine it started with
    res = simulate(dataclasses.replace(cfg, engine="auto"), out, workers=1)
    assert res.games_before == 3 and res.games_played == 3 and res.config.engine == "python"
    with pytest.raises(GameConfigError, match="plays on the python engine"):
        simulate(dataclasses.replace(cfg, engine="native"), out, workers=1)


def test_an_old_manifest_without_an_engine_resumes_on_python(tmp_path):
    out = tmp_path / "run"
    cfg = dataclasses.replace(small_config(games=3, batch_size=3), engine="python")
    simulate(cfg, out, workers=1)
    manifest = json.loads((out / "run.json").read_text())
    del manifest["engine"]
    (out / "run.json").write_text(json.dumps(manifest))
    res = simulate(dataclasses.replace(cfg, engine="auto"), out, workers=1)
    assert res.config.engine == "python" and res.games_before == 3


def test_unknown_and_unbuilt_engines_fail_with_one_clear_line(monkeypatch):
    with pytest.raises(GameConfigError, match="no 'cuda' engine; choose from python"):
        make_config("zavandor", 2, ["random"], 2, engine="cuda")
    with pytest.raises(GameConfigError, match="no 'native' engine"):
        make_config("zauberschmiede", 2, ["random"], 2, engine="native")      # a game without a native core
    assert resolve_engine("zauberschmiede", "auto") == "python"
    from grimoire.games.shuluri import native as shuluri_native
    assert resolve_engine("shuluri", "auto", ["random"]) == ("native" if shuluri_native.AVAILABLE else "python")
    assert resolve_engine("shuluri", "auto", ["random", "medium"]) == "python"   # an AI reading the Python view
    from grimoire.games.zavandor import native
    monkeypatch.setattr(native, "AVAILABLE", False)
    with pytest.raises(GameConfigError, match="native engine of The Scepter of Zavandor is not built here") as e:
        make_config("zavandor", 2, ["random"], 2, engine="native")
    assert "\n" not in str(e.value) and "--engine python" in str(e.value)
    assert resolve_engine("zavandor", "auto") == "python"
