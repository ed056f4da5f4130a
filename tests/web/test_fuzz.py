"""Fuzzing as a habit: schemathesis against the OpenAPI schema of a real server (no answer may be a
5xx), and hypothesis-driven WebSocket messages (every frame is answered in the protocol, the
connection stays usable and the game only moves by legal actions). Bounded: a few hundred cases per
backend in the default run; FUZZ_EXAMPLES scales them (the slow run uses more)."""

from __future__ import annotations

import json
import os

import httpx
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from grimoire.web.app import create_app
from grimoire.web.hub import Limits

from .conftest import PG_URL, REQUIRE_PG, ServerProcess, auth

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))
COUNTS: dict[str, int] = {}


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def fuzz_server(request, tmp_path_factory):
    """One server per backend for the whole module: seeds allowed, no creation limit (the fuzzer creates
    many games), at most two games without a human (it creates those too) whose AI waits a second."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.db'}"
    elif PG_URL:
        url = PG_URL
    elif REQUIRE_PG:
        pytest.fail("GRIMOIRE_TEST_REQUIRE_PG=1 but GRIMOIRE_TEST_PG_URL is not set")
    else:
        pytest.skip("PostgreSQL tests need GRIMOIRE_TEST_PG_URL")
    srv = ServerProcess(url, tmp_path_factory.mktemp("fuzzlog") / "server.log", ai_delay=1.0,
                        extra=("--allow-seeds", "--games-per-client-hour", "0", "--max-ai-games", "2"))
    srv.start()
    games = []
    for game in ("zavandor", "zauberschmiede", "shuluri"):
        r = httpx.post(srv.base + "/api/games", json={"game": game, "seats": [{"agent": "human"}] * 2}, timeout=30)
        assert r.status_code == 201, r.text
        games.append(r.json())
    srv.games = games
    yield srv
    srv.stop()
    log = srv.log_path.read_text()
    assert "Traceback" not in log, log[-3000:]


def _aim(case, games) -> None:
    """Most cases aim at a real game (and half of those carry a real seat token), so the fuzzer gets
    past "unknown game" into the handlers."""
    if case.path_parameters and "gid" in case.path_parameters:
        pick = hash(json.dumps(case.body, sort_keys=True, default=str)) % 4
        if pick < 3:
            g = games[pick]
            case.path_parameters["gid"] = g["id"]
            if pick < 2:
                token = g["seats"][hash(str(case.query)) % 2]["token"]
                case.headers = {**(case.headers or {}), **auth(token)}


def test_no_request_gets_a_server_error(fuzz_server):
    """schemathesis drives every operation of /api/openapi.json (positive and negative cases): no
    answer may be a 5xx, and every error has the documented format. (Its pytest plugin does not run
    on this pytest, so the operations are driven through their hypothesis strategies.)"""
    schema = schemathesis.openapi.from_url(fuzz_server.base + "/api/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 10
    for op in operations:
        # invalid requests where there is something to get wrong: a body or a query (a path parameter is
        # any text, and every text is a valid request for the API: most are unknown games)
        invalid = len(op.body) > 0 or len(op.query) > 0
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE) if invalid else (GenerationMode.POSITIVE,):
            _fuzz_operation(op, mode, fuzz_server)


def _fuzz_operation(op, mode, server) -> None:
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(case=op.as_strategy(mode))
    def run(case):
        _aim(case, server.games)
        response = case.call_and_validate(checks=[not_a_server_error], base_url=server.base)
        COUNTS[f"{op.label} ({mode.value})"] = COUNTS.get(f"{op.label} ({mode.value})", 0) + 1
        if response.status_code >= 400:
            body = response.json()
            assert set(body) == {"error"} and {"code", "message"} <= set(body["error"]), response.text
    run()


# --- WebSocket -------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
messages = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["act", "sync", "ping", "join", "bogus", "", "ACT"])},
        optional={"id": json_values, "seq": st.one_of(st.integers(-2, 5), json_values),
                  "action": st.one_of(st.sampled_from(["end", "buy opal", "pay", "x" * 300, "end\x00"]),
                                      json_values),
                  "token": json_values}).map(json.dumps),
    json_values.map(json.dumps),
    st.text(max_size=200),
    st.binary(max_size=200),
)


@pytest.fixture(scope="module")
def ws_app(tmp_path_factory):
    db = tmp_path_factory.mktemp("wsfuzz") / "ws.db"
    limits = Limits(messages_per_second=1e6, message_burst=10**6, syncs_per_second=1e6, sync_burst=10**6)
    with TestClient(create_app(f"sqlite:///{db}", ai_delay=0, limits=limits)) as c:
        r = c.post("/api/games", json={"game": "zavandor", "seats": [{"agent": "human"}] * 2})
        yield c, r.json()


@settings(max_examples=EXAMPLES * 6, deadline=None, suppress_health_check=list(HealthCheck))
@given(frames=st.lists(messages, min_size=1, max_size=6))
def test_websocket_messages_are_always_answered_in_the_protocol(ws_app, frames):
    c, g = ws_app
    gid = g["id"]
    hub = c.app.state.hub
    cp = hub.sessions[gid].state.current_player
    before = hub.sessions[gid].seq
    with c.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.send_json({"type": "join", "token": g["seats"][cp]["token"]})
        assert ws.receive_json()["type"] == "welcome"
        for frame in frames:
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            ws.send_json({"type": "ping", "id": "fence"})
            while True:                                 # everything up to our ping's pong is well-formed
                m = ws.receive_json()
                assert isinstance(m, dict) and m.get("type") in ("welcome", "state", "ack", "error", "pong",
                                                                  "presence"), m
                if m["type"] == "error":
                    assert 400 <= m["status"] < 500 and m["code"] and m["message"], m
                if m["type"] == "pong" and m.get("id") == "fence":
                    break
            COUNTS["ws frames"] = COUNTS.get("ws frames", 0) + 1
    s = hub.sessions[gid]
    assert s.seq >= before and [e["seq"] for e in s.log] == list(range(1, s.seq + 1))


@settings(max_examples=EXAMPLES * 4, deadline=None, suppress_health_check=list(HealthCheck))
@given(first=messages)
def test_any_first_message_gets_a_welcome_or_an_error_and_a_close(ws_app, first):
    from starlette.websockets import WebSocketDisconnect
    c, g = ws_app
    with c.websocket_connect(f"/ws/games/{g['id']}") as ws:
        if isinstance(first, bytes):
            ws.send_bytes(first)
        else:
            ws.send_text(first)
        m = ws.receive_json()
        if m["type"] == "welcome":
            return
        assert m["type"] == "error" and 400 <= m["status"] < 500
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert 4000 <= closed.value.code < 5000
    COUNTS["ws first frames"] = COUNTS.get("ws first frames", 0) + 1


def test_fuzz_counts_report():
    """Not a check: prints how many cases the fuzzers ran (``pytest -s``)."""
    print(f"\nfuzz cases: {sum(COUNTS.values())} ({json.dumps(COUNTS, sort_keys=True)})")
