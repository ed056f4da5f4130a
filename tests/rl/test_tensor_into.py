"""``observation_tensor_into``: every game writes into a caller's buffer exactly the tensor its
observation dict gives (Zavandor and Zauberschmiede write it from the state, bit for bit)."""

from __future__ import annotations

import numpy as np
import pytest

import grimoire
from grimoire.core.registry import game_info
from grimoire.core.rng import Rng
from grimoire.rl import learnable_games


def _random_positions(game: str, players: int, seed: int, every: int, **options):
    rng = Rng(seed)
    s = grimoire.new_game(game, players, seed, **options)
    k = 0
    while True:
        if k % every == 0 or s.is_terminal():
            yield s
        if s.is_terminal():
            return
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
        k += 1


def _check(s) -> None:
    spec = game_info(s.game).tensor_spec(s.num_players, s.options)
    buf = np.full(spec.size, np.nan, np.float32)
    for seat in [None, *range(s.num_players)]:
        want = spec.encode(s.observation(seat))
        s.observation_tensor_into(seat, buf)
        bad = [f.name for f in spec.fields
               if buf[spec.field_slice(f.name)].tobytes() != want[spec.field_slice(f.name)].tobytes()]
        assert not bad, f"{s.game} seat {seat}: {bad}"
        assert s.observation_tensor(seat).tobytes() == want.tobytes()
    mask = np.full(game_info(s.game).num_distinct_actions, 5, np.int8)
    s.legal_mask_into(mask)
    assert mask.tolist() == s.legal_mask().tolist()


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_zavandor_writes_its_tensor_from_the_state_bit_for_bit(players):
    n = 0
    for seed in range(3):
        opts = {"max_rounds": 3, "strict_subphases": bool(seed & 1), "combine_with_auction": seed == 2,
                "characters": ["druid", *["random"] * (players - 1)] if seed == 1 else None}
        for s in _random_positions("zavandor", players, 100 * players + seed, 4, **opts):
            _check(s)
            n += 1
    assert n > 20


@pytest.mark.parametrize("players", [1, 2, 4])
def test_zauberschmiede_writes_its_tensor_from_the_state_bit_for_bit(players):
    n = 0
    for seed in range(3):
        opts = {"harmony_mode": "global"} if seed == 1 else {"dust_creator_metric": "unspent"} if seed == 2 else {}
        for s in _random_positions("zauberschmiede", players, 7 * players + seed, 3, **opts):
            _check(s)
            n += 1
    assert n > 15


@pytest.mark.parametrize("game", learnable_games())
def test_every_game_fills_a_buffer_with_its_tensor(game):
    info = game_info(game)
    players = info.default_players
    for s in _random_positions(game, players, 5, 7, **info.conformance_options):
        _check(s)
        if s.is_terminal() or s.history and len(s.history) > 30:
            break


def test_a_seat_outside_the_game_is_refused():
    for game in ("zavandor", "zauberschmiede"):
        s = grimoire.new_game(game, 2, 1)
        buf = np.zeros(game_info(game).tensor_spec(2, s.options).size, np.float32)
        with pytest.raises(ValueError, match="no seat"):
            s.observation_tensor_into(2, buf)
