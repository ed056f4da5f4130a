"""Zauberschmiede in the terminal is picked level by level (what to do, which artifact or colour, which
die), so a round's ~100 actions fit 80x24, in the player's language."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

import grimoire
from grimoire.agents import make_agent
from grimoire.cli import picker
from grimoire.cli.i18n import Translator
from grimoire.cli.play import Session

RAW_KEY = re.compile(r"\bzauberschmiede\.[a-z_.]+|\bterm\.[a-z_.]+")
# the notation's words: none is a word of Hungarian, German or Chinese
NOTATION = re.compile(r"\b(?:charge|pay|amplify|upgrade|unlock|dust|transmute|end|green|purple|yellow|to)\b")


@pytest.fixture(scope="module")
def decisions() -> list:
    """Decisions of a two-player game between medium AIs: every state where a seat had many actions."""
    s = grimoire.new_game("zauberschmiede", 2, 7)
    agents = [make_agent("zauberschmiede", "medium", i + 1) for i in range(2)]
    out = []
    for _ in range(400):
        if s.is_terminal():
            break
        seat = s.current_player
        if len(s.legal_actions()) > 20 and len(out) < 12:
            out.append(s.clone())
        s.apply(agents[seat].choose(s, seat))
    assert len(out) >= 6
    return out


def _levels(state, lang: str) -> list[list[str]]:
    """The lines of the root level, of every level under it and of the first path down to actions."""
    t = Translator(lang)
    seat = state.current_player
    texts = [str(a) for a in state.legal_actions()]
    screens = []

    def show(lv: picker.Level) -> None:
        con = Console(file=io.StringIO(), width=80, record=True, color_system=None)
        Session(state, [None, None], con, t=t).show_level(seat, lv)
        screens.append(con.export_text().splitlines())

    root = picker.level(texts)
    show(root)
    for option in root.options:
        if option not in root.plays:
            lv = picker.level(texts, root.prefix + (option,))
            show(lv)
            while not lv.flat and lv.options and lv.options[0] not in lv.plays:
                lv = picker.level(texts, lv.prefix + (lv.options[0],))
                show(lv)
    return screens


@pytest.mark.parametrize("lang", ["en", "hu", "de", "zh"])
def test_every_level_fits_80x24_with_no_raw_key(decisions, lang):
    for state in decisions:
        for lines in _levels(state, lang):
            assert len(lines) <= 12, lines                  # leaves the board's summary on the screen
            assert all(len(x) <= 80 for x in lines), lines
            assert not RAW_KEY.search("\n".join(lines)), lines


@pytest.mark.parametrize("lang", ["hu", "de", "zh"])
def test_the_levels_are_in_words_outside_english(decisions, lang):
    for state in decisions:
        for lines in _levels(state, lang):
            found = NOTATION.findall("\n".join(lines))
            assert not found, (lang, found, lines)


def test_the_english_levels_would_show_the_notation_without_words(decisions):
    """The check above can fail: without the menu's words, the level options are the notation."""
    state = decisions[0]
    texts = [str(a) for a in state.legal_actions()]
    assert set(picker.level(texts).options) & {"charge", "upgrade", "transmute", "end"}


def test_a_person_plays_rounds_by_numbers_alone(monkeypatch):
    """Answering the first listed number at every level plays actions: the picker composes legal actions
    from numbers alone (a number keeps its meaning for the turn, so the first listed is not always 1)."""
    s = grimoire.new_game("zauberschmiede", 1, 11)
    con = Console(file=io.StringIO(), width=80, record=True, color_system=None)
    sess = Session(s, [None], con, t=Translator("hu"))
    answers = 0

    def first_listed(prompt, words=None, seat=None):
        nonlocal answers
        answers += 1
        assert answers < 200, con.export_text()[-2000:]          # an error loop would never play
        return str(min(sess.listed_now))

    monkeypatch.setattr(sess, "read", first_listed)
    for _ in range(15):
        if s.is_terminal():
            break
        assert sess.human_turn(s.current_player)
    assert len(sess.log) == 15
    assert {text.split()[0] for _, text in sess.log} >= {"charge"}
