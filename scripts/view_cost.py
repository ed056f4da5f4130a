"""CPU per state of what the server builds for 4 followed seats: the observations (``state.observations``,
one call for all seats), the hints and the JSON, over the states of 3 random 4-player games (thread CPU
time). The states come as on the server: each action is applied to a clone of the state before it, and
the views of a state are built before the next clone (a game may carry what did not change from one
state to the next). Compare checkouts by running them in turn, several rounds (the machine's load drifts):

    for r in 1 2 3; do for d in OLD NEW; do PYTHONPATH=$d python scripts/view_cost.py shuluri; done; done
"""

from __future__ import annotations

import sys
import time

from grimoire.core.registry import new_game
from grimoire.core.rng import Rng
from grimoire.web import fastjson

try:                                # the server's way of writing a view (older checkouts: fastjson.dumps)
    from grimoire.web.viewjson import dumps as view_dumps
except ImportError:
    def view_dumps(obs, game, memo, before):
        return fastjson.dumps(obs)


def games(game: str, n_games: int = 3, seed: int = 1) -> list[list]:
    """The actions of ``n_games`` random games (at most 400 states each)."""
    out = []
    for g in range(n_games):
        st = new_game(game, 4, seed=seed + g)
        r = Rng(seed + g)
        acts: list = []
        while not st.is_terminal() and len(acts) < 399:
            la = st.legal_actions()
            acts.append(la[r.below(len(la))])
            st.apply(acts[-1])
        out.append(acts)
    return out


def states(game: str, actions: list[list], seed: int = 1):
    """Each game's states in turn, each one a clone of the one before with the next action applied."""
    for g, acts in enumerate(actions):
        st = new_game(game, 4, seed=seed + g)
        yield st
        for a in acts:
            st = st.clone()
            st.apply(a)
            yield st


def main(game: str) -> None:
    seats: list[int | None] = [0, 1, 2, 3]
    cost = {"obs": 0.0, "hints": 0.0, "json": 0.0}
    n = 0
    memo: dict = {}
    for st in states(game, games(game)):
        n += 1
        memo, before = {}, memo
        t0 = time.thread_time()
        obs = st.observations(seats)
        t1 = time.thread_time()
        hints = [st.hints(x) for x in seats]
        t2 = time.thread_time()
        for o, h in zip(obs, hints, strict=True):
            view_dumps(o, game, memo, before)
            fastjson.dumps(h)
        t3 = time.thread_time()
        cost["obs"] += t1 - t0
        cost["hints"] += t2 - t1
        cost["json"] += t3 - t2
    print(f"{game}: {n} states; per state " + "  ".join(f"{k} {1000 * v / n:.3f} ms" for k, v in cost.items()))


if __name__ == "__main__":
    for name in sys.argv[1:] or ["shuluri", "zavandor", "zauberschmiede"]:
        main(name)
