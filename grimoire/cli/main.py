"""The ``grimoire`` command: play, replay, bench, rules, games (and, as they arrive, serve, arena)."""

from __future__ import annotations

import sys

import typer
from rich.console import Console
from rich.markup import escape

from ..core.errors import GrimoireError
from .help_i18n import LocalGroup

app = typer.Typer(
    name="grimoire",
    cls=LocalGroup,       # its help, and every command's, in the reader's language (help_i18n)
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)
err_console = Console(stderr=True)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one clear line and leave with a non-zero exit code."""
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
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
        err_console.print(f"[bold red]error:[/] {escape(str(e))}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except KeyboardInterrupt:
        err_console.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":  # python -m grimoire.cli.main: use the package's app, not this copy
    from grimoire.cli.main import run as _run

    _run()
