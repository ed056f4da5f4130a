"""``grimoire arena GAME``: agents against each other over many games, with win rates you can trust."""

from __future__ import annotations

import os
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn, TimeRemainingColumn

from ..agents.arena import run_arena, summarize, write_csv, write_json
from ..core.errors import GameConfigError
from ..core.registry import with_round_cap
from .common import (
    check_agent_names,
    check_output_path,
    check_player_count,
    parse_option_pairs,
    require_game,
    split_agents,
)
from .i18n import Translator, translator
from .labels import agent_label, agents_label, game_title, joined, role_label, stat_label
from .main import app
from .tables import PeopleTable


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
    tr = translator()
    info = require_game(game, tr)
    names = split_agents(agents) or []
    check_agent_names(info.name, names, t=tr)
    if players is None:
        players = len(names)
    if len(names) != players:
        raise GameConfigError(tr("term.err.agents_players", n=len(names), players=players))
    check_player_count(info, players, tr)
    if games < 1:
        raise GameConfigError(tr("term.err.games_min", value=games))
    if workers < 0:
        raise GameConfigError(tr("term.err.workers_min", value=workers))
    if workers == 0:
        workers = os.cpu_count() or 1
    check_output_path(csv_path, "--csv", tr)
    check_output_path(json_path, "--json", tr)
    opts = parse_option_pairs(option)
    if max_rounds is not None:
        opts["max_rounds"] = max_rounds
    console = Console()
    # random seats alone may never reach the rules' end (as in `grimoire play`): the game's round cap. Not
    # for other agents, whose ladders are run without a cap (a cap could change what they play for).
    if opts.get("max_rounds") is None and info.round_cap is not None and all(_name(n) == "random" for n in names):
        opts = with_round_cap(info, opts)
        console.print(escape(tr("term.round_cap", rounds=opts["max_rounds"])), highlight=False)
    config = {"game": game, "agents": names, "players": players, "games": games, "seed": seed,
              "workers": workers, "options": opts, "rotate_roles": not no_roles}
    title = game_title(tr, info.name, info.title)
    t0 = time.perf_counter()
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=console, transient=True) as progress:
        task = progress.add_task(escape(f"{title}: {agents_label(tr, names, info.name)}"), total=games)
        results = run_arena(info.name, names, games, seed, opts, workers,
                            on_result=lambda _r: progress.advance(task), rotate_roles=not no_roles)
    elapsed = time.perf_counter() - t0
    print_summary(console, tr, info.name, summarize(results), names,
                  tr("term.arena.title", title=title, players=players, games=games, seed=seed,
                     seconds=f"{elapsed:.0f}"))
    if games % players:
        console.print(f"[yellow]{escape(tr('term.arena.incomplete', games=games, players=players))}[/]")
    if csv_path is not None:
        write_csv(str(csv_path), results)
        console.print(escape(tr("term.arena.csv_written", path=str(csv_path))), highlight=False)
    if json_path is not None:
        write_json(str(json_path), config, results)
        console.print(escape(tr("term.arena.json_written", path=str(json_path))), highlight=False)


def print_summary(console: Console, tr: Translator, game: str, summary: dict, names: list[str], title: str) -> None:
    """The agents' table, the game means, the per-seat stats and the roles' win shares, in the language."""
    def col(key: str) -> str:
        return tr(f"term.arena.col.{key}")

    def agent(spec: str) -> str:
        return agent_label(tr, spec, game)

    t = PeopleTable(title)
    t.column(col("agent"))
    for key in ("seat_games", "win_rate", "ci95", "mean_score", "s_decision", "max_s"):
        t.column(col(key), right=True)
    for a in sorted(summary["agents"], key=lambda a: -a["win_rate"]):
        lo, hi = a["ci95"]
        t.add_row(agent(a["agent"]), str(a["seat_games"]), _pct(a["win_rate"]), f"{_pct(lo)} - {_pct(hi)}",
                  f"{a['mean_score']:.1f}", f"{a['mean_decision_seconds']:.3f}", f"{a['max_decision_seconds']:.2f}")
    console.print(t)
    means = summary["game_means"]
    parts = [tr("term.arena.length", rounds=f"{means['rounds']:.1f}", actions=f"{means['actions']:.0f}")
             if "rounds" in means else tr("term.arena.length_actions", actions=f"{means['actions']:.0f}")]
    parts += [f"{stat_label(tr, game, k)} {v:.2f}" for k, v in means.items()
              if k not in ("rounds", "actions", "winner_score")]          # (the winner's score follows)
    console.print(escape(joined(tr, parts) + tr("term.clause_sep")
                         + tr("term.arena.winner_score", score=f"{summary['winner_score_mean']:.1f}")), highlight=False)
    seat_keys = sorted({k for a in summary["agents"] for k in a.get("seat_stat_means", {})})
    if seat_keys:                # one row per stat, one column per agent: dozens of stats fit 80 columns
        st = PeopleTable(tr("term.arena.per_seat"))
        st.column(col("stat"))
        for a in summary["agents"]:
            st.column(agent(a["agent"]), right=True)
        for k in seat_keys:
            st.add_row(stat_label(tr, game, k), *(f"{a.get('seat_stat_means', {}).get(k, 0.0):.2f}"
                                                          for a in summary["agents"]))
        console.print(st)
    if summary["roles"]:
        several = len(set(names)) > 1
        r = PeopleTable(tr("term.arena.by_role"))
        r.column(col("role"))
        for key in ("seat_games", "win_rate", "ci95"):
            r.column(col(key), right=True)
        for name in dict.fromkeys(names) if several else ():
            r.column(agent(name), right=True)
        for role, row in summary["roles"].items():
            lo, hi = row["ci95"]
            cells = [role_label(tr, game, role), str(row["seat_games"]), _pct(row["win_rate"]),
                     f"{_pct(lo)} - {_pct(hi)}"]
            if several:
                cells += [_pct(row["by_agent"][n]["win_rate"]) if n in row["by_agent"] else "-"
                          for n in dict.fromkeys(names)]
            r.add_row(*cells)
        console.print(r)


def _name(spec: str) -> str:
    return spec.split(":", 1)[0].strip().lower()
