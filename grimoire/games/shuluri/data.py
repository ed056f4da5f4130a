"""Shuluri Viadal's data tables (the TOML files in data/), loaded once into typed constants.

Indices used everywhere: roles 0..4 (gl wl xb d1 d2), teams by seat 0..3 (letters a..d), spells
0..30 (spec order), trap cards 1..16 (their printed numbers), heap weapon sets 0..4.
Character ids: seat * 5 + role for the fighters; a zombie raised from fighter k has id 5 * P + k
(P = number of players), so each body gives at most one zombie (spell 15).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parent / "data"


def _load(name: str) -> dict[str, Any]:
    return tomllib.loads((DATA_DIR / name).read_text(encoding="utf-8"))


_CH = _load("characters.toml")
_WP = _load("weapons.toml")
_SK = _load("skills.toml")
_SP = _load("spells.toml")
_TR = _load("traps.toml")
_SU = _load("setup.toml")
_MO = _load("modes.toml")
_OP = _load("optional.toml")

LETTERS = "abcd"
MAX_SEATS = 4

# --- roles and characters (20.2) ---------------------------------------------------------------------------
ROLES: tuple[str, ...] = tuple(_CH["roles"])
GL, WL, XB, D1, D2 = range(5)
N_ROLES = len(ROLES)
ROLE_INDEX = {r: i for i, r in enumerate(ROLES)}
NON_GLADIATORS = tuple(i for i in range(N_ROLES) if i != GL)


@dataclass(frozen=True)
class RoleStats:
    code: str
    name: str
    title: str
    te: int
    ve: int
    ce: int
    ep: int
    eg: int
    me: int
    move: int
    armour: str
    sfe: int
    stp: int
    ammo: int
    javelins: int
    nets: int
    skills: tuple[str, ...]
    ranged_weapon: str


ROLE_STATS: tuple[RoleStats, ...] = tuple(
    RoleStats(code=r, name=_CH["role"][r]["name"], title=_CH["role"][r]["title"], te=_CH["role"][r]["te"],
              ve=_CH["role"][r]["ve"], ce=_CH["role"][r]["ce"], ep=_CH["role"][r]["ep"], eg=_CH["role"][r]["eg"],
              me=_CH["role"][r]["me"], move=_CH["role"][r]["move"], armour=_CH["role"][r]["armour"],
              sfe=_CH["role"][r]["sfe"], stp=_CH["role"][r]["stp"], ammo=_CH["role"][r]["ammo"],
              javelins=_CH["role"][r]["javelins"], nets=_CH["role"][r]["nets"],
              skills=tuple(_CH["role"][r]["skills"]), ranged_weapon=_CH["role"][r]["ranged_weapon"])
    for r in ROLES)


@dataclass(frozen=True)
class GladiatorType:
    key: str
    ep: int
    sfe: int
    stp: int
    te_bonus: int
    extra_skills: tuple[str, ...]
    armour: str
    crossbow_after: int
    daggers_after: int


GLADIATOR_TYPES: dict[str, GladiatorType] = {
    k: GladiatorType(k, v["ep"], v["sfe"], v["stp"], v["te_bonus"], tuple(v["extra_skills"]), v["armour"],
                     v["crossbow_after_stp_lost"], v["daggers_after_stp_lost"])
    for k, v in _CH["gladiator"].items()}
RANGED_RANGE: dict[str, int] = {k: v["range"] for k, v in _CH["ranged"].items()}
ARMOUR_VS_LIGHTNING: dict[str, bool] = {k: v["lightning"] for k, v in _CH["armour"].items()}
STP_RING = _CH["stp"]["ring_threshold"]
STP_GLADIATOR = _CH["stp"]["gladiator_threshold"]
GLADIATOR_KEEPS_SFE = _CH["stp"]["gladiator_keeps_sfe"]
ZOMBIE_EP_DIVISOR = _CH["zombie"]["ep_divisor"]
ZOMBIE_SFE = _CH["zombie"]["sfe"]
ZOMBIE_MAN = _CH["zombie"]["man_per_round"]
ZOMBIE_FIELDS = _CH["zombie"]["fields_per_round"]

# --- weapons (20.3) -----------------------------------------------------------------------------------------
HEAP_SETS: tuple[str, ...] = tuple(_WP["heap_sets"])
N_SETS = len(HEAP_SETS)


@dataclass(frozen=True)
class Weapon:
    key: str
    name: str
    te: int
    ve: int
    skills: tuple[str, ...]
    hand_free: bool
    drop_to: str
    two_handed: bool
    reach: int = 0
    no_takedown: bool = False
    unbreakable: bool = False


WEAPONS: dict[str, Weapon] = {
    k: Weapon(k, v["name"], v["te"], v["ve"], tuple(v["skills"]), v["hand_free"], v["drop_to"], v["two_handed"],
              v.get("reach", 0), v.get("no_takedown", False), v.get("unbreakable", False))
    for k, v in _WP["weapon"].items()}
JAVELIN_TE = _WP["thrown"]["javelin"]["te"]
JAVELIN_RANGE = _WP["thrown"]["javelin"]["range"]
NET_TE = _WP["thrown"]["net"]["te"]
NET_RANGE = _WP["thrown"]["net"]["range"]

# --- skills (20.4) --------------------------------------------------------------------------------------------
SKILLS: dict[str, dict[str, Any]] = _SK
RUN_COST = _SK["running"]["cost"]
RUN_FIELDS_PER_MAN = _SK["running"]["fields_per_man"]
RUN_MOVE_BONUS = _SK["running"]["move_bonus"]
SNEAK_COST = _SK["sneaking"]["cost_per_field"]
HIDE_COST = _SK["sneaking"]["hide_cost"]
SNEAK_MAX_BLOCKS = _SK["sneaking"]["max_block_distance_to_target"]
AIM_COST = _SK["aiming"]["cost"]
AIM_BONUS = _SK["aiming"]["ce_bonus"]
DODGE_COST = _SK["dodge"]["cost"]
DODGE_BONUS = _SK["dodge"]["bonus"]
ACRO_COST = _SK["acrobatics"]["cost"]
BREAK_COST = _SK["weapon_break"]["cost"]
TAKEDOWN_COST = _SK["takedown"]["cost"]
DOWN_VE = _SK["takedown"]["down_ve"]
STAND_COST = _SK["takedown"]["stand_up_cost"]
BELL_COST = _SK["golden_bell"]["cost"]
BELL_SFE = _SK["golden_bell"]["sfe_bonus"]

# --- spells (15) ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spell:
    index: int
    key: str
    number: int
    en: str
    hu: str
    level: int
    type: str
    range: int | str
    target: str
    strength: int
    resistance: str
    duration: int | str
    harmful: bool
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def is_touch(self) -> bool:
        return self.range == "touch"

    @property
    def blocks(self) -> int:
        """The range in blocks (G14.5) of a spell that is not cast by touch."""
        if isinstance(self.range, str):
            raise ValueError(f"{self.key} is cast by touch: it has no range in blocks")
        return self.range

    @property
    def is_lightning_attack(self) -> bool:
        return "lightning" in self.params

    def mods(self, key: str = "mods") -> tuple[tuple[str, int], ...]:
        return tuple(sorted(self.params.get(key, {}).items()))


_SPELL_BASE = ("key", "number", "en", "hu", "level", "type", "range", "target", "strength", "resistance", "duration",
               "harmful")
SPELLS: tuple[Spell, ...] = tuple(
    Spell(i, s["key"], s["number"], s["en"], s["hu"], s["level"], s["type"], s["range"], s["target"], s["strength"],
          s["resistance"], s["duration"], s["harmful"], {k: v for k, v in s.items() if k not in _SPELL_BASE})
    for i, s in enumerate(_SP["spell"]))
SPELL_BY_KEY: dict[str, Spell] = {s.key: s for s in SPELLS}
N_SPELLS = len(SPELLS)
MAX_LEVEL = max(s.level for s in SPELLS)

# --- traps (20.5) --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trap:
    number: int
    en: str
    hu: str
    kind: str
    cost: int
    params: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)


TRAPS: dict[int, Trap] = {
    t["number"]: Trap(t["number"], t["en"], t["hu"], t["kind"], t["cost"],
                      {k: v for k, v in t.items() if k not in ("number", "en", "hu", "kind", "cost")})
    for t in _TR["trap"]}
N_TRAP_CARDS = _SU["hands"]["trap_cards"]
RANGED_TRAPS = tuple(n for n, t in sorted(TRAPS.items()) if t.kind == "ranged")
DIRECT_TRAPS = tuple(n for n, t in sorted(TRAPS.items()) if t.kind == "direct")
KITORO = next(n for n, t in TRAPS.items() if t.get("works_in_c"))

# --- setup and MAN (5, 7, 8, 20.6) ------------------------------------------------------------------------------------
TRAPS_PER_HAND = _SU["hands"]["traps"]
DISCS_PER_HAND = _SU["hands"]["discs"]
DISC_POOL: tuple[int, ...] = tuple(_SU["discs"]["per_level"])     # count of discs of level 1..5
AMULETS: tuple[str, ...] = tuple(_SU["amulets"]["kinds"])
RESIST_VALUES: tuple[int, ...] = tuple(_SU["resistance"]["values"])
MAN = _SU["man"]
COST = _SU["costs"]
NAMES_PER_STEP = _SU["names"]["per_step"]
ROUND_CAP: int = _SU["game"]["round_cap"]      # the default max_rounds

# --- four-player modes (20.10) and optional rules (20.8) --------------------------------------------------------
MODES: dict[str, dict[str, Any]] = _MO
VIAL = _OP["poison_vial"]
POTION = _OP["magic_potion"]


@cache
def char_name(cid: int, players: int) -> str:
    """'agl', 'bxb', ... for fighters; 'z' + the body's name for a zombie."""
    base = cid - 5 * players if cid >= 5 * players else cid
    name = LETTERS[base // 5] + ROLES[base % 5]
    return "z" + name if cid >= 5 * players else name


def all_char_names(players: int) -> list[str]:
    return [char_name(i, players) for i in range(5 * players)] + \
        [char_name(5 * players + i, players) for i in range(5 * players) if i % 5 != GL]
