"""``grimoire --help`` and every command's help in the reader's language.

Typer builds a fresh Click tree for every run; before it parses anything, the tree is translated:
the commands' descriptions (``help.cmd.<command>``), every option's and argument's help
(``help.<command>.<parameter>``), the arguments' names (``help.arg.<name>``), the type column
(``help.type.*``) and Typer's and Click's own words (``help.w.*``: panel titles, "Usage:",
"[default: ...]", the help option, and the common usage errors). The texts live in the terminal's
catalogs; the language is the ``--lang`` anywhere on the command line, else the locale (as the
commands themselves choose it).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from typer import _click, rich_utils
from typer._click import exceptions as exc
from typer.core import TyperArgument, TyperGroup, TyperOption

from ..core.errors import GrimoireError
from ..core.registry import games
from .i18n import Translator, detect_lang

# rich_utils' fixed strings (read when the help is printed) and their catalog keys
RICH_WORDS = {
    "ARGUMENTS_PANEL_TITLE": "help.w.arguments",
    "OPTIONS_PANEL_TITLE": "help.w.options",
    "COMMANDS_PANEL_TITLE": "help.w.commands",
    "ERRORS_PANEL_TITLE": "help.w.error",
    "ABORTED_TEXT": "help.w.aborted",
    "REQUIRED_LONG_STRING": "help.w.required",
    "DEPRECATED_STRING": "help.w.deprecated",
}
_USAGE = {"prefix": "Usage: "}


def help_lang(args: Sequence[str]) -> str:
    """The language of the help: ``--lang X`` / ``--lang=X`` anywhere, else the locale. A --lang we do
    not have gives the locale's language here; the command itself then refuses it in one line."""
    explicit = None
    for i, arg in enumerate(args):
        if arg == "--lang" and i + 1 < len(args):
            explicit = args[i + 1]
        elif arg.startswith("--lang="):
            explicit = arg.split("=", 1)[1]
    try:
        return detect_lang(explicit)
    except GrimoireError:          # a --lang we lack: the command reports it; the help follows the locale
        return detect_lang(None)


class FoldingTable(Table):
    """Typer's help tables with cells that fold a word longer than the column instead of cutting it
    short with "…": Chinese has no spaces to wrap at, so a help text is one long word."""

    def add_row(self, *renderables: RenderableType | None, **kwargs: Any) -> None:
        super().add_row(*renderables, **kwargs)
        for column in self.columns:
            column.overflow = "fold"


class FoldingColumns(Columns):
    """An option's help, default and "required" (Typer sets them side by side) folding the same way."""

    def __init__(self, renderables: Iterable[RenderableType] | None = None, *args: Any, **kwargs: Any) -> None:
        items = list(renderables or [])
        for item in items:
            if isinstance(item, Text):
                item.overflow = "fold"
        super().__init__(items, *args, **kwargs)


class LocalFormatter(_click.HelpFormatter):
    """Click's formatter with the usage line's prefix in the reader's language."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, _USAGE["prefix"] if prefix is None else prefix)


class LocalContext(_click.Context):
    formatter_class = LocalFormatter


class LocalGroup(TyperGroup):
    """The ``grimoire`` group: translates itself and its commands before it parses the command line."""

    context_class = LocalContext

    def parse_args(self, ctx: _click.Context, args: list[str]) -> list[str]:
        args = self.hoist_lang(args)
        t = Translator(help_lang(args))
        ctx.meta["grimoire.help_t"] = t
        localize(self, ctx, t)
        with usage_errors(t):
            return super().parse_args(ctx, args)

    def hoist_lang(self, args: list[str]) -> list[str]:
        """``grimoire arena --lang hu ...``: a command without its own --lang leaves it to ``grimoire``."""
        i = 0
        while i < len(args) and args[i].startswith("--lang"):
            i += 1 if "=" in args[i] else 2
        cmd = self.commands.get(args[i]) if i < len(args) else None
        if cmd is None or any(p.name == "lang" for p in cmd.params):
            return args
        for j in range(i + 1, len(args)):
            if args[j] == "--":
                break
            if args[j].startswith("--lang="):
                return [args[j], *args[:j], *args[j + 1:]]
            if args[j] == "--lang" and j + 1 < len(args):
                return [*args[j:j + 2], *args[:j], *args[j + 2:]]
        return args

    def invoke(self, ctx: _click.Context) -> Any:
        with usage_errors(ctx.meta.get("grimoire.help_t") or Translator("en")):
            return super().invoke(ctx)


@contextlib.contextmanager
def usage_errors(t: Translator) -> Iterator[None]:
    """Click's usage errors (a missing option, an unknown one, a value of the wrong type) in the language."""
    try:
        yield
    except exc.NoArgsIsHelpError:
        raise
    except exc.UsageError as e:
        text = usage_error_text(e, t)
        if text is None:
            raise
        raise exc.UsageError(text, ctx=e.ctx) from None


EXTRA_ARGS = re.compile(r"Got unexpected extra argument(?:\(s\)|s)? \((.*)\)$", re.S)
NO_COMMAND = re.compile(r"No such command '(.*)'\.$", re.S)


def usage_error_text(e: exc.UsageError, t: Translator) -> str | None:
    """The message of a usage error of Click's in ``t``'s language; None for one of our own."""
    if isinstance(e, exc.BadParameter) and e.param is None:
        return None                        # raised by a command with its own words
    if isinstance(e, exc.MissingParameter) and e.param is not None:
        hint = e.param.get_error_hint()
        kind = "argument" if isinstance(e.param, TyperArgument) else "option"
        return t(f"help.err.missing_{kind}", name=hint)
    if isinstance(e, exc.NoSuchOption):
        text = t("help.err.no_option", name=e.option_name)
        if e.possibilities:
            text += " " + t("help.err.possible", names=", ".join(sorted(e.possibilities)))
        return text
    if isinstance(e, exc.BadOptionUsage):
        key = "help.err.needs_value" if "requires" in e.message else "help.err.takes_no_value"
        return t(key, name=e.option_name)
    if isinstance(e, exc.BadParameter) and e.param is not None:
        hint = e.param.get_error_hint()
        reason = e.message
        for word, key in (("valid integer", "help.err.not_integer"), ("valid number", "help.err.not_number")):
            if word in reason:
                reason = t(key)
        return t("help.err.invalid", name=hint, reason=reason)
    if (m := EXTRA_ARGS.match(e.message)) is not None:
        return t("help.err.extra_args", args=m.group(1), n=len(m.group(1).split()))
    if (m := NO_COMMAND.match(e.message)) is not None:
        return t("help.err.no_command", name=m.group(1))
    if e.message == "Missing command.":
        return t("help.err.missing_command")
    return None


def _text(t: Translator, keys: Sequence[str], **params: Any) -> str | None:
    for key in keys:
        if t.has(key):
            return t(key, **params)
    return None


def set_words(t: Translator) -> None:
    """Typer's and Click's own words in the language (module-level strings, read when printed)."""
    rich_utils.Table = FoldingTable  # type: ignore[misc]
    rich_utils.Columns = FoldingColumns  # type: ignore[misc]
    for name, key in RICH_WORDS.items():
        setattr(rich_utils, name, t(key))
    rich_utils.DEFAULT_STRING = t("help.w.default", value="{}")
    rich_utils.ENVVAR_STRING = t("help.w.envvar", value="{}")
    rich_utils.RICH_HELP = t("help.w.try", command="[blue]'{command_path} {help_option}'[/]")
    _USAGE["prefix"] = t("help.w.usage")                 # with its space, if the language has one
    # the usage prefix keeps its highlight in every language
    marks = [h for h in rich_utils.OptionHighlighter.highlights if "?P<usage>" not in h]
    usage = rf"(?P<usage>{re.escape(_USAGE['prefix'])})"
    rich_utils.highlighter.highlights = [*marks, usage]  # type: ignore[misc]  # (an instance's own list)


def _type_label(param: TyperArgument | TyperOption, ctx: _click.Context, t: Translator) -> None:
    """The type column ("<int>", "<path>") in the language: ``help.type.<type>`` (int_range, list_path, ...)."""
    label = param.display_type_rich(ctx)
    if not label or not label.startswith("<"):
        return
    key = "help.type." + re.sub(r"\W+", "_", label.strip("<>").lower()).strip("_")
    if t.has(key):
        shown = f"<{t(key)}>"
        param.display_type_rich = lambda ctx: shown  # type: ignore[method-assign]  # (this run's tree only)


def localize(group: TyperGroup, ctx: _click.Context, t: Translator) -> None:
    """Every text of ``group`` and its commands in ``t``'s language (English where a key is missing)."""
    set_words(t)
    game_list = ", ".join(games())
    group.help = _text(t, ["help.app"]) or group.help
    group.options_metavar = t("help.w.options_metavar")
    group.subcommand_metavar = t("help.w.command_metavar")
    for cmd in [group, *group.commands.values()]:
        name = cmd.name or ""
        if cmd is not group:
            cmd.help = _text(t, [f"help.cmd.{name}"]) or cmd.help
            cmd.options_metavar = t("help.w.options_metavar")
            cmd.context_class = LocalContext
        for param in cmd.params:
            pname = param.name or ""
            text = _text(t, [f"help.{name}.{pname}"], games=game_list)
            if text is not None and hasattr(param, "help"):
                param.help = text
            if isinstance(param, (TyperArgument, TyperOption)):
                _type_label(param, ctx, t)
            if isinstance(param, TyperArgument):
                shown = _text(t, [f"help.arg.{pname}"])
                if shown and shown != pname:     # (English keeps Typer's own display, "runs...")
                    param.metavar = shown
        help_option = cmd.get_help_option(ctx)
        if help_option is not None:
            help_option.help = t("help.w.help_option")
            _type_label(help_option, ctx, t)
