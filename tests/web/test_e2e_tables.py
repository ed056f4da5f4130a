"""Playing with people in the browser: two browsers that never exchanged a link — each with an account
of its own — find each other through the lobby's open tables, play a rated game with names to the end
and see their new ratings (their moves clicked on their boards); the lobby's new panels in four
languages, at desktop and phone width.
Screenshots go to $GRIMOIRE_SCREENSHOTS (docs/screenshots when making the docs) or the test's tmp dir."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import httpx

from . import e2e
from .e2e import PHONE, browser, check_page, chromium, server, wait_js  # noqa: F401 - fixtures

pytestmark = e2e.one_worker(__name__)

DESKTOP = {"width": 1400, "height": 1000}


def register(page, base: str, name: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("button.login")
    page.click("button.login")
    page.fill(".account-form input.username", name)
    page.fill(".account-form input.password", "a long secret")
    page.click(".modal-foot button:not(.primary)")            # create account
    page.wait_for_selector("button.logout")


def click_one(page, seq: int) -> None:
    """Play the seat's decision on its board, as a person would: answer a question with "go on", pass an
    auction, pay or discard with the preselected choice, take a free offer, or end the turn."""
    primary = page.locator(".modal-foot button.primary")
    if page.locator(".modal").count():
        primary.click()                               # "end anyway": the page asked first (the board's harms)
    elif page.locator(".bid-controls").count():
        page.locator("button.pass" if page.locator("button.pass").count() else "button.bid").first.click()
    elif page.locator("button.do-pay:enabled").count():
        page.locator("button.do-pay:enabled").first.click()
    elif page.locator("button.engine-direct:enabled").count():
        page.locator("button.engine-direct:enabled").first.click()
    elif page.locator(".prompt .actions button:enabled").count():
        page.locator(".prompt .actions button:enabled").first.click()
    elif page.locator("button.end-turn:enabled").count():
        page.locator("button.end-turn:enabled").first.click()
    else:
        raise AssertionError("a decision but no control to play it: " + page.inner_text("main")[:400])
    wait_js(page, f"document.querySelector('.modal') || (window.grimoirePage && (window.grimoirePage.seq !== {seq}"
                  " || window.grimoirePage.status === 'over'))", timeout=30000)


def click_until_over(pages: list) -> None:
    """The people's moves, clicked on their own boards (one page at desktop width, one at 390 px) until the
    game is over; the AI seat moves on the server."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        shown = [page.evaluate("window.grimoirePage || null") or {} for page in pages]
        if all(st.get("status") == "over" for st in shown):
            return
        for page, st in zip(pages, shown, strict=True):
            if st.get("status") == "active" and st.get("mine") and not st.get("busy"):
                click_one(page, st["seq"])
        time.sleep(0.05)
    raise AssertionError("the game did not end")


def test_two_browsers_find_each_other_and_play_rated(browser, server, tmp_path):  # noqa: F811
    shots = Path(os.environ.get("GRIMOIRE_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    base = server.base
    errors: list[str] = []
    ann_ctx = browser.new_context(viewport=DESKTOP)
    bob_ctx = browser.new_context(viewport=PHONE)
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    for p in (ann, bob):
        p.on("pageerror", lambda e: errors.append(str(e)))
    register(ann, base, "Ann Tables")
    register(bob, base, "Bob Tables")
    # Ann opens a rated table of three (seat 3: the easy AI) with one round
    ann.select_option("select.game", "zavandor")
    ann.locator(".counts button", has_text="3").click()
    ann.check(".open-table input")
    ann.fill(".seat-row[data-seat='0'] input.name", "Ann")
    ann.locator(".seat-row[data-seat='2'] select.agent").select_option("easy")
    ann.check(".rated input")
    ann.locator("details.options summary").click()
    ann.locator("[data-option='max_rounds'] input").fill("1")
    ann.click("button.create")
    ann.wait_for_selector(".my-table")
    assert "Ann" in ann.locator(".my-table").inner_text()
    # Bob, who has no link, finds it in the list (filtered by the game) and joins with his name
    bob.fill("input.player-name", "Bob")
    bob.select_option("select.filter-game", "zavandor")
    row = bob.locator("tr.open-table", has_text="Ann")
    row.wait_for()
    assert "Ann" in row.inner_text()
    for lang in ("en", "hu", "de", "zh"):
        for page, name in ((ann, "desktop"), (bob, "phone")):
            page.select_option("select.lang", lang)
            page.wait_for_selector(f"html[lang^='{lang[:2]}']")
            page.wait_for_selector("tr.open-table" if page is bob else ".my-table")
            check_page(page, base)
            if lang in ("en", "hu"):
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(shots / f"lobby-tables-{name}-{lang}.png"), full_page=True)
        bob.select_option("select.lang", "en")
    ann.select_option("select.lang", "en")
    bob.locator("tr.open-table", has_text="Ann").locator("button.join").click()
    # the last free seat taken: both pages open the game at their own seat
    for page, seat in ((ann, 0), (bob, 1)):
        page.wait_for_url("**/play/**", timeout=30000)
        wait_js(page, f"window.grimoirePage && window.grimoirePage.seat === {seat}")
    gid = ann.url.split("/play/")[1].split("#")[0]
    assert bob.url.split("/play/")[1].split("#")[0] == gid
    tokens = {}
    for page in (ann, bob):
        tokens.update({int(k): v for k, v in json.loads(
            page.evaluate(f"localStorage.getItem('grimoire.seats.{gid}')")).items()})
    assert sorted(tokens) == [0, 1]
    seats = httpx.get(f"{base}/api/games/{gid}", timeout=10).json()["seats"]
    assert [(s["name"], s["agent"]) for s in seats] == [("Ann", "human"), ("Bob", "human"), ("", "easy")]
    click_until_over([ann, bob])
    for page in (ann, bob):
        wait_js(page, "window.grimoirePage && window.grimoirePage.status === 'over'", timeout=30000)
        page.wait_for_selector(".rating-changes", timeout=30000)
        text = page.locator(".rating-changes").inner_text()
        assert "Ann" in text and "Bob" in text and "→" in text
        check_page(page, base)
    ann.screenshot(path=str(shots / "lobby-tables-rated-end.png"))
    # the leaderboard lists both accounts with their new ratings
    board = httpx.get(f"{base}/api/ratings/zavandor?players=3", timeout=10).json()
    assert {p["username"] for p in board["players_ranked"]} == {"Ann Tables", "Bob Tables"}
    bob.goto(f"{base}/ratings/zavandor")
    bob.locator(".counts button", has_text="3").click()
    bob.wait_for_selector("tr[data-player='Bob Tables']")
    for lang in ("en", "hu", "de", "zh"):
        bob.select_option("select.lang", lang)
        bob.wait_for_selector("tr[data-player='Bob Tables']")
        check_page(bob, base)
    bob.select_option("select.lang", "en")
    bob.wait_for_selector("tr[data-player='Bob Tables']")
    bob.screenshot(path=str(shots / "lobby-tables-ratings-phone.png"), full_page=True)
    # another device of Ann's: logging in brings the game into "Your games"
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(base + "/")
    phone.click("button.login")
    phone.fill(".account-form input.username", "Ann Tables")
    phone.fill(".account-form input.password", "a long secret")
    phone.click(".modal-foot button.primary")
    phone.wait_for_selector(f"tr[data-game='{gid}']")
    check_page(phone, base)
    assert not errors, errors
