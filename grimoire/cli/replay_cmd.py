"""``grimoire replay FILE``: rebuild a game from its record and check it."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from ..core.record import load_record, verify
from . import render as renderers
from .main import app


@app.command("replay")
def replay_command(
    file: Path = typer.Argument(..., help="a game record (JSON) written by play --record or save"),
    show: bool = typer.Option(False, "--show", help="print the final position (public view)"),
) -> None:
    """Replay a game record, checking every action and the recorded result."""
    rec = load_record(file)
    state = verify(rec)
    console = Console()
    if show:
        console.print(renderers.render(state.game, state.observation(None), None))
    status = "game over" if state.is_terminal() else "in progress"
    console.print(f"OK: {rec['game']}, {rec['players']} players, seed {rec['seed']}, "
                  f"{len(rec['actions'])} actions replayed, {status}.", highlight=False)
    if state.is_terminal():
        console.print(f"scores {state.scores()}  winners {state.winners()}", highlight=False)
