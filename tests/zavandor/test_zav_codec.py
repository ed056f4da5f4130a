"""Integer action ids (docs/games/zavandor.md, "Integer action ids"): the fixed table covers the whole
listed vocabulary, ids round trip, bids are relative to the lowest legal bid (7.4), and the ids of
a few texts are pinned (they must never change)."""

from __future__ import annotations

import pytest

import grimoire
from grimoire.core.codec import ActionCodec
from grimoire.core.errors import IllegalAction
from grimoire.core.registry import game_info
from grimoire.core.rng import Rng
from grimoire.games.zavandor.actions import TABLE, parse
from grimoire.games.zavandor.codec import BID_OFFSETS, CODEC, lowest_bid
from grimoire.games.zavandor.legal import factored_legal

from .helpers import ELIXIR, act, fresh, set_display, set_hand

INFO = game_info("zavandor")
FIXED = 72                                   # the id of "bid lowest+0" (ids 72-91: the relative bids)
D = (0, 1, 2, 3, 4, 5, 7, 10, 15, 20, 25, 30, 40, 50, 60, 80, 100, 125, 150, 200)   # documented set


def _random_states(players: int, seed: int, **options):
    """Every state of one random game (uniform over the listed actions)."""
    s = grimoire.new_game("zavandor", players, seed, max_rounds=8, **options)
    rng = Rng(seed)
    while not s.is_terminal():
        yield s
        acts = s.legal_actions()
        s.apply(acts[rng.below(len(acts))])
    yield s


def test_pinned_ids_never_change():
    pinned = {"end": 0, "pay": 1, "pass": 2, "skip": 3, "discard": 4, "buy opal": 5, "buy ruby inactive": 14,
              "sell active ruby": 24, "lose opal": 35, "token 20": 40, "token 40": 44, "advance gems": 45,
              "advance accumulation": 50, "auction spellbook": 51, "auction talisman": 62,
              "auction phoenix": 63, "auction salamander": 71}
    for text, i in pinned.items():
        assert CODEC.encode(text) == i, text
        assert CODEC.decode(i).text == text
    assert CODEC.texts[FIXED:FIXED + len(D)] == tuple(f"bid lowest+{d}" for d in D)
    assert BID_OFFSETS[:len(D)] == D
    assert INFO.num_distinct_actions == len(CODEC.texts) >= FIXED + len(D)


def test_table_holds_every_fixed_text_of_the_vocabulary_once():
    table = set(CODEC.texts)
    assert len(table) == len(CODEC.texts)
    assert set(TABLE._by_text) <= table
    for i, text in enumerate(CODEC.texts):        # each line is a text the game reads as itself, or a relative bid
        if i in CODEC.bid_offset:
            assert text == f"bid lowest+{CODEC.bid_offset[i]}" and CODEC.encode(text) is None
        else:
            assert parse(text).text == text and CODEC.encode(text) == i


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_listed_action_has_a_fixed_id_or_is_a_bid(players):
    for seed in range(3):
        opts = {"strict_subphases": seed != 1, "combine_with_auction": seed == 2}
        for s in _random_states(players, 100 * players + seed, **opts):
            ids = s.legal_action_ids()
            if s.is_terminal():
                assert ids == []
                continue
            assert ids, "no legal action has an id"
            # the fast listing equals the generic one of the core, with the factored payment steps
            factored = {CODEC.encode(a.text) for a in factored_legal(s)}
            assert ids == sorted(set(ActionCodec.legal_ids(CODEC, s)) | factored)
            for a in s.legal_actions():
                i = CODEC.encode(a.text)
                assert i is not None or a.kind == "bid", f"{a.text!r} has no id"
                if a.kind == "bid" and a.args[0] - lowest_bid(s) <= 255:   # every such bid has an id
                    assert s.action_id(a) in ids
            for i in ids:
                a = s.action_from_id(i)
                assert s.is_legal(a) and s.action_id(a) == i and s.action_id(a.text) == i


def test_bid_ids_are_relative_to_the_lowest_legal_bid():
    # 7.4: the opening bid is at least the minimum (Elixir: 60), each raise at least 1 more
    s = fresh(2, ["witch", "elf"])
    set_display(s, [ELIXIR])
    set_hand(s, 0, dust=600)
    set_hand(s, 1, dust=600)
    act(s, "auction elixir")
    for k, d in enumerate(D):
        assert s.action_from_id(FIXED + k).text == f"bid {60 + d}"
        assert s.action_id(f"bid {60 + d}") == FIXED + k
    assert FIXED + 0 in s.legal_action_ids() and CODEC.encode("pass") not in s.legal_action_ids()
    act(s, "bid 75")                              # now the lowest legal bid is 76
    assert s.action_from_id(FIXED).text == "bid 76" and s.action_from_id(FIXED + 7).text == "bid 86"
    ids = s.legal_action_ids()
    assert CODEC.encode("pass") in ids and FIXED in ids
    assert s.action_id("bid 77") == FIXED + 1
    for d in range(256):                          # every offset up to 255 has an id (D first, the rest at the end)
        i = s.action_id(f"bid {76 + d}")
        assert CODEC.bid_offset[i] == d and s.action_from_id(i).text == f"bid {76 + d}" and i in ids
    assert s.action_id("bid 82") == CODEC.texts.index("bid lowest+6") == 206
    assert "bid 332" in [a.text for a in s.legal_actions()]
    with pytest.raises(IllegalAction):
        s.action_id("bid 332")                    # offset 256: playable by its text only


def test_bids_beyond_the_bidders_means_have_no_listed_id():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [ELIXIR])
    set_hand(s, 0, dust=300)
    set_hand(s, 1, dust=10)                       # capacity 10 + gem sales: far below a raise over 60
    act(s, "auction elixir", "bid 60")
    assert s.current_player == 1
    ids = s.legal_action_ids()
    assert ids == [CODEC.encode("pass")]          # 'bid 61' would bring the curse (7.5): not listed
    assert s.action_from_id(FIXED).text == "bid 61"   # it still has an id, and stays playable


def test_ids_without_a_position_and_unknown_ids():
    with pytest.raises(IllegalAction):
        CODEC.decode(FIXED)                       # a bid needs the state
    with pytest.raises(IllegalAction):
        CODEC.decode(INFO.num_distinct_actions)
    with pytest.raises(IllegalAction):
        CODEC.decode(-1)
    s = grimoire.new_game("zavandor", 3, 1)
    with pytest.raises(IllegalAction):
        s.action_from_id(FIXED)                   # no auction open
    with pytest.raises(IllegalAction):
        s.action_id("pay 15 8g d5")               # explicit payments keep their text form only
    assert CODEC.describe(FIXED + 7) == "bid lowest+10" and CODEC.describe(0) == "end"
