"""Issue 20, "every word translated": the tools' output (arena, bench, simulate, train, report, loadtest)
in the reader's language — no English left over, no raw catalog key, tables within 80 columns (a Chinese
character is two columns wide) — while their machine-readable files keep their documented keys.

Each command runs once per language on a tiny budget; its output is compared with the English run's:
a word (three letters or more, not part of an --option) that the English output has and that no text
of the language's catalogs has is an English leftover."""

from __future__ import annotations

import functools
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

import grimoire
from grimoire.agents.arena import run_arena
from grimoire.cli.i18n import catalog
from grimoire.cli.main import _register_commands, app
from grimoire.core.registry import game_info, with_round_cap

LANGS = ("en", "hu", "de", "zh")
OTHERS = LANGS[1:]
WORD = re.compile(r"(?<![-\w./])[A-Za-z][A-Za-z']{2,}")
KEY_TOKEN = re.compile(r"[\w.-]+")

_register_commands()


def words(text: str) -> set[str]:
    return set(WORD.findall(text))


@functools.cache
def catalog_words(lang: str) -> frozenset[str]:
    return frozenset(w for text in catalog(lang).values() for w in words(text))


@functools.cache
def all_keys() -> frozenset[str]:
    return frozenset(k for lang in LANGS for k in catalog(lang))


def run(lang: str, args: list[str]) -> str:
    r = CliRunner().invoke(app, ["--lang", lang, *args], env={"COLUMNS": "80", "LC_ALL": "", "LANG": ""})
    assert r.exit_code == 0, (lang, args, r.output, r.exception)
    return r.output


def flat(text: str) -> str:
    """Without spaces and line breaks (a table wraps its title and headers wherever they fit)."""
    return "".join(text.split())


def check_language(lang: str, out: str, english: str, allowed: set[str] = frozenset(), width: bool = True) -> None:
    """No raw key, no English leftover (a game's name is an identifier, typed as it is), nothing wider than
    80 columns."""
    raw = sorted(set(KEY_TOKEN.findall(out)) & all_keys())
    assert raw == [], (lang, raw)
    leftover = sorted((words(out) & words(english)) - catalog_words(lang) - set(allowed) - set(grimoire.games()))
    assert leftover == [], (lang, leftover)
    assert not width or max(cell_len(line) for line in out.splitlines()) <= 80, out


# ---- arena ----------------------------------------------------------------------------------------

ARENA = ["arena", "zavandor", "--agents", "random,random", "-n", "2", "--max-rounds", "6"]


@functools.cache
def arena_en() -> str:
    return run("en", ARENA)


def test_arena_in_english_keeps_its_table():
    out = arena_en()
    for words_ in ("The Scepter of Zavandor, 2 players, 2 games, seed 1", "win rate", "95% CI", "seat-games",
                   "mean game length: 6.0 rounds", "per seat (mean per seat-game)", "artifact: Magic Belt",
                   "win share by role", "Kobold"):
        assert flat(words_) in flat(out), words_


@pytest.mark.parametrize("lang", OTHERS)
def test_arena_is_all_in_the_language(lang):
    out = run(lang, ARENA)
    check_language(lang, out, arena_en())
    t = catalog(lang)
    for key in ("term.arena.col.win_rate", "term.arena.per_seat", "ai.random", "zavandor.arena.vp",
                "zavandor.arena.artifact_belt"):
        assert flat(t[key]) in flat(out), key


def test_every_arena_stat_and_role_of_every_game_has_a_label_in_every_language():
    for game in grimoire.games():
        info = game_info(game)
        opts = with_round_cap(info, {}) if info.round_cap else {}
        r = run_arena(game, ["random", "random"], 1, 1, opts, 1)[0]
        keys = set(r["stats"]) - {"actions"} | {k for s in r.get("seat_stats") or [] for k in s}
        roles = set(r.get("roles") or [])
        for lang in LANGS:
            t = catalog(lang)
            assert sorted(k for k in keys if f"{game}.arena.{k}" not in t) == [], (game, lang)
            assert sorted(x for x in roles if f"{game}.arena.role.{x}" not in t and f"{game}.role.{x}" not in t) \
                == [], (game, lang)


# ---- bench ----------------------------------------------------------------------------------------

BENCH = ["bench", "zauberschmiede", "-n", "2", "--max-rounds", "2"]
ENGINES = {"python", "native"}          # the --backend's names, as typed


@pytest.fixture
def quick_clones(monkeypatch):
    from grimoire.cli import bench
    monkeypatch.setattr(bench, "CLONE_SECONDS", 0.02)


@pytest.mark.parametrize("lang", LANGS)
def test_bench_is_all_in_the_language(lang, quick_clones):
    out = run(lang, BENCH)
    t = catalog(lang)
    for key in ("term.bench.col.measure", "term.bench.games_per_s", "term.bench.clones_per_s",
                "term.bench.random_self_play", "zauberschmiede.title"):
        assert flat(t[key]) in flat(out), key
    assert re.search(r"\d+\.\d{3}", out)                    # ms per game, as today
    if lang != "en":
        check_language(lang, out, run("en", BENCH), ENGINES)


def test_the_scan_finds_english_left_in_another_language():
    english = arena_en()
    with pytest.raises(AssertionError, match="Accumulation"):
        check_language("hu", english, english)
    with pytest.raises(AssertionError, match="term.arena.col.agent"):
        check_language("de", "term.arena.col.agent", english)


# ---- simulate and train ---------------------------------------------------------------------------

@pytest.fixture
def keep_signals():
    """simulate and train turn SIGTERM into Ctrl-C for their run: put pytest's handlers back."""
    import signal
    saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    yield
    for s, handler in saved.items():
        signal.signal(s, handler)


def simulate_args(out: Path) -> list[str]:
    return ["simulate", "zauberschmiede", "--agents", "random", "-n", "2", "--workers", "1", "--out", str(out)]


@pytest.fixture(scope="module")
def simulate_en(tmp_path_factory) -> str:
    english = run("en", simulate_args(tmp_path_factory.mktemp("sim")))
    assert "2 games in" in english and "report: grimoire report" in english
    return english


@pytest.mark.parametrize("lang", OTHERS)
def test_simulate_is_all_in_the_language(lang, tmp_path, keep_signals, simulate_en):
    english = simulate_en
    out = run(lang, simulate_args(tmp_path / lang))
    t = catalog(lang)
    assert flat(t["term.sim.report_hint"].split("{")[0]) in flat(out)
    # the run's name is its folder's (``random``): typed by the user, the same in every language
    check_language(lang, out, english, {"random"})
    again = run(lang, simulate_args(tmp_path / lang))             # nothing left to play: resumes and says so
    assert flat(t["term.sim.resuming"].split("{")[0]) in flat(again)
    check_language(lang, again, english, {"random"})


def train_args(out: Path) -> list[str]:
    return ["train", "zauberschmiede", "-p", "2", "-n", "1", "-g", "2", "--simulations", "1", "--gate-games", "1",
            "--epochs", "1", "--hidden", "8", "--teacher", "random", "--trainer", "numpy", "--out", str(out)]


@pytest.fixture(scope="module")
def train_en(tmp_path_factory) -> str:
    english = run("en", train_args(tmp_path_factory.mktemp("train")))
    for line in ("generation 0: becomes the best network (no gate)", "generation 1:", "against the best network",
                 "gen 1 gate", "best network:"):
        assert flat(line) in flat(english), line
    return english


def train_events(lang: str) -> str:
    """Every line a training run can print, put into words without training (cheap for every language)."""
    from grimoire.cli.i18n import Translator
    from grimoire.cli.train import log_line
    t = Translator(lang)
    events = [("resume", {"out": "r", "games": 3, "total": 8, "generation": 1}),
              ("trained", {"generation": 1, "positions": 900, "value_loss": 0.61, "policy_loss": 1.2}),
              ("gate", {"generation": 0, "accepted": True, "games": 0}),
              ("gate", {"generation": 1, "accepted": True, "games": 8, "candidate_share": 0.625}),
              ("gate", {"generation": 2, "accepted": False, "games": 4, "candidate": 30.0, "best": 31.5})]
    lines = [log_line(t, e, p, 2) for e, p in events]
    lines += [t(f"term.train.phase.{phase}", g=1) for phase in ("games", "training", "gate")]
    return "\n".join(lines + [t("term.train.best", path="r/best.npz")])


@pytest.mark.parametrize("lang", OTHERS)
def test_every_line_of_a_training_run_is_in_the_language(lang):
    check_language(lang, train_events(lang), train_events("en"), width=False)     # (lines, not yet wrapped)


def test_train_is_all_in_the_language(tmp_path, keep_signals, train_en):
    """One real run in the language whose characters are twice as wide (the others: the test above)."""
    lang = "zh"
    english = train_en
    out = run(lang, train_args(tmp_path / lang))
    t = catalog(lang)
    for key in ("term.train.gate_free", "term.train.trained", "term.train.gate_share", "term.train.best"):
        assert flat(t[key].split("{")[1].split("}", 1)[1]) in flat(out), key     # its words after the first value
    check_language(lang, out, english)


def test_a_training_runs_events_in_words():
    from grimoire.cli.i18n import Translator
    from grimoire.cli.train import log_line
    en = Translator("en")
    assert log_line(en, "gate", {"generation": 2, "accepted": True, "games": 8, "candidate_share": 0.625}, 2) == \
        "generation 2: wins 62.5% of 8 games against the best network (par 50.0%): it replaces it"
    assert log_line(en, "gate", {"generation": 1, "accepted": False, "games": 4, "candidate": 30.0, "best": 31.5},
                    1) == "generation 1: mean score 30.00 against the best network's 31.50 over 4 games: the best " \
                          "network stays"
    assert log_line(en, "resume", {"out": "r", "games": 3, "total": 8, "generation": 1}, 2) == \
        "resuming r: 3 of 8 games of generation 1 already played"


# ---- loadtest (its summary: the command itself starts a server, too slow for every language) -------

def load_figures() -> dict:
    lat = [12.5, 20.0, 31.0, 80.5]
    return {"games": 2, "finished": 1, "actions": 4, "wall": 2.0, "split": 0.5, "latency": lat, "early": lat[:1],
            "late": lat[1:], "connected_at": 0.4, "seats": 4, "lag": [0.5, 6.0], "client_cpu": 0.3,
            "server_cpu": {101: 0.2, 102: 0.1}, "threads": {101: {"python": 0.15}, 102: {}}, "postgres_cpu": 0.05,
            "load_before": 1.5, "loads": [], "cores": 2,
            "errors": [("closed", {"game": "g1", "seat": 0}), ("unacknowledged", {"game": "g1", "seat": 3, "n": 2}),
                       ("timeout", {"seconds": "60", "n": 1})]}


def load_summary(lang: str) -> str:
    import io

    from rich.console import Console

    from grimoire.cli.i18n import Translator
    from grimoire.cli.loadtest_words import print_summary
    console = Console(file=io.StringIO(), width=80)
    print_summary(console, Translator(lang), load_figures())
    return console.file.getvalue()


def test_loadtest_summary_in_english():
    out = load_summary("en")
    for text in ("games finished", "1/2 in 2.0s", "before 0.5s (games starting)", "80.5", "server",
                 "CPU 0.3s (15% of a core)", "game g1 seat 1: the connection closed",       # seats from 1
                 "game g1 seat 4: 2 actions never acknowledged", "timed out after 60s with 1 game unfinished"):
        assert flat(text) in flat(out), text
    assert "nan" not in out


@pytest.mark.parametrize("lang", OTHERS)
def test_loadtest_summary_is_all_in_the_language(lang):
    out = load_summary(lang)
    t = catalog(lang)
    for key in ("term.load.row.finished", "term.load.latency_title", "term.load.col.mean", "term.load.row.errors"):
        assert flat(t[key]) in flat(out), key
    check_language(lang, out, load_summary("en"), {"python", "postgres", "PostgreSQL"})


# ---- report ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def study_run(tmp_path_factory) -> Path:
    """A study of two agents (12 short games each): findings per run, per study and a comparison."""
    import signal
    saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    out = tmp_path_factory.mktemp("study")
    try:
        run("en", ["simulate", "zavandor", "-a", "random,easy", "-p", "2", "-n", "12", "-o", "max_rounds=3",
                   "--workers", "1", "--out", str(out)])
    finally:
        for s, handler in saved.items():
            signal.signal(s, handler)
    return out


def report_args(run_dir: Path, lang: str) -> list[str]:
    return ["report", str(run_dir), "--format", "json", "--out", str(run_dir / f"report-{lang}")]


def test_report_in_english_keeps_its_findings_and_the_json_english(study_run):
    out = run("en", report_args(study_run, "en"))
    for text in ("random: 12 games", "No seat differs significantly", "easy against random", "Rarely taken",
                 "sentinel: Fox", "written:"):
        assert flat(text) in flat(out), text
    data = json.loads((study_run / "report-en" / "report.json").read_text())
    assert any("No seat differs significantly" in f for f in data["runs"][0]["findings"])


@pytest.mark.parametrize("lang", OTHERS)
def test_report_is_all_in_the_language(lang, study_run):
    out = run(lang, report_args(study_run, lang))
    t = catalog(lang)
    for key in ("term.report.study_game", "term.report.run_games", "term.report.against", "term.report.written"):
        assert flat(t[key].split("{")[0]) in flat(out), key
    # the runs' names are their folders' (here the agents' names, as typed): the same in every language
    check_language(lang, out, run("en", report_args(study_run, "en")), {"random", "easy"})
    data = json.loads((study_run / f"report-{lang}" / "report.json").read_text())
    assert any("No seat differs significantly" in f for f in data["runs"][0]["findings"])   # the file: English


class _PageText(HTMLParser):
    def __init__(self):
        super().__init__()
        self.out: list[str] = []
        self.in_style = False

    def handle_starttag(self, tag, attrs):
        self.in_style = self.in_style or tag == "style"

    def handle_endtag(self, tag):
        self.in_style = self.in_style and tag != "style"

    def handle_data(self, data):
        if not self.in_style:
            self.out.append(data)


def page_text(path: Path) -> str:
    """What a reader sees of an HTML page: its text outside <style>, the plots' SVG labels included."""
    parser = _PageText()
    parser.feed(path.read_text(encoding="utf-8"))
    return "\n".join(parser.out)


def report_page(study_run: Path, lang: str) -> str:
    out = study_run / f"page-{lang}"
    run(lang, ["report", str(study_run), "--out", str(out)])
    return page_text(out / "index.html")


@pytest.fixture(scope="module")
def english_page(study_run) -> str:
    return report_page(study_run, "en")


@pytest.mark.parametrize("lang", OTHERS)
def test_the_report_page_is_all_in_the_language(lang, study_run, english_page):
    """The HTML page's prose, tables, findings and plots in the reader's language, like the terminal's."""
    page, english = report_page(study_run, lang), english_page
    for key in ("term.page.summary", "term.page.study", "term.page.method_text", "term.page.plot.win_rate"):
        assert catalog(lang)[key] in page, key
    # as typed: the agents' names (the runs' folders), the engine, the commit (hex: its letters are no
    # English, and a run of them can be any word) of a changed tree ("+dirty")
    page, english = (re.sub(r"\b[0-9a-f]{7,40}\b", " ", text) for text in (page, english))
    check_language(lang, page, english, {"random", "easy", "python", "dirty"}, width=False)


# ---- the commands' common refusals ----------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("args", [["bench", "shuluri", "-p", "3"], ["arena", "shuluri", "--agents", "random"],
                                  ["simulate", "shuluri", "-p", "5", "--out", "x"], ["bench"], ["bench", "chess"]])
def test_a_wrong_game_or_player_count_is_refused_in_the_language(lang, args):
    r = CliRunner().invoke(app, ["--lang", lang, *args])
    assert r.exit_code != 0 and r.exception is not None
    said = str(r.exception)
    t = catalog(lang)
    key = "term.err.which_game" if len(args) == 1 else "term.err.unknown_game" if args[1] == "chess" \
        else "term.err.player_count"
    assert t[key].split("{")[0].strip() in said or t[key].split("}")[1].split("{")[0].strip() in said, said
    if key == "term.err.player_count":
        assert t["term.players_list"].replace("{counts}", "2, 4") in said
    if lang != "en":
        assert not words(said) & {"players", "which", "unknown", "available", "not"}, said


# ---- options --------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", grimoire.games())
def test_every_option_is_explained_in_every_language(game):
    """``grimoire options``: every rule option of every game has its words in the catalogs (the lobby's
    label and help, or the terminal's), so no option falls back to its English description."""
    from grimoire.cli.i18n import Translator
    from grimoire.cli.options_cmd import option_rows, option_words
    for lang in LANGS:
        t = Translator(lang)
        for name, _kind, _default, _english in option_rows(game):
            assert option_words(t, game, name, "?") != "?", (lang, name)


@pytest.mark.parametrize("lang", OTHERS)
def test_options_is_all_in_the_language(lang):
    args = ["options", "zauberschmiede"]
    out = run(lang, args)
    t = catalog(lang)
    for key in ("term.options.col.option", "term.options.col.what", "zauberschmiede.option.rolls"):
        assert flat(t[key]) in flat(out), key
    from grimoire.cli.options_cmd import option_rows
    typed = {w for name, _k, default, _h in option_rows("zauberschmiede") for w in words(f"{name} {default}")}
    check_language(lang, out, run("en", args), typed)             # names and values as -o takes them


@pytest.mark.parametrize("spec", ["medium:iterations=5", "hard:iterations=x", "hard:iterations", "hard:c=-1"])
def test_an_agents_parameter_error_is_said_in_the_language(monkeypatch, spec):
    """The API keeps its English message; the terminal says the same in the command line's language."""
    from grimoire.agents import parse_agent
    from grimoire.cli.main import in_words
    from grimoire.core.errors import GameConfigError
    with pytest.raises(GameConfigError) as caught:
        parse_agent("zavandor", spec)
    e = caught.value
    assert e.key is not None and e.key.startswith("term.err.agent.") and str(e).startswith("agent")
    for lang in LANGS:
        monkeypatch.setattr("sys.argv", ["grimoire", "--lang", lang, "arena", "zavandor", "--agents", spec])
        said = in_words(e)
        assert said == catalog(lang)[e.key].format(**{k: v for k, v in e.params.items()}) or "{" not in said
        if lang == "en":
            assert said.split(":")[0] == str(e).split(":")[0]
        else:
            assert not words(said) & {"agent", "parameter", "parameters", "takes", "integer", "number"}, said


def test_the_report_page_counts_seats_from_1():
    """The HTML report's tables and plots name seat 0 of the data "1" (turn positions already were)."""
    from grimoire.sim.report.html import label
    from grimoire.sim.report.plots import _label
    assert label(0, "seat") == "1" and label(2, "seat") == "3" and label(0, "turn_position") == "1."
    assert _label(0, "seat") == "seat 1" and _label("witch", "role") == "witch"


def _simulate_twice():
    from grimoire.sim.study import agent_sets
    agent_sets("zavandor", "random,random")


def _train_hidden(tmp: Path):
    from grimoire.learn.pipeline import TrainConfig, check
    check(TrainConfig(game="zavandor", players=2, out=str(tmp / "t"), hidden=[0]))


@pytest.mark.parametrize("lang", OTHERS)
def test_simulate_and_train_refusals_are_said_in_the_language(lang, monkeypatch, tmp_path):
    from grimoire.cli.main import in_words
    from grimoire.core.errors import GameConfigError
    monkeypatch.setattr("sys.argv", ["grimoire", "--lang", lang])
    for make in (_simulate_twice, lambda: _train_hidden(tmp_path)):
        with pytest.raises(GameConfigError) as caught:
            make()
        said = in_words(caught.value)
        assert said == catalog(lang)[caught.value.key].replace("{agents}", "random"), said
        assert str(caught.value) != said                          # the API's message stays English
