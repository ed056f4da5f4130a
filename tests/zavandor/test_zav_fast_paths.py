"""The Python engine's fast RL paths against the plain ones, differentially over many random games:
the tensor written from the state (tables, one struct pack) against the observation dict's encoding,
the mask written from the listing against the sorted legal ids, ids decoded from the table against
the parser, and the check skipped for a just-listed action against the full check."""

from __future__ import annotations

import numpy as np
import pytest

import grimoire
from grimoire.core.action import Action
from grimoire.core.registry import game_info
from grimoire.core.rng import Rng
from grimoire.games.zavandor import actions as A
from grimoire.games.zavandor.codec import CODEC
from grimoire.games.zavandor.legal import check as full_check


def _positions(players: int, seed: int, **options):
    """Every position of a random game that also plays the unlisted factored steps (with ids)."""
    rng = Rng(seed)
    s = grimoire.new_game("zavandor", players, seed, **options)
    while True:
        yield s
        if s.is_terminal():
            return
        ids = s.legal_action_ids()
        s.apply(s.action_from_id(ids[rng.below(len(ids))]))


def _compare(s, spec, buf, wide, strided) -> None:
    for seat in [None, *range(s.num_players)]:
        want = spec.encode(s.observation(seat)).tobytes()
        s.observation_tensor_into(seat, buf)
        assert buf.tobytes() == want, f"seat {seat} after {s.history[-3:]}"
        s.observation_tensor_into(seat, wide)           # (not float32: numpy's conversion)
        assert wide.astype(np.float32).tobytes() == want
        s.observation_tensor_into(seat, strided)        # (not contiguous)
        assert strided.tobytes() == want
    if s.is_terminal():
        return
    n = game_info("zavandor").num_distinct_actions
    mask = np.full(n, 7, np.int8)
    s.legal_mask_into(mask)
    ids = s.legal_action_ids()
    assert np.flatnonzero(mask).tolist() == ids and set(mask.tolist()) <= {0, 1}
    assert ids == sorted(set(CODEC.legal_id_list(s)))
    for i in ids:
        assert s.action_from_id(i) is CODEC._decode_any(i, s)      # the table's action is the parser's


def _games(count: int, players: int, seed: int) -> int:
    spec = game_info("zavandor").tensor_spec(players, grimoire.new_game("zavandor", players, 0).options)
    buf = np.empty(spec.size, np.float32)
    wide = np.empty(spec.size, np.float64)
    strided = np.empty(2 * spec.size, np.float32)[::2]
    n = 0
    for g in range(count):
        opts = {"max_rounds": 4 + g % 5, "strict_subphases": g % 3 != 1, "combine_with_auction": g % 4 == 2}
        for s in _positions(players, seed + g, **opts):
            _compare(s, spec, buf, wide, strided)
            n += 1
    return n


@pytest.mark.parametrize("players", [2, 4, 6])
def test_fast_tensor_mask_and_ids_equal_the_plain_paths(players):
    assert _games(3, players, 500 * players) > 100


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_fast_paths_over_many_games(players):
    assert _games(25, players, 9000 + 100 * players) > 1000


def test_a_listed_action_is_the_one_the_full_check_accepts():
    """Every listed action passes the full check, a listing is forgotten after any action, and a
    clone or a loaded state starts without one."""
    for g in range(6):
        rng = Rng(g)
        s = grimoire.new_game("zavandor", 2 + g % 3, 40 + g, max_rounds=6)
        while not s.is_terminal():
            legal = s.legal_actions()
            assert s.listed is legal
            assert s.clone().listed is None
            saved = s.listed
            s.listed = None                         # the full check, as without a listing
            for a in legal:
                full_check(s, a)
            s.listed = saved
            s.apply(legal[rng.below(len(legal))])
            assert s.listed is None
    loaded = grimoire.load_game(s.to_dict())
    assert loaded.listed is None


def test_an_equal_but_other_action_object_is_checked_in_full():
    s = grimoire.new_game("zavandor", 2, 3)
    s.legal_actions()
    twin = Action(A.END.text, A.END.kind, A.END.args)     # equal by text, not the listed object
    s.apply(twin)
    assert s.history == ["end"]
