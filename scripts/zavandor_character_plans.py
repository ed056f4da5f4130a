"""Win share by character in all-medium Zavandor games under given per-character plans (docs/ai.md).

    .venv/bin/python scripts/zavandor_character_plans.py --focus druid --jobs 2                 # the common plan
    .venv/bin/python scripts/zavandor_character_plans.py --focus druid --shipped --jobs 2       # the shipped plans
    .venv/bin/python scripts/zavandor_character_plans.py --focus druid --jobs 2 \\
        --plan '{"druid": {"round_plan": ["gems", "advance"], "fire_step": 1.0, "payback": 17.0}}'

Every seat is the medium heuristic with the same Params; ``--plan`` gives the per-character
overrides (``Params.by_char``) as JSON, none = one plan for all. With ``--focus C`` character C sits
in every game (the others are drawn at random), so C's share is measured on every game. Game g has
the seed ``derive_seed(seed, g)``, its characters are drawn by ``Rng(derive_seed(seed, g, 1))`` and
its seat i plays with the seed ``derive_seed(seed, g, 2, i)`` (``--seed``, default 1), so every run
prints the same numbers (200 games at 4 players: ~5 min on 2 cores).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import grimoire  # noqa: E402
from grimoire.agents.stats import wilson  # noqa: E402
from grimoire.core.rng import Rng  # noqa: E402
from grimoire.games.zavandor.ai.evaluate import DEFAULT, PLAN_FIELDS  # noqa: E402
from grimoire.games.zavandor.ai.heuristic import HeuristicAgent  # noqa: E402
from grimoire.games.zavandor.data import CHARACTERS  # noqa: E402


def parse_plan(text: str | None) -> tuple:
    """``{"druid": {"payback": 17}}`` -> ``Params.by_char``; a clear message for anything else."""
    if not text:
        return ()
    try:
        plan = json.loads(text)
    except json.JSONDecodeError as e:
        raise SystemExit(f"--plan is not JSON: {e}") from None
    if not isinstance(plan, dict):
        raise SystemExit('--plan must be an object like {"druid": {"payback": 17}}')
    names = PLAN_FIELDS
    out = []
    for char, over in plan.items():
        if char not in CHARACTERS:
            raise SystemExit(f"unknown character {char!r} (one of {', '.join(CHARACTERS)})")
        if not isinstance(over, dict) or not set(over) <= names:
            raise SystemExit(f"{char}: fields must be among {', '.join(sorted(names))}")
        out.append((CHARACTERS.index(char),
                    tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in over.items())))
    return tuple(out)


def play(job: tuple) -> tuple[list, int]:
    seed, g, players, focus, params = job
    rr = Rng(grimoire.derive_seed(seed, g, 1))
    pool = list(CHARACTERS)
    chars = []
    if focus:
        pool.remove(focus)
        chars.append(focus)
    while len(chars) < players:
        chars.append(pool.pop(rr.below(len(pool))))
    rr.shuffle(chars)                        # seat order
    s = grimoire.new_game("zavandor", players, grimoire.derive_seed(seed, g), characters=chars)
    agents = [HeuristicAgent(grimoire.derive_seed(seed, g, 2, i), params=params) for i in range(players)]
    grimoire.run_episode(s, agents)
    winners = s.winners()
    scores = s.scores()
    return [(chars[i], 1 / len(winners) if i in winners else 0.0, scores[i]) for i in range(players)], s.round


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plan", help="per-character overrides as JSON (default: one plan for all)")
    ap.add_argument("--shipped", action="store_true", help="use the plans the AI ships with")
    ap.add_argument("--focus", choices=CHARACTERS, help="a character seated in every game")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4, choices=range(2, 7))
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--seed", type=int, default=1, help="run seed (same seed, same games)")
    a = ap.parse_args(argv)
    if a.games < 1:
        raise SystemExit("--games must be at least 1")
    by_char = DEFAULT.by_char if a.shipped else parse_plan(a.plan)
    params = replace(DEFAULT, by_char=by_char)
    jobs = [(a.seed, g, a.players, a.focus, params) for g in range(a.games)]
    wins: dict = defaultdict(list)
    vps: dict = defaultdict(list)
    rounds = []
    with ProcessPoolExecutor(max(1, a.jobs)) as ex:
        for i, (rows, r) in enumerate(ex.map(play, jobs, chunksize=2), 1):
            rounds.append(r)
            for c, w, vp in rows:
                wins[c].append(w)
                vps[c].append(vp)
            print(f"\r{i}/{a.games} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{a.games} games, {a.players} players, focus {a.focus or '-'}, mean rounds {sum(rounds) / len(rounds):.1f}, "
          f"par {100 / a.players:.0f}%")
    for c in CHARACTERS:
        n = len(wins[c])
        if not n:
            continue
        lo, hi = wilson(sum(wins[c]), n)
        print(f"{c:7} win {100 * sum(wins[c]) / n:5.1f}% [{100 * lo:4.1f}, {100 * hi:4.1f}]  seat-games {n:4}  "
              f"mean VP {sum(vps[c]) / n:5.1f}")


if __name__ == "__main__":
    main()
