"""`grimoire --help` and every command's help in the reader's language: the descriptions, every option's
and argument's help, and Typer's and Click's own words ("Usage:", "Options", "[default: ...]", the
usage errors), from --lang on the command line or else the locale; English unchanged."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

import grimoire
from grimoire.cli import main
from grimoire.cli.help_i18n import help_lang
from grimoire.cli.i18n import Translator
from grimoire.cli.main import _register_commands, app
from grimoire.core.errors import GrimoireError
from grimoire.core.registry import games

LANGS = ("en", "hu", "de", "zh")
CATALOGS = Path(grimoire.__file__).parent / "cli" / "i18n"
# Typer's and Click's English words: none of them may be left in another language's help
ENGLISH_WORDS = ("Usage", "Options", "Arguments", "Commands", "Show this message", "default", "required",
                 "OPTIONS", "COMMAND", "ARGS", "Missing", "Invalid value", "No such", "Try ")

_register_commands()


def catalog(lang: str) -> dict[str, str]:
    return json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))


def command_names() -> list[str]:
    return sorted(typer.main.get_command(app).commands)   # type: ignore[attr-defined]


def help_keys(command: str) -> list[str]:
    """The catalog keys of a command's help: its description and one per option and argument."""
    cmd = typer.main.get_command(app).commands[command]   # type: ignore[attr-defined]
    return [f"help.cmd.{command}"] + [f"help.{command}.{p.name}" for p in cmd.params]


def shown(lang: str, args: list[str]) -> str:
    """The output as one line of words: box borders dropped, wrapping undone (a wide terminal, too)."""
    r = CliRunner().invoke(app, args, env={"GRIMOIRE_LANG": lang, "COLUMNS": "400", "LC_ALL": "", "LANG": ""})
    text = re.sub(r"[│╭╮╰╯─]", " ", r.output)
    return " ".join(text.split())


def texts(lang: str, keys: list[str]) -> list[str]:
    cat = catalog(lang)
    out = []
    for key in keys:
        text = cat[key].replace("{games}", ", ".join(games()))
        out += [" ".join(part.split()) for part in text.split("\n\n")]   # paragraphs print apart
    return out


def test_every_option_argument_and_command_has_its_help_in_the_catalogs():
    en = catalog("en")
    keys = ["help.app", "help.grimoire.lang"] + [k for c in command_names() for k in help_keys(c)]
    assert [k for k in keys if k not in en] == []
    for lang in LANGS[1:]:
        cat = catalog(lang)
        same = [k for k in keys + [k for k in en if k.startswith("help.")] if cat[k] == en[k]]
        assert same == [], f"{lang}: still English"


@pytest.mark.parametrize("lang", LANGS)
def test_the_top_help_lists_the_commands_in_the_language(lang):
    out = shown(lang, ["--help"])
    cat = catalog(lang)
    for key in ["help.app", *(f"help.cmd.{c}" for c in command_names())]:
        assert cat[key].split("\n\n")[0] in out       # the list shows a command's first paragraph
    assert cat["help.grimoire.lang"] in out
    for word in ("usage", "options", "commands", "help_option", "options_metavar", "command_metavar"):
        assert catalog(lang)[f"help.w.{word}"] in out
    if lang != "en":
        assert [w for w in ENGLISH_WORDS if re.search(rf"\b{re.escape(w)}", out)] == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("command", command_names())
def test_a_commands_help_is_all_in_the_language(lang, command):
    out = shown(lang, [command, "--help"])
    keys = help_keys(command)
    for text in texts(lang, keys):
        assert text in out, (lang, command, text)
    if lang == "en":
        return
    for english in texts("en", keys):
        assert english not in out, (lang, command, english)
    assert re.findall(r"<(?:str|int|float|bool|path|list\[\w+\])>", out) == []      # the type column too
    assert [w for w in ENGLISH_WORDS if re.search(rf"\b{re.escape(w)}", out)] == []


@pytest.mark.parametrize("command", command_names())
def test_chinese_help_folds_at_80_columns_and_loses_nothing(command):
    """Chinese has no spaces to wrap at: a long help text folds inside its column, never cut with '…'."""
    r = CliRunner().invoke(app, [command, "--help"], env={"GRIMOIRE_LANG": "zh", "COLUMNS": "80"})
    assert r.exit_code == 0 and "…" not in r.output
    assert max(len(line) for line in r.output.splitlines()) <= 80


def test_english_help_keeps_typers_words():
    out = shown("en", ["arena", "--help"])
    for words in ("Usage: ", "[OPTIONS] [game]", "Arguments", "Options", "[default: 100]", "[required]",
                  "Show this message and exit.", "one agent per seat, e.g. hard,medium,medium,medium"):
        assert words in out


@pytest.mark.parametrize("lang", LANGS[1:])
def test_lang_on_the_command_line_beats_the_locale(lang):
    r = CliRunner().invoke(app, ["rules", "--help", "--lang", lang], env={"GRIMOIRE_LANG": "en", "COLUMNS": "400"})
    assert catalog(lang)["help.rules.topic"] in r.output and "Usage" not in r.output
    assert help_lang(["play", f"--lang={lang}"]) == lang
    assert help_lang(["play", "--lang", "xx"]) in LANGS          # unknown: the locale's; play refuses it itself


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("args", "key", "params"), [
    (["arena", "zavandor"], "help.err.missing_option", {"name": "'--agents'"}),
    (["arena", "zavandor", "--agents", "random", "--games", "many"], "help.err.not_integer", {}),
    (["arena", "zavandor", "--agents", "random", "--think", "1"], "help.err.no_option", {"name": "--think"}),
    (["rules"], "help.err.missing_argument", {}),
    (["nosuch"], "help.err.no_command", {"name": "nosuch"}),
    (["rules", "zavandor", "turn", "more"], "help.err.extra_args", {"args": "more"}),
])
def test_usage_errors_in_the_language(lang, args, key, params):
    r = CliRunner().invoke(app, args, env={"GRIMOIRE_LANG": lang, "COLUMNS": "400"})
    assert r.exit_code == 2
    text = " ".join(re.sub(r"[│╭╮╰╯─]", " ", r.output).split())
    if key == "help.err.missing_argument":
        params = {"name": f"'{catalog(lang)['help.arg.game']}'"}
    expected = Translator(lang)(key, n=1, **params)
    assert expected in text, text
    assert catalog(lang)["help.w.error"] in text and "Traceback" not in text
    if lang != "en":
        assert [w for w in ENGLISH_WORDS if re.search(rf"\b{re.escape(w)}", text)] == []


@pytest.mark.parametrize("lang", LANGS[1:])
def test_grimoire_lang_before_the_command_reaches_its_help_and_its_messages(lang):
    out = shown("en", ["--lang", lang, "--help"])
    assert catalog(lang)["help.app"] in out and "Usage" not in out
    r = CliRunner().invoke(app, ["--lang", lang, "rules", "zavandor"], env={"GRIMOIRE_LANG": "en"})
    assert r.exit_code == 0
    assert catalog(lang)["term.rules_topics"].split("{")[0].strip() in r.output     # the command's own --lang


def test_an_unknown_language_is_refused_in_the_locales_words(monkeypatch, capsys):
    r = CliRunner().invoke(app, ["--lang", "xx", "rules", "zavandor"], env={"GRIMOIRE_LANG": "de"})
    assert isinstance(r.exception, GrimoireError) and "keine Sprache 'xx'" in str(r.exception)
    monkeypatch.setattr("sys.argv", ["grimoire", "--lang", "hu", "rules"])
    main.error_line("valami")
    assert capsys.readouterr().err.startswith("hiba: valami")


def test_lang_after_a_command_without_its_own_lang_is_grimoires():
    out = shown("en", ["arena", "--help", "--lang", "hu"])
    assert catalog("hu")["help.arena.agents"] in out and "Usage" not in out
    out = shown("en", ["serve", "--lang=zh", "--help"])
    assert catalog("zh")["help.serve.port"] in out
    group = typer.main.get_command(app)
    assert group.hoist_lang(["arena", "x", "--lang", "de"]) == ["--lang", "de", "arena", "x"]
    assert group.hoist_lang(["play", "x", "--lang", "de"]) == ["play", "x", "--lang", "de"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_games_list_is_in_the_language(lang):
    r = CliRunner().invoke(app, ["--lang", lang, "games"])
    cat = catalog(lang)
    for name in games():
        assert name in r.output
    assert cat["term.players_range"].split("}", 2)[-1].strip() in r.output
    if lang != "en":
        assert "players" not in r.output


def test_the_games_list_says_which_player_counts_are_allowed():
    """Shuluri Viadal is for 2 or 4 players (its descriptor's counts), never "2-4"."""
    out = CliRunner().invoke(app, ["--lang", "en", "games"]).output
    line = next(x for x in out.splitlines() if x.startswith("shuluri"))
    assert "(2, 4 players)" in line and "2-4" not in line
    assert "(2-6 players)" in next(x for x in out.splitlines() if x.startswith("zavandor"))
