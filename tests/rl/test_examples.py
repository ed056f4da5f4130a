"""The examples run (briefly, on the toy game)."""

from __future__ import annotations

import pytest
from repo_scripts import load_example


def test_masked_random_policy_through_pettingzoo(toy, capsys):
    results = load_example("pettingzoo_random").main(["--game", "rltoy", "--players", "3", "--episodes", "4",
                                                      "--max-rounds", "2"])
    assert len(results) == 4
    for totals in results:              # every game ends with the win shared out
        assert sum(totals.values()) == pytest.approx(1.0)
    assert "episode 3:" in capsys.readouterr().out


@pytest.mark.parametrize("bot", ["ismcts", "mcts"])
def test_openspiel_search_bot_through_the_adapter(toy, bot, capsys):
    results = load_example("openspiel_ismcts").main(["--game", "rltoy", "--players", "2", "--games", "3",
                                                     "--simulations", "20", "--bot", bot, "--max-rounds", "2"])
    assert len(results) == 3 and all(sum(r) == pytest.approx(1.0) for r in results)
    assert f"seat 0 ({bot}) mean return" in capsys.readouterr().out


@pytest.mark.parametrize("game", ["rltoy", "zavandor"])
def test_masked_ppo_on_the_vector_env_runs_and_plots(toy, game, tmp_path, capsys):
    """A tiny budget: the loop, the masked sampling, the update and the plot work (learning itself is
    shown by the curve in docs/screenshots, not asserted here)."""
    out = tmp_path / "curve.png"
    curve = load_example("ppo_vector").main(["--game", game, "--players", "2", "--envs", "8", "--steps", "24",
                                             "--updates", "2", "--max-rounds", "2", "--minibatch", "64",
                                             "--plot", str(out)])
    assert len(curve) == 2
    finished = [c for c in curve if c == c]               # (NaN: no episode ended in that update)
    assert finished and all(0.0 <= c <= 1.0 for c in finished)
    assert out.stat().st_size > 1000
    assert "update   2:" in capsys.readouterr().out
