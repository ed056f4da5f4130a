"""The legal-listing fixture of the native Shuluri core (grimoire/games/shuluri/native/tests/data/
legal.json): positions of random games of every configuration (2 and 4 players, both four-player modes,
the optional rules, the rule flags that change the listing), chosen so that every decision kind and
every kind of act action (each spell among them) appears, with the Python engine's legal action
texts in order and its legal ids (`codec.legal_ids`). The crate's tests/legal.rs compares itself
with them; tests/shuluri/test_native_legal_fixture.py checks that the file is still what the Python
engine computes.

    python scripts/shuluri_native_legal.py                 # check: exit 1 if the fixture is out of date
    python scripts/shuluri_native_legal.py --update        # rewrite it after an intended change
    python scripts/shuluri_native_legal.py --wide 3000 --out /tmp/wide.json    # many positions, not
        # committed: SHULURI_LEGAL_WIDE=/tmp/wide.json cargo test --release -- --ignored wide
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

import grimoire
from grimoire.core.rng import Rng
from grimoire.games.shuluri import board as B
from grimoire.games.shuluri.codec import legal_ids

_SPEC = importlib.util.spec_from_file_location("shuluri_native_fixtures",
                                               Path(__file__).resolve().parent / "shuluri_native_fixtures.py")
assert _SPEC is not None and _SPEC.loader is not None
_FIX = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_FIX)
FILE = _FIX.FIXTURES / "legal.json"

# (players, seed, options): every configuration the listing reads
GAMES: list[tuple[int, int, dict]] = [
    (2, 31, {}),
    (2, 32, {"optional_poison_vial": True, "optional_magic_potion": True, "gladiator_type": "sword_artist",
             "allow_single_naming": True}),
    (2, 33, {"spells_need_line_of_fire": True, "self_spell_allows_attack": True, "spells_per_step": "unlimited",
             "heaps_per_gladiator": 2}),
    (2, 34, {"enter_forces_attack": True, "ranged_trap_requires_entry": False, "traps_assigned_to_character": False,
             "kitoro_forras_kind": "ranged", "allow_futile_ranged": True}),
    (4, 35, {"mode": "ffa"}),
    (4, 36, {"mode": "pairs", "gladiator_types": ["heavy", "sword_artist", "heavy", "sword_artist"],
             "madness_from_pool": True}),
    (4, 37, {"mode": "pairs", "spells_need_line_of_fire": True, "optional_poison_vial": True}),
]
MAX_ACTIONS = 3000
PER_GAME = 6            # random act positions kept per game (besides those that show something new)


def _policy(rng: Rng, acts: list):
    """Random play that prefers spells and attacks (so warlock and fighting positions come up)."""
    hot = [a for a in acts if a.kind in ("cast", "attack", "shoot", "javelin", "net", "order", "trap", "cloud")]
    if hot and rng.random() < 0.5:
        return hot[rng.randint(0, len(hot) - 1)]
    if len(acts) > 1 and acts[-1].text == "end" and rng.random() < 0.7:
        acts = acts[:-1]            # act longer in a step
    return acts[rng.randint(0, len(acts) - 1)]


def _tokens(s, legal: list) -> set[str]:
    """What a position shows: its decision kind, and for a step each kind of action (a spell by key)."""
    top = s.stack.top
    if top is None:
        return {"none"}
    out = {top.kind}
    if top.kind == "act":
        for a in legal:
            w = a.text.split()
            out.add("act:" + (w[1] + (":" + w[2] if w[1] in ("cast", "attack") and len(w) > 3 else
                                      ":" + w[2] if w[1] == "cast" else "") if len(w) > 1 else w[0]))
    return out


def _record(s, legal: list) -> dict:
    d = s.to_dict()
    d["history"] = []
    d["state"]["events"] = []
    return {"state": d, "legal": [a.text for a in legal], "ids": legal_ids(s)}


def _positions(players: int, seed: int, options: dict, keep_all: bool):
    """The positions of one random game: (state clone, legal actions)."""
    s = grimoire.new_game("shuluri", players=players, seed=seed, **options)
    rng = Rng(seed)
    n = 0
    while not s.is_terminal() and n < MAX_ACTIONS:
        legal = s.legal_actions()
        yield s, legal
        s.apply(_policy(rng, legal))
        n += 1
    yield s, s.legal_actions()


def legal_fixture() -> dict:
    out = []
    seen: set[str] = set()
    for players, seed, options in GAMES:
        rng = Rng(seed + 1000)
        kept = 0
        for s, legal in _positions(players, seed, options, False):
            new = _tokens(s, legal) - seen
            if new or (kept < PER_GAME and s.stack.top is not None and s.stack.top.kind == "act"
                       and rng.random() < 0.01):
                seen |= new
                out.append(_record(s, legal))
                kept += 1
    out.extend(_record(s, s.legal_actions()) for s in _crafted())
    return {"states": out}


def _crafted() -> list:
    """Positions random play seldom reaches, built with the engine's own objects from the states
    fixture's zombie game (seat 0's warlock raised the enemy's d1): the step with 'wl order', the
    zombie's order, a body to raise, gladiators in melee (weapon breaking and takedowns, the
    halberd's reach), Chain Lightning's next leap and the Swinging Beam's shove."""
    from grimoire.core.decisions import Decision
    from grimoire.games.shuluri.damage import hurt_ep
    from grimoire.games.shuluri.data import HEAP_SETS, SPELL_BY_KEY
    from grimoire.games.shuluri.fig import IN_HAND, IN_HEAP

    s = _FIX._with_zombie(grimoire.new_game("shuluri", players=2, seed=16))
    rng = Rng(17)
    for _ in range(3000):       # seat 0's step with the warlock named, before he casts
        top = s.stack.top
        if (top is not None and top.kind == "act" and top.seat == 0 and 1 in s.named and s.figs[1].alive
                and not s.figs[1].casts):
            break
        acts = s.legal_actions()
        calm = [a for a in acts if a.kind not in ("cast", "attack", "shoot", "trap")] or acts
        s.apply(calm[rng.randint(0, len(calm) - 1)])
    out = [s.clone()]
    order = next((a for a in s.legal_actions() if a.kind == "order"), None)
    if order is not None:
        t = s.clone()
        t.apply(order)
        out.append(t)
    t = s.clone()               # a body on the warlock's field and the disc to raise it
    body = t.figs[5 + 4]
    if body.alive:
        body.field = t.figs[1].field
        hurt_ep(t, body, 99)
    t.teams[0].discs = [SPELL_BY_KEY["undead"].level, SPELL_BY_KEY["chain"].level]
    t.pool = max(t.pool, 8)
    t.listed = None
    out.append(t)
    glad, foe = 0, 5            # the gladiators in melee in the gladiator's step
    for weapon, beside in (("greatsword", False), ("mace_shield", False), ("halberd", True)):
        t = s.clone()
        t.named = [glad]
        t.gpool = 10
        g = t.figs[glad]
        g.sets = [IN_HAND if k == weapon else IN_HEAP for k in HEAP_SETS]
        g.part_at = -1
        g.attacked = g.disengaged = g.cast_other = g.down = False
        if beside:
            free = [n for n in B.NEIGHBOURS[g.field] if n >= 0 and B.IN_C[n] and t.count_at(n) < B.CAPACITY]
            t.figs[foe].field = free[0]
        else:
            t.figs[foe].field = g.field
        t.listed = None
        out.append(t)
    for hop in (1, 2):          # Chain Lightning leaps on from the enemy nearest to the warlock
        t = s.clone()
        prev = min((f for f in t.figs[5:10] if f.alive and f.field >= 0),
                   key=lambda f: B.block_distance(t.figs[1].field, f.field))
        t.stack.push(Decision("chain", 0, (1, hop, prev.id)))
        t.listed = None
        out.append(t)
    t = s.clone()
    target = next(f for f in t.figs[5:10] if f.alive and f.field >= 0 and not B.IN_C[f.field])
    t.stack.push(Decision("shove", 0, target.id))
    t.listed = None
    out.append(t)
    return out


def wide(n: int, seed: int) -> dict:
    """About n positions of random games (every configuration in turn), for a check that is not committed."""
    out: list[dict] = []
    i = 0
    while len(out) < n:
        players, _seed, options = GAMES[i % len(GAMES)]
        for s, legal in _positions(players, seed + i, options, True):
            if len(out) >= n:
                break
            out.append(_record(s, legal))
        i += 1
    return {"states": out}


def dump_text() -> str:
    """The fixture file's text as the Python engine computes it now."""
    return _FIX.dump(legal_fixture())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true", help="rewrite the fixture")
    ap.add_argument("--wide", type=int, default=0, help="write this many positions to --out instead")
    ap.add_argument("--out", type=Path, help="the file for --wide")
    ap.add_argument("--seed", type=int, default=100, help="the first game's seed for --wide")
    args = ap.parse_args()
    if args.wide:
        if args.out is None:
            ap.error("--wide needs --out FILE")
        args.out.write_text(json.dumps(wide(args.wide, args.seed)), encoding="utf-8")
        print(f"wrote {args.wide} positions to {args.out}")
        return 0
    text = dump_text()
    if args.update:
        FILE.write_text(text, encoding="utf-8")
        print(f"wrote {FILE} ({len(text):,} bytes)")
        return 0
    if not FILE.exists() or FILE.read_text(encoding="utf-8") != text:
        print("out of date: legal.json (python scripts/shuluri_native_legal.py --update)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
