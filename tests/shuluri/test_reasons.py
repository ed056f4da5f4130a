"""Refusals in every language: each coded reason of the engine has its words in the four catalogs with
the same placeholders, the English wording reads back to its key and values, and the terminal and the
server give them to people in their language."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import grimoire
from grimoire.core.errors import IllegalAction
from grimoire.core.registry import game_info
from grimoire.core.rng import Rng
from grimoire.core.text import reason_text
from grimoire.games.shuluri import reasons
from grimoire.games.shuluri.actions import VOCABULARY
from grimoire.games.shuluri.legal import check

LANGS = ("en", "hu", "de", "zh")
PKG = Path(reasons.__file__).parent
PLACEHOLDER = re.compile(r"\{(\w+)\}")
SAMPLE = {"spell": "Lightning Blade", "weapon": "greatsword", "name": "agl", "gate": "I2", "field": "3,-2",
          "text": "gl move 1,2"}


def _catalog(lang: str) -> dict[str, str]:
    return {k: v for k, v in game_info("shuluri").catalog(lang).items() if k.startswith(reasons.PREFIX)}


def _tr(lang: str):
    cat = game_info("shuluri").catalog(lang)
    return lambda key, **p: grimoire.core.text.fill(cat[key], p)


def test_every_code_of_the_engine_has_words():
    codes = set()
    for path in PKG.glob("*.py"):
        codes |= set(re.findall(r"\[([A-Z][A-Z0-9_]+)\][\"']", path.read_text(encoding="utf-8")))
    codes -= {"CODE"}                      # reasons.py's own description
    known = set(reasons.templates())
    assert len(codes) > 40
    assert codes <= known, f"codes without words: {sorted(codes - known)}"


@pytest.mark.parametrize("lang", LANGS[1:])
def test_same_keys_and_placeholders_in_every_language(lang):
    en, other = _catalog("en"), _catalog(lang)
    assert set(other) == set(en)
    for key, text in en.items():
        assert set(PLACEHOLDER.findall(other[key])) == set(PLACEHOLDER.findall(text)), key
        assert other[key] != text, f"{key} is not translated into {lang}"


def test_every_wording_reads_back_to_its_key_and_values():
    for key, text in _catalog("en").items():
        values = {n: (3 if n in reasons.NUMBERS else SAMPLE[n]) for n in PLACEHOLDER.findall(text)}
        message = grimoire.core.text.fill(text, values) + f" [{key[len(reasons.PREFIX):].split('.')[0]}] (rule 1)"
        found = reasons.reason(message)
        assert found is not None and found[0] == key, (key, message, found)
        for lang in LANGS:
            words = reason_text(*found, _tr(lang))
            assert "{" not in words and "shuluri." not in words, (lang, words)
    assert reasons.reason("no code here (rule 6)") is None
    assert reasons.reason("a wording nobody wrote [NO_AMMO]") is None


def test_values_in_words():
    key, values = reasons.reason("Lightning Blade costs 4 MAN and he has 2 [NOT_ENOUGH_MAN] (rule M7.9)")
    assert key == "shuluri.reject.NOT_ENOUGH_MAN.spell"
    assert values == {"spell": {"key": "shuluri.spell.blade"}, "cost": 4, "have": 2}
    de = reason_text(key, values, _tr("de"))
    assert de.startswith(game_info("shuluri").catalog("de")["shuluri.spell.blade"]) and "4 MAN" in de and "2" in de


def _refusals(players: int, seed: int, every: int, limit: int, **options) -> list[str]:
    s = grimoire.new_game("shuluri", players, seed, max_rounds=8, **options)
    r = Rng(seed)
    out = []
    n = 0
    while not s.is_terminal() and n < every * limit:
        if n % every == 0:
            legal = {a.text for a in s.legal_actions()}
            for a in VOCABULARY[n % 5::5]:           # a fifth of the vocabulary, rotating
                if a.text in legal:
                    continue
                try:
                    check(s, a)
                except IllegalAction as e:
                    out.append(str(e))
        acts = s.legal_actions()
        s.apply(acts[r.below(len(acts))])
        n += 1
    return out


def test_refusals_met_in_play_all_have_words():
    """Every coded refusal the engine gives in random games (2 and 4 players, other rules) is found."""
    messages = (_refusals(2, 5, 11, 12) + _refusals(4, 7, 23, 4, mode="pairs")
                + _refusals(2, 11, 17, 5, spells_per_step="unlimited", traps_assigned_to_character=False,
                            optional_poison_vial=True, optional_magic_potion=True))
    coded = [m for m in messages if reasons.CODE.search(m)]
    missing = sorted({m for m in coded if reasons.reason(m) is None})
    assert not missing, missing[:10]
    seen = {reasons.reason(m)[0] for m in coded}
    assert len(seen) >= 15, sorted(seen)


def _coded_refusal(s) -> tuple[str, tuple]:
    for a in VOCABULARY:
        try:
            check(s, a)
        except IllegalAction as e:
            found = reasons.reason(str(e))
            if found is not None:
                return a.text, found
    raise AssertionError("no coded refusal")


def test_terminal_says_why_in_the_readers_language():
    from rich.console import Console

    from grimoire.cli.i18n import Translator
    from grimoire.cli.play import Session
    s = grimoire.new_game("shuluri", 2, 3)
    while s.stack.top.kind != "act":
        s.apply(s.legal_actions()[0])
    text, found = _coded_refusal(s)
    for lang in ("hu", "de", "zh"):
        t = Translator(lang)
        sess = Session(s, [None, None], Console(file=io.StringIO(), width=80), t=t)
        line = sess.why_not(text)
        assert reason_text(*found, t) in line and "[" not in line and "rule" not in line, line
    english = Session(s, [None, None], Console(file=io.StringIO(), width=80)).why_not(text)
    assert "[" in english                          # English keeps the engine's own text with its code
