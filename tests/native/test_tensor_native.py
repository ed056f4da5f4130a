"""The core writes the observation tensor and the legal-id mask itself: bit for bit what the Python
engine's tensor (built from the observation dict) and its codec give, over many random positions."""

from __future__ import annotations

import numpy as np
import pytest

import grimoire
from grimoire.core.registry import game_info
from grimoire.core.rng import Rng
from grimoire.games.zavandor.native import _native, new_native

from .differential import options_for


def _compare(py, nat, seats) -> None:
    info = game_info("zavandor")
    spec = info.tensor_spec(py.num_players, py.options)
    buf = np.full(spec.size, np.nan, np.float32)
    for seat in seats:
        want = spec.encode(py.observation(seat))        # the reference: the dict, then the fill
        nat.observation_tensor_into(seat, buf)
        assert buf.tobytes() == want.tobytes(), f"seat {seat}: fields {_diff(spec, want, buf)}"
        assert nat.observation_tensor(seat).tobytes() == want.tobytes()
    mask = np.full(info.num_distinct_actions, 7, np.int8)
    nat.legal_mask_into(mask)
    ref = np.zeros(info.num_distinct_actions, np.int8)
    ref[info.codec.legal_ids(py)] = 1
    assert mask.tolist() == ref.tolist()
    assert nat.legal_action_ids() == py.legal_action_ids()


def _diff(spec, a, b) -> list[str]:
    return [f.name for f in spec.fields if not np.array_equal(a[spec.field_slice(f.name)], b[spec.field_slice(f.name)])]


@pytest.mark.parametrize("block", range(4))
def test_the_core_tensor_and_mask_equal_the_python_ones_over_random_games(block):
    rng = Rng(4242 + block)
    positions = 0
    for g in range(12):
        i = block * 12 + g
        players = 2 + i % 5
        opts = options_for(i, rng)
        opts["max_rounds"] = 1 + rng.below(6)
        seed = 1000 + i
        py = grimoire.new_game("zavandor", players, seed, **opts)
        nat = new_native(players, seed, **opts)
        seats = [None, *range(players)]
        n = 0
        while not py.is_terminal():
            if n % 3 == 0:
                _compare(py, nat, seats)
                positions += 1
            legal = py.legal_actions()
            a = legal[rng.below(len(legal))]
            py.apply(a)
            nat.apply(a)
            n += 1
        _compare(py, nat, seats)                          # the end: terminal flags, scores, no mask
    assert positions > 150


def test_the_tensor_size_is_the_spec_size_for_every_player_count():
    info = game_info("zavandor")
    for n in range(info.min_players, info.max_players + 1):
        assert _native.tensor_size(n) == info.tensor_spec(n, {}).size


def test_bad_buffers_and_seats_are_refused_with_one_line():
    nat = new_native(3, 1)
    with pytest.raises(ValueError, match="writable contiguous buffer"):
        nat.observation_tensor_into(0, np.zeros(10, np.float32))
    with pytest.raises(BufferError, match="not compatible with f32"):
        nat.observation_tensor_into(0, np.zeros(_native.tensor_size(3), np.float64))
    with pytest.raises(ValueError, match="no seat"):
        nat.observation_tensor_into(5, np.zeros(_native.tensor_size(3), np.float32))


def test_ids_decode_to_the_codec_actions():
    """Every masked id decodes in the core to the action the Python codec decodes it to."""
    rng = Rng(9)
    for seed in range(6):
        py = grimoire.new_game("zavandor", 3, seed, max_rounds=3)
        nat = new_native(3, seed, max_rounds=3)
        while not py.is_terminal():
            for i in py.legal_action_ids():
                code = nat._c.code_of_id(i)
                assert code is not None
                text = py.action_from_id(i).text
                if code >= _native.XBASE:          # a factored payment or discard step: not listed
                    assert code == _native.XBASE + i and nat.is_legal(text) and py.is_legal(text)
                    continue
                assert nat.legal_actions()[nat._c.legal().index(code)].text == text
            legal = py.legal_actions()
            a = legal[rng.below(len(legal))]
            py.apply(a)
            nat.apply(a)
