"""The shared conformance suite, run for every registered game (docs/contract.md)."""

import pytest

import grimoire
from grimoire.core import conformance as cf
from grimoire.core.registry import game_info

GAMES = grimoire.games()


SHORT_ABOVE = 4          # larger tables play SHORT_ROUNDS rounds in the default run (whole games: slow)
SHORT_ROUNDS = 3


def _cases():
    """Two seeds per player count: the second runs with the slow tests, so the default run stays short
    while every count is checked (the hypothesis invariants and the golden games cover more seeds). Above
    four players the default run checks the first rounds only (a whole Zauberschmiede game of five took
    90 s of CI); the slow run plays those counts' whole games."""
    for g in GAMES:
        info = game_info(g)
        for n in info.player_counts[:6]:
            short = n > SHORT_ABOVE
            yield pytest.param(g, n, (1,), short, id=f"{g}-{n}p" + ("-short" if short else ""))
            if short:
                yield pytest.param(g, n, (1,), False, id=f"{g}-{n}p-whole", marks=pytest.mark.slow)
            yield pytest.param(g, n, (2,), False, id=f"{g}-{n}p-seed2", marks=pytest.mark.slow)


@pytest.mark.parametrize("game,players,seeds,short", list(_cases()))
def test_random_playthrough_with_deep_checks(game, players, seeds, short):
    opts = dict(game_info(game).conformance_options)
    if short:
        opts["max_rounds"] = min(opts.get("max_rounds", SHORT_ROUNDS), SHORT_ROUNDS)
    for seed in seeds:
        state = cf.random_playthrough(game, players, seed, opts, deep_every=7, probe_every=5)
        assert state.is_terminal()


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_actions_same_state_in_another_process(game):
    info = game_info(game)
    state = cf.random_playthrough(game, info.default_players, 11, dict(info.conformance_options))
    cf.check_separate_process(state)


@pytest.mark.parametrize("game", GAMES)
def test_unknown_options_and_bad_player_counts_are_config_errors(game):
    info = game_info(game)
    with pytest.raises(grimoire.GameConfigError):
        grimoire.new_game(game, info.default_players, 1, no_such_option=True)
    with pytest.raises(grimoire.GameConfigError):
        grimoire.new_game(game, 99, 1)
    with pytest.raises(grimoire.GameConfigError):
        grimoire.new_game(game, info.default_players, 1, max_rounds=0)


@pytest.mark.parametrize("game", GAMES)
def test_max_rounds_ends_the_game(game):
    info = game_info(game)
    state = cf.random_playthrough(game, info.default_players, 3, {"max_rounds": 1})
    assert state.is_terminal()


def test_unknown_game_is_a_config_error():
    with pytest.raises(grimoire.GameConfigError, match="unknown game"):
        grimoire.new_game("chess", 2, 1)


def test_load_game_rejects_garbage():
    for bad in (None, [], {"game": "nope"}, {"game": GAMES[0]}, {"game": GAMES[0], "players": "x"}):
        with pytest.raises(grimoire.GameConfigError):
            grimoire.load_game(bad)
