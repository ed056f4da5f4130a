"""Spec §2 and §13: the sheet as data, the loader checks and the derived facts of §13.4."""

import copy
import hashlib
import json
import tomllib

import pytest

from grimoire.games.zauberschmiede.sheet import DATA_DIR, SHEET, Sheet, SheetError

# sha256 of the specification's canonical sheet (its §13.3 JSON block, keys sorted, no spaces): the data
# file must be that block unchanged (a corrected value in the spec is a deliberate change of this hash)
SPEC_SHEET_SHA256 = "2682eb1e6e6c7e6c82b61743766e57048b0938565e7fc50e01c97b8d5aacf9d4"


def _raw():
    with open(DATA_DIR / "sheet.toml", "rb") as fh:
        return tomllib.load(fh)


def test_s13_3_data_file_is_the_canonical_json_block_unchanged():
    canonical = json.dumps(_raw(), sort_keys=True, separators=(",", ":"))
    assert hashlib.sha256(canonical.encode()).hexdigest() == SPEC_SHEET_SHA256


def test_s13_4_derived_facts_of_the_default_sheet():
    arts = SHEET.artifacts
    assert len(arts) == 16
    assert SHEET.nfields == 42
    for c in range(3):
        assert sum(1 for f in range(SHEET.nfields) if SHEET.field_colour[f] == c) == 14
        assert len(SHEET.colour_artifacts[c]) == 10
    assert sum(a.dust for a in arts) == 19
    assert sum(a.base for a in arts) == 114
    green = [arts[i].id for i in SHEET.colour_artifacts[SHEET.colour_index["green"]]]
    assert green == ["AM1", "PO1", "PO3", "WA1", "WA3", "SP1", "SP3", "RE1", "RE3", "BK"]
    cost = {a.category: len(a.fields) + a.dust for a in arts}
    assert cost == {"amulet": 3, "potion": 3, "wand": 4, "spell": 4, "relic": 5, "book": 4}
    assert sum(len(a.fields) + a.dust for a in arts) == 61
    sets = {c: sum(SHEET.base[i] for i in SHEET.category_artifacts[c]) for c in SHEET.set_categories}
    assert sets == {"amulet": 12, "potion": 15, "wand": 21, "spell": 24, "relic": 30}
    assert "book" not in SHEET.set_categories
    g = SHEET.colour_index["green"]
    gart = SHEET.colour_artifacts[g]
    assert sum(len(arts[i].fields) + arts[i].dust for i in gart) == 39
    assert sum(arts[i].colour_count[g] for i in gart) == 14


def test_s2_sheet_elements_rounds_dice_amplifier_colours_transmutations():
    assert SHEET.rounds == 7 and SHEET.dice_per_round == 6
    assert SHEET.amp_costs == (1, 2, 3)
    assert SHEET.upgrade_values == (4, 5, 6)
    assert SHEET.transmutations == 2
    assert SHEET.colours == ("green", "purple", "yellow")


@pytest.mark.parametrize("breakage,needle", [
    (lambda d: d["artifacts"][1].update(id="AM1"), "not unique"),
    (lambda d: d["artifacts"][0]["fields"][0].update(colour="red"), "not listed"),
    (lambda d: d["artifacts"][0]["fields"][0].update(min=0), "min"),
    (lambda d: d["artifacts"][0]["fields"][0].update(min=7), "min"),
    (lambda d: d["artifacts"][0].update(dust=0), "dust"),
    (lambda d: d["artifacts"][0].update(base=-1), "base"),
    (lambda d: d["artifacts"][0].update(category="ring"), "not declared"),
    (lambda d: d["categories"][0].update(set=False), "exactly one"),
    (lambda d: d["categories"][5].update(set=True), "exactly one"),
])
def test_s13_3_loader_checks_reject_a_broken_sheet(breakage, needle):
    d = copy.deepcopy(_raw())
    breakage(d)
    with pytest.raises(SheetError, match=needle):
        Sheet(d)


def test_s13_3_loader_accepts_the_default_sheet():
    s = Sheet(copy.deepcopy(_raw()))
    assert s.sheet_id == "zauberschmiede-default-proposal-1"
