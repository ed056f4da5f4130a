"""The player sheet: loaded from data (spec §13), validated, and turned into flat lookup tables.

Everything the rules need about the sheet is precomputed here once; the tables are immutable and
shared by every state.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.errors import GameConfigError

DATA_DIR = Path(__file__).parent / "data"


class SheetError(GameConfigError):
    """The sheet data breaks one of the loader checks of spec §13.3."""


@dataclass(frozen=True)
class Artifact:
    index: int
    id: str                     # "AM1"
    key: str                    # "am1" (the action-text form)
    name: str
    name_de: str
    category: str
    dust: int
    base: int
    fields: tuple[int, ...]     # global field indices
    colours: tuple[int, ...]    # colour indices in first-appearance order
    groups: tuple[tuple[int, tuple[int, ...]], ...]  # (colour, fields of that colour, highest min first)
    colour_count: tuple[int, ...]  # per colour: number of fields of that colour


class Sheet:
    """Static, validated sheet plus derived tables (indices everywhere, no strings in hot paths)."""

    def __init__(self, d: dict[str, Any]):
        _validate(d)
        self.raw = d
        self.sheet_id: str = d["sheet_id"]
        self.rounds: int = d["rounds"]
        self.dice_per_round: int = d["dice_per_round"]
        self.colours: tuple[str, ...] = tuple(d["colours"])
        self.colour_index = {c: i for i, c in enumerate(self.colours)}
        self.upgrade_values: tuple[int, ...] = tuple(d["colour_upgrade_values"])
        self.amp_costs: tuple[int, ...] = tuple(d["amplifier_level_costs"])
        self.transmutations: int = d["transmutations"]
        self.bonus_all_colour: int = d["bonus_all_colour"]
        self.bonus_dust_creator: int = d["bonus_dust_creator"]
        self.solo_dust_more_than: int = d["solo_dust_creator_more_than"]
        self.categories: tuple[str, ...] = tuple(c["id"] for c in d["categories"])
        self.category_label_de = {c["id"]: c["label_de"] for c in d["categories"]}
        self.set_categories: tuple[str, ...] = tuple(c["id"] for c in d["categories"] if c["set"])
        nc = len(self.colours)
        field_colour: list[int] = []
        field_min: list[int] = []
        field_artifact: list[int] = []
        arts: list[Artifact] = []
        for ai, a in enumerate(d["artifacts"]):
            idx = []
            order: list[int] = []
            count = [0] * nc
            for f in a["fields"]:
                c = self.colour_index[f["colour"]]
                idx.append(len(field_colour))
                field_colour.append(c)
                field_min.append(f["min"])
                field_artifact.append(ai)
                count[c] += 1
                if c not in order:
                    order.append(c)
            groups = tuple(
                (c, tuple(sorted((i for i in idx if field_colour[i] == c), key=lambda i: (-field_min[i], i))))
                for c in order)
            arts.append(Artifact(ai, a["id"], a["id"].lower(), a["name"], a.get("name_de", a["name"]),
                                 a["category"], a["dust"], a["base"], tuple(idx), tuple(order), groups,
                                 tuple(count)))
        self.artifacts: tuple[Artifact, ...] = tuple(arts)
        self.artifact_by_key = {a.key: a for a in arts}
        self.field_colour = tuple(field_colour)
        self.field_min = tuple(field_min)
        self.field_artifact = tuple(field_artifact)
        self.no_mins = tuple(1 for _ in field_min)
        self.nfields = len(field_colour)
        # artifacts per set category, and per colour (those with at least one field of the colour)
        self.category_artifacts = {c: tuple(a.index for a in arts if a.category == c) for c in self.categories}
        self.colour_artifacts = tuple(tuple(a.index for a in arts if a.colour_count[c]) for c in range(nc))
        self.category_mask = {c: _mask(ix) for c, ix in self.category_artifacts.items()}
        self.colour_mask = tuple(_mask(ix) for ix in self.colour_artifacts)
        self.base = tuple(a.base for a in arts)
        self.dust = tuple(a.dust for a in arts)
        self.art_fields = tuple(a.fields for a in arts)
        self.art_nfields = tuple(len(a.fields) for a in arts)

    def public_dict(self) -> dict[str, Any]:
        """The sheet as shown in observations (JSON-safe; a fresh copy each time)."""
        return {
            "sheet_id": self.sheet_id,
            "rounds": self.rounds,
            "dice_per_round": self.dice_per_round,
            "colours": list(self.colours),
            "colour_upgrade_values": list(self.upgrade_values),
            "amplifier_level_costs": list(self.amp_costs),
            "transmutations": self.transmutations,
            "categories": [{"id": c, "label_de": self.category_label_de[c], "set": c in self.set_categories}
                           for c in self.categories],
            "artifacts": [{"id": a.id, "name": a.name, "name_de": a.name_de, "category": a.category,
                           "dust": a.dust, "base": a.base,
                           "fields": [{"colour": self.colours[self.field_colour[f]], "min": self.field_min[f]}
                                      for f in a.fields]} for a in self.artifacts],
        }


def _mask(indices) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m


def _validate(d: Any) -> None:
    """The loader checks of spec §13.3, plus the shape checks the engine relies on."""
    def fail(msg: str) -> None:
        raise SheetError(f"invalid Zauberschmiede sheet: {msg}")

    if not isinstance(d, dict):
        fail("the sheet must be a table")
    for key, typ in (("sheet_id", str), ("rounds", int), ("dice_per_round", int), ("colours", list),
                     ("colour_upgrade_values", list), ("amplifier_level_costs", list), ("transmutations", int),
                     ("bonus_all_colour", int), ("bonus_dust_creator", int), ("solo_dust_creator_more_than", int),
                     ("categories", list), ("artifacts", list)):
        if not isinstance(d.get(key), typ) or isinstance(d.get(key), bool):
            fail(f"{key!r} is missing or not a {typ.__name__}")
    if d["rounds"] < 1 or d["dice_per_round"] < 1:
        fail("rounds and dice_per_round must be at least 1")
    colours = d["colours"]
    if not colours or len(set(colours)) != len(colours) or not all(isinstance(c, str) and c.isalpha()
                                                                    and c == c.lower() for c in colours):
        fail("colours must be distinct lowercase words")
    if not all(isinstance(v, int) and 1 <= v <= 6 for v in d["colour_upgrade_values"]) or \
            len(set(d["colour_upgrade_values"])) != len(d["colour_upgrade_values"]):
        fail("colour_upgrade_values must be distinct die values 1-6")
    if not d["amplifier_level_costs"] or not all(isinstance(v, int) and v >= 1 for v in d["amplifier_level_costs"]):
        fail("amplifier_level_costs must be positive whole numbers")
    cats = d["categories"]
    ids = [c.get("id") for c in cats if isinstance(c, dict)]
    if len(ids) != len(cats) or len(set(ids)) != len(ids) or not all(isinstance(i, str) for i in ids):
        fail("category ids must be unique strings")
    if not all(isinstance(c.get("set"), bool) for c in cats):
        fail("every category needs set = true/false")
    if sum(1 for c in cats if not c["set"]) != 1:
        fail("exactly one category must have set = false")
    seen: set[str] = set()
    used_colours: set[str] = set()
    for a in d["artifacts"]:
        if not isinstance(a, dict):
            fail("every artifact must be a table")
        aid = a.get("id")
        if not isinstance(aid, str) or not aid.isalnum():
            fail(f"artifact id {aid!r} must be letters and digits")
        if aid.lower() in seen:
            fail(f"artifact id {aid!r} is not unique")
        seen.add(aid.lower())
        if a.get("category") not in ids:
            fail(f"{aid}: category {a.get('category')!r} is not declared")
        dust, base = a.get("dust"), a.get("base")
        if not isinstance(dust, int) or isinstance(dust, bool) or dust < 1:
            fail(f"{aid}: dust must be at least 1")
        if not isinstance(base, int) or isinstance(base, bool) or base < 0:
            fail(f"{aid}: base must be at least 0")
        if not isinstance(a.get("name"), str):
            fail(f"{aid}: name missing")
        fields = a.get("fields")
        if not isinstance(fields, list) or not fields:
            fail(f"{aid}: needs at least one field")
        for f in fields:
            if not isinstance(f, dict) or f.get("colour") not in colours:
                fail(f"{aid}: field colour {f.get('colour') if isinstance(f, dict) else f!r} is not listed in colours")
            m = f.get("min")
            if not isinstance(m, int) or isinstance(m, bool) or not 1 <= m <= 6:
                fail(f"{aid}: field min must be 1 to 6")
            used_colours.add(f["colour"])
    if not d["artifacts"]:
        fail("the sheet has no artifacts")
    if used_colours != set(colours):
        fail(f"colour(s) {sorted(set(colours) - used_colours)} appear on no artifact")


def load_sheet(path: str | Path | None = None) -> Sheet:
    p = Path(path) if path is not None else DATA_DIR / "sheet.toml"
    with open(p, "rb") as fh:
        return Sheet(tomllib.load(fh))


def load_config() -> dict[str, Any]:
    with open(DATA_DIR / "config.toml", "rb") as fh:
        return tomllib.load(fh)


SHEET = load_sheet()
CONFIG = load_config()
