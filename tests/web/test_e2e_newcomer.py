"""Issue 25 in a real Chromium, at 390 px and on a desktop, in four languages: the lobby names every AI
for a player and says in a line what it is like, and the replay's controls are SVG icons (they drew as
empty boxes without an emoji font)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import httpx
import pytest

from . import e2e
from .e2e import PHONE, check_page, create, new_page, wait_js

browser = e2e.browser          # the fixtures
chromium = e2e.chromium
server = e2e.server
pytestmark = e2e.one_worker(__name__)
DESKTOP = {"width": 1300, "height": 900}
JARGON = ("heuristic", "tree search", "heuristisch", "Baumsuche", "heurisztikus", "fakeresés", "啟發式", "樹搜尋")


def _shots(tmp_path: Path) -> Path:
    out = Path(os.environ.get("GRIMOIRE_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    return out


@pytest.mark.parametrize("lang", ["en", "hu", "de", "zh"])
def test_the_lobby_names_and_describes_every_ai(browser, server, tmp_path, lang):
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        errors: list[str] = []
        page = new_page(browser, viewport, errors)
        page.add_init_script(f"localStorage.setItem('grimoire.lang', '{lang}')")
        page.goto(server.base + "/")
        page.wait_for_selector("button.create")
        page.locator("select.game").select_option("zavandor")
        row = page.locator(".seat-row[data-seat='1']")
        options = row.locator("select.agent option").all_text_contents()
        assert len(options) >= 5 and not [o for o in options if any(j in o for j in JARGON)], options
        for value in row.locator("select.agent option").evaluate_all("os => os.map((o) => o.value)"):
            if value == "human":
                continue
            row.locator("select.agent").select_option(value)
            about = page.locator(".seat-row[data-seat='1'] .agent-about")
            assert about.count() == 1 and len(about.inner_text().strip()) >= 10, value
            box = about.bounding_box()
            assert box and box["x"] + box["width"] <= viewport["width"] + 1
        check_page(page, server.base)
        page.screenshot(path=str(_shots(tmp_path) / f"lobby-agents-{lang}-{name}.png"), full_page=True)
        assert not errors, errors
        page.close()


def test_the_replay_controls_are_icons(browser, server, tmp_path):
    g = create(server.base, "zauberschmiede", [{"agent": "random"}])

    def status() -> str:
        return httpx.get(f"{server.base}/api/games", params={"ids": g["id"]}, timeout=10).json()["games"][0]["status"]
    deadline = time.monotonic() + 120
    while status() != "over":                        # (an AI-only solo game plays itself to the end)
        assert time.monotonic() < deadline
        time.sleep(0.2)
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = new_page(browser, viewport)
        page.goto(f"{server.base}/replay/{g['id']}")
        page.wait_for_selector(".replay-controls button.first")
        for cls in ("first", "prev", "play", "next", "last"):
            button = page.locator(f".replay-controls button.{cls}")
            icon = button.locator("svg.icon")
            assert icon.count() == 1, cls
            box = icon.bounding_box()
            assert box and box["width"] >= 8 and box["height"] >= 8, (cls, box)
            assert button.inner_text().strip() == ""          # no character a font might lack
        wait_js(page, "document.querySelector('.replay-controls button.last')")
        page.screenshot(path=str(_shots(tmp_path) / f"replay-icons-{name}.png"))
        page.close()


def test_a_spectator_is_not_told_what_they_would_pay(browser, server, tmp_path):
    g = create(server.base, "zavandor", [{"agent": "human"}, {"agent": "random"}])
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = new_page(browser, viewport)
        page.goto(f"{server.base}/play/{g['id']}")                 # no seat: a spectator
        page.wait_for_selector(".market")
        text = page.locator(".market").inner_text()
        assert "would pay" not in text and "—" not in text, text
        assert "minimum bid 120" in text
        check_page(page, server.base)
        page.screenshot(path=str(_shots(tmp_path) / f"spectator-market-{name}.png"), full_page=True)
        page.close()
