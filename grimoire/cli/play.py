"""``grimoire play``: a game in the terminal, humans and AI seats, with help, rules, log, undo, save."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import typer
from prompt_toolkit.completion import Completer, Completion
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..agents import agent_names, make_agent
from ..core.episode import derive_seed
from ..core.errors import GameConfigError, IllegalAction
from ..core.record import load_record, make_record, save_record, verify
from ..core.registry import game_info, load_game, new_game, with_round_cap
from ..core.state import GameState
from ..core.text import reason_text
from ..core.undo import refusal as undo_refusal
from . import picker
from . import render as renderers
from .common import (
    check_agent_names,
    check_output_path,
    parse_option_pairs,
    require_game,
    split_agents,
    split_list,
)
from .i18n import Translator, translator
from .main import app
from .rules_cmd import rules_text
from .words import COMMANDS, CommandWords

_RANGE_RE = re.compile(r"^(.+) (\d+)$")
LIST_MAX = 40                 # more field choices than this: the map shows them, the list does not


class ActionNumbers:
    """Numbers for the legal actions that keep their meaning for the whole turn of one seat: an
    action keeps its number while it stays legal, a new one gets the next free number, and no number
    is given to another action before the turn changes hands (so a number typed after a look at an
    older list never plays something else)."""

    def __init__(self) -> None:
        self.key: object = None
        self.numbers: dict[str, int] = {}
        self.current: dict[int, str] = {}

    def update(self, key: object, texts: list[str]) -> list[tuple[int, str]]:
        if key != self.key:
            self.key, self.numbers = key, {}
        for text in texts:
            if text not in self.numbers:
                self.numbers[text] = len(self.numbers) + 1
        listed = sorted((self.numbers[x], x) for x in texts)
        self.current = dict(listed)
        return listed

    def lookup(self, n: int) -> str | None:
        return self.current.get(n)


def group_actions(listed: list[tuple[int, str]], words: Callable[[str], str] | None = None) -> list[str]:
    """Cells for the list of actions: runs of consecutive numbers whose texts differ only in their
    last number become one cell ('1-3 charge am1 green 3|4|6', '7-32 bid 20..45'). ``words`` gives a
    text in the player's language (a run: its common part with the span of numbers, 'bid 20..45')."""
    say = words or (lambda text: text)
    cells: list[str] = []
    i = 0
    while i < len(listed):
        n0, text = listed[i]
        m = _RANGE_RE.match(text)
        j = i
        run = [m] if m else []          # the matches of listed[i..j]
        while m and j + 1 < len(listed):
            n1, nxt = listed[j + 1]
            m1 = _RANGE_RE.match(nxt)
            if not m1 or m1.group(1) != m.group(1) or n1 != listed[j][0] + 1:
                break
            run.append(m1)
            j += 1
        if m and j > i:                 # (j > i only after a match)
            values = [int(r.group(2)) for r in run]
            span = (f"{values[0]}..{values[-1]}" if values == list(range(values[0], values[-1] + 1)) and len(values) > 3
                    else "|".join(map(str, values)))
            cells.append(f"[dim]{n0}-{listed[j][0]}[/] {escape(say(f'{m.group(1)} {span}'))}")
        else:
            cells.append(f"[dim]{n0}[/] {escape(say(text))}")
        i = j + 1
    return cells


def cell_width(cell: str) -> int:
    return Text.from_markup(cell).cell_len


def grid(cells: list[str], width: int) -> Table:
    """The cells in as many columns as fit the width (read down, then across)."""
    widths = [cell_width(c) for c in cells]
    cols = 1
    for n in (4, 3, 2):
        rows = (len(cells) + n - 1) // n
        need = sum(max(widths[c * rows:(c + 1) * rows] or [0]) for c in range(n)) + 2 * (n - 1)
        if len(cells) >= n and need <= width:
            cols = n
            break
    rows = (len(cells) + cols - 1) // cols
    t = Table.grid(padding=(0, 2))
    for _ in range(cols):
        t.add_column(overflow="fold")
    for r in range(rows):
        t.add_row(*[cells[c * rows + r] if c * rows + r < len(cells) else "" for c in range(cols)])
    return t


class Completions(Completer):
    """Completion of whole action texts and commands from what is typed so far."""

    def __init__(self) -> None:
        self.words: list[str] = []

    def get_completions(self, document, complete_event):
        typed = document.text_before_cursor.lower()
        if not typed.strip():
            return
        for w in self.words:
            if w.startswith(typed) and w != typed:
                yield Completion(w, start_position=-len(document.text_before_cursor))


class LineReader:
    """Lines from the player: prompt_toolkit (line editing, history, completion of action texts)
    when both ends are a terminal; plain lines otherwise (pipes, scripts, tests).

    Every seat has its own history: at a hot-seat table ↑ must not bring back what the previous
    player typed (a secret choice). ``pt_io``: prompt_toolkit's input and output (tests)."""

    def __init__(self, console: Console, pt_io: dict | None = None):
        self.console = console
        self.completions = Completions()
        self.interactive = pt_io is not None or (sys.stdin.isatty() and sys.stdout.isatty())
        self.pt_io = pt_io or {}
        self.sessions: dict = {}          # seat (None: no seat's, e.g. "press Enter") -> its PromptSession

    def session(self, seat: int | None):
        if seat not in self.sessions:
            from prompt_toolkit import PromptSession
            from prompt_toolkit.history import InMemoryHistory
            self.sessions[seat] = PromptSession(history=InMemoryHistory(), completer=self.completions,
                                                complete_while_typing=False, **self.pt_io)
        return self.sessions[seat]

    def read(self, prompt: str, words: list[str] | None = None, seat: int | None = None) -> str | None:
        """A line, or None at the end of input. Ctrl-C raises KeyboardInterrupt."""
        self.completions.words = words or []
        try:
            if self.interactive:
                return self.session(seat).prompt(prompt)
            return self.console.input(escape(prompt))
        except EOFError:
            return None

    def clear(self) -> None:
        """A blank screen (and scrollback) between two players at one screen; nothing on a pipe."""
        if self.interactive and self.console.is_terminal:
            self.console.clear()
            self.console.file.write("\033[3J")          # the scrollback too: no scrolling up to their board
            self.console.file.flush()


@dataclass
class Session:
    state: GameState
    agents: list  # Agent or None for a human seat
    console: Console
    record_path: Path | None = None
    quiet: bool = False
    log: list[tuple[int, str]] = field(default_factory=list)
    undo_stack: list[tuple[GameState, int]] = field(default_factory=list)
    last_human: int | None = None
    t: Translator = field(default_factory=Translator)
    reader: LineReader | None = None
    numbers: ActionNumbers = field(default_factory=ActionNumbers)
    turn: int = 0                     # counts changes of the deciding seat (the numbers' key)
    last_decider: int | None = None
    saved_to: str | None = None
    level_numbers: dict = field(default_factory=dict)   # (seat, turn, prefix) -> ActionNumbers of the picker
    level_labels: dict = field(default_factory=dict)    # option -> its words on the level shown last
    current_level: picker.Level | None = None          # the picker's level at the prompt (None: a flat list)
    listed_now: dict = field(default_factory=dict)      # number -> option of the list at the prompt
    _words: CommandWords | None = None

    def __post_init__(self):
        if self.reader is None:
            self.reader = LineReader(self.console)

    @property
    def words(self) -> CommandWords:
        """The command words in the reader's language (the English ones work too)."""
        if self._words is None:
            self._words = CommandWords(self.t, renderers.views(self.state.game), self.t.has)
        return self._words

    @property
    def humans(self) -> list[int]:
        return [i for i, a in enumerate(self.agents) if a is None]

    @property
    def width(self) -> int:
        return self.console.width

    # --- display -------------------------------------------------------------------------------
    def show(self, seat: int | None, view: str | None = None) -> None:
        obs = self.state.observation(seat)
        self.console.print(renderers.render(self.state.game, obs, seat, self.state.hints(seat), t=self.t, view=view,
                                            width=self.width))

    def actions_table(self, listed: list[tuple[int, str]]) -> Table:
        """The numbered actions; outside English in the game's words (the typed notation is English,
        and `help` explains it), in English as the notation itself, which is what one types."""
        words = None
        if self.t.lang != "en":
            words = lambda text: renderers.label(self.state.game, text, self.t)  # noqa: E731
        return grid(group_actions(listed, words), self.width)

    def seat_name(self, seat: int) -> str:
        return self.t("term.seat_n", n=seat + 1)          # people count seats from 1

    # --- playing ------------------------------------------------------------------------------
    def apply(self, seat: int, text: str) -> None:
        self.state.apply(text)
        self.log.append((seat, text))

    def ai_move(self, seat: int) -> None:
        action = self.agents[seat].choose(self.state, seat)
        text = str(action)
        self.apply(seat, text)
        self.undo_stack.clear()
        if not self.quiet:
            if self.humans and self.state.visible_history(self.viewer)[-1] is None:
                shown = f"[dim]{escape(self.t('term.secret_move'))}[/]"
            else:
                shown = escape(renderers.label(self.state.game, text, self.t))      # in words where the game has them
            self.console.print(f"[dim]{escape(self.seat_name(seat))} ({self.agent_label(seat)}):[/] {shown}",
                               highlight=False)

    @property
    def viewer(self) -> int | None:
        """Whose eyes the screen is: the human who played last (hot-seat), else the first human."""
        if self.last_human is not None:
            return self.last_human
        return self.humans[0] if self.humans else None

    def agent_label(self, seat: int) -> str:
        a = self.agents[seat]
        if a is None:
            return self.t("term.human")
        key = f"ai.{a.name}"
        game_key = f"{self.state.game}.ai.{a.name}"
        return self.t(key) if self.t.has(key) else (self.t(game_key) if self.t.has(game_key) else a.name)

    def human_turn(self, seat: int) -> bool:
        """Ask the human at ``seat`` until an action is played. False when the player quits."""
        t = self.t
        if self.last_human is not None and self.last_human != seat and len(self.humans) > 1:
            reader = self.reader
            assert reader is not None            # (__post_init__ made one)
            reader.clear()                       # the previous player's board and choices leave the screen
            self.console.print(Panel(escape(t("term.pass_screen", seat=seat + 1))))
            if self.read("") is None:
                return False
            reader.clear()
        self.last_human = seat
        if self.last_decider != seat:
            self.turn += 1
            self.last_decider = seat
        self.show(seat)
        texts = [str(a) for a in self.state.legal_actions()]
        grouped = renderers.has_menu(self.state.game)
        path: list[tuple[str, ...]] = [()]          # the levels the player opened (grouped picker)
        show_list = True
        listed: dict[int, str] = {}
        views = renderers.views(self.state.game)
        while True:
            lv = self.current_level = picker.level(texts, path[-1]) if grouped else None
            if show_list:
                listed = self.show_level(seat, lv) if lv is not None else self.show_flat(seat, texts)
                self.listed_now = listed
                show_list = False
            completions = texts + self.words.completions()
            if lv is not None:
                completions = [lv.continuation(o) for o in lv.options] + completions
            line = self.read(t("term.prompt", seat=seat + 1), completions, seat=seat)
            if line is None:
                return False
            line = line.strip()
            if not line:
                show_list = True                     # Enter alone: the list again
                continue
            word, _, rest = line.partition(" ")
            rest = rest.strip()
            command = self.words.command(word)
            if command == "quit":
                if rest:
                    self.save(rest)
                return False
            if command == "help":
                self.help(rest)
                continue
            if command == "rules":
                self.rules(rest)
                continue
            if command == "log":
                self.show_log(rest)
                continue
            if command == "board" or self.words.view(word):
                self.board(seat, rest if command == "board" else line, views)
                continue
            if command == "save":
                self.save(rest)
                continue
            if command == "undo":
                if self.undo(seat):
                    self.show(seat)
                    texts = [str(a) for a in self.state.legal_actions()]
                    path, show_list = [()], True
                continue
            entered = line                           # as typed: the confirmation below accepts it again
            if lv is not None:
                choice = picker.resolve(texts, lv, line, listed, self.level_labels)
                if choice.back:
                    if len(path) > 1:
                        path.pop()
                        show_list = True
                    else:
                        self.error(t("term.pick.top"))
                    continue
                if choice.go is not None:
                    path.append(choice.go)
                    show_list = True
                    continue
                if choice.error is not None:
                    if choice.error == "term.pick.unknown":
                        self.error(self.why_not(line))
                    else:
                        self.error(t(choice.error, **choice.params))
                    continue
                line = choice.play or line
            elif line.isdigit():
                n = int(line)
                text = self.numbers.lookup(n)
                if text is None:
                    numbers = sorted(self.numbers.current)
                    self.error(t("term.no_action_n", n=n, lo=numbers[0], hi=numbers[-1]))
                    continue
                line = text
            try:
                action = self.state.parse_action(line)
            except IllegalAction:
                self.error(self.why_not(line))
                continue
            warning = renderers.warning(self.state.game, self.state.observation(seat), str(action), t=t)
            if warning:
                self.console.print(f"[bold yellow]{escape(warning)}[/]")
                again = self.read(t("term.confirm_again"), seat=seat)
                if again is None or again.strip().lower() not in (str(action), entered.lower()):
                    self.console.print(escape(t("term.cancelled")))
                    continue
            before = self.state.clone()
            n_log = len(self.log)
            self.apply(seat, str(action))
            if undo_refusal(before, self.state, seat) is None:       # the core's policy (core/undo.py)
                self.undo_stack.append((before, n_log))
            else:
                self.undo_stack.clear()
            return True

    def error(self, message: str) -> None:
        """One red line; the list is not printed again, so the error stays the last line."""
        self.console.print(f"[red]{escape(message)}[/]", highlight=False)

    def why_not(self, line: str) -> str:
        """Why a typed line is no action now: the engine's reason (in English); in another language the
        game's words for it (``GameInfo.reason``), else the rule it breaks."""
        try:
            self.state.parse_action(line)
        except IllegalAction as e:
            if self.t.lang == "en":
                return str(e)
            hook = game_info(self.state.game).reason
            found = hook(str(e)) if hook is not None else None
            if found is not None and self.t.has(found[0]):
                return self.t("term.not_now_reason", text=line, reason=reason_text(*found, self.t), rule=e.rule or "?")
            if e.rule:
                return self.t("term.not_now_rule", text=line, rule=e.rule)
        return self.t("term.not_now", text=line)

    def show_flat(self, seat: int, texts: list[str]) -> dict[int, str]:
        listed = self.numbers.update((seat, self.turn), texts)
        self.console.print(self.actions_table(listed))
        return dict(listed)

    def show_level(self, seat: int, lv: picker.Level) -> dict[int, str]:
        """Print one level of the grouped picker; its numbers keep their meaning for the whole turn."""
        t = self.t
        obs = self.state.observation(seat)
        conts = [lv.continuation(o) for o in lv.options]
        words = renderers.menu(self.state.game, obs, list(lv.prefix), conts, t=t, hints=self.state.hints(seat))
        labels = words.get("labels") or {}
        self.level_labels = {}
        for o, c in zip(lv.options, conts, strict=True):
            self.level_labels[o] = labels.get(c) or renderers.label(self.state.game, o if lv.flat or o in lv.plays
                                                                    else c, t)
        # numbers keep their meaning while a level's choices go on (an act step); a list of whole actions, or
        # one with nothing in common with the last (the next decision), numbers from 1 again
        key = (seat, self.turn, lv.prefix, lv.flat)
        numbers = self.level_numbers.get(key)
        if numbers is None or not set(numbers.numbers) & set(lv.options):
            numbers = self.level_numbers[key] = ActionNumbers()
        listed = numbers.update(key, lv.options)
        if words.get("view") is not None:
            self.console.print(words["view"])
        title = words.get("title") or ""
        back = f"  [dim]{escape(t('term.pick.back'))}[/]" if len(lv.prefix) > lv.auto else ""
        if title or back:
            self.console.print(f"[bold]{escape(title)}[/]{back}", highlight=False)
        fields = sum(1 for c in conts if "," in c.split(" ")[-1])
        if len(lv.options) > LIST_MAX and fields == len(conts):        # typed as q,r: no numbers
            self.console.print(escape(t("term.pick.fields", n=len(conts))), highlight=False)
            return {}
        else:
            opens = {o for o in lv.options if not lv.flat and o not in lv.plays}      # "›": another level follows
            cells = [f"[dim]{n}[/] {escape(self.level_labels[o])}{' ›' if o in opens else ''}" for n, o in listed]
            self.console.print(grid(cells, self.width))
        return dict(listed)

    def read(self, prompt: str, words: list[str] | None = None, seat: int | None = None) -> str | None:
        reader = self.reader
        assert reader is not None                # (__post_init__ made one)
        return reader.read(prompt, words, seat)

    def board(self, seat: int, view: str, views: dict[str, str]) -> None:
        """``board`` (the compact board) or a view, which may take an argument ("zoom 3,-2")."""
        typed = view.strip()
        view = self.words.canonical_view(typed)
        name = view.split(" ")[0].lower()
        if view and name not in views:
            names = ", ".join([self.words.word("board")] + [self.words.view_word(v) for v in views])
            self.error(self.t("term.no_view", view=typed, views=names))
            return
        if view:
            problem = renderers.check_view(self.state.game, self.state.observation(seat), view, seat, t=self.t)
            if problem:
                self.error(problem)
                return
        self.show(seat, view or None)

    def help(self, topic: str) -> None:
        t = self.t
        if not topic:
            views = renderers.views(self.state.game)
            lines = [f"[bold]{escape(t('term.help.title'))}[/]"]
            w = self.words
            for cmd, syntax, key in HELP_LINES:
                typed = t(syntax, word=w.word(cmd)) if cmd else t(syntax)
                lines.append(f"  [cyan]{escape(typed)}[/]  {escape(t(key))}")
            args = renderers.view_args(self.state.game)
            for v, key in views.items():
                syntax = f"{w.word('board')} {w.view_word(v)}" + (f" {t(args[v])}" if v in args else "")
                lines.append(f"  [cyan]{escape(syntax)}[/]  {escape(t(key))}")
            if renderers.has_menu(self.state.game):
                lines.append(escape(t("term.help.picker")))
            lines.append(escape(t("term.help.numbers")))
            if t.lang != "en":
                lines.append(escape(t("term.help.english")))
            self.console.print("\n".join(lines), highlight=False)
            return
        text = renderers.describe(self.state.game, topic, t=t)
        if text is None:
            self.rules(topic)
        else:
            self.console.print(Markdown(text))

    def rules(self, topic: str) -> None:
        self.console.print(Markdown(rules_text(self.state.game, topic or None, self.t)))

    def show_log(self, arg: str) -> None:
        n = int(arg) if arg.isdigit() else 20
        visible = self.state.visible_history(self.viewer)
        entries = []
        for (seat, text), vis in zip(self.log, visible, strict=False):
            if vis is None:
                entries.append((seat, f"[dim]{escape(self.t('term.secret_log'))}[/]"))
            else:
                entries.append((seat, escape(renderers.label(self.state.game, text, self.t))))
        for i, (seat, text) in enumerate(entries[-n:], start=max(1, len(entries) - n + 1)):
            self.console.print(f"[dim]{i:4}[/] {escape(self.seat_name(seat))}: {text}", highlight=False)
        if not entries:
            self.console.print(escape(self.t("term.no_actions_yet")))

    def undo(self, seat: int) -> bool:
        if not self.undo_stack:
            self.console.print(f"[yellow]{escape(self.t('term.nothing_to_undo'))}[/]")
            return False
        before, n_log = self.undo_stack.pop()
        self.state = before
        del self.log[n_log:]
        self.console.print(f"[green]{escape(self.t('term.undone'))}[/]")
        return True

    def save(self, path: str) -> None:
        if not path:
            self.console.print(f"[red]{escape(self.t('term.save_needs_file', save=self.words.word('save')))}[/]")
            return
        try:
            save_record(path, make_record(self.state))
            self.saved_to = path
            self.console.print(f"[green]{escape(self.t('term.saved', path=path))}[/]")
        except OSError as e:
            self.console.print(f"[red]{escape(self.t('term.cannot_save', path=path, reason=e.strerror))}[/]")

    def loop(self) -> bool:
        """Play to the end; False if a human quit."""
        while not self.state.is_terminal():
            seat = self.state.current_player
            assert seat is not None              # a game that goes on has a seat to decide
            if self.agents[seat] is None:
                if not self.human_turn(seat):
                    return False
            else:
                self.ai_move(seat)
        return True

    def result(self) -> None:
        st = self.state
        t = self.t
        seat = self.humans[0] if self.humans else None
        if self.humans:
            self.show(seat)
        scores = st.scores()
        table = Table(title=t("term.result"))
        table.add_column(t("term.col_seat"))
        table.add_column(t("term.col_agent"))
        table.add_column(t("term.col_score"), justify="right")
        for i, sc in enumerate(scores):
            mark = f" [bold green]{escape(t('term.winner'))}[/]" if i in st.winners() else ""
            table.add_row(str(i + 1), self.agent_label(i), f"{sc}{mark}")
        self.console.print(table)
        winners = ", ".join(self.seat_name(w) for w in st.winners()) or "-"
        self.console.print(escape(t("term.winners_line", winners=winners,
                                    n=len(st.history))), highlight=False)
        if self.humans:
            self.console.print(escape(t("term.review_hint")), highlight=False)


HELP_LINES = [          # (the command, the syntax with its word and arguments in the reader's words, what it does)
    (None, "term.help.syntax.play", "term.help.play"),
    *((c, f"term.help.syntax.{c}", f"term.help.{c}") for c in COMMANDS),
]


def build_agents(game: str, players: int, seat: int, agents: list[str] | None, seed: int) -> list:
    """One agent per seat (None for a human); the agent of seat ``i`` has the seed
    ``derive_seed(seed, "agent", i)`` from the game's seed, so a replayed or resumed game with the
    same seed meets the same opponents."""
    if agents is None:
        default = "medium" if "medium" in agent_names(game) else "random"
        agents = [default] * players
        agents[seat] = "human"
    if len(agents) != players:
        raise GameConfigError(f"--agents names {len(agents)} {'seat' if len(agents) == 1 else 'seats'} but the game "
                              f"has {players} players",
                              key="term.err.agents_game_players", params={"n": len(agents), "players": players})
    return [None if name == "human" else make_agent(game, name, derive_seed(seed, "agent", i))
            for i, name in enumerate(agents)]


def check_seat_option(seat: int, players: int) -> None:
    """``--seat`` counts from 1 for people (records and the API count from 0)."""
    if seat == 0:
        raise GameConfigError(f"--seat counts from 1: the first seat is --seat 1 (this game has seats 1-{players})",
                              key="term.err.seat_from_1", params={"players": players})
    if not 1 <= seat <= players:
        raise GameConfigError(f"--seat must be between 1 and {players}", key="term.err.seat_range",
                              params={"players": players})


def ai_only(agents: str | None) -> bool:
    """Whether ``--agents`` leaves no seat to a human."""
    return agents is not None and "human" not in (split_list(agents) or [])


@app.command("play")
def play_command(
    game: str | None = typer.Argument(None),
    players: int = typer.Option(None, "--players", "-p"),
    seat: int = typer.Option(1, "--seat"),
    agents: str = typer.Option(None, "--agents"),
    seed: int = typer.Option(None, "--seed"),
    max_rounds: int = typer.Option(None, "--max-rounds"),
    option: list[str] = typer.Option([], "--option", "-o"),
    record: Path = typer.Option(None, "--record"),
    resume: Path = typer.Option(None, "--resume"),
    quiet: bool = typer.Option(False, "--quiet"),
    lang: str = typer.Option(None, "--lang"),
    backend: str = typer.Option("python", "--backend"),
) -> None:
    """Play a game in the terminal against AI seats (or watch AIs play)."""
    console = Console()
    t = translator(lang)
    check_output_path(record, "--record", t)
    log: list[tuple[int, str]] = []

    def note(seat: int | None, text: str) -> None:
        if seat is not None:        # (None: an action after the end, which verify refuses at once)
            log.append((seat, text))

    capped = False
    if resume is not None:
        rec = load_record(resume)
        if game is not None and game != rec["game"]:
            raise GameConfigError(t("term.err.resume_game", path=str(resume), saved=rec["game"], game=game))
        game = rec["game"]
        info = game_info(game)
        # checked like `grimoire replay`: every action legal, and the recorded result and state hash
        try:
            state = verify(rec, on_action=note)
        except GameConfigError as e:
            said = t(e.key, **e.params) if e.key and t.has(e.key) else str(e)
            raise GameConfigError(f"{resume}: {said}") from None
        if backend != "python":            # checked on the reference, continued on the chosen engine
            state = load_game(state.to_dict(), backend=backend)
        players = state.num_players
    else:
        info = require_game(game)
        if players is None and agents:
            players = len(split_agents(agents) or [])
        opts = parse_option_pairs(option)
        if max_rounds is not None:
            opts["max_rounds"] = max_rounds
        capped = ai_only(agents) and opts.get("max_rounds") is None and info.round_cap is not None
        if capped:                     # AIs alone may never reach the rules' end (random seats often do not): cap them
            opts = with_round_cap(info, opts)
        state = new_game(game, players, seed, backend=backend, **opts)
        players = state.num_players
    check_seat_option(seat, players)
    check_agent_names(game, split_agents(agents) or [], humans=True, t=t)
    agent_list = build_agents(game, players, seat - 1, split_agents(agents), state.seed)
    session = Session(state, agent_list, console, record, quiet, log, t=t)
    console.print(f"[bold]{escape(info.title_in(t.lang))}[/] — "
                  + escape(t("term.start" if players != 1 else "term.start_solo", players=players, seed=state.seed))
                  + (" " + escape(t("term.type_help", help=session.words.word("help"))) if session.humans else ""),
                  highlight=False)
    if resume is None and capped:
        console.print(escape(t("term.round_cap", rounds=state.options["max_rounds"])), highlight=False)
    interrupted = False
    try:
        finished = session.loop()
    except KeyboardInterrupt:          # Ctrl-C: say so, keep what can be kept
        finished, interrupted = False, True
        console.print()
    if record is not None:
        save_record(record, make_record(session.state))
        console.print(escape(t("term.record_written", path=record)))
    if finished:
        session.result()
        return
    n = len(session.state.history)
    kept = record or session.saved_to
    if kept:        # the command to copy on a line of its own, never broken (the terminal may wrap a long path)
        console.print(escape(t("term.left_unfinished", n=n)), highlight=False)
        console.print(escape(t("term.resume_with", path=kept)), highlight=False, soft_wrap=True)
    else:           # words: wrapped between words, never inside one ("nächste|s Mal")
        w = session.words
        not_saved = t("term.not_saved", save=w.word("save"), quit=w.word("quit"))
        console.print(escape(t("term.left_unfinished", n=n) + " " + not_saved), highlight=False)
    if interrupted:
        raise typer.Exit(130)
