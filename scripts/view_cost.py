"""CPU per state of what the server builds for 4 followed seats: the observations (``state.observations``,
one call for all seats), the hints and the JSON, over the states of 3 random 4-player games (thread CPU
time). Compare checkouts by running them in turn, several rounds (the machine's load drifts):

    for r in 1 2 3; do for d in OLD NEW; do PYTHONPATH=$d python scripts/view_cost.py shuluri; done; done
"""

from __future__ import annotations

import sys
import time

from grimoire.core.registry import new_game
from grimoire.core.rng import Rng
from grimoire.web import fastjson


def states(game: str, n_games: int = 3, seed: int = 1) -> list:
    out = []
    for g in range(n_games):
        st = new_game(game, 4, seed=seed + g)
        r = Rng(seed + g)
        while not st.is_terminal() and len(out) < 400 * (g + 1):
            out.append(st.clone())
            la = st.legal_actions()
            st.apply(la[r.below(len(la))])
    return out


def main(game: str) -> None:
    sts = states(game)
    seats: list[int | None] = [0, 1, 2, 3]
    cost = {"obs": 0.0, "hints": 0.0, "json": 0.0}
    for st in sts:
        t0 = time.thread_time()
        obs = st.observations(seats)
        t1 = time.thread_time()
        hints = [st.hints(x) for x in seats]
        t2 = time.thread_time()
        for o, h in zip(obs, hints, strict=True):
            fastjson.dumps(o)
            fastjson.dumps(h)
        t3 = time.thread_time()
        cost["obs"] += t1 - t0
        cost["hints"] += t2 - t1
        cost["json"] += t3 - t2
    n = len(sts)
    print(f"{game}: {n} states; per state " + "  ".join(f"{k} {1000 * v / n:.3f} ms" for k, v in cost.items()))


if __name__ == "__main__":
    for name in sys.argv[1:] or ["shuluri", "zavandor", "zauberschmiede"]:
        main(name)
