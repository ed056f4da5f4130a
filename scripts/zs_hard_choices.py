"""What the hard Zauberschmiede player chooses on a few fixed positions, and its whole root (every
child's visits and mean reward): the table of ``tests/zauberschmiede/test_zs_hard_same.py``.

A change meant to make hard cheaper without changing what it plays reruns this script before and
after: the same table means the same searches. Positions: a deal of ``players`` seats (seed),
``plies`` actions of the greedy agent, then hard (seed 7, ``ITERATIONS`` iterations, no time limit)
decides for the seat to move.

    python scripts/zs_hard_choices.py            # prints the table as Python literals
"""

from __future__ import annotations

import grimoire
from grimoire.agents import make_agent

ITERATIONS = 24
# (players, deal seed, greedy plies before): solo; two seats; four seats with the first seat to
# move, a later seat mid-round (the others' choices of the round redrawn), and a later round
POSITIONS = ((1, 31, 3), (1, 32, 20), (2, 41, 5), (4, 6601, 0), (4, 6602, 13), (4, 6603, 40))


def position(players: int, seed: int, plies: int):
    s = grimoire.new_game("zauberschmiede", players, seed)
    greedy = make_agent("zauberschmiede", "greedy", seed)
    for _ in range(plies):
        s.apply(greedy.choose(s, s.current_player))
    return s


def record(players: int, seed: int, plies: int) -> tuple[str, dict]:
    s = position(players, seed, plies)
    hard = make_agent("zauberschmiede", f"hard:iterations={ITERATIONS},time=0", 7)
    action = hard.choose(s, s.current_player)
    return action.text, hard.last_stats["children"]


def main() -> None:
    for pos in POSITIONS:
        text, children = record(*pos)
        print(f"    ({pos!r}, {text!r}, {{")
        for child, stats in children.items():
            print(f"        {child!r}: {stats!r},")
        print("    }),")


if __name__ == "__main__":
    main()
