"""Issue 20, "every word translated": the tools' output (arena, bench, simulate, train, report, loadtest)
in the reader's language — no English left over, no raw catalog key, tables within 80 columns (a Chinese
character is two columns wide) — while their machine-readable files keep their documented keys.

Each command runs once per language on a tiny budget; its output is compared with the English run's:
a word (three letters or more, not part of an --option) that the English output has and that no text
of the language's catalogs has is an English leftover."""

from __future__ import annotations

import functools
import re

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


def check_language(lang: str, out: str, english: str, allowed: set[str] = frozenset()) -> None:
    """No raw key, no English leftover, nothing wider than 80 columns."""
    raw = sorted(set(KEY_TOKEN.findall(out)) & all_keys())
    assert raw == [], (lang, raw)
    leftover = sorted((words(out) & words(english)) - catalog_words(lang) - set(allowed))
    assert leftover == [], (lang, leftover)
    assert max(cell_len(line) for line in out.splitlines()) <= 80, out


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
