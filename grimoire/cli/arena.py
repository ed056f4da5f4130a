"""``grimoire arena GAME``: agents against each other over many games, with win rates you can trust."""

from __future__ import annotations

import os
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..agents.arena import run_arena, summarize, write_csv, write_json
from ..core.errors import GameConfigError
from ..core.registry import with_round_cap
from .common import check_agent_names, check_output_path, parse_option_pairs, require_game, split_agents
from .i18n import translator
from .main import app


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


@app.command("arena")
def arena_command(
    game: str | None = typer.Argument(None),
    agents: str = typer.Option(..., "--agents"),
    games: int = typer.Option(100, "--games", "-n"),
    players: int = typer.Option(None, "--players", "-p"),
    seed: int = typer.Option(1, "--seed"),
    workers: int = typer.Option(1, "--workers", "-w"),
    max_rounds: int = typer.Option(None, "--max-rounds"),
    option: list[str] = typer.Option([], "--option", "-o"),
    csv_path: Path = typer.Option(None, "--csv"),
    json_path: Path = typer.Option(None, "--json"),
    no_roles: bool = typer.Option(False, "--no-rotate-roles"),
) -> None:
    """Pit agents against each other: win rates with 95% intervals, scores, decision times.

    Seats (and roles, e.g. characters) rotate fairly; results go to CSV/JSON."""
    info = require_game(game)
    names = split_agents(agents) or []
    check_agent_names(info.name, names)
    if players is None:
        players = len(names)
    if len(names) != players:
        raise GameConfigError(f"--agents names {len(names)} seats but --players is {players}; give one agent per seat")
    if games < 1:
        raise GameConfigError("--games must be at least 1")
    if workers < 0:
        raise GameConfigError("--workers must be 0 (one per CPU) or more")
    if workers == 0:
        workers = os.cpu_count() or 1
    check_output_path(csv_path, "--csv")
    check_output_path(json_path, "--json")
    opts = parse_option_pairs(option)
    if max_rounds is not None:
        opts["max_rounds"] = max_rounds
    console = Console()
    # random seats alone may never reach the rules' end (as in `grimoire play`): the game's round cap. Not
    # for other agents, whose ladders are run without a cap (a cap could change what they play for).
    if opts.get("max_rounds") is None and info.round_cap is not None and all(_name(n) == "random" for n in names):
        opts = with_round_cap(info, opts)
        console.print(escape(translator()("term.round_cap", rounds=opts["max_rounds"])), highlight=False)
    config = {"game": game, "agents": names, "players": players, "games": games, "seed": seed,
              "workers": workers, "options": opts, "rotate_roles": not no_roles}
    t0 = time.perf_counter()
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=console, transient=True) as progress:
        task = progress.add_task(f"{info.title}: {','.join(names)}", total=games)
        results = run_arena(game, names, games, seed, opts, workers,
                            on_result=lambda _r: progress.advance(task), rotate_roles=not no_roles)
    elapsed = time.perf_counter() - t0
    summary = summarize(results)
    t = Table(title=f"{info.title}, {players} players, {games} games, seed {seed} ({elapsed:.0f} s)")
    for col, just in (("agent", "left"), ("seat-games", "right"), ("win rate", "right"), ("95% CI", "right"),
                      ("mean score", "right"), ("s/decision", "right"), ("max s", "right")):
        t.add_column(col, justify=just)
    for a in sorted(summary["agents"], key=lambda a: -a["win_rate"]):
        lo, hi = a["ci95"]
        t.add_row(a["agent"], str(a["seat_games"]), _pct(a["win_rate"]), f"{_pct(lo)} - {_pct(hi)}",
                  f"{a['mean_score']:.1f}", f"{a['mean_decision_seconds']:.3f}", f"{a['max_decision_seconds']:.2f}")
    console.print(t)
    means = summary["game_means"]
    parts = [f"mean game length: {means['rounds']:.1f} rounds" if "rounds" in means else "mean game length:",
             f"{means['actions']:.0f} actions"]
    parts += [f"{k.replace('_', ' ')} {v:.2f}" for k, v in means.items()
              if k not in ("rounds", "actions", "winner_score")]          # (the winner's score follows)
    console.print(", ".join(parts[:2]) + "".join(", " + p for p in parts[2:])
                  + f"; winner's score {summary['winner_score_mean']:.1f}")
    seat_keys = sorted({k for a in summary["agents"] for k in a.get("seat_stat_means", {})})
    if seat_keys:                # one row per stat, one column per agent: dozens of stats fit 80 columns
        st = Table(title="per seat (mean per seat-game)")
        st.add_column("stat")
        for a in summary["agents"]:
            st.add_column(a["agent"], justify="right")
        for k in seat_keys:
            st.add_row(k.replace("_", " "), *(f"{a.get('seat_stat_means', {}).get(k, 0.0):.2f}"
                                              for a in summary["agents"]))
        console.print(st)
    if summary["roles"]:
        r = Table(title="win share by role (all agents; par = 1 / players)")
        r.add_column("role")
        r.add_column("seat-games", justify="right")
        r.add_column("win rate", justify="right")
        r.add_column("95% CI", justify="right")
        if len(set(names)) > 1:
            for name in dict.fromkeys(names):
                r.add_column(name, justify="right")
        for role, row in summary["roles"].items():
            lo, hi = row["ci95"]
            cells = [role, str(row["seat_games"]), _pct(row["win_rate"]), f"{_pct(lo)} - {_pct(hi)}"]
            if len(set(names)) > 1:
                cells += [_pct(row["by_agent"][n]["win_rate"]) if n in row["by_agent"] else "-"
                          for n in dict.fromkeys(names)]
            r.add_row(*cells)
        console.print(r)
    if games % players:
        console.print(f"[yellow]note:[/] {games} games is not a multiple of {players}: the last rotation is "
                      "incomplete, so seats and roles are not perfectly balanced")
    if csv_path is not None:
        write_csv(str(csv_path), results)
        console.print(f"per-game results: {escape(str(csv_path))}")
    if json_path is not None:
        write_json(str(json_path), config, results)
        console.print(f"summary and games: {escape(str(json_path))}")


def _name(spec: str) -> str:
    return spec.split(":", 1)[0].strip().lower()
