"""A study: several configurations of one game played with the same seeds, so that what holds under
every agent (the game) can be told apart from what one agent does (``grimoire simulate --agents
medium,easy,hard:iterations=100``, or ``-o key=v1,v2`` for rule variants, or a study file).

Each configuration is an ordinary run in a subdirectory of the study's directory (``study.json``
lists them); they share the run seed, so game ``g`` has the same deal and roles in every member and
the report can pair them. A study of one configuration is just a run in the directory itself.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..agents import parse_agent, split_specs
from ..core.errors import GameConfigError
from ..core.options import split_option_pair
from .config import MANIFEST, SimConfig, make_config

STUDY = "study.json"
SEAT_JOIN = "+"         # one configuration with its own agent per seat: hard+medium+medium+medium


@dataclass(frozen=True)
class Member:
    name: str           # the subdirectory (and the label in the report)
    config: SimConfig
    variant: dict[str, Any]   # the swept options of this member ({} = the base rules)


def agent_sets(game: str, text: str) -> list[list[str]]:
    """``--agents`` as configurations: commas separate configurations, ``+`` joins one agent per seat;
    every specification is checked (and made canonical) here, before any game is played."""
    sets: list[list[str]] = []
    for item in split_specs(text):
        seats = [parse_agent(game, part).label for part in _split_seats(item)]
        sets.append(seats)
    if not sets:
        raise GameConfigError("--agents needs at least one agent name", key="term.err.sim.no_agents")
    seen: set[str] = set()
    for s in sets:
        key = SEAT_JOIN.join(s)
        if key in seen:
            raise GameConfigError(f"agent configuration {key!r} is listed twice (commas separate the configurations "
                                  f"of a study; give one agent per seat joined with +, e.g. hard+medium+medium)",
                                  key="term.err.sim.twice", params={"agents": key})
        seen.add(key)
    return sets


def _split_seats(item: str) -> list[str]:
    parts = [p.strip() for p in item.split(SEAT_JOIN)]
    if any(not p for p in parts):
        raise GameConfigError(f"empty agent in {item!r}", key="term.err.sim.empty_agent", params={"item": item})
    return parts


def option_variants(options: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The fixed options and the swept ones: a value given as a list of alternatives (``-o key=v1,v2``,
    read as ``{"key": {"sweep": [v1, v2]}}``) makes one variant per combination."""
    fixed = {k: v for k, v in options.items() if not _is_sweep(v)}
    swept = {k: v["sweep"] for k, v in options.items() if _is_sweep(v)}
    if not swept:
        return fixed, []
    keys = sorted(swept)
    return fixed, [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*(swept[k] for k in keys))]


def _is_sweep(v: Any) -> bool:
    return isinstance(v, dict) and set(v) == {"sweep"}


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9._]+", "-", text.lower()).strip("-") or "run"


def variant_label(variant: dict[str, Any]) -> str:
    return ",".join(f"{k}={json.dumps(v) if not isinstance(v, str) else v}" for k, v in sorted(variant.items()))


def plan(game: str, players: int | None, agents_text: str, games: int, seed: int = 1,
         options: dict[str, Any] | None = None, rotate_roles: bool = True, batch_size: int = 0,
         engine: str = "auto", games_per: dict[str, int] | None = None) -> list[Member]:
    """Every configuration of a study, checked (agents, options of each variant, engines) before any
    game is played. The base rules (without the swept options) come first for every agent."""
    fixed, variants = option_variants(dict(options or {}))
    members: list[Member] = []
    sets = agent_sets(game, agents_text)
    for variant in [{}, *variants]:
        for seats in sets:
            label = SEAT_JOIN.join(dict.fromkeys(seats)) if len(set(seats)) == 1 else SEAT_JOIN.join(seats)
            n = (games_per or {}).get(label, games)
            cfg = make_config(game, players, seats, n, seed, {**fixed, **variant}, rotate_roles, batch_size, engine)
            name = slug(label) + (f"--{slug(variant_label(variant))}" if variant else "")
            members.append(Member(name, cfg, variant))
    return members


def parse_sweep_pairs(pairs: list[str]) -> dict[str, Any]:
    """``-o key=value`` pairs where ``key=v1,v2`` sweeps the option over the listed values (a JSON
    value such as ``["elf","witch"]`` stays one value)."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, value = split_option_pair(pair)
        try:
            out[key] = json.loads(value)
            continue
        except json.JSONDecodeError:
            pass
        if "," in value:
            out[key] = {"sweep": [_value(v) for v in value.split(",") if v.strip()]}
        else:
            out[key] = value
    return out


def _value(text: str) -> Any:
    try:
        return json.loads(text.strip())
    except json.JSONDecodeError:
        return text.strip()


def is_study(path: Path) -> bool:
    return (path / STUDY).exists()


def write_study(out: Path, members: list[Member]) -> None:
    """``study.json``: the members (subdirectory, agents, swept options) in the report's order."""
    out.mkdir(parents=True, exist_ok=True)
    first = members[0].config
    d: dict[str, Any] = {"kind": "study", "game": first.game, "players": first.players, "seed": first.seed,
         "members": [{"dir": m.name, "agents": list(dict.fromkeys(m.config.agents)) if len(set(m.config.agents)) == 1
                      else list(m.config.agents), "variant": m.variant, "games": m.config.games} for m in members]}
    old = read_study(out)
    if old is not None:
        mine = {m["dir"] for m in d["members"]}
        d["members"] += [m for m in old["members"] if m["dir"] not in mine]   # a study may grow
    tmp = out / (STUDY + ".tmp")
    tmp.write_text(json.dumps(d, indent=1), encoding="utf-8")
    tmp.replace(out / STUDY)


def read_study(out: Path) -> dict[str, Any] | None:
    path = out / STUDY
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise GameConfigError(f"{path} is damaged ({e})", key="term.err.file_damaged",
                              params={"path": str(path), "reason": str(e)}) from None


def member_runs(path: Path) -> list[Path]:
    """The run directories a path stands for: a run itself, or the members of a study (those that
    have started), or the runs in its subdirectories."""
    if (path / MANIFEST).exists():
        return [path]
    study = read_study(path)
    if study is not None:
        return [path / m["dir"] for m in study["members"] if (path / m["dir"] / MANIFEST).exists()]
    return sorted(p for p in path.iterdir() if (p / MANIFEST).exists()) if path.is_dir() else []


def with_games(m: Member, games: int) -> Member:
    return replace(m, config=replace(m.config, games=games))
