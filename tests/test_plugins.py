"""Games are plug-ins: the interfaces (the CLI, the web app, the agents, the core, the RL adapters)
know no game. Everything game-specific reaches them through the descriptor (GameInfo), so no game's
name — nor the prefix of its translation keys — may appear in their files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import grimoire
from grimoire.core.registry import game_info

PACKAGE = Path(grimoire.__file__).parent
INTERFACES = ("cli", "web", "agents", "core", "rl")
TEXT_SUFFIXES = {".py", ".js", ".html", ".css", ".json", ".md", ".toml", ".ini", ".mako"}


def forbidden_words() -> set[str]:
    """Every game's name, the last part of its package, and the prefixes of its catalog keys."""
    words = set()
    for name in grimoire.games():
        info = game_info(name)
        words.add(name.lower())
        words.add(info.package.rsplit(".", 1)[-1].lower())
        for lang in info.languages():
            words |= {key.split(".", 1)[0].lower() + "." for key in info.catalog(lang) if "." in key}
    return words


def interface_files() -> list[Path]:
    return sorted(p for part in INTERFACES if (PACKAGE / part).is_dir()
                  for p in (PACKAGE / part).rglob("*")
                  if p.is_file() and p.suffix in TEXT_SUFFIXES and "__pycache__" not in p.parts)


def hits(path: Path, words: set[str]) -> list[str]:
    text = path.read_text(encoding="utf-8").lower()
    pattern = re.compile("|".join(r"(?<![a-z0-9_])" + re.escape(w) + (r"(?![a-z0-9_])" if not w.endswith(".") else "")
                                  for w in sorted(words)))
    return [f"{path.relative_to(PACKAGE.parent)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
            for m in pattern.finditer(text)]


def test_the_words_cover_every_game():
    words = forbidden_words()
    assert set(grimoire.games()) <= words
    # the check itself finds a game's name where it belongs: in the game's own package
    for name in grimoire.games():
        assert hits(game_info(name).package_dir / "__init__.py", words)


def test_interfaces_scan_their_files():
    files = interface_files()
    for part in ("cli", "web", "agents", "core"):
        assert any(f.is_relative_to(PACKAGE / part) for f in files), part
    assert any(f.suffix == ".js" for f in files) and any(f.suffix == ".json" for f in files)


@pytest.mark.parametrize("part", INTERFACES)
def test_no_game_name_in_the_interfaces(part):
    words = forbidden_words()
    found = [h for f in interface_files() if f.is_relative_to(PACKAGE / part) for h in hits(f, words)]
    assert not found, "game-specific names outside the game packages:\n" + "\n".join(found)
