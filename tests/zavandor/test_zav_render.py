"""The terminal board draws the observation envelope (and the hints of the deciding seat)."""

from __future__ import annotations

from rich.console import Console

import grimoire
from grimoire.games.zavandor.render import render, warning

from .helpers import ELIXIR, act, fresh, set_display, set_hand


def _text(renderable) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_board_of_a_seat_a_spectator_and_the_end():
    s = grimoire.new_game("zavandor", 3, 4, max_rounds=1)
    for seat in (0, 1, 2, None):
        out = _text(render(s.observation(seat), seat, s.hints(seat) if seat is not None else None))
        assert "Round 1" in out and "Turn order" in out
        assert ("You: seat" in out) == (seat is not None)
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    assert "winners" in _text(render(s.observation(None), None))


def test_default_payment_hint_is_shown_and_bids_beyond_means_warned():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [ELIXIR])
    set_hand(s, 0, cards="13r 15r 17r 9g", dust=10)
    act(s, "auction elixir", "bid 60")
    set_hand(s, 1, dust=2)
    cp = s.current_player
    assert cp == 1
    obs = s.observation(cp)
    assert warning(obs, "bid 61") is not None         # seat 1 cannot pay a raise: the curse (7.5)
    assert warning(s.observation(0), "bid 61") is None  # not seat 0's decision
    act(s, "pass")                                     # seat 0 won at 60 and pays now
    h = s.hints(0)
    assert h["pay"]["need"] == 60 and h["pay"]["text"].startswith("pay ")
    assert "default 'pay' hands over" in _text(render(s.observation(0), 0, h))
