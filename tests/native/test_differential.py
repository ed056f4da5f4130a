"""Differential tests: the native engine and the Python reference play the same games identically.

Random games over 2-6 players and every combination of the six rule flags (plus small turn action
limits): the same legal actions in the same order and the same state after every action. The
default run plays 2,000 short games (one or two rounds: the first rounds hold every kind of decision,
and the run stays a few seconds); the slow run (``pytest -m slow``) 100,000 games of up to 12 rounds.
"""

import pytest

from grimoire.core.rng import Rng

from .differential import options_for, play_pair, play_pair_ids, play_pair_typed

CHUNKS = 8
DEFAULT_GAMES = 2_000
SLOW_GAMES = 100_000


def _games(chunk: int, total: int, chunks: int):
    for i in range(chunk, total, chunks):
        yield i, 2 + i % 5, Rng(i)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_are_identical(chunk):
    actions = 0
    for i, players, rng in _games(chunk, DEFAULT_GAMES, CHUNKS):
        opts = options_for(i // 5, rng)      # each player count sees every flag combination
        opts["max_rounds"] = 1 + (i % 7 == 0)
        actions += play_pair(players, 10_000 + i, opts)
    assert actions > 10 * DEFAULT_GAMES // CHUNKS


@pytest.mark.parametrize("chunk", range(4))
def test_typed_payments_discards_curses_and_illegal_texts_are_identical(chunk):
    """Explicit payments and discards, bids beyond one's means (the curse, 7.5) and illegal texts:
    the same IllegalAction message and rule, or the same new state."""
    for i, players, rng in _games(chunk, 60, 4):
        opts = options_for(i, rng)
        opts["max_rounds"] = 4
        play_pair_typed(players, 20_000 + i, opts)


@pytest.mark.parametrize("chunk", range(4))
def test_random_play_over_the_ids_is_identical(chunk):
    """Uniform over the masked ids, the factored payment and discard steps included (give, drop,
    keep): the same masks and the same state after every action."""
    factored = 0
    for i, players, rng in _games(chunk, 48, 4):
        opts = options_for(i, rng)
        opts["max_rounds"] = 3
        factored += play_pair_ids(players, 40_000 + i, opts)
    assert factored > 0


def test_long_games_are_identical():
    for i in range(4):
        opts = options_for(37 * i, Rng(i))
        opts["max_rounds"] = 15
        play_pair(2 + 2 * i % 5, 30_000 + i, opts, full_every=50)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_many_random_games_are_identical(chunk):
    for i, players, rng in _games(chunk, SLOW_GAMES, CHUNKS):
        opts = options_for(i // 5, rng)
        opts["max_rounds"] = 1 + i % 12
        play_pair(players, 1_000_000 + i, opts, full_every=64)
    for i, players, rng in _games(chunk, SLOW_GAMES // 20, CHUNKS):
        opts = options_for(i, rng)
        opts["max_rounds"] = 6
        play_pair_typed(players, 2_000_000 + i, opts)
