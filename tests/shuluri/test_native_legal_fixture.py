"""The native core's legal-listing fixture (grimoire/games/shuluri/native/tests/data/legal.json,
written by scripts/shuluri_native_legal.py) must still be what the Python reference computes: the
crate's tests/legal.rs compares its listing, ids and mask with it."""

import json

import pytest
from repo_scripts import load_script

import grimoire
from grimoire.games.shuluri.codec import legal_ids

legal = load_script("shuluri_native_legal")

HINT = "(python scripts/shuluri_native_legal.py --update if intended)"


def _committed() -> list[dict]:
    return json.loads(legal.FILE.read_text(encoding="utf-8"))["states"]


def test_legal_fixture_agrees_with_the_python_engine():
    """Each position loads, saves back to the same dict, and lists the same texts and ids."""
    cases = _committed()
    kinds = set()
    for i, case in enumerate(cases):
        s = grimoire.load_game(case["state"])
        assert s.to_dict() == case["state"], f"legal.json state {i} saves differently {HINT}"
        assert [a.text for a in s.legal_actions()] == case["legal"], f"legal.json state {i} lists differently {HINT}"
        assert legal_ids(s) == case["ids"], f"legal.json state {i}: other ids {HINT}"
        kinds.add(s.stack.top.kind if s.stack.top is not None else None)
    # every decision kind of the engine is in it
    assert kinds >= {"act", "name", "react", "dodge", "push", "shove", "effect", "enemy", "chain", "order", "traps",
                     "amulets", "resist", "vials", "potions", "side", "weapon", "deploy", None}, kinds
    texts = {t for c in cases for t in c["legal"]}
    for word in (" order ", " attack ", " shoot ", " javelin ", " net ", " cloud ", "wl cast undead ", " break",
                 " takedown", " open ", " close ", " wield ", "trap "):
        assert any(word in f" {t} " or t.startswith(word) for t in texts), f"no '{word.strip()}' action compared"


@pytest.mark.slow
def test_legal_fixture_is_regenerated_identically():
    assert _committed() == json.loads(legal.dump_text())["states"], HINT


def test_legal_fixture_is_written_one_key_per_line():
    text = legal.FILE.read_text(encoding="utf-8")
    assert text == legal._FIX.dump(json.loads(text))
