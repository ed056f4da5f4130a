"""Expert Iteration for any game with an observation tensor and action ids.

Generation 0 imitates a teacher (a level of the game: its moves are the policy targets); every later
generation plays with the ``expert`` search guided by the best network so far (the search's visit
distribution is the policy target). The value target is the seat's final result. Each generation
trains the best network further on the positions of the last ``window`` generations and keeps the
result only if it does at least as well as the best network in gate games (generation 0 is kept).

The run folder (``--out``) holds everything, so that a run stopped at any moment (Ctrl-C, SIGKILL)
continues where it stopped and ends with the same networks as an uninterrupted run:

    run.json                the configuration (a rerun must match it; more generations extend the run)
    gen-000/games-00000.npz positions of each job of games (written atomically)
    gen-000/net.npz         the network trained in the generation
    gen-000/gate.json       its gate result and whether it became the best
    best.npz                the best network (what ``expert`` ships)
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..agents import net as netmod
from ..agents import parse_agent
from ..core.episode import derive_seed
from ..core.errors import GameConfigError
from ..core.registry import game_info
from .samples import Samples, read_shard, write_shard
from .selfplay import gate_game, play_games
from .trainer import TrainParams, losses, train

# what a rerun may change without starting over (the rest must match run.json)
EXTENSIBLE = ("generations", "workers", "backend", "address", "command")


@dataclass
class TrainConfig:
    game: str
    players: int
    out: str
    games: int = 40
    generations: int = 2
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    teacher: str = "medium"
    hidden: list[int] = field(default_factory=lambda: [128, 64])
    simulations: int = 32
    c: float = 1.5
    noise: float = 0.25
    explore: int = 4
    gate_games: int = 8
    window: int = 2
    chunk: int = 2
    epochs: int = 4
    batch: int = 256
    lr: float = 1e-3
    trainer: str = "numpy"
    backend: str = "local"
    workers: int = 1
    address: str | None = None
    command: str = ""

    def key(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if k not in EXTENSIBLE}


def check(cfg: TrainConfig) -> None:
    """Every error a run can see before it starts: one line each (GameConfigError)."""
    info = game_info(cfg.game)
    cfg.options = info.validate(cfg.players, dict(cfg.options))
    if info.codec is None or info.tensor is None:
        raise GameConfigError(f"{info.title} declares no action ids or observation tensor: it cannot be trained")
    parse_agent(cfg.game, cfg.teacher)
    for name in ("games", "generations", "chunk", "epochs", "batch"):
        if getattr(cfg, name) < 1:
            raise GameConfigError(f"--{name} must be at least 1, not {getattr(cfg, name)}", key="term.err.train.min_1",
                                  params={"option": f"--{name}", "value": getattr(cfg, name)})
    for name in ("simulations", "gate_games", "explore"):
        if getattr(cfg, name) < 0:
            raise GameConfigError(f"--{name.replace('_', '-')} must be 0 or more, not {getattr(cfg, name)}",
                                  key="term.err.train.min_0",
                                  params={"option": f"--{name.replace('_', '-')}", "value": getattr(cfg, name)})
    if not cfg.hidden or any(h < 1 for h in cfg.hidden):
        raise GameConfigError("--hidden needs one or more layer widths of at least 1, e.g. 128,64",
                              key="term.err.train.hidden")
    if cfg.trainer not in ("numpy", "torch"):
        raise GameConfigError(f"--trainer must be numpy or torch, not {cfg.trainer!r}", key="term.err.train.trainer",
                              params={"value": cfg.trainer})
    if cfg.trainer == "torch" and not torch_available():
        raise GameConfigError("PyTorch is not installed: pip install -e '.[train]', or use --trainer numpy",
                              key="term.err.train.no_torch")
    if cfg.backend not in ("local", "ray"):
        raise GameConfigError(f"unknown backend {cfg.backend!r}; choose from: local, ray",
                              key="term.err.unknown_backend", params={"backend": cfg.backend, "backends": "local, ray"})
    if cfg.backend == "ray":
        from ..sim.backends import ray_available
        why = ray_available()
        if why:
            raise GameConfigError(why)
    out = Path(cfg.out)
    if out.exists() and not out.is_dir():
        raise GameConfigError(f"--out {out} is a file; give a directory for the run (new, or a run to resume)",
                              key="term.err.out_is_file", params={"out": str(out)})
    if out.is_dir() and any(out.iterdir()) and not (out / "run.json").exists():
        raise GameConfigError(f"--out {out} is a folder of something else (no run.json); give a new one",
                              key="term.err.train.foreign_out", params={"out": str(out)})
    if (out / "run.json").exists():
        old = json.loads((out / "run.json").read_text())
        now = json.loads(json.dumps(cfg.key()))
        diff = sorted(k for k in set(old) | set(now) if k not in EXTENSIBLE and old.get(k) != now.get(k))
        if diff:
            raise GameConfigError(f"--out {out} holds a run with other settings ({', '.join(diff)}); "
                                  "give the same settings to resume it, or a new folder",
                                  key="term.err.train.other_run", params={"out": str(out), "settings": ", ".join(diff)})
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise GameConfigError(f"--out {out} cannot be written: {e.strerror or e}") from None


def torch_available() -> bool:
    import importlib.util
    return importlib.util.find_spec("torch") is not None


Progress = Callable[[str, int, int, int], None]   # (phase: games, training or gate; generation, done, total)
Log = Callable[[str, dict[str, Any]], None]        # (event, its numbers): put into words by the interface


class Run:
    def __init__(self, cfg: TrainConfig, progress: Progress | None = None, log: Log | None = None):
        check(cfg)
        self.cfg = cfg
        self.out = Path(cfg.out)
        self.info = game_info(cfg.game)
        self.progress = progress or (lambda *_: None)
        self.log = log or (lambda _event, _params: None)
        (self.out / "run.json").write_text(json.dumps(asdict(cfg), indent=1, sort_keys=True))

    def gen_dir(self, g: int) -> Path:
        return self.out / f"gen-{g:03d}"

    # --- the jobs ---------------------------------------------------------------------------------
    def _jobs(self, fn, job_cfg: dict[str, Any], jobs: list[int]) -> Iterator[dict[str, Any]]:
        from ..sim.backends import run_local, run_ray
        if self.cfg.backend == "ray":
            return run_ray(job_cfg, jobs, self.cfg.workers, self.cfg.address, fn=fn)
        return run_local(job_cfg, jobs, self.cfg.workers, fn=fn)

    def _job_cfg(self, g: int, net: bytes | None, **extra: Any) -> dict[str, Any]:
        c = self.cfg
        return {"game": c.game, "players": c.players, "options": c.options, "seed": c.seed, "generation": g,
                "games": c.games, "chunk": c.chunk, "teacher": c.teacher, "simulations": c.simulations, "c": c.c,
                "noise": c.noise, "explore": c.explore, "net": net, **extra}

    def selfplay(self, g: int, best: bytes | None) -> None:
        d = self.gen_dir(g)
        d.mkdir(exist_ok=True)
        n_jobs = -(-self.cfg.games // self.cfg.chunk)
        todo = [j for j in range(n_jobs) if not (d / f"games-{j:05d}.npz").exists()]
        done = (n_jobs - len(todo))
        self.progress("games", g, min(done * self.cfg.chunk, self.cfg.games), self.cfg.games)
        games = min(done * self.cfg.chunk, self.cfg.games)
        if done and todo:
            self.log("resume", {"out": str(self.out), "games": games, "total": self.cfg.games, "generation": g})
        for res in self._jobs(play_games, self._job_cfg(g, best), todo):
            write_shard(d / f"games-{res['job']:05d}.npz", res["samples"])
            games += res["games"]
            self.progress("games", g, games, self.cfg.games)

    def samples(self, g: int) -> Samples:
        parts = []
        for k in range(max(0, g - self.cfg.window + 1), g + 1):
            parts += [read_shard(p) for p in sorted(self.gen_dir(k).glob("games-*.npz"))]
        return Samples.concat(parts)

    def train(self, g: int, best: netmod.Network | None) -> netmod.Network:
        c = self.cfg
        path = self.gen_dir(g) / "net.npz"
        if path.exists():
            return netmod.load(path)
        data = self.samples(g)
        if best is None:
            spec = self.info.tensor_spec(c.players, c.options)
            net = netmod.init(spec.size, self.info.num_distinct_actions, list(c.hidden), derive_seed(c.seed, "init"))
        else:
            net = netmod.load(self.best_path)
        # a tenth of the positions (by a seeded draw) stay out of training to report held-out losses
        rng = np.random.default_rng(derive_seed(c.seed, "split", g))
        held = rng.random(len(data)) < 0.1
        train_set, test_set = data.take(np.nonzero(~held)[0]), data.take(np.nonzero(held)[0])
        train(net, train_set, TrainParams(c.epochs, c.batch, c.lr), derive_seed(c.seed, "train", g), c.trainer,
              on_step=lambda k, n, _loss: self.progress("training", g, k, n))
        vl, pl = losses(net, test_set)
        net.meta = {"game": c.game, "players": c.players, "options": c.options, "generation": g,
                    "games": c.games * (g + 1), "positions": int(len(train_set)), "seed": c.seed,
                    "command": c.command, "teacher": c.teacher if g == 0 else "expert",
                    "held_out": {"positions": int(len(test_set)), "value_loss": round(vl, 5),
                                 "policy_loss": round(pl, 5)}}
        tmp = path.with_name("net.npz.tmp")
        netmod.save(net, tmp)
        os.replace(tmp, path)
        self.log("trained", {"generation": g, "positions": len(train_set), "value_loss": vl, "policy_loss": pl})
        return netmod.load(path)

    @property
    def best_path(self) -> Path:
        return self.out / "best.npz"

    def gate(self, g: int, cand: Path) -> dict[str, Any]:
        path = self.gen_dir(g) / "gate.json"
        if path.exists():
            return json.loads(path.read_text())
        c = self.cfg
        if g == 0 or c.gate_games == 0:
            res: dict[str, Any] = {"accepted": True, "games": 0}
        else:
            jobs = list(range(c.gate_games * (2 if c.players == 1 else 1)))
            self.progress("gate", g, 0, len(jobs))
            cfg = self._job_cfg(g, cand.read_bytes(), best=self.best_path.read_bytes())
            new: list[float] = []
            old: list[float] = []
            n = 0
            for r in self._jobs(gate_game, cfg, jobs):
                (new if r["which"] == 0 else old).append(r["result"])
                n += 1
                self.progress("gate", g, n, len(jobs))
            if c.players == 1:
                score_new, score_old = float(np.mean(new)), float(np.mean(old))
                res = {"accepted": score_new >= score_old, "games": len(new), "candidate": round(score_new, 5),
                       "best": round(score_old, 5)}
            else:
                share = float(np.mean(new))
                res = {"accepted": share >= 1.0 / c.players, "games": len(new), "candidate_share": round(share, 5)}
        res["generation"] = g
        if res["accepted"]:
            tmp = self.best_path.with_name("best.npz.tmp")
            shutil.copyfile(cand, tmp)
            os.replace(tmp, self.best_path)
        path.write_text(json.dumps(res, sort_keys=True))
        self.log("gate", res)
        return res

    def run(self) -> Path:
        best: netmod.Network | None = None
        for g in range(self.cfg.generations):
            self.selfplay(g, self.best_path.read_bytes() if g and self.best_path.exists() else None)
            cand = self.train(g, best)
            del cand
            self.gate(g, self.gen_dir(g) / "net.npz")
            best = netmod.load(self.best_path)
        return self.best_path


def run(cfg: TrainConfig, progress: Progress | None = None, log: Log | None = None) -> Path:
    """Train (or resume) a run; returns the path of the best network."""
    return Run(cfg, progress, log).run()
