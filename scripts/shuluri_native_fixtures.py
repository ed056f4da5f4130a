"""Fixtures for the native Shuluri core (grimoire/games/shuluri/native): what the Python reference
engine computes, written as JSON for the crate's `cargo test` to compare with (so neither CI nor the
crate needs the other side at test time). tests/shuluri/test_native_fixtures.py checks that the
committed files still match the Python engine.

    python scripts/shuluri_native_fixtures.py            # check: exit 1 if a fixture is out of date
    python scripts/shuluri_native_fixtures.py --update   # rewrite the fixtures after an intended change
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import zlib
from pathlib import Path

import grimoire
from grimoire.core.rng import Rng
from grimoire.games.shuluri import board as B

FIXTURES = Path(__file__).resolve().parent.parent / "grimoire" / "games" / "shuluri" / "native" / "tests" / "data"
SAMPLE_SEED = 20
SAMPLE_LINES = 1000
# whole rows of lines too: a rim field, one whose row has lines leaving the arena, the last field
LINE_ROWS = (0, 273, -1)


def line_text(a: int, b: int) -> str:
    """One line of fire as canonical text (the crate's `line_text` writes the same)."""
    ln = B.line(a, b)
    mid = ",".join(str(f) for f in ln.middle)
    walls = ",".join(f"{k}:{g}" for k, g in ln.walls)
    return f"{a} {b}|{mid}|{ln.borders}|{walls}|{int(ln.off_board)}\n"


def lines_digest() -> int:
    """CRC-32 of every ordered pair's line (326,041 at 571 fields), in (a, b) order."""
    crc = 0
    n = B.N_FIELDS
    for a in range(n):
        crc = zlib.crc32("".join(line_text(a, b) for b in range(n)).encode(), crc)
    return crc


def board_fixture(with_digest: bool = True) -> dict:
    n = B.N_FIELDS
    rng = random.Random(SAMPLE_SEED)
    pairs = [(rng.randrange(n), rng.randrange(n)) for _ in range(SAMPLE_LINES)]
    closed = [False] * B.N_GATES
    opened = [True] * B.N_GATES
    patterns = [[rng.random() < 0.5 for _ in range(B.N_GATES)] for _ in range(2)]
    d: dict = {
        "n_fields": n,
        "coords": [list(c) for c in B.COORDS],
        "zone": list(B.ZONE),
        "quarter": list(B.QUARTER),
        "region": list(B.REGION),
        "neighbours": [list(r) for r in B.NEIGHBOURS],
        "edge": [list(r) for r in B.EDGE],
        "gates": [[g.id, g.wall, list(g.fields), list(g.regions)] for g in B.GATES],
        "gate_at": [list(r) for r in B.GATE_AT],
        "gates_of_field": [list(r) for r in B.GATES_OF_FIELD],
        "steps": [[[list(s) for s in row] for row in B.STEPS[f]] for f in range(n)],
        "heaps": list(B.HEAPS),
        "trap_fields": list(B.TRAP_FIELDS),
        "deploy_c": [list(x) for x in B.DEPLOY_C],
        "deploy_r1": [list(x) for x in B.DEPLOY_R1],
        "block": [list(b) for b in B.BLOCK],
        "blocks": [list(b) for b in B.BLOCKS],
        "block_id": list(B.BLOCK_ID),
        "block_dist": [list(r) for r in B.BLOCK_DIST],
        "rotate180": [B.rotate180(f) for f in range(n)],
        "within": [[f, k, B.fields_within_blocks(f, k)] for f in range(0, n, 37) for k in range(4)],
        "area_fields": [[list(B.area_fields(c, g)) for c in range(n)] for g in (closed, opened, *patterns)],
        "regions_of": [[list(B.regions_of(f, g)) for f in range(n)] for g in (closed, opened, *patterns)],
        "gate_patterns": [closed, opened, *patterns],
        "hex_lines": [[a, b, [list(c) for c in B.hex_line(a, b)]] for a, b in pairs[:200]],
        "lines": [line_text(a, b) for a, b in pairs] + [line_text(a % n, b) for a in LINE_ROWS for b in range(n)],
    }
    if with_digest:
        d["lines_digest"] = lines_digest()
    return d


def dump(d: dict) -> str:
    """One key per line (one item per line for a list of records), so that a diff shows what changed."""
    def one(v) -> str:
        return json.dumps(v, separators=(",", ":"))

    def value(v) -> str:
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            return "[\n" + ",\n".join(one(x) for x in v) + "\n]"
        return one(v)
    body = ",\n".join(f"{json.dumps(k)}: {value(v)}" for k, v in d.items())
    return "{\n" + body + "\n}\n"


# (players, seed, options): random games whose states the crate loads and writes back; the options
# cover both player counts, the four-player modes, the optional rules and the sword artist
STATE_GAMES = [
    (2, 11, {}),
    (2, 12, {"optional_poison_vial": True, "optional_magic_potion": True, "gladiator_type": "sword_artist"}),
    (2, 13, {"heaps_per_gladiator": 2, "spells_per_step": "unlimited", "max_rounds": None}),
    (4, 14, {"mode": "ffa"}),
    (4, 15, {"mode": "pairs", "gladiator_types": ["heavy", "sword_artist", "heavy", "sword_artist"]}),
]
STATES_PER_GAME = 10
RARE = (
    lambda s: any(f is not None and f.zombie for f in s.figs),
    lambda s: any(a.key == "prison" for a in s.areas),
    lambda s: any(f is not None and f.order is not None for f in s.figs),
    lambda s: s.stack.top is not None and s.stack.top.kind in ("dodge", "push", "chain", "effect", "enemy", "shove"),
    lambda s: any(f is not None and len(f.effects) > 1 for f in s.figs),
)
KEEP = 6                # the history and the event log are most of a saved game; the rules read neither


def data_fixture() -> dict:
    """The tables of data.py as the crate's `data` module holds them (keyed tables as lists, in order)."""
    from dataclasses import asdict

    from grimoire.games.shuluri import data as D
    return {
        "roles": list(D.ROLES), "role_stats": [asdict(r) for r in D.ROLE_STATS],
        "gladiator_types": [asdict(g) for g in D.GLADIATOR_TYPES.values()],
        "ranged_range": [list(x) for x in D.RANGED_RANGE.items()],
        "armour_vs_lightning": [list(x) for x in D.ARMOUR_VS_LIGHTNING.items()],
        "stp_ring": D.STP_RING, "stp_gladiator": D.STP_GLADIATOR, "gladiator_keeps_sfe": D.GLADIATOR_KEEPS_SFE,
        "zombie": [D.ZOMBIE_EP_DIVISOR, D.ZOMBIE_SFE, D.ZOMBIE_MAN, D.ZOMBIE_FIELDS],
        "heap_sets": list(D.HEAP_SETS), "weapons": [asdict(w) for w in D.WEAPONS.values()],
        "thrown": [D.JAVELIN_TE, D.JAVELIN_RANGE, D.NET_TE, D.NET_RANGE],
        "skills": D.SKILLS, "spells": [asdict(s) for s in D.SPELLS], "max_level": D.MAX_LEVEL,
        "traps": [asdict(D.TRAPS[n]) for n in sorted(D.TRAPS)], "n_trap_cards": D.N_TRAP_CARDS,
        "ranged_traps": list(D.RANGED_TRAPS), "direct_traps": list(D.DIRECT_TRAPS), "kitoro": D.KITORO,
        "hands": [D.TRAPS_PER_HAND, D.DISCS_PER_HAND], "disc_pool": list(D.DISC_POOL), "amulets": list(D.AMULETS),
        "resist_values": list(D.RESIST_VALUES), "man": D.MAN, "cost": D.COST, "names_per_step": D.NAMES_PER_STEP,
        "round_cap": D.ROUND_CAP, "modes": [list(x) for x in D.MODES.items()], "vial": D.VIAL, "potion": D.POTION,
        "char_names": [D.all_char_names(2), D.all_char_names(4)],
    }


def states_fixture() -> dict:
    """Positions of random games (setup, play and the end): each one's saved form (``to_dict``, the
    history and the event log cut to their newest entries) and what the engine says about it: the player to move, the
    legal action texts in order, the winners."""
    out = []
    for players, seed, options in STATE_GAMES:
        s = grimoire.new_game("shuluri", players=players, seed=seed, **options)
        rng = Rng(seed)
        seen = []
        while not s.is_terminal() and len(seen) < 4000:
            seen.append(s.clone())
            acts = s.legal_actions()
            s.apply(acts[rng.randint(0, len(acts) - 1)])
        picks = {0, len(seen) - 1, *(rng.randint(0, len(seen) - 1) for _ in range(STATES_PER_GAME - 3))}
        for wanted in RARE:     # the first position of each rarer kind, where the game has one
            picks.update(i for i in [next((i for i, x in enumerate(seen) if wanted(x)), None)] if i is not None)
        picks = sorted(picks)
        out.extend(_record(st) for st in [seen[i] for i in picks] + [s])
    out.append(_record(_with_zombie(grimoire.new_game("shuluri", players=2, seed=16))))
    return {"states": out}


def _record(st) -> dict:
    d = st.to_dict()
    d["history"] = d["history"][-KEEP:]
    d["state"]["events"] = d["state"]["events"][-KEEP:]
    return {"state": d, "current_player": st.current_player, "legal": [a.text for a in st.legal_actions()],
            "winners": st.winners()}


def _with_zombie(s):
    """A position random play seldom reaches: seat 0's zombie raised from the enemy's dead d1, with a
    guard order (built with the engine's own functions, as tests/shuluri/test_automata.py does)."""
    from grimoire.games.shuluri.damage import hurt_ep
    from grimoire.games.shuluri.data import ZOMBIE_MAN
    from grimoire.games.shuluri.fig import new_zombie
    rng = Rng(16)
    while s.phase != "play" or s.round < 2:
        acts = s.legal_actions()
        s.apply(acts[rng.randint(0, len(acts) - 1)])
    body = s.figs[5 + 3]
    if body.field < 0:
        body.field = s.figs[0].field
    if body.alive:
        hurt_ep(s, body, 99)
    zid = 5 * s.num_players + body.id
    z = new_zombie(zid, body, 0, 1, body.field)
    z.zman = ZOMBIE_MAN
    z.order = ("guard", body.field)
    body.raised = True
    s.figs[zid] = z
    s.listed = None
    return s


FILES = {"board.json": board_fixture, "data.json": data_fixture, "states.json": states_fixture}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true", help="rewrite the fixtures")
    args = ap.parse_args()
    stale = []
    for name, make in FILES.items():
        path = FIXTURES / name
        text = dump(make())
        if args.update:
            FIXTURES.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path} ({len(text):,} bytes)")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(name)
    if stale:
        print(f"out of date: {', '.join(stale)} (python scripts/shuluri_native_fixtures.py --update)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
