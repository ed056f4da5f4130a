"""The Zauberschmiede sheet in the terminal, drawn from one seat's observation (never the state).

``render(obs, seat, hints=None)``: ``obs`` is the envelope of ``state.observation(seat)`` with the
game's part under ``"zauberschmiede"``; the fixed sheet (artifacts, fields, costs) comes from the
game's static data. What each die could go to is taken from ``hints`` when given, else derived from
the observation's ``legal_actions`` (the same table).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .hints import die_targets
from .sheet import SHEET

COLOUR_STYLE = {"green": "green", "purple": "magenta", "yellow": "yellow"}
SCORE_LABELS = [("S1", "artifacts"), ("S2", "dust"), ("S3", "amplifier"), ("S4", "colour upgrades"),
                ("S5", "sets"), ("S6", "all colours of power"), ("S7", "harmony"), ("S8", "dust creator")]


def _style(colour: str) -> str:
    return COLOUR_STYLE.get(colour, "white")


@cache
def _sheet() -> dict[str, Any]:
    return SHEET.public_dict()


def _dice_row(obs: dict, sh: dict, targets: dict | None) -> Table:
    t = Table(title=f"Round {obs['round']} of {obs['zauberschmiede']['rounds']}: the dice", show_header=True)
    t.add_column("die")
    t.add_column("rolled")
    t.add_column("on your sheet")
    if targets is not None:
        t.add_column("could go to", overflow="fold")
    seen: dict[int, int] = {}
    for i, v in enumerate(sh["dice"]):
        rolled = obs["zauberschmiede"]["roll"][i]
        used = sh["used"][i]
        shown = Text(str(v), style="bold")
        if i in sh["transmuted"]:
            shown.append(f"  (transmuted from {rolled})", style="cyan")
        row = [str(i + 1), str(rolled), shown]
        if used:
            row[2] = Text(f"{v}  used: {used}" + (f" (transmuted from {rolled})" if i in sh["transmuted"] else ""),
                          style="dim")
        if targets is not None:
            if used:
                row.append("")
            elif v in seen:
                row.append(Text(f"as die {seen[v]}", style="dim"))
            else:
                seen[v] = i + 1
                row.append(_targets(targets.get(str(v), [])))
        t.add_row(*row)
    return t


def _targets(items: list[str]) -> Text:
    """'charge am1 green', 'charge po1 purple', 'upgrade green', 'dust' ... in a compact line."""
    charge: dict[str, list[str]] = {}
    rest: dict[str, list[str]] = {}
    for it in items:
        w = it.split()
        if w[0] == "charge":
            charge.setdefault(w[1], []).append(w[2])
        elif len(w) > 1:
            rest.setdefault(w[0], []).append(w[1])
        else:
            rest.setdefault(w[0], [])
    t = Text()
    if charge:
        t.append("fields: ")
        for art, colours in charge.items():
            t.append(art)
            t.append("(")
            for j, c in enumerate(colours):
                t.append(("" if j == 0 else " ") + c[0], style=_style(c))
            t.append(") ")
    for kind, args in rest.items():
        if t:
            t.append("| ", style="dim")
        t.append(kind)
        for a in args:
            t.append(" " + a, style=_style(a))
        t.append(" ")
    return t


def _fields(art: dict, values: list) -> Text:
    t = Text()
    for f, v in zip(art["fields"], values, strict=True):
        style = _style(f["colour"])
        t.append("[" + f["colour"][0], style=style)
        if v is not None:
            t.append(str(v), style=f"bold {style}")
        else:
            t.append(f"≥{f['min']}", style=f"dim {style}")
        t.append("] ", style=style)
    return t


def _artifacts(sh: dict) -> Table:
    t = Table(title="Artifacts", show_header=True)
    for col in ("id", "artifact", "category", "energy fields", "dust", "base", "state"):
        t.add_column(col)
    complete, amplified, charged = set(sh["complete"]), set(sh["amplified"]), set(sh["fully_charged"])
    for art in _sheet()["artifacts"]:
        aid = art["id"]
        vals = sh["fields"][aid]
        if aid in complete:
            state = Text("complete", style="bold green")
            if aid in amplified:
                state.append(" + amplified", style="bold red")
        elif aid in charged:
            state = Text("charged, pay dust", style="bold yellow")
        elif any(v is not None for v in vals):
            state = Text(f"{sum(v is not None for v in vals)}/{len(vals)} charged")
        else:
            state = Text("-", style="dim")
        dust = ("x" if aid in complete else "*") * art["dust"]
        t.add_row(aid.lower(), art["name"], art["category"], _fields(art, vals), dust, str(art["base"]), state)
    return t


def _side(obs: dict, sh: dict) -> Table:
    t = Table(show_header=False, box=None, padding=(0, 1))
    t.add_column(style="bold")
    t.add_column()
    boxes = Text()
    for r, n in enumerate(sh["dust_boxes"], start=1):
        style = "bold blue" if r == obs["round"] and not obs["terminal"] else "blue"
        boxes.append(f"[{n}]", style=style if n else "dim")
        boxes.append(" ")
    boxes.append(f" = {sum(sh['dust_boxes'])} produced")
    t.add_row("cauldron (rounds 1-7)", boxes)
    stocks = [f"r{s['round']}: {s['amount']}" + (" (spent)" if s["spent"] else "") for s in sh["stocks"]]
    t.add_row("fresh dust", str(sh["fresh_dust"]))
    t.add_row("dust stocks", ", ".join(stocks) or "-")
    costs = _sheet()["amplifier_level_costs"]
    amp = Text()
    for lvl, c in enumerate(costs, start=1):
        if sh["amp_level"] >= lvl:
            amp.append(f"[L{lvl} x] ", style="bold red")
        elif sh["amp_level"] + 1 == lvl and sh["amp_paid"]:
            amp.append(f"[L{lvl} {sh['amp_paid']}/{c}] ", style="red")
        else:
            amp.append(f"[L{lvl}: {c} dice] ", style="dim")
    t.add_row("amplifier", amp)
    for colour in _sheet()["colours"]:
        row = Text()
        for v in _sheet()["colour_upgrade_values"]:
            marked = v in sh["upgrades"][colour]
            row.append(f"[{v}{' x' if marked else ''}] ", style=f"bold {_style(colour)}" if marked else "dim")
        row.append(f" level {len(sh['upgrades'][colour])}")
        t.add_row(Text(colour, style=_style(colour)), row)
    t.add_row("transmutations left", str(sh["transmutations_left"]))
    return t


def _score(sh: dict, final: bool) -> Table:
    t = Table(title="Final score" if final else "Score if the game ended now", show_header=False)
    t.add_column()
    t.add_column(justify="right")
    for k, label in SCORE_LABELS:
        t.add_row(f"{k} {label}", str(sh["score"][k]))
    t.add_row(Text("total", style="bold"), Text(str(sh["score"]["total"]), style="bold"))
    return t


def _others(obs: dict, seat: int | None) -> Table:
    t = Table(title="All sheets" + ("" if obs["terminal"] else " (others as at the start of this round)"))
    for col in ("seat", "decided", "complete", "dust", "amp", "colours", "score"):
        t.add_column(col)
    for sh in obs["zauberschmiede"]["sheets"]:
        colours = " ".join(f"{c[0]}{len(v)}" for c, v in sh["upgrades"].items())
        name = f"{sh['seat']}" + (" (you)" if sh["seat"] == seat else "")
        t.add_row(name, "yes" if sh["decided"] else "no", ", ".join(a.lower() for a in sh["complete"]) or "-",
                  str(sum(sh["dust_boxes"])), f"L{sh['amp_level']}", colours, str(sh["score"]["total"]))
    return t


def render(obs: dict, seat: int | None, hints: dict | None = None):
    parts = []
    g = obs["zauberschmiede"]
    cp = obs["current_player"]
    if obs["terminal"]:
        head = f"Game over after round {obs['round']}. Winner(s): " + ", ".join(f"seat {w}" for w in obs["winners"])
    else:
        head = f"Round {obs['round']}/{g['rounds']}  roll: {' '.join(map(str, g['roll']))}  -  seat {cp} decides"
    parts.append(Text(head, style="bold"))
    me = g["sheets"][seat] if seat is not None else None
    if me is None and obs["num_players"] == 1:
        me = g["sheets"][0]
    if me is not None:
        if not obs["terminal"]:
            targets = (hints or {}).get("die_targets")
            if targets is None and obs["legal_actions"] is not None:
                targets = die_targets(obs["legal_actions"])
            parts.append(_dice_row(obs, me, targets))
        parts.append(_artifacts(me))
        side = Table.grid(padding=(0, 4))
        side.add_row(_side(obs, me), _score(me, obs["terminal"]))
        parts.append(side)
        title = f"Seat {me['seat']}'s sheet"
        if me["log"]:
            this_round = [t for r, t in me["log"] if r == obs["round"]]
            if this_round and not obs["terminal"]:
                parts.append(Text("this round: " + "; ".join(this_round), style="dim"))
    else:
        title = "Zauberschmiede"
    if obs["num_players"] > 1 or me is None:
        parts.append(_others(obs, seat))
        if obs["terminal"]:
            for sh in g["sheets"]:
                parts.append(Text(f"seat {sh['seat']}: " + ", ".join(f"{k} {sh['score'][k]}" for k, _ in SCORE_LABELS)
                                  + f" = {sh['score']['total']}"))
    return Panel(Group(*parts), title=title)


_KINDS = {
    "charge": "write a die into an empty energy field of that colour (R5.1); a field needs a die of at least its "
              "minimum",
    "pay": "pay the artifact's dust cost (R6.4): the stocks named (r<round>) are spent whole, fresh dust of this "
           "round pays the rest; the artifact is then complete",
    "amplify": "activate the amplifier on a complete artifact with one die of any value (R7.2); it scores the "
               "final amplifier level",
    "upgrade": "mark the colour box with a die of exactly that value (R8.1): +1 level, worth one point per field "
               "of that colour on complete artifacts",
    "unlock": "put one die of any value on the amplifier track; levels cost 1, 2 and 3 dice, each paid in one "
              "round (R7.1)",
    "dust": "put one die of any value into the cauldron: +1 in this round's blue box and +1 fresh dust (R6.1)",
    "transmute": "change an unused die to another value; twice per game (R9)",
    "end": "finish your decisions for this round; unused dice expire and fresh dust becomes a stock (R3.2)",
}


def describe(text: str) -> str:
    """A longer explanation of an action text (or, for a rules topic name, the topic's text)."""
    words = text.strip().lower().split()
    if words and words[0] in _KINDS:
        return f"{text.strip()}: {_KINDS[words[0]]}"
    from grimoire.core.registry import game_info

    topics = game_info("zauberschmiede").rules_topics()
    key = words[0] if words else "overview"
    return topics.get(key, "Topics: " + ", ".join(topics) + ". Actions: " + ", ".join(_KINDS))


def warning(obs: dict, action_text: str) -> str | None:
    """Warn before a legal but wasteful action."""
    seat = obs.get("seat")
    if seat is None:
        return None
    me = obs["zauberschmiede"]["sheets"][seat]
    words = action_text.split()
    if words == ["end"]:
        left = sum(1 for u in me["used"] if not u)
        if left:
            return f"{left} unused dice will expire (dust would still score 1 point each)."
    if words and words[0] == "pay" and len(words) > 2:
        arts = {a["id"].lower(): a for a in _sheet()["artifacts"]}
        cost = arts[words[1]]["dust"]
        stocks = {f"r{s['round']}": s["amount"] for s in me["stocks"] if not s["spent"]}
        total = sum(stocks.get(w, 0) for w in words[2:])
        if total > cost:
            return f"the stocks named hold {total} dust for a cost of {cost}: {total - cost} dust will be lost."
    return None
