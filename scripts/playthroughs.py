"""Golden playthroughs: one seeded random game per game and player count, written step by step (the
deciding seat, its observation, the legal actions with their ids, the action taken, a digest of every
seat's tensor), so that an unintended change of the rules or of what a seat sees shows as a diff.

    python scripts/playthroughs.py            # check: exit 1 and a diff if a playthrough changed
    python scripts/playthroughs.py --update   # rewrite tests/golden/*.txt after an intended change
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import sys
from pathlib import Path

import grimoire
from grimoire.core.rng import Rng

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"

# (game, players, seed, options): short games (few rounds) keep the files small
CASES = [
    ("zavandor", 2, 7, {"max_rounds": 2}),
    ("zavandor", 4, 8, {"max_rounds": 1}),
    ("zauberschmiede", 1, 7, {"max_rounds": 2}),
    ("zauberschmiede", 3, 8, {"max_rounds": 1}),
    ("shuluri", 2, 7, {"max_rounds": 1}),
]


def case_name(game: str, players: int) -> str:
    return f"{game}-{players}p.txt"


def playthrough(game: str, players: int, seed: int, options: dict) -> str:
    """The text of one seeded random game (actions chosen by an Rng of the same seed)."""
    state = grimoire.new_game(game, players, seed, **options)
    info = grimoire.game_info(game)
    rng = Rng(seed)
    lines = [f"game {game} players {players} seed {seed} options {json.dumps(options, sort_keys=True)}",
             f"num_distinct_actions {info.num_distinct_actions}"]
    step = 0
    while not state.is_terminal():
        seat = state.current_player
        obs = state.observation(seat)
        lines.append(f"step {step} seat {seat}")
        lines.append("observation " + json.dumps(obs, sort_keys=True, separators=(",", ":")))
        tensors = [hashlib.sha256(state.observation_tensor(s).tobytes()).hexdigest()[:16] for s in range(players)]
        lines.append("tensors " + " ".join(tensors))
        ids = state.legal_action_ids() if info.codec is not None else []
        lines.append("legal_ids " + " ".join(map(str, ids)))
        actions = state.legal_actions()
        action = actions[rng.below(len(actions))]
        lines.append(f"action {action.text}")
        state.apply(action)
        step += 1
    lines.append(f"end scores {state.scores()} winners {state.winners()} returns {state.returns()}")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--update", action="store_true", help="rewrite the golden files")
    args = ap.parse_args()
    changed = 0
    for game, players, seed, options in CASES:
        path = GOLDEN / case_name(game, players)
        text = playthrough(game, players, seed, options)
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if text == old:
            continue
        changed += 1
        if args.update:
            path.write_text(text, encoding="utf-8")
            print(f"updated {path.name}")
        else:
            sys.stdout.writelines(list(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                                            path.name, "now", n=1))[:60])
    return 1 if changed and not args.update else 0


if __name__ == "__main__":
    sys.exit(main())
