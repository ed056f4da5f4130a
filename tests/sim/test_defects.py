"""The defects of issue 23 (item 5), each set up as a user met it."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
import uuid

import pytest

from grimoire.core.errors import GameConfigError
from grimoire.sim import make_config, simulate

from .test_commands import grimoire


def test_simulate_into_an_existing_file_is_one_line(tmp_path):
    f = tmp_path / "results.parquet"
    f.write_text("not a directory")
    r = grimoire("simulate", "zavandor", "--agents", "random", "--games", "1", "-o", "max_rounds=1", "--out", str(f))
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert "is a file" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert f.read_text() == "not a directory"


def test_an_unknown_backend_fails_before_any_progress_or_directory(tmp_path):
    out = tmp_path / "never"
    r = grimoire("simulate", "zavandor", "--agents", "random", "--backend", "foo", "--games", "1", "--out", str(out))
    assert r.returncode != 0 and "unknown backend 'foo'" in r.stderr
    assert r.stdout == "" and not out.exists()          # no progress bar was drawn, nothing was made


def test_an_address_where_nothing_listens_fails_within_seconds():
    from grimoire.sim.backends import probe_address
    t0 = time.monotonic()
    with pytest.raises(GameConfigError, match="cannot connect to the Ray cluster at '127.0.0.1:1'") as e:
        probe_address("127.0.0.1:1")
    assert time.monotonic() - t0 < 10 and "\n" not in str(e.value)
    with pytest.raises(GameConfigError, match="ray://127.0.0.1:1"):
        probe_address("ray://127.0.0.1:1")
    probe_address("auto")                                # left to Ray: the running cluster of this machine


def test_a_failed_start_leaves_no_run_behind_and_report_says_why(tmp_path, monkeypatch):
    from grimoire.sim import backends

    def refuse(*_a, **_k):
        raise GameConfigError("cannot connect to the Ray cluster at '127.0.0.1:1': refused")
    monkeypatch.setattr(backends, "start_ray", refuse)
    cfg = make_config("zavandor", 2, ["random"], 2, 1, {"max_rounds": 1}, batch_size=2, engine="python")
    out = tmp_path / "run"
    with pytest.raises(GameConfigError, match="cannot connect"):
        simulate(cfg, out, "ray", address="127.0.0.1:1")
    assert not out.exists()                              # was: a run.json without rows that report rejected
    # a run stopped before its first batch (killed) still gets a clear word from the report
    out.mkdir()
    from grimoire.sim.config import write_manifest
    write_manifest(out, cfg)
    r = grimoire("report", str(out), "--format", "json")
    assert r.returncode != 0 and "no finished games yet" in r.stderr and "Traceback" not in r.stderr


def test_the_watchdog_ends_a_dead_drivers_ray_processes(tmp_path):
    """Stand-ins for Ray's node processes carry the session name on their command line, as Ray's do;
    the driver is killed with SIGKILL and the watchdog must end them within seconds."""
    from grimoire.sim import watchdog
    session = f"session_test_{uuid.uuid4().hex[:8]}"
    driver = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    nodes = [subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", f"--session-name={session}"])
             for _ in range(2)]
    dog = watchdog.start(driver.pid, session)
    assert dog is not None
    try:
        time.sleep(1.5)
        assert all(n.poll() is None for n in nodes)      # the driver lives: nothing is touched
        driver.send_signal(signal.SIGKILL)
        driver.wait()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(n.poll() is None for n in nodes):
            time.sleep(0.2)
        assert all(n.poll() is not None for n in nodes)
        assert dog.wait(timeout=30) == 0
    finally:
        for p in (driver, *nodes, dog):
            if p.poll() is None:
                p.kill()


def test_the_progress_line_fits_80_columns():
    from rich.console import Console

    from grimoire.cli.i18n import Translator
    from grimoire.cli.simulate import progress_bar, short
    console = Console(file=io.StringIO(), width=80, force_terminal=True)
    progress = progress_bar(console, Translator("en"))
    task = progress.add_task(short("zavandor 4p hard-iterations-100-time-0 (native)"), total=1_000_000)
    progress.update(task, completed=654_321, before=0, t0=time.perf_counter() - 3000)
    lines = console.render_lines(progress.get_renderable(), console.options, pad=False)
    text = ["".join(seg.text for seg in line).rstrip() for line in lines]
    assert len([t for t in text if t]) == 1, text        # one line, no wrap
    assert len(text[0]) <= 80 and "654321/1000000" in text[0] and "/s ETA" in text[0]


def test_legends_do_not_cover_the_bars():
    from grimoire.sim.report import plots
    rows = [{"key": k, "rate": r, "ci95": [r - 0.02, r + 0.02], "score": {"mean": 1, "ci95": [0, 2]}}
            for k, r in (("elf", 0.9), ("witch", 0.85), ("mage", 0.95))]
    fig = plots.rate_figure([("medium", rows), ("easy", rows)], "role", "win rate", 0.25)
    fig.canvas.draw()
    ax = fig.axes[0]
    legend = ax.get_legend().get_window_extent()
    bars = [p.get_window_extent() for p in ax.patches]
    assert bars and not any(legend.overlaps(b) for b in bars)
    plots.plt.close(fig)


def test_only_the_flagged_rate_is_red_not_the_mean_score():
    from grimoire.sim.report.html import table
    html = table(["role", "seat-games", "win rate", "95% CI", "mean score", "95% CI"],
                 [["elf", "100", "38.1%", "37.0–39.2%", "48.0", "47.8–48.1"]], {0})
    cells = html.split("<td")[1:]
    assert [('class="sig"' in c) for c in cells] == [False, False, True, True, False, False]


def test_extending_a_finished_run_appends_games(tmp_path):
    from grimoire.sim import read_rows
    out = tmp_path / "run"
    cfg = make_config("zavandor", 2, ["random"], 5, 3, {"max_rounds": 1}, batch_size=2, engine="python")
    simulate(cfg, out, workers=1)
    simulate(make_config("zavandor", 2, ["random"], 9, 3, {"max_rounds": 1}, batch_size=2, engine="python"), out,
             workers=1)
    rows = read_rows(out).to_pylist()
    assert sorted({r["game"] for r in rows}) == list(range(9)) and len(rows) == 18
    fresh = tmp_path / "fresh"
    simulate(make_config("zavandor", 2, ["random"], 9, 3, {"max_rounds": 1}, batch_size=2, engine="python"), fresh,
             workers=1)
    assert rows == read_rows(fresh).to_pylist()          # the same rows as a run made that long at once
    with pytest.raises(GameConfigError, match="not shorten it"):
        simulate(make_config("zavandor", 2, ["random"], 4, 3, {"max_rounds": 1}, batch_size=2, engine="python"), out)
    assert os.path.exists(out / "run.json")
