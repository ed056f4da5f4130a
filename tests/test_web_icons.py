"""Issue 25: ⏮ ⏭ ⏸ ⌛ 🂠 drew as empty boxes on systems without an emoji font. The pages draw them as inline
SVG icons (common.js's icon()), so no script of the web pages or the boards writes those characters."""

from __future__ import annotations

import re
from pathlib import Path

import grimoire
from grimoire.core.registry import game_info

ROOT = Path(grimoire.__file__).parent
NEEDS_EMOJI_FONT = "⏮⏭⏸⏯⌛⏳🂠"


def scripts() -> list[Path]:
    out = list((ROOT / "web" / "static").glob("*.js"))
    for g in grimoire.games():
        board = game_info(g).board
        if board is not None:
            out.append(game_info(g).package_dir / board.module)
    return out


def test_no_page_writes_a_symbol_that_needs_an_emoji_font():
    found = [(p.name, ch) for p in scripts() for ch in NEEDS_EMOJI_FONT
             if ch in p.read_text(encoding="utf-8")]
    assert not found, found
    assert len(scripts()) >= 6


def test_every_icon_the_pages_ask_for_is_drawn():
    common = (ROOT / "web" / "static" / "common.js").read_text(encoding="utf-8")
    drawn = set(re.findall(r"^\s+(\w+): \"M", common, re.M))
    asked = {name for p in scripts() for name in re.findall(r"\bicon\(\"(\w+)\"\)", p.read_text(encoding="utf-8"))}
    asked |= {"play", "pause"}                      # (replay.js picks one of the two by a condition)
    assert asked and asked <= drawn, asked - drawn
