"""The newcomer defects of issue 25 in the terminal commands: bad options, output paths and databases are
refused in one line before any work; messages say what is wrong; tables fit 80 columns."""

from __future__ import annotations

import csv
import socket
import sys

import pytest

from grimoire.cli.main import _register_commands, run


@pytest.fixture
def cli(monkeypatch, capsys):
    """Run ``grimoire ARGS`` in this process: (exit code, stdout, stderr)."""
    _register_commands()
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LANG", "C")

    def invoke(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["grimoire", *args])
        code = 0
        try:
            run()
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        out, err = capsys.readouterr()
        return code, out, err
    return invoke


def one_line_error(code: int, out: str, err: str, needle: str) -> None:
    assert code == 2, (code, out, err)
    assert "Traceback" not in out + err
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and needle in lines[0], err


@pytest.mark.parametrize("args,needle", [
    (("serve", "--port", "99999"), "--port must be between 1 and 65535, not 99999"),
    (("serve", "--port", "0"), "--port must be between 1 and 65535"),
    (("serve", "--log-level", "loud"), "--log-level must be one of critical, error, warning, info, debug"),
    (("serve", "--ai-delay", "-1"), "--ai-delay must be 0 seconds or more"),
    (("serve", "--ai-workers", "-3"), "--ai-workers must be at least 1, not -3"),
    (("serve", "--db", "foo://bar"), "--db foo://bar is not a database"),
    (("serve", "--db", "sqlite:////nonexistent/dir/x.db"), "the folder /nonexistent/dir does not exist"),
])
def test_serve_refuses_bad_options_in_one_line(cli, args, needle):
    one_line_error(*cli(*args), needle)


def test_serve_db_that_is_not_a_url_creates_no_file(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_line_error(*cli("serve", "--db", "notaurl"), "--db notaurl is not a database")
    assert not (tmp_path / "notaurl").exists()


def test_serve_db_folder_is_refused(cli, tmp_path):
    one_line_error(*cli("serve", "--db", str(tmp_path)), "is a folder, not a database file")
    one_line_error(*cli("serve", "--db", f"sqlite:///{tmp_path}"), "is a folder, not a database file")


def test_serve_unreachable_postgresql_is_one_line(cli):
    with socket.socket() as s:                       # a port nobody listens on: bound here, never listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        code, out, err = cli("serve", "--db", f"postgresql://u:secret@127.0.0.1:{port}/x", "--lock-timeout", "1")
    one_line_error(code, out, err, "cannot open the database")
    assert "secret" not in err                      # the password is not printed


def test_serve_busy_port_is_refused_before_it_says_running(cli, tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        code, out, err = cli("serve", "--port", str(port), "--db", str(tmp_path / "g.db"))
    one_line_error(code, out, err, f"port {port} on 127.0.0.1 is already in use")
    assert "running" not in out


@pytest.mark.parametrize("args,needle", [
    (("play", "zavandor", "--agents", "random,random", "--record", "/nonexistent/dir/x.json"),
     "--record /nonexistent/dir/x.json: the folder /nonexistent/dir does not exist"),
    (("arena", "zavandor", "--agents", "random,random", "--csv", "/nonexistent/dir/x.csv"), "--csv"),
    (("arena", "zavandor", "--agents", "random,random", "--json", "/nonexistent/dir/x.json"), "--json"),
    (("bench", "zavandor", "--json", "/nonexistent/dir/x.json"), "--json"),
])
def test_output_paths_are_checked_before_the_work(cli, args, needle):
    code, out, err = cli(*args)
    one_line_error(code, out, err, needle)
    assert out == ""                                 # nothing was played


def test_an_output_path_that_is_a_folder_is_refused(cli, tmp_path):
    one_line_error(*cli("play", "zavandor", "--agents", "random,random", "--record", str(tmp_path)), "is a folder")


def test_arena_says_a_human_cannot_play_there(cli):
    code, out, err = cli("arena", "zavandor", "--agents", "human,random")
    one_line_error(code, out, err, "'human' cannot take a seat")
    assert "unknown agent" not in err and "grimoire play zavandor" in err


def test_bench_names_an_unknown_agent_not_the_seat_count(cli):
    code, out, err = cli("bench", "zavandor", "--agents", "wizard")
    one_line_error(code, out, err, "unknown agent 'wizard'")
    assert "seats" not in err and "human" not in err


def test_error_messages_keep_their_brackets(cli, monkeypatch):
    import grimoire.cli.bench as bench
    from grimoire.core.errors import GameConfigError

    def boom(*_a, **_k):
        raise GameConfigError("Ray is not installed: pip install -e '.[ray]'")
    monkeypatch.setattr(bench, "check_player_count", boom)
    code, out, err = cli("bench", "zavandor")
    one_line_error(code, out, err, "pip install -e '.[ray]'")


def test_random_seats_alone_in_the_arena_play_to_the_round_cap(cli):
    """Two random seats may never end a game of Zavandor (an arena of them stopped at 20,000 actions); alone
    they get the game's round cap, as in ``grimoire play``, and the table says so."""
    code, out, err = cli("arena", "zavandor", "--agents", "random,random", "-n", "2", "--seed", "1")
    assert code == 0, err
    assert "ends after round" in out and "win rate" in out


def test_arena_tables_fit_80_columns_and_say_things_once(cli, tmp_path):
    path = tmp_path / "a.csv"
    code, out, err = cli("arena", "zavandor", "--agents", "random,easy", "-n", "2", "--max-rounds", "3",
                         "--csv", str(path))
    assert code == 0, err
    lines = out.splitlines()
    assert all(len(x) <= 80 for x in lines)
    start = next(i for i, x in enumerate(lines) if "per seat" in x)
    seat_table = "\n".join(lines[start:start + 12])
    assert "artifact: Magic Belt" in seat_table and "random" in seat_table and "easy" in seat_table  # not empty columns
    assert out.count("winner score") + out.count("winner's score") == 1
    with path.open() as f:
        header = next(csv.reader(f))
    assert len(header) == len(set(header)), [h for h in header if header.count(h) > 1]


@pytest.mark.parametrize("lang", ["en", "hu", "de", "zh"])
def test_zauberschmiede_rules_topics_have_titles_and_cite_no_spec(lang):
    import re

    from grimoire.cli.i18n import Translator
    from grimoire.cli.rules_cmd import rules_text, topics_of

    t = Translator(lang)
    for name, english in topics_of("zauberschmiede").items():
        text = t.rules("zauberschmiede", name, english)
        first = text.lstrip().split("\n", 1)[0]
        assert first.startswith("# ") and first[2:].strip() != name, (lang, name, first)   # a title, not the id
        assert not re.search(r"\bR\d+\.\d+|§\s?\d+|\b[Ss]pec\b", text), (lang, name)        # no spec references
    listing = rules_text("zauberschmiede", None, t)
    assert "`dustcreator` — " in listing                    # the id to type, with its title


def test_zauberschmiede_action_help_cites_no_spec():
    import re

    from grimoire.core.registry import game_info
    for lang in ("en", "hu", "de", "zh"):
        for key, text in game_info("zauberschmiede").catalog(lang).items():
            assert not re.search(r"\bR\d+\.\d+|§\s?\d+|\b[Ss]pec\b", text), (lang, key, text)


def test_rules_listing_names_the_whole_command(cli):
    code, out, err = cli("rules", "shuluri")
    assert code == 0, err
    assert "grimoire rules shuluri <topic>" in out
    assert "Type rules <topic>" not in out


def test_each_seat_has_its_own_line_history():
    import io

    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from rich.console import Console

    from grimoire.cli.play import LineReader
    with create_pipe_input() as inp:
        reader = LineReader(Console(file=io.StringIO()), pt_io={"input": inp, "output": DummyOutput()})
        inp.send_text("charge am1 green 3\r")
        assert reader.read("seat 1> ", seat=0) == "charge am1 green 3"
        inp.send_text("\x1b[A\r")                   # ↑ then Enter at the next player's prompt
        assert reader.read("seat 2> ", seat=1) == ""   # not the previous player's secret line
        inp.send_text("\x1b[A\r")
        assert reader.read("seat 1> ", seat=0) == "charge am1 green 3"   # one's own line comes back


def test_hot_seat_clears_the_screen_between_players():
    import io

    from rich.console import Console

    import grimoire
    from grimoire.cli.play import LineReader, Session

    class Script(LineReader):
        def __init__(self, console, lines):
            super().__init__(console)
            self.lines, self.events = list(lines), []

        def read(self, prompt, words=None, seat=None):
            self.events.append(("read", seat))
            return self.lines.pop(0) if self.lines else None

        def clear(self):
            self.events.append(("clear", None))

    console = Console(file=io.StringIO(), width=80)
    state = grimoire.new_game("zauberschmiede", 2, 3)
    reader = Script(console, ["end", "end", "", "quit"])          # (ending with unused dice asks again)
    session = Session(state, [None, None], console, reader=reader)
    assert session.loop() is False                  # seat 2 quit
    assert reader.events == [("read", 0), ("read", 0), ("clear", None), ("read", None), ("clear", None),
                             ("read", 1)]


def test_the_unsaved_game_message_wraps_between_words(cli, monkeypatch):
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code, out, err = cli("play", "zavandor", "--seed", "3", "--agents", "human,random", "--lang", "de")
    assert code == 0, err
    out = out.replace("Platz 1> ", "")             # (piped input is not echoed: the prompt shares the next line)
    assert all(len(line) <= 80 for line in out.splitlines())      # (a longer line the terminal breaks anywhere)
    assert "nächstes Mal" in out


def test_arena_and_play_take_agents_with_parameters(cli, tmp_path):
    """`--agents hard:iterations=2,time=0,medium` is two seats, as in `simulate` and the ladder scripts."""
    import json
    out_json = tmp_path / "a.json"
    code, out, err = cli("arena", "zavandor", "--agents", "hard:iterations=2,time=0,medium", "-n", "2",
                         "--json", str(out_json))
    assert code == 0, err
    assert {a["agent"] for a in json.loads(out_json.read_text())["summary"]["agents"]} == {"hard:iterations=2,time=0",
                                                                                  "medium"}
    rec = tmp_path / "g.json"
    code, out, err = cli("play", "zauberschmiede", "--agents", "hard:iterations=2,time=0", "-p", "1", "--seed", "4",
                         "--quiet", "--record", str(rec))
    assert code == 0, err
    assert json.loads(rec.read_text())["actions"]


@pytest.mark.parametrize(("spec", "needle"), [("hard:iterations=x,medium", "iterations=x is not an integer"),
                                              ("hard:iters=3,medium", "has no parameter 'iters'"),
                                              ("wizard:iterations=3,medium", "unknown agent 'wizard'")])
def test_a_wrong_agent_parameter_is_one_line_before_any_game(cli, spec, needle):
    one_line_error(*cli("arena", "zavandor", "--agents", spec, "-n", "50"), needle)
