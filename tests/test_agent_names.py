"""Issue 25: the lobby offered "heuristic" and "tree search (generic)", which mean nothing to a player. Every
agent a game offers has a player-facing name and a one-line description, in four languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import grimoire
from grimoire.agents import agent_names
from grimoire.core.registry import game_info

ROOT = Path(grimoire.__file__).parent
JARGON = ("heuristic", "heuristisch", "heurisztikus", "啟發式", "tree search", "Baumsuche", "fakeresés", "樹搜尋",
          "mcts", "naive", "naiv", "天真")


@pytest.mark.parametrize("lang", ["en", "hu", "de", "zh"])
@pytest.mark.parametrize("game", grimoire.games())
def test_every_agent_has_a_players_name_and_a_description(game, lang):
    ui = json.loads((ROOT / "web" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    cat = game_info(game).catalog(lang)
    for agent in agent_names(game):
        name = cat.get(f"{game}.ai.{agent}") or ui.get(f"ai.{agent}")
        about = cat.get(f"{game}.ai.{agent}.about") or ui.get(f"ai.{agent}.about")
        assert name and not any(word.lower() in name.lower() for word in JARGON), (agent, name)
        assert about and len(about) >= 10 and "{" not in about, (agent, about)
