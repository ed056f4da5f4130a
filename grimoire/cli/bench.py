"""``grimoire bench GAME``: speed of self-play, legal-action generation, apply and clone, on one core."""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from ..agents import make_agent
from ..core.episode import derive_seed, run_episode
from ..core.errors import GameConfigError
from ..core.record import replay
from ..core.registry import check_players, engine_of, load_game, new_game
from .common import check_agent_names, check_output_path, parse_option_pairs, require_game, split_list
from .main import app

SAMPLE_AT = 150      # the mid-game position (after this many actions) whose clones are timed
CLONE_POOL = 50      # at most this many such positions (the first games')


def bench_games(game: str, players: int, games: int, seed: int, max_rounds: int | None, agents: list[str] | None,
                options: dict, progress=None, backend: str | None = None) -> dict:
    """Play ``games`` games; time everything the players do (legal actions + choice + apply), in CPU
    seconds of this process (so that other work on the machine does not count).

    Game ``g`` has the seed ``derive_seed(seed, g)`` and its seat ``i`` the agent seed
    ``derive_seed(seed, g, 2, i)`` (as in the arena); without ``agents`` every seat plays uniformly
    random legal actions (on an engine that can play them itself, ``play_random``, inside it: the
    same choices). ``backend``: the engine (new_game's backend)."""
    actions = 0
    play_time = 0.0
    samples = []
    per_game = []
    task = progress.add_task("playing", total=games) if progress else None
    opts = dict(options)
    if max_rounds:
        opts["max_rounds"] = max_rounds
    names = agents or ["random"] * players
    eng = engine_of(game, backend)
    count = eng.counters if eng is not None and eng.counters is not None else dict
    counted = count()
    for g in range(games):
        state = new_game(game, players, derive_seed(seed, g), backend=backend, **opts)
        seat_seeds = [derive_seed(seed, g, 2, i) for i in range(players)]   # (setup, like the state: untimed)
        if agents is None and hasattr(state, "play_random"):
            t0 = time.process_time()     # CPU time of this process: one core, whatever else the machine runs
            n = state.play_random(seat_seeds)
            play_time += time.process_time() - t0
        else:
            ags = [make_agent(game, name, seat_seeds[i]) for i, name in enumerate(names)]
            t0 = time.process_time()
            n = run_episode(state, ags, timed=False).actions
            play_time += time.process_time() - t0
        actions += n
        if n > SAMPLE_AT and len(samples) < CLONE_POOL:      # (replayed from the record: untimed)
            samples.append(replay(state.record(), upto=SAMPLE_AT))
        per_game.append({"seed": state.seed, "scores": state.scores(), "actions": state._hist_len})
        if progress:
            progress.advance(task)
    # what the engine counted while playing (e.g. actions it handed to the Python engine)
    counted = {k: v - counted.get(k, 0) for k, v in count().items() if v != counted.get(k, 0)}
    # clones of mid-game states
    clones = 0
    pool = samples or [new_game(game, players, derive_seed(seed, 0), backend=backend, **options)]
    pool = [load_game(s.to_dict(), backend=backend) for s in pool]     # (replayed samples: on the engine)
    t0 = time.process_time()           # (after loading the pool: only the clones are timed)
    while time.process_time() - t0 < 1.0:
        for s in pool:
            for _ in range(100):
                s.clone()
            clones += 100
    clone_time = time.process_time() - t0
    return {"game": game, "players": players, "backend": pool[0].backend, "agents": names, "max_rounds": max_rounds,
            "seed": seed, "actions": actions, "seconds": play_time,
            "games_per_s": games / play_time if play_time else 0.0,
            "actions_per_s": actions / play_time if play_time else 0.0,
            "actions_per_game": actions / games if games else 0.0,
            "ms_per_game": 1000 * play_time / games if games else 0.0,
            "clones_per_s": clones / clone_time,
            "counters": counted,
            "games": per_game}


@app.command("bench")
def bench_command(
    game: str | None = typer.Argument(None),
    players: int = typer.Option(None, "--players", "-p"),
    games: int = typer.Option(200, "--games", "-n"),
    seed: int = typer.Option(1, "--seed"),
    max_rounds: int = typer.Option(20, "--max-rounds"),
    agents: str = typer.Option(None, "--agents"),
    option: list[str] = typer.Option([], "--option", "-o"),
    backend: str = typer.Option("python", "--backend"),
    json_file: str = typer.Option(None, "--json"),
) -> None:
    """Benchmark random self-play (or given agents): games/s, actions/s, clones/s on one core."""
    info = require_game(game)
    players = info.default_players if players is None else players
    check_players(info, players)                  # --players 0: one line, exit code 2
    if games < 1:
        raise GameConfigError(f"--games must be at least 1, not {games}")
    if max_rounds < 0:
        raise GameConfigError(f"--max-rounds must be 0 (the rules only) or more, not {max_rounds}")
    agent_list = split_list(agents)
    check_agent_names(info.name, agent_list or [])
    check_output_path(json_file, "--json")
    if agent_list is not None and len(agent_list) != players:
        raise GameConfigError(f"--agents names {len(agent_list)} seats but the game has {players} players")
    console = Console()
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, transient=True) as progress:
        try:
            r = bench_games(game, players, games, seed, max_rounds or None, agent_list, parse_option_pairs(option),
                            progress, backend=backend)
        except GameConfigError as e:
            raise typer.BadParameter(str(e)) from None
    if json_file:
        Path(json_file).write_text(json.dumps(r, indent=1) + "\n", encoding="utf-8")
    t = Table(title=f"{info.title} ({r['backend']}): {players} players, "
                    f"{'agents ' + agents if agents else 'random self-play'}, "
                    f"{games} games" + (f", max {max_rounds} rounds" if max_rounds else ""))
    t.add_column("measure")
    t.add_column("value", justify="right")
    t.add_row("games/s", f"{r['games_per_s']:,.2f}")
    t.add_row("actions/s (legal actions + apply)", f"{r['actions_per_s']:,.0f}")
    t.add_row("actions per game", f"{r['actions_per_game']:,.0f}")
    t.add_row("ms per game", f"{r['ms_per_game']:.3f}")
    t.add_row("clones/s", f"{r['clones_per_s']:,.0f}")
    fallbacks = r["counters"].get("fallbacks")
    if fallbacks is not None:       # an engine that plays some actions on the Python one (not ported yet)
        t.add_row("actions played on the Python engine", f"{fallbacks:,} ({fallbacks / max(r['actions'], 1):.2%})")
    console.print(t)
