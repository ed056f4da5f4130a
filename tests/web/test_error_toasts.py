"""The pages' error toasts in the reader's language also when the server does not answer: a request that
gets no answer at all showed the browser's own English ("Failed to fetch"), and an answer without the
server's error (a proxy's page) showed "HTTP 502". common.js's ``api()`` runs in node with a stubbed
``fetch`` and the real catalogs."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import grimoire.web as web

WEB = Path(web.__file__).parent
LANGS = ("en", "hu", "de", "zh")


def toast_of(lang: str, answer: str) -> str:
    """The message ``api()`` throws in ``lang`` when the request gets ``answer``: "none" (no answer) or
    "proxy" (a 502 page that is not ours)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    catalogs = {code: json.loads((WEB / "i18n" / f"{code}.json").read_text(encoding="utf-8")) for code in LANGS}
    script = f"""
const catalogs = {json.dumps(catalogs)};
globalThis.document = {{addEventListener() {{}}, documentElement: {{}}}};
globalThis.localStorage = {{getItem() {{ return null; }}, setItem() {{}}}};
globalThis.navigator = {{language: "en"}};
globalThis.fetch = async (path) => {{
  const names = {{en: "English", hu: "magyar", de: "Deutsch", zh: "中文"}};
  const json = async () => path === "/api/i18n" ? {{languages: names}} : catalogs[path.split("/").pop()];
  if (path.startsWith("/api/i18n")) return {{ok: true, json}};
  if ({json.dumps(answer)} === "none") throw new TypeError("Failed to fetch");
  const page = async () => {{ throw new SyntaxError("<html>"); }};
  return {{ok: false, status: 502, headers: {{get: () => null}}, json: page}};
}};
const {{api, loadLang}} = await import({json.dumps((WEB / "static" / "common.js").as_uri())});
await loadLang({json.dumps(lang)});
try {{ await api("GET", "/api/games"); console.log("no error"); }} catch (e) {{ console.log(e.message); }}
"""
    r = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


@pytest.mark.parametrize("lang", LANGS)
def test_no_answer_and_a_foreign_error_page_are_said_in_the_language(lang):
    catalog = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert toast_of(lang, "none") == catalog["error.network"]
    assert toast_of(lang, "proxy") == catalog["error.http_error"]
    if lang != "en":
        english = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
        assert catalog["error.network"] != english["error.network"]
