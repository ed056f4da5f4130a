"""What is listed is exactly what is accepted: over positions of random games, every text of the
vocabulary is legal if and only if it is among the legal actions (and a rejected one changes nothing)."""

from __future__ import annotations

import grimoire
from grimoire.core.errors import IllegalAction
from grimoire.core.rng import Rng
from grimoire.games.shuluri.actions import VOCABULARY, vocabulary_texts
from grimoire.games.shuluri.codec import table_texts


def _positions(players: int, seed: int, every: int, limit: int, **options):
    s = grimoire.new_game("shuluri", players, seed, max_rounds=6, **options)
    r = Rng(seed)
    out = []
    n = 0
    while not s.is_terminal() and len(out) < limit:
        if n % every == 0:
            out.append(s.clone())
        acts = s.legal_actions()
        s.apply(acts[r.below(len(acts))])
        n += 1
    return out


def _check(s) -> set[str]:
    legal = {a.text for a in s.legal_actions()}
    kinds = set()
    for a in VOCABULARY:
        ok = s.is_legal(a)
        assert ok == (a.text in legal), f"{a.text!r}: is_legal {ok} but listed {a.text in legal}"
        if ok:
            kinds.add(a.kind)
    return kinds


def test_listed_equals_accepted_two_players():
    kinds = set()
    for s in _positions(2, 5, 13, 30) + _positions(2, 6, 17, 20):
        kinds |= _check(s)
    assert {"move", "end", "name", "cast", "deploy", "shoot"} <= kinds


def test_listed_equals_accepted_four_players():
    for s in _positions(4, 7, 29, 12) + _positions(4, 8, 31, 8, mode="pairs"):
        _check(s)


def test_listed_equals_accepted_with_other_rules():
    for s in _positions(2, 11, 19, 12, spells_per_step="unlimited", traps_assigned_to_character=False,
                        kitoro_forras_kind="ranged", optional_poison_vial=True, optional_magic_potion=True,
                        enter_forces_attack=True, allow_single_naming=True):
        _check(s)


def test_rejected_action_leaves_state_untouched():
    s = _positions(2, 9, 50, 3)[-1]
    before = s.to_dict()
    legal = {a.text for a in s.legal_actions()}
    for a in VOCABULARY[::7]:
        if a.text in legal:
            continue
        try:
            s.apply(a)
        except IllegalAction as e:
            assert str(e)
        else:
            raise AssertionError(f"{a.text} accepted")
        assert s.to_dict() == before


def test_action_table_file_is_the_vocabulary():
    assert table_texts() == list(vocabulary_texts())
