"""scripts/zs_solo_runs.py refuses bad input in one line before any game is played."""

from __future__ import annotations

import pytest
from repo_scripts import load_script

RUNS = load_script("zs_solo_runs")


@pytest.mark.parametrize(("argv", "message"), [
    (["--agent", "medium", "--games", "0", "--json", "out.json"], "--games must be at least 1"),
    (["--agent", "medium", "--games", "1", "--json", "no/such/folder/out.json"], "--json: no such folder"),
])
def test_bad_input_is_one_line_before_any_game(argv, message, monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.argv", ["zs_solo_runs.py", *argv])
    with pytest.raises(SystemExit) as exit_:
        RUNS.main()
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []
