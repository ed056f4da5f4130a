"""The Shuluri Viadal arena in the terminal (Rich), drawn from one seat's observation only.

The hex map (99 columns) shows every field: the region as a tint (the central circle, the inner and
outer ring, quarters alternating), gate fields, trap fields 1-8, weapon heaps, corpses and the
figures (up to three per field: G gladiator, W warlock, X crossbowman, 1 and 2 the dagger throwers,
Z a zombie; the team's colour, lower case while sneaking or hiding); walls between fields of one row
appear as a bar, gates as ``=`` (open) or ``#`` (closed); Firestorm, Acid Cloud and the cage tint
their fields. Below: the step, the decision, every figure's values and effects, the gates, the
seat's own secrets and the last events with every die roll.
"""

from __future__ import annotations

import re
from functools import cache

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from . import board as B

TEAM_STYLE = ("bold red1", "bold dodger_blue1", "bold green3", "bold magenta")
ROLE_SYMBOL = {"gl": "G", "wl": "W", "xb": "X", "d1": "1", "d2": "2"}
REGION_BG = {"C": "grey15", "R1a": "grey23", "R1b": "grey27", "R2a": "grey11", "R2b": "grey19"}
AREA_BG = {"firestorm": "dark_red", "acid": "dark_olive_green3", "prison": "navy_blue"}
DICE = re.compile(r"(rolls \d+|\d+\+\d+=\d+|Eg \d+\+\d+=\d+|ME \d+\+\d+=\d+| \d+: \d+)")
EVENTS = 10
MAP_WIDTH = 99


# --- the map geometry (static) -----------------------------------------------------------------------------
@cache
def _layout() -> tuple[dict[int, tuple[int, int]], int, int]:
    """field -> (row, column of its first character); rows run north (r high) to south."""
    rs = [r for _q, r in B.COORDS]
    top = max(rs)
    xs = [2 * q + r for q, r in B.COORDS]        # twice the cartesian x
    left = min(xs)
    pos = {f: (top - r, 2 * (2 * q + r - left)) for f, (q, r) in enumerate(B.COORDS)}
    return pos, top - min(rs) + 1, 2 * (max(xs) - left) + 3


def _region_key(f: int) -> str:
    reg = B.REGION[f]
    if reg == 0:
        return "C"
    ring = "R1" if B.ZONE[f] == B.R1 else "R2"
    return ring + ("a" if B.QUARTER[f] % 2 == 0 else "b")


@cache
def _east_walls() -> dict[int, int]:
    """field -> index of the gate (>= 0) or -1 (a plain wall) on its east edge, if any."""
    e = B.DIRS.index("e")
    out = {}
    for f in range(B.N_FIELDS):
        n = B.NEIGHBOURS[f][e]
        if n >= 0 and B.EDGE[f][e] != B.NO_WALL:
            out[f] = B.GATE_AT[f][e]
    return out


@cache
def _gate_fields() -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for g in B.GATES:
        for f in g.fields:
            out.setdefault(f, []).append(g.index)
    return out


# --- pieces of the observation -------------------------------------------------------------------------------
def _figure_symbol(fig: dict) -> str:
    sym = "Z" if fig["zombie"] else ROLE_SYMBOL[fig["role"]]
    return sym.lower() if fig.get("sneak") and sym.isalpha() else sym


def _cell(fld: int, figs: list[dict], heaps: dict[int, int], corpses: set[int],
          gate_open: dict[int, bool]) -> list[tuple[str, str]]:
    """The three characters of a field, each with its style (figures in their team's colour)."""
    if figs:
        chars = [(_figure_symbol(f), TEAM_STYLE[f["seat"] % 4]) for f in figs[:3]]
        if len(chars) == 1:
            return [(" ", ""), chars[0], (" ", "")]
        return chars + [(" ", "")] * (3 - len(chars))
    if fld in B.TRAP_NUMBER_AT:
        text, style = f" {B.TRAP_NUMBER_AT[fld]} ", "bold magenta"
    elif fld in heaps:
        text, style = " H ", "bold yellow"
    elif fld in corpses:
        text, style = " + ", "grey62"
    elif fld in _gate_fields():
        text = " ○ " if any(gate_open[i] for i in _gate_fields()[fld]) else " ● "
        style = "orange3"
    else:
        text, style = " · ", "grey50" if B.IN_C[fld] else "grey42"
    return [(c, style) for c in text]


def arena_map(obs: dict) -> Text:
    g = obs["shuluri"]
    pos, rows, width = _layout()
    by_field: dict[int, list[dict]] = {}
    for f in g["figures"]:
        if f["alive"] and f["field"]:
            by_field.setdefault(B.parse_field(f["field"]), []).append(f)
    for lst in by_field.values():
        lst.sort(key=lambda f: (f["role"] != "gl", f["seat"]))
    heaps = {}
    for t in g["teams"]:
        for h in t["heaps"]:
            heaps[B.parse_field(h)] = t["seat"]
    for h in B.HEAPS:
        heaps.setdefault(h, -1)
    corpses = {B.parse_field(c["field"]) for c in g["corpses"]}
    gate_open = {B.GATE_BY_ID[k]: v["open"] for k, v in g["gates"].items()}
    area_bg: dict[int, str] = {}
    for a in g["areas"]:
        for x in a["fields"]:
            area_bg[B.parse_field(x)] = AREA_BG.get(a["spell"], "grey35")
    grid: list[list[tuple[str, str]]] = [[(" ", "")] * width for _ in range(rows)]
    walls = _east_walls()
    for fld, (row, col) in pos.items():
        bg = area_bg.get(fld) or REGION_BG[_region_key(fld)]
        for i, (ch, style) in enumerate(_cell(fld, by_field.get(fld, []), heaps, corpses, gate_open)):
            grid[row][col + i] = (ch, f"{style} on {bg}" if style else f"on {bg}")
        if fld in walls and col + 3 < width:
            gi = walls[fld]
            ch = "│" if gi < 0 else ("=" if gate_open[gi] else "#")
            grid[row][col + 3] = (ch, "bold white" if gi < 0 else "bold orange3")
    out = Text()
    for r, line in enumerate(grid):
        last = max((i for i, (c, _s) in enumerate(line) if c != " "), default=-1)
        for c, st in line[:last + 1]:
            out.append(c, style=st or None)
        if r < rows - 1:
            out.append("\n")
    return out


def _legend() -> Text:
    t = Text("G gladiator  W warlock  X crossbowman  1 2 dagger throwers  Z zombie  (lower case: sneaking)  "
             "1-8 trap fields  H heap  + corpse  ● closed / ○ open gate field  │ wall  # = gate", style="grey62")
    return t


def _effects(fig: dict) -> str:
    parts = []
    for e in fig["effects"]:
        until = e.get("until_round")
        parts.append(f"{e['name']}{'' if until is None else f' ≤R{until}'}")
    return ", ".join(parts)


def figures_table(obs: dict, seat: int | None) -> Table:
    g = obs["shuluri"]
    t = Table(show_edge=False, pad_edge=False, header_style="bold", box=None, padding=(0, 1))
    for col, just in (("fig", "left"), ("field", "left"), ("Ep", "right"), ("STP", "right"), ("TE", "right"),
                      ("VE", "right"), ("CE", "right"), ("mv", "right"), ("ammo", "right"),
                      ("state", "left")):
        t.add_column(col, justify=just, no_wrap=col != "state")
    named = set((g.get("step") or {}).get("named") or [])
    for f in g["figures"]:
        style = TEAM_STYLE[f["seat"] % 4] if f["alive"] else "grey42 strike"
        now = f.get("now") or {}
        state = []
        if not f["alive"]:
            state.append("dead")
        if f["name"] in named:
            state.append("acting")
        if f.get("sneak"):
            state.append(f["sneak"])
        if f.get("down"):
            state.append("down")
        if f.get("role") == "gl" and not f["zombie"]:
            w = f.get("weapon")
            if w:
                state.append(w)
            exp = f.get("exposed_to") or {}
            if exp.get("daggers"):
                state.append("open to bolts+daggers")
            elif exp.get("crossbow"):
                state.append("open to bolts")
        if f.get("amulet") not in (None, "?"):
            state.append(f"amulet {f['amulet']}")
        eff = _effects(f)
        if eff:
            state.append(eff)
        ammo = f["ammo"] if f["role"] in ("xb", "d1", "d2") and not f["zombie"] else ""
        if f["role"] == "gl" and not f["zombie"]:
            ammo = f"j{f.get('javelins', 0)} n{f.get('nets', 0)}"
        t.add_row(f["name"], f["field"] or "-", f"{max(0, f['ep'])}/{f['max_ep']}", f"{f['stp']}/{f['stp_max']}",
                  str(now.get("te", "?")), str(now.get("ve", "?")), str(now.get("ce") or "-"),
                  str(now.get("move", "?")), str(ammo), "; ".join(state), style=style)
    return t


def _head(obs: dict, seat: int | None) -> Text:
    g = obs["shuluri"]
    head = Text()
    head.append(f"Round {obs['round']}", style="bold")
    st = g.get("step")
    if g["phase"] == "setup":
        head.append(" · setup")
    elif st:
        kind = {"pair1": "first naming step", "pair2": "second naming step", "glad": "gladiator step"}[st["kind"]]
        who = "your" if st["seat"] == seat else f"seat {st['seat']}'s"
        head.append(f" · step {st['index']}/{st['of']}: {who} {kind}", style="bold cyan")
        if st["kind"] == "glad":
            head.append(f" · gladiator MAN {st['gladiator_man']}")
        else:
            head.append(f" · step pool {st['pool']} MAN")
            if st["named"]:
                head.append(f" ({', '.join(st['named'])})")
    if obs["terminal"]:
        won = ", ".join(map(str, obs["winners"])) or "nobody"
        head.append(f" · over: seat(s) {won} won ({g.get('end_reason') or ''})", style="bold green")
    return head


def _teams(obs: dict, seat: int | None) -> Text:
    g = obs["shuluri"]
    out = Text()
    for t in g["teams"]:
        style = TEAM_STYLE[t["seat"] % 4]
        out.append(f"team {t['letter']} (seat {t['seat']}{', you' if t['seat'] == seat else ''})", style=style)
        out.append(f": strategist {t['strategist_man']} MAN · cards {t['cards_in_hand']}"
                   f" · discs {t['discs_left']}")
        if t["cards_played"]:
            out.append(f" · played {', '.join(map(str, t['cards_played']))}")
        if t["cards_lost"]:
            out.append(f" · lost {', '.join(map(str, t['cards_lost']))}")
        if t["discs_cast"]:
            out.append(f" · cast levels {' '.join(map(str, t['discs_cast']))}")
        if t.get("starting_weapon"):
            out.append(f" · weapon {t['starting_weapon']}")
        if t["out"]:
            out.append(" · out", style="bold")
        out.append("\n")
    gates = " ".join(f"{k}{'○' if v['open'] else '●'}" + (f"(shut≤R{v['jammed_until']})" if v["jammed_until"] else "")
                     for k, v in g["gates"].items())
    out.append(f"gates (○ open, ● closed): {gates}")
    return out


def _secrets(obs: dict, seat: int | None) -> Text | None:
    if seat is None:
        return None
    me = obs["shuluri"]["teams"][seat]
    if "hand" not in me:
        return None
    t = Text("your secrets: ", style="bold")
    cards = ", ".join(f"trap {h['card']} ({h['kind']}) with {h['holder'] or 'the team'}" for h in me["hand"])
    t.append(f"cards: {cards or 'none'} · discs: {' '.join(map(str, me['discs'])) or 'none'}")
    if me.get("starting_weapon"):
        t.append(f" · starting weapon {me['starting_weapon']}")
    mine = [f for f in obs["shuluri"]["figures"] if f["seat"] == seat and not f["zombie"]]
    items = [f"{f['name']}: amulet {f['amulet']}" for f in mine if f.get("amulet")]
    items += [f"{f['name']}: ME {f['me']}" for f in mine if f["role"] != "wl" and f.get("me")]
    if items:
        t.append(" · " + ", ".join(items))
    return t


def _decision(obs: dict, seat: int | None, hints: dict | None) -> Text | None:
    d = obs["shuluri"].get("decision")
    if not d or obs["terminal"]:
        return None
    who = "You" if d["seat"] == seat else f"Seat {d['seat']}"
    t = Text(f"{who}: {d['prompt']}", style="bold cyan")
    extra = {k: v for k, v in d.items() if k not in ("kind", "seat", "prompt")}
    if extra:
        t.append("  (" + ", ".join(f"{k} {v}" for k, v in extra.items()) + ")", style="cyan")
    for line in (hints or {}).get("lines", []):
        t.append("\n" + line, style="dim")
    return t


def _events(obs: dict) -> Text:
    out = Text()
    for line in obs["shuluri"]["events"][-EVENTS:]:
        last = 0
        for m in DICE.finditer(line):
            out.append(line[last:m.start()])
            out.append(m.group(0), style="bold yellow")
            last = m.end()
        out.append(line[last:] + "\n")
    out.rstrip()
    return out


def render(obs: dict, seat: int | None, hints: dict | None = None):
    parts = [_head(obs, seat), arena_map(obs), _legend(), figures_table(obs, seat), _teams(obs, seat)]
    sec = _secrets(obs, seat)
    if sec is not None:
        parts.append(sec)
    dec = _decision(obs, seat, hints)
    if dec is not None:
        parts.append(dec)
    parts.append(Panel(_events(obs), title="events (dice in yellow)", title_align="left", border_style="grey42",
                       width=MAP_WIDTH))
    return Group(*parts)


# --- help for the terminal ---------------------------------------------------------------------------------------
_TOPIC_OF = {"name": "rounds", "end": "rounds", "move": "movement", "sneak": "movement", "hide": "movement",
             "run": "movement", "disengage": "melee", "attack": "melee", "shoot": "ranged", "aim": "ranged",
             "javelin": "weapons", "net": "weapons", "drop": "weapons", "pickup": "weapons", "wield": "weapons",
             "stand": "melee", "bell": "weapons", "open": "arena", "close": "arena", "cast": "magic",
             "cloud": "spells", "order": "zombies", "trap": "traps", "pass": "traps", "dodge": "melee",
             "push": "melee", "shove": "traps", "effect": "spells", "chain": "spells", "enemy": "spells",
             "traps": "setup", "amulets": "setup", "resist": "setup", "side": "setup", "first": "setup",
             "weapon": "weapons", "deploy": "setup"}


def describe(topic: str) -> str:
    """``help <action>`` in the terminal: the rules topic the action belongs to."""
    from ...core.registry import game_info
    words = topic.lower().split()
    topics = game_info("shuluri").rules_topics()
    for w in words:
        key = _TOPIC_OF.get(w, w)
        if key in topics:
            return topics[key]
    return f"No help for '{topic}'. Topics: " + ", ".join(sorted(topics))
