"""scripts/zavandor_ladder_paired.py: two ladder runs on the same games, the first-named agent's win share
and margin in A minus in B, game by game, with a 95% interval."""

from __future__ import annotations

import json

from repo_scripts import load_script


def _run(path, games):
    path.write_text("".join(json.dumps(g) + "\n" for g in games), encoding="utf-8")
    return str(path)


def _game(index, scores, win_share):
    # two seats: the arena turns the agents one seat a game, so the first-named agent sits at (-index) % 2
    return {"index": index, "agents": ["x", "y"] if index % 2 == 0 else ["y", "x"], "scores": scores,
            "win_share": win_share}


def test_paired_difference_of_two_runs(tmp_path, capsys):
    lp = load_script("zavandor_ladder_paired")
    # run A: x wins by 10, loses by 5, wins by 5
    a = _run(tmp_path / "a.jsonl", [_game(0, [50, 40], [1, 0]), _game(1, [45, 40], [1, 0]), _game(2, [60, 55], [1, 0])])
    # run B: x loses by 10, wins by 5, wins by 10; and game 3 (lost by 1), which only B has
    b = _run(tmp_path / "b.jsonl", [_game(0, [40, 50], [0, 1]), _game(1, [40, 45], [0, 1]), _game(2, [60, 50], [1, 0]),
                                    _game(3, [2, 1], [1, 0])])
    assert lp.main([a, b]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("x: 66.7% [") and "over 3 games, mean margin +3.33" in out[0]
    assert out[1].startswith("x: 50.0% [") and "over 4 games, mean margin +1.00" in out[1]
    # win share: +1, -1, 0 -> mean 0, sd 1, half-width 1.96 / sqrt(3) = 1.132
    assert out[2] == "A - B on the same 3 games: +0.0 points [-113.2, +113.2]"
    # margin: +20, -10, -5 -> mean 1.67, sd 16.07, half-width 18.19
    assert out[3] == "margin A - B: +1.67 [-16.52, +19.85] (3 games with another margin)"


def test_wrong_number_of_files_is_a_usage_error(capsys):
    lp = load_script("zavandor_ladder_paired")
    assert lp.main(["only-one.jsonl"]) == 2
    assert "usage" in capsys.readouterr().err
