"""The edits between two views (grimoire/web/delta.py): applied to the old view they give exactly the new
one — for any JSON values (hypothesis) and for every seat's views over whole games of every game — and
they are small where a view changes a little."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grimoire
from grimoire.core.registry import game_info
from grimoire.core.rng import Rng
from grimoire.web import delta, fastjson

ROOT = Path(grimoire.__file__).parent

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text("ab", max_size=2),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text("abc", max_size=2), inner, max_size=5),
    max_leaves=30)


def _check(old, new) -> list:
    edits = delta.diff(old, new)
    wire = orjson.loads(fastjson.dumps(edits))            # as the client gets them
    assert delta.apply(copy.deepcopy(old), wire) == new
    return edits


@settings(max_examples=150, deadline=None)
@given(json_values, json_values)
def test_edits_turn_any_value_into_any_other(old, new):
    edits = _check(old, new)
    assert (edits == []) == (old == new)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=12), st.integers(0, 4), st.lists(st.integers(0, 3), max_size=4))
def test_a_window_that_slides_keeps_its_items(items, drop, added):
    new = items[drop:] + added
    _check(items, new)
    _check({"w": items}, {"w": new})


def test_the_list_edits():
    assert delta.diff([1, 2, 3], [1, 2, 3, 4]) == [["l", [], 0, 3, [4]]]
    assert delta.diff([1, 2, 3, 4], [1, 2]) == [["l", [], 0, 2, []]]
    assert delta.diff({"e": ["a", "b", "c"]}, {"e": ["b", "c", "d"]}) == [["l", ["e"], 1, 2, ["d"]]]
    assert delta.diff({"x": 1, "y": 2}, {"x": 1, "z": None}) == [["s", ["z"], None], ["d", ["y"]]]
    # a value set to null stays null (a merge patch could not say that)
    assert delta.apply({"x": 1}, delta.diff({"x": 1}, {"x": None})) == {"x": None}
    # most of a list of scalars changed: the list itself is shorter than its edits
    assert delta.diff([1, 2, 3, 4], [5, 6, 7, 4]) == [["s", [], [5, 6, 7, 4]]]


def test_a_key_that_json_makes_text_is_diffed_as_parsed():
    with pytest.raises(delta.Impure):
        delta.diff({"a": {"1": 2}}, {"a": {1: 3}})
    assert delta.diff({"a": (1, 2)}, {"a": [1, 3]}) == [["s", ["a", 1], 3]]


def _views(state, seats):
    return [(orjson.loads(fastjson.dumps(obs)), obs) for obs in state.observations(seats)]


@pytest.mark.parametrize("game", grimoire.games())
def test_every_seats_views_over_a_game(game):
    _views_over_games(game, seeds=(1,), cap=60)


@pytest.mark.slow
@pytest.mark.parametrize("game", grimoire.games())
def test_every_seats_views_over_whole_games(game):
    _views_over_games(game, seeds=(1, 2, 3), cap=None)


def _views_over_games(game: str, seeds: tuple[int, ...], cap: int | None) -> None:
    """For every seat and a spectator, the edits from each view to the next, through JSON, give the next
    view (games played to the end, or their first ``cap`` actions); and they are much smaller than the views."""
    info = game_info(game)
    players = info.default_players
    seats = [*range(players), None]
    full = sent = 0
    for seed in seeds:
        state = grimoire.new_game(game, players, seed)
        rng = Rng(seed)
        old = _views(state, seats)
        old_hints = [state.hints(s) for s in seats]
        n = 0
        while not state.is_terminal() and (cap is None or n < cap):
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            n += 1
            new = _views(state, seats)
            hints = [state.hints(s) for s in seats]
            for (before, _), (after, made), hb, ha in zip(old, new, old_hints, hints, strict=True):
                edits = delta.diff(before, made)          # against the engine's own value, as the hub does
                wire = orjson.loads(fastjson.dumps(edits))
                assert delta.apply(copy.deepcopy(before), wire) == after
                hedits = delta.diff(orjson.loads(fastjson.dumps(hb)), ha)
                assert delta.apply(orjson.loads(fastjson.dumps(hb)), orjson.loads(fastjson.dumps(hedits))) \
                    == orjson.loads(fastjson.dumps(ha))
                full += len(fastjson.dumps(after))
                sent += min(len(fastjson.dumps(edits)), len(fastjson.dumps(after)))
            old, old_hints = new, hints
    assert sent * 3 < full, f"{game}: edits {sent} bytes against whole views {full}"


def test_the_browser_applies_the_edits_as_the_server_means_them(tmp_path):
    """static/common.js ``applyEdits`` (node): every seat's views over a game of every game, and
    hypothesis-like random values, come out as the next view; the view it started from is unchanged."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    cases = []
    for game in grimoire.games():
        info = game_info(game)
        state = grimoire.new_game(game, info.default_players, 3)
        seats = [*range(info.default_players), None]
        rng = Rng(3)
        old = [v for v, _ in _views(state, seats)]
        for _ in range(25):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            new = _views(state, seats)
            cases += [[before, delta.diff(before, made), after] for before, (after, made) in zip(old, new, strict=True)]
            old = [v for v, _ in new]
    for before, after in (([1, 2, 3], [2, 3, 4, 5]), ({"a": 1}, 7), ([1, 2], []),
                          ({"a": [1, {"b": 2}]}, {"a": [1, {}]}), ({"x": 1, "y": 2}, {"z": 3, "x": 1})):
        cases.append([before, delta.diff(before, after), after])
    data = tmp_path / "cases.json"
    data.write_bytes(fastjson.dumps_bytes(cases))
    script = ("globalThis.document = {addEventListener() {}};"          # (the page's key handler, not used here)
              f"const {{applyEdits}} = await import('{(ROOT / 'web' / 'static' / 'common.js').as_uri()}');"
              "const fs = await import('node:fs'); const {isDeepStrictEqual} = await import('node:util');"
              f"const cases = JSON.parse(fs.readFileSync({json.dumps(str(data))}, 'utf8'));"
              "let bad = 0;"
              "for (const [before, edits, after] of cases) {"
              "  const kept = JSON.stringify(before);"
              "  const got = applyEdits(before, edits);"
              "  if (!isDeepStrictEqual(got, after) || JSON.stringify(before) !== kept) bad++;"
              "}"
              "console.log(`${cases.length} ${bad}`);")
    r = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=120)
    total, bad = map(int, r.stdout.split()) if r.returncode == 0 else (0, -1)
    assert r.returncode == 0 and bad == 0 and total > 100, (r.stdout, r.stderr[-2000:])


def test_the_servers_deflate_is_zlib_ng_and_any_inflater_reads_it():
    """permessage-deflate with zlib-ng's compressor (protocols._Deflate): the same raw deflate stream,
    so a browser's (here zlib's) inflater with the connection's context gets every view back exactly."""
    import zlib

    from websockets.frames import Frame, Opcode

    from grimoire.web.protocols import _deflate
    _params, ext = _deflate().process_request_params([], [])
    assert type(ext.encoder).__module__.startswith("zlib_ng")
    inflate = zlib.decompressobj(-15)
    state = grimoire.new_game("zavandor", 4, 5)
    rng = Rng(5)
    wire = raw = 0
    for _ in range(30):
        data = fastjson.dumps_bytes({"obs": state.observation(0), "hints": state.hints(0)})
        frame = ext.encode(Frame(Opcode.TEXT, data))
        assert frame.rsv1 and inflate.decompress(bytes(frame.data) + b"\x00\x00\xff\xff") == data
        wire, raw = wire + len(frame.data), raw + len(data)
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    assert wire * 8 < raw                      # the window still holds the last view: a view costs little
