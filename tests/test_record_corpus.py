"""The record loaders fed a corpus of corrupted records: ``grimoire replay`` and ``grimoire play
--resume`` answer every one with one line starting with ``error:`` and exit code 2, never a traceback;
``play --resume`` checks a record like ``replay`` (the recorded result and state hash included)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import grimoire
from grimoire.agents import make_agent
from grimoire.core.record import make_record


def _finished() -> dict:
    state = grimoire.new_game("zavandor", 2, 5, max_rounds=2)
    agents = [make_agent("zavandor", "random", i) for i in range(2)]
    while not state.is_terminal():
        state.apply(agents[state.current_player].choose(state, state.current_player))
    return make_record(state)


def _running() -> dict:
    state = grimoire.new_game("zavandor", 2, 6)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    return make_record(state)


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def corpus() -> list[tuple[str, str]]:
    """(name, file text): every one a damaged or invalid record."""
    good, run = _finished(), _running()
    out: list[tuple[str, str]] = []

    def add(name: str, rec) -> None:
        """``rec`` is the file's text if it is a string, else it is written as JSON."""
        while name in {n for n, _ in out}:
            name += "'"
        out.append((name, rec if isinstance(rec, str) else json.dumps(rec)))

    text = json.dumps(good)
    add("empty file", "")
    add("truncated", text[: len(text) // 2])
    add("one brace", "{")
    add("trailing garbage", text + "}}")
    add("byte order mark", "\ufeff" + text)
    add("not an object: list", [])
    add("not an object: number", 5)
    add("not an object: string", "record")
    add("not an object: null", None)
    add("deep nesting", _nested(100_000))
    add("deep nesting in options", text.replace('"options": {', '"options": {"x": ' + _nested(50_000) + ", ", 1))
    add("5001-digit seed", text.replace(f'"seed": {good["seed"]}', '"seed": ' + "7" * 5001, 1))
    for key in ("game", "players", "seed", "options", "actions"):
        add(f"missing {key}", {k: v for k, v in good.items() if k != key})
    for key, bad in [("game", 1), ("game", None), ("game", ["zavandor"]), ("game", "chess"), ("game", ""),
                     ("players", "2"), ("players", 2.5), ("players", True), ("players", -1), ("players", 0),
                     ("players", 1), ("players", 100), ("players", 10**30), ("players", None),
                     ("seed", "5"), ("seed", 5.5), ("seed", True), ("seed", -1), ("seed", 2**70), ("seed", None),
                     ("options", []), ("options", "x"), ("options", None), ("options", {"players": 2}),
                     ("options", {"seed": 1}), ("options", {"no_such_option": 1}), ("options", {"max_rounds": "many"}),
                     ("options", {"characters": 5}), ("options", {"characters": ["witch", "zombie"]}),
                     ("actions", "end"), ("actions", [1]), ("actions", [None]), ("actions", [["end"]]),
                     ("actions", {"0": "end"}), ("actions", ["fly to the moon"]), ("actions", ["end\x00"]),
                     ("actions", good["actions"] + ["end"]), ("actions", good["actions"][:-1] + ["nonsense"]),
                     ("result", "won"), ("result", []), ("result", 5), ("result", None), ("result", {"scores": "x"}),
                     ("result", {"scores": [1, 2]}), ("result", {"winners": 5, "scores": [0, 0]}),
                     ("result", {"scores": [10**6, 0], "winners": [0]}),
                     ("state_hash", 5), ("state_hash", None), ("state_hash", "deadbeef"), ("state_hash", ["x"])]:
        add(f"{key} = {str(bad)[:30]}", {**good, key: bad})
    add("players NaN", text.replace(f'"players": {good["players"]}', '"players": NaN', 1))
    add("players 1e400", text.replace(f'"players": {good["players"]}', '"players": 1e400', 1))
    add("running game claims a result", {**run, "result": good["result"]})
    add("running game with a wrong state hash", {**run, "state_hash": good["state_hash"]})
    add("actions of another seed", {**good, "seed": good["seed"] + 1})
    add("another player count", {**good, "players": 3})
    add("game name in capitals", {**good, "game": "ZAVANDOR"})
    add("another game's actions", {**good, "game": "zauberschmiede"})
    add("options max_rounds negative", {**good, "options": {**good["options"], "max_rounds": -3}})
    add("options max_rounds huge", {**good, "options": {**good["options"], "max_rounds": 10**40}})
    add("options nested object", {**good, "options": {"max_rounds": {"a": 1}}})
    add("options with a NUL key", {**good, "options": {"\x00": 1}})
    add("state_hash empty", {**good, "state_hash": ""})
    add("winners of another game", {**good, "result": {**good["result"], "winners": [7]}})
    add("ten thousand ends", {**run, "actions": ["end"] * 10_000})
    add("an action of 100 KB", {**run, "actions": ["x" * 100_000]})
    add("keys only", dict.fromkeys(good))
    add("record inside a list", [good])
    add("record as a string", json.dumps(json.dumps(good)))
    add("numbers as strings", {k: str(v) if isinstance(v, int) else v for k, v in good.items()})
    add("duplicate keys", text.replace('{"game": "zavandor"', '{"game": "zavandor", "game": 5', 1))
    add("NUL in the middle", text[:40] + "\x00" + text[40:])
    add("invalid UTF-8", "\udcff")
    add("only whitespace", "   \n\t  ")
    add("JSON with comments", "// a record\n" + text)
    add("Infinity seed", text.replace(f'"seed": {good["seed"]}', '"seed": Infinity', 1))
    add("negative zero players", text.replace(f'"players": {good["players"]}', '"players": -0.0', 1))
    return out


CORPUS = corpus()


def run_cli(monkeypatch, capsys, *argv: str) -> tuple[int, str]:
    """``grimoire`` in this process (the same entry point as the console script)."""
    from grimoire.cli.main import run
    monkeypatch.setattr(sys, "argv", ["grimoire", *argv])
    monkeypatch.setattr(sys, "stdin", open("/dev/null"))  # noqa: SIM115 - a player at a closed terminal
    code = 0
    try:
        run()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    out = capsys.readouterr()
    return code, out.err + out.out


def test_the_corpus_is_large_and_varied():
    assert len(CORPUS) >= 80 and len({name for name, _ in CORPUS}) == len(CORPUS)


@pytest.mark.parametrize("command", [("replay",), ("play", "--resume")])
def test_every_corrupted_record_is_one_clear_line_and_exit_code_2(command, tmp_path, monkeypatch, capsys):
    failures = []
    for i, (name, text) in enumerate(CORPUS):
        path = tmp_path / f"r{i}.json"
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        code, output = run_cli(monkeypatch, capsys, *command, str(path))
        lines = [ln for ln in output.strip().splitlines() if ln.strip()]
        if code != 2 or "Traceback" in output or not lines or not lines[0].startswith("error:") or len(lines) > 3:
            failures.append(f"{name}: exit {code}: {output[-300:]!r}")
    assert not failures, f"{len(failures)} of {len(CORPUS)} records:\n" + "\n".join(failures)


def test_a_valid_record_still_replays_and_resumes(tmp_path, monkeypatch, capsys):
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(_running()))
    code, output = run_cli(monkeypatch, capsys, "replay", str(path))
    assert code == 0 and "OK" in output
    code, output = run_cli(monkeypatch, capsys, "play", "--resume", str(path), "--agents", "human,random")
    assert code == 0 and "Game left unfinished" in output


def test_resume_checks_the_recorded_result_like_replay(tmp_path):
    # as a real process: the exact line a person sees
    rec = _finished()
    rec["result"]["scores"] = [99, 99]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(rec))
    r = subprocess.run([sys.executable, "-m", "grimoire", "play", "--resume", str(path)], capture_output=True,
                       text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and "differs from replayed" in r.stderr and "Traceback" not in r.stderr
