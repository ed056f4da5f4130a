"""A resample for a seat keeps what that seat knows, on the move or not, in every game.

OpenSpiel's ``resample_from_infostate`` (the bridge calls the game's ``sample_hidden(seat, rng)``)
must give a state of the same information state for that seat: the same observation, information
state string and tensor, and visible history. Positions of seeded random games, every seat (the one
on the move and the others), several resamples each. For Zauberschmiede the resample also depends on
nothing the seat cannot see: resampling from another state of the same information state (an
earlier resample) with the same draws gives the same state.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import grimoire
from grimoire.core.rng import Rng

pytest.importorskip("pyspiel")
from grimoire.rl.openspiel_bridge import openspiel_game  # noqa: E402
from grimoire.rl.openspiel_observer import information_state_string, information_state_tensor  # noqa: E402

GAMES = ("zavandor", "shuluri", "zauberschmiede")


def _same_information_state(state, det, seat, where):
    assert det.observation(seat) == state.observation(seat), f"{where}: observation"
    assert det.visible_history(seat) == state.visible_history(seat), f"{where}: visible history"
    assert information_state_string(det, seat) == information_state_string(state, seat), f"{where}: string"
    assert np.array_equal(information_state_tensor(det, seat), information_state_tensor(state, seat)), \
        f"{where}: tensor"


def _players(game: str, r: random.Random) -> int:
    counts = [n for n in grimoire.game_info(game).player_counts if n > 1]
    return r.choice(counts[:4])


_NO_SHRINK = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow],
                  phases=[Phase.explicit, Phase.reuse, Phase.generate])   # no shrinking: a failure names its seed


def _keeps_the_information_state(game, seed):
    r = random.Random(seed)
    players = _players(game, r)
    state = grimoire.new_game(game, players, seed, max_rounds=5)
    checked = {"mover": 0, "other": 0}
    step = 0
    while not state.is_terminal() and step < 120:
        if step % 4 == 0:
            for seat in range(players):
                for k in range(2):
                    det = state.sample_hidden(seat, Rng(r.getrandbits(62)))
                    where = f"{game} seed {seed} step {step} seat {seat} resample {k}"
                    _same_information_state(state, det, seat, where)
                    checked["mover" if seat == state.current_player else "other"] += 1
                    if game == "zauberschmiede" and not state.is_terminal():
                        draw = r.getrandbits(62)
                        again = det.sample_hidden(seat, Rng(draw)).to_dict()
                        assert state.sample_hidden(seat, Rng(draw)).to_dict() == again, \
                            f"{where}: the resample depends on what the seat cannot see"
        legal = state.legal_actions()
        state.apply(legal[r.randrange(len(legal))])
        step += 1
    assert checked["mover"] and checked["other"]




# Zauberschmiede's resamples are the slowest (a resample replays the seat's round): one game by default,
# five with the slow tests
@pytest.mark.parametrize("game", ["zavandor", "shuluri", pytest.param("zauberschmiede", marks=pytest.mark.slow)])
@settings(max_examples=5, **_NO_SHRINK)
@given(seed=st.integers(0, 2**31))
def test_sample_hidden_keeps_the_information_state_of_every_seat(game, seed):
    _keeps_the_information_state(game, seed)


@settings(max_examples=1, **_NO_SHRINK)
@given(seed=st.integers(0, 2**31))
def test_sample_hidden_keeps_the_information_state_of_every_seat_short(seed):
    _keeps_the_information_state("zauberschmiede", seed)


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_resample_from_infostate_keeps_the_seat_s_information_state(game):
    r = random.Random(3)
    players = 3 if game != "shuluri" else 2
    g = openspiel_game(game, players, seed=5, max_rounds=4)
    s = g.new_initial_state()
    steps = 0
    while not s.is_terminal() and steps < 120:
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_action(outcomes[r.randrange(len(outcomes))][0])
            continue
        if steps % 6 == 0:
            for p in range(players):
                t = s.resample_from_infostate(p, r.random)
                assert t.information_state_string(p) == s.information_state_string(p), f"{game} step {steps} p{p}"
                assert np.array_equal(t.information_state_tensor(p), s.information_state_tensor(p))
                assert t.observation_string(p) == s.observation_string(p)
        legal = s.legal_actions()
        s.apply_action(legal[r.randrange(len(legal))])
        steps += 1
    assert steps > 10
