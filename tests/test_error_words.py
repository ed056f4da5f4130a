"""The core's refusals that reach a person — a damaged record or save, an unknown game, engine or backend,
a wrong player count or seed, an unbuilt engine, a run without results, Ray out of reach, a wrong
--seat — name their text in the terminal's catalogs (``key=``): said in the reader's language there, in
English by the API. The English catalog text is the error's own message, so the two cannot drift apart."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest

from grimoire.cli.i18n import Translator, catalog
from grimoire.core.errors import GameConfigError
from grimoire.core.record import load_record, make_record, replay, verify
from grimoire.core.registry import check_players, game_info, load_game, new_game

GAME = "zavandor"
OTHERS = ("hu", "de", "zh")
WORD = re.compile(r"(?<![-\w./])[A-Za-z][A-Za-z']{2,}")      # as tests/test_cli_tools_i18n.py scans the tools


def words(text: str) -> set[str]:
    return {w.strip("'") for w in WORD.findall(text)}


@functools.cache
def catalog_words(lang: str) -> frozenset[str]:
    return frozenset(w for text in catalog(lang).values() for w in words(text))


def record(**change) -> dict:
    state = new_game(GAME, 2, seed=3)
    state.apply(state.legal_actions()[0])
    return {**make_record(state), **change}


def write(tmp: Path, name: str, text: str) -> Path:
    (tmp / name).write_text(text, encoding="utf-8")
    return tmp / name


def refusals(tmp: Path):
    """Each refusal once: (what it is, the call that raises it)."""
    rec = record()
    yield "missing file", lambda: load_record(tmp / "none.json")
    yield "not JSON", lambda: load_record(write(tmp, "bad.json", "{"))
    yield "nested", lambda: load_record(write(tmp, "deep.json", "[" * 100_000 + "]" * 100_000))
    yield "not an object", lambda: replay([])          # type: ignore[arg-type]
    yield "lacks keys", lambda: replay({"game": GAME})
    yield "game not a name", lambda: replay(record(game=3))
    yield "players out of range", lambda: replay(record(players=99))
    yield "options not an object", lambda: replay(record(options=[]))
    yield "reserved option", lambda: replay(record(options={"seed": 1}))
    yield "actions not texts", lambda: replay(record(actions=[1]))
    yield "hash not text", lambda: replay(record(state_hash=1))
    yield "result shape", lambda: replay(record(result=[]))
    yield "illegal action", lambda: replay(record(actions=["fly to the moon"]))
    yield "other state", lambda: verify({**rec, "state_hash": "0" * len(rec["state_hash"])})
    yield "result before the end", lambda: verify({**rec, "result": {"scores": [1, 0], "winners": [0]}})
    yield "unknown game", lambda: game_info("chess")
    yield "players not a number", lambda: check_players(game_info(GAME), True)
    yield "player count", lambda: check_players(game_info(GAME), 9)
    yield "unknown engine", lambda: new_game(GAME, 2, seed=1, backend="quantum")
    yield "seed", lambda: new_game(GAME, 2, seed=-1)
    yield "save not an object", lambda: load_game([])       # type: ignore[arg-type]
    yield "corrupt save", lambda: load_game({"game": GAME, "players": "x"})

    from grimoire.sim.backends import probe_address, run_batches
    from grimoire.sim.store import read_rows
    yield "no results", lambda: read_rows(tmp)
    yield "unknown backend", lambda: run_batches("carrier-pigeon", {}, [], None)
    yield "Ray out of reach", lambda: probe_address(f"127.0.0.1:{free_port()}", 2)

    from grimoire.agents import make_agent
    from grimoire.agents.review import check_reviewable, hint
    yield "unknown agent", lambda: make_agent(GAME, "grandmaster", 1)
    yield "agent value out of range", lambda: make_agent(GAME, "expert:weight=3", 1)
    yield "agent value not among its choices", lambda: make_agent(GAME, "expert:horizon=forever", 1)
    yield "agent without a budget", lambda: make_agent("shuluri", "expert:time=0,iterations=0", 1)
    yield "review before the end", lambda: check_reviewable(rec, 0)
    yield "hint for another seat", lambda: hint(new_game(GAME, 2, seed=3), 1 - new_game(GAME, 2, seed=3).current_player)

    from grimoire.cli.play import build_agents, check_seat_option
    yield "seat 0", lambda: check_seat_option(0, 2)
    yield "seat 3 of 2", lambda: check_seat_option(3, 2)
    yield "agents for seats", lambda: build_agents(GAME, 2, 0, ["random"], 1)


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def caught(make) -> GameConfigError:
    with pytest.raises(GameConfigError) as info:
        make()
    return info.value


def test_every_refusal_names_its_text_and_says_it_in_english_as_the_api_does(tmp_path):
    english = Translator("en")
    for what, make in refusals(tmp_path):
        e = caught(make)
        assert e.key is not None, (what, str(e))
        assert english(e.key, **e.params) == str(e), what          # the catalog's English is the message


@pytest.mark.parametrize("lang", OTHERS)
def test_every_refusal_is_said_in_the_language(lang, tmp_path):
    t = Translator(lang)
    for what, make in refusals(tmp_path):
        e = caught(make)
        said = t(e.key, **e.params)
        assert e.key in catalog(lang) and said != str(e), what
        typed = words(" ".join(str(v) for v in e.params.values()))       # paths, names, the engine's reasons
        leftover = (words(said) & words(str(e))) - catalog_words(lang) - typed
        assert not leftover, (what, said, leftover)


def test_a_damaged_record_is_refused_in_the_language_by_the_terminal(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from grimoire.cli.main import _register_commands, app
    _register_commands()
    bad = write(tmp_path, "game.json", json.dumps(record(players=99)))
    r = CliRunner().invoke(app, ["--lang", "hu", "replay", str(bad)])
    assert r.exit_code != 0
    from grimoire.cli.main import in_words
    monkeypatch.setattr("sys.argv", ["grimoire", "--lang", "hu", "replay", str(bad)])
    assert in_words(r.exception) == Translator("hu")("term.err.record.number", field="players", top=64)


def test_an_agent_a_game_refuses_without_a_catalog_text_is_still_one_line(monkeypatch):
    """A game's agent factory that refuses its parameters with a plain ValueError: the terminal says which
    agent could not be built and why, in the reader's language around the game's reason, not a traceback."""
    from grimoire.agents import make_agent

    def picky(seed: int = 0, depth: int = 1):
        raise ValueError(f"depth {depth} is too deep")

    monkeypatch.setitem(game_info(GAME).agents, "picky", picky)
    e = caught(lambda: make_agent(GAME, "picky:depth=9", 1))
    assert str(e) == "agent picky:depth=9 cannot be built: depth 9 is too deep"
    said = Translator("de")(e.key, **e.params)
    assert said == "KI-Spieler picky:depth=9 lässt sich nicht erstellen: depth 9 is too deep"
