"""The terminal's numbered list of actions speaks the player's language: outside English each action
is shown in the game's words (the typed notation stays English and is still accepted), and a number
confirmed by typing it again plays the action."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

import grimoire
from grimoire.agents import make_agent
from grimoire.cli.i18n import Translator
from grimoire.cli.play import Session, group_actions

# the notation's verbs: none is a word of Hungarian, German or Chinese
VERBS = re.compile(r"\b(?:end|buy|sell|active|inactive|activate|deactivate|lose|token|advance|auction|bid|pay|"
                   r"discard|pass|skip)\b")


def _decisions(game: str, players: int, seed: int, steps: int) -> list:
    """The states of a game between medium AIs at which the deciding seat had several actions."""
    s = grimoire.new_game(game, players, seed)
    agents = [make_agent(game, "medium", seed + i) for i in range(players)]
    out = []
    for _ in range(steps):
        if s.is_terminal():
            break
        seat = s.current_player
        if len(s.legal_actions()) > 1:
            out.append(s.clone())
        s.apply(agents[seat].choose(s, seat))
    return out


def _flat_list(state, lang: str) -> str:
    con = Console(file=io.StringIO(), width=80, record=True, color_system=None)
    sess = Session(state, [None] * state.num_players, con, t=Translator(lang))
    seat = state.current_player
    sess.show_flat(seat, [str(a) for a in state.legal_actions()])
    return con.export_text()


@pytest.fixture(scope="module")
def zavandor_decisions() -> list:
    return _decisions("zavandor", 2, 5, 400)


@pytest.mark.parametrize("lang", ["hu", "de", "zh"])
def test_the_action_list_is_in_words_outside_english(zavandor_decisions, lang):
    assert len(zavandor_decisions) > 50
    for state in zavandor_decisions:
        shown = _flat_list(state, lang)
        found = sorted(set(VERBS.findall(shown)))
        assert not found, (lang, found, shown[:400])


def test_the_english_list_is_the_notation_so_the_check_can_fail(zavandor_decisions):
    seen: set[str] = set()
    for state in zavandor_decisions:
        seen |= set(VERBS.findall(_flat_list(state, "en")))
    assert {"end", "buy", "bid", "pass"} <= seen


def test_a_run_of_numbers_is_one_cell_in_words():
    cells = group_actions([(1, "pass"), (2, "bid 20"), (3, "bid 21"), (4, "bid 22"), (5, "bid 23")],
                          words=lambda text: {"pass": "passzol"}.get(text, text.replace("bid", "licit")))
    assert cells == ["[dim]1[/] passzol", "[dim]2-5[/] licit 20..23"]


def test_a_number_typed_again_confirms_a_warned_action(monkeypatch):
    """A costly action asks to be typed again; the number the player typed counts as the action."""
    from grimoire.cli import play as P

    s = grimoire.new_game("zavandor", 2, 3)
    s.apply("buy opal")                      # a purchase not paid yet: ending the turn warns first
    assert "end" in [str(a) for a in s.legal_actions()]
    asked: list[str] = []
    monkeypatch.setattr(P.renderers, "warning", lambda game, obs, text, t=None: "pays first" if text == "end" else None)
    con = Console(file=io.StringIO(), width=80, record=True, color_system=None)
    sess = Session(s, [None, None], con, t=Translator("hu"))
    seat = s.current_player
    sess.show(seat)
    number = next(n for n, text in sess.numbers.update((seat, sess.turn + 1), [str(a) for a in s.legal_actions()])
                  if text == "end")
    answers = iter([str(number), str(number)])

    def read(prompt, words=None, seat=None):
        asked.append(prompt)
        return next(answers)

    monkeypatch.setattr(sess, "read", read)
    assert sess.human_turn(seat)
    assert len(asked) == 2                  # the prompt, then the confirmation
    assert sess.log == [(seat, "end")]
