"""The native core's fixtures (grimoire/games/shuluri/native/tests/data, written by
scripts/shuluri_native_fixtures.py) must still be what the Python reference computes: the crate's
`cargo test` compares itself with them, so a stale fixture would let the two engines drift apart.
After an intended change of the rules: ``python scripts/shuluri_native_fixtures.py --update``."""

import json

import pytest
from repo_scripts import load_script

import grimoire

fixtures = load_script("shuluri_native_fixtures")

HINT = "(python scripts/shuluri_native_fixtures.py --update if intended)"


def _committed(name: str) -> dict:
    return json.loads((fixtures.FIXTURES / name).read_text(encoding="utf-8"))


def test_board_fixture_matches_the_python_board():
    old = _committed("board.json")
    now = json.loads(fixtures.dump(fixtures.board_fixture(with_digest=False)))
    assert set(old) - set(now) == {"lines_digest"}
    for key, value in now.items():
        assert old[key] == value, f"board.json: {key} changed {HINT}"
    # the sampled lines hold every case: walls crossed, gates among them, lines leaving the arena
    parts = [t.split("|") for t in now["lines"]]
    assert any(p[4] == "1\n" for p in parts) and any(p[3] for p in parts)
    assert any(w.split(":")[1] != "-1" for p in parts for w in p[3].split(",") if w)


def test_data_fixture_matches_the_python_tables():
    assert _committed("data.json") == json.loads(fixtures.dump(fixtures.data_fixture())), f"data.json {HINT}"


@pytest.mark.slow
def test_board_fixture_digest_of_every_line():
    assert _committed("board.json")["lines_digest"] == fixtures.lines_digest(), f"lines changed {HINT}"


def test_states_fixture_agrees_with_the_python_engine():
    """Each committed position loads in the Python engine, saves back to the same dict, and lists the
    same legal actions with the same player to move and winners (the rules have not moved under it)."""
    cases = _committed("states.json")["states"]
    assert len(cases) >= 30
    for i, case in enumerate(cases):
        s = grimoire.load_game(case["state"])
        assert s.to_dict() == case["state"], f"state {i} saves differently {HINT}"
        assert [a.text for a in s.legal_actions()] == case["legal"], f"state {i} lists differently {HINT}"
        assert s.current_player == case["current_player"] and s.winners() == case["winners"], f"state {i}"


@pytest.mark.slow
def test_states_fixture_is_regenerated_identically():
    assert _committed("states.json") == json.loads(fixtures.dump(fixtures.states_fixture())), HINT


@pytest.mark.parametrize("name", sorted(fixtures.FILES))
def test_fixture_files_are_written_one_key_per_line(name):
    text = (fixtures.FIXTURES / name).read_text(encoding="utf-8")
    assert text == fixtures.dump(json.loads(text))
