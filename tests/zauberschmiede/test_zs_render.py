"""Issue 5 point 4: the terminal sheet renders from any seat's observation, in play and at the end."""

from rich.console import Console
from zs_helpers import game, play

import grimoire
from grimoire.core.agent import RandomAgent
from grimoire.games.zauberschmiede import render as view


def _text(renderable, width: int = 150) -> str:
    c = Console(width=width, record=True, color_system=None)
    c.print(renderable)
    return c.export_text()


def test_render_in_play_shows_dice_targets_sheet_and_score():
    s = game(players=2, rolls=[[1, 4, 4, 5, 6, 6]] * 7)
    play(s, "dust 1", "transmute 4 to 6", "charge bk green 6")
    out = _text(view.render(s.observation(0), 0, view="full")).lower()
    for needle in ("round 1/7", "could go to", "transmuted from 4", "used: cauldron", "book of colours", "[g6]",
                   "cauldron", "amplifier", "transmutations", "1 left", "s8 dust creator", "all sheets"):
        assert needle in out, needle
    other = _text(view.render(s.observation(1), 1, view="full"))
    assert "[g6]" not in other                      # seat 1 does not see seat 0's choices yet
    assert _text(view.render(s.observation(None), None))


def test_render_at_the_end_shows_the_breakdown_for_every_seat():
    for players in (1, 3):
        s = grimoire.new_game("zauberschmiede", players=players, seed=players)
        ag = RandomAgent(1)
        while not s.is_terminal():
            s.apply(ag.choose(s, s.current_player))
        out = _text(view.render(s.observation(0), 0, view="full"))
        assert "Game over" in out and "Final score" in out and "S7 Harmony" in out
        assert str(s.scores()[0]) in out


def test_describe_and_warning():
    assert "dust" in view.describe("dust 3")
    assert "Kessel" in view.describe("dust 3", t=__import__("grimoire.cli.i18n", fromlist=["x"]).Translator("de"))
    assert "R6.4" not in view.describe("pay am1 r2") and "stocks" in view.describe("pay am1 r2")   # no spec numbers
    assert "harmony" in view.describe("harmony").lower()
    s = game(rolls=[[1] * 6, [1] * 6])
    play(s, "dust 1", "dust 1", "dust 1", "end")
    from zs_helpers import set_fields

    set_fields(s.players[0], "AM1", [1, 1])
    assert "expire" in view.warning(s.observation(0), "end")
    assert "lost" in view.warning(s.observation(0), "pay am1 r1")
    assert view.warning(s.observation(0), "dust 1") is None


def test_die_targets_come_from_the_hints_or_the_legal_actions_of_the_observation():
    s = game(players=2, rolls=[[1, 4, 4, 5, 6, 6]] * 7)
    obs = s.observation(0)
    derived = _text(view.render(obs, 0, view="full"))
    assert _text(view.render(obs, 0, s.hints(0), view="full")) == derived
    assert "could go to" in derived and "fields:" in derived and "upgrade" in derived
    fake = {"die_targets": {"1": ["dust"]}}                   # given hints are shown as they are
    out = _text(view.render(obs, 0, fake, view="full"))
    assert "fields:" not in out.split("Artifacts")[0]
    # a seat that does not decide now has no legal actions, hence no targets
    assert "could go to" not in _text(view.render(s.observation(1), 1, view="full"))


def test_the_compact_sheet_fits_80_columns_in_few_lines():
    # the finding: ~190 lines after every move below 150 columns; now about 20 at 80
    s = game(players=2, rolls=[[1, 4, 4, 5, 6, 6]] * 7)
    play(s, "dust 1", "transmute 4 to 6", "charge bk green 6")
    out = _text(view.render(s.observation(0), 0, s.hints(0)), width=80)
    lines = out.splitlines()
    assert len(lines) <= 26, out
    assert all(len(line) <= 80 for line in lines)
    for needle in ("bk 6··", "Cauldron 1 0 0 0 0 0 0 =1", "4 → ", "seat 2: 0 points"):     # seats count from 1
        assert needle in out, (needle, out)
    # each die value that is still unused lists where it could go; the used 1 does not
    assert "  1 → " not in out and "  6 → " in out


def test_the_sheet_speaks_the_players_language():
    from grimoire.cli.i18n import Translator
    s = game(players=1, rolls=[[1, 4, 4, 5, 6, 6]] * 7)
    out = _text(view.render(s.observation(0), 0, t=Translator("de")), width=80)
    assert "Kessel" in out and "Amulette" in out and "Würfel" in out
    out = _text(view.render(s.observation(0), 0, t=Translator("zh"), view="full"), width=100)
    assert "色彩之書" in out and "大鍋" in out
