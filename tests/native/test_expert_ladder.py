"""The expert's ladder script: a run resumed with ``--skip`` plays the schedule's remaining games exactly
as the whole run does (the same seeds, seats and characters), so a stopped run's ``--jsonl`` can be
completed and paired game by game."""

from __future__ import annotations

import json

import pytest
from repo_scripts import load_script

from grimoire.games.zavandor.native import _native


@pytest.mark.skipif(_native is None, reason="the native core is not built")
def test_a_skipped_run_plays_the_rest_of_the_schedule(tmp_path, capsys):
    ladder = load_script("zavandor_expert_ladder")
    args = ["--agents", "medium+easy", "--games", "4", "--seed", "7"]
    whole, rest = tmp_path / "whole.jsonl", tmp_path / "rest.jsonl"
    assert ladder.main([*args, "--jsonl", str(whole)]) == 0
    assert ladder.main([*args, "--skip", "2", "--jsonl", str(rest)]) == 0
    a = [json.loads(x) for x in whole.read_text().splitlines()]
    b = [json.loads(x) for x in rest.read_text().splitlines()]
    assert [g["index"] for g in b] == [2, 3]
    for g, h in zip(a[2:], b, strict=True):
        assert (g["seed"], g["agents"], g["roles"], g["scores"]) == (h["seed"], h["agents"], h["roles"], h["scores"])
    with pytest.raises(SystemExit):
        ladder.main([*args, "--skip", "4"])
    assert "--skip" in capsys.readouterr().err


@pytest.mark.skipif(_native is None, reason="the native core is not built")
def test_the_trace_puts_medium_s_choice_beside_each_decision(tmp_path, capsys):
    trace = load_script("zavandor_expert_trace")
    out = tmp_path / "t.jsonl"
    assert trace.main(["--agent", "expert:time=0,iterations=20", "--games", "2", "--seed", "5",
                       "--max-rounds", "5", "--out", str(out)]) == 0
    games = [json.loads(x) for x in out.read_text().splitlines()]
    assert [g["seat"] for g in games] == [0, 1]           # the traced level rotates through the seats
    kinds = {r["kind"] for g in games for r in g["decisions"]}
    assert {"turn", "bid"} <= kinds
    assert any(r["searched"] for g in games for r in g["decisions"])
    assert all(r["action"] and r["medium"] for g in games for r in g["decisions"])
    text = capsys.readouterr().out
    assert "per game" in text and ("won:" in text or "lost:" in text)


@pytest.mark.skipif(_native is None, reason="the native core is not built")
def test_role_keeps_the_games_where_the_first_agent_plays_that_character(tmp_path, capsys):
    ladder = load_script("zavandor_expert_ladder")
    args = ["--agents", "medium+easy", "--games", "12", "--seed", "7", "--engine", "native"]
    whole, kobold = tmp_path / "whole.jsonl", tmp_path / "kobold.jsonl"
    assert ladder.main([*args, "--jsonl", str(whole)]) == 0
    capsys.readouterr()
    assert ladder.main([*args, "--role", "kobold", "--jsonl", str(kobold)]) == 0
    progress = capsys.readouterr().out.split("\r")[-1]
    a = [json.loads(x) for x in whole.read_text().splitlines()]
    b = [json.loads(x) for x in kobold.read_text().splitlines()]
    # where the first agent ("medium") sat with the kobold, by reading the whole run's games
    expected = [g["index"] for g in a if g["roles"][g["agents"].index("medium")] == "kobold"]
    assert expected and len(expected) < len(a)
    assert [g["index"] for g in b] == expected
    assert progress.startswith(f"{len(expected)}/{len(expected)} games")      # the counter counts the kept games
    for g in b:
        assert g["scores"] == a[g["index"]]["scores"]
    with pytest.raises(SystemExit):
        ladder.main([*args, "--role", "goblin"])
    assert "--role goblin" in capsys.readouterr().err
