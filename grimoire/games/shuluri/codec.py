"""Integer action ids: the fixed table data/actions.txt (one action text per line, id = position).

Every action text the game can list is in the vocabulary (actions.VOCABULARY), so every legal action
has an id. The table only ever grows at its end: new texts are appended to the vocabulary's end and
the file is regenerated with ``python -m grimoire.games.shuluri.codec``; a test checks that the file
is the vocabulary.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ...core.codec import ActionCodec, load_action_table
from .actions import parse, vocabulary_texts

TABLE_FILE = Path(__file__).parent / "data" / "actions.txt"
HEADER = ("# Shuluri Viadal action ids: the id of a text is its position among the texts (0-based).\n"
          "# Generated from actions.VOCABULARY; only ever append (python -m grimoire.games.shuluri.codec).\n")


def table_texts() -> list[str]:
    return load_action_table(TABLE_FILE)


def make_codec() -> ActionCodec:
    return ActionCodec(table_texts(), parse=parse)


@cache
def id_texts() -> tuple[str, ...]:
    return tuple(table_texts())


@cache
def text_ids() -> dict[str, int]:
    """Every text's id (the codec's table; every legal action has one)."""
    return {t: i for i, t in enumerate(id_texts())}


def legal_ids(s) -> list[int]:
    """``codec.legal_ids`` (ascending, each once) without the generic codec's per-action dispatch:
    every action the game lists has a fixed id."""
    ids = text_ids()
    return sorted({ids[a.text] for a in s.legal_actions()})


def write_table() -> None:
    TABLE_FILE.write_text(HEADER + "\n".join(vocabulary_texts()) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write_table()
    print(f"wrote {len(vocabulary_texts())} action texts to {TABLE_FILE}")
