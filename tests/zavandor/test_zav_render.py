"""The terminal board draws the observation envelope (and the hints of the deciding seat)."""

from __future__ import annotations

from rich.console import Console

import grimoire
from grimoire.games.zavandor.render import render, warning

from .helpers import ELIXIR, act, fresh, set_display, set_hand


def _text(renderable, width: int = 200) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_board_of_a_seat_a_spectator_and_the_end():
    s = grimoire.new_game("zavandor", 3, 4, max_rounds=1)
    for seat in (0, 1, 2, None):
        out = _text(render(s.observation(seat), seat, s.hints(seat) if seat is not None else None))
        assert "Round 1" in out and "Turn order" in out
        assert ("You: cards" in out) == (seat is not None)
        for view in ("full", "hand", "market"):
            assert "Round 1" in _text(render(s.observation(seat), seat, view=view))
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    out = _text(render(s.observation(None), None))
    assert "Game over" in out and "round limit" in out     # the end reason in words, not "max_rounds"


def test_the_compact_board_fits_80_columns_with_a_readable_auction():
    # the findings: at 80 columns the headings were "…", your own values vanished, an auction
    # without bids read "high bid None by seat None", and the opener was told to "bid or pass"
    s = fresh(3, ["witch", "elf", "druid"])
    set_display(s, [ELIXIR])
    set_hand(s, 0, cards="13r 15r 17r 9g", dust=10)
    act(s, "auction elixir")
    out = _text(render(s.observation(0), 0, s.hints(0)), width=80)
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines) and len(lines) <= 24, out
    for needle in ("Turn order", "VP", "You: cards 9 13 15 17", "Elixir", "no bid yet", "at least 60",
                   "cannot pass"):
        assert needle in out, (needle, out)
    assert "None" not in out and "…" not in out


def test_the_board_speaks_the_players_language():
    from grimoire.cli.i18n import Translator
    s = fresh(2, ["witch", "elf"])
    out = _text(render(s.observation(0), 0, t=Translator("de")), width=80)
    assert "Zugreihenfolge" in out and "Hexe" in out and "Runde 1" in out
    out = _text(render(s.observation(0), 0, t=Translator("hu"), view="market"), width=80)
    assert "Őrszemek" in out


def test_opening_an_auction_with_open_purchases_asks_first():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="13r 15r 17r 9g", dust=10)
    act(s, "buy opal")
    obs = s.observation(0)
    item = next(a for a in obs["legal_actions"] if a.startswith("auction "))
    assert "open purchases" in warning(obs, item)


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
