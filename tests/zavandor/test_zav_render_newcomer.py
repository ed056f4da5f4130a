"""Issue 25's Zavandor findings in the terminal: the full board at 80 columns, the sentinel count at the end,
and a curse warning that says what it means when no bid at all can be paid."""

from __future__ import annotations

from rich.console import Console

import grimoire
from grimoire.cli.i18n import Translator
from grimoire.games.zavandor.render import render, warning

from .helpers import ELIXIR, act, fresh, set_display, set_hand


def _text(renderable, width: int) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_the_full_board_at_80_columns_shows_whole_numbers_for_every_player():
    s = grimoire.new_game("zavandor", 6, 4)
    for i, dust in enumerate((15, 25, 5, 15, 25, 5)):
        set_hand(s, i, dust=dust)
    for lang in ("en", "hu", "de", "zh"):
        t = Translator(lang)
        out = _text(render(s.observation(0), 0, s.hints(0), t=t, view="full", width=80), width=80)
        assert all(len(line) <= 80 for line in out.splitlines())
        assert "…" not in out
        dust_row = next(line for line in out.splitlines() if line.strip("│ ").startswith(t("zavandor.dust")))
        assert [c for c in dust_row.replace("│", " ").split() if c.isdigit()] == ["15", "25", "5", "15", "25", "5"]
        for p in s.observation(0)["zavandor"]["players"]:        # every player's character, whole
            assert t("zavandor.char." + p["character"]) in out


def test_the_sentinel_count_never_reads_six_of_five():
    s = grimoire.new_game("zavandor", 3, 4)
    obs = s.observation(None)
    obs["zavandor"]["sentinels_sold"] = 6          # the last round may sell more than the fifth
    out = _text(render(obs, None), width=80)
    assert "6/5" not in out and "sentinels sold 6" in out
    obs["zavandor"]["sentinels_sold"] = 3
    assert "sentinels sold 3/5" in _text(render(obs, None), width=80)


def test_the_curse_warning_without_any_payable_bid_names_no_dash():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [ELIXIR])
    set_hand(s, 0, cards="13r 15r 17r 9g", dust=10)
    act(s, "auction elixir", "bid 60")
    set_hand(s, 1, dust=2)
    obs = s.observation(1)
    assert not any(a.startswith("bid ") for a in obs["legal_actions"])      # no raise can be paid
    for lang in ("en", "hu", "de", "zh"):
        text = warning(obs, "bid 61", t=Translator(lang))
        assert text and "61" in text and "—" not in text and "-)" not in text and "{" not in text
    assert "cannot cover even the lowest bid" in warning(obs, "bid 61", t=Translator("en"))
