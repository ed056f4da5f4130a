"""``grimoire options GAME``: the game's rule options with their defaults and help, from its descriptor
(what ``-o key=value`` of play, simulate and arena accepts; ``key=v1,v2`` sweeps one in simulate)."""

from __future__ import annotations

import json

import typer
from rich.console import Console

from .common import require_game
from .i18n import Translator, translator
from .labels import game_title
from .main import app
from .tables import PeopleTable


def option_rows(game: str) -> list[tuple[str, str, str, str]]:
    """(name, type, default, help) of every option of ``game``."""
    cls = require_game(game).options
    rows = []
    for name, f in cls.model_fields.items():
        kind = str(f.annotation).replace("typing.", "").replace("<class '", "").replace("'>", "")
        default = "none" if f.default is None else json.dumps(f.default)
        rows.append((name, kind, default, f.description or ""))
    return rows


@app.command("options")
def options_command(
    game: str | None = typer.Argument(None),
    fmt: str = typer.Option("table", "--format"),
) -> None:
    """The game's rule options: name, type, default and what it changes (give them as -o key=value)."""
    from ..core.errors import GameConfigError

    t = translator()
    info = require_game(game, t)
    rows = option_rows(info.name)
    if fmt == "json":
        print(json.dumps([dict(zip(("name", "type", "default", "help"), r, strict=True)) for r in rows], indent=1))
        return
    if fmt != "table":
        raise GameConfigError(t("term.err.options_format", fmt=fmt))
    table = PeopleTable(t("term.options.title", title=game_title(t, info.name, info.title)))
    table.column(t("term.options.col.option"), keep=True)
    table.column(t("term.options.col.default"))
    table.column(t("term.options.col.what"))
    for name, _kind, default, help_ in rows:
        table.add_row(name, t("term.options.none") if default == "none" else default,
                      option_words(t, info.name, name, help_))
    Console().print(table)


def option_words(t: Translator, game: str, name: str, english: str) -> str:
    """"Label. What it changes." from the game's catalog (the lobby's words), else the terminal's."""
    for key in (f"{game}.option.{name}", f"term.option.{name}"):
        if t.has(key + ".help"):
            return t("term.options.label_help", label=t(key), help=t(key + ".help")) if t.has(key) \
                else t(key + ".help")
    return english
