"""Transition fixtures for the native Shuluri core's apply (grimoire/games/shuluri/native): random games
of the Python reference engine written as a start state and, per action, its text and what it changed
in the saved state (a patch of ``to_dict()``), so that the crate's `cargo test` (tests/apply.rs) applies
every action to its own state and must write the identical JSON. Also the RNG's reference draws.

    python scripts/shuluri_native_transitions.py            # check: exit 1 if a fixture is out of date
    python scripts/shuluri_native_transitions.py --update   # rewrite after an intended change
    python scripts/shuluri_native_transitions.py --update --only transitions_shots.json   # one file
    python scripts/shuluri_native_transitions.py --magic [--update]   # = --only transitions_magic.json
    python scripts/shuluri_native_transitions.py --wide 40 --out /tmp/s.json   # more such games, then in the
    SHULURI_SHOTS_WIDE=/tmp/s.json cargo test --release --test shots -- --ignored   # crate (not committed)

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
from grimoire.games.shuluri import actions as A
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
        best = _closest_move(s, acts, top.seat, _enemy_fields(s, top.seat))
        if best is not None:
            return best
    return acts[rng.randint(0, len(acts) - 1)]


def _enemy_fields(s: Any, seat: int) -> list[int]:
    return [g.field for g in s.figs if g is not None and g.alive and g.field >= 0 and s.enemies(g.seat, seat)]


def _closest_move(s: Any, acts: list, seat: int, goals: list[int]) -> Any:
    """The first move that ends nearest to one of ``goals`` (None without a move or a goal)."""
    best, dist = None, 10**9
    for a in acts:
        if a.kind == "move" and goals:
            n = B.NEIGHBOURS[s.figs[seat * 5 + a.args[0]].field][a.args[1]]
            d = min(B.distance(n, x) for x in goals)
            if d < dist:
                best, dist = a, d
    return best


# The shots, traps, cages and zombies file (transitions_shots.json): games that reach what random play
# seldom does. "craft" changes the position once the play starts (before the recorded start): "cage" puts
# an Imprisonment cage on seat 0's warlock and one of seat 1's around seat 0's first dagger; "traps" deals
# cards and places figures (_craft_traps); "gates" leaves each side one gate-bound card; "zombie" raises
# two zombies for seat 0 (one with an order); "cloud" an Acid Cloud and "storm" a Firestorm area at the
# board's centre. "shots" is the policy.
SHOTS_GAMES: list[tuple[int, int, dict[str, Any], int, str, str]] = [
    (2, 41, {"allow_futile_ranged": True, "optional_poison_vial": True}, 350, "shots", "cloud"),
    (2, 42, {"traps_assigned_to_character": False, "ranged_trap_requires_entry": False,
             "kitoro_forras_kind": "ranged"}, 300, "shots", ""),
    (2, 48, {}, 250, "shots", "traps"),
    (2, 49, {"optional_poison_vial": True}, 250, "shots", "traps"),
    (2, 50, {}, 200, "shots", "gates"),
    (2, 43, {}, 400, "shots", "cage"),
    (2, 44, {"cage_follows_caster": False, "cage_exempts_caster": True}, 350, "shots", "cage"),
    (2, 45, {}, 450, "shots", "zombie"),
    (4, 46, {"mode": "ffa"}, 400, "shots", "zombie"),
    (4, 47, {"mode": "pairs"}, 300, "shots", "storm"),
]


def _to_play(s: Any, rng: Rng) -> None:
    """Random setup choices until the first act decision of the game."""
    while s.stack.top.kind != "act":
        acts = s.legal_actions()
        s.apply(acts[rng.randint(0, len(acts) - 1)])


def _craft(s: Any, what: str, rng: Rng) -> None:
    from grimoire.games.shuluri import magic
    from grimoire.games.shuluri.data import D1, SPELL_BY_KEY, XB
    _to_play(s, rng)
    w = s.figs[WL]
    centre = B.INDEX[(0, 0)]
    if what == "cage":
        magic._area(s, w, SPELL_BY_KEY["prison"], w.field)
        magic._area(s, s.figs[5 + WL], SPELL_BY_KEY["prison"], s.figs[D1].field)   # seat 1's, around seat 0's dagger
        s.areas = [a._replace(end=s.round + 4) for a in s.areas]     # five rounds of crossings, not two
    elif what in ("cloud", "storm"):
        magic._area(s, w, SPELL_BY_KEY["acid" if what == "cloud" else "firestorm"], centre)
    elif what == "traps":
        _craft_traps(s)
    elif what == "gates":
        s.teams[0].hand = [[11, XB]]          # the gate-bound direct cards only: Spiked Gate, Falling Portcullis
        s.teams[1].hand = [[12, 5 + XB]]
    elif what == "zombie":
        for body in (s.figs[5 + D1], s.figs[5 + D1 + 1]):
            kill(s, body)
            magic._raise(s, w, body)
        s.figs[5 * s.num_players + 5 + D1].order = ("attack", 5 + WL)


def _craft_traps(s: Any) -> None:
    """Seat 0 holds the Swinging Beam and the ranged card whose field is nearest to seat 1's figures, its
    crossbowman and first dagger stand next to those fields; both hold direct cards (seat 1 the
    portcullis and a poison needle among them)."""
    from grimoire.games.shuluri.data import D1, D2, XB
    foes = [g.field for g in s.figs if g is not None and g.alive and g.seat == 1]
    def gap(n: int) -> int:
        return min(B.distance(B.TRAP_FIELDS[n - 1], x) for x in foes)
    near = sorted(range(1, len(B.TRAP_FIELDS) + 1), key=gap)
    ranged = [8, next(n for n in near if n != 8)]
    s.teams[0].hand = [[ranged[0], XB], [ranged[1], D1], [11, D2]]
    s.teams[1].hand = [[12, 5 + XB], [14, 5 + D1], [9, 5 + D2]]
    for f, n in ((s.figs[XB], ranged[0]), (s.figs[D1], ranged[1])):
        tf = B.TRAP_FIELDS[n - 1]
        f.field = next(m for m in B.NEIGHBOURS[tf] if m >= 0 and not B.IN_C[m] and s.count_at(m) < B.CAPACITY
                       and B.EDGE[m][B.direction_between(m, tf)] == B.NO_WALL)


def _shots(s: Any, acts: list, rng: Rng) -> Any:
    """Shots, traps, gates and zombie orders first (6 times in 10; mostly attacking the nearest), aiming first;
    else the moves that come closest to an enemy or a trap field of a held card (7 in 10), else any action."""
    top = s.stack.top
    if top.kind == "order" and rng.randint(1, 10) <= 7:
        z = s.figs[top.payload]
        attacks = [(B.distance(z.field, s.figs[A.fig_id(s, a.text.split()[2])].field), i)
                   for i, a in enumerate(acts) if a.text.startswith("order attack")]
        if attacks:
            return acts[min(attacks)[1]]
    if top.kind == "act" and s.pool == 0 and rng.randint(1, 10) <= 7:
        return next(a for a in acts if a.kind == "end")     # keep the strategist's MAN for trap windows
    keen = [a for a in acts if a.kind in ("shoot", "trap", "order", "shove", "gate")]
    if not keen and top.kind == "act":
        keen = [a for a in acts if a.kind == "aim"]
    if keen and rng.randint(1, 10) <= 6:
        return keen[rng.randint(0, len(keen) - 1)]
    if top.kind == "act" and rng.randint(1, 10) <= 7:
        goals = _enemy_fields(s, top.seat)
        goals += [B.TRAP_FIELDS[n - 1] for n, _h in s.teams[top.seat].hand if n <= len(B.TRAP_FIELDS)]
        best = _closest_move(s, acts, top.seat, goals)
        if best is not None:
            return best
    return acts[rng.randint(0, len(acts) - 1)]


_POLICIES = {"random": lambda s, acts, rng: acts[rng.randint(0, len(acts) - 1)], "press": _press, "shots": _shots}




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


def game_fixture(players: int, seed: int, options: dict, n_actions: int, policy: str, craft: str = "",
                 cast: dict[str, int] | None = None) -> dict:
    s: Any = grimoire.new_game("shuluri", players=players, seed=seed, **options)
    rng = Rng(seed)
    cast = {} if cast is None else cast
    if craft:
        _craft(s, craft, rng)
    if policy == "body":
        s = _lay_body(s, rng, cast)
    start = strip_texts(s.to_dict())
    prev = start
    steps: list[dict[str, Any]] = []
    while not s.is_terminal() and len(steps) < n_actions:
        acts = s.legal_actions()
        if policy in ("magic", "body"):
            a = _magic(s, acts, rng, cast)
        else:
            a = _POLICIES[policy](s, acts, rng)
        key = f"{s.stack.top.kind}:{a.kind}"
        s.apply(a)
        now = strip_texts(s.to_dict())
        steps.append({"action": a.text, "kind": key, "patch": diff(prev, now)})
        prev = now
    out = {"players": players, "seed": seed, "options": options, "policy": policy, "start": start, "steps": steps}
    if craft:
        out["craft"] = craft
    return out


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


def wide_game(i: int) -> tuple[int, int, dict[str, Any], int, str, str]:
    """The i-th game of a --wide run: the shots file's games in turn, each with a new seed."""
    players, _seed, options, n, policy, craft = SHOTS_GAMES[i % len(SHOTS_GAMES)]
    return players, 1000 + i, options, n, policy, craft


def shots_fixture() -> dict:
    return {"games": [game_fixture(*g) for g in SHOTS_GAMES]}


FILES = {"transitions.json": (transitions_fixture, dump_transitions), "rng.json": (rng_fixture, dump),
         "transitions_shots.json": (shots_fixture, dump_transitions),
         "transitions_magic.json": (magic_fixture, dump_transitions)}
MAGIC = "transitions_magic.json"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true", help="rewrite the fixtures")
    ap.add_argument("--only", choices=sorted(FILES), help="just this file")
    ap.add_argument("--magic", action="store_true", help=f"only {MAGIC} (the spells' games)")
    ap.add_argument("--wide", type=int, metavar="N", help="write N more games like the shots file's to --out")
    ap.add_argument("--out", type=Path, help="where --wide writes (not a fixture: SHULURI_SHOTS_WIDE=<file>)")
    args = ap.parse_args()
    if args.wide:
        games = [game_fixture(*wide_game(i)) for i in range(args.wide)]
        args.out.write_text(dump_transitions({"games": games}), encoding="utf-8")
        print(f"wrote {args.out} ({sum(len(g['steps']) for g in games):,} actions)")
        return 0
    only = MAGIC if args.magic else args.only
    stale = []
    for name, (make, write) in FILES.items():
        if only and name != only:
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
