"""``grimoire simulate GAME``: many games of one configuration, on this machine or on Ray, to Parquet."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import typer
from rich.cells import cell_len, set_cell_size
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TimeElapsedColumn
from rich.text import Text

from ..core.errors import GameConfigError
from .common import check_player_count, require_game
from .i18n import Translator, translator
from .main import app

LOG_SECONDS = 60.0       # without a terminal (nohup), a progress line this often
DESC_WIDTH = 20          # the progress line fits 80 columns: a short label, a short bar
BAR_WIDTH = 12


class RateColumn(ProgressColumn):
    """Games per second of this run (finished batches only) and the time left at that pace."""

    def __init__(self, t: Translator) -> None:
        super().__init__()
        self.t = t

    def render(self, task: Task) -> Text:
        start = task.fields.get("t0")
        done = task.completed - task.fields.get("before", 0)
        if start is None or done <= 0 or task.total is None:
            return Text(self.t("term.sim.rate", rate="--", eta="--"), style="progress.data.speed")
        rate = done / max(time.perf_counter() - start, 1e-9)
        left = (task.total - task.completed) / rate
        h, rem = divmod(int(left), 3600)
        return Text(self.t("term.sim.rate", rate=f"{rate:,.1f}", eta=f"{h}:{rem // 60:02d}:{rem % 60:02d}"),
                    style="progress.data.speed")


def _interrupt(_signum, _frame) -> None:
    raise KeyboardInterrupt


def progress_bar(console: Console, t: Translator) -> Progress:
    """The run's progress line: label, bar, games done, games/s with the time left, time so far
    (at most 80 columns for runs of up to a million games)."""
    return Progress("[progress.description]{task.description}", BarColumn(bar_width=BAR_WIDTH), MofNCompleteColumn(),
                    RateColumn(t), TimeElapsedColumn(), console=console)


def short(text: str, width: int = DESC_WIDTH) -> str:
    """At most ``width`` columns (a Chinese character takes two), markup escaped."""
    if cell_len(text) > width:
        text = set_cell_size(text, width - 1) + "…"
    return escape(text)


def check_out(out: Path, t: Translator) -> None:
    if out.exists() and not out.is_dir():
        raise GameConfigError(t("term.err.out_is_file", out=str(out)))


def run_one(console: Console, t: Translator, label: str, cfg, out: Path, backend: str, workers: int,
            address: str | None):
    """Play (or resume) one run with a progress bar; returns the result (exit 130 when interrupted)."""
    from ..sim import simulate

    with progress_bar(console, t) as progress:
        task = progress.add_task(short(label), total=cfg.games, start=False)

        def on_start(c, before: int) -> None:
            progress.update(task, completed=before, before=before, t0=time.perf_counter(),
                            description=short(t("term.sim.engine_label", label=label, engine=c.engine)))
            progress.start_task(task)
            if before:
                progress.console.print(escape(t("term.sim.resuming", out=str(out), before=before, games=c.games)),
                                       highlight=False)

        last_log = [time.perf_counter()]

        def on_batch(n: int) -> None:
            progress.advance(task, n)
            now = time.perf_counter()
            if not console.is_terminal and now - last_log[0] >= LOG_SECONDS:   # a log file gets a line now and then
                last_log[0] = now
                task_ = progress.tasks[0]
                console.print(escape(t("term.sim.log_line", label=label, done=int(task_.completed), games=cfg.games,
                                       rate=RateColumn(t).render(task_).plain)), highlight=False)

        try:
            res = simulate(cfg, out, backend, workers or None, address, on_start=on_start, on_batch=on_batch)
        except KeyboardInterrupt:
            progress.stop()
            console.print(escape(t("term.sim.interrupted", out=str(out))), highlight=False)
            raise typer.Exit(130) from None
    done = res.games_before + res.games_played
    gpc = res.games_played / res.cpu_seconds if res.cpu_seconds else 0
    console.print(escape(t("term.sim.done", label=label, played=res.games_played, seconds=f"{res.seconds:.1f}",
                           gps=f"{res.games_per_second:,.2f}", gpc=f"{gpc:,.2f}", done=done, games=res.config.games,
                           out=str(out), batch=res.config.batch_size, engine=res.config.engine)), highlight=False)
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

    t = translator()
    info = require_game(game, t)
    check_player_count(info, players, t)
    if backend not in BACKENDS:          # checked before anything is made or played
        raise GameConfigError(t("term.err.unknown_backend", backend=backend, backends=", ".join(BACKENDS)))
    if workers < 0:
        raise GameConfigError(t("term.err.workers_all", value=workers))
    check_out(out, t)
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
            raise GameConfigError(t("term.err.study_mismatch", out=str(out), study=", ".join(
                f"{k} {study.get(k)}" for k in mine)))
    report = escape(t("term.sim.report_hint", command=f"grimoire report {out} --out {out}/report"))
    if len(members) == 1 and study is None:
        m = members[0]
        label = t("term.sim.label", game=info.name, players=m.config.players, name=m.name)
        run_one(console, t, label, m.config, out, backend, workers, address)
        console.print(report, highlight=False)
        return
    write_study(out, members)
    console.print(escape(t("term.sim.study", n=len(members), out=str(out), names=", ".join(m.name for m in members))),
                  highlight=False)
    for m in members:
        run_one(console, t, m.name, m.config, out / m.name, backend, workers, address)
    console.print(report, highlight=False)
