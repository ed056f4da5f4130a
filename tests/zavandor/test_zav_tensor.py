"""The observation tensor (docs/games/zavandor.md, "Observation tensor"): its layout is the documented
table, it is built from the observation alone (own seat first), and known positions give the values
the rules say (setup, 3)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import grimoire
from grimoire.core.registry import game_info
from grimoire.core.rng import Rng
from grimoire.games.zavandor.tensor import doc_table, fields

from .helpers import ELIXIR, act, fresh, set_display, set_hand

INFO = game_info("zavandor")
DOC = (Path(__file__).resolve().parents[2] / "docs" / "games" / "zavandor.md").read_text(encoding="utf-8")


def _field(state, seat, name):
    spec = INFO.tensor_spec(state.num_players, state.options)
    return state.observation_tensor(seat)[spec.field_slice(name)]


def test_the_documented_table_is_the_layout():
    assert doc_table() in DOC
    for n in range(2, 7):
        spec = INFO.tensor_spec(n)
        assert spec.shape == (171 + 91 * n,) == INFO.observation_shape(n)
        assert [f["name"] for f in spec.describe()] == [f.name for f in fields(n)]
        for row in doc_table().splitlines()[2:]:
            name, size = row.split(" | ")[0].strip("| `"), row.split(" | ")[1]
            expected = sum(int(term[:-1] or 1) * n if term.endswith("n") else int(term) for term in size.split(" + "))
            assert spec.field_slice(name).stop - spec.field_slice(name).start == expected, name


@pytest.mark.parametrize("players", [2, 4, 6])
def test_setup_values_from_the_rules(players):
    # 3.2: every player starts with 2 active opals and 1 active sapphire; all 5 tokens unbought (2.6);
    # all 9 sentinels on offer (3.8); the opal supply is 28 less 2 per player (1)
    chars = ["witch", "elf", "druid", "fairy", "mage", "kobold"][:players]
    s = grimoire.new_game("zavandor", players, 3, characters=chars)
    for seat in range(players):
        active = _field(s, seat, "p_gems_active").reshape(players, 5)
        assert np.allclose(active[:, 0], 2 / 11) and np.allclose(active[:, 1], 1 / 11)
        assert np.allclose(active[:, 2:], 0)
        assert np.allclose(_field(s, seat, "p_tokens_left"), 1)
        assert np.allclose(_field(s, seat, "sentinels_available"), 1)
        assert _field(s, seat, "gem_supply")[0] == pytest.approx((28 - 2 * players) / 28)
        assert _field(s, seat, "round")[0] == pytest.approx(1 / 30)
        # own seat first: the first character block is the observer's own character
        character = _field(s, seat, "p_character").reshape(players, 6)
        for k in range(players):
            assert character[k].argmax() == (seat + k) % players and character[k].sum() == 1


def test_own_hand_only_and_seat_relative_vectors():
    s = fresh(3, ["witch", "elf", "druid"])
    set_hand(s, 0, cards="3b 5b 13r", dust=10)
    set_hand(s, 1, cards="17r 12w", dust=2)
    own = _field(s, 0, "own_card_values")
    # blue 3-7 are entries 0-4, green 5-10 entries 5-10, white 8-12 entries 11-15, red 13-17 entries 16-20
    expected = np.zeros(21)
    expected[[0, 2, 16]] = 1 / 5
    assert np.allclose(own, expected)
    assert np.allclose(_field(s, 1, "own_card_values")[[15, 20]], 1 / 5)
    assert _field(s, 0, "own_energy")[0] == pytest.approx((3 + 5 + 13 + 10) / 200)
    # a spectator has no hand; the number and colour of cards are public (p_cards, own seat first)
    assert np.allclose(_field(s, None, "own_card_values"), 0)
    cards_from_1 = _field(s, 1, "p_cards").reshape(3, 4)
    assert np.allclose(cards_from_1[0], [0, 0, 1 / 10, 1 / 10]) and np.allclose(cards_from_1[2], [2 / 10, 0, 0, 1 / 10])
    assert _field(s, 0, "to_move")[0] == 1 and _field(s, 1, "to_move")[2] == 1


def test_auction_fields():
    # 7.4: the Elixir's minimum bid is 60; after seat 0 bids 75, seat 1 is to bid
    s = fresh(2, ["witch", "elf"])
    set_display(s, [ELIXIR])
    set_hand(s, 0, dust=300)
    set_hand(s, 1, dust=300)
    act(s, "auction elixir", "bid 75")
    assert _field(s, 1, "auction_open")[0] == 1
    assert _field(s, 1, "auction_item").argmax() == 6                       # elixir: 7th artifact (2.8)
    assert np.allclose(_field(s, 1, "auction_bids"), [0.6, 0.75, 1])
    assert np.allclose(_field(s, 1, "auction_high_bidder"), [0, 1])        # seat 0, seen from seat 1
    assert np.allclose(_field(s, 1, "decision_kind"), [0, 1, 0, 0, 0, 0, 0])
    assert np.allclose(_field(s, 1, "auction_price"), [0.75, 0.75])        # no modifiers, no discounts


def test_tensors_of_random_games_are_finite_and_bounded_and_use_only_the_observation():
    for seed in range(3):
        s = grimoire.new_game("zavandor", 4, seed, max_rounds=10)
        rng = Rng(seed)
        step = 0
        while not s.is_terminal():
            if step % 9 == 0:
                spec = INFO.tensor_spec(4, s.options)
                for seat in (0, 1, 2, 3, None):
                    t = s.observation_tensor(seat)
                    assert t.dtype == np.float32 and np.isfinite(t).all()
                    assert t.min() >= -1 and t.max() <= 20
                    assert np.array_equal(spec.encode(s.observation(seat)), t)
            acts = s.legal_actions()
            s.apply(acts[rng.below(len(acts))])
            step += 1
        assert _field(s, 0, "terminal")[0] == 1 and _field(s, 0, "to_move").sum() == 0


def test_summary_is_one_line_from_the_observation():
    s = grimoire.new_game("zavandor", 3, 2)
    line = s.observation_string(0)
    assert "\n" not in line and line.startswith("zavandor round 1")
    assert INFO.summary(s.observation(None)) in line
