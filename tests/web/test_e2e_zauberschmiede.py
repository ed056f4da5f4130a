"""Zauberschmiede in a real headless Chromium: a solo game played to the end by clicking the dice and
the highlighted places of the sheet, and on a phone a game of a person against a greedy AI seat whose
last round is clicked (the rounds before it are played through the API: one whole game clicked is
enough); the final scores on the page are the engine's (S1-S8 of every sheet), and no raw catalog key
appears."""

from __future__ import annotations

import os
import time
from pathlib import Path

import httpx

import grimoire

from . import e2e
from .e2e import PHONE, check_page, click_and_wait, create, new_page, state, wait_my_decision

browser = e2e.browser          # the fixtures
chromium = e2e.chromium
server = e2e.server
pytestmark = e2e.one_worker(__name__)

GAME = "zauberschmiede"


def shot(page, name: str) -> None:
    folder = os.environ.get("GRIMOIRE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def play_to_the_end(page, base: str, seat_checks=None) -> int:
    """Click through a whole game: pay what can be paid, else put the first die on the first
    highlighted place (or its first button), else end the round (confirming unused dice)."""
    moves = 0
    for _ in range(600):
        wait_my_decision(page)
        if state(page)["status"] == "over":
            return moves
        if seat_checks and moves == 0:
            seat_checks(page)
        pay = page.locator("button.pay")
        if pay.count():
            click_and_wait(page, pay)
        elif page.locator(".die.pick").count():
            if not page.locator(".die.selected").count():
                page.locator(".die.pick").first.click()
            target = page.locator(".zs-own .target")
            buttons = page.locator(".die-actions .actions button")
            if target.count():
                click_and_wait(page, target)
            elif buttons.count():
                click_and_wait(page, buttons)
            else:
                click_and_wait(page, page.locator(".transmute-row button.transmute"))
        else:
            end = page.locator("button.end-round")
            if not end.count():      # paying an amplifier level: only unlock is left
                click_and_wait(page, page.locator(".zs-own .target, .die-actions button"))
            else:
                click_and_wait(page, end)
        moves += 1
    raise AssertionError("the game did not end")


def play_through_the_api(base: str, g: dict, seat: int, until_round: int) -> None:
    """Play the seat's decisions through the API (its first legal action, which ends every round) until
    the game reaches the round ``until_round``; the AI seats move on the server meanwhile."""
    auth = {"Authorization": f"Bearer {g['seats'][seat]['token']}"}
    with httpx.Client(base_url=base, headers=auth, timeout=10) as c:
        for _ in range(1000):
            view = c.get(f"/api/games/{g['id']}").json()
            if view["status"] == "over" or view["obs"]["round"] >= until_round:
                return
            if view["obs"]["current_player"] == seat:
                r = c.post(f"/api/games/{g['id']}/actions",
                           json={"seq": view["seq"], "action": view["obs"]["legal_actions"][0]})
                assert r.status_code == 200, r.text
            else:
                time.sleep(0.02)
    raise AssertionError(f"round {until_round} not reached")


def final_scores_on_page(page) -> dict[str, int]:
    rows = page.locator("table.zs-final tr").all()[1:]
    return {r.locator("td").first.inner_text().replace("★", "").strip(): int(r.locator("td.total").inner_text())
            for r in rows}


def test_solo_game_to_the_end(browser, server):
    errors: list[str] = []
    g = create(server.base, GAME, [{"agent": "human", "name": "Ada"}], seed=11)
    page = new_page(browser, errors=errors)
    page.goto(server.base + g["seats"][0]["url"])
    page.wait_for_selector(".dice-tray")
    check_page(page, server.base)
    # a die's places are highlighted; an unused die at the end of a round is warned about
    page.locator(".die.pick").first.click()
    assert page.locator(".zs-own .target").count() >= 1
    shot(page, "zauberschmiede-desktop-en")
    page.locator("button.end-round").click()
    page.wait_for_selector(".modal")
    assert "6" in page.inner_text(".modal")
    page.keyboard.press("Escape")            # Esc closes the popup; nothing was played
    assert not page.locator(".modal").count() and state(page)["seq"] == 0
    moves = play_to_the_end(page, server.base)
    assert moves >= 7
    record = httpx.get(f"{server.base}/api/games/{g['id']}/record", timeout=10).json()
    final = grimoire.replay(record)
    assert final.is_terminal()
    shown = final_scores_on_page(page)
    assert list(shown.values()) == [final.scores()[0]]
    shot(page, "zauberschmiede-final-en")
    sheet = page.locator(".zs-own .zs-score").inner_text()
    breakdown = final.score_breakdown(0)
    assert all(str(breakdown[k]) in sheet for k in ("S1", "S2", "total"))
    check_page(page, server.base)
    assert not errors, errors


def test_two_seats_against_an_ai_to_the_end_on_a_phone(browser, server):
    errors: list[str] = []
    g = create(server.base, GAME, [{"agent": "human", "name": "Ada"}, {"agent": "greedy"}], seed=5)
    rounds = httpx.get(f"{server.base}/api/games/{g['id']}", timeout=10).json()["obs"]["zauberschmiede"]["rounds"]
    play_through_the_api(server.base, g, 0, until_round=rounds)
    page = new_page(browser, viewport=PHONE, errors=errors)
    page.goto(server.base + g["seats"][0]["url"])
    page.wait_for_selector(".dice-tray")

    def other_sheet_as_at_round_start(p):
        # the AI's sheet is shown; while a round runs, only as it was at the start of the round
        assert p.locator(".zs-other[data-seat='1']").count() == 1
        check_page(p, server.base)
        p.select_option("select.lang", "de")
        p.wait_for_selector("text=Runde beenden")
        p.locator(".die.pick").first.click()
        shot(p, "zauberschmiede-phone-de")
        p.locator(".die.selected").first.click()
        p.select_option("select.lang", "en")

    assert play_to_the_end(page, server.base, other_sheet_as_at_round_start) >= 1
    record = httpx.get(f"{server.base}/api/games/{g['id']}/record", timeout=10).json()
    final = grimoire.replay(record)
    shown = final_scores_on_page(page)
    assert sorted(shown.values(), reverse=True) == sorted(final.scores(), reverse=True)
    assert page.locator("table.zs-final tr.winner").count() == len(final.winners())
    check_page(page, server.base)
    page.select_option("select.lang", "de")
    page.wait_for_selector("text=Endwertung")
    check_page(page, server.base)
    assert not errors, errors
