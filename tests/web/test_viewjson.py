"""A view's JSON with the parts its game keeps written once (viewjson.py): byte for byte the plain text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grimoire.core.conformance import server_states
from grimoire.core.parts import Kept
from grimoire.core.registry import games
from grimoire.web import delta, fastjson, viewjson


@pytest.mark.parametrize("game", games())
def test_every_seats_text_is_the_plain_text(game):
    memo: viewjson.Memo = {}
    reused = written = 0
    for s in server_states(game, 3 if game == "zauberschmiede" else 4, 5, 150):
        memo, before = {}, memo
        seats: list[int | None] = [None, *range(s.num_players)]
        for obs in s.observations(seats):
            assert viewjson.dumps(obs, game, memo, before) == fastjson.dumps(obs)
        reused += sum(1 for k in memo if k in before)
        written += sum(1 for k in memo if k not in before)
    if written:             # a game that keeps parts: most are kept from one state to the next
        assert reused > 2 * written


_leaf = st.none() | st.booleans() | st.integers(-(2 ** 70), 2 ** 70) | st.text(max_size=5)
_part = st.dictionaries(st.text(max_size=4) | st.integers(-3, 3), _leaf, max_size=4)


@given(st.lists(st.booleans(), min_size=1, max_size=5), st.lists(_part, min_size=5, max_size=5), _leaf)
def test_kept_and_plain_items_and_what_orjson_refuses(kept, parts, head):
    """Kept items among plain ones, integer keys and integers past 64 bits (fastjson's fallbacks): the
    same text, every time the same objects come back."""
    items = [Kept(p) if k else dict(p) for k, p in zip(kept, parts, strict=False)]
    obs = {"round": head, "g": {"figures": items, "n": head}}
    memo: viewjson.Memo = {}
    for _ in range(2):
        memo, before = {}, memo
        assert viewjson.dumps(obs, "g", memo, before) == fastjson.dumps(obs)


def test_a_kept_part_is_written_once_while_it_comes_back():
    a, b = Kept({"x": 1}), Kept({"x": 2})
    memo: viewjson.Memo = {}
    viewjson.dumps({"g": {"l": [a, b]}}, "g", memo, {})
    first = memo[id(a)][1]
    nxt: viewjson.Memo = {}
    c = Kept({"x": 3})
    assert viewjson.dumps({"g": {"l": [a, c]}}, "g", nxt, memo) == '{"g":{"l":[{"x":1},{"x":3}]}}'
    assert nxt[id(a)][1] is first and id(b) not in nxt


def test_a_patch_edits_inside_a_kept_part():
    """delta.diff goes into a kept part as into any dict: the same edits."""
    old = {"figures": [{"name": "A", "ep": 5, "field": "C3"}]}
    new = {"figures": [{"name": "A", "ep": 4, "field": "C3"}]}
    kept = {"figures": [Kept(new["figures"][0])]}
    assert delta.diff(old, kept) == delta.diff(old, new) == [["s", ["figures", 0, "ep"], 4]]
