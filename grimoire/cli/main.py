"""The ``grimoire`` command: play, replay, bench, rules, games (and, as they arrive, serve, arena)."""

from __future__ import annotations

import sys

import typer
from rich.console import Console
from rich.markup import escape

from ..core.errors import GrimoireError
from .help_i18n import LocalGroup, help_lang
from .i18n import Translator, detect_lang

app = typer.Typer(
    name="grimoire",
    cls=LocalGroup,       # its help, and every command's, in the reader's language (help_i18n)
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)
err_console = Console(stderr=True)


@app.callback()
def grimoire_options(ctx: typer.Context, lang: str = typer.Option(None, "--lang")) -> None:
    """Grimoire (the help shown is the catalog's help.app)."""
    if lang is None:
        return
    detect_lang(lang)                          # an unknown language: one clear line
    ctx.meta["grimoire.lang"] = lang           # for the commands' messages (i18n.translator)
    group = ctx.command
    commands = group.commands if isinstance(group, LocalGroup) else {}
    # `grimoire --lang hu play ...` = `grimoire play --lang hu ...` for the commands that take --lang
    ctx.default_map = {name: {"lang": lang} for name, cmd in commands.items()
                       if any(p.name == "lang" for p in cmd.params)}


def error_line(message: str) -> None:
    """``error: message`` with the label in the language of the command line (--lang, else the locale)."""
    label = Translator(help_lang(sys.argv[1:]))("term.error_label")
    err_console.print(f"[bold red]{escape(label)}[/] {escape(message)}", highlight=False, soft_wrap=True)


def in_words(e: GrimoireError) -> str:
    """An error in the language of the command line when it names its catalog text (``e.key``)."""
    t = Translator(help_lang(sys.argv[1:]))
    return t(e.key, **e.params) if e.key and t.has(e.key) else str(e)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one clear line and leave with a non-zero exit code."""
    error_line(message)
    return typer.Exit(code)


def _register_commands() -> None:
    from . import bench, play, replay_cmd, rules_cmd  # noqa: F401  (each module adds its command)
    for optional in ("serve", "arena", "loadtest", "review", "simulate", "report", "options_cmd", "train"):
        try:
            __import__(f"{__package__}.{optional}")
        except ModuleNotFoundError as e:
            if e.name != f"{__package__}.{optional}":
                raise


def run() -> None:
    _register_commands()
    try:
        app()
    except GrimoireError as e:
        error_line(in_words(e))
        sys.exit(2)
    except KeyboardInterrupt:
        err_console.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":  # python -m grimoire.cli.main: use the package's app, not this copy
    from grimoire.cli.main import run as _run

    _run()
