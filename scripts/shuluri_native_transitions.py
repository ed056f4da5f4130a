"""Transition fixtures for the native Shuluri core's apply (grimoire/games/shuluri/native): random games
of the Python reference engine written as a start state and, per action, its text and what it changed
in the saved state (a patch of ``to_dict()``), so that the crate's `cargo test` (tests/apply.rs) applies
every action to its own state and must write the identical JSON. Also the RNG's reference draws.

    python scripts/shuluri_native_transitions.py            # check: exit 1 if a fixture is out of date
    python scripts/shuluri_native_transitions.py --update   # rewrite after an intended change
    python scripts/shuluri_native_transitions.py --magic [--update]   # only transitions_magic.json

transitions_magic.json (policy "magic") are games biased to cast spells, the least cast spell first, so
that the crate's tests/magic.rs replays every spell, its follow-up decisions and what a spell sets off
later (Firestorm's blasts, a madman's actions, crossing a cage).

Event texts are left out (null): the crate logs events as key and arguments, the Python wrapper
words them (as view.py does). tests/shuluri/test_native_transitions.py checks the committed files.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import grimoire
from grimoire.core.rng import Rng
from grimoire.games.shuluri import board as B
from grimoire.games.shuluri.damage import kill
from grimoire.games.shuluri.data import WL
from grimoire.games.shuluri.values import available

_spec = importlib.util.spec_from_file_location(
    "shuluri_native_fixtures", Path(__file__).resolve().parent / "shuluri_native_fixtures.py")
_fixtures = importlib.util.module_from_spec(_spec)   # type: ignore[arg-type]
_spec.loader.exec_module(_fixtures)                  # type: ignore[union-attr]
FIXTURES: Path = _fixtures.FIXTURES
dump = _fixtures.dump

# (players, seed, options, actions, policy): games from their start, both player counts and four-player
# modes, the optional rules, the sword artist, preset dice; cut after ``actions`` actions (the file's size).
# Policy "random": uniform over the legal actions; "press": melee first, else mostly the move that
# comes closest to an enemy (random play hardly ever fights in melee)
GAMES: list[tuple[int, int, dict[str, Any], int, str]] = [
    (2, 21, {}, 700, "random"),
    (2, 22, {"optional_poison_vial": True, "optional_magic_potion": True, "gladiator_type": "sword_artist"}, 500,
     "random"),
    (2, 23, {"heaps_per_gladiator": 2, "spells_per_step": "unlimited", "allow_single_naming": True}, 500, "random"),
    (4, 24, {"mode": "ffa"}, 600, "random"),
    (4, 25, {"mode": "pairs", "gladiator_types": ["heavy", "sword_artist", "heavy", "sword_artist"]}, 600, "random"),
    (2, 26, {"dice": [10, 1, 7, 7, 3]}, 300, "random"),
    (2, 31, {"optional_poison_vial": True, "gladiator_type": "sword_artist"}, 500, "press"),
    (4, 32, {"mode": "pairs", "push_compare": "d10"}, 500, "press"),
]

# games that cast: every spell at least once (the magic policy prefers the spell cast least so far)
MAGIC_GAMES: list[tuple[int, int, dict[str, Any], int, str]] = [
    (2, 41, {}, 700, "magic"),
    (2, 42, {"spells_per_step": "unlimited", "optional_magic_potion": True}, 600, "magic"),
    (4, 43, {"mode": "ffa"}, 700, "magic"),
    (4, 44, {"mode": "pairs", "cage_follows_caster": True, "halaltanc_full_rounds": True}, 700, "magic"),
    (2, 45, {"self_spell_allows_attack": True, "spells_need_line_of_fire": True, "villamvert_melee_only": True},
     600, "magic"),
    (2, 46, {}, 400, "body"),
]


def strip_texts(d: dict) -> dict:
    """The saved dict with every event's English text left out (null)."""
    for e in d["state"]["events"]:
        e[1] = None
    return d


def diff(a: Any, b: Any) -> Any:
    """A patch taking a to b: {"$set": v} replaces, {"$app": [...]} appends to a list, {"$idx": {i: patch}}
    patches list items, a plain dict patches a dict's keys (the crate's test applies it)."""
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return {k: diff(a[k], b[k]) for k in a if a[k] != b[k]}
    if isinstance(a, list) and isinstance(b, list):
        if len(b) > len(a) and b[:len(a)] == a:
            return {"$app": b[len(a):]}
        if len(a) == len(b) and any(isinstance(x, dict) for x in a):
            return {"$idx": {str(i): diff(x, y) for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y}}
    return {"$set": b}


def patch(a: Any, p: Any) -> Any:
    """Apply ``diff``'s patch (the Python twin of the crate's, for the check)."""
    if "$set" in p:
        return p["$set"]
    if "$app" in p:
        return a + p["$app"]
    if "$idx" in p:
        items = list(a)
        for i, q in p["$idx"].items():
            items[int(i)] = patch(items[int(i)], q)
        return items
    out = dict(a)
    for k, q in p.items():
        out[k] = patch(a[k], q)
    return out


def kind_of(s: Any, text: str) -> str:
    """'decision kind:action kind' of an action in this position (the fixture's and the report's key)."""
    a = s.parse_action(text)
    return f"{s.stack.top.kind}:{a.kind}"


def _press(s: Any, acts: list, rng: Rng) -> Any:
    """Melee when it can, else 7 times in 10 the move that ends closest to an enemy, else any action."""
    melee = [a for a in acts if a.kind == "attack"]
    if melee:
        return melee[rng.randint(0, len(melee) - 1)]
    top = s.stack.top
    if top.kind == "act" and rng.randint(1, 10) <= 7:
        foes = [g.field for g in s.figs if g is not None and g.alive and g.field >= 0 and s.enemies(g.seat, top.seat)]
        best, dist = None, 10**9
        for a in acts:
            if a.kind == "move" and foes:
                n = B.NEIGHBOURS[s.figs[top.seat * 5 + a.args[0]].field][a.args[1]]
                d = min(B.distance(n, x) for x in foes)
                if d < dist:
                    best, dist = a, d
        if best is not None:
            return best
    return acts[rng.randint(0, len(acts) - 1)]


def _magic(s: Any, acts: list, rng: Rng, cast: dict[str, int]) -> Any:
    """8 times in 10 a spell when one can be cast (of those cast least so far), else as ``_press``."""
    spells = [a for a in acts if a.kind == "cast"]
    if spells and rng.randint(1, 10) <= 8:
        least = min(cast.get(a.args[1], 0) for a in spells)
        spells = [a for a in spells if cast.get(a.args[1], 0) == least]
        a = spells[rng.randint(0, len(spells) - 1)]
        cast[a.args[1]] = least + 1
        return a
    return _press(s, acts, rng)


def _lay_body(s: Any, rng: Rng, cast: dict[str, int]) -> Any:
    """Play (unrecorded) until a warlock may cast Raise Undead, then an enemy character dies on his field:
    the start of a game that raises a zombie and lets it act (random play seldom gets there)."""
    while not s.is_terminal():
        top = s.stack.top
        if top.kind == "act":
            w = s.figs[top.seat * 5 + WL]
            room = s.count_at(w.field) < B.CAPACITY - 1
            foes = [f for f in s.figs[:5 * s.num_players] if f.alive and not f.is_gladiator and f.role != WL
                    and s.enemies(f.seat, w.seat) and not B.IN_C[w.field]]
            if (w.id in s.named and 3 in s.teams[top.seat].discs and room and foes and not w.attacked
                    and available(s, w) >= 3):
                f = foes[0]
                f.field = w.field
                kill(s, f)
                return grimoire.load_game(s.to_dict())
        s.apply(_magic(s, s.legal_actions(), rng, cast))
    raise RuntimeError("no warlock could raise a body in this game")


def game_fixture(players: int, seed: int, options: dict, n_actions: int, policy: str,
                 cast: dict[str, int] | None = None) -> dict:
    s: Any = grimoire.new_game("shuluri", players=players, seed=seed, **options)
    rng = Rng(seed)
    cast = {} if cast is None else cast
    if policy == "body":
        s = _lay_body(s, rng, cast)
    start = strip_texts(s.to_dict())
    prev = start
    steps: list[dict[str, Any]] = []
    while not s.is_terminal() and len(steps) < n_actions:
        acts = s.legal_actions()
        if policy == "random":
            a = acts[rng.randint(0, len(acts) - 1)]
        else:
            a = _press(s, acts, rng) if policy == "press" else _magic(s, acts, rng, cast)
        key = f"{s.stack.top.kind}:{a.kind}"
        s.apply(a)
        now = strip_texts(s.to_dict())
        steps.append({"action": a.text, "kind": key, "patch": diff(prev, now)})
        prev = now
    return {"players": players, "seed": seed, "options": options, "policy": policy, "start": start, "steps": steps}


def transitions_fixture() -> dict:
    return {"games": [game_fixture(*g) for g in GAMES]}


def magic_fixture() -> dict:
    cast: dict[str, int] = {}
    return {"games": [game_fixture(*g, cast=cast) for g in MAGIC_GAMES]}


def dump_transitions(d: dict) -> str:
    """One game's header and start a line, then one step a line (a diff shows the step that changed)."""
    def one(v: Any) -> str:
        return json.dumps(v, separators=(",", ":"))
    games = []
    for g in d["games"]:
        head = ",\n".join(f"{json.dumps(k)}: {one(v)}" for k, v in g.items() if k != "steps")
        games.append("{\n" + head + ',\n"steps": [\n' + ",\n".join(one(x) for x in g["steps"]) + "\n]}")
    return '{"games": [\n' + ",\n".join(games) + "\n]}\n"


def rng_fixture() -> dict:
    """grimoire.core.rng.Rng's draws from a few seeds: next64, below, randint(1, 10), shuffle."""
    out = []
    for seed in (0, 1, 21, 2**63 + 5, 2**64 - 1):
        r = Rng(seed)
        rec: dict[str, Any] = {"seed": str(seed), "state": str(r.state)}
        rec["next64"] = [str(r.next64()) for _ in range(4)]
        rec["below"] = [[n, r.below(n)] for n in (1, 2, 3, 10, 1000, 2**40 + 3)]
        rec["d10"] = [r.randint(1, 10) for _ in range(20)]
        items = list(range(12))
        r.shuffle(items)
        rec["shuffle12"] = items
        rec["after"] = str(r.state)
        out.append(rec)
    return {"rng": out}


FILES = {"transitions.json": (transitions_fixture, dump_transitions), "rng.json": (rng_fixture, dump),
         "transitions_magic.json": (magic_fixture, dump_transitions)}
MAGIC = "transitions_magic.json"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true", help="rewrite the fixtures")
    ap.add_argument("--magic", action="store_true", help=f"only {MAGIC} (the spells' games)")
    args = ap.parse_args()
    stale = []
    for name, (make, write) in FILES.items():
        if args.magic and name != MAGIC:
            continue
        path = FIXTURES / name
        text = write(make())
        if args.update:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path} ({len(text):,} bytes)")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(name)
    if stale:
        print(f"out of date: {', '.join(stale)} (python scripts/shuluri_native_transitions.py --update)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
