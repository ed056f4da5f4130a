"""``grimoire replay FILE``: rebuild a game from its record and check it."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from ..core.record import load_record, verify
from . import render as renderers
from .i18n import translator
from .main import app


@app.command("replay")
def replay_command(
    file: Path = typer.Argument(...),
    show: bool = typer.Option(False, "--show"),
    moves: bool = typer.Option(False, "--moves"),
    lang: str = typer.Option(None, "--lang"),
) -> None:
    """Replay a game record, checking every action and the recorded result.

    Seats are counted from 1 here (the record itself counts them from 0)."""
    t = translator(lang)
    rec = load_record(file)
    played: list[tuple[int, str]] = []

    def note(seat: int | None, text: str) -> None:
        if seat is not None:        # (None: an action after the end, which verify refuses at once)
            played.append((seat, text))

    state = verify(rec, on_action=note)
    console = Console()
    if moves:
        public = state.visible_history(None)
        for i, ((seat, text), shown) in enumerate(zip(played, public, strict=False), start=1):
            words = renderers.label(state.game, text, t) if shown is not None else t("term.secret_log")
            console.print(f"[dim]{i:4}[/] {escape(t('term.seat_n', n=seat + 1))}: {escape(words)}", highlight=False)
    if show:
        console.print(renderers.render(state.game, state.observation(None), None, t=t, width=console.width))
    status = t("term.replay.over" if state.is_terminal() else "term.replay.running")
    console.print(escape(t("term.replay.ok", game=rec["game"], players=rec["players"], seed=rec["seed"],
                           n=len(rec["actions"]), status=status)), highlight=False)
    if state.is_terminal():
        scores = ", ".join(f"{t('term.seat_n', n=i + 1)}: {s}" for i, s in enumerate(state.scores()))
        winners = ", ".join(t("term.seat_n", n=w + 1) for w in state.winners()) or "-"
        console.print(escape(t("term.replay.result", scores=scores, winners=winners)), highlight=False)
