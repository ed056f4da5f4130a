"""The game apart from the agent: runs of one configuration played by different agents (a study of
``grimoire simulate --agents a,b,c``), compared role by role.

A finding about a role (or a turn position) is the game's only when it holds under every agent:

- ``holds``: the interval excludes par on the same side under every agent;
- ``direction``: every agent's rate is on the same side of par and at least one interval excludes
  it (the direction holds; its size depends on the agent);
- ``par``: no agent's interval excludes par;
- ``depends``: anything else (a side that flips between agents, or significant under some agents
  and at par under others) — then the report names the agents behind each side.

Agents with too few games for an interval (``too_few``) cannot confirm a finding: they are named,
and a verdict then covers only the agents with enough games.
"""

from __future__ import annotations

import json
from typing import Any

KINDS = (("by_role", "role"), ("by_turn_position", "turn position"), ("by_seat", "seat"))


def base_key(r: dict[str, Any]) -> str:
    run = r["run"]
    return json.dumps([run["game"], run["players"], run["options"]], sort_keys=True)


def agent_label(r: dict[str, Any]) -> str:
    agents = list(dict.fromkeys(r["run"]["agents"]))
    return agents[0] if len(agents) == 1 else "+".join(r["run"]["agents"])


def params_of(r: dict[str, Any]) -> dict[str, Any]:
    """The run's agents' parameters ({} = the agent's defaults); per seat when the seats differ."""
    p = r["run"].get("agent_params") or {}
    return dict(p.get(agent_label(r), {})) if len(p) <= 1 else p


def side(row: dict[str, Any] | None, par: float) -> str | None:
    """'+' above par (interval), '-' below, '0' interval holds par, None without an interval."""
    if row is None or row.get("too_few") or not row.get("ci95"):
        return None
    lo, hi = row["ci95"]
    return "+" if lo > par else "-" if hi < par else "0"


def verdict(cells: dict[str, dict[str, Any] | None], par: float, game: str = "") -> dict[str, Any]:
    """The kind of a row's finding across the agents, with its English text (words.verdict_text)."""
    from .words import english, verdict_text
    sides = {a: side(c, par) for a, c in cells.items()}
    few = [a for a, s in sides.items() if s is None]
    judged = {a: s for a, s in sides.items() if s is not None}
    rates = {a: c["rate"] for a, c in cells.items() if a in judged and c is not None}
    out: dict[str, Any] = {"sides": sides, "too_few": few}
    if not judged:
        out.update(kind="unknown", holds=False, above=False)
        out["text"] = verdict_text(english(), game, out)
        return out
    vals = set(judged.values())
    above = all(r > par for r in rates.values())
    below = all(r < par for r in rates.values())
    if vals == {"+"} or vals == {"-"}:
        kind = "holds"
    elif vals == {"0"}:
        kind = "par"
    elif (above and "-" not in vals) or (below and "+" not in vals):
        kind = "direction"
    else:
        kind = "depends"
    out.update(kind=kind, holds=kind in ("holds", "direction", "par"), above=above)
    out["text"] = verdict_text(english(), game, out)
    return out


def agent_study(reports: list[dict[str, Any]], names: list[str]) -> dict[str, Any] | None:
    """The role (turn position, seat) x agent tables of the runs that share the first run's game,
    player count and options and differ in their agents; None when there are not two such runs."""
    if not reports or reports[0]["solo"]:
        return _solo_study(reports, names)
    key = base_key(reports[0])
    members = [(n, r) for n, r in zip(names, reports, strict=True) if base_key(r) == key]
    labels = [agent_label(r) for _n, r in members]
    if len(set(labels)) < 2:
        return None
    par = reports[0]["par"]
    game = reports[0]["run"]["game"]
    out: dict[str, Any] = {"agents": labels, "game": game, "par": par, "runs": [n for n, _r in members],
                           "games": {agent_label(r): r["run"]["games"] for _n, r in members},
                           "params": {agent_label(r): params_of(r) for _n, r in members},
                           "tables": {}}
    for k, title in KINDS:
        keys = list(dict.fromkeys(row["key"] for _n, r in members for row in r[k]))
        rows = []
        for key_ in keys:
            cells = {agent_label(r): next((x for x in r[k] if x["key"] == key_), None) for _n, r in members}
            rows.append({"key": key_, "cells": cells, "verdict": verdict(cells, par, game)})
        out["tables"][title] = rows
    out["game_findings"], out["agent_findings"] = study_findings(out, par, game)
    return out


def _solo_study(reports: list[dict[str, Any]], names: list[str]) -> dict[str, Any] | None:
    """Solo games: per item, the score of games that completed it minus the others, under each agent
    (an association: an agent that takes an item only when it goes well makes it look good)."""
    labels = [agent_label(r) for r in reports]
    if len(set(labels)) < 2:
        return None
    game = reports[0]["run"]["game"]
    rows = []
    keys = list(dict.fromkeys((g, x["key"]) for r in reports for g, xs in r["items"].items() for x in xs))
    for group, key in keys:
        cells = {}
        for a, r in zip(labels, reports, strict=True):
            x = next((y for y in r["items"].get(group, []) if y["key"] == key), None)
            if x is not None and x["score_diff"] and x["score_with"]["n"] >= 10 and x["score_without"]["n"] >= 10:
                cells[a] = {"diff": x["score_diff"]["diff"], "ci95": x["score_diff"]["ci95"], "with": x["with"],
                            "popularity": x["popularity"]}
            else:
                cells[a] = {"too_few": True, "with": x["with"] if x else 0, "popularity": x["popularity"] if x else 0.0}
        rows.append({"key": key, "cells": cells, "verdict": solo_verdict(cells, game)})
    out = {"agents": labels, "game": game, "runs": names, "tables": {"item": rows}, "solo": True,
           "games": {a: r["run"]["games"] for a, r in zip(labels, reports, strict=True)},
           "params": {a: params_of(r) for a, r in zip(labels, reports, strict=True)},
           "scores": {a: r["scores"] for a, r in zip(labels, reports, strict=True)}}
    out["game_findings"], out["agent_findings"] = study_findings(out, 0.0, game)
    return out


def solo_verdict(cells: dict[str, dict[str, Any]], game: str = "") -> dict[str, Any]:
    """'holds' when the score difference has the same sign and excludes 0 under every agent."""
    from .words import english, solo_text
    judged = {a: c for a, c in cells.items() if not c.get("too_few")}
    sides = {a: "+" if c["ci95"][0] > 0 else "-" if c["ci95"][1] < 0 else "0" for a, c in judged.items()}
    vals = set(sides.values())
    if not judged:
        kind = "unknown"
    elif len(vals) == 1 and vals != {"0"} and len(judged) > 1:
        kind = "holds"
    else:
        kind = "depends" if len(vals) > 1 else "par" if vals == {"0"} else "partial"
    v: dict[str, Any] = {"kind": kind, "holds": kind == "holds", "side": next(iter(vals)) if len(vals) == 1 else None}
    v["text"] = solo_text(english(), game, v, cells)
    return v


def study_findings(study: dict[str, Any], par: float, game: str) -> tuple[list[str], list[str]]:
    """What holds under every agent (the game's), and what depends on the agent: in English (words)."""
    from .words import study_findings as in_words
    return in_words(study, par, game)
