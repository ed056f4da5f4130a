"""The wire's JSON: orjson's default, with the slower options only for what it refuses."""

from __future__ import annotations

import json

import orjson
from hypothesis import given
from hypothesis import strategies as st

from grimoire.web import fastjson

_leaf = st.none() | st.booleans() | st.integers(-(2 ** 63), 2 ** 63 - 1) | st.text(max_size=8) \
    | st.floats(allow_nan=False, allow_infinity=False)
_tree = st.recursive(_leaf, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(
    st.text(max_size=6) | st.integers(-5, 5), kids, max_size=4), max_leaves=20)


@given(_tree)
def test_the_same_text_as_with_non_str_keys(obj):
    # the fast path must not change a byte of what was sent before (integer keys included)
    assert fastjson.dumps_bytes(obj) == orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS)


def test_integer_keys_and_huge_integers():
    assert fastjson.dumps({1: "a", "b": {2: [3]}}) == '{"1":"a","b":{"2":[3]}}'
    big = {"n": 2 ** 70, "m": [-(2 ** 80)]}
    assert fastjson.dumps(big) == json.dumps(big, separators=(",", ":"))
    assert fastjson.loads(fastjson.dumps(big)) == big
