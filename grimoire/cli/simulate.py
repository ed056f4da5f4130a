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
from .common import require_game
from .main import app

LOG_SECONDS = 60.0       # without a terminal (nohup), a progress line this often
DESC_WIDTH = 20          # the progress line fits 80 columns: a short label, a short bar
BAR_WIDTH = 12


class RateColumn(ProgressColumn):
    """Games per second of this run (finished batches only) and the time left at that pace."""

    def render(self, task: Task) -> Text:
        start = task.fields.get("t0")
        done = task.completed - task.fields.get("before", 0)
        if start is None or done <= 0 or task.total is None:
            return Text("--/s ETA --", style="progress.data.speed")
        rate = done / max(time.perf_counter() - start, 1e-9)
        left = (task.total - task.completed) / rate
        h, rem = divmod(int(left), 3600)
        return Text(f"{rate:,.1f}/s ETA {h}:{rem // 60:02d}:{rem % 60:02d}", style="progress.data.speed")


def _interrupt(_signum, _frame) -> None:
    raise KeyboardInterrupt


def progress_bar(console: Console) -> Progress:
    """The run's progress line: label, bar, games done, games/s with the time left, time so far
    (at most 80 columns for runs of up to a million games)."""
    return Progress("[progress.description]{task.description}", BarColumn(bar_width=BAR_WIDTH), MofNCompleteColumn(),
                    RateColumn(), TimeElapsedColumn(), console=console)


def short(text: str, width: int = DESC_WIDTH) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def check_out(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise GameConfigError(f"--out {out} is a file; give a directory for the run (new, or a run to resume)")


def run_one(console: Console, label: str, cfg, out: Path, backend: str, workers: int, address: str | None):
    """Play (or resume) one run with a progress bar; returns the result (exit 130 when interrupted)."""
    from ..sim import simulate

    with progress_bar(console) as progress:
        task = progress.add_task(short(label), total=cfg.games, start=False)

        def on_start(c, before: int) -> None:
            progress.update(task, completed=before, before=before, t0=time.perf_counter(),
                            description=short(f"{label} ({c.engine})"))
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
                console.print(f"{label}: {int(t.completed)}/{cfg.games} games, {RateColumn().render(t).plain}",
                              highlight=False)

        try:
            res = simulate(cfg, out, backend, workers or None, address, on_start=on_start, on_batch=on_batch)
        except KeyboardInterrupt:
            progress.stop()
            console.print(f"interrupted: the finished batches are kept in {out}; the same command resumes the run")
            raise typer.Exit(130) from None
    done = res.games_before + res.games_played
    console.print(f"{label}: {res.games_played} games in {res.seconds:.1f} s ({res.games_per_second:,.2f} games/s; "
                  f"{res.games_played / res.cpu_seconds if res.cpu_seconds else 0:,.2f} games per CPU-second), "
                  f"{done} of {res.config.games} in {out} (batches of {res.config.batch_size}, "
                  f"{res.config.engine} engine)", highlight=False)
    return res


@app.command("simulate")
def simulate_command(
    game: str | None = typer.Argument(None),
    agents: str = typer.Option("medium", "--agents", "-a"),
    players: int = typer.Option(None, "--players", "-p"),
    games: int = typer.Option(1000, "--games", "-n"),
    seed: int = typer.Option(1, "--seed"),
    option: list[str] = typer.Option([], "--option", "-o"),
    out: Path = typer.Option(..., "--out"),
    backend: str = typer.Option("local", "--backend"),
    address: str = typer.Option(None, "--address"),
    workers: int = typer.Option(0, "--workers", "-w"),
    batch_size: int = typer.Option(0, "--batch-size"),
    engine: str = typer.Option("auto", "--engine", "-e"),
    no_roles: bool = typer.Option(False, "--no-rotate-roles"),
) -> None:
    """Play many games of one configuration, or a study of several; then `grimoire report`.

    A study compares agents or rule variants on the same seeds. Games run in batches (this machine's cores,
    or Ray); one Parquet row per game and seat; resumable."""
    from ..sim.backends import BACKENDS
    from ..sim.study import parse_sweep_pairs, plan, read_study, write_study

    info = require_game(game)
    if backend not in BACKENDS:          # checked before anything is made or played
        raise GameConfigError(f"unknown backend {backend!r}; choose from: {', '.join(BACKENDS)}")
    if workers < 0:
        raise GameConfigError("--workers must be 0 (all cores) or more")
    check_out(out)
    members = plan(info.name, players, agents, games, seed, parse_sweep_pairs(option), not no_roles, batch_size,
                   engine)
    console = Console()
    # a scheduler's or kill's SIGTERM ends the run like Ctrl-C: the finished batches are written first
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)     # also when started in the background (SIGINT ignored)
    study = read_study(out)
    if study is not None:        # --out is a study: its configurations join it, on the study's games
        first = members[0].config
        mine = {"game": first.game, "players": first.players, "seed": first.seed}
        if any(study.get(k) != v for k, v in mine.items()):
            raise GameConfigError(f"--out {out} is a study of " + ", ".join(f"{k} {study.get(k)}" for k in mine)
                                  + ": a configuration joins it only with the same game, --players and --seed")
    if len(members) == 1 and study is None:
        m = members[0]
        run_one(console, f"{info.name} {m.config.players}p {m.name}", m.config, out, backend, workers, address)
        console.print(f"report: grimoire report {out} --out {out}/report", highlight=False)
        return
    write_study(out, members)
    console.print(f"study of {len(members)} configurations in {out}: " + ", ".join(m.name for m in members),
                  highlight=False)
    for m in members:
        run_one(console, m.name, m.config, out / m.name, backend, workers, address)
    console.print(f"report: grimoire report {out} --out {out}/report", highlight=False)
