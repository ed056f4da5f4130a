"""Helpers of the end-to-end browser tests: Debian's chromium driven by Playwright (no browser
download), what is on screen (``window.grimoirePage``), waiting for a seat's decision, and the two
page-wide checks every e2e test runs — no raw catalog key on the page, nothing wider than the
viewport (the phone layout)."""

from __future__ import annotations

import os
import re
import time

import httpx
import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage"]
PHONE = {"width": 390, "height": 844}


def one_worker(module: str) -> pytest.MarkDecorator:
    """The mark that sends a test file to one test process (pytest-xdist's ``--dist loadgroup``), so
    that its tests share that process's browser and server (the fixtures below, one per file)."""
    return pytest.mark.xdist_group(module.rsplit(".", 1)[-1])


@pytest.fixture(scope="module")
def chromium():
    """One Chromium per test file (launching it for every test cost CI minutes). Not per session:
    Playwright's sync API runs one instance per thread, and a test file's fixture is its own."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("GRIMOIRE_TEST_REQUIRE_BROWSER") == "1":
            pytest.fail("chromium is required in CI (apt-get install chromium)")
        pytest.skip("Debian's chromium is not installed (/usr/bin/chromium); scripts/test.sh installs it as root")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def browser(chromium):
    """The shared Chromium; every page a test opened (each in its own context) is closed after it."""
    yield chromium
    for context in chromium.contexts:
        context.close()


def _serve(tmp):
    from .conftest import ServerProcess
    # with patches, which only the pages use (the API tests get whole views: the server's default)
    srv = ServerProcess(f"sqlite:///{tmp / 'grimoire.db'}", tmp / "server.log",
                        extra=("--allow-seeds", "--ws-patches"))
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real server process on SQLite only: these tests are about the pages, and the backends are
    covered by the API tests (so CI runs them once, not once per database). One per test file: each
    test makes its own games, and starting a server for every test cost CI minutes."""
    yield from _serve(tmp_path_factory.mktemp("e2e-server"))


def new_page(browser, viewport=None, errors: list | None = None):
    page = browser.new_page(viewport=viewport or {"width": 1400, "height": 1000})
    if errors is not None:
        page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def state(page) -> dict:
    return page.evaluate("window.grimoirePage || null") or {}


def wait_js(page, expression: str, timeout: int = 30000) -> None:
    """Wait until a JavaScript expression is true. Polled through page.evaluate, which the pages'
    Content-Security-Policy allows (Playwright's wait_for_function evaluates a string with eval,
    which the policy forbids)."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(f"!!({expression})"):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} ms waiting for {expression}")
        page.wait_for_timeout(50)


def wait_my_decision(page, timeout=30000):
    wait_js(page, "window.grimoirePage && !window.grimoirePage.busy && "
            "(window.grimoirePage.mine || window.grimoirePage.status === 'over')", timeout=timeout)


def click_listed(page, button_selector: str, timeout: float = 30) -> None:
    """Click a button of the board's list of every legal action (``details.all-actions``). Any re-render
    of the board (a frame from the server) makes that list anew, closed, between opening it and the
    click: the button is then hidden (a CI run once waited 30 s on it), so the list is opened again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    deadline = time.monotonic() + timeout
    while True:
        if not page.locator("details.all-actions[open]").count():
            page.locator("details.all-actions summary").click()
        try:
            page.locator(f"details.all-actions[open] {button_selector}").first.click(timeout=2000)
            return
        except PlaywrightTimeout:
            if time.monotonic() > deadline:
                raise


def click_and_wait(page, locator, timeout=30000):
    before = state(page)["seq"]
    locator.first.click()
    try:
        wait_js(page, f"window.grimoirePage && window.grimoirePage.seq > {before}", timeout=timeout)
    except AssertionError as e:       # say what the page showed: a refusal's toast, the state it was in
        toast = page.evaluate("document.querySelector('#toast')?.innerText || ''")
        raise AssertionError(f"{e}; the click on {locator} played nothing: toast {toast!r}, "
                             f"page state {state(page)}") from None


def create(base: str, game: str, seats: list, **extra) -> dict:
    r = httpx.post(base + "/api/games", json={"game": game, "seats": seats, **extra}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


_PREFIXES: dict[str, re.Pattern] = {}


def key_pattern(base: str, lang: str = "en") -> re.Pattern:
    """A pattern for anything that looks like a catalog key: a prefix of the catalogs' keys
    (``ui.``, ``lobby.``, every game's prefix, ...) followed by a dotted name."""
    if lang not in _PREFIXES:
        keys = httpx.get(f"{base}/api/i18n/{lang}", timeout=10).json()
        prefixes = sorted({k.split(".", 1)[0] for k in keys if "." in k}, key=len, reverse=True)
        _PREFIXES[lang] = re.compile(r"(?<![\w/.-])(?:" + "|".join(map(re.escape, prefixes)) + r")\.[a-z0-9_]+[\w.-]*")
    return _PREFIXES[lang]


def raw_keys(page, base: str) -> list[str]:
    """Catalog keys shown as text on the page (text, titles, labels, placeholders, options)."""
    texts = page.evaluate("""() => {
      const out = [document.body.innerText, document.title];
      for (const el of document.querySelectorAll('*')) {
        for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
          if (el.getAttribute(a)) out.push(el.getAttribute(a));
        }
      }
      for (const o of document.querySelectorAll('option')) out.push(o.textContent);
      return out;
    }""")
    pat = key_pattern(base)
    return sorted({m.group(0) for text in texts for m in pat.finditer(text or "")})


def overflow(page) -> list[str]:
    """Elements that stick out of the viewport sideways (the page must not scroll horizontally and no
    control of the header may be cut off)."""
    return page.evaluate("""() => {
      const w = document.documentElement.clientWidth;
      const out = [];
      const sw = document.documentElement.scrollWidth;
      if (sw > w + 1) out.push(`page ${sw} > ${w}`);
      for (const el of document.querySelectorAll('header.top :is(button, select, a, .conn)')) {
        const r = el.getBoundingClientRect();
        if (r.width && (r.right > w + 1 || r.left < -1)) {
          out.push(`${el.tagName}.${el.className} ${Math.round(r.left)}-${Math.round(r.right)}`);
        }
      }
      return out;
    }""")


def check_page(page, base: str) -> None:
    """The checks every e2e test makes on every page it sees."""
    assert not raw_keys(page, base), f"raw catalog keys on the page: {raw_keys(page, base)}"
    assert not overflow(page), f"wider than the viewport: {overflow(page)}"
