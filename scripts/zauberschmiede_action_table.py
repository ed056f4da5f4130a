"""Write or extend the Zauberschmiede action-id table, grimoire/games/zauberschmiede/data/actions.txt.

    .venv/bin/python scripts/zauberschmiede_action_table.py           # append texts the table lacks
    .venv/bin/python scripts/zauberschmiede_action_table.py --check   # exit 1 if any text is missing

An action's id is its position among the texts of the file, so the file only ever grows at its end:
texts that a changed sheet adds (a new artifact, more rounds) are appended in canonical order
(``actions.canonical_texts``); nothing is reordered or removed. tests/zauberschmiede/test_zs_codec.py
checks that the table covers the vocabulary.
"""

from __future__ import annotations

import sys
from pathlib import Path

from grimoire.core.codec import load_action_table
from grimoire.games.zauberschmiede.actions import canonical_texts
from grimoire.games.zauberschmiede.sheet import DATA_DIR

PATH = DATA_DIR / "actions.txt"
HEADER = """\
# Zauberschmiede action ids: the id of an action is the position of its text among these lines
# (comments and blank lines do not count). Append only: never reorder or delete a line, so that an
# id keeps its meaning. Written by scripts/zauberschmiede_action_table.py.
"""


def missing(path: Path = PATH) -> list[str]:
    have = set(load_action_table(path)) if path.exists() else set()
    return [t for t in canonical_texts() if t not in have]


def main(argv: list[str]) -> int:
    new = missing()
    if "--check" in argv:
        print(f"{len(new)} action text(s) missing from {PATH}")
        return 1 if new else 0
    if not PATH.exists():
        PATH.write_text(HEADER, encoding="utf-8")
    if new:
        with PATH.open("a", encoding="utf-8") as f:
            f.write("".join(t + "\n" for t in new))
    print(f"{len(new)} text(s) appended; {len(load_action_table(PATH))} action ids in {PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
