"""``grimoire bench GAME``: speed of self-play, legal-action generation, apply and clone, on one core."""

from __future__ import annotations

import time

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from ..agents import make_agent
from ..core.registry import game_info, new_game
from ..core.rng import Rng
from .common import parse_option_pairs, split_list
from .main import app


def bench_games(game: str, players: int, games: int, seed: int, max_rounds: int | None, agents: list[str] | None,
                options: dict, progress=None) -> dict:
    """Play ``games`` games; time everything the players do (legal actions + choice + apply)."""
    actions = 0
    play_time = 0.0
    samples = []
    task = progress.add_task("playing", total=games) if progress else None
    for g in range(games):
        opts = dict(options)
        if max_rounds:
            opts["max_rounds"] = max_rounds
        state = new_game(game, players, seed + g, **opts)
        if agents:
            ags = [make_agent(game, name, (seed + g) * 31 + i) for i, name in enumerate(agents)]
        rng = Rng(seed + g)
        t0 = time.perf_counter()
        n = 0
        while not state.is_terminal():
            if agents:
                cp = state.current_player
                state.apply(ags[cp].choose(state, cp))
            else:
                acts = state.legal_actions()
                state.apply(acts[rng.below(len(acts))])
            n += 1
            if n == 150:
                samples.append(state.clone())
        play_time += time.perf_counter() - t0
        actions += n
        if progress:
            progress.advance(task)
    # clones of mid-game states
    clones = 0
    t0 = time.perf_counter()
    pool = samples or [new_game(game, players, seed, **options)]
    while time.perf_counter() - t0 < 1.0:
        for s in pool:
            for _ in range(100):
                s.clone()
            clones += 100
    clone_time = time.perf_counter() - t0
    return {"games": games, "actions": actions, "seconds": play_time,
            "games_per_s": games / play_time if play_time else 0.0,
            "actions_per_s": actions / play_time if play_time else 0.0,
            "actions_per_game": actions / games if games else 0.0,
            "clones_per_s": clones / clone_time}


@app.command("bench")
def bench_command(
    game: str = typer.Argument("zavandor"),
    players: int = typer.Option(None, "--players", "-p"),
    games: int = typer.Option(200, "--games", "-n", help="games to play"),
    seed: int = typer.Option(1, "--seed"),
    max_rounds: int = typer.Option(20, "--max-rounds", help="end each game after this round (0 = rules only)"),
    agents: str = typer.Option(None, "--agents", help="agents per seat (default: uniformly random actions)"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option key=value"),
) -> None:
    """Benchmark random self-play (or given agents): games/s, actions/s, clones/s on one core."""
    info = game_info(game)
    players = players or info.default_players
    agent_list = split_list(agents)
    if agent_list is not None and len(agent_list) != players:
        raise typer.BadParameter(f"--agents needs {players} names")
    console = Console()
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, transient=True) as progress:
        r = bench_games(game, players, games, seed, max_rounds or None, agent_list, parse_option_pairs(option),
                        progress)
    t = Table(title=f"{info.title}: {players} players, {'agents ' + agents if agents else 'random self-play'}, "
                    f"{games} games" + (f", max {max_rounds} rounds" if max_rounds else ""))
    t.add_column("measure")
    t.add_column("value", justify="right")
    t.add_row("games/s", f"{r['games_per_s']:,.2f}")
    t.add_row("actions/s (legal actions + apply)", f"{r['actions_per_s']:,.0f}")
    t.add_row("actions per game", f"{r['actions_per_game']:,.0f}")
    t.add_row("seconds per game", f"{r['seconds'] / max(1, games):.4f}")
    t.add_row("clones/s", f"{r['clones_per_s']:,.0f}")
    console.print(t)
