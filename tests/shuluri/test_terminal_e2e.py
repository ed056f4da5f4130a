"""A person at an 80x24 terminal (a tmux pane) plays the start of a Shuluri game through the grouped
picker: choices by number, by word and as whole action texts, Tab completion, a step back, the map
and the zoom, and wrong input answered by one error line right above the prompt."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid

import pytest

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (the terminal's end-to-end test)")
PROMPT = "seat 1>"


class Pane:
    """One 80x24 tmux pane on a tmux server of its own (stopped at the end)."""

    def __init__(self, command: str):
        assert TMUX is not None
        self.socket = f"grimoire-test-{uuid.uuid4().hex[:10]}"
        env = {**os.environ, "TERM": "xterm-256color"}
        env.pop("TMUX", None)
        subprocess.run([TMUX, "-L", self.socket, "new-session", "-d", "-x", "80", "-y", "24", "-s", "play",
                        command], check=True, env=env)

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        return subprocess.run([TMUX, "-L", self.socket, *args], check=True, capture_output=True, text=True).stdout

    def type(self, text: str, enter: bool = True) -> None:
        self.tmux("send-keys", "-t", "play", "-l", text)
        if enter:
            self.tmux("send-keys", "-t", "play", "Enter")

    def key(self, name: str) -> None:
        self.tmux("send-keys", "-t", "play", name)

    def screen(self) -> list[str]:
        lines = self.tmux("capture-pane", "-p", "-t", "play").splitlines()
        while lines and not lines[-1].strip():
            lines.pop()
        return lines

    def wait(self, needle: str, timeout: float = 60.0) -> list[str]:
        """The screen once ``needle`` is on it and the game waits at its prompt."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            lines = self.screen()
            text = "\n".join(lines)
            if needle in text and lines and lines[-1].rstrip() in (PROMPT, PROMPT + " ") or (
                    needle in text and "EXITED" in text):
                return lines
            time.sleep(0.2)
        raise AssertionError(f"{needle!r} did not appear:\n" + "\n".join(self.screen()))

    def close(self) -> None:
        subprocess.run([TMUX, "-L", self.socket, "kill-server"], check=False, capture_output=True)


def listed(lines: list[str]) -> list[int]:
    """The numbers of the list right above the prompt."""
    out: list[int] = []
    for line in reversed(lines[:-1]):
        found = re.findall(r"(?:^|\s{2})(\d+) \S", line)
        if not found or not re.match(r"\d+ \S", line):
            break
        out += [int(n) for n in found]
    return sorted(out)


def assert_error_right_above_the_prompt(lines: list[str], typed: str, error: str) -> None:
    assert lines[-1].rstrip() == PROMPT, lines[-3:]
    assert lines[-2].startswith(error), lines[-3:]
    assert lines[-3].rstrip() == f"{PROMPT} {typed}", lines[-3:]       # the list was not printed again


@pytest.fixture
def pane():
    p = Pane(f"{sys.executable} -m grimoire play shuluri --seed 3 --agents human,medium --lang en; "
             "echo EXITED $?; sleep 60")
    yield p
    p.close()


def test_a_person_plays_through_the_grouped_picker(pane):
    lines = pane.wait("Trap card 1 of 3")
    assert all(len(x) <= 80 for x in lines)
    pane.type("1")                                           # by number: the gladiator holds the first card
    pane.wait("Trap card 2 of 3")
    pane.type("wl")                                          # by word: the warlock the second
    pane.wait("Trap card 3 of 3")
    pane.type("99")
    assert_error_right_above_the_prompt(pane.wait("There is no action 99"), "99", "There is no action 99")
    pane.type("fly")
    assert_error_right_above_the_prompt(pane.wait("cannot read 'fly'"), "fly", "cannot read 'fly'")
    pane.type("0")                                           # back to the second card
    pane.wait("Trap card 2 of 3, number")
    pane.type("wl")
    pane.wait("Trap card 3 of 3")
    pane.type("xb")                                          # the third card: "traps gl wl xb" is played
    pane.wait("Who wears the poison-neutralizer amulet?")
    pane.type("amulets d1 d2 gl")                            # a whole action text at any level
    pane.wait("Who gets the magic resistance ME 2?")
    pane.type("x", enter=False)
    pane.key("Tab")                                          # Tab completes the level's words: "xb"
    time.sleep(0.5)
    assert pane.screen()[-1].rstrip().endswith("xb")
    pane.type("")
    pane.wait("Who gets the magic resistance ME 3?")
    pane.type("1")
    lines = pane.wait("Which weapon?")
    pane.type(str(listed(lines)[0]))
    pane.wait("Whom do you deploy?")
    for _ in range(12):                                      # deploy: a character, then one of its fields
        lines = pane.wait(PROMPT)
        if any("Who acts?" in x for x in lines) or any("Whom do you name" in x for x in lines):
            break
        pane.type(str(listed(lines)[0]))
        time.sleep(0.3)
    lines = pane.wait("Whom do you name")
    pane.type(str(listed(lines)[0]))
    lines = pane.wait("Who acts?")
    assert re.search(r"1 \w+ a\w\w · -?\d+,-?\d+ · \d+ MAN", "\n".join(lines))    # a figure, its field, its MAN
    pane.type("zoom")
    lines = pane.wait("Around ")
    assert sum(bool(re.search(r"-?\d+,-?\d+", x)) for x in lines) >= 6               # every field's coordinates
    pane.type("map")
    lines = pane.wait("q=10")
    assert any(re.match(r"\s*-?\d+ ", x) for x in lines)                            # r on every row
    pane.type("1")
    lines = pane.wait("What does")
    pane.type("move" if any("Move" in x for x in lines) else str(listed(lines)[0]))
    lines = pane.wait(PROMPT)
    if any("Which direction?" in x for x in lines):
        pane.type(str(listed(lines)[0]))
        lines = pane.wait("Who acts?")
    pane.type("quit")
    lines = pane.wait("EXITED")
    assert any("Game left unfinished" in x for x in lines) and any("EXITED 0" in x for x in lines)
