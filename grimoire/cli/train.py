"""``grimoire train GAME``: train a network for the ``expert`` level by self-play (grimoire.learn)."""

from __future__ import annotations

import shlex
import signal
import sys
import time
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import TaskID

from ..core.errors import GameConfigError
from .common import check_player_count, parse_option_pairs, require_game
from .i18n import Translator, translator
from .main import app
from .simulate import LOG_SECONDS, RateColumn, _interrupt, progress_bar, short


def _ints(text: str, option: str, t: Translator) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise GameConfigError(t("term.err.int_list", option=option, text=text)) from None


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def log_line(t: Translator, event: str, params: dict[str, Any], players: int) -> str:
    """A line of the training run (learn.pipeline's events) in the reader's words."""
    if event == "trained":
        return t("term.train.trained", generation=params["generation"], positions=params["positions"],
                 value_loss=f"{params['value_loss']:.4f}", policy_loss=f"{params['policy_loss']:.4f}")
    if event == "gate":
        verdict = t("term.train.accepted" if params["accepted"] else "term.train.rejected")
        if not params["games"]:
            return t("term.train.gate_free", generation=params["generation"])
        if "candidate_share" in params:
            return t("term.train.gate_share", generation=params["generation"], games=params["games"],
                     share=_pct(params["candidate_share"]), par=_pct(1 / players), verdict=verdict)
        return t("term.train.gate_score", generation=params["generation"], games=params["games"],
                 candidate=f"{params['candidate']:.2f}", best=f"{params['best']:.2f}", verdict=verdict)
    return t(f"term.train.{event}", **params)


@app.command("train")
def train_command(
    game: str | None = typer.Argument(None),
    players: int = typer.Option(None, "--players", "-p"),
    games: int = typer.Option(40, "--games", "-n"),
    generations: int = typer.Option(2, "--generations", "-g"),
    seed: int = typer.Option(0, "--seed"),
    option: list[str] = typer.Option([], "--option", "-o"),
    out: Path = typer.Option(..., "--out"),
    teacher: str = typer.Option("medium", "--teacher"),
    hidden: str = typer.Option("128,64", "--hidden"),
    simulations: int = typer.Option(32, "--simulations"),
    gate_games: int = typer.Option(8, "--gate-games"),
    epochs: int = typer.Option(4, "--epochs"),
    window: int = typer.Option(2, "--window"),
    trainer: str = typer.Option("auto", "--trainer"),
    backend: str = typer.Option("local", "--backend"),
    address: str = typer.Option(None, "--address"),
    workers: int = typer.Option(1, "--workers", "-w"),
) -> None:
    """Train a network for the expert level (resumable: rerun the same command).

    Generation 0 imitates a teacher level, later generations play the network-guided search against
    itself; each network must beat the best so far to replace it."""
    from ..learn.pipeline import Run, TrainConfig, torch_available

    t = translator()
    info = require_game(game, t)
    check_player_count(info, players, t)
    recorded = out / "run.json"
    if trainer == "auto" and recorded.is_file():         # a resumed run keeps its trainer
        import json
        try:
            trainer = str(json.loads(recorded.read_text()).get("trainer", "auto"))
        except (OSError, ValueError):
            pass
    if trainer == "auto":
        trainer = "torch" if torch_available() else "numpy"
    if workers < 1:
        raise GameConfigError(t("term.err.workers_one", value=workers))
    cfg = TrainConfig(game=info.name, players=players or info.default_players, out=str(out), games=games,
                      generations=generations, seed=seed, options=parse_option_pairs(option), teacher=teacher,
                      hidden=_ints(hidden, "--hidden", t), simulations=simulations, gate_games=gate_games,
                      window=window, epochs=epochs, trainer=trainer, backend=backend, workers=workers,
                      address=address, command="grimoire train " + shlex.join(sys.argv[2:]))
    console = Console()
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    with progress_bar(console, t) as progress:
        tasks: dict[str, TaskID] = {}
        last_log = [time.perf_counter()]

        def on_progress(phase: str, generation: int, done: int, total: int) -> None:
            label = t(f"term.train.phase.{phase}", g=generation)
            if label not in tasks:
                tasks[label] = progress.add_task(short(label), total=total, completed=done, before=done,
                                                 t0=time.perf_counter())
            progress.update(tasks[label], completed=done, total=total)
            now = time.perf_counter()
            if not console.is_terminal and (now - last_log[0] >= LOG_SECONDS or done == total):
                last_log[0] = now
                task = progress.tasks[tasks[label]]
                console.print(escape(t("term.train.log_line", label=label, done=done, total=total,
                                       rate=RateColumn(t).render(task).plain)), highlight=False)

        def on_log(event: str, params: dict[str, Any]) -> None:
            progress.console.print(escape(log_line(t, event, params, cfg.players)), highlight=False)

        best = Run(cfg, on_progress, on_log).run()
    console.print(escape(t("term.train.best", path=str(best))), highlight=False)
