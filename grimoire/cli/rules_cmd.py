"""``grimoire rules GAME [TOPIC]`` and ``grimoire games``: the rules by topic, as formatted text in
the player's language (the game's catalog has every topic translated; English comes from the engine)."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markdown import Markdown

from ..core.errors import GameConfigError
from ..core.registry import game_info, games
from .common import player_counts
from .i18n import Translator, translator
from .main import app


def topics_of(game: str) -> dict[str, str]:
    info = game_info(game)
    return info.rules_topics() if info.rules_topics else {}


def find_topic(game: str, topic: str) -> tuple[str | None, list[str]]:
    """The topic a player means (exact, else a unique prefix, else a unique part), and the
    candidates when it is ambiguous or unknown."""
    topics = topics_of(game)
    key = topic.strip().lower()
    if key in topics:
        return key, []
    matches = [t for t in topics if t.startswith(key)] or [t for t in topics if key in t]
    if len(matches) == 1:
        return matches[0], []
    return None, sorted(matches)


def topic_title(game: str, name: str, t: Translator) -> str:
    """A topic's title in the player's language: the first line of its text ("# Harmony")."""
    first = t.rules(game, name, topics_of(game)[name]).lstrip().split("\n", 1)[0]
    return first[2:].strip() if first.startswith("# ") else name


def rules_text(game: str, topic: str | None, t: Translator | None = None, command: str = "rules") -> str:
    """Markdown: the topic's text in the translator's language, or the list of topics (each with its
    title) and how to ask for one (``command``: what the player types before the topic)."""
    t = t or Translator()
    topics = topics_of(game)
    if not topic:
        lines = "\n".join(f"- `{name}` — {topic_title(game, name, t)}" for name in topics)
        return t("term.rules_topics", topics=lines, command=command)
    name, candidates = find_topic(game, topic)
    if name is not None:
        return t.rules(game, name, topics[name])
    if candidates:
        return t("term.rules_ambiguous", topic=topic, topics=", ".join(candidates))
    return t("term.rules_unknown", topic=topic, topics=", ".join(sorted(topics)))


@app.command("rules")
def rules_command(game: str = typer.Argument(...),
                  topic: str = typer.Argument(None),
                  lang: str = typer.Option(None, "--lang")) -> None:
    """Show the rules of a game, topic by topic."""
    game_info(game)                       # an unknown game: one line, exit code 2
    t = translator(lang)
    if topic:
        name, candidates = find_topic(game, topic)
        if name is None:
            raise GameConfigError(rules_text(game, topic, t).replace("`", ""))
    Console().print(Markdown(rules_text(game, topic, t, command=f"grimoire rules {game}")))


@app.command("games")
def games_command() -> None:
    """List the games."""
    t = translator(None)
    for name in games():
        info = game_info(name)
        title = t(f"{name}.title") if t.has(f"{name}.title") else info.title
        typer.echo(f"{name:16} {title} ({player_counts(info, t)})")     # counts with a gap: "2, 4", not "2-4"
