"""Issue 25: "1 seat(s)". Catalog texts choose singular or plural by their number ({n|seat|seats}), in the
terminal (core/text.py) and in the web pages (common.js's t()), and no English or German text falls back to
"(s)", "(n)" or "Platz/Plätze"."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import grimoire
from grimoire.cli.i18n import Translator
from grimoire.core.registry import game_info
from grimoire.core.text import fill

ROOT = Path(grimoire.__file__).parent


def test_fill_chooses_singular_or_plural_by_the_number():
    text = "{n} {n|seat|seats} here"
    assert [fill(text, {"n": n}) for n in (0, 1, 2)] == ["0 seats here", "1 seat here", "2 seats here"]
    assert fill("{x|a|b} {n}", {"n": 1}) == "{x|a|b} 1"            # no such parameter: left as written


def test_the_lobby_and_game_texts_say_one_seat_and_two_seats():
    en, de = Translator("en"), Translator("de")
    assert en("zavandor.cards_of", n=1, colour="red") == "1 red card, values hidden"
    assert en("zavandor.cards_of", n=2, colour="red") == "2 red cards, values hidden"
    assert de("zavandor.cards_of", n=1, colour="rote").startswith("1 rote Karte,")
    assert en("zauberschmiede.fields_highlighted", n=1).startswith("1 field on")
    assert de("zauberschmiede.fields_highlighted", n=1).startswith("1 Feld auf deinem Spielblatt kann ")
    assert de("zauberschmiede.fields_highlighted", n=3).startswith("3 Felder auf deinem Spielblatt können ")


def _catalogs():
    yield "web", json.loads((ROOT / "web" / "i18n" / "en.json").read_text()), \
        json.loads((ROOT / "web" / "i18n" / "de.json").read_text())
    yield "cli", json.loads((ROOT / "cli" / "i18n" / "en.json").read_text()), \
        json.loads((ROOT / "cli" / "i18n" / "de.json").read_text())
    for g in grimoire.games():
        yield g, game_info(g).catalog("en"), game_info(g).catalog("de")


def test_no_text_with_a_number_writes_both_forms():
    bad = []
    for name, en, de in _catalogs():
        for key, text in en.items():
            if "{" in text and re.search(r"\w\((s|es)\)", text):
                bad.append((name, key, text))
        for key, text in de.items():
            if "{" in text and re.search(r"\w\((n|e|en|er)\)|Platz/Plätze|Block/Blöcke", text):
                bad.append((name, key, text))
    assert not bad, bad


def test_the_web_pages_choose_the_same_forms():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = ("globalThis.document = {addEventListener() {}};"          # (the page's key handler, not used here)
              f"const {{t}} = await import('{(ROOT / 'web' / 'static' / 'common.js').as_uri()}');"
              "console.log([1, 2].map((n) => t('{n} {n|seat|seats} here', {n})).join('/'));")
    r = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == "1 seat here/2 seats here", r.stderr
