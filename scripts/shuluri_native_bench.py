"""CPU time of the Python engine on the positions the native core's benches use (its
examples/bench_moves.rs and bench_legal.rs): the act listing's moves (figures per field, then per
named figure the hostile fields, its MAN, its skills and `movement.move_options`), loading a saved
state, and the whole legal listing (`legal.legal_actions`), the legal ids (`codec.legal_ids`) and the
mask (`legal_mask_into`) on the positions of states.json and legal.json. Then the crate's own
benches, if cargo is there.

    python scripts/shuluri_native_bench.py [--no-native]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np

import grimoire
from grimoire.games.shuluri import legal as L
from grimoire.games.shuluri.acttab import MOVE
from grimoire.games.shuluri.codec import id_texts
from grimoire.games.shuluri.codec import legal_ids as py_legal_ids
from grimoire.games.shuluri.movement import hostile_fields, move_options
from grimoire.games.shuluri.values import available, mad_enemy, skills

CRATE = Path(__file__).resolve().parent.parent / "grimoire" / "games" / "shuluri" / "native"


def act_moves(s) -> list:
    counts: dict[int, int] = {}
    for g in s.figs:
        if g is not None and g.alive and g.field >= 0:
            counts[g.field] = counts.get(g.field, 0) + 1
    out: list = []
    for cid in sorted(s.named):
        f = s.figs[cid]
        if not f.alive or f.zombie or (f.effects and mad_enemy(s, f) >= 0):
            continue
        move_options(s, f, counts, "sneaking" in skills(s, f), hostile_fields(s, s.alliance[f.seat]),
                     available(s, f), MOVE[f.role], out.append)
    return out


def per_call(work, items: list) -> float:
    """CPU microseconds per call over runs of at least 2 s."""
    start = time.process_time()
    calls = 0
    while time.process_time() - start < 2.0:
        for x in items:
            work(x)
        calls += len(items)
    return (time.process_time() - start) / calls * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-native", action="store_true", help="time the Python engine only")
    args = ap.parse_args()
    cases = json.loads((CRATE / "tests" / "data" / "states.json").read_text(encoding="utf-8"))["states"]
    states = [grimoire.load_game(c["state"]) for c in cases]
    acts = [s for s in states if s.phase == "play" and s.stack.top is not None and s.stack.top.kind == "act"]
    for s in acts:     # the same moves as the legal list (the crate's tests/moves.rs checks its own)
        moves = [a.text for a in act_moves(s)]
        assert moves == [t for t in (a.text for a in s.legal_actions())
                         if len(t.split()) == 3 and t.split()[1] in ("move", "sneak", "disengage")]
    print(f"positions: {len(acts)} act decisions, {len(cases)} states")
    print(f"python act_moves: {per_call(act_moves, acts):.3f} us per position (CPU)")
    print(f"python load (dict -> state): {per_call(lambda c: grimoire.load_game(c['state']), cases):.3f} us per state "
          "(CPU)")
    wide = states + [grimoire.load_game(c["state"]) for c in json.loads(
        (CRATE / "tests" / "data" / "legal.json").read_text(encoding="utf-8"))["states"]]
    wide_acts = [s for s in wide if s.stack.top is not None and s.stack.top.kind == "act"]
    mask = np.zeros(len(id_texts()), dtype=np.int8)

    def masked(s) -> None:
        s.legal_mask_into(mask)         # (it clears the mask first, as the crate's mask_into does)
    print(f"positions: {len(wide_acts)} act decisions, {len(wide)} in all (states.json and legal.json)")
    print(f"python legal_actions (act decisions): {per_call(L.legal_actions, wide_acts):.3f} us per position (CPU)")
    print(f"python legal_actions (every position): {per_call(L.legal_actions, wide):.3f} us per position (CPU)")
    print(f"python legal_ids (act decisions): {per_call(py_legal_ids, wide_acts):.3f} us per position (CPU)")
    print(f"python legal_mask_into (act decisions): {per_call(masked, wide_acts):.3f} us per position (CPU)")
    if not args.no_native and shutil.which("cargo"):
        env = dict(os.environ)
        env.setdefault("CARGO_TARGET_DIR", str(CRATE / "target"))
        for example in ("bench_moves", "bench_legal"):
            subprocess.run(["cargo", "run", "--quiet", "--release", "--locked", "--example", example], cwd=CRATE,
                           env=env, check=True)


if __name__ == "__main__":
    main()
