"""scripts/zs_solo_runs.py and scripts/zs_foresight.py refuse bad input in one line before any game is played."""

from __future__ import annotations

import pytest
from repo_scripts import load_script

GAMES_0 = ["--games", "0", "--json", "out.json"]
NO_FOLDER = ["--games", "1", "--json", "no/such/folder/out.json"]


@pytest.mark.parametrize(("script", "argv", "message"), [
    ("zs_solo_runs", ["--agent", "medium", *GAMES_0], "--games must be at least 1"),
    ("zs_solo_runs", ["--agent", "medium", *NO_FOLDER], "--json: no such folder"),
    ("zs_foresight", GAMES_0, "--games must be at least 1"),
    ("zs_foresight", NO_FOLDER, "--json: no such folder"),
])
def test_bad_input_is_one_line_before_any_game(script, argv, message, monkeypatch, tmp_path, capsys):
    module = load_script(script)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.argv", [f"{script}.py", *argv])
    with pytest.raises(SystemExit) as exit_:
        module.main()
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []
