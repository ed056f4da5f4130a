"""Small, fast simulation configurations for the tests (random agents, a few rounds)."""

from __future__ import annotations

from grimoire.sim import make_config


def small_config(games: int = 12, batch_size: int = 3, seed: int = 7, players: int = 4):
    """Zavandor with random agents ended after round 3: characters rotate, games take milliseconds."""
    return make_config("zavandor", players, ["random"], games, seed, {"max_rounds": 3}, batch_size=batch_size)


def rows_of(run) -> list[dict]:
    from grimoire.sim import read_rows
    return read_rows(run).to_pylist()
