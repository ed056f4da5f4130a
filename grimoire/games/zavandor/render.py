"""The Zavandor board in the terminal, drawn from one seat's observation (never from the state).

The observation is the core's envelope (round, current player, winners, legal actions, ...) with
Zavandor's own part under the key "zavandor" (docs/games/zavandor.md). The compact board fits 80
columns; the detail views (``VIEWS``) show the whole table of players, one's own hand and the
offer. Texts come from the game's catalogs through ``t`` (the interface passes a translator in the
player's language; without one, English). Fixed numbers (minimum bids, VP) come from the game's
static tables.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from rich.console import Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...core.text import fill
from .static import static_data

P = "zavandor."
GEM_STYLE = {"opal": "bright_white", "sapphire": "blue", "emerald": "green", "diamond": "cyan", "ruby": "red"}
COLOUR_STYLE = {"blue": "blue", "green": "green", "white": "bright_white", "red": "red"}
STAGES = {"phase 3: player actions": "turn", "phase 4: hand limit": "hand", "game over": "over"}
VIEWS = {"full": P + "term.view.full", "hand": P + "term.view.hand", "market": P + "term.view.market"}

Tr = Callable[..., str]


@functools.cache
def _tables() -> dict:
    d = static_data()
    return {"art": {a["id"]: a for a in d["artifacts"]}, "sent_min": d["sentinel_min_bid"],
            "sent_end": d["sentinels_to_end"],
            "conc": {c["colour"]: c["concentrated_value"] for c in d["cards"]}}


@functools.cache
def _english() -> dict[str, str]:
    from ...core.registry import game_info
    return game_info("zavandor").catalog("en")


def _fallback(key: str, **params) -> str:
    return fill(_english().get(key, key), params)


# --- names ---------------------------------------------------------------------------------------------
def _gem(t: Tr, g: str) -> str:
    return t(f"{P}gem.{g}.name")


def _item(t: Tr, item: str) -> str:
    return t(f"{P}art.{item}.name") if item in _tables()["art"] else t(f"{P}sent.{item}.name")


def _who(t: Tr, seat: int, me: int | None) -> str:
    return t(f"{P}you").lower() if seat == me else t(P + "term.seat_n", n=seat + 1)      # people count from 1


def _gems(t: Tr, d: dict) -> Text:
    out = Text()
    for g, n in d.items():
        if n:
            out.append(f"{t(f'{P}gem.{g}.letter')}{n} ", style=GEM_STYLE[g])
    return out or Text("-", style="dim")


def _cards(p: dict) -> Text:
    out = Text()
    if "card_values" in p:
        for v, colour in p["card_values"]:
            out.append(f"{v} ", style=COLOUR_STYLE[colour])
    else:
        for colour, n in p["cards"].items():
            if n:
                out.append(f"{n}×{colour[0]} ", style=COLOUR_STYLE[colour])
    return out or Text("- ", style="dim")


def _conc(d: dict) -> Text:
    out = Text()
    for colour, n in d.items():
        if n:
            out.append(f"{n}×c{_tables()['conc'][colour]} ", style=COLOUR_STYLE[colour])
    return out or Text("-", style="dim")


def _knowledge(t: Tr, d: dict, short: bool = True) -> str:
    def name(track: str) -> str:
        full = t(f"{P}track.{track}.name")
        return t(f"{P}term.track.{track}") if short else full
    return " ".join(f"{name(k)}{lv}" for k, lv in d.items() if lv) or "-"


def _items(t: Tr, p: dict) -> str:
    arts = [_item(t, k) + (f"×{n}" if n > 1 else "") for k, n in p["artifacts"].items()]
    return ", ".join(arts + [_item(t, s) for s in p["sentinels"]]) or "-"


def _under(t: Tr, p: dict) -> str:
    u = p["under_card"]
    parts = []
    if p.get("under_card_values"):
        parts.append(" ".join(str(v) for v, _c in p["under_card_values"]))
    elif sum(u["cards"].values()):
        parts.append(t(f"{P}term.n_cards", n=sum(u["cards"].values())))
    if u["dust"]:
        parts.append(f"d{u['dust']}")
    return ", ".join(parts) or "-"


# --- the parts of the board -----------------------------------------------------------------------------
def _head(t: Tr, env: dict, z: dict) -> Text:
    head = Text()
    stage = STAGES.get(z["stage"], "turn")
    head.append(f"{t(P + 'round', n=env['round'])} · {t(P + 'term.stage.' + stage)}", style="bold")
    sold, end = z["sentinels_sold"], _tables()["sent_end"]
    head.append(f"   {t(P + 'sentinels_sold')} {sold}/{end}" if sold <= end   # (the last round may sell more)
                else f"   {t(P + 'sentinels_sold')} {sold}")
    if env["terminal"]:
        head.append("\n")
        winners = ", ".join(t(P + "term.seat_n", n=w + 1) for w in env["winners"])
        head.append(f"{t(P + 'game_over')}: {winners} · {t(P + 'end_reason.' + (z['end_reason'] or 'sentinels'))}",
                    style="bold green")
    return head


def _order(t: Tr, z: dict, me: int | None) -> Text:
    out = Text(t(P + "turn_order") + ": ", style="dim")
    for i, s in enumerate(z["turn_order"]):
        p = z["players"][s]
        mod = z["modifiers"][s]
        style = "bold reverse" if s == z["active_player"] else ("bold" if s == me else "")
        out.append(f"{p['turn_order_card']} {_who(t, s, me)} {t(P + 'char.' + p['character'])} {p['vp']}", style=style)
        if mod["artifact"] or mod["sentinel"]:
            out.append(f" {mod['artifact']:+d}/{mod['sentinel']:+d}", style="yellow")
        if i < len(z["turn_order"]) - 1:
            out.append(" · ", style="dim")
    return out


def _offer(t: Tr, z: dict, me: dict | None) -> Text:
    art = _tables()["art"]
    out = Text(t(P + "term.offer") + ": ", style="dim")
    seen = []
    for k in z["display"]:
        if k in seen:
            continue
        seen.append(k)
        n = z["display"].count(k)
        out.append(_item(t, k) + (f"×{n}" if n > 1 else ""))
        price = f" {art[k]['min_bid']}"
        if me and k in me["prices_at_min"] and me["prices_at_min"][k] != art[k]["min_bid"]:
            price += f"→{me['prices_at_min'][k]}"
        out.append(price, style="yellow")
        out.append(" · ", style="dim")
    left = len(z["sentinels_available"])
    out.append(t(P + "term.sentinels_left", n=left, min=_tables()["sent_min"]))
    if me and left and me["prices_at_min"]["sentinel"] != _tables()["sent_min"]:
        out.append(f"→{me['prices_at_min']['sentinel']}", style="yellow")
    return out


def _players(t: Tr, env: dict, z: dict, me: int | None) -> Table:
    tb = Table(box=None, header_style="bold", pad_edge=False, padding=(0, 1), show_edge=False)
    for col, key in (("seat", P + "term.col_seat"), ("vp", P + "vp"), ("dust", P + "term.col_dust"),
                     ("hand", P + "term.col_hand"), ("gems", P + "term.col_gems"),
                     ("slots", P + "term.col_slots"), ("know", P + "term.col_knowledge"),
                     ("items", P + "term.col_items")):
        tb.add_column(t(key), no_wrap=col != "items", overflow="ellipsis" if col != "items" else "fold",
                      justify="right" if col in ("vp", "dust") else "left", max_width=14 if col == "seat" else None)
    for p in z["players"]:
        s = p["seat"]
        now = sum(p["score_now"].values())
        gems = _gems(t, p["gems_active"])
        if any(p["gems_inactive"].values()):
            gems.append("+ ", style="dim")
            gems.append_text(_gems(t, p["gems_inactive"]))
        style = "dim strike" if p["eliminated"] else ("bold" if s == me else "")
        name = f"{s + 1}{'*' if s == env['current_player'] else ' '}{t(P + 'char.' + p['character'])}"
        n_items = len(p["sentinels"]) + sum(p["artifacts"].values())
        tb.add_row(name, f"{p['vp']}({now})", str(p["dust"]), f"{p['hand_count']}/{p['hand_limit']}", gems,
                   f"{sum(p['gems_active'].values())}/{p['slots']}", _knowledge(t, p["knowledge"]),
                   _items(t, p) if n_items else "-", style=style)
    return tb


def _me(t: Tr, z: dict, seat: int) -> Text:
    p = z["players"][seat]
    out = Text(t(P + "term.you") + ": ", style="bold")
    out.append(t(P + "term.cards") + " ")
    out.append_text(_cards(p))
    if any(p["concentrated"].values()):
        out.append("· ")
        out.append_text(_conc(p["concentrated"]))
    out.append(f"· {t(P + 'dust')} {p['dust']} · {t(P + 'energy', n=p['energy'])} · "
               f"{t(P + 'capacity', n=p['capacity'])}")
    if _under(t, p) != "-":
        out.append(f" · {t(P + 'under_card')}: {_under(t, p)}", style="dim")
    out.append("\n" + t(P + "term.costs") + ": ", style="dim")
    out.append(" ".join(f"{t(P + 'gem.' + g + '.letter')}{c}" for g, c in p["gem_costs"].items()))
    return out


def _auction(t: Tr, z: dict, seat: int | None) -> Panel | None:
    auc = z.get("auction")
    if not auc:
        return None
    line = Text(f"{t(P + 'auction')}: {_item(t, auc['item'])} ({t(P + 'min_short', n=auc['min_bid'])}) · ",
                style="bold")
    if auc["high_bid"] is None:
        line.append(t(P + "term.no_bid_yet"))
    else:
        line.append(t(P + "term.high_bid", n=auc["high_bid"], who=_who(t, auc["high_bidder"], seat)))
    if auc["passed"]:
        line.append(" · " + t(P + "term.passed", who=", ".join(_who(t, s, seat) for s in auc["passed"])))
    if seat is not None and str(seat) in auc["price_for"] and auc["high_bid"] is not None:
        line.append(" · " + t(P + "your_price_now") + f": {auc['price_for'][str(seat)]}")
    return Panel(line, style="magenta", padding=(0, 1))


def _decision(t: Tr, env: dict, z: dict, seat: int | None) -> Text | None:
    d = z.get("decision")
    if not d:
        return None
    item = _item(t, d["item"]) if d.get("item") else ""
    if d["seat"] != seat:
        return Text(t(f"{P}wait.{d['kind']}", name=t(P + "term.seat_n", n=d["seat"] + 1), item=item), style="cyan")
    p = z["players"][seat]
    auc = z.get("auction")
    if d["kind"] == "bid" and auc and auc["high_bid"] is None:       # the opener must bid: no pass yet
        text = t(P + "term.do.open_bid", n=auc["min_bid"])
    else:
        text = t(f"{P}do.{d['kind']}", item=item, n=d.get("advances") or 1, count=p["hand_count"],
                 limit=p["hand_limit"])
    return Text(text, style="bold cyan")


def _defaults(t: Tr, hints: dict | None) -> list[Text]:
    out = []
    pay = (hints or {}).get("pay") or {}
    if pay.get("text"):
        out.append(Text(t(P + "term.default_pay", items=pay["text"][4:]), style="dim"))
    discard = (hints or {}).get("discard") or {}
    if discard.get("text"):
        out.append(Text(t(P + "term.default_discard", items=discard["text"][8:] or "-"), style="dim"))
    return out


# --- the detail views --------------------------------------------------------------------------------------
FULL_COLUMNS = [(P + "term.col_seat", False), (P + "term.col_char", False), (P + "vp", False), (P + "dust", False),
                (P + "term.cards", True), (P + "term.col_conc", False), (P + "term.col_active", False),
                (P + "term.col_inactive", False), (P + "term.col_slots", False), (P + "term.col_knowledge", True),
                (P + "tokens", False), (P + "term.col_items", True), (P + "term.col_hand", False),
                (P + "under_card", True)]
WIDE_TABLE = 160           # narrower terminals get the players as columns (14 columns do not fit 80)


def _full_cells(t: Tr, env: dict, p: dict, short: bool = False) -> list:
    now = sum(p["score_now"].values())
    cards = _cards(p)
    b = p["card_value_bounds"]
    if "card_values" not in p and b["max"]:
        cards.append(f"(~{b['avg']:g}, {b['min']}-{b['max']})", style="dim")
    return [f"{p['seat'] + 1}{'*' if p['seat'] == env['current_player'] else ''}",
            t(P + "char." + p["character"]), f"{p['vp']} ({now})", str(p["dust"]), cards,
            _conc(p["concentrated"]), _gems(t, p["gems_active"]), _gems(t, p["gems_inactive"]),
            f"{sum(p['gems_active'].values())}/{p['slots']}", _knowledge(t, p["knowledge"], short=short),
            f"{len(p['tokens_left'])}+{p['pentagon_tokens']}", _items(t, p),
            f"{p['hand_count']}/{p['hand_limit']}", _under(t, p)]


def _full_table(t: Tr, env: dict, z: dict, seat: int | None, width: int | None = None) -> Table:
    if width is not None and width < WIDE_TABLE:
        return _full_table_narrow(t, env, z, seat)
    tb = Table(show_lines=False, header_style="bold", pad_edge=False)
    for key, wrap in FULL_COLUMNS:
        tb.add_column(t(key), no_wrap=not wrap, overflow="fold")
    for p in z["players"]:
        style = "dim strike" if p["eliminated"] else ("bold" if p["seat"] == seat else "")
        tb.add_row(*_full_cells(t, env, p), style=style)
    return tb


def _full_table_narrow(t: Tr, env: dict, z: dict, seat: int | None) -> Table:
    """The same figures, one column per player and one row per figure: whole numbers at 80 columns."""
    tb = Table(show_lines=False, header_style="bold", pad_edge=False, box=None, padding=(0, 1))
    cells = [_full_cells(t, env, p, short=True) for p in z["players"]]
    tb.add_column("", overflow="fold", min_width=12)
    for p, c in zip(z["players"], cells, strict=True):
        style = "dim strike" if p["eliminated"] else ("bold" if p["seat"] == seat else "")
        tb.add_column(f"{c[0]} {c[1]}", overflow="fold", header_style="bold " + style if style else "bold",
                      style=style or None)
    for i, (key, _wrap) in enumerate(FULL_COLUMNS[2:], start=2):
        tb.add_row(Text(t(key), style="bold"), *(c[i] for c in cells))
    return tb


def _hand_view(t: Tr, z: dict, seat: int | None) -> list:
    if seat is None:
        return [Text(t(P + "term.no_hand"), style="dim")]
    p = z["players"][seat]
    out: list = [_me(t, z, seat)]
    tb = Table(title=t(P + "term.your_gems"), title_justify="left", box=None, header_style="bold", padding=(0, 1))
    for key in (P + "gem", P + "cost", P + "sale", P + "active_inactive"):
        tb.add_column(t(key))
    for g in p["gem_costs"]:
        tb.add_row(_gem(t, g), str(p["gem_costs"][g]), str(p["sale_values"][g]),
                   f"{p['gems_active'][g]} / {p['gems_inactive'][g]}")
    out.append(tb)
    kn = Table(title=t(P + "term.your_knowledge"), title_justify="left", box=None, padding=(0, 1))
    kn.add_column(t(P + "term.col_knowledge"))
    kn.add_column(t(P + "term.col_level"), justify="right")
    for track, lv in p["knowledge"].items():
        kn.add_row(t(f"{P}track.{track}.name"), str(lv))
    out.append(kn)
    out.append(Text(f"{t(P + 'tokens')}: {' '.join(map(str, p['tokens_left'])) or '-'}"
                    f" · {t(P + 'pentagon_tokens', n=p['pentagon_tokens'])}"
                    + (f" · {t(P + 'advanced_this_round')}" if p["paid_advance_used"] else "")))
    out.append(Text(f"{t(P + 'term.col_items')}: {_items(t, p)}"))
    return out


def _market_view(t: Tr, z: dict, seat: int | None) -> list:
    art = _tables()["art"]
    me = z["players"][seat] if seat is not None else None
    tb = Table(title=t(P + "artifacts_on_offer"), title_justify="left", box=None, header_style="bold", padding=(0, 1))
    for key in (P + "term.col_artifact", P + "min_bid", P + "vp", P + "term.col_your_price", P + "term.col_effect"):
        tb.add_column(t(key), overflow="fold")
    for k in dict.fromkeys(z["display"]):
        tb.add_row(f"{_item(t, k)} ({k})", str(art[k]["min_bid"]), str(art[k]["vp"]),
                   str(me["prices_at_min"].get(k, "")) if me else "", t(f"{P}art.{k}.short"))
    st = Table(title=t(P + "sentinels"), title_justify="left", box=None, header_style="bold", padding=(0, 1))
    st.add_column(t(P + "term.col_sentinel"))
    st.add_column(t(P + "term.col_effect"), overflow="fold")
    for s in z["sentinels_available"]:
        st.add_row(f"{_item(t, s)} ({s})", t(f"{P}sent.{s}.short"))
    stack = " ".join(f"{k}:{n}" for k, n in z["artifact_stack"].items() if n) or "-"
    price = (f" · {t(P + 'sentinel_price', min=_tables()['sent_min'], you=me['prices_at_min']['sentinel'])}"
             if me else "")
    return [tb, Text(f"{t(P + 'artifact_stack')}: {stack}"), st, Text(t(P + "sentinels") + price, style="dim")]


def render(obs: dict, seat: int | None, hints: dict | None = None, *, t: Tr | None = None, view: str | None = None,
           width: int | None = None):
    t = t or _fallback
    env, z = obs, obs["zavandor"]
    me = z["players"][seat] if seat is not None else None
    parts: list = [_head(t, env, z)]
    if view == "hand":
        parts += _hand_view(t, z, seat)
    elif view == "market":
        parts += _market_view(t, z, seat)
    else:
        parts.append(_order(t, z, seat))
        if view == "full":
            parts += _market_view(t, z, seat)
            parts.append(_full_table(t, env, z, seat, width))
        else:
            parts.append(_offer(t, z, me))
            parts.append(_players(t, env, z, seat))
        if me and seat is not None:             # (me is None without a seat)
            parts.append(_me(t, z, seat))
    if z.get("tab"):
        tab = z["tab"]
        key = P + ("term.tab_mine" if tab["seat"] == seat else "term.tab")
        parts.append(Text(t(key, who=_who(t, tab["seat"], seat), owed=tab["owed"], credit=tab["credit"]),
                          style="yellow"))
    auction = _auction(t, z, seat)
    if auction is not None:
        parts.append(auction)
    decision = _decision(t, env, z, seat)
    if decision is not None:
        parts.append(decision)
    parts += _defaults(t, hints)
    if view is None:
        parts.append(Text(t(P + "term.views_hint"), style="dim"))
    return Panel(Group(*parts), title=escape(t(P + "title")), border_style="blue", padding=(0, 1))


_BID = re.compile(r"^bid (\d+)$")


def warning(obs: dict, action_text: str, t: Tr | None = None) -> str | None:
    """A question before a legal but costly action: a bid beyond one's means brings the curse
    (7.5); opening an auction or ending the turn first pays the open purchases the default way."""
    t = t or _fallback
    legal = obs.get("legal_actions")
    if legal is None:                   # not this seat's decision: nothing to compare with
        return None
    z = obs["zavandor"]
    seat = obs.get("seat")
    if action_text.startswith("auction ") and action_text not in legal:
        return t(P + "term.warn.open_curse")
    m = _BID.match(action_text)
    if m:
        listed = [int(b.group(1)) for a in legal if (b := _BID.match(a))]
        limit = max(listed) if listed else None
        if limit is None or int(m.group(1)) > limit:
            if limit is None:
                return t(P + "term.warn.curse_none", n=m.group(1))
            return t(P + "term.warn.curse", n=m.group(1), max=limit)
        return None
    tab = z.get("tab")
    if tab and tab["seat"] == seat and (action_text.startswith("auction ") or action_text == "end"):
        need = max(0, tab["owed"] - tab["credit"])
        if need:
            return t(P + "term.warn.pays_tab", need=need)
    return None


def label(text: str, t: Tr) -> str:
    """An action text in words (the log)."""
    w = text.split()
    if not w:
        return text
    k = w[0]

    def gem(g: str) -> str:
        return _gem(t, g)

    if k == "buy":
        return t(P + ("log.buy_inactive" if w[-1] == "inactive" else "log.buy"), gem=gem(w[1]))
    if k == "sell":
        return (t(P + "log.sell_active", gem=_gem(t, w[2])) if w[1] == "active" else t(P + "log.sell", gem=gem(w[1])))
    if k in ("activate", "deactivate", "lose"):
        return t(f"{P}log.{k}", gem=gem(w[1]))
    if k == "token":
        return t(P + "log.token", n=w[1])
    if k == "advance":
        return t(P + "log.advance", track=t(f"{P}track.{w[1]}.name"))
    if k == "auction":
        return t(P + "log.auction", item=_item(t, w[1]))
    if k == "bid":
        return t(P + "log.bid", n=w[1])
    if k in ("pay", "discard"):
        return t(f"{P}log.{k}_items", items=" ".join(w[1:])) if len(w) > 1 else t(f"{P}log.{k}")
    if k in ("pass", "end", "skip"):
        return t(f"{P}log.{k}")
    return text


def describe(topic: str, t: Tr | None = None) -> str:
    """What an action does (its rules topic), in the player's language."""
    from .help import rules_topics  # (the descriptor's rules_topics)
    t = t or _fallback
    word = topic.split()[0].lower() if topic.split() else ""
    key = {"buy": "gems", "sell": "gems", "activate": "gems", "deactivate": "gems", "token": "knowledge",
           "advance": "knowledge", "auction": "auction", "bid": "auction", "pass": "auction", "pay": "payment",
           "discard": "hand-limit", "lose": "artifacts", "skip": "artifacts", "end": "turn"}.get(word, word)
    topics = rules_topics()
    if key not in topics:
        return t(P + "term.no_topic", topic=topic, topics=", ".join(sorted(topics)))
    translated = getattr(t, "rules", None)
    return translated("zavandor", key, topics[key]) if translated else topics[key]
