"""Every response carries the security headers; every error, a 500 included, has the documented JSON
format; the interactive docs (which load scripts from a third-party CDN) are off unless asked for."""

from __future__ import annotations

from fastapi.testclient import TestClient

from grimoire.web.app import CSP, create_app

from .conftest import create_game
from .test_api import HUMAN3


def _secured(r) -> None:
    assert r.headers["content-security-policy"] == CSP
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["referrer-policy"] == "no-referrer"


def test_security_headers_on_pages_files_api_and_errors(client):
    for path in ("/", "/play/x", "/static/play.js", "/games/zavandor/board.js", "/api/meta", "/api/games",
                 "/api/games/nope", "/api/nothing", "/api/health"):
        _secured(client.get(path))
    _secured(client.post("/api/games", content=b"{"))
    assert "script-src 'self'" in CSP and "frame-ancestors 'none'" in CSP and "unsafe-eval" not in CSP


def test_the_docs_pages_are_off_unless_asked_for(db_url):
    with TestClient(create_app(db_url, ai_delay=0)) as c:
        assert c.get("/api/docs").status_code == 404
        assert c.get("/api/redoc").status_code == 404
        assert c.get("/api/openapi.json").status_code == 200
    with TestClient(create_app(db_url, ai_delay=0, api_docs=True)) as c:
        assert c.get("/api/docs").status_code == 200


def test_a_bug_is_answered_500_in_the_documented_format(db_url, monkeypatch):
    app = create_app(db_url, ai_delay=0)
    with TestClient(app, raise_server_exceptions=False) as c:
        g = create_game(c, HUMAN3)

        def broken(*a, **k):
            raise RuntimeError("secret internals")
        monkeypatch.setattr(app.state.hub, "view_json", broken)
        r = c.get(f"/api/games/{g['id']}")
        assert r.status_code == 500
        assert r.json() == {"error": {"code": "internal", "message": r.json()["error"]["message"]}}
        assert "secret internals" not in r.text              # no internals in the answer (they are in the log)
        _secured(r)


def test_405_and_validation_errors_use_the_format(client):
    r = client.delete("/api/meta")
    assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"
    r = client.get("/api/games?limit=lots")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
