"""The flow of the pages in a real headless Chromium: no raw catalog key anywhere (the hot-seat cover
included), Esc closes popups, a new decision is brought into view, the phone layout, the replay
viewer, the review page, hints in a practice game, and a game without its own board on the generic
one (the machinery knows no game). Screenshots go to $GRIMOIRE_SCREENSHOTS when it is set."""

from __future__ import annotations

import os
import time
from pathlib import Path

import httpx

from . import e2e
from .e2e import PHONE, check_page, click_and_wait, create, new_page, state, wait_js, wait_my_decision

browser = e2e.browser          # the fixtures
chromium = e2e.chromium
server = e2e.server
pytestmark = e2e.one_worker(__name__)


def shot(page, name: str) -> None:
    folder = os.environ.get("GRIMOIRE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def in_view(page, selector: str) -> bool:
    return page.evaluate(f"""() => {{
      const r = document.querySelector("{selector}").getBoundingClientRect();
      return r.top >= 0 && r.top < window.innerHeight && r.bottom > 0;
    }}""")


def test_hot_seat_cover_rules_popup_and_languages(browser, server):
    errors: list[str] = []
    g = create(server.base, "zavandor", [{"agent": "human", "name": "Ada"}, {"agent": "human", "name": "Bo"}],
               options={"characters": ["elf", "witch"]}, seed=3)
    page = new_page(browser, errors=errors)
    page.goto(server.base + "/")
    page.evaluate(f"""localStorage.setItem('grimoire.seats.{g["id"]}', JSON.stringify(
        {{0: '{g["seats"][0]["token"]}', 1: '{g["seats"][1]["token"]}'}}))""")
    page.goto(f"{server.base}/play/{g['id']}#hotseat")
    page.wait_for_selector("#reveal")
    # the first cover used to show "zav.char.elf" and "zav.title · zav.round"
    check_page(page, server.base)
    assert "Elf" in page.inner_text("main") and "The Scepter of Zavandor" in page.inner_text("header")
    page.click("#reveal")
    page.wait_for_selector(".order-strip")
    page.locator("button.rules-btn").click()
    page.wait_for_selector(".rules-nav button")
    page.keyboard.press("Escape")
    assert not page.locator(".modal").count()
    page.set_viewport_size(PHONE)
    page.select_option("select.lang", "hu")
    page.wait_for_selector("text=Zavandor jogara")
    check_page(page, server.base)
    shot(page, "zavandor-phone-hu")
    page.set_viewport_size({"width": 1400, "height": 1000})
    for lang, needle in (("hu", "Árverések"), ("de", "Versteigerungen"), ("zh", "競標")):
        page.select_option("select.lang", lang)
        wait_js(page, "document.documentElement.lang.startsWith('" + lang + "')")
        page.locator("button.rules-btn").click()
        page.wait_for_selector(".rules-nav button")
        assert needle in page.inner_text(".rules-nav"), page.inner_text(".rules-nav")
        check_page(page, server.base)
        if lang == "de":
            shot(page, "rules-german")
        page.keyboard.press("Escape")
    page.select_option("select.lang", "en")
    assert not errors, errors


def test_an_opened_auction_is_brought_into_view(browser, server):
    errors: list[str] = []
    g = create(server.base, "zavandor", [{"agent": "human"}, {"agent": "random"}],
               options={"characters": ["mage", "elf"]}, seed=3)
    page = new_page(browser, viewport={"width": 1200, "height": 700}, errors=errors)
    page.goto(server.base + g["seats"][0]["url"])
    for _ in range(40):
        wait_my_decision(page)
        if page.locator("button.open-auction").count():
            break
        click_and_wait(page, page.locator("button.end-turn, .prompt .actions button, button.pass, button.do-pay"))
    # the bid panel must be out of view before the click; no scroll to the button first: the answers the page
    # asks for after a move may redraw the board and detach a button already found (a CI run failed so),
    # while the click finds it again and waits until it stands still
    opener = page.locator("button.open-auction").first
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    click_and_wait(page, opener)
    page.wait_for_selector(".auction.decision")
    # the smooth scroll; the answers the page asks for after a move (can I undo? the turn) redraw the
    # board meanwhile, which used to stop the scroll half-way
    deadline = time.monotonic() + 5
    while not in_view(page, ".auction.decision") and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert in_view(page, ".auction.decision"), "the bid panel must come into view"
    page.wait_for_timeout(300)                       # and stays there after the redraws
    assert in_view(page, ".auction.decision")
    assert page.locator(".auction.decision.flash").count() == 1
    check_page(page, server.base)
    assert not errors, errors


def test_phone_lobby_practice_game_and_hint(browser, server):
    errors: list[str] = []
    page = new_page(browser, viewport=PHONE, errors=errors)
    page.goto(server.base + "/")
    page.wait_for_selector("button.create")
    page.select_option("select.game", "zauberschmiede")
    check_page(page, server.base)
    shot(page, "lobby-phone")
    page.locator("label.practice input").check()
    with page.expect_request("**/api/games") as req:
        page.click("button.create")
    page.wait_for_selector("#play-here")
    assert req.value.post_data_json["practice"] is True
    check_page(page, server.base)
    page.click("#play-here")
    page.wait_for_selector(".dice-tray")
    wait_my_decision(page)
    page.locator("button.hint").click()
    page.wait_for_selector("button.play-hint", timeout=30000)
    suggested = page.inner_text(".hint-action")
    assert suggested
    click_and_wait(page, page.locator("button.play-hint"))
    check_page(page, server.base)
    assert not errors, errors


def test_replay_viewer_and_review_page_of_a_finished_game(browser, server):
    errors: list[str] = []
    g = create(server.base, "zauberschmiede", [{"agent": "human", "name": "Ada"}, {"agent": "greedy"}],
               options={"max_rounds": 1}, seed=9)
    token = g["seats"][0]["token"]
    for _ in range(100):                              # the human plays through the API
        v = httpx.get(f"{server.base}/api/games/{g['id']}", headers={"Authorization": f"Bearer {token}"}).json()
        if v["status"] == "over":
            break
        if v["obs"]["current_player"] == 0:
            legal = v["obs"]["legal_actions"]
            httpx.post(f"{server.base}/api/games/{g['id']}/actions", json={"seq": v["seq"], "action": legal[0]},
                       headers={"Authorization": f"Bearer {token}"})
    total = httpx.get(f"{server.base}/api/games/{g['id']}/log").json()["seq"]
    page = new_page(browser, errors=errors)
    page.goto(f"{server.base}/replay/{g['id']}#seq=0")
    page.wait_for_selector(".replay-bar")
    wait_js(page, "window.grimoirePage && window.grimoirePage.replay")
    assert state(page)["seq"] == 0
    page.keyboard.press("ArrowRight")
    wait_js(page, "window.grimoirePage.seq === 1")
    page.keyboard.press("End")
    wait_js(page, f"window.grimoirePage.seq === {total}")
    page.keyboard.press("ArrowLeft")
    wait_js(page, f"window.grimoirePage.seq === {total - 1}")
    page.select_option("#replay-seat", "1")                 # any seat of a finished game
    wait_js(page, "window.grimoirePage.seat === 1")
    assert page.locator(".zs-own[data-seat='1']").count() == 1
    check_page(page, server.base)
    shot(page, "replay")
    page.goto(f"{server.base}/review/{g['id']}#seat=0")
    page.wait_for_selector("button.start-review")
    page.click("button.start-review")
    wait_js(page, "window.grimoirePage && window.grimoirePage.review === 'done'", timeout=120000)
    assert page.locator("svg.review-chart path").count() == 2
    assert page.locator("table.review-table").count() + page.locator("text=every decision the same way").count()
    check_page(page, server.base)
    shot(page, "review")
    page.set_viewport_size(PHONE)
    check_page(page, server.base)
    assert not errors, errors


def test_a_game_without_its_own_board_plays_on_the_generic_one(browser, server):
    meta = httpx.get(server.base + "/api/meta").json()
    plain = [x for x in meta["games"] if not x["has_ui"]]
    if not plain:
        import pytest
        pytest.skip("every registered game has its own board")
    game = plain[0]
    errors: list[str] = []
    seats = [{"agent": "human"}] + [{"agent": "random"}] * (game["default_players"] - 1)
    g = create(server.base, game["name"], seats, seed=1)
    page = new_page(browser, errors=errors)
    page.goto(server.base + g["seats"][0]["url"])
    page.wait_for_selector("main.generic")
    for _ in range(3):
        wait_my_decision(page)
        if state(page)["status"] == "over":
            break
        click_and_wait(page, page.locator(".prompt.decision .actions button"))
    check_page(page, server.base)
    page.goto(f"{server.base}/replay/{g['id']}")         # the viewer of a running game: one's own seat
    page.wait_for_selector("main.generic")
    assert not errors, errors


def test_a_wrong_seat_link_is_explained_in_the_readers_language(browser, server):
    """A seat link with a wrong token: the page says so in the reader's language, not in the server's
    English message."""
    g = create(server.base, "zavandor", [{"agent": "human"}, {"agent": "random"}], seed=4)
    for lang in ("en", "hu", "de", "zh"):
        catalog = httpx.get(f"{server.base}/api/i18n/{lang}", timeout=10).json()
        page = new_page(browser, viewport=PHONE)
        page.goto(server.base + "/")
        page.wait_for_selector("select.lang")      # the lobby has stored its language: choose ours
        page.evaluate(f"localStorage.setItem('grimoire.lang', '{lang}')")
        page.goto(f"{server.base}/play/{g['id']}#seat=0&token=not-the-token")
        page.wait_for_selector("main.fatal")
        text = page.inner_text("main.fatal")
        assert catalog["ui.cannot_open"] in text and catalog["error.bad_token"] in text, (lang, text)
        if lang != "en":
            assert "not valid" not in text, (lang, text)
        check_page(page, server.base)
        page.close()
