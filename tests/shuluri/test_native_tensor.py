"""The native core's observation tensor and legal mask (native/src/tensor.rs, py.rs) against the Python
engine's (tensor_into.py, legal.py), byte for byte: random games of 2 and 4 players (both four-player
modes, random optional rules) played on both engines side by side, and the crate's fixture positions
(crafted ones among them: zombies and their orders, areas, cages, finished games)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import grimoire
from grimoire.core.rng import Rng
from grimoire.games.shuluri import native

from .native_differential import options_for

pytestmark = pytest.mark.skipif(not native.AVAILABLE, reason="the native Shuluri Viadal core is not built")

FIXTURES = Path(native.__file__).parent / "native" / "tests" / "data"


def _same_encoding(py, nat, seats, where: str) -> int:
    """The tensors of ``seats`` and the mask are byte-identical; returns the number of tensors compared."""
    for seat in seats:
        want = py.observation_tensor(seat)
        got = nat.observation_tensor(seat)
        assert got.dtype == np.float32 and got.shape == want.shape, where
        if got.tobytes() != want.tobytes():
            i = int(np.flatnonzero(got != want)[0])
            raise AssertionError(f"{where}, seat {seat}: the tensors differ first at {i}: {got[i]} != {want[i]}")
    assert nat.legal_mask().tobytes() == py.legal_mask().tobytes(), f"{where}: the masks differ"
    return len(seats)


def _play_side_by_side(players: int, seed: int, options: dict, every: int) -> int:
    """A random game on both engines; the mover's tensor after every action, every seat's and the
    spectator's after every ``every``-th and at the end. Returns the number of tensors compared."""
    py = grimoire.new_game("shuluri", players, seed, **options)
    nat = grimoire.new_game("shuluri", players, seed, backend="native", **options)
    pick = Rng(seed ^ 0x7E45)
    everyone = [None, *range(players)]
    n = k = 0
    while not py.is_terminal():
        where = f"seed {seed}, {players} players, options {options}, after {k} actions"
        n += _same_encoding(py, nat, everyone if k % every == 0 else [py.current_player], where)
        legal = py.legal_actions()
        a = legal[pick.below(len(legal))]
        py.apply(a)
        nat.apply(a)
        k += 1
    n += _same_encoding(py, nat, everyone, f"seed {seed}, {players} players, the end")
    assert nat.is_terminal() and k > 50
    return n


def _cases(games: int, first_seed: int) -> list[tuple[int, int, dict]]:
    out = []
    for g in range(games):
        players = 2 if g % 2 == 0 else 4
        seed = first_seed + g
        out.append((players, seed, options_for(players, Rng(seed))))
    return out


@pytest.mark.parametrize("players, seed, options", _cases(4, 11))
def test_random_games_encode_alike(players, seed, options):
    assert _play_side_by_side(players, seed, {**options, "max_rounds": 3}, every=7) > 100


@pytest.mark.slow
@pytest.mark.parametrize("players, seed, options", _cases(16, 100))
def test_long_random_games_encode_alike(players, seed, options):
    assert _play_side_by_side(players, seed, {**options, "max_rounds": 12}, every=3) > 100


@pytest.mark.parametrize("fixture", ["states.json", "legal.json"])
def test_fixture_positions_encode_alike(fixture):
    """Every position of the crate's fixtures (random and crafted: zombies with orders, areas, cages,
    chain leaps, finished games), for every seat and the spectator."""
    n = 0
    for i, case in enumerate(json.loads((FIXTURES / fixture).read_text(encoding="utf-8"))["states"]):
        py = grimoire.load_game(case["state"])
        nat = grimoire.load_game(case["state"], backend="native")
        n += _same_encoding(py, nat, [None, *range(py.num_players)], f"{fixture} position {i}")
    assert n > 200


def test_the_native_tensor_refuses_a_wrong_buffer_or_seat():
    s = grimoire.new_game("shuluri", 2, 1, backend="native")
    n = s.observation_tensor(0).size
    assert n == native._native.tensor_size(2) == grimoire.new_game("shuluri", 2, 1).observation_tensor(0).size
    for bad in (np.zeros(n, np.float64), np.zeros(n - 1, np.float32), [0.0] * n):
        with pytest.raises(ValueError, match="float32 array"):
            s.observation_tensor_into(0, bad)
    for seat in (2, -1, True):
        with pytest.raises(ValueError, match="no seat"):
            s.observation_tensor(seat)
