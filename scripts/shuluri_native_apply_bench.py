"""CPU time of applying one action, the Python engine against the native core, on the same transitions:
the crate's examples/bench_apply.rs times `apply` on a copy of the state for every 4th transition of
tests/data/transitions.json that it has ported (history and events cut to 6 entries, as the
fixtures of positions do) and prints which ones; this script then times the
Python engine on exactly those (a clone, then `apply` with its check; and a clone, then the
unchecked `_do` as the crate does). Interleaved: the crate, Python, the crate, Python.

    python scripts/shuluri_native_apply_bench.py [--runs 2]
    python scripts/shuluri_native_apply_bench.py --fixture transitions_magic.json --kind act:cast   # every cast
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from pathlib import Path
from typing import Any

from shuluri_native_bench import per_call  # scripts/ is on the path when run as a script

import grimoire

CRATE = Path(__file__).resolve().parent.parent / "grimoire" / "games" / "shuluri" / "native"


def trimmed(d: dict) -> dict:
    """The history and the event log cut to their newest 6 entries (in play), as the crate's bench does."""
    if d["state"]["phase"] != "setup":
        d["history"] = d["history"][-6:]
    d["state"]["events"] = d["state"]["events"][-6:]
    return d


def python_cases(picked: list[tuple[int, int]], fixture: str = "transitions.json") -> list[tuple[Any, str]]:
    """The state before each picked transition (replayed from its game's start) and the action."""
    games = json.loads((CRATE / "tests" / "data" / fixture).read_text(encoding="utf-8"))["games"]
    want: dict[int, set[int]] = {}
    for g, i in picked:
        want.setdefault(g, set()).add(i)
    out = []
    for gi, g in enumerate(games):
        s: Any = grimoire.load_game(g["start"])
        for i, step in enumerate(g["steps"]):
            if i in want.get(gi, ()):
                out.append((grimoire.load_game(trimmed(s.to_dict())), step["action"]))
            s.apply(step["action"])
    return out


def crate_run(fixture: str, kind: str | None) -> dict:
    env = dict(os.environ)
    env.setdefault("CARGO_TARGET_DIR", str(CRATE / "target"))
    args = [fixture] + ([kind] if kind else [])
    done = subprocess.run(["cargo", "run", "--quiet", "--release", "--locked", "--example", "bench_apply", "--", *args],
                          cwd=CRATE, env=env, check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=2, help="crate/Python pairs")
    ap.add_argument("--fixture", default="transitions.json", help="a transition file of the crate's tests/data")
    ap.add_argument("--kind", help="every transition of this kind (e.g. act:cast) instead of every 4th")
    args = ap.parse_args()
    cases: list = []
    for run in range(args.runs):
        c = crate_run(args.fixture, args.kind)
        if not cases:
            cases = python_cases([tuple(x) for x in c["transitions"]], args.fixture)
        parsed = [(s, s.parse_action(t)) for s, t in cases]
        copy = per_call(lambda x: x[0].clone(), cases)
        checked = per_call(lambda x: x[0].clone().apply(x[1]), cases)
        unchecked = per_call(lambda x: x[0].clone()._do(x[1]), parsed)
        print(f"run {run + 1}: {len(cases)} transitions | crate: copy {c['copy_us']:.2f} us, copy+apply "
              f"{c['copy_apply_us']:.2f} us | python: clone {copy:.2f} us, clone+apply {checked:.2f} us, "
              f"clone+_do {unchecked:.2f} us (CPU per transition)")


if __name__ == "__main__":
    main()
