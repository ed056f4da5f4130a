"""``grimoire simulate GAME``: many games of one configuration, on this machine or on Ray, to Parquet."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TimeElapsedColumn
from rich.text import Text

from ..core.errors import GameConfigError
from .common import GAME_HELP, parse_option_pairs, require_game, split_list
from .main import app

LOG_SECONDS = 60.0       # without a terminal (nohup), a progress line this often


class RateColumn(ProgressColumn):
    """Games per second of this run (finished batches only) and the time left at that pace."""

    def render(self, task: Task) -> Text:
        start = task.fields.get("t0")
        done = task.completed - task.fields.get("before", 0)
        if start is None or done <= 0 or task.total is None:
            return Text("-- games/s  ETA --", style="progress.data.speed")
        rate = done / max(time.perf_counter() - start, 1e-9)
        left = (task.total - task.completed) / rate
        h, rem = divmod(int(left), 3600)
        return Text(f"{rate:,.1f} games/s  ETA {h}:{rem // 60:02d}:{rem % 60:02d}", style="progress.data.speed")


def _interrupt(_signum, _frame) -> None:
    raise KeyboardInterrupt


@app.command("simulate")
def simulate_command(
    game: str | None = typer.Argument(None, help=GAME_HELP),
    agents: str = typer.Option("medium", "--agents", "-a", help="one agent for every seat, or one per seat "
                                                               "(rotated through the seats)"),
    players: int = typer.Option(None, "--players", "-p", help="number of players (default: one per agent, "
                                                              "else the game's default)"),
    games: int = typer.Option(1000, "--games", "-n", help="number of games"),
    seed: int = typer.Option(1, "--seed", help="run seed: the same seed plays the same games"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option key=value (repeatable)"),
    out: Path = typer.Option(..., "--out", help="directory of the run (Parquet parts, run.json); a re-run "
                                                "with the same --out resumes it"),
    backend: str = typer.Option("local", "--backend", help="local (processes on this machine) or ray"),
    address: str = typer.Option(None, "--address", help="Ray cluster address (auto: the running cluster); "
                                                        "default: a local Ray instance"),
    workers: int = typer.Option(0, "--workers", "-w", help="parallel workers (0 = every core of this machine, "
                                                           "or of the Ray cluster)"),
    batch_size: int = typer.Option(0, "--batch-size", help="games per batch (0 = a few seconds of play each)"),
    engine: str = typer.Option("auto", "--engine", "-e", help="the game's engine: python, native (where built) or "
                                                             "auto (native where built); a resumed run keeps its own"),
    no_roles: bool = typer.Option(False, "--no-rotate-roles", help="keep the game's own role choice (e.g. random "
                                                                  "characters) instead of rotating roles"),
) -> None:
    """Play many games of one configuration in batches (this machine's cores, or Ray); one Parquet row per game and
    seat with the game's own statistics; resumable; then `grimoire report` the run directory."""
    from ..sim import make_config, simulate

    info = require_game(game)
    if workers < 0:
        raise GameConfigError("--workers must be 0 (all cores) or more")
    cfg = make_config(info.name, players, split_list(agents) or [], games, seed, parse_option_pairs(option),
                      not no_roles, batch_size, engine)
    console = Console()
    # a scheduler's or kill's SIGTERM ends the run like Ctrl-C: the finished batches are written first
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)     # also when started in the background (SIGINT ignored)
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(), RateColumn(),
                  TimeElapsedColumn(), console=console) as progress:
        task = progress.add_task(f"{info.name} {cfg.players}p {','.join(dict.fromkeys(cfg.agents))}", total=cfg.games,
                                 start=False)

        def on_start(c, before: int) -> None:
            progress.update(task, completed=before, before=before, t0=time.perf_counter(),
                            description=f"{info.name} {c.players}p {','.join(dict.fromkeys(c.agents))} ({c.engine})")
            progress.start_task(task)
            if before:
                progress.console.print(f"resuming {out}: {before} of {c.games} games already played")

        last_log = [time.perf_counter()]

        def on_batch(n: int) -> None:
            progress.advance(task, n)
            now = time.perf_counter()
            if not console.is_terminal and now - last_log[0] >= LOG_SECONDS:   # a log file gets a line now and then
                last_log[0] = now
                t = progress.tasks[0]
                console.print(f"{int(t.completed)}/{cfg.games} games, {RateColumn().render(t).plain}", highlight=False)

        try:
            res = simulate(cfg, out, backend, workers or None, address, on_start=on_start, on_batch=on_batch)
        except KeyboardInterrupt:
            progress.stop()
            console.print(f"interrupted: the finished batches are kept in {out}; the same command resumes the run")
            raise typer.Exit(130) from None
    done = res.games_before + res.games_played
    console.print(f"{res.games_played} games in {res.seconds:.1f} s ({res.games_per_second:,.2f} games/s; "
                  f"{res.games_played / res.cpu_seconds if res.cpu_seconds else 0:,.2f} games per CPU-second), "
                  f"{done} of {res.config.games} in {out} (batches of {res.config.batch_size}, "
                  f"{res.config.engine} engine)")
    console.print(f"report: grimoire report {out} --out {out}/report")
