"""Shuluri Viadal end to end in a real headless Chromium (the fixtures of tests/web): create a game
against an AI in the lobby, make the secret preparations, deploy by clicking the arena, and play it
to its end (a short game: max_rounds) by clicking legal moves on the board — fields to move to,
highlighted targets, the step's buttons. Four-player games (free-for-all and pairs) too.
Screenshots go to $GRIMOIRE_SCREENSHOTS (docs/screenshots when making the docs) or the test's tmp dir.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from web import e2e  # tests/web: the Chromium and server fixtures, waiting without eval (the pages' CSP)
from web.e2e import state as page_state
from web.e2e import wait_js

browser = e2e.browser          # the fixtures
chromium = e2e.chromium
server = e2e.server
pytestmark = e2e.one_worker(__name__)

MAX_CLICKS = 900


def click_and_wait(page, locator, field: bool = False):
    """Click and wait until the server has taken the action. ``field``: a field of the arena, which
    figures may cover: the click goes to the field's own element (its middle may show a figure)."""
    before = page_state(page)["seq"]
    if field:
        locator.first.dispatch_event("click")
    else:
        locator.first.click()
    wait_js(page, f"window.grimoirePage && window.grimoirePage.seq > {before}")


def create_in_lobby(page, base: str, players: int, agent: str, max_rounds: int, mode: str | None = None) -> None:
    page.goto(base + "/")
    page.wait_for_selector("button.create")
    page.select_option("select.game", "shuluri")
    page.locator("button.count", has_text=str(players)).click()
    for seat in range(1, players):
        page.locator(f".seat-row[data-seat='{seat}'] select.agent").select_option(agent)
    page.locator("details.options summary").click()
    page.locator("[data-option='max_rounds'] input").fill(str(max_rounds))
    if mode:
        page.locator("[data-option='mode'] select").select_option(mode)
    page.click("button.create")
    page.wait_for_selector("#play-here")
    page.click("#play-here")
    page.wait_for_selector("svg.arena")


def my_decision(page, timeout: float = 30) -> dict:
    """Wait for the seat's decision (or the end) and return what is on screen with the decision's kind,
    all from one read: the page may act by itself between two reads (a trap window passed automatically)
    and show the next seat's turn, or the end."""
    deadline = time.monotonic() + timeout
    while True:
        st = page.evaluate("""() => ({...(window.grimoirePage || {}),
                                      kind: document.querySelector("main")?.dataset.decision || ""})""")
        if st.get("status") == "over" or (st.get("mine") and not st.get("busy")):
            return st
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for the seat's decision: {st}")
        page.wait_for_timeout(50)


def play_to_the_end(page, shots: Path | None, seen: dict, prefix: str = "shuluri",
                    until: Callable[[], bool] | None = None) -> dict:
    """Click through every decision of the human seat until the game is over (or, with ``until``, until
    it says so at one of the seat's decisions); return what was done.
    With ``shots``, a screenshot of the first decision of each main kind: ``{prefix}-{kind}.png``."""
    moves_this_step = 0
    last_round = None
    for _ in range(MAX_CLICKS):
        st = my_decision(page)
        if st["status"] == "over" or (until is not None and until()):
            return seen
        if st["round"] != last_round:
            last_round, moves_this_step = st["round"], 0
        kind = st["kind"]
        seen.setdefault("kinds", set()).add(kind)
        if shots is not None and kind and f"shot-{kind}" not in seen and kind in ("traps", "act", "deploy"):
            seen[f"shot-{kind}"] = True
            if kind == "act":
                # show a line of fire: point at an enemy with the selected character
                enemy = page.locator("svg .fig.target, svg .fig:not(.acting)").last
                if enemy.count():
                    enemy.hover()
            page.screenshot(path=str(shots / f"{prefix}-{kind}.png"), full_page=True)
        if kind in ("traps", "amulets", "resist", "vials", "potions"):
            click_and_wait(page, page.locator(".setup button.confirm"))
        elif kind == "weapon":
            click_and_wait(page, page.locator("button.weapon-btn"))
        elif kind == "side":
            click_and_wait(page, page.locator("button.side-btn"))
        elif kind == "deploy":
            click_and_wait(page, page.locator("svg polygon.hex.legal[data-action]"), field=True)
            seen["deployed"] = seen.get("deployed", 0) + 1
        elif kind == "name":
            click_and_wait(page, page.locator("button.name-btn"))
        elif kind == "act":
            target = page.locator("svg .fig.target[data-action]")
            field = page.locator("svg polygon.hex.legal[data-action]")
            if target.count():
                click_and_wait(page, target)
                seen["attacks"] = seen.get("attacks", 0) + 1
            elif field.count() and moves_this_step < 3:
                moves_this_step += 1
                click_and_wait(page, field, field=True)
                seen["moves"] = seen.get("moves", 0) + 1
            else:
                moves_this_step = 0
                click_and_wait(page, page.locator("button.end-step"))
        elif kind == "react":
            if page.locator("button.pass").count():
                click_and_wait(page, page.locator("button.pass"))
            else:                   # passed automatically (the board's setting)
                wait_js(page, f"window.grimoirePage && window.grimoirePage.seq > {st['seq']}")
                seen["auto_passed"] = seen.get("auto_passed", 0) + 1
        else:   # dodge, push, shove, effect, enemy, chain, order: the prompt's first answer
            click_and_wait(page, page.locator(".prompt .actions button"))
    raise AssertionError("the game did not end within the click budget")


def test_the_lobby_offers_the_round_cap_with_its_default(browser, server):
    """Every game ends: the lobby shows Shuluri's max_rounds filled in with the descriptor's default (30) and
    sends nothing when it is left alone (the server fills the default in: test_descriptor.py)."""
    page = browser.new_page(viewport={"width": 390, "height": 900})
    page.goto(server.base + "/")
    page.wait_for_selector("button.create")
    page.select_option("select.game", "shuluri")
    page.locator("details.options summary").click()
    box = page.locator("[data-option='max_rounds'] input")
    assert box.input_value() == "30"
    with page.expect_request("**/api/games") as req:
        page.click("button.create")
    page.wait_for_selector("#play-here")
    assert "max_rounds" not in req.value.post_data_json["options"]       # the default: the server fills it in
    page.close()


def test_play_a_game_against_the_ai_to_its_end(browser, server, tmp_path):
    shots = Path(os.environ.get("GRIMOIRE_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    meta = httpx.get(server.base + "/api/meta", timeout=10).json()
    entry = next(g for g in meta["games"] if g["name"] == "shuluri")
    assert entry["has_ui"] and {"en", "hu", "de", "zh"} <= set(entry["languages"])
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    create_in_lobby(page, server.base, 2, "medium", max_rounds=2)     # two: the game crosses a round
    seen = play_to_the_end(page, shots, {})
    assert seen.get("deployed") == 5, seen
    assert seen.get("moves", 0) + seen.get("attacks", 0) > 0, seen
    assert {"traps", "amulets", "resist", "weapon", "deploy", "name", "act"} <= seen["kinds"]
    assert page_state(page)["status"] == "over"
    assert page.locator(".prompt.over").count() == 1
    page.screenshot(path=str(shots / "shuluri-over.png"), full_page=True)
    # the board in Hungarian, with the rulebook's terms
    page.select_option("select.lang", "hu")
    page.wait_for_selector("text=Viadorok")
    text = page.inner_text("main")
    assert "Gladiátor" in text or "gladiátor" in text
    page.screenshot(path=str(shots / "shuluri-hungarian.png"), full_page=True)
    page.select_option("select.lang", "en")
    assert not errors, errors


@pytest.mark.parametrize("mode,agent", [pytest.param("ffa", "medium", marks=pytest.mark.slow), ("pairs", "random")])
def test_four_players_play_to_the_end(browser, server, tmp_path, mode, agent):
    """The four-player modes (20.10): a human seat against three AI seats, to the end of a short game. By
    default against random seats: the page is the subject, and the medium AI's four-player games are
    test_ai's (here in the slow run)."""
    shots = Path(os.environ.get("GRIMOIRE_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    create_in_lobby(page, server.base, 4, agent, max_rounds=1, mode=mode)
    seen = play_to_the_end(page, shots, {}, prefix=f"shuluri-4p-{mode}")
    assert seen.get("deployed") == 5
    assert "act" in seen["kinds"]
    assert page.locator(".team-tile").count() == 4
    # pairs: the strip names the seat's partner (the seat opposite), every tile its ally
    assert page.locator(".status-strip .partner").count() == (1 if mode == "pairs" else 0)
    assert page.locator(".team-tile .allied").count() == (4 if mode == "pairs" else 0)
    assert page_state(page)["status"] == "over"
    assert page.locator(".prompt.over").count() == 1
    page.screenshot(path=str(shots / f"shuluri-4p-{mode}-over.png"), full_page=True)
    assert not errors, errors


def test_trap_windows_pass_automatically_when_set(browser, server):
    """The setting "pass trap windows automatically" (kept in the browser): the seat's trap windows are
    answered with "pass" without a click. Played until the first such pass (the rest of the game is the
    other tests' ground)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    seats = [{"agent": "human"}, {"agent": "random"}]
    g = httpx.post(server.base + "/api/games", json={"game": "shuluri", "seats": seats, "seed": 12,
                                                   "options": {"max_rounds": 2}}, timeout=10).json()
    page.goto(server.base + "/")
    page.evaluate("localStorage.setItem('grimoire.shuluri.autopass', '1')")
    page.goto(server.base + g["seats"][0]["url"])
    page.wait_for_selector("svg.arena")
    assert page.locator(".secrets .auto-pass input").is_checked()
    token = g["seats"][0]["token"]

    def passes() -> list[dict]:
        entries = httpx.get(f"{server.base}/api/games/{g['id']}/log",
                            headers={"Authorization": f"Bearer {token}"}, timeout=10).json()["log"]
        return [e for e in entries if e["seat"] == 0 and e["text"] == "pass"]
    play_to_the_end(page, None, {}, until=lambda: bool(passes()))
    assert passes(), "no trap window of the seat was passed"
    assert not errors, errors
