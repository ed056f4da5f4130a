"""Integer action ids (grimoire/core/codec.py): the table data/actions.txt covers the vocabulary of the
sheet, ids round trip with and without a state, pinned ids never move, every legal action has an id."""

from __future__ import annotations

import tomllib

import pytest
from zs_helpers import game, play

import grimoire
from grimoire.core.codec import load_action_table
from grimoire.core.rng import Rng
from grimoire.games.zauberschmiede.actions import TABLE, canonical_texts, parse
from grimoire.games.zauberschmiede.sheet import DATA_DIR

INFO = grimoire.game_info("zauberschmiede")
CODEC = INFO.codec
TABLE_TEXTS = load_action_table(DATA_DIR / "actions.txt")


def _expected_count() -> int:
    """The vocabulary's size from the sheet data (spec §13.3 sheet, §4-§9 action kinds)."""
    with open(DATA_DIR / "sheet.toml", "rb") as f:
        sheet = tomllib.load(f)
    sides = 6                                            # "sechs (6) Würfel", ordinary dice
    arts = sheet["artifacts"]
    charge = sum(len({f["colour"] for f in a["fields"]}) * sides for a in arts)   # R5.1 per colour and value
    pay = len(arts) * 2 ** sheet["rounds"]               # R6.4: any subset of the stocks of rounds 1..7
    amplify = len(arts) * sides                          # R7.2
    upgrade = len(sheet["colours"]) * len(sheet["colour_upgrade_values"])   # R8.1
    unlock = dust = sides                                # R7.1, R6.1
    transmute = sides * (sides - 1)                      # R9: to another value
    return 1 + charge + pay + amplify + upgrade + unlock + dust + transmute   # + end (R3.2)


def test_the_table_is_exactly_the_vocabulary_of_the_sheet():
    assert len(TABLE_TEXTS) == len(set(TABLE_TEXTS)) == _expected_count() == 2376
    assert INFO.num_distinct_actions == len(TABLE_TEXTS)
    # covers every text of the vocabulary (a changed sheet needs scripts/zauberschmiede_action_table.py)
    assert set(canonical_texts()) <= set(TABLE_TEXTS)
    # and holds nothing else: every line is an action text of this sheet, in its canonical form
    for t in TABLE_TEXTS:
        assert parse(t).text == t
    # every interned action of the engine has an id
    assert {a for a in TABLE._by_text} <= set(TABLE_TEXTS)


def test_pinned_ids_never_move():
    pinned = {0: "end", 1: "charge am1 green 1", 6: "charge am1 green 6", 180: "charge bk yellow 6",
              181: "pay am1", 182: "pay am1 r1", 189: "pay am1 r1 r2", 2228: "pay bk r1 r2 r3 r4 r5 r6 r7",
              2229: "amplify am1 1", 2325: "upgrade green 4", 2333: "upgrade yellow 6", 2334: "unlock 1",
              2340: "dust 1", 2346: "transmute 1 to 2", 2375: "transmute 6 to 5"}
    for i, text in pinned.items():
        assert TABLE_TEXTS[i] == text
        assert CODEC.encode(text) == i


def test_ids_round_trip_without_a_state():
    for i, text in enumerate(TABLE_TEXTS):
        a = CODEC.decode(i)
        assert a.text == text and a is parse(text)
        assert CODEC.encode(a) == i == CODEC.encode(text)
    for bad in (-1, len(TABLE_TEXTS), True, "3"):
        with pytest.raises(grimoire.IllegalAction):
            CODEC.decode(bad)


@pytest.mark.parametrize("players,seed,opts", [(1, 1, {}), (2, 2, {"fresh_dust_divisible": False}),
                                               (3, 3, {"field_min_constraints": False,
                                                       "amplifier_partial_payment": True})])
def test_every_legal_action_has_an_id_and_the_mask_matches(players, seed, opts):
    s = grimoire.new_game("zauberschmiede", players, seed, **opts)
    rng = Rng(seed)
    while not s.is_terminal():
        acts = s.legal_actions()
        ids = s.legal_action_ids()
        assert ids == sorted(CODEC.encode(a) for a in acts)          # all of them, each once
        mask = s.legal_mask()
        assert mask.sum() == len(acts) and all(mask[i] for i in ids)
        assert [s.action_from_id(i) for i in ids] == sorted(acts, key=CODEC.encode)
        # dust-heavy play, so that payments with several stocks come up
        dust = [a for a in acts if a.kind in ("dust", "pay")]
        pool = dust if dust and rng.below(3) else acts
        s.apply(pool[rng.below(len(pool))])
    assert s.legal_action_ids() == [] and not s.legal_mask().any()


def test_payments_with_two_stocks_have_their_ids():
    # one dust in each of rounds 1 and 2 become two stocks of 1 (R6.3); SP1 costs 2 dust (sheet)
    s = game(rolls=[[1, 1, 1, 3, 3, 3]] * 7)
    play(s, "dust 1", "end", "dust 1", "end", "charge sp1 green 3", "charge sp1 purple 3")
    assert "pay sp1 r1 r2" in {a.text for a in s.legal_actions()}
    assert CODEC.encode("pay sp1 r1 r2") in s.legal_action_ids()
    assert s.action_from_id(CODEC.encode("pay sp1 r1 r2")).text == "pay sp1 r1 r2"
