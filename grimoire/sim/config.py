"""What a simulation plays: the configuration, its batches, and the run's manifest (``run.json``).

A run is cut into batches of consecutive games (a few seconds of play each, never one game per
task). Game ``g`` is scheduled like game ``g`` of the arena (``grimoire.agents.arena.game_spec``),
so its deal, roles and agent seeds depend only on the run's seed and ``g``: never on the batch size,
the backend, the number of workers or the engine (a game's engines play move for move alike).

The engine (``python``, ``native`` where the game has one and it is built, or ``auto``) is the game's
implementation the games run on (``new_game(..., backend=...)``); it is resolved to a concrete one
when a run starts and stored in the manifest, and a resumed run keeps it.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ..agents import make_agent, parse_agent
from ..core.errors import GameConfigError
from ..core.registry import backends, game_info, new_game

MANIFEST = "run.json"
FORMAT = 1
# the fields that define the rows: a re-run into the same directory must agree on all of them
IDENTITY = ("game", "players", "agents", "games", "seed", "options", "rotate_roles", "batch_size")


@dataclass(frozen=True)
class SimConfig:
    game: str
    players: int
    agents: tuple[str, ...]            # one agent name per seat (rotated through the seats per block)
    games: int
    seed: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    rotate_roles: bool = True          # the game's roles (e.g. characters) rotate through the seats
    batch_size: int = 0                # games per batch; 0 = chosen from a timed game (a few seconds)
    engine: str = "python"             # the game's engine; "auto" until a run resolves it
    extended_from: tuple[int, ...] = ()   # the earlier game counts of a run that was extended

    def _segments(self) -> list[tuple[int, int]]:
        """Games [lo, hi) played as one series of batches: the first run, then each extension (a batch
        never spans an extension, so the batches finished before it keep their numbers and games)."""
        bounds = [0, *self.extended_from, self.games]
        return [(lo, hi) for lo, hi in zip(bounds, bounds[1:], strict=False) if hi > lo]

    @property
    def batches(self) -> int:
        return sum(-(-(hi - lo) // self.batch_size) for lo, hi in self._segments())

    def batch_range(self, b: int) -> range:
        for lo, hi in self._segments():
            n = -(-(hi - lo) // self.batch_size)
            if b < n:
                return range(lo + b * self.batch_size, min(hi, lo + (b + 1) * self.batch_size))
            b -= n
        return range(0)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["agents"] = list(self.agents)
        d["extended_from"] = list(self.extended_from)
        return d

    @staticmethod
    def from_dict(d: dict[str, Any]) -> SimConfig:
        return SimConfig(game=d["game"], players=int(d["players"]), agents=tuple(d["agents"]), games=int(d["games"]),
                         seed=int(d["seed"]), options=dict(d.get("options") or {}),
                         rotate_roles=bool(d.get("rotate_roles", True)), batch_size=int(d.get("batch_size", 0)),
                         # runs stored before engines existed played on the Python engine
                         engine=str(d.get("engine", "python")),
                         extended_from=tuple(int(x) for x in d.get("extended_from") or ()))


def resolve_engine(game: str, engine: str, agents: tuple[str, ...] | list[str] = ()) -> str:
    """The concrete engine ``engine`` names for ``game`` here; one clear line when it cannot run.
    ``auto`` is the first compiled engine built here on which every one of ``agents`` decides at full
    speed (``Agent.fast_on``), else Python: an agent that reads a compiled state through the Python
    view (Zavandor's ``naive``) plays several times slower there."""
    info = game_info(game)
    built = backends(game)
    if engine == "auto":
        made = [make_agent(game, a, 0) for a in dict.fromkeys(agents)]
        return next((b for b in built if b != "python" and info.backends[b].auto and all(m.fast_on(b) for m in made)),
                    "python")
    if engine in built:
        return engine
    if engine in info.backends:
        raise GameConfigError(f"the {engine} engine of {info.title} is not built here (reinstall with cargo on the "
                              f"PATH, see docs/native.md); use --engine python or auto", key="term.err.engine_rebuild",
                              params={"game": info.title, "engine": engine})
    raise GameConfigError(f"{info.title} has no {engine!r} engine; choose from {', '.join([*built, 'auto'])}",
                          key="term.err.engine_unknown",
                          params={"game": info.title, "engine": engine, "engines": ", ".join([*built, "auto"])})


def make_config(game: str, players: int | None, agents: list[str], games: int, seed: int = 1,
                options: dict[str, Any] | None = None, rotate_roles: bool = True, batch_size: int = 0,
                engine: str = "auto") -> SimConfig:
    """A checked configuration: ``agents`` is one name for every seat or one per seat; ``engine`` is
    kept as asked ("auto" included) until the run resolves it (``check_resume`` / ``runner.prepare``)."""
    info = game_info(game)
    if not agents:
        raise GameConfigError("--agents needs at least one agent name", key="term.err.sim.no_agents")
    if players is None:
        players = len(agents) if len(agents) > 1 else info.default_players
    if len(agents) == 1:
        agents = agents * players
    if len(agents) != players:
        raise GameConfigError(f"{len(agents)} agents for {players} players: give one name, or one per seat",
                              key="term.err.sim.agents_players", params={"n": len(agents), "players": players})
    if games < 1:
        raise GameConfigError("a simulation needs at least one game", key="term.err.sim.no_games")
    if batch_size < 0:
        raise GameConfigError("the batch size is a positive number of games (0 = automatic)",
                              key="term.err.sim.batch_size")
    labels = {}
    for name in dict.fromkeys(agents):
        aspec = parse_agent(game, name)     # an unknown name or parameter fails here, in one line
        if aspec.name == "human":
            raise GameConfigError("a simulation has no human seats", key="term.err.sim.human")
        labels[name] = aspec.label
    agents = [labels[a] for a in agents]    # one canonical text per agent (the rows' `agent` column)
    concrete = resolve_engine(game, engine, agents)  # an unknown or unbuilt engine fails here
    opts = dict(options or {})
    cfg = SimConfig(game, players, tuple(agents), games, seed, opts, rotate_roles, batch_size, engine)
    from .play import spec_of
    spec = spec_of(cfg, 0)
    new_game(game, players, spec.seed, backend=concrete, **spec.options)   # bad options or player counts fail here
    return cfg


def read_manifest(out: Path) -> dict[str, Any] | None:
    path = out / MANIFEST
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise GameConfigError(f"{path} is damaged ({e}); remove it or choose another --out", key="term.err.run_damaged",
                              params={"path": str(path), "reason": str(e)}) from None


def source_commit() -> str:
    """The git commit of this package's source (``+dirty`` with uncommitted changes), or "unknown"
    (an installed wheel has no repository)."""
    import subprocess
    here = Path(__file__).resolve().parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=10)
        if head.returncode:
            return "unknown"
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "."],
                               cwd=here.parent, capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head.stdout.strip() + ("+dirty" if dirty else "")


def provenance(cfg: SimConfig) -> dict[str, Any]:
    """Where a run's rows came from: the source commit, the engine's build, the agents' parameters."""
    import platform
    info = game_info(cfg.game)
    eng = info.backends.get(cfg.engine)
    build = eng.build_id() if eng is not None and eng.build_id is not None and eng.available() else None
    agents = {a: (lambda s: {"name": s.name, "params": s.params})(parse_agent(cfg.game, a))
              for a in dict.fromkeys(cfg.agents)}
    return {"commit": source_commit(), "engine_build": build, "python": platform.python_version(),
            "host": platform.node(), "agents": agents}


def write_manifest(out: Path, cfg: SimConfig, extra: dict[str, Any] | None = None) -> None:
    from importlib.metadata import PackageNotFoundError, version
    try:
        grimoire_version = version("grimoire")
    except PackageNotFoundError:
        grimoire_version = "unknown"
    d = {"format": FORMAT, "grimoire": grimoire_version, "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
         "provenance": provenance(cfg), **cfg.to_dict(), **(extra or {})}
    tmp = out / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(d, indent=1, sort_keys=True), encoding="utf-8")
    tmp.replace(out / MANIFEST)


def check_resume(stored: dict[str, Any], cfg: SimConfig) -> SimConfig:
    """The stored configuration when ``cfg`` asks for the same run (its batch size is taken from the
    manifest unless one was given, its engine unless another concrete one was asked for); a clear
    error when a field differs or the run's engine is not built here."""
    want = cfg.to_dict()
    if not cfg.batch_size:
        want["batch_size"] = stored.get("batch_size")
    diff = [k for k in IDENTITY if json.dumps(stored.get(k), sort_keys=True) != json.dumps(want.get(k), sort_keys=True)]
    if diff == ["games"] and int(want["games"]) < int(stored["games"]):
        raise GameConfigError(f"the run in this directory has {stored['games']} games; --games can extend it "
                              f"(a larger number), not shorten it", key="term.err.sim.shorten",
                              params={"games": stored["games"]})
    extend = diff == ["games"]      # the same run with more games: the new ones are appended
    if extend:
        diff = []
    if diff:
        detail = "; ".join(f"{k}: {stored.get(k)!r} there, {want.get(k)!r} now" for k in diff)
        raise GameConfigError(f"the output directory holds another run ({detail}); choose another --out",
                              key="term.err.sim.other_run", params={"detail": detail})
    run = SimConfig.from_dict(stored)
    if extend:
        run = replace(run, games=cfg.games, extended_from=(*run.extended_from, run.games))
    if cfg.engine not in ("auto", run.engine):
        raise GameConfigError(f"the run in this directory plays on the {run.engine} engine; resume it with "
                              f"--engine {run.engine} (or auto), or choose another --out",
                              key="term.err.sim.engine", params={"engine": run.engine})
    resolve_engine(run.game, run.engine)
    return run
