"""The toy game the adapter tests use is itself a conforming game (the shared conformance suite)."""

from __future__ import annotations

import pytest

from grimoire.core import conformance as cf


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_toy_game_passes_the_conformance_suite(toy, players):
    for seed in range(3):
        cf.random_playthrough("rltoy", players, seed, {"max_rounds": 3}, deep_every=1, probe_every=2)
        cf.random_playthrough("rltoy", players, seed, {"handicap": [1] * players}, deep_every=3)
