"""A game's title is one text per language: the descriptor's ``titles`` (the web's lobby, /api/meta) say what
the game's catalog says (``<game>.title``: the terminal, the boards). Shuluri's Chinese title in the
descriptor was Simplified (舒鲁里角斗场) while every page speaks Traditional Chinese."""

import pytest

import grimoire
from grimoire.cli.i18n import catalog
from grimoire.core.registry import game_info


@pytest.mark.parametrize("game", grimoire.games())
def test_the_descriptors_titles_are_the_catalogs(game):
    titles = game_info(game).titles
    assert set(titles) == {"en", "hu", "de", "zh"}
    for lang, title in titles.items():
        assert title == catalog(lang)[f"{game}.title"], (game, lang)
