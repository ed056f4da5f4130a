"""Chat and slow games in the browser: two players (1400 px and 390 px) and a spectator on one slow game —
the players chat live (the text shown as text, never HTML), the spectator's chat stays apart, the tab title
says "(•) your turn" on the page whose seat decides and moves with the turn, the deadline bar shows the
time left; the lobby offers the deadline at creation; every page in four languages without raw keys or
anything wider than the window. Screenshots go to $GRIMOIRE_SCREENSHOTS (docs/screenshots) or tmp."""

from __future__ import annotations

import os
from pathlib import Path

import httpx

from . import e2e
from .e2e import PHONE, browser, check_page, chromium, create, server, wait_js  # noqa: F401 - fixtures

pytestmark = e2e.one_worker(__name__)

DESKTOP = {"width": 1400, "height": 1000}
# the Notification API as the test controls it: a permission, and the notifications made (window.__notes);
# document.hidden as the test sets it (window.__hidden) — a headless tab is never in the background
NOTIFICATIONS = """
window.__notes = [];
class FakeNotification {
  constructor(title, options) { window.__notes.push(options.body); }
  close() {}
  static requestPermission() { FakeNotification.permission = "granted"; return Promise.resolve("granted"); }
}
FakeNotification.permission = "%s";
window.Notification = FakeNotification;
Object.defineProperty(document, "hidden", {get: () => Boolean(window.__hidden)});
"""
LANGS = ("en", "hu", "de", "zh")


def chat_texts(page) -> list[str]:
    return page.evaluate("[...document.querySelectorAll('.chat-msg .chat-text')].map(e => e.textContent)")


def say(page, text: str) -> None:
    page.fill(".chat-input", text)
    page.click(".chat-send")
    wait_js(page, f"[...document.querySelectorAll('.chat-msg .chat-text')].some(e => e.textContent === {text!r})")


def test_chat_between_two_browsers_and_the_turn_in_the_title(browser, server, tmp_path):  # noqa: F811
    shots = Path(os.environ.get("GRIMOIRE_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    base = server.base
    g = create(base, "zavandor", [{"agent": "human", "name": "Ann"}, {"agent": "human", "name": "Bob"}],
               turn={"deadline": "1d", "on_expire": "ai"})
    gid = g["id"]
    errors: list[str] = []
    pages = {}
    for who, viewport, path in (("ann", DESKTOP, g["seats"][0]["url"]), ("bob", PHONE, g["seats"][1]["url"]),
                                ("spectator", PHONE, f"/play/{gid}")):
        ctx = browser.new_context(viewport=viewport)
        ctx.add_init_script(NOTIFICATIONS % ("granted" if who == "bob" else "default"))
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + path)
        page.wait_for_selector("#chat .chat-input")
        wait_js(page, "window.grimoirePage && document.querySelector('.turn-bar .turn-left')")
        pages[who] = page
    ann, bob, spectator = pages["ann"], pages["bob"], pages["spectator"]

    # whose turn: the deciding seat's tab title says so, the other's does not
    def check_titles():
        cp = httpx.get(f"{base}/api/games/{gid}", timeout=10).json()["obs"]["current_player"]
        deciding, waiting = (ann, bob) if cp == 0 else (bob, ann)
        wait_js(deciding, "document.title.startsWith('(•) ')")
        wait_js(waiting, "!document.title.startsWith('(•) ')")
        assert not spectator.title().startswith("(•)")
        assert deciding.locator(".turn-bar.mine").count() == 1
        return cp
    cp = check_titles()
    assert "Ann" in bob.inner_text(".turn-bar") or cp == 1

    # the players chat live; markup is shown as text
    say(ann, "<b>good luck</b> Bob")
    wait_js(bob, "[...document.querySelectorAll('.chat-text')].some(e => e.textContent === '<b>good luck</b> Bob')")
    assert bob.locator("#chat b.chat-who").first.inner_text() == "Ann"
    assert bob.locator(".chat-text b").count() == 0
    say(bob, "thanks, you too")
    wait_js(ann, "[...document.querySelectorAll('.chat-text')].some(e => e.textContent === 'thanks, you too')")
    # the spectators' channel is apart
    say(spectator, "go Bob!")
    bob.wait_for_timeout(500)
    assert "go Bob!" not in chat_texts(ann) + chat_texts(bob)
    assert not {"<b>good luck</b> Bob", "thanks, you too"} & set(chat_texts(spectator))

    # the lobby's list of this browser's games marks the one where it must decide
    lobby_of = {0: ann, 1: bob}[cp].context.new_page()
    lobby_of.goto(base + "/")
    lobby_of.wait_for_selector(f"tr[data-game='{gid}'] .your-turn")
    check_page(lobby_of, base)
    lobby_of.close()
    # notifications: asked for by a button (never on load), then one when the turn comes to a hidden tab
    assert ann.evaluate("Notification.permission") == "default"
    ann.click(".notify-btn")
    wait_js(ann, "Notification.permission === 'granted' && !document.querySelector('.notify-btn')")
    assert bob.locator(".notify-btn").count() == 0           # already allowed: no button
    waiting = {0: bob, 1: ann}[cp]
    waiting.evaluate("window.__hidden = true")

    # a move: the turn (and the title) goes to the other seat
    tokens = {0: g["seats"][0]["token"], 1: g["seats"][1]["token"]}
    view = httpx.get(f"{base}/api/games/{gid}", headers={"Authorization": f"Bearer {tokens[cp]}"}, timeout=10).json()
    r = httpx.post(f"{base}/api/games/{gid}/actions", headers={"Authorization": f"Bearer {tokens[cp]}"},
                   json={"seq": view["seq"], "action": view["obs"]["legal_actions"][0]}, timeout=10)
    assert r.status_code == 200, r.text
    if httpx.get(f"{base}/api/games/{gid}", timeout=10).json()["obs"]["current_player"] != cp:
        check_titles()
        wait_js(waiting, "window.__notes.length === 1")
        assert waiting.evaluate("window.__notes[0]").startswith("It is your turn in ")
    assert {0: ann, 1: bob}[cp].evaluate("window.__notes.length") == 0     # no notification for a visible tab

    # the replay viewer shows the players' chat to a player (the seat's token in this browser), not to others
    replay = ann.context.new_page()
    replay.goto(f"{base}/replay/{gid}")
    replay.wait_for_selector(".chat-replay .chat-text")
    assert "thanks, you too" in chat_texts(replay)
    check_page(replay, base)
    other = spectator.context.new_page()
    other.goto(f"{base}/replay/{gid}")
    wait_js(other, "window.grimoirePage && window.grimoirePage.replay")
    other.wait_for_timeout(500)
    assert "thanks, you too" not in chat_texts(other)

    # four languages, both widths: no raw key, nothing wider than the window
    for lang in LANGS:
        for name, page in pages.items():
            page.select_option("select.lang", lang)
            page.wait_for_selector(f"html[lang^='{lang[:2]}']")
            page.wait_for_timeout(150)
            check_page(page, base)
            if name != "spectator" and lang in ("en", "hu"):
                page.screenshot(path=str(shots / f"chat-turns-{'desktop' if name == 'ann' else 'phone'}-{lang}.png"),
                                full_page=True)
    # the lobby: the deadline at creation
    lobby = browser.new_context(viewport=PHONE).new_page()
    lobby.on("pageerror", lambda e: errors.append(str(e)))
    lobby.goto(base + "/")
    lobby.wait_for_selector("select.deadline")
    lobby.select_option("select.deadline", "3d")
    lobby.wait_for_selector("select.on-expire")
    for lang in LANGS:
        lobby.select_option("select.lang", lang)
        lobby.wait_for_selector(f"html[lang^='{lang[:2]}']")
        lobby.wait_for_selector("select.on-expire")
        check_page(lobby, base)
    lobby.select_option("select.lang", "en")
    lobby.select_option("select.on-expire", "forfeit")
    lobby.click("button.create")
    lobby.wait_for_selector("#created")
    made = httpx.get(f"{base}/api/games", timeout=10).json()["games"][0]["id"]
    turn = httpx.get(f"{base}/api/games/{made}/turn", timeout=10).json()
    assert turn["seconds"] == 3 * 86400 and turn["on_expire"] == "forfeit"
    assert not errors, errors
