"""Random games to the end: a short run by default, 1000 games behind the ``slow`` marker."""

from __future__ import annotations

import pytest

import grimoire
from grimoire.core.rng import Rng
from grimoire.games.shuluri.info import max_game_length

VARIANTS = [{}, {"spells_per_step": "unlimited", "enter_forces_attack": True},
            {"traps_assigned_to_character": False, "kitoro_forras_kind": "ranged"},
            {"gladiator_type": "sword_artist", "push_compare": "d10", "heaps_per_gladiator": 2},
            {"optional_poison_vial": True, "optional_magic_potion": True, "weapon_reveal": "first_exchange"}]


def _play(players: int, seed: int, rounds: int, options: dict) -> grimoire.GameState:
    s = grimoire.new_game("shuluri", players, seed, max_rounds=rounds, **options)
    r = Rng(seed ^ 0x5EED)
    bound = max_game_length(players, s.options)
    n = 0
    while not s.is_terminal():
        acts = s.legal_actions()
        assert acts and s.current_player is not None
        s.apply(acts[r.below(len(acts))])
        n += 1
        assert n <= bound
    assert s.winners() and s.round <= rounds
    return s


def test_random_games_end():
    ends = set()
    for seed in range(100):
        s = _play(2 if seed % 5 else 4, seed, 6, VARIANTS[seed % len(VARIANTS)])
        ends.add(s.end_reason)
    assert "round limit" in ends


@pytest.mark.slow
def test_soak_a_thousand_games():
    decided = 0
    for seed in range(1000):
        players = 4 if seed % 4 == 0 else 2
        s = _play(players, 10_000 + seed, 30, VARIANTS[seed % len(VARIANTS)])
        decided += s.end_reason != "round limit"
    assert decided >= 0
