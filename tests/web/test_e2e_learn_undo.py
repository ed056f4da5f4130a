"""Issue 25 items 6 and 7 in a real Chromium, at 1400 and 390 px, in four languages: "Learn to play" from
the lobby starts a practice game whose guide says what to click now (the game's words in the page's
language); the header's Undo (and Ctrl+Z) takes back the seat's last action for every page of the game;
an action that harms one's own side asks first (the board's ``harms``, asked by the page).
Screenshots go to $GRIMOIRE_SCREENSHOTS (docs/screenshots when making the docs) or the test's tmp dir."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import httpx
import pytest

from . import e2e
from .e2e import PHONE, check_page, click_listed, create, new_page, state, wait_js, wait_my_decision

browser = e2e.browser          # the fixtures
chromium = e2e.chromium
server = e2e.server
pytestmark = e2e.one_worker(__name__)
DESKTOP = {"width": 1400, "height": 1000}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
LANGS = ["en", "hu", "de", "zh"]
# the default run: every language once, both sizes, every game (the docs' screenshots among them);
# the slow run: every language at both sizes, with every game for the guide
PICK = {("en", "desktop"): "zavandor", ("hu", "desktop"): "zauberschmiede", ("de", "phone"): "zauberschmiede",
        ("zh", "phone"): "shuluri"}
EVERYWHERE = [pytest.param(lang, size, marks=() if (lang, size) in PICK else pytest.mark.slow)
              for lang in LANGS for size in SIZES]


def shots(tmp_path: Path) -> Path:
    out = Path(os.environ.get("GRIMOIRE_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    return out


def catalog(base: str, lang: str) -> dict:
    return httpx.get(f"{base}/api/i18n/{lang}", timeout=10).json()


def first_words(markdown: str) -> str:
    """The first line of a catalog text as the page shows it (no heading marks, no bold stars)."""
    return markdown.split("\n")[0].lstrip("# ").replace("**", "").strip()


def learn(browser, server, tmp_path, lang: str, size: str, game: str) -> None:
    cat = catalog(server.base, lang)
    errors: list[str] = []
    page = new_page(browser, SIZES[size], errors)
    page.add_init_script(f"localStorage.setItem('grimoire.lang', '{lang}')")
    page.goto(server.base + "/")
    page.wait_for_selector(f".learn-game[data-game='{game}']")
    assert page.inner_text(".learn h2") == cat["guide.learn"]
    check_page(page, server.base)
    page.locator(".learn").screenshot(path=str(shots(tmp_path) / f"learn-lobby-{lang}-{size}.png"))
    page.click(f".learn-game[data-game='{game}']")
    page.wait_for_selector(".guide-panel[data-step='intro']", timeout=30000)
    assert re.search(r"/play/[\w-]+$", page.url.split("#")[0])
    intro = page.inner_text(".guide-panel .guide-text")
    assert first_words(cat[f"{game}.guide.intro"]) in intro
    check_page(page, server.base)
    page.screenshot(path=str(shots(tmp_path) / f"learn-{game}-{lang}-{size}.png"), full_page=False)
    page.click(".guide-start")
    wait_my_decision(page, timeout=60000)
    try:
        wait_js(page, "document.querySelector('.guide-panel') && "
                "!['intro', 'wait'].includes(document.querySelector('.guide-panel').dataset.step)", timeout=30000)
    except AssertionError as e:      # (once seen in a loaded CI run, cause not known: say where the page stood)
        seen = page.evaluate("({step: document.querySelector('.guide-panel')?.dataset.step, "
                             "stored: Object.entries(localStorage).filter(([k]) => k.startsWith('grimoire.guide.')), "
                             "mine: window.grimoirePage?.mine, busy: window.grimoirePage?.busy, "
                             "status: window.grimoirePage?.status})")
        raise AssertionError(f"{e}; the page: {seen}") from None
    step = page.get_attribute(".guide-panel", "data-step")
    key = f"{game}.guide.{step}"
    assert key in cat, f"{game} has no guide text for the step {step!r}"
    assert first_words(cat[key]) in page.inner_text(".guide-panel .guide-text")
    page.click(".guide-show")
    wait_js(page, "document.querySelector('main.game .flash')")
    check_page(page, server.base)
    page.screenshot(path=str(shots(tmp_path) / f"learn-{game}-{lang}-{size}-step.png"), full_page=False)
    # the guide stays hidden once hidden (also after a reload)
    page.click(".guide-hide")
    assert not page.locator(".guide-panel").count()
    page.reload()
    wait_my_decision(page, timeout=60000)
    assert not page.locator(".guide-panel").count()
    assert not errors, errors
    page.close()


@pytest.mark.parametrize("lang,size", PICK)
def test_learn_to_play_from_the_lobby(browser, server, tmp_path, lang, size):
    learn(browser, server, tmp_path, lang, size, PICK[(lang, size)])


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("game", ["zavandor", "shuluri", "zauberschmiede"])
def test_learn_to_play_every_game_everywhere(browser, server, tmp_path, lang, size, game):
    learn(browser, server, tmp_path, lang, size, game)


def listed(action: str) -> str:
    """The selector of an action's button in the board's list of every legal action (its exact text)."""
    return f"button:text-is({json.dumps(action)})"


def play_listed(page, action: str) -> None:
    """Play an action from the board's list of every legal action."""
    before = state(page)["seq"]
    click_listed(page, listed(action))
    wait_js(page, f"window.grimoirePage && window.grimoirePage.seq > {before}")


@pytest.mark.parametrize("lang,size", EVERYWHERE)
def test_undo_button_and_ctrl_z(browser, server, tmp_path, lang, size):
    cat = catalog(server.base, lang)
    g = create(server.base, "zavandor", [{"agent": "human", "name": "Ann"}, {"agent": "human", "name": "Bob"}], seed=7)
    cp = httpx.get(f"{server.base}/api/games/{g['id']}", timeout=10).json()["obs"]["current_player"]
    me = g["seats"][cp]
    errors: list[str] = []
    page = new_page(browser, SIZES[size], errors)
    page.add_init_script(f"localStorage.setItem('grimoire.lang', '{lang}')")
    watcher = new_page(browser, DESKTOP, errors)          # a spectator: its page follows the undo
    watcher.goto(f"{server.base}/play/{g['id']}#spectate")
    page.goto(server.base + me["url"])
    wait_my_decision(page)
    assert state(page)["seq"] == 0 and not page.locator(".undo-btn").count()
    for _ in range(2):                                    # the button, then Ctrl+Z
        play_listed(page, "buy opal")
        wait_js(page, "document.querySelector('.undo-btn') && !document.querySelector('.undo-btn').disabled")
        wait_js(watcher, "window.grimoirePage && window.grimoirePage.seq === 1")
        btn = page.locator(".undo-btn")
        assert btn.inner_text().strip() == cat["undo.button"] and btn.get_attribute("title") == cat["undo.help"]
        check_page(page, server.base)
        if _ == 0:
            if lang == "en":
                page.screenshot(path=str(shots(tmp_path) / f"undo-{size}.png"), full_page=False)
            btn.click()
        else:
            # focus on the page, off any field (the header stays on screen: the board may have scrolled
            # to the seat's new decision)
            page.locator("header.top .game-title").click()
            page.keyboard.press("Control+z")
        wait_js(page, "window.grimoirePage && window.grimoirePage.seq === 0 && !window.grimoirePage.busy")
        wait_js(watcher, "window.grimoirePage && window.grimoirePage.seq === 0")
        wait_js(page, f"document.querySelector('#toast') && document.querySelector('#toast').textContent === "
                      f"{cat['undo.done']!r}")
        assert not page.locator(".undo-btn").count()
    # across a card draw there is no undo: the button says why, and Ctrl+Z does nothing
    play_listed(page, "advance sages")
    wait_js(page, "document.querySelector('.undo-btn') && document.querySelector('.undo-btn').title === "
                  f"{cat['undo.refused.undo_chance']!r}")
    assert page.locator(".undo-btn").is_disabled()
    page.keyboard.press("Control+z")
    page.wait_for_timeout(300)
    assert state(page)["seq"] == 1
    check_page(page, server.base)
    assert not errors, errors
    page.close()
    watcher.close()


def test_harm_to_ones_own_side_asks_first(browser, server):
    """Zauberschmiede: ending the round with dice unused (they would be lost) asks; Esc keeps the game
    as it was, the answer "end anyway" plays it. The question comes from the board's ``harms``, asked by
    the page for every way of playing — here the list of every legal action, not the board's button."""
    cat = catalog(server.base, "de")
    g = create(server.base, "zauberschmiede", [{"agent": "human"}])
    page = new_page(browser, DESKTOP)
    page.add_init_script("localStorage.setItem('grimoire.lang', 'de')")
    page.goto(server.base + g["seats"][0]["url"])
    wait_my_decision(page)
    click_listed(page, listed("end"))
    page.wait_for_selector(".modal")
    assert cat["zauberschmiede.unused_warning"].replace("{n}", "6") in page.inner_text(".modal")
    page.keyboard.press("Escape")
    page.wait_for_timeout(300)
    assert state(page)["seq"] == 0 and not page.locator(".modal").count()
    page.locator("button.end-round").click()
    page.locator(".modal-foot button.primary", has_text=cat["zauberschmiede.end_anyway"]).click()
    wait_js(page, "window.grimoirePage && window.grimoirePage.seq === 1")
    page.close()


def test_paying_with_a_stock_that_loses_dust_asks_first(browser, server):
    """Zauberschmiede (seed 5): round 1 charges the Emerald Amulet (dust cost 1) and makes 2 dust, kept as a
    stock; paying with that stock in round 2 loses 1 dust (a stock is spent whole): the page asks first."""
    cat = catalog(server.base, "hu")
    g = create(server.base, "zauberschmiede", [{"agent": "human"}], seed=5)
    tok = g["seats"][0]["token"]
    with httpx.Client(base_url=server.base, headers={"Authorization": f"Bearer {tok}"}, timeout=10) as c:
        def first(prefix: str) -> str | None:
            legal = c.get(f"/api/games/{g['id']}").json()["obs"]["legal_actions"]
            return next((a for a in legal if a.startswith(prefix)), None)

        def play(action: str) -> None:
            seq = c.get(f"/api/games/{g['id']}").json()["seq"]
            assert c.post(f"/api/games/{g['id']}/actions", json={"seq": seq, "action": action}).status_code == 200
        while (a := first("charge am1 ")) is not None:
            play(a)
        play(first("dust "))
        play(first("dust "))
        play("end")
        assert first("pay am1 r1") == "pay am1 r1"
    page = new_page(browser, PHONE)
    page.add_init_script("localStorage.setItem('grimoire.lang', 'hu')")
    page.goto(server.base + g["seats"][0]["url"])
    wait_my_decision(page)
    before = state(page)["seq"]
    click_listed(page, listed("pay am1 r1"))
    page.wait_for_selector(".modal")
    text = cat["zauberschmiede.confirm_stock_lost"].format(total=2, cost=1, lost=1)
    assert text in page.inner_text(".modal")
    check_page(page, server.base)
    page.keyboard.press("Escape")
    page.wait_for_timeout(300)
    assert state(page)["seq"] == before and not page.locator(".modal").count()
    page.close()
