"""Golden playthroughs (scripts/playthroughs.py): a seeded random game per game and player count,
with every observation, must come out exactly as recorded. A diff here is a change of the rules or of
what a seat sees: if it is intended, rewrite the files with ``python scripts/playthroughs.py --update``."""

import difflib

import pytest
from repo_scripts import load_script

playthroughs = load_script("playthroughs")


@pytest.mark.parametrize("case", playthroughs.CASES, ids=lambda c: f"{c[0]}-{c[1]}p")
def test_playthrough_is_unchanged(case):
    game, players, seed, options = case
    path = playthroughs.GOLDEN / playthroughs.case_name(game, players)
    assert path.exists(), f"{path.name} is missing: run python scripts/playthroughs.py --update"
    now = playthroughs.playthrough(game, players, seed, options)
    old = path.read_text(encoding="utf-8")
    if now != old:
        diff = "".join(list(difflib.unified_diff(old.splitlines(True), now.splitlines(True), path.name, "now",
                                                 n=0))[:12])
        pytest.fail(f"{path.name} changed (python scripts/playthroughs.py --update if intended):\n{diff}")


def test_every_registered_game_has_a_playthrough():
    import grimoire
    assert {c[0] for c in playthroughs.CASES} == set(grimoire.games())
