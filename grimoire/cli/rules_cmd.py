"""``grimoire rules GAME [TOPIC]`` and ``grimoire games``."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markdown import Markdown

from ..core.registry import game_info, games
from .common import GAME_HELP
from .main import app, fail


def topics_of(game: str) -> dict[str, str]:
    info = game_info(game)
    return info.rules_topics() if info.rules_topics else {}


def rules_text(game: str, topic: str | None) -> str:
    topics = topics_of(game)
    if not topic:
        return "Rules topics: " + ", ".join(sorted(topics)) + "\n\nType `rules <topic>`."
    key = topic.strip().lower()
    if key in topics:
        return topics[key]
    matches = [t for t in topics if t.startswith(key)] or [t for t in topics if key in t]
    if len(matches) == 1:
        return topics[matches[0]]
    if matches:
        return f"'{topic}' could mean: " + ", ".join(sorted(matches))
    return f"no rules topic '{topic}'. Topics: " + ", ".join(sorted(topics))


@app.command("rules")
def rules_command(game: str = typer.Argument(..., help=GAME_HELP),
                  topic: str = typer.Argument(None, help="a topic; leave out to list them")) -> None:
    """Show the rules of a game, topic by topic."""
    try:
        Console().print(Markdown(rules_text(game, topic)))
    except Exception as e:  # noqa: BLE001 - a clear line, never a traceback
        raise fail(str(e)) from None


@app.command("games")
def games_command() -> None:
    """List the games."""
    for name in games():
        info = game_info(name)
        counts = info.player_counts
        typer.echo(f"{name:16} {info.title} ({counts[0]}-{counts[-1]} players)")
