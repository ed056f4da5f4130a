"""The game length bound and the round cap (docs/games/zavandor.md, "Game length and the round cap"):
its parts from the rules' numbers, the wealth claim it rests on, and games staying within it."""

from __future__ import annotations

import pytest

import grimoire
from grimoire.core.registry import game_info
from grimoire.core.rng import Rng
from grimoire.games.zavandor.bounds import bid_over_price, income_per_round, inflow, max_game_length

from .helpers import SPEC_SALE

INFO = game_info("zavandor")
COPIES = {2: 1, 3: 2, 4: 2, 5: 3, 6: 3}          # artifact copies of each kind by player count (2.8)


def spec_income(n: int) -> int:
    # 11 active slots at most (7.2), the best card is a red 17 (2.2); Crystals of Protection (green,
    # best 10) and Chalices of Fire (red, 17) bring one card each (6.3); Energy Flow level 4 +10 (6.2)
    return 11 * 17 + COPIES[n] * (10 + 17) + 10


def spec_inflow(n: int, rounds: int) -> int:
    start = 20 + 2 * SPEC_SALE[0][0] + SPEC_SALE[1][0]     # druid/kobold dust (2.7), 2 opals + 1 sapphire (3.2)
    elixir = COPIES[n] * SPEC_SALE[3][0]                      # a free diamond per Elixir (11)
    sages = 2 * (7 + 10 + 12 + 17)                            # 2 cards per 9 Sages level (10.1)
    return start + elixir + sages + rounds * spec_income(n)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_parts_of_the_bound_from_the_rules_numbers(n):
    assert income_per_round(n) == spec_income(n)
    assert inflow(n, 60) == spec_inflow(n, 60)
    # sentinels: Knowledge of Artifacts L4 -20, -20 per Mask, card VI -20 (2.10, 7.4)
    assert bid_over_price(n) == 20 + 20 * COPIES[n] + 20


@pytest.mark.parametrize("n", [2, 4, 6])
def test_the_bound_is_the_documented_formula(n):
    R, L = 7, 30
    W, D = spec_inflow(n, R), 20 + 20 * COPIES[n] + 20
    sales = 12 * COPIES[n] + 9
    expected = (R * n * (L + 3) + n * W + sales * ((D - 19) + (n - 1) + (1 + 124) + (2 + n))
                + (n - 1) * (W + D - 18 + n - 1))
    opts = INFO.validate(n, {"max_rounds": R, "turn_action_limit": L})
    assert max_game_length(n, opts) == expected == INFO.game_length_bound(n, {"max_rounds": R, "turn_action_limit": L})
    assert INFO.game_length_bound(n, {"max_rounds": R + 1}) > INFO.game_length_bound(n, {"max_rounds": R})


def test_round_cap_applies_when_no_max_rounds_is_given():
    assert INFO.round_cap == 60
    assert INFO.game_length_bound(4) == INFO.game_length_bound(4, {"max_rounds": 60})


def test_no_player_ever_holds_more_than_his_inflow():
    """The claim the bound rests on: energy in hand plus the sale value of all gems (the payment
    capacity of 7.5, under-card energy included) never exceeds what a player received so far."""
    for n, seed in ((2, 1), (3, 2), (4, 3), (6, 4)):
        s = grimoire.new_game("zavandor", n, seed, max_rounds=25)
        rng = Rng(seed)
        steps = 0
        while not s.is_terminal():
            for p in s.players:
                under = sum(code >> 2 for code in p.under_cards) + p.under_dust
                credit = s.tab_credit if s.tab_seat == p.seat else 0      # gem sales not yet paid out
                assert p.capacity() + under + credit <= inflow(n, s.round), (n, seed, s.round, p.seat)
            acts = s.legal_actions()
            s.apply(acts[rng.below(len(acts))])
            steps += 1
        assert steps <= INFO.game_length_bound(n, {"max_rounds": 25})


def test_games_between_ais_stay_far_within_the_bound():
    from grimoire.agents import make_agent
    s = grimoire.new_game("zavandor", 3, 5)
    agents = [make_agent("zavandor", "easy", 5 + i) for i in range(3)]
    steps = 0
    while not s.is_terminal():
        cp = s.current_player
        s.apply(agents[cp].choose(s, cp))
        steps += 1
    assert s.round < INFO.round_cap and steps < INFO.game_length_bound(3)
