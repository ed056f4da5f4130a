"""The Zavandor board in the terminal, drawn from one seat's observation (never from the state).

The observation is the core's envelope (round, current player, winners, legal actions, ...) with
Zavandor's own part under the key "zavandor" (docs/games/zavandor.md).
"""

from __future__ import annotations

import re

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

GEM_STYLE = {"opal": ("O", "bright_white"), "sapphire": ("S", "blue"), "emerald": ("E", "green"),
             "diamond": ("D", "cyan"), "ruby": ("R", "red")}
COLOUR_STYLE = {"blue": "blue", "green": "green", "white": "bright_white", "red": "red"}
TRACK_SHORT = {"gems": "Gem", "flow": "Flow", "fire": "Fire", "sages": "Sage", "artifacts": "Art",
               "accumulation": "Acc"}
ARTIFACT_LABEL = {"spellbook": "Spellbook", "runestone": "Runestone", "crystal-ball": "Crystal Ball", "belt": "Belt",
                  "mirror": "Mirror", "protection": "Protection", "elixir": "Elixir", "mask": "Mask", "wand": "Wand",
                  "chalice": "Chalice", "cloak": "Cloak", "talisman": "Talisman"}
ARTIFACT_MIN = {"spellbook": 20, "runestone": 20, "crystal-ball": 20, "belt": 30, "mirror": 40, "protection": 40,
                "elixir": 60, "mask": 50, "wand": 60, "chalice": 80, "cloak": 80, "talisman": 100}


def _gems(d: dict) -> Text:
    t = Text()
    for g, n in d.items():
        if n:
            letter, style = GEM_STYLE[g]
            t.append(f"{letter}{n} ", style=style)
    return t or Text("-", style="dim")


def _cards(p: dict) -> Text:
    t = Text()
    if "card_values" in p:
        for v, colour in p["card_values"]:
            t.append(f"{v} ", style=COLOUR_STYLE[colour])
    else:
        for colour, n in p["cards"].items():
            if n:
                t.append(f"{n}×{colour[0]} ", style=COLOUR_STYLE[colour])
        b = p["card_value_bounds"]
        if b["max"]:
            t.append(f"(~{b['avg']:g}, {b['min']}-{b['max']})", style="dim")
    return t or Text("-", style="dim")


def _conc(d: dict) -> Text:
    t = Text()
    values = {"blue": 20, "green": 30, "white": 40, "red": 60}
    for colour, n in d.items():
        if n:
            t.append(f"{n}×c{values[colour]} ", style=COLOUR_STYLE[colour])
    return t or Text("-", style="dim")


def _under(p: dict) -> str:
    u = p["under_card"]
    parts = []
    if "under_card_values" in p and p["under_card_values"]:
        parts.append(" ".join(str(v) for v, _c in p["under_card_values"]))
    else:
        n = sum(u["cards"].values())
        if n:
            parts.append(f"{n} cards")
    if u["dust"]:
        parts.append(f"d{u['dust']}")
    return ", ".join(parts) or "-"


def _knowledge(d: dict) -> str:
    return " ".join(f"{TRACK_SHORT[t]}{lv}" for t, lv in d.items() if lv) or "-"


def render(obs: dict, seat: int | None, hints: dict | None = None):
    env = obs
    obs = env["zavandor"]
    parts = []
    head = Text()
    head.append(f"Round {env['round']} · {obs['stage']}", style="bold")
    if env["terminal"]:
        head.append(f" · winners: {', '.join(map(str, env['winners']))} ({obs['end_reason']})", style="bold green")
    head.append(f"   sentinels sold {obs['sentinels_sold']}/5")
    parts.append(head)

    order = Text("Turn order: ")
    for i, s in enumerate(obs["turn_order"]):
        p = obs["players"][s]
        mod = obs["modifiers"][s]
        style = "bold reverse" if s == obs["active_player"] else ""
        order.append(f"{p['turn_order_card']} seat {s} ({p['character']})", style=style)
        if mod["artifact"] or mod["sentinel"]:
            order.append(f" [{mod['artifact']:+d}/{mod['sentinel']:+d}]", style="yellow")
        if i < len(obs["turn_order"]) - 1:
            order.append("  ")
    parts.append(order)

    me = obs["players"][seat] if seat is not None else None
    offer = Table(title="On offer", title_justify="left", show_edge=False, pad_edge=False)
    offer.add_column("artifact")
    offer.add_column("min", justify="right")
    if me:
        offer.add_column("your price at min", justify="right")
    for k in obs["display"]:
        row = [ARTIFACT_LABEL.get(k, k), str(ARTIFACT_MIN.get(k, ""))]
        if me:
            row.append(str(me["prices_at_min"].get(k, "")))
        offer.add_row(*row)
    stack = " ".join(f"{L}:{n}" for L, n in obs["artifact_stack"].items() if n) or "empty"
    sentinels = Text("Sentinels (min 120): " + (", ".join(obs["sentinels_available"]) or "none left"))
    if me and obs["sentinels_available"]:
        sentinels.append(f"  (your price at min: {me['prices_at_min']['sentinel']})")
    parts.append(offer)
    parts.append(Text(f"Artifact stack {stack}"))
    parts.append(sentinels)

    t = Table(show_lines=False, header_style="bold", pad_edge=False)
    for col in ("seat", "char", "VP", "now", "dust", "cards", "conc", "active", "inactive", "slots",
                "knowledge", "tokens", "artifacts", "sentinels", "hand", "under card"):
        t.add_column(col, no_wrap=col not in ("cards", "artifacts", "sentinels"))
    for p in obs["players"]:
        now = sum(p["score_now"].values())
        arts = ", ".join(f"{ARTIFACT_LABEL.get(k, k)}{'×' + str(n) if n > 1 else ''}"
                         for k, n in p["artifacts"].items())
        style = "dim strike" if p["eliminated"] else ("bold" if p["seat"] == seat else "")
        t.add_row(
            f"{p['seat']}{'*' if p['seat'] == env['current_player'] else ''}", p["character"], str(p["vp"]), str(now),
            str(p["dust"]), _cards(p), _conc(p["concentrated"]), _gems(p["gems_active"]), _gems(p["gems_inactive"]),
            f"{sum(p['gems_active'].values())}/{p['slots']}", _knowledge(p["knowledge"]),
            f"{len(p['tokens_left'])}+{p['pentagon_tokens']}p", arts or "-", ", ".join(p["sentinels"]) or "-",
            f"{p['hand_count']}/{p['hand_limit']}", _under(p), style=style)
    parts.append(t)

    if me:
        info = Text(f"You: seat {seat}, {me['character']}. Energy {me['energy']}, payment capacity "
                    f"{me['capacity']}. Gem costs: "
                    + ", ".join(f"{g} {c}" for g, c in me["gem_costs"].items()))
        parts.append(info)
    if obs.get("tab"):
        tab = obs["tab"]
        parts.append(Text(f"Open purchase of seat {tab['seat']}: owes {tab['owed']}, credit from sales "
                          f"{tab['credit']}", style="yellow"))
    auc = obs.get("auction")
    if auc:
        passed = ", ".join(map(str, auc["passed"])) or "nobody"
        line = (f"AUCTION {auc['item']} (min {auc['min_bid']}): high bid {auc['high_bid']} by seat "
                f"{auc['high_bidder']}; passed: {passed}")
        if seat is not None and str(seat) in auc["price_for"] and auc["high_bid"] is not None:
            line += f"; that bid would cost you {auc['price_for'][str(seat)]}"
        parts.append(Panel(line, style="magenta"))
    dec = obs.get("decision")
    if dec:
        who = "You" if dec["seat"] == seat else f"Seat {dec['seat']}"
        what = {"turn": "take your turn", "bid": "bid or pass", "apay": f"pay for {dec.get('item')}",
                "free": f"use {dec.get('advances')} free knowledge advance(s)", "ftoken": "take a free token",
                "lose": "give up an active gem", "discard": "discard down to the hand limit"}[dec["kind"]]
        parts.append(Text(f"{who} must {what}.", style="bold cyan"))
    pay = (hints or {}).get("pay") or {}
    if pay.get("text"):
        parts.append(Text(f"The default 'pay' hands over: {pay['text'][4:]}", style="dim"))
    discard = (hints or {}).get("discard") or {}
    if discard.get("text"):
        parts.append(Text(f"The default 'discard' gives up: {discard['text'][8:] or 'nothing'}", style="dim"))
    return Panel(Group(*parts), title="The Scepter of Zavandor", border_style="blue")


_BID = re.compile(r"^bid (\d+)$")


def warning(obs: dict, action_text: str) -> str | None:
    """Warn before a bid beyond one's means: the engine applies the curse (7.5)."""
    legal = obs.get("legal_actions")
    if legal is None:                   # not this seat's decision: nothing to compare with
        return None
    if action_text.startswith("auction ") and action_text not in legal:
        return ("You could not pay even the minimum bid for this item: your opening bid would bring the curse "
                "of the 9 Sages and eliminate you from the game.")
    m = _BID.match(action_text)
    if not m:
        return None
    listed = [int(b.group(1)) for a in legal if (b := _BID.match(a))]
    limit = max(listed) if listed else None
    if limit is None or int(m.group(1)) > limit:
        most = f" (the most you can pay for is a bid of {limit})" if limit is not None else ""
        return (f"A bid of {m.group(1)} is more than you could pay{most}: the curse of the 9 Sages will "
                f"eliminate you from the game.")
    return None


def describe(topic: str) -> str:
    from ...core.registry import game_info
    word = topic.split()[0].lower() if topic.split() else ""
    key = {"buy": "gems", "sell": "gems", "activate": "gems", "deactivate": "gems", "token": "knowledge",
           "advance": "knowledge", "auction": "auction", "bid": "auction", "pass": "auction", "pay": "payment",
           "discard": "hand-limit", "lose": "artifacts", "skip": "artifacts", "end": "turn"}.get(word, word)
    topics = game_info("zavandor").rules_topics()
    return topics.get(key, f"No help for '{topic}'. Topics: " + ", ".join(sorted(topics)))
