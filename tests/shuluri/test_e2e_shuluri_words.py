"""Shuluri Viadal's pages in every language, at desktop size and on a 390 px phone: the hot-seat cover,
the board in the middle of a step and at the end, the replay and the review page. On each, no raw
catalog key and nothing wider than the viewport (tests/web/e2e.check_page), and in Hungarian, German
and Chinese no English left over: no phrase of the English catalogs whose translation differs, no
engine word (a line like "won by seat 1", a key like ``sword_shield``). Seats count from 1.
The phone: the arena starts zoomed in, so a hex is big enough to tap, and a tap shows a field's figures.
Screenshots go to $GRIMOIRE_SCREENSHOTS (docs/screenshots when making the docs) or the test's tmp dir.
"""

from __future__ import annotations

import functools
import json
import os
import re
from pathlib import Path

import httpx
import pytest
from web import e2e
from web.e2e import PHONE, check_page, create, new_page, wait_js
from web.e2e import state as page_state
from web.e2e import wait_my_decision as wait_mine

from .test_e2e_shuluri import click_and_wait, play_to_the_end
from .test_reasons import _coded_refusal

browser = e2e.browser          # the fixtures
chromium = e2e.chromium
server = e2e.server
pytestmark = e2e.one_worker(__name__)

LANGS = ("en", "hu", "de", "zh")
DESKTOP = {"width": 1400, "height": 1000}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
# the engine's English (event lines, end reasons) and identifiers that must never reach a reader
ENGINE_WORDS = re.compile(r"\b(?:won by|rolls \d|loses \d|dies\b|begins\b|ends the step|gladiator killed|round limit)")
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")
# words that read the same in English and another language (names, units, the rulebook's abbreviations)
SAME_IN_ALL = {"Shuluri Viadal", "Grimoire"}


@functools.cache
def catalog(base: str, lang: str) -> dict[str, str]:
    return httpx.get(f"{base}/api/i18n/{lang}", timeout=10).json()


@functools.cache
def english_phrases(base: str, lang: str) -> frozenset[str]:
    """Pieces of English catalog texts (between placeholders, two words or more, 12+ characters) whose
    translation in ``lang`` differs and does not contain them: seeing one on a ``lang`` page is a leftover."""
    en, other = catalog(base, "en"), catalog(base, lang)
    out: set[str] = set()
    for key, text in en.items():
        if not key.startswith(("shuluri.", "ui.", "replay.", "review.")):
            continue
        tv = other.get(key)
        if tv is None or tv == text:
            continue
        for part in re.split(r"\{[^}]*\}", text):
            part = part.strip(" .,:;()–-·…!?\n")
            if len(part) >= 12 and " " in part and part not in tv and part not in SAME_IN_ALL:
                out.add(part)
    return frozenset(out)


def visible_text(page) -> str:
    # a toast that has faded out (said before the language changed) is not read
    return page.evaluate("""() => [document.body.innerText.replace(
        document.querySelector('#toast:not(.show)')?.innerText || '\u0000', ''), document.title,
      ...[...document.querySelectorAll('[title], [aria-label]')]
        .map((e) => e.getAttribute('title') || e.getAttribute('aria-label'))
    ].join('\\n')""")


def check_words(page, base: str, lang: str, where: str) -> None:
    check_page(page, base)
    text = visible_text(page)
    ids = sorted({m.group(0) for m in IDENTIFIER.finditer(text)})
    assert not ids, f"{where} ({lang}): identifiers on the page: {ids}"
    if lang != "en":
        engine = sorted({m.group(0) for m in ENGINE_WORDS.finditer(text)})
        assert not engine, f"{where} ({lang}): engine words on the page: {engine}"
        left = sorted(p for p in english_phrases(base, lang) if p in text)
        assert not left, f"{where} ({lang}): English left over: {left}"


def set_lang(page, lang: str) -> None:
    page.select_option("select.lang", lang)
    wait_js(page, f"document.documentElement.lang.startsWith('{lang}')")
    page.wait_for_timeout(100)


def every_language(page, base: str, where: str, shots: Path | None = None) -> None:
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        for lang in LANGS:
            set_lang(page, lang)
            check_words(page, base, lang, f"{where} at {size}")
            if shots is not None:
                page.screenshot(path=str(shots / f"shuluri-{where}-{size}-{lang}.png"), full_page=size == "phone")
    set_lang(page, "en")


@pytest.fixture
def shots(tmp_path) -> Path:
    out = Path(os.environ.get("GRIMOIRE_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    return out


def test_hot_seat_cover_in_every_language(browser, server):
    errors: list[str] = []
    g = create(server.base, "shuluri", [{"agent": "human"}, {"agent": "human"}], seed=4)
    page = new_page(browser, errors=errors)
    page.goto(server.base + "/")
    page.evaluate(f"""localStorage.setItem('grimoire.seats.{g["id"]}', JSON.stringify(
        {{0: '{g["seats"][0]["token"]}', 1: '{g["seats"][1]["token"]}'}}))""")
    page.goto(f"{server.base}/play/{g['id']}#hotseat")
    page.wait_for_selector("#reveal")
    # the cover used to read "Pass the screen to Seat 1 (shuluri.team)" under "shuluri.title · shuluri.round"
    assert "team A" in page.inner_text("main") and "Shuluri Viadal" in page.inner_text("header")
    every_language(page, server.base, "cover")
    assert not errors, errors


def act_decision(page) -> None:
    """Click through the preparations until the seat's first act decision."""
    for _ in range(60):
        wait_mine(page)
        kind = page.get_attribute("main", "data-decision") or ""
        if kind == "act":
            return
        if kind in ("traps", "amulets", "resist", "vials", "potions"):
            click_and_wait(page, page.locator(".setup button.confirm"))
        elif kind == "weapon":
            click_and_wait(page, page.locator("button.weapon-btn"))
        elif kind == "side":
            click_and_wait(page, page.locator("button.side-btn"))
        elif kind == "deploy":
            click_and_wait(page, page.locator("svg polygon.hex.legal[data-action]"), field=True)
        elif kind == "name":
            click_and_wait(page, page.locator("button.name-btn"))
        else:
            click_and_wait(page, page.locator(".prompt .actions button"))
    raise AssertionError("no act decision")


def harmful_spell_on_own_side_asks_first(page, base: str) -> None:
    """A harmful spell cast at one's own side (e.g. Assassin's Madness on one's gladiator) asks before it is
    played; Esc cancels and nothing is played."""
    harmful = {s["key"] for s in httpx.get(f"{base}/api/static/shuluri", timeout=10).json()["data"]["spells"]
               if s["harmful"]}
    own = {"agl", "awl", "axb", "ad1", "ad2"}
    texts = page.evaluate("[...document.querySelectorAll('details.all-actions button[data-action]')].map((b) => "
                          "b.dataset.action)")
    mine = [t for t in texts if t.startswith("wl cast ") and len(t.split()) == 4 and t.split()[2] in harmful
            and t.split()[3] in own]
    assert mine, "the warlock acts in this step (seed 21): a harmful spell at one's own side is legal"
    before = page_state(page)["seq"]
    page.locator("details.all-actions summary").click()
    page.locator(f"details.all-actions button[data-action='{mine[0]}']").click()
    page.wait_for_selector(".modal")
    page.keyboard.press("Escape")
    page.wait_for_timeout(300)
    assert page_state(page)["seq"] == before and not page.locator(".modal").count()
    page.locator("details.all-actions summary").click()


def test_board_replay_and_review_in_every_language(browser, server, shots):
    errors: list[str] = []
    g = create(server.base, "shuluri", [{"agent": "human", "name": "Ada"}, {"agent": "random"}], seed=21,
               options={"max_rounds": 1})   # one round is enough for the end's page (crossing rounds: test_e2e_shuluri)
    page = new_page(browser, viewport=DESKTOP, errors=errors)
    page.goto(server.base + g["seats"][0]["url"])
    page.wait_for_selector("svg.arena")
    act_decision(page)
    harmful_spell_on_own_side_asks_first(page, server.base)
    every_language(page, server.base, "act")
    page.set_viewport_size(DESKTOP)
    page.locator("details.legend summary").click()
    # the reach and the line of fire to a field, as under the pointer
    page.locator("svg polygon.hex.legal").last.dispatch_event("mouseenter")
    page.screenshot(path=str(shots / "shuluri-desktop-en.png"))
    page.locator("details.legend summary").click()
    # the phone: nothing wider than 390 px (check_page), the arena zoomed so that a hex is big enough to tap
    page.set_viewport_size(PHONE)
    page.reload()
    page.wait_for_selector("svg.arena.zoomed")
    wait_mine(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    hex_px = page.evaluate("""() => { const r = document.querySelector('svg.arena polygon.hex').getBoundingClientRect();
      return Math.min(r.width, r.height); }""")
    assert hex_px >= 30, f"a hex is {hex_px:.0f} px on the phone"
    # tap one of one's figures shown on the zoomed arena (the view follows the selected one; not one that is a
    # target: that click would play): the field's information, with the figure and its Ep
    find = """() => {
      const svg = document.querySelector('svg.arena').getBoundingClientRect();
      for (const el of document.querySelectorAll('svg .fig.team0:not(.target)')) {
        const r = el.getBoundingClientRect();
        const x = r.x + r.width / 2, y = r.y + r.height / 2;
        const inside = x > svg.left + 5 && x < svg.right - 5 && y > Math.max(svg.top + 50, 60)
          && y < Math.min(svg.bottom, innerHeight) - 5;
        if (inside) return {x, y, name: el.dataset.fig};
      }
      return null; }"""
    spot = None
    for who in range(page.locator(".act .who button").count() or 1):
        if page.locator(".act .who button").count():
            page.locator(".act .who button").nth(who).click()      # a warlock's spells make his own side targets
        page.locator("svg.arena").scroll_into_view_if_needed()
        spot = page.evaluate(find)
        if spot:
            break
    assert spot, "none of the seat's figures is on the zoomed arena"
    page.mouse.click(spot["x"], spot["y"])
    wait_js(page, f"document.querySelector('#hex-info').innerText.includes('{spot['name']}')")
    assert "/" in page.inner_text("#hex-info")
    page.locator("details.legend summary").click()
    assert page.locator("details.legend li").count() >= 10
    page.screenshot(path=str(shots / "shuluri-phone-en.png"))
    for lang in ("hu", "de", "zh"):
        set_lang(page, lang)
        check_words(page, server.base, lang, "phone")
        page.screenshot(path=str(shots / f"shuluri-phone-{lang}.png"))
    set_lang(page, "en")
    page.set_viewport_size(DESKTOP)
    page.reload()                               # a desktop page shows the whole arena
    page.wait_for_selector("svg.arena:not(.zoomed)")
    seen = play_to_the_end(page, None, {})
    assert page_state(page)["status"] == "over" and "act" in seen["kinds"]
    wait_js(page, "!document.querySelector('#toast.show')")     # "the game is over", said in English
    every_language(page, server.base, "over")
    # the end: the winner named as on the team tiles (seats counted from 1), the end reason in words
    record = httpx.get(f"{server.base}/api/games/{g['id']}/record", timeout=10).json()
    assert record["actions"]
    # the replay, part way, and the review page (header, seat selector)
    page.goto(f"{server.base}/replay/{g['id']}#seat=0&seq={len(record['actions']) // 2}")
    page.wait_for_selector("svg.arena")
    every_language(page, server.base, "replay")
    page.goto(f"{server.base}/review/{g['id']}#seat=0")
    page.wait_for_selector("select#review-seat")
    assert "team A" in page.inner_text("select#review-seat")
    every_language(page, server.base, "review")
    assert not errors, errors


def test_a_refused_action_says_why_in_every_language(browser, server):
    """Issue 20: the server refuses an illegal action with its coded reason (the 422's ``reason``, the
    WebSocket's error frame); the page says it in the reader's language with the values in words — no raw
    key, no English left over, desktop and phone. The page only offers legal actions, so the test swaps
    the action of a click for an illegal one on its way to the server (Playwright's WebSocket route)."""
    import grimoire
    from grimoire.core.registry import game_info
    from grimoire.core.text import fill, reason_text
    g = create(server.base, "shuluri", [{"agent": "human"}, {"agent": "human"}], seed=3)
    gid, tokens = g["id"], [seat["token"] for seat in g["seats"]]
    # both seats make their preparations through the API (the first legal action), the same game kept here
    s = grimoire.new_game("shuluri", 2, 3)
    while not (s.stack.top.kind == "act" and s.current_player == 0):
        cp = s.current_player
        text = str(s.legal_actions()[0])
        headers = {"Authorization": f"Bearer {tokens[cp]}"}
        seq = httpx.get(f"{server.base}/api/games/{gid}", headers=headers, timeout=10).json()["seq"]
        r = httpx.post(f"{server.base}/api/games/{gid}/actions", json={"seq": seq, "action": text},
                       headers=headers, timeout=10)
        assert r.status_code == 200, r.text
        s.apply(text)
    illegal, (key, values) = _coded_refusal(s)
    answer = httpx.post(f"{server.base}/api/games/{gid}/actions", json={"seq": r.json()["seq"], "action": illegal},
                        headers={"Authorization": f"Bearer {tokens[0]}"}, timeout=10)
    assert answer.status_code == 422 and answer.json()["error"]["reason"][0] == key, answer.text
    swap: dict[str, str | None] = {"to": None}

    def route(ws) -> None:
        to_server = ws.connect_to_server()

        def from_page(message) -> None:
            if swap["to"] and isinstance(message, str) and '"act"' in message:
                m = json.loads(message)
                if m.get("type") == "act":
                    m["action"], swap["to"] = swap["to"], None
                    message = json.dumps(m)
            to_server.send(message)
        ws.on_message(from_page)

    errors: list[str] = []
    page = new_page(browser, errors=errors)
    page.route_web_socket(re.compile(r"/ws/games/"), route)
    page.goto(server.base + g["seats"][0]["url"])
    wait_mine(page)
    seq = page_state(page)["seq"]
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        for lang in LANGS:
            set_lang(page, lang)
            cat = game_info("shuluri").catalog(lang)
            words = reason_text(key, values, lambda k, cat=cat, **p: fill(cat[k], p))
            swap["to"] = illegal
            page.locator("button.end-step").click()
            wait_js(page, "document.querySelector('#toast.show') && "
                          f"document.querySelector('#toast').textContent.includes({json.dumps(words)})")
            wait_mine(page)                      # the page took the answer: the seat decides again
            toast = page.inner_text("#toast")
            assert page_state(page)["seq"] == seq and "[" not in toast, toast
            if lang != "en":
                assert "rule" not in toast, toast
            check_words(page, server.base, lang, f"refusal at {size}")
    assert swap["to"] is None
    assert not errors, errors
