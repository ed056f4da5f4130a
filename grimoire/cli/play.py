"""``grimoire play``: a game in the terminal, humans and AI seats, with help, rules, log, undo, save."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import typer
from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from ..agents import agent_names, make_agent
from ..core.episode import derive_seed
from ..core.errors import GameConfigError, IllegalAction
from ..core.record import load_record, make_record, save_record
from ..core.registry import game_info, new_game
from ..core.state import GameState
from . import render as renderers
from .common import GAME_HELP, parse_option_pairs, require_game, split_list
from .main import app
from .rules_cmd import rules_text

HELP = """[bold]Commands[/]
  [cyan]<number>[/] or [cyan]<action text>[/]  play that action (its number or its text as listed)
  [cyan]help[/]              this help;  [cyan]help <action>[/] explains an action
  [cyan]rules[/] [topic]     the rules (topics are listed without one)
  [cyan]log[/] [n]           the last n actions (default 20)
  [cyan]undo[/]              take back your last action (not across a card draw, a reveal or another seat's move)
  [cyan]board[/]             show the board again
  [cyan]save FILE[/]         save the game record (resume with [cyan]grimoire play --resume FILE[/])
  [cyan]quit[/]              leave (the record is saved if you gave --record)"""

_RANGE_RE = re.compile(r"^(\w+) (\d+)$")


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

    @property
    def humans(self) -> list[int]:
        return [i for i, a in enumerate(self.agents) if a is None]

    # --- display -------------------------------------------------------------------------------
    def show(self, seat: int | None) -> None:
        obs = self.state.observation(seat)
        self.console.print(renderers.render(self.state.game, obs, seat, self.state.hints(seat)))

    def actions_table(self, texts: list[str]) -> Table:
        t = Table.grid(padding=(0, 2))
        cells = []
        i = 0
        while i < len(texts):
            m = _RANGE_RE.match(texts[i])
            j = i
            if m:
                while (j + 1 < len(texts) and (m2 := _RANGE_RE.match(texts[j + 1])) and m2.group(1) == m.group(1)
                       and int(m2.group(2)) == int(_RANGE_RE.match(texts[j]).group(2)) + 1):
                    j += 1
            if j - i >= 3:
                lo, hi = _RANGE_RE.match(texts[i]).group(2), _RANGE_RE.match(texts[j]).group(2)
                cells.append(f"[dim]{i + 1}-{j + 1}[/] {m.group(1)} {lo}..{hi}")
            else:
                for k in range(i, j + 1):
                    cells.append(f"[dim]{k + 1}[/] {texts[k]}")
            i = j + 1
        cols = 4 if len(cells) > 12 else 3
        for _ in range(cols):
            t.add_column()
        for r in range(0, len(cells), cols):
            row = cells[r:r + cols]
            t.add_row(*(row + [""] * (cols - len(row))))
        return t

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
                text = "[dim](a secret choice, shown when the round is over)[/]"
            self.console.print(f"[dim]seat {seat} ({self.agent_label(seat)}):[/] {text}", highlight=False)

    @property
    def viewer(self) -> int | None:
        """Whose eyes the screen is: the human who played last (hot-seat), else the first human."""
        if self.last_human is not None:
            return self.last_human
        return self.humans[0] if self.humans else None

    def agent_label(self, seat: int) -> str:
        a = self.agents[seat]
        return "human" if a is None else a.name

    def human_turn(self, seat: int) -> bool:
        """Ask the human at ``seat`` until an action is played. False when the player quits."""
        if self.last_human is not None and self.last_human != seat and len(self.humans) > 1:
            self.console.print(Panel(f"Seat {seat}'s turn — pass the screen, then press Enter"))
            if self.read("") is None:
                return False
        self.last_human = seat
        self.show(seat)
        while True:
            texts = [str(a) for a in self.state.legal_actions()]
            self.console.print(self.actions_table(texts))
            line = self.read(f"seat {seat}> ")
            if line is None:
                return False
            line = line.strip()
            if not line:
                continue
            word, _, rest = line.partition(" ")
            word = word.lower()
            if word in ("quit", "exit", "q"):
                return False
            if word in ("help", "?"):
                self.help(rest.strip())
                continue
            if word == "rules":
                self.console.print(rules_text(self.state.game, rest.strip() or None))
                continue
            if word == "log":
                self.show_log(rest.strip())
                continue
            if word == "board":
                self.show(seat)
                continue
            if word == "save":
                self.save(rest.strip())
                continue
            if word == "undo":
                if self.undo(seat):
                    self.show(seat)
                continue
            if line.isdigit():
                n = int(line)
                if not 1 <= n <= len(texts):
                    self.console.print(f"[red]There is no action {n}; choose 1-{len(texts)}.[/]")
                    continue
                line = texts[n - 1]
            try:
                action = self.state.parse_action(line)
            except IllegalAction as e:
                self.console.print(f"[red]{e}[/]", highlight=False)
                continue
            warning = renderers.warning(self.state.game, self.state.observation(seat), str(action))
            if warning:
                self.console.print(f"[bold yellow]{warning}[/]")
                again = self.read("Type the action again to confirm, anything else to cancel: ")
                if again is None or again.strip().lower() != str(action):
                    continue
            before = self.state.clone()
            n_log = len(self.log)
            self.apply(seat, str(action))
            if self.state.current_player == seat and self.state.undo_barrier() == before.undo_barrier():
                self.undo_stack.append((before, n_log))
            else:
                self.undo_stack.clear()
            return True

    def read(self, prompt: str) -> str | None:
        try:
            return self.console.input(prompt)
        except EOFError:
            return None

    def help(self, topic: str) -> None:
        if not topic:
            self.console.print(HELP)
            return
        mod = renderers.renderer(self.state.game)
        if mod is not None and hasattr(mod, "describe"):
            self.console.print(mod.describe(topic))
        else:
            self.console.print(rules_text(self.state.game, topic))

    def show_log(self, arg: str) -> None:
        n = int(arg) if arg.isdigit() else 20
        visible = self.state.visible_history(self.viewer)
        entries = [(seat, text if vis is not None else "(secret until the round is over)")
                   for (seat, text), vis in zip(self.log, visible, strict=False)]
        for i, (seat, text) in enumerate(entries[-n:], start=max(1, len(entries) - n + 1)):
            self.console.print(f"[dim]{i:4}[/] seat {seat}: {text}", highlight=False)
        if not entries:
            self.console.print("no actions yet")

    def undo(self, seat: int) -> bool:
        if not self.undo_stack:
            self.console.print("[yellow]Nothing to undo: you can take back only your own last actions, "
                               "and not across a card draw, a reveal or another player's move.[/]")
            return False
        before, n_log = self.undo_stack.pop()
        self.state = before
        del self.log[n_log:]
        self.console.print("[green]Undone.[/]")
        return True

    def save(self, path: str) -> None:
        if not path:
            self.console.print("[red]save needs a file name: save game.json[/]")
            return
        try:
            save_record(path, make_record(self.state))
            self.console.print(f"[green]Saved to {path}.[/]")
        except OSError as e:
            self.console.print(f"[red]Cannot save to {path}: {e.strerror}[/]")

    def loop(self) -> bool:
        """Play to the end; False if a human quit."""
        while not self.state.is_terminal():
            seat = self.state.current_player
            if self.agents[seat] is None:
                if not self.human_turn(seat):
                    return False
            else:
                self.ai_move(seat)
        return True

    def result(self) -> None:
        st = self.state
        seat = self.humans[0] if self.humans else None
        if self.humans:
            self.show(seat)
        scores = st.scores()
        t = Table(title="Result")
        t.add_column("seat")
        t.add_column("agent")
        t.add_column("score", justify="right")
        for i, sc in enumerate(scores):
            mark = " [bold green]winner[/]" if i in st.winners() else ""
            t.add_row(str(i), self.agent_label(i), f"{sc}{mark}")
        self.console.print(t)
        self.console.print(f"winners: {', '.join(map(str, st.winners()))}   actions: {len(st.history)}")


def build_agents(game: str, players: int, seat: int, agents: list[str] | None, seed: int) -> list:
    """One agent per seat (None for a human); the agent of seat ``i`` has the seed
    ``derive_seed(seed, "agent", i)`` from the game's seed, so a replayed or resumed game with the
    same seed meets the same opponents."""
    if agents is None:
        default = "medium" if "medium" in agent_names(game) else "random"
        agents = [default] * players
        agents[seat] = "human"
    if len(agents) != players:
        raise GameConfigError(f"--agents names {len(agents)} seats but the game has {players} players")
    return [None if name == "human" else make_agent(game, name, derive_seed(seed, "agent", i))
            for i, name in enumerate(agents)]


@app.command("play")
def play_command(
    game: str | None = typer.Argument(None, help=GAME_HELP + " (not with --resume)"),
    players: int = typer.Option(None, "--players", "-p", help="number of players (default: the game's usual)"),
    seat: int = typer.Option(0, "--seat", help="your seat (0 = first) when --agents is not given"),
    agents: str = typer.Option(None, "--agents", help="one per seat: human, random, easy, medium, hard, ..."),
    seed: int = typer.Option(None, "--seed", help="random seed (default: a fresh one, shown)"),
    max_rounds: int = typer.Option(None, "--max-rounds", help="end the game after this round"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option key=value (repeatable)"),
    record: Path = typer.Option(None, "--record", help="write the game record to this file at the end"),
    resume: Path = typer.Option(None, "--resume", help="continue a saved game record"),
    quiet: bool = typer.Option(False, "--quiet", help="do not print every AI move"),
    backend: str = typer.Option("python", "--backend", help="engine: python, native (where built) or auto"),
) -> None:
    """Play a game in the terminal against AI seats (or watch AIs play)."""
    console = Console()
    log: list[tuple[int, str]] = []
    if resume is not None:
        rec = load_record(resume)
        if game is not None and game != rec["game"]:
            raise GameConfigError(f"{resume} is a game of {rec['game']}, not {game}")
        game = rec["game"]
        info = game_info(game)
        state = new_game(game, rec["players"], rec["seed"], backend=backend, **rec["options"])
        for i, text in enumerate(rec["actions"]):
            cp = state.current_player
            try:
                state.apply(text)
            except IllegalAction as e:
                raise GameConfigError(f"{resume}: action #{i + 1} {text!r} is illegal: {e}") from None
            log.append((cp, text))
        players = state.num_players
    else:
        info = require_game(game)
        if players is None and agents:
            players = len(split_list(agents))
        opts = parse_option_pairs(option)
        if max_rounds is not None:
            opts["max_rounds"] = max_rounds
        state = new_game(game, players, seed, backend=backend, **opts)
        players = state.num_players
    if not 0 <= seat < players:
        raise GameConfigError(f"--seat must be between 0 and {players - 1}")
    agent_list = build_agents(game, players, seat, split_list(agents), state.seed)
    session = Session(state, agent_list, console, record, quiet, log)
    console.print(f"[bold]{info.title}[/] — {players} players, seed {state.seed}. "
                  + ("Type [cyan]help[/] for commands." if session.humans else ""))
    finished = session.loop()
    if record is not None:
        save_record(record, make_record(session.state))
        console.print(f"record written to {record}")
    if finished:
        session.result()
    else:
        console.print("Game left unfinished." + ("" if record else " (Use save FILE or --record to keep it.)"))
