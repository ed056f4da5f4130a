"""The web app reads every game from its descriptor (GameInfo) only, and its AI seats take their
seeds from the one seed scheme (grimoire.derive_seed)."""

from __future__ import annotations

import asyncio
import json

import grimoire
from grimoire.agents import agent_names, make_agent
from grimoire.core.options import options_schema
from grimoire.core.registry import game_info
from grimoire.web.ai import AIRunner, decision_seed

from .conftest import create_game
from .test_api import view, wait_for


def test_meta_lists_every_game_from_its_descriptor(client):
    meta = client.get("/api/meta").json()
    assert [g["name"] for g in meta["games"]] == grimoire.games()
    for g in meta["games"]:
        info = game_info(g["name"])
        assert g["title"] == info.title and g["titles"] == dict(info.titles) and "en" in g["titles"]
        assert g["player_counts"] == list(info.player_counts) and g["default_players"] == info.default_players
        assert g["agents"] == agent_names(g["name"])
        assert g["options_schema"] == json.loads(json.dumps(options_schema(info.options)))
        assert set(g["options_schema"]["properties"]) == set(info.options.model_fields) == set(g["options_help"])
        assert g["languages"] == info.languages()
        assert g["has_ui"] == (info.board is not None)
        if info.arena.role_option and info.arena.roles:
            assert g["roles"] == {"option": info.arena.role_option, "values": list(info.arena.roles)}
            assert g["roles"]["option"] in g["options_schema"]["properties"]
        else:
            assert "roles" not in g
        assert ("static_url" in g) == (info.static_data is not None)


def test_languages_are_the_catalogs(client):
    langs = client.get("/api/i18n").json()["languages"]
    assert client.get("/api/meta").json()["languages"] == langs
    assert "en" in langs and len(langs) >= 2
    for code, name in langs.items():
        cat = client.get(f"/api/i18n/{code}").json()
        assert cat["ui.language_name"] == name
        for game in grimoire.games():        # the game's own catalog is merged in
            assert set(game_info(game).catalog(code)) <= set(cat)
    assert client.get("/api/i18n/xx").status_code == 404


def test_the_game_is_required_when_creating(client):
    r = client.post("/api/games", json={"seats": [{"agent": "human"}] * 2})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_game"
    assert all(name in r.json()["error"]["message"] for name in grimoire.games())


def test_a_decision_seed_is_derive_seed():
    for seed, seat, seq in ((0, 0, 0), (7, 2, 40), (2**62 - 1, 5, 999)):
        assert decision_seed(seed, seat, seq) == grimoire.derive_seed(seed, "decision", seat, seq)
    assert len({decision_seed(7, seat, seq) for seat in range(3) for seq in range(50)}) == 150


def test_an_ai_seat_plays_the_agent_of_its_decision_seed():
    state = grimoire.new_game("zauberschmiede", 2, 5)
    seat = state.current_player
    runner = AIRunner(1)
    try:
        for seq in range(4):
            seed = decision_seed(5, seat, seq)
            got = asyncio.run(runner.choose(state, "random", seat, seed))
            assert got == str(make_agent(state.game, "random", seed).choose(state.clone(), seat))
    finally:
        runner.close()


def test_same_seed_same_ai_game_on_the_server(client):
    def ai_game(seed: int) -> list[str]:
        g = create_game(client, [{"agent": "random"}] * 3, options={"max_rounds": 2}, seed=seed)
        wait_for(lambda: view(client, g["id"])["status"] == "over", timeout=60)
        return client.get(f"/api/games/{g['id']}/record").json()["actions"]

    first = ai_game(17)
    assert first and ai_game(17) == first
    assert ai_game(18) != first
