"""Issue 5 point 4: the terminal sheet renders from any seat's observation, in play and at the end."""

from rich.console import Console
from zs_helpers import game, play

import grimoire
from grimoire.core.agent import RandomAgent
from grimoire.games.zauberschmiede import render as view


def _text(renderable) -> str:
    c = Console(width=150, record=True, color_system=None)
    c.print(renderable)
    return c.export_text()


def test_render_in_play_shows_dice_targets_sheet_and_score():
    s = game(players=2, rolls=[[1, 4, 4, 5, 6, 6]] * 7)
    play(s, "dust 1", "transmute 4 to 6", "charge bk green 6")
    out = _text(view.render(s.observation(0), 0))
    for needle in ("Round 1/7", "could go to", "transmuted from 4", "used: dust", "Book of Colours", "[g6]",
                   "cauldron", "amplifier", "transmutations left", "S8 dust creator", "All sheets"):
        assert needle in out, needle
    other = _text(view.render(s.observation(1), 1))
    assert "[g6]" not in other                      # seat 1 does not see seat 0's choices yet
    assert _text(view.render(s.observation(None), None))


def test_render_at_the_end_shows_the_breakdown_for_every_seat():
    for players in (1, 3):
        s = grimoire.new_game("zauberschmiede", players=players, seed=players)
        ag = RandomAgent(1)
        while not s.is_terminal():
            s.apply(ag.choose(s, s.current_player))
        out = _text(view.render(s.observation(0), 0))
        assert "Game over" in out and "Final score" in out and "S7 harmony" in out
        assert str(s.scores()[0]) in out


def test_describe_and_warning():
    assert "dust" in view.describe("dust 3")
    assert "R6.4" in view.describe("pay am1 r2")
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
    derived = _text(view.render(obs, 0))
    assert _text(view.render(obs, 0, s.hints(0))) == derived
    assert "could go to" in derived and "fields:" in derived and "upgrade" in derived
    fake = {"die_targets": {"1": ["dust"]}}                   # given hints are shown as they are
    out = _text(view.render(obs, 0, fake))
    assert "fields:" not in out.split("Artifacts")[0]
    # a seat that does not decide now has no legal actions, hence no targets
    assert "could go to" not in _text(view.render(s.observation(1), 1))
