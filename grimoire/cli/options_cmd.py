"""``grimoire options GAME``: the game's rule options with their defaults and help, from its descriptor
(what ``-o key=value`` of play, simulate and arena accepts; ``key=v1,v2`` sweeps one in simulate)."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.table import Table

from .common import require_game
from .main import app


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

    info = require_game(game)
    rows = option_rows(info.name)
    if fmt == "json":
        print(json.dumps([dict(zip(("name", "type", "default", "help"), r, strict=True)) for r in rows], indent=1))
        return
    if fmt != "table":
        raise GameConfigError(f"--format is table or json, not {fmt!r}")
    table = Table(title=f"{info.title}: options (-o key=value; simulate -o key=v1,v2 sweeps one)",
                  show_lines=False, expand=True)
    for col in ("option", "type", "default", "what it does"):
        table.add_column(col, overflow="fold")
    for r in rows:
        table.add_row(*r)
    Console().print(table)
