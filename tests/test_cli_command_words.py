"""The terminal's commands in the player's language: each language has its own words for help, the
board and its views, undo, save and quit (shown by ``help`` and in the hints); the English words
work in every language; no command word hides an action or a word of the grouped picker."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

import grimoire
from grimoire.cli import picker
from grimoire.cli import render as renderers
from grimoire.cli.i18n import Translator
from grimoire.cli.play import Session
from grimoire.cli.words import COMMANDS, CommandWords

LANGS = ("en", "hu", "de", "zh")


def _session(game: str, lang: str, lines: list[str], players: int = 2, seed: int = 3):
    state = grimoire.new_game(game, players, seed)
    con = Console(file=io.StringIO(), width=80, record=True, color_system=None)
    sess = Session(state, [None] * players, con, t=Translator(lang))
    answers = iter(lines)
    sess.read = lambda prompt, words=None, seat=None: next(answers, None)   # type: ignore[method-assign]
    return sess, con


def _words(game: str, lang: str) -> CommandWords:
    t = Translator(lang)
    return CommandWords(t, renderers.views(game), t.has)


@pytest.mark.parametrize("lang", LANGS)
def test_every_language_has_its_own_distinct_words(lang):
    w = _words("zavandor", lang)
    shown = [w.word(c) for c in COMMANDS]
    assert len(set(shown)) == len(COMMANDS)
    assert all(s and " " not in s for s in shown)
    if lang != "en":
        assert not set(shown) & set(COMMANDS), shown        # the language's own words, not the English ones
    for c in COMMANDS:                                     # both the language's word and the English one work
        assert w.command(w.word(c)) == c and w.command(c) == c


@pytest.mark.parametrize("game", sorted(grimoire.games()))
@pytest.mark.parametrize("lang", ["hu", "de", "zh"])
def test_views_have_words_in_every_language(game, lang):
    views = renderers.views(game)
    w = _words(game, lang)
    for v in views:
        assert w.view(w.view_word(v)) == v and w.view(v) == v
        assert w.canonical_view(f"{w.view_word(v)} 1,2") == f"{v} 1,2"
    assert len({w.view_word(v) for v in views}) == len(views)


def test_help_lists_the_languages_words_and_plays_nothing():
    sess, con = _session("zavandor", "hu", ["súgó", "kilép"])
    assert sess.human_turn(sess.state.current_player) is False            # "kilép" quits
    out = con.export_text()
    assert "Parancsok" in out
    for word in ("súgó [lépés]", "szabályok [téma]", "napló [n]", "visszavon", "ment FÁJL", "kilép [FÁJL]",
                 "tábla teljes", "tábla kéz", "tábla kínálat"):
        assert word in out, word
    assert sess.log == []


@pytest.mark.parametrize("typed", ["board hand", "tábla kéz", "kéz", "hand", "TÁBLA KÉZ"])
def test_a_view_by_its_word_or_the_english_one_shows_the_same(typed):
    sess, con = _session("zavandor", "hu", [typed, "kilép"])
    sess.human_turn(sess.state.current_player)
    out = con.export_text()
    assert "Ismeretkorongok" in out and "Nincs" not in out          # the hand view, no "no such view" error


def test_an_unknown_view_names_the_views_in_the_language():
    sess, con = _session("zavandor", "de", ["brett nichts", "beenden"])
    sess.human_turn(sess.state.current_player)
    out = con.export_text()
    assert "Keine Ansicht 'nichts'. Ansichten: brett, alles, hand, markt." in out


def test_undo_and_save_by_the_languages_words(tmp_path):
    state = grimoire.new_game("zavandor", 2, 3)
    seat = state.current_player
    first = next(str(a) for a in state.legal_actions() if str(a).startswith("buy"))
    path = tmp_path / "g.json"
    sess, con = _session("zavandor", "de", [first, "rückgängig", "speichern", f"speichern {path}", "beenden"])
    assert sess.human_turn(seat) is True                    # the purchase
    assert sess.log == [(seat, first)]
    assert sess.human_turn(sess.state.current_player) is False
    out = con.export_text()
    assert sess.log == [] and not sess.state.history       # undone by "rückgängig"
    assert "speichern braucht einen Dateinamen: speichern game.json" in out
    assert path.is_file()


def _label_first_words(game: str, lang: str, seed: int, steps: int) -> set[str]:
    """The first words of every action text, and of every word the grouped picker shows, over a random game."""
    t = Translator(lang)
    state = grimoire.new_game(game, 2, seed)
    con = Console(file=io.StringIO(), width=80, color_system=None)
    sess = Session(state, [None, None], con, t=t)
    rng = random.Random(seed)
    first: set[str] = set()
    for _ in range(steps):
        if state.is_terminal():
            break
        texts = [str(a) for a in state.legal_actions()]
        first |= {x.split()[0].lower() for x in texts}
        if renderers.has_menu(game):
            seat = state.current_player
            lv = picker.level(texts, ())
            for _depth in range(3):
                sess.show_level(seat, lv)
                first |= {label.split()[0].lower() for label in sess.level_labels.values() if label.split()}
                opens = [o for o in lv.options if not lv.flat and o not in lv.plays]
                if not opens:
                    break
                lv = picker.level(texts, lv.prefix + (rng.choice(opens),))
        state.apply(rng.choice(state.legal_actions()))
    return first


@pytest.mark.parametrize("game", sorted(grimoire.games()))
@pytest.mark.parametrize("lang", LANGS)
def test_no_command_word_hides_an_action_or_a_pickers_word(game, lang):
    w = _words(game, lang)
    reserved = {k for k in w.commands} | {k for k in w.views}
    seen = _label_first_words(game, lang, 11, 100)
    assert len(seen) > 3
    assert not reserved & seen, sorted(reserved & seen)
