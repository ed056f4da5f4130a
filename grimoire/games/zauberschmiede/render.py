"""The Zauberschmiede sheet in the terminal, drawn from one seat's observation (never the state).

``render(obs, seat, hints=None, *, t=None, view=None)``: ``obs`` is the envelope of
``state.observation(seat)`` with the game's part under ``"zauberschmiede"``; the fixed sheet
(artifacts, fields, costs) comes from the game's static data. The compact sheet (``view=None``)
fits 80 columns in about 20 lines; ``VIEWS`` are the detail views: the whole sheet with every table
(``full``) and every seat's score breakdown (``scores``). What each die could go to is taken from
``hints`` when given, else derived from the observation's ``legal_actions`` (the same table).
Texts come from the game's catalogs through ``t`` (English without one).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from rich.console import Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...core.text import fill
from .hints import die_targets
from .menu import menu  # noqa: F401  (the renderer's picker hook, cli/render)
from .sheet import SHEET

COLOUR_STYLE = {"green": "green", "purple": "magenta", "yellow": "yellow"}
P = "zauberschmiede."
VIEWS = {"full": P + "term.view.full", "scores": P + "term.view.scores"}
SCORE_LABELS = [(k, f"score.{k}") for k in ("S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8")]


def _style(colour: str) -> str:
    return COLOUR_STYLE.get(colour, "white")


@cache
def _sheet() -> dict[str, Any]:
    return SHEET.public_dict()


@cache
def _english() -> dict[str, str]:
    from ...core.registry import game_info
    return game_info("zauberschmiede").catalog("en")


def _fallback(key: str, **params) -> str:
    return fill(_english().get(key, key), params)


def _compact_targets(t, items: list[str]) -> Text:
    """'charge am1 green', 'upgrade green', 'dust' ... as one short line: the artifacts whose fields
    take the die, then the other places."""
    arts: list[str] = []
    rest: dict[str, list[str]] = {}
    for it in items:
        w = it.split()
        if w[0] == "charge":
            if w[1] not in arts:
                arts.append(w[1])
        else:
            rest.setdefault(w[0], []).extend(w[1:2])
    out = Text()
    if arts:
        out.append(" ".join(arts))
    for kind, args in rest.items():
        if out:
            out.append(" · ", style="dim")
        out.append(t(f"{P}term.kind.{kind}"))
        for a in args:
            out.append(" " + a[0], style=_style(a))
    return out


def _cell(art: dict, values: list, sh: dict) -> Text:
    """One artifact in a few characters: its id, each field (value or a dot, in the field's colour)
    and its state (✓ complete, * charged: pay the dust, + amplified)."""
    aid = art["id"]
    out = Text(aid.lower() + " ", style="bold" if aid in sh["complete"] else "")
    for f, v in zip(art["fields"], values, strict=True):
        out.append(str(v) if v is not None else "·", style=(f"bold {_style(f['colour'])}" if v is not None
                                                             else f"dim {_style(f['colour'])}"))
    if aid in sh["complete"]:
        out.append(" ✓", style="bold green")
        if aid in sh["amplified"]:
            out.append("+", style="bold red")
    elif aid in sh["fully_charged"]:
        out.append(" *", style="bold yellow")
    return out


def _compact_sheet(t, sh: dict) -> Table:
    tb = Table.grid(padding=(0, 2))
    tb.add_column(style="dim", no_wrap=True)
    for _ in range(3):
        tb.add_column(no_wrap=True)
    for cat in _sheet()["categories"]:
        arts = [a for a in _sheet()["artifacts"] if a["category"] == cat["id"]]
        cells = [_cell(a, sh["fields"][a["id"]], sh) for a in arts]
        tb.add_row(t(f"{P}cat.{cat['id']}"), *(cells + [Text("")] * (3 - len(cells))))
    return tb


def _compact_side(t, obs: dict, sh: dict) -> Text:
    out = Text()
    out.append(t(P + "cauldron") + " ", style="bold")
    out.append(" ".join(str(n) for n in sh["dust_boxes"]), style="blue")
    out.append(f" ={sum(sh['dust_boxes'])} · {t(P + 'fresh_dust')} {sh['fresh_dust']}")
    stocks = [f"r{s['round']}:{s['amount']}" for s in sh["stocks"] if not s["spent"]]
    if stocks:
        out.append(f" · {t(P + 'stocks')} " + " ".join(stocks))
    out.append("\n")
    costs = _sheet()["amplifier_level_costs"]
    out.append(t(P + "amplifier") + " ", style="bold")
    out.append(f"L{sh['amp_level']}", style="bold red")
    if sh["amp_level"] < len(costs):
        out.append(" " + t(P + "term.next_level", n=sh["amp_level"] + 1, paid=sh["amp_paid"],
                           cost=costs[sh["amp_level"]]), style="dim")
    out.append(" · ")
    for colour in _sheet()["colours"]:
        out.append(colour[0], style=f"bold {_style(colour)}")
        for v in _sheet()["colour_upgrade_values"]:
            marked = v in sh["upgrades"][colour]
            out.append(str(v) if marked else "·", style=f"bold {_style(colour)}" if marked else "dim")
        out.append(" ")
    out.append(f"· {t(P + 'transmutations')} {sh['transmutations_left']}")
    out.append("\n")
    final = obs["terminal"]
    out.append((t(P + "final_score") if final else t(P + "term.score_now_short")) + ": ", style="bold")
    out.append(" ".join(f"{k} {sh['score'][k]}" for k, _ in SCORE_LABELS))
    out.append(f" = {sh['score']['total']}", style="bold")
    return out


def _compact_dice(t, obs: dict, sh: dict, targets: dict | None) -> list:
    g = obs["zauberschmiede"]
    line = Text(t(P + "term.dice") + ": ", style="bold")
    for i, v in enumerate(sh["dice"]):
        used = sh["used"][i]
        mark = "~" if i in sh["transmuted"] else ""
        line.append(f"{mark}{v}", style="dim strike" if used else "bold")
        line.append(" ")
    rolled = " ".join(map(str, g["roll"]))
    line.append(f"({t(P + 'roll')} {rolled})", style="dim")
    out: list = [line]
    if targets:
        seen: set[int] = set()
        for i, v in enumerate(sh["dice"]):
            if sh["used"][i] or v in seen:
                continue
            seen.add(v)
            row = Text(f"  {v} → ", style="bold")
            row.append_text(_compact_targets(t, targets.get(str(v), [])) or Text("-", style="dim"))
            out.append(row)
    return out


def _compact_others(t, obs: dict, seat: int | None) -> list:
    out = []
    for sh in obs["zauberschmiede"]["sheets"]:
        if sh["seat"] == seat:
            continue
        colours = " ".join(f"{c[0]}{len(v)}" for c, v in sh["upgrades"].items())
        row = Text(t(P + "term.other_line", seat=sh["seat"] + 1, points=sh["score"]["total"], n=len(sh["complete"]),
                     dust=sum(sh["dust_boxes"]), level=sh["amp_level"], colours=colours))
        if sh["decided"] and not obs["terminal"]:
            row.append(" ✓", style="green")
        out.append(row)
    if out and not obs["terminal"]:
        out.append(Text(t(P + "term.others_note"), style="dim"))
    return out


def _dice_row(t, obs: dict, sh: dict, targets: dict | None) -> Table:
    t_ = Table(title=t(P + "term.full.dice_title", n=obs["round"], total=obs["zauberschmiede"]["rounds"]),
               show_header=True)
    t_.add_column(t(P + "term.full.die"))
    t_.add_column(t(P + "term.full.rolled"))
    t_.add_column(t(P + "term.full.on_sheet"))
    if targets is not None:
        t_.add_column(t(P + "term.full.could_go_to"), overflow="fold")
    seen: dict[int, int] = {}
    for i, v in enumerate(sh["dice"]):
        rolled = obs["zauberschmiede"]["roll"][i]
        used = sh["used"][i]
        shown = Text(str(v), style="bold")
        note = f"  ({t(P + 'transmuted_from', v=rolled)})" if i in sh["transmuted"] else ""
        if note:
            shown.append(note, style="cyan")
        row: list[str | Text] = [str(i + 1), str(rolled), shown]
        if used:
            row[2] = Text(f"{v}  {t(P + 'term.full.used', what=_used_label(t, used))}{note}", style="dim")
        if targets is not None:
            if used:
                row.append("")
            elif v in seen:
                row.append(Text(t(P + "term.full.as_die", n=seen[v]), style="dim"))
            else:
                seen[v] = i + 1
                row.append(_targets(t, targets.get(str(v), [])))
        t_.add_row(*row)
    return t_


def _used_label(t, label: str) -> str:
    """What a die went to ('AM1 green', 'dust', 'amp L2', 'amplify AM1', 'green 5') in words."""
    w = label.split()
    if label == "dust":
        return t(P + "used.dust")
    if w[0] == "amp":
        return t(P + "used.unlock", level=w[1][1:])
    if w[0] == "amplify":
        return t(P + "used.amplify", artifact=t(P + "art." + w[1].lower()))
    if len(w) == 2 and w[1] in COLOUR_STYLE:
        return t(P + "used.charge", artifact=t(P + "art." + w[0].lower()), colour=t(P + "colour." + w[1]))
    return t(P + "used.upgrade", colour=t(P + "colour." + w[0]), v=w[1])


def _targets(t, items: list[str]) -> Text:
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
    out = Text()
    if charge:
        out.append(t(P + "term.full.fields") + ": ")
        for art, colours in charge.items():
            out.append(art)
            out.append("(")
            for j, c in enumerate(colours):
                out.append(("" if j == 0 else " ") + c[0], style=_style(c))
            out.append(") ")
    for kind, args in rest.items():
        if out:
            out.append("| ", style="dim")
        out.append(kind)
        for a in args:
            out.append(" " + a, style=_style(a))
        out.append(" ")
    return out


def _fields(art: dict, values: list) -> Text:
    out = Text()
    for f, v in zip(art["fields"], values, strict=True):
        style = _style(f["colour"])
        out.append("[" + f["colour"][0], style=style)
        if v is not None:
            out.append(str(v), style=f"bold {style}")
        else:
            out.append(f"≥{f['min']}", style=f"dim {style}")
        out.append("] ", style=style)
    return out


def _artifacts(t, sh: dict) -> Table:
    t_ = Table(title=t(P + "term.full.artifacts"), show_header=True)
    for col in ("id", "artifact", "category", "fields", "dust", "base", "state"):
        t_.add_column(t(P + "term.full.col_" + col))
    complete, amplified, charged = set(sh["complete"]), set(sh["amplified"]), set(sh["fully_charged"])
    for art in _sheet()["artifacts"]:
        aid = art["id"]
        vals = sh["fields"][aid]
        if aid in complete:
            state = Text(t(P + "state.complete"), style="bold green")
            if aid in amplified:
                state.append(" + " + t(P + "amplified"), style="bold red")
        elif aid in charged:
            state = Text(t(P + "state.charged"), style="bold yellow")
        elif any(v is not None for v in vals):
            state = Text(t(P + "state.partly", n=sum(v is not None for v in vals), of=len(vals)))
        else:
            state = Text("-", style="dim")
        dust = ("x" if aid in complete else "*") * art["dust"]
        t_.add_row(aid.lower(), t(P + "art." + aid.lower()), t(P + "cat." + art["category"]), _fields(art, vals),
                   dust, str(art["base"]), state)
    return t_


def _side(t, obs: dict, sh: dict) -> Table:
    t_ = Table(show_header=False, box=None, padding=(0, 1))
    t_.add_column(style="bold")
    t_.add_column()
    boxes = Text()
    for r, n in enumerate(sh["dust_boxes"], start=1):
        style = "bold blue" if r == obs["round"] and not obs["terminal"] else "blue"
        boxes.append(f"[{n}]", style=style if n else "dim")
        boxes.append(" ")
    boxes.append(" = " + t(P + "dust_produced", n=sum(sh["dust_boxes"])))
    t_.add_row(t(P + "cauldron"), boxes)
    stocks = [f"r{s['round']}: {s['amount']}" + (" ✗" if s["spent"] else "") for s in sh["stocks"]]
    t_.add_row(t(P + "fresh_dust"), str(sh["fresh_dust"]))
    t_.add_row(t(P + "stocks"), ", ".join(stocks) or "-")
    costs = _sheet()["amplifier_level_costs"]
    amp = Text()
    for lvl, c in enumerate(costs, start=1):
        if sh["amp_level"] >= lvl:
            amp.append(f"[L{lvl} x] ", style="bold red")
        elif sh["amp_level"] + 1 == lvl and sh["amp_paid"]:
            amp.append(f"[L{lvl} {sh['amp_paid']}/{c}] ", style="red")
        else:
            amp.append(f"[L{lvl}: {c}] ", style="dim")
    t_.add_row(t(P + "amplifier"), amp)
    for colour in _sheet()["colours"]:
        row = Text()
        for v in _sheet()["colour_upgrade_values"]:
            marked = v in sh["upgrades"][colour]
            row.append(f"[{v}{' x' if marked else ''}] ", style=f"bold {_style(colour)}" if marked else "dim")
        row.append(" " + t(P + "level_n", n=len(sh["upgrades"][colour])))
        t_.add_row(Text(t(P + "colour." + colour), style=_style(colour)), row)
    t_.add_row(t(P + "transmutations"), t(P + "left_n", n=sh["transmutations_left"]))
    return t_


def _score(t, sh: dict, final: bool) -> Table:
    t_ = Table(title=t(P + "final_score") if final else t(P + "score_now"), show_header=False)
    t_.add_column()
    t_.add_column(justify="right")
    for k, label in SCORE_LABELS:
        t_.add_row(f"{k} {t(P + label)}", str(sh["score"][k]))
    t_.add_row(Text(t(P + "total"), style="bold"), Text(str(sh["score"]["total"]), style="bold"))
    return t_


def _others(t, obs: dict, seat: int | None) -> Table:
    title = t(P + "term.full.all_sheets") + ("" if obs["terminal"] else " " + t(P + "term.full.as_of_start"))
    t_ = Table(title=title)
    for col in ("seat", "decided", "complete", "dust", "amp", "colours", "score"):
        t_.add_column(t(P + "term.full.col_" + col))
    for sh in obs["zauberschmiede"]["sheets"]:
        colours = " ".join(f"{c[0]}{len(v)}" for c, v in sh["upgrades"].items())
        name = f"{sh['seat'] + 1}" + (f" ({t(P + 'you').lower()})" if sh["seat"] == seat else "")
        t_.add_row(name, "✓" if sh["decided"] else "-", ", ".join(a.lower() for a in sh["complete"]) or "-",
                   str(sum(sh["dust_boxes"])), f"L{sh['amp_level']}", colours, str(sh["score"]["total"]))
    return t_


def _scores_view(t, obs: dict) -> Table:
    t_ = Table(title=t(P + "final_score") if obs["terminal"] else t(P + "score_now"))
    t_.add_column(t(P + "term.full.col_seat"))
    for k, _label in SCORE_LABELS:
        t_.add_column(k, justify="right")
    t_.add_column(t(P + "total"), justify="right")
    for sh in obs["zauberschmiede"]["sheets"]:
        mark = " ★" if sh["seat"] in obs["winners"] else ""
        t_.add_row(f"{sh['seat'] + 1}{mark}", *[str(sh["score"][k]) for k, _ in SCORE_LABELS],
                   str(sh["score"]["total"]))
    return t_


def _headline(t, obs: dict) -> Text:
    g = obs["zauberschmiede"]
    if obs["terminal"]:
        winners = ", ".join(t(P + "term.seat_n", n=w + 1) for w in obs["winners"])
        return Text(t(P + "term.game_over_line", n=obs["round"], winners=winners, count=len(obs["winners"])),
                    style="bold")
    head = Text(t(P + "term.round_line", n=obs["round"], total=g["rounds"], roll=" ".join(map(str, g["roll"])),
                  seat=obs["current_player"] + 1), style="bold")
    return head


def render(obs: dict, seat: int | None, hints: dict | None = None, *, t=None, view: str | None = None,
           width: int | None = None):
    t = t or _fallback
    g = obs["zauberschmiede"]
    parts: list = [_headline(t, obs)]
    me = g["sheets"][seat] if seat is not None else None
    if me is None and obs["num_players"] == 1:
        me = g["sheets"][0]
    targets = None
    if me is not None and not obs["terminal"]:
        targets = (hints or {}).get("die_targets")
        if targets is None and obs["legal_actions"] is not None:
            targets = die_targets(obs["legal_actions"])
    title = t(P + "term.sheet_of", n=me["seat"] + 1) if me is not None else t(P + "title")
    if view == "scores":
        parts.append(_scores_view(t, obs))
    elif view == "full":
        if me is not None:
            if not obs["terminal"]:
                parts.append(_dice_row(t, obs, me, targets))
            parts.append(_artifacts(t, me))
            side = Table.grid(padding=(0, 4))
            side.add_row(_side(t, obs, me), _score(t, me, obs["terminal"]))
            parts.append(side)
            this_round = [x for r, x in me["log"] if r == obs["round"]]
            if this_round and not obs["terminal"]:
                parts.append(Text(t(P + "term.this_round") + ": " + "; ".join(this_round), style="dim"))
        if obs["num_players"] > 1 or me is None:
            parts.append(_others(t, obs, seat))
        if obs["terminal"]:
            parts.append(_scores_view(t, obs))
    else:
        if me is not None:
            if not obs["terminal"]:
                parts += _compact_dice(t, obs, me, targets)
            parts.append(_compact_sheet(t, me))
            parts.append(_compact_side(t, obs, me))
        parts += _compact_others(t, obs, seat if me is not None else None)
        if obs["terminal"] and obs["num_players"] > 1:
            parts.append(_scores_view(t, obs))
        parts.append(Text(t(P + "term.views_hint"), style="dim"))
    return Panel(Group(*parts), title=escape(title), padding=(0, 1))


def describe(text: str, t=None) -> str:
    """A longer explanation of an action text (or, for a rules topic name, the topic's text)."""
    t = t or _fallback
    words = text.strip().lower().split()
    if words and _english().get(f"{P}term.kind_help.{words[0]}"):
        return f"{text.strip()}: {t(P + 'term.kind_help.' + words[0])}"
    from .topics import rules_topics  # (the descriptor's rules_topics)

    topics = rules_topics()
    key = words[0] if words else "overview"
    if key in topics:
        translated = getattr(t, "rules", None)
        return translated("zauberschmiede", key, topics[key]) if translated else topics[key]
    return t(P + "term.no_topic", topics=", ".join(topics), actions=", ".join(KINDS))


KINDS = ("charge", "pay", "amplify", "upgrade", "unlock", "dust", "transmute", "end")


def warning(obs: dict, action_text: str, t=None) -> str | None:
    """Warn before a legal but wasteful action."""
    t = t or _fallback
    seat = obs.get("seat")
    if seat is None:
        return None
    me = obs["zauberschmiede"]["sheets"][seat]
    words = action_text.split()
    if words == ["end"]:
        left = sum(1 for u in me["used"] if not u)
        if left:
            return t(P + "unused_warning", n=left)
    if words and words[0] == "pay" and len(words) > 2:
        arts = {a["id"].lower(): a for a in _sheet()["artifacts"]}
        cost = arts[words[1]]["dust"]
        stocks = {f"r{s['round']}": s["amount"] for s in me["stocks"] if not s["spent"]}
        total = sum(stocks.get(w, 0) for w in words[2:])
        if total > cost:
            return t(P + "term.warn.stock_lost", total=total, cost=cost, lost=total - cost)
    return None


def label(text: str, t) -> str:
    """An action text in words (the log): the board's log lines."""
    w = text.split()
    if not w:
        return text

    def art(a: str) -> str:
        return t(P + "art." + a)

    def colour(c: str) -> str:
        return t(P + "colour." + c)

    k = w[0]
    if k == "charge" and len(w) == 4:
        return t(P + "log.charge", artifact=art(w[1]), colour=colour(w[2]), v=w[3])
    if k == "pay" and len(w) >= 2:
        if len(w) > 2:
            return t(P + "log.pay_stocks", artifact=art(w[1]), stocks=", ".join(r[1:] for r in w[2:]))
        return t(P + "log.pay", artifact=art(w[1]))
    if k == "amplify" and len(w) == 3:
        return t(P + "log.amplify", artifact=art(w[1]), v=w[2])
    if k == "upgrade" and len(w) == 3:
        return t(P + "log.upgrade", colour=colour(w[1]), v=w[2])
    if k in ("unlock", "dust") and len(w) == 2:
        return t(f"{P}log.{k}", v=w[1])
    if k == "transmute" and len(w) == 4:
        return t(P + "log.transmute", v=w[1], w=w[3])
    if k == "end":
        return t(P + "log.end")
    return text
