"""Zavandor's data tables, loaded once from data/zavandor.toml into flat, index-based constants.

Indices used everywhere: gems 0..4 (opal, sapphire, emerald, diamond, ruby), card colours 0..3
(blue, green, white, red — the card colour of gem g is g - 1), tracks 0..5, characters 0..5,
artifacts 0..11, sentinels 0..8 (as auction items they are numbered 12..20).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

_RAW = tomllib.loads((Path(__file__).parent / "data" / "zavandor.toml").read_text(encoding="utf-8"))

MIN_PLAYERS = _RAW["players"]["min"]
MAX_PLAYERS = _RAW["players"]["max"]
TURN_ACTION_LIMIT = _RAW["limits"]["turn_action_limit"]
TURN_ACTION_LIMIT_MIN = _RAW["limits"]["turn_action_limit_min"]

# --- gems (2.1) ---------------------------------------------------------------------------------
_g = _RAW["gems"]
GEMS: tuple[str, ...] = tuple(_g["order"])
OPAL, SAPPHIRE, EMERALD, DIAMOND, RUBY = range(5)
GEM_SUPPLY = tuple(_g["supply"])
GEM_VP = tuple(_g["vp"])
GEM_COST = tuple(tuple(row) for row in _g["cost"])                       # [gem][gems level]
GEM_SALE = tuple(tuple(c // 2 for c in row) for row in GEM_COST)       # half, rounded down
GEM_COST_BY_LEVEL = tuple(tuple(GEM_COST[g][lv] for g in range(5)) for lv in range(5))  # [gems level][gem]
GEM_SALE_BY_LEVEL = tuple(tuple(GEM_SALE[g][lv] for g in range(5)) for lv in range(5))  # [gems level][gem]
MAX_RUBIES = _g["max_rubies"]
RUBY_FIRE_LEVEL = _g["ruby_needs_fire_level"]
DRUID_RUBY_FIRE_LEVEL = _g["druid_ruby_fire_level"]

# --- energy cards (2.2) -------------------------------------------------------------------------
_c = _RAW["cards"]
COLOURS: tuple[str, ...] = tuple(_c["colours"])
BLUE, GREEN, WHITE, RED = range(4)
CARD_VALUES = tuple(tuple(v for v, _n in _c[col]) for col in COLOURS)    # contiguous values per colour
CARD_COPIES = tuple(tuple(n for _v, n in _c[col]) for col in COLOURS)
CARD_MIN = tuple(v[0] for v in CARD_VALUES)
CARD_MAX = tuple(v[-1] for v in CARD_VALUES)
CARD_TOTAL = tuple(sum(n) for n in CARD_COPIES)
CARD_AVG = tuple(sum(v * n for v, n in zip(CARD_VALUES[c], CARD_COPIES[c], strict=True)) / CARD_TOTAL[c]
                 for c in range(4))
GEM_COLOUR = (-1, BLUE, GREEN, WHITE, RED)      # income card colour of each gem (opal: dust)

# --- concentrated energy (2.3) and dust (2.4, 2.5) ---------------------------------------------------
_k = _RAW["concentrated"]
CONC_VALUE = tuple(_k["value"])
CONC_UNITS = _k["units"]
CONC_GROUP = _k["group"]
CONC_DUST = _k["bonus_dust"]
_d = _RAW["dust"]
DUST_DENOMS = tuple(_d["denominations"])
DUST_UNITS = tuple(_d["units"])
CARD_UNITS = _d["card_units"]
OPAL_PER_THREE = _d["opal_per_three"]
OPAL_REMAINDER = tuple(_d["opal_remainder"])

# --- knowledge (2.6) ------------------------------------------------------------------------------
_t = _RAW["tracks"]
TRACKS: tuple[str, ...] = tuple(_t["order"])
GEMS_T, FLOW, FIRE, SAGES, ARTS_T, ACCUM = range(6)
TRACK_NAMES = tuple(_t["names"])
TRACK_COST = tuple(tuple(row) for row in _t["cost"])                # [track][level - 1]
HAND_ENTRY = tuple(_t["hand_limit_entry"])
LEVEL4_VP = _t["level4_vp"]
MAX_LEVEL = _t["max_level"]
FLOW_DUST = tuple(_t["flow_dust"])
ART_DISCOUNT = tuple(_t["artifact_discount"])
SENT_DISCOUNT = tuple(_t["sentinel_discount"])
EXTRA_SLOTS = tuple(_t["extra_slots"])
SAGES_COLOUR = tuple(COLOURS.index(c) for c in _t["sages_colour"])
SAGES_CARDS = _t["sages_cards"]
TOKEN_PRICES = tuple(_RAW["tokens"]["prices"])

BASE_HAND_LIMIT = _RAW["base"]["hand_limit"]
BASE_SLOTS = _RAW["base"]["slots"]
MAX_SLOTS = _RAW["base"]["max_slots"]

# --- characters (2.7) -----------------------------------------------------------------------------
_ch = _RAW["characters"]
CHARACTERS: tuple[str, ...] = tuple(_ch["order"])
WITCH, ELF, DRUID, FAIRY, MAGE, KOBOLD = range(6)
CHAR_TRACK = tuple(TRACKS.index(t) for t in _ch["track"])
CHAR_DUST = tuple(_ch["dust"])
STARTING_GEMS = tuple(_ch["starting_gems"])

# --- artifacts (2.8, 11) --------------------------------------------------------------------------
_a = _RAW["artifacts"]
ARTIFACTS: tuple[str, ...] = tuple(_a["order"])
(SPELLBOOK, RUNESTONE, BALL, BELT, MIRROR, PROTECTION, ELIXIR, MASK, WAND, CHALICE, CLOAK,
 TALISMAN) = range(12)
ARTIFACT_NAMES = tuple(_a["names"])
ART_LETTER = tuple(_a["letters"].index(x) for x in _a["deck"])
LETTERS = tuple(_a["letters"])
ART_MIN_BID = tuple(_a["min_bid"])
ART_VP = tuple(_a["vp"])
ART_COPIES_BY_PLAYERS = tuple(_a["copies"])
FREE_ADVANCES = tuple(_a["free_advances"].get(k, 0) for k in ARTIFACTS)
ONE_PER_PLAYER = frozenset(ARTIFACTS.index(k) for k in _a["one_per_player"])
ART_SLOTS = tuple(_a["slots"].get(k, 0) for k in ARTIFACTS)
ART_HAND_LIMIT = tuple(_a["hand_limit"].get(k, 0) for k in ARTIFACTS)
GEM_LOSS = frozenset(ARTIFACTS.index(k) for k in _a["gem_loss"])
FREE_GEM = tuple(GEMS.index(_a["free_gem"][k]) if k in _a["free_gem"] else -1 for k in ARTIFACTS)
INCOME_CARDS = tuple(COLOURS.index(_a["income_cards"][k]) if k in _a["income_cards"] else -1
                     for k in ARTIFACTS)
# ART_DISCOUNTS[item] = ((owned kind, amount per copy), ...)
ART_DISCOUNTS = tuple(tuple((ARTIFACTS.index(o), amt) for o, tgt, amt in _a["discounts"] if tgt == k)
                      for k in ARTIFACTS)
MASK_SENT_DISCOUNT = _a["mask_sentinel_discount"]

# --- sentinels (2.9, 12) --------------------------------------------------------------------------
_s = _RAW["sentinels"]
SENTINELS: tuple[str, ...] = tuple(_s["order"])
SENTINEL_NAMES = tuple(_s["names"])
SENT_MIN_BID = _s["min_bid"]
SENT_BASE_VP = _s["base_vp"]
SENT_END = _s["end_after_sold"]


def _bonus(spec):
    what, per, cap = spec
    if what == "gem_types":
        return ("types", (), per, cap)
    if what == "level4_tracks":
        return ("level4", (), per, cap)
    kind, _, names = what.partition(":")
    if kind == "active":
        return ("active", tuple(GEMS.index(n) for n in names.split(",")), per, cap)
    if kind == "artifacts":
        return ("arts", tuple(ARTIFACTS.index(n) for n in names.split(",")), per, cap)
    raise ValueError(f"unknown sentinel bonus {what!r}")


SENT_BONUS = tuple(_bonus(_s[name]) for name in SENTINELS)

# --- auction items: artifacts 0..11, sentinels 12..20 ------------------------------------------------
N_ART = len(ARTIFACTS)
ITEMS: tuple[str, ...] = ARTIFACTS + SENTINELS
ITEM_NAMES = ARTIFACT_NAMES + SENTINEL_NAMES
ITEM_MIN_BID = ART_MIN_BID + (SENT_MIN_BID,) * len(SENTINELS)

# --- turn order (2.10) ----------------------------------------------------------------------------
_o = _RAW["turn_order"]
VP_THRESHOLD = _o["threshold"]
ORDER_CARDS = tuple((a, s, cond) for a, s, cond in _o["cards"])
ROMAN = tuple(_o["roman"])
