"""The Shuluri Viadal arena in the terminal (Rich), drawn from one seat's observation only, in the
reader's language (``t``: the interface's translator; without one, English).

The compact board fits 80 columns: the step and whose it is, the whole map with its coordinates and
the list of where each figure stands (``render_map.py``), the legend, every figure's values and
effects, the teams and gates, the seat's own secrets, the last events with every die roll and the
decision. The detail views (``VIEWS``): ``map`` (the map alone), ``zoom [q,r | figure]`` (a window
with every figure's name and every field's coordinates) and ``full`` (everything, all the events).
``label`` and ``describe`` put action texts in words (``phrases.py``); ``menu`` groups the legal
actions for the terminal's picker (``menu.py``).
"""

from __future__ import annotations

import re
from typing import Any

from rich.console import Group, JustifyMethod
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from . import phrases as W
from . import render_map as M
from .menu import menu as menu  # noqa: F401  (the renderer protocol's picker hook)

P = W.P
DICE = re.compile(r"(\d+\+\d+=\d+|\b\d+[:：] ?\d+|\d+ → \d+)")
EVENTS = 8
EVENTS_FULL = 40
VIEWS = {"map": P + "term.view.map", "zoom": P + "term.view.zoom", "full": P + "term.view.full"}
VIEW_ARGS = {"zoom": P + "term.view.zoom_args"}


# --- the parts of the board ---------------------------------------------------------------------------------------
def _who(t: W.Tr, seat_: int, me: int | None) -> str:
    if seat_ == me:
        return t(P + "term.you")
    return t(P + "term.seat_team", seat=W.seat(t, seat_), team=W.team(t, seat_))


def _head(t: W.Tr, obs: dict, seat: int | None) -> Text:
    g = obs["shuluri"]
    head = Text(t(P + "round", n=obs["round"]), style="bold")
    st = g.get("step")
    if g["phase"] == "setup":
        head.append(" · " + t(P + "setup_phase"))
    elif st and not obs["terminal"]:
        head.append(" · " + t(P + "term.step", i=st["index"], of=st["of"]) + ": ", style="bold cyan")
        head.append(t(P + f"term.stepkind.{st['kind']}", who=_who(t, st["seat"], seat)), style="bold cyan")
        if st["kind"] == "glad":
            head.append(" · " + t(P + "glad_man", n=st["gladiator_man"]))
        else:
            head.append(" · " + t(P + "pool_man", n=st["pool"]))
            if st["named"]:
                head.append(" (" + ", ".join(st["named"]) + ")")
    if obs["terminal"]:
        head.append("\n")
        head.append(t(P + "game_over") + " · ", style="bold green")
        if obs["winners"] and len(obs["winners"]) < len(g["teams"]):
            names = ", ".join(_who(t, w, seat) for w in obs["winners"])
            head.append(t(P + "winners", names=names), style="bold green")
        else:
            head.append(t(P + "draw"), style="bold green")
        reason = W.end_reason(t, g.get("end_reason"))
        if reason:
            head.append(f" ({reason})", style="green")
    return head


def _effects(t: W.Tr, fig: dict) -> list[str]:
    out = []
    for e in fig["effects"]:
        key = e["key"]
        name = W.trap(t, key[4:]) if e["source"] != "spell" and key.startswith("trap") else W.spell(t, key)
        until = e.get("until_round")
        out.append(name + ("" if until is None else " " + t(P + "term.until", n=until)))
    return out


def _state(t: W.Tr, f: dict, named: set[str]) -> str:
    state = []
    if not f["alive"]:
        state.append(t(P + "term.dead"))
    if f["name"] in named:
        state.append(t(P + "what.act"))
    if f.get("sneak"):
        state.append(t(P + ("sneaking" if f["sneak"] == "sneaking" else "hiding")))
    if f.get("down"):
        state.append(t(P + "down"))
    if f.get("role") == "gl" and not f["zombie"]:
        w = f.get("weapon")
        if w and w != "?":
            state.append(W.weapon(t, w))
        exp = f.get("exposed_to") or {}
        if exp.get("daggers"):
            state.append(t(P + "exposed_daggers"))
        elif exp.get("crossbow"):
            state.append(t(P + "exposed_crossbow"))
    if f.get("amulet") not in (None, "?"):
        state.append(W.amulet(t, f["amulet"]))
    state += _effects(t, f)
    return "; ".join(state)


def figures_table(t: W.Tr, obs: dict, seat: int | None) -> Table:
    g = obs["shuluri"]
    tb = Table(show_edge=False, pad_edge=False, header_style="bold", box=None, padding=(0, 1))
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("fig", "left"), ("field", "left"), ("ep", "right"), ("stp", "right"), ("te", "right"), ("ve", "right"),
        ("ce", "right"), ("move", "right"), ("ammo", "right"), ("state", "left"))
    for col, just in columns:
        tb.add_column(t(P + f"col.{col}"), justify=just, no_wrap=col != "state", overflow="fold")
    named = set((g.get("step") or {}).get("named") or [])
    for f in g["figures"]:
        style = M.TEAM_STYLE[f["seat"] % 4] if f["alive"] else "grey42 strike"
        now = f.get("now") or {}
        ammo = f["ammo"] if f["role"] in ("xb", "d1", "d2") and not f["zombie"] else ""
        if f["role"] == "gl" and not f["zombie"]:
            ammo = t(P + "term.throws", j=f.get("javelins", 0), n=f.get("nets", 0))
        tb.add_row(f["name"], f["field"] or "-", f"{max(0, f['ep'])}/{f['max_ep']}", f"{f['stp']}/{f['stp_max']}",
                   str(now.get("te", "?")), str(now.get("ve", "?")), str(now.get("ce") or "-"),
                   str(now.get("move", "?")), str(ammo), _state(t, f, named), style=style)
    return tb


def _teams(t: W.Tr, obs: dict, seat: int | None) -> Text:
    g = obs["shuluri"]
    out = Text()
    for tm in g["teams"]:
        who = t(P + "term.you") if tm["seat"] == seat else W.seat(t, tm["seat"])
        out.append(W.team(t, tm["seat"]) + f" ({who})", style=M.TEAM_STYLE[tm["seat"] % 4])
        out.append(": " + t(P + "term.team_line", man=tm["strategist_man"], cards=tm["cards_in_hand"],
                                discs=tm["discs_left"]))
        if tm["cards_played"]:
            out.append(" · " + t(P + "term.played", cards=", ".join(map(str, tm["cards_played"]))))
        if tm["cards_lost"]:
            out.append(" · " + t(P + "term.lost", cards=", ".join(map(str, tm["cards_lost"]))))
        if tm["discs_cast"]:
            out.append(" · " + t(P + "term.cast_levels", levels=" ".join(map(str, tm["discs_cast"]))))
        if tm.get("starting_weapon") and tm["seat"] != seat:
            out.append(" · " + t(P + "starting_weapon", w=W.weapon(t, tm["starting_weapon"])))
        if tm["out"]:
            out.append(" · " + t(P + "term.out"), style="bold")
        out.append("\n")
    out.append(t(P + "gates") + " ")
    parts = []
    for k, v in g["gates"].items():
        part = f"{k}{'○' if v['open'] else '●'}"
        if v["jammed_until"]:
            part += f" ({t(P + 'jammed', n=v['jammed_until'])})"
        parts.append(part)
    out.append(" ".join(parts) + "  " + t(P + "term.gate_key"))
    return out


def _secrets(t: W.Tr, obs: dict, seat: int | None) -> Text | None:
    if seat is None:
        return None
    me = obs["shuluri"]["teams"][seat]
    if "hand" not in me:
        return None
    out = Text(t(P + "your_secrets") + ": ", style="bold")
    cards = []
    for h in me["hand"]:
        card = t(P + "term.card", n=h["card"], trap=W.trap(t, h["card"]), kind=t(P + f"kind.{h['kind']}"))
        cards.append(card + (" → " + W.fig(t, h["holder"]) if h["holder"] else ""))
    out.append(t(P + "term.cards", cards="; ".join(cards) or "-"))
    out.append(" · " + t(P + "discs") + " " + (" ".join(map(str, me["discs"])) or "-"))
    if me.get("starting_weapon"):
        out.append(" · " + t(P + "starting_weapon", w=W.weapon(t, me["starting_weapon"])))
    mine = [f for f in obs["shuluri"]["figures"] if f["seat"] == seat and not f["zombie"]]
    items = [t(P + "term.to", what=W.amulet(t, f["amulet"]), who=f["name"]) for f in mine if f.get("amulet")]
    items += [t(P + "term.to", what=f"ME {f['me']}", who=f["name"]) for f in mine if f["role"] != "wl" and f.get("me")]
    items += [t(P + "term.to", what=t(P + "term.vial"), who=f["name"]) for f in mine if f.get("vial") is True]
    items += [t(P + "term.to", what=t(P + "term.potion"), who=f["name"]) for f in mine if f.get("potion") is True]
    if items:
        out.append(" · " + ", ".join(items))
    return out


def _decision_args(t: W.Tr, d: dict) -> dict[str, str]:
    out = {}
    for k, v in d.items():
        if k in ("attacker", "target", "victim", "zombie", "mover", "pusher", "other", "from") and isinstance(v, str):
            out[k] = v if "," in v else W.fig(t, v)
        elif k == "spell" and isinstance(v, str):
            out[k] = W.spell(t, v)
    return out


def decision(t: W.Tr, obs: dict, seat: int | None, hints: dict | None) -> Text | None:
    d = obs["shuluri"].get("decision")
    if not d or obs["terminal"]:
        return None
    if d["seat"] != seat:
        return Text(t(P + "wait", name=_who(t, d["seat"], seat), what=t(P + f"what.{d['kind']}")), style="cyan")
    kind = d["kind"]
    key = P + f"term.do.{kind}" if W.has(t, P + f"term.do.{kind}") else P + f"do.{kind}"
    out = Text(t(key, **_decision_args(t, d)), style="bold cyan")
    h = hints or {}
    for name, man in (h.get("man") or {}).items():
        reach = len((h.get("reach") or {}).get(name, {})) - 1
        out.append("\n" + t(P + "man_left", who=W.fig(t, name), n=man) + " "
                   + t(P + "term.reach", n=max(0, reach)), style="dim")
    return out


def events_panel(t: W.Tr, obs: dict, last: int, width: int) -> Panel:
    out = Text()
    for line in W.events(t, obs["shuluri"], last):
        pos = 0
        for m in DICE.finditer(line):
            out.append(line[pos:m.start()])
            out.append(m.group(0), style="bold yellow")
            pos = m.end()
        out.append(line[pos:] + "\n")
    out.rstrip()
    return Panel(out, title=t(P + "events"), title_align="left", border_style="grey42", width=min(width, 80))


# --- the renderer protocol ----------------------------------------------------------------------------------------
def render(obs: dict, seat: int | None, hints: dict | None = None, *, t: W.Tr | None = None,
           view: str | None = None, width: int | None = None) -> Any:
    t = W.translator(t)
    width = width or 80
    name, _, arg = (view or "").strip().partition(" ")
    name = name.lower()
    if name == "map":
        return Group(M.map_with_list(obs, t, seat, width), M.legend(t))
    if name == "zoom":
        centre = M.zoom_centre(obs, arg, seat)
        if centre is None:
            return Text(t(P + "term.no_zoom", what=arg), style="red")
        return Group(Text(t(P + "term.zoom_title", field=M.B.field_name(centre)), style="bold"),
                     M.zoom_map(obs, centre, t), M.legend(t))
    parts: list[Any] = [_head(t, obs, seat), M.map_with_list(obs, t, seat, width), M.legend(t),
                        figures_table(t, obs, seat), _teams(t, obs, seat)]
    sec = _secrets(t, obs, seat)
    if sec is not None:
        parts.append(sec)
    parts.append(events_panel(t, obs, EVENTS_FULL if name == "full" else EVENTS, width))
    dec = decision(t, obs, seat, hints)
    if dec is not None:
        parts.append(dec)
    return Group(*parts)


def check_view(obs: dict, view: str, seat: int | None = None, t: W.Tr | None = None) -> str | None:
    """Why a view cannot be shown (one line), or None."""
    t = W.translator(t)
    name, _, arg = view.strip().partition(" ")
    if name.lower() == "zoom" and M.zoom_centre(obs, arg, seat) is None:
        return t(P + "term.no_zoom", what=arg.strip())
    return None


def label(text: str, t: W.Tr | None = None) -> str:
    """An action text in words (the terminal's lists and log, replay and review)."""
    return W.action(t, text)


_TOPIC_OF = {"name": "rounds", "end": "rounds", "move": "movement", "sneak": "movement", "hide": "movement",
             "run": "movement", "disengage": "melee", "attack": "melee", "shoot": "ranged", "aim": "ranged",
             "javelin": "weapons", "net": "weapons", "drop": "weapons", "pickup": "weapons", "wield": "weapons",
             "stand": "melee", "bell": "weapons", "open": "arena", "close": "arena", "cast": "magic",
             "cloud": "spells", "order": "zombies", "trap": "traps", "pass": "traps", "dodge": "melee",
             "push": "melee", "shove": "traps", "effect": "spells", "chain": "spells", "enemy": "spells",
             "traps": "setup", "amulets": "setup", "resist": "setup", "side": "setup", "first": "setup",
             "weapon": "weapons", "deploy": "setup", "map": "board", "zoom": "board"}


def describe(topic: str, t: W.Tr | None = None) -> str:
    """``help <action>``: the action in words, then the rules topic it belongs to (in the reader's language)."""
    from .topics import rules_topics  # (the descriptor's rules_topics)
    t = W.translator(t)
    topics = rules_topics()
    words = topic.lower().split()
    head = ""
    said = W.action(t, topic.strip())
    if said != topic.strip():
        head = f"**{said}**\n\n"
    for w in words:
        key = _TOPIC_OF.get(w, w)
        if key in topics:
            rules = getattr(t, "rules", None)
            return head + (rules("shuluri", key, topics[key]) if rules is not None else topics[key])
    return head + t(P + "term.no_help", topic=topic, topics=", ".join(sorted(topics)))
