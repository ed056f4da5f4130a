"""A designer's workflow: the rule options of a game, CSV and data-frame access to the rows."""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from grimoire.cli.main import _register_commands, app
from grimoire.sim import make_config, read_rows, simulate


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("wf") / "run"
    simulate(make_config("zavandor", 2, ["random"], 4, 5, {"max_rounds": 1}, batch_size=2, engine="python"), out,
             workers=1)
    return out


def invoke(*args: str):
    _register_commands()
    return CliRunner().invoke(app, list(args))


def test_options_lists_every_rule_option_with_default_and_help():
    r = invoke("options", "zavandor", "--format", "json")
    assert r.exit_code == 0, r.output
    opts = {o["name"]: o for o in json.loads(r.output)}
    assert opts["combine_with_auction"]["default"] == "false" and "FAQ variant" in opts["combine_with_auction"]["help"]
    assert opts["max_rounds"]["default"] == "none"
    from grimoire.core.registry import game_info
    assert set(opts) == set(game_info("zavandor").options.model_fields)      # from the descriptor, all of them
    r = invoke("options", "zauberschmiede")
    assert r.exit_code == 0 and "max_rounds" in r.output


def test_report_exports_the_rows_as_csv(run, tmp_path):
    r = invoke("report", str(run), "--format", "csv")
    assert r.exit_code == 0, r.output
    lines = list(csv.DictReader(io.StringIO(r.output)))
    assert len(lines) == read_rows(run).num_rows == 8
    assert {"game", "seat", "role", "score", "win_share"} <= set(lines[0])
    r = invoke("report", str(run), "--format", "csv", "--out", str(tmp_path / "csv"))
    assert r.exit_code == 0 and (tmp_path / "csv" / "run.csv").read_text().count("\n") == 9


def test_rows_read_into_pandas_with_the_analysis_extra(run):
    pd = pytest.importorskip("pandas")
    df = read_rows(run).to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 8
    assert df.groupby("role")["win_share"].count().sum() == 8
