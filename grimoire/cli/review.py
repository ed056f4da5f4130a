"""``grimoire review RECORD``: the hard AI reviews one seat's decisions in a finished game — the
biggest mistakes first (what was played, what it prefers, the projected points given away) and
every seat's projected score over the game as a small chart. The engine is
``grimoire.agents.review`` (the web's ``/review/{id}`` uses the same)."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from ..agents.review import ReviewSettings, check_reviewable, review
from ..core.errors import GameConfigError
from ..core.record import load_record
from . import render as renderers
from .i18n import Translator, translator
from .main import app

SPARK = "▁▂▃▄▅▆▇█"
COLOURS = ["red", "blue", "green", "magenta", "yellow", "cyan", "white", "bright_black"]


def sparkline(values: list[float], lo: float, hi: float) -> str:
    span = (hi - lo) or 1.0
    return "".join(SPARK[min(len(SPARK) - 1, int((v - lo) / span * (len(SPARK) - 1) + 0.5))] for v in values)


def chart(result: dict, t: Translator, width: int) -> Table:
    """Every seat's projected score as a sparkline over the reviewed decisions (the last point is the
    real final score), sampled to the width."""
    points = result["chart"]
    room = max(8, min(60, width - 30))
    if len(points) > room:
        step = len(points) / room
        points = [points[int(i * step)] for i in range(room - 1)] + [points[-1]]
    all_values = [v for p in points for v in p["scores"]]
    lo, hi = (min(all_values), max(all_values)) if all_values else (0, 1)
    tb = Table.grid(padding=(0, 1))
    tb.add_column(no_wrap=True)
    tb.add_column(no_wrap=True)
    tb.add_column(justify="right", no_wrap=True)
    for s in range(result["players"]):
        series = [p["scores"][s] for p in points]
        name = t("term.seat_n", n=s + 1) + (" *" if s == result["seat"] else "")
        tb.add_row(Text(name, style="bold" if s == result["seat"] else ""),
                   Text(sparkline(series, lo, hi), style=COLOURS[s % len(COLOURS)]),
                   f"{series[0]:.0f} → {series[-1]:.0f}" if series else "")
    return tb


def mistakes_table(result: dict, game: str, t: Translator, limit: int) -> Table:
    tb = Table(title=t("term.review.mistakes"), title_justify="left", show_lines=False, pad_edge=False)
    tb.add_column("#", justify="right", no_wrap=True)
    tb.add_column(t("term.review.col_round"), justify="right", no_wrap=True)
    tb.add_column(t("term.review.col_played"), overflow="fold")
    tb.add_column(t("term.review.col_best"), overflow="fold")
    tb.add_column(t("term.review.col_loss"), justify="right", no_wrap=True)
    for m in result["mistakes"][:limit]:
        tb.add_row(str(m["seq"]), "-" if m["round"] is None else str(m["round"]),
                   escape(renderers.label(game, m["played"], t)), escape(renderers.label(game, m["best"], t)),
                   f"{m['loss']:.1f}")
    return tb


@app.command("review")
def review_command(
    record: Path = typer.Argument(...),
    seat: int = typer.Option(1, "--seat"),
    think: float = typer.Option(1.0, "--think"),
    playouts: int = typer.Option(6, "--playouts"),
    max_steps: int = typer.Option(150, "--max-steps"),
    top: int = typer.Option(10, "--top"),
    seed: int = typer.Option(0, "--seed"),
    json_out: Path = typer.Option(None, "--json"),
    lang: str = typer.Option(None, "--lang"),
) -> None:
    """Review a finished game: the hard AI's view of each decision of one seat, biggest mistakes first."""
    t = translator(lang)
    if think <= 0 or playouts < 1 or max_steps < 1 or top < 0:
        raise GameConfigError(t("term.err.review_budget"))
    rec = load_record(record)
    players = rec.get("players") if isinstance(rec.get("players"), int) else None
    if seat < 1 or (players is not None and seat > players):
        if players is None:
            raise GameConfigError(t("term.err.seat_from_1_short" if seat == 0 else "term.err.no_such_seat_short"))
        raise GameConfigError(t("term.err.seat_from_1" if seat == 0 else "term.err.no_such_seat", players=players))
    seat -= 1                              # the review and its JSON count seats from 0, as records do
    check_reviewable(rec, seat)            # a running game or a seat that does not exist: one line, exit 2
    settings = ReviewSettings(think=think, playouts=playouts, max_steps=max_steps, seed=seed)
    console = Console()
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, transient=True) as progress:
        task = progress.add_task(t("term.review.working"), total=None)

        def step(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        result = review(rec, seat, settings, step)
    if json_out is not None:
        json_out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    game = result["game"]
    console.print(f"[bold]{escape(t('term.review.title', seat=seat + 1))}[/]", highlight=False)
    console.print(escape(t("term.review.summary", n=len(result["decisions"]), agree=round(100 * result["agreement"]),
                           loss=f"{result['total_loss']:.1f}", score=result["scores"][seat])), highlight=False)
    if result["mistakes"] and top:
        tb = mistakes_table(result, game, t, top)
        console.print(tb)
        first = result["mistakes"][0]
        words = renderers.label(game, first["best"], t)
        if words != first["best"] and len(words) > 30:          # the table may have cut it
            console.print(escape(t("term.review.best_in_words", seq=first["seq"], words=words)), highlight=False)
    else:
        console.print(escape(t("term.review.no_mistakes")))
    console.print(f"[bold]{escape(t('term.review.chart'))}[/]")
    console.print(chart(result, t, console.width))
    console.print(f"[dim]{escape(t('term.review.method', playouts=playouts, steps=max_steps))}[/]", highlight=False)
    if json_out is not None:
        console.print(escape(t("term.record_written", path=json_out)))
