"""Seats are counted from 1 wherever the terminal speaks to people, in every game: the boards, the
prompt, the result, replay and review, and the --seat option (records and the API count from 0)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys

from rich.console import Console

import grimoire
from grimoire.agents import make_agent
from grimoire.cli import render as R
from grimoire.cli.i18n import Translator


def run(*args, input_text=None, timeout=300):
    return subprocess.run([sys.executable, "-m", "grimoire", *args], input=input_text, capture_output=True,
                          text=True, timeout=timeout,
                          env={"COLUMNS": "160", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"})

SEAT_0 = re.compile(r"\b(?:seat|Seat) 0\b")


def _finished(game: str, players: int, seed: int, **opts):
    s = grimoire.new_game(game, players, seed, **opts)
    agents = [make_agent(game, "random", i) for i in range(players)]
    while not s.is_terminal():
        seat = s.current_player
        s.apply(agents[seat].choose(s, seat))
    return s


def _text(game: str, s, seat, view=None) -> str:
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(
        R.render(game, s.observation(seat), seat, t=Translator("en"), view=view, width=80))
    return out.getvalue()


def test_the_boards_of_every_game_count_seats_from_1():
    games = (("zavandor", 3, {"max_rounds": 3}), ("zauberschmiede", 2, {}), ("shuluri", 2, {"max_rounds": 2}))
    for game, players, opts in games:
        s = _finished(game, players, 5, **opts)
        views = [None] + list(R.views(game))
        for seat in (*range(players), None):
            for view in views:
                text = _text(game, s, seat, view)
                assert not SEAT_0.search(text), (game, seat, view)
        end = _text(game, s, 0)
        for w in s.winners():
            assert re.search(rf"\b[Ss]eat {w + 1}\b", end), (game, s.winners())


def test_zauberschmiede_names_the_sheets_and_the_rows_from_1():
    s = grimoire.new_game("zauberschmiede", 2, 5)
    text = _text("zauberschmiede", s, 0)
    assert "Seat 1's sheet" in text and "seat 2:" in text
    full = _text("zauberschmiede", _finished("zauberschmiede", 2, 5), 0, "scores")
    rows = re.findall(r"^│ │ (\d) ", full, re.MULTILINE)          # the first column of the score table
    assert rows == ["1", "2"]


def test_play_prompts_and_results_count_from_1_and_seat_takes_the_person_number():
    r = run("play", "zavandor", "--seed", "3", "--players", "2", "--seat", "2", "-o", "characters=witch,elf",
            input_text="quit\n")
    assert r.returncode == 0, r.stderr
    assert "seat 2> " in r.stdout and "seat 0>" not in r.stdout
    for bad, needle in (("0", "--seat counts from 1"), ("3", "between 1 and 2")):
        r = run("play", "zavandor", "--seed", "3", "--players", "2", "--seat", bad, input_text="quit\n")
        assert r.returncode == 2 and needle in r.stderr and "Traceback" not in r.stderr
    r = run("play", "zauberschmiede", "--seed", "4", "--agents", "random,random", "--quiet")
    assert r.returncode == 0, r.stderr
    winners = re.search(r"winners: (.*?)\s+actions", r.stdout).group(1)
    assert re.fullmatch(r"seat [12](, seat [12])*", winners), winners
    assert not SEAT_0.search(r.stdout)


def test_replay_lists_the_moves_in_words_with_seats_from_1(tmp_path):
    rec = tmp_path / "g.json"
    r = run("play", "shuluri", "--agents", "random,random", "--seed", "6", "--max-rounds", "1", "--quiet",
            "--record", str(rec))
    assert r.returncode == 0, r.stderr
    data = json.loads(rec.read_text())
    r = run("replay", str(rec), "--moves", "--lang", "de")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    moves = [x for x in lines if re.match(r"\s*\d+ Platz [12]: ", x)]
    assert len(moves) == len(data["actions"])
    assert "Platz 0" not in r.stdout and "traps " not in r.stdout        # words, not the action texts
    assert lines[-2].startswith("OK: shuluri, 2 Spieler") and "Sieger: Platz" in lines[-1]
