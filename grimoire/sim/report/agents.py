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


def verdict(cells: dict[str, dict[str, Any] | None], par: float) -> dict[str, Any]:
    sides = {a: side(c, par) for a, c in cells.items()}
    few = [a for a, s in sides.items() if s is None]
    judged = {a: s for a, s in sides.items() if s is not None}
    rates = {a: c["rate"] for a, c in cells.items() if a in judged and c is not None}
    out: dict[str, Any] = {"sides": sides, "too_few": few}
    if not judged:
        out.update(kind="unknown", holds=False, text="too few games under every agent")
        return out
    vals = set(judged.values())
    above = all(r > par for r in rates.values())
    below = all(r < par for r in rates.values())
    if vals == {"+"} or vals == {"-"}:
        kind = "holds"
        text = ("above" if "+" in vals else "below") + " par under every agent"
    elif vals == {"0"}:
        kind = "par"
        text = "at par under every agent (no interval excludes par)"
    elif (above and "-" not in vals) or (below and "+" not in vals):
        kind = "direction"
        sig = [a for a, s in judged.items() if s != "0"]
        text = (f"{'above' if above else 'below'} par in direction under every agent (significant under "
                f"{', '.join(sig)})")
    else:
        kind = "depends"
        groups = {s: [a for a, x in judged.items() if x == s] for s in ("+", "-", "0")}
        words = {"+": "above par", "-": "below par", "0": "at par"}
        text = "depends on the agent: " + "; ".join(f"{words[s]} under {', '.join(g)}" for s, g in groups.items()
                                                    if g)
    if few:
        text += f" (too few games under {', '.join(few)} to say)"
    out.update(kind=kind, holds=kind in ("holds", "direction", "par"), text=text)
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
    out: dict[str, Any] = {"agents": labels, "runs": [n for n, _r in members],
                           "games": {agent_label(r): r["run"]["games"] for _n, r in members},
                           "params": {agent_label(r): params_of(r) for _n, r in members},
                           "tables": {}}
    for k, title in KINDS:
        keys = list(dict.fromkeys(row["key"] for _n, r in members for row in r[k]))
        rows = []
        for key_ in keys:
            cells = {agent_label(r): next((x for x in r[k] if x["key"] == key_), None) for _n, r in members}
            rows.append({"key": key_, "cells": cells, "verdict": verdict(cells, par)})
        out["tables"][title] = rows
    out["game_findings"], out["agent_findings"] = study_findings(out, par)
    return out


def _solo_study(reports: list[dict[str, Any]], names: list[str]) -> dict[str, Any] | None:
    """Solo games: per item, the score of games that completed it minus the others, under each agent
    (an association: an agent that takes an item only when it goes well makes it look good)."""
    labels = [agent_label(r) for r in reports]
    if len(set(labels)) < 2:
        return None
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
        rows.append({"key": key, "cells": cells, "verdict": solo_verdict(cells)})
    out = {"agents": labels, "runs": names, "tables": {"item": rows}, "solo": True,
           "games": {a: r["run"]["games"] for a, r in zip(labels, reports, strict=True)},
           "params": {a: params_of(r) for a, r in zip(labels, reports, strict=True)},
           "scores": {a: r["scores"] for a, r in zip(labels, reports, strict=True)}}
    game = [f"item {r['key']}: {r['verdict']['text']}." for r in rows if r["verdict"]["kind"] == "holds"]
    agent = [f"item {r['key']}: {r['verdict']['text']}." for r in rows if r["verdict"]["kind"] == "depends"]
    out["game_findings"], out["agent_findings"] = game, agent
    return out


def solo_verdict(cells: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """'holds' when the score difference has the same sign and excludes 0 under every agent."""
    judged = {a: c for a, c in cells.items() if not c.get("too_few")}
    few = [a for a in cells if a not in judged]
    sides = {a: "+" if c["ci95"][0] > 0 else "-" if c["ci95"][1] < 0 else "0" for a, c in judged.items()}
    words = {"+": "higher", "-": "lower", "0": "no different"}
    if not judged:
        return {"kind": "unknown", "holds": False, "text": "too few games that complete it under every agent"}
    vals = set(sides.values())
    if len(vals) == 1 and vals != {"0"} and len(judged) > 1:
        kind = "holds"
        every = "under every agent" if not few else "under every agent with enough games"
        text = f"games that complete it score {words[vals.pop()]} {every} (" + ", ".join(
            f"{a} {c['diff']:+.1f}" for a, c in judged.items()) + ")"
        if few:
            text += f"; too few games with and without it under {', '.join(few)} to say"
    else:
        kind = "depends" if len(vals) > 1 else "par" if vals == {"0"} else "partial"
        text = "depends on the agent: " + "; ".join(
            f"{a} {judged[a]['diff']:+.1f} [{judged[a]['ci95'][0]:+.1f}, {judged[a]['ci95'][1]:+.1f}]"
            for a in judged)
        if few:
            text += f"; too few games that complete it under {', '.join(few)}"
    return {"kind": kind, "holds": kind == "holds", "text": text}


def _name(kind: str, key: Any) -> str:
    return f"turn position {int(key) + 1}" if kind == "turn position" else f"seat {key}" if kind == "seat" \
        else str(key)


def study_findings(study: dict[str, Any], par: float) -> tuple[list[str], list[str]]:
    """What holds under every agent (the game's), and what depends on the agent (with the agents)."""
    game: list[str] = []
    agent: list[str] = []
    for kind, rows in study["tables"].items():
        if kind == "seat":
            continue                    # the turn position is what a seat should matter for
        at_par = [r for r in rows if r["verdict"]["kind"] == "par"]
        if kind == "turn position" and rows and len(at_par) == len(rows):
            game.append("No first-player advantage: every turn position is at par under every agent.")
            continue
        if at_par:
            game.append(f"At par under every agent: {', '.join(_name(kind, r['key']) for r in at_par)} "
                        "(no agent's interval excludes par).")
        for r in rows:
            v = r["verdict"]
            rates = ", ".join(f"{a} {100 * c['rate']:.1f}%" for a, c in r["cells"].items() if c is not None)
            line = f"{kind} {_name(kind, r['key'])}: {v['text']} ({rates}; par {100 * par:.1f}%)."
            if v["kind"] in ("holds", "direction"):
                game.append(line)
            elif v["kind"] == "depends":
                agent.append(line)
    return game, agent
