"""``grimoire bench GAME``: speed of self-play, legal-action generation, apply and clone, on one core."""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from ..agents import make_agent
from ..core.episode import derive_seed, run_episode
from ..core.errors import GameConfigError
from ..core.record import replay
from ..core.registry import load_game, new_game
from ..core.state import GameState
from .common import (
    check_agent_names,
    check_output_path,
    check_player_count,
    parse_option_pairs,
    require_game,
    split_list,
)
from .i18n import translator
from .labels import agents_label, game_title
from .main import app
from .tables import PeopleTable

SAMPLE_AT = 150      # the mid-game position (after this many actions) whose clones are timed
CLONE_POOL = 50      # at most this many such positions (the first games')
CLONE_SECONDS = 1.0  # CPU time spent cloning them


def bench_games(game: str, players: int, games: int, seed: int, max_rounds: int | None, agents: list[str] | None,
                options: dict, progress=None, backend: str | None = None, label: str = "playing") -> dict:
    """Play ``games`` games; time everything the players do (legal actions + choice + apply), in CPU
    seconds of this process (so that other work on the machine does not count).

    Game ``g`` has the seed ``derive_seed(seed, g)`` and its seat ``i`` the agent seed
    ``derive_seed(seed, g, 2, i)`` (as in the arena); without ``agents`` every seat plays uniformly
    random legal actions (on an engine that can play them itself, ``play_random``, inside it: the
    same choices). ``backend``: the engine (new_game's backend); ``label``: the progress bar's."""
    actions = 0
    play_time = 0.0
    samples: list[GameState] = []
    per_game = []
    task = progress.add_task(label, total=games) if progress else None
    opts = dict(options)
    if max_rounds:
        opts["max_rounds"] = max_rounds
    names = agents or ["random"] * players
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
    # clones of mid-game states
    clones = 0
    pool = samples or [new_game(game, players, derive_seed(seed, 0), backend=backend, **options)]
    pool = [load_game(s.to_dict(), backend=backend) for s in pool]     # (replayed samples: on the engine)
    t0 = time.process_time()           # (after loading the pool: only the clones are timed)
    while time.process_time() - t0 < CLONE_SECONDS:
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
    tr = translator()
    info = require_game(game, tr)
    players = info.default_players if players is None else players
    check_player_count(info, players, tr)         # --players 0: one line, exit code 2
    if games < 1:
        raise GameConfigError(tr("term.err.games_min", value=games))
    if max_rounds < 0:
        raise GameConfigError(tr("term.err.max_rounds_min", value=max_rounds))
    agent_list = split_list(agents)
    check_agent_names(info.name, agent_list or [], t=tr)
    check_output_path(json_file, "--json", tr)
    if agent_list is not None and len(agent_list) != players:
        raise GameConfigError(tr("term.err.agents_game_players", n=len(agent_list), players=players))
    console = Console()
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, transient=True) as progress:
        try:
            r = bench_games(info.name, players, games, seed, max_rounds or None, agent_list, parse_option_pairs(option),
                            progress, backend=backend, label=escape(tr("term.bench.playing")))
        except GameConfigError as e:
            raise typer.BadParameter(str(e)) from None
    if json_file:
        Path(json_file).write_text(json.dumps(r, indent=1) + "\n", encoding="utf-8")
    who = tr("term.bench.agents", agents=agents_label(tr, agent_list, info.name)) if agent_list \
        else tr("term.bench.random_self_play")
    title = tr("term.bench.title_capped" if max_rounds else "term.bench.title", backend=r["backend"],
               title=game_title(tr, info.name, info.title), players=players, who=who, games=games, rounds=max_rounds)
    t = PeopleTable(title)
    t.column(tr("term.bench.col.measure"))
    t.column(tr("term.bench.col.value"), right=True)
    t.add_row(tr("term.bench.games_per_s"), f"{r['games_per_s']:,.2f}")
    t.add_row(tr("term.bench.actions_per_s"), f"{r['actions_per_s']:,.0f}")
    t.add_row(tr("term.bench.actions_per_game"), f"{r['actions_per_game']:,.0f}")
    t.add_row(tr("term.bench.ms_per_game"), f"{r['ms_per_game']:.3f}")
    t.add_row(tr("term.bench.clones_per_s"), f"{r['clones_per_s']:,.0f}")
    console.print(t)
