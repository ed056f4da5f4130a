"""Per-seat hints for the browser, computed through the public contract only.

Zavandor: when a seat must pay or discard, the UI preselects the engine's own choice (the default
``pay`` / ``discard``). The engine does not list which cards that choice uses, so it is worked out
here: play the default on a copy, see which of the seat's own cards, concentrated cards and dust it
used (from the seat's own observation, nothing hidden), write that as an explicit action text and
check that the explicit text leads to exactly the same state. Only that seat ever receives it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from ..core.errors import GrimoireError
from ..core.state import GameState

COLOUR_LETTER = {"blue": "b", "green": "g", "white": "w", "red": "r"}
CONC_VALUE = {"blue": 20, "green": 30, "white": 40, "red": 60}


def _without_history(d: dict) -> dict:
    return {k: v for k, v in d.items() if k != "history"}


def _same_result(state: GameState, a: str, b: str) -> bool:
    x, y = state.clone(), state.clone()
    try:
        x.apply(a)
        y.apply(b)
    except GrimoireError:
        return False
    return _without_history(x.to_dict()) == _without_history(y.to_dict())


def _representable(v: int) -> bool:
    return v == 0 or (v >= 2 and v != 3)


def _items_text(verb: str, cards: list[list], conc: dict[str, int], dust: int) -> str:
    words = [f"{v}{COLOUR_LETTER[c]}" for v, c in cards]
    for colour, n in conc.items():
        words += [f"c{CONC_VALUE[colour]}"] * n
    if dust:
        words.append(f"d{dust}")
    return " ".join([verb] + words)


def _used(before: dict, after: dict) -> tuple[list[list], dict[str, int]]:
    """Cards and concentrated cards that left the seat's hand (multiset difference)."""
    b = Counter(tuple(x) for x in before["card_values"])
    a = Counter(tuple(x) for x in after.get("card_values", []))
    cards = sorted(([v, c] for (v, c), n in (b - a).items() for _ in range(n)), key=lambda x: (-x[0], x[1]))
    conc = {c: before["concentrated"][c] - after["concentrated"].get(c, 0)
            for c in before["concentrated"] if before["concentrated"][c] > after["concentrated"].get(c, 0)}
    return cards, conc


def zavandor_hints(state: GameState, seat: int, obs: dict) -> dict[str, Any]:
    legal = obs.get("legal_actions") or []
    out: dict[str, Any] = {}
    me = obs["players"][seat]
    if "pay" in legal and obs.get("tab") and obs["tab"]["seat"] == seat:
        need = obs["tab"]["owed"] - obs["tab"]["credit"]
        out["pay"] = {"need": need}
        if need > 0:
            after = state.clone()
            after.apply("pay")
            cards, conc = _used(me, after.observation(seat)["players"][seat])
            value = sum(v for v, _c in cards) + sum(CONC_VALUE[c] * n for c, n in conc.items())
            dust = 0
            if value < need:
                dust = need - value
                while dust <= me["dust"] and not (_representable(dust) and _representable(me["dust"] - dust)):
                    dust += 1
            if dust <= me["dust"]:
                text = _items_text("pay", cards, conc, dust)
                if _same_result(state, "pay", text):
                    out["pay"].update({"cards": cards, "concentrated": conc, "dust": dust, "text": text})
    if "discard" in legal:
        after = state.clone()
        after.apply("discard")
        mine_after = after.observation(seat)["players"][seat]
        cards, conc = _used(me, mine_after)
        # the dust kept shows directly unless the round moved on (income); then try every amount
        first = max(0, me["dust"] - mine_after["dust"])
        target = _without_history(after.to_dict())
        out["discard"] = {}
        for dust in [first] + [d for d in range(me["dust"] + 1) if d != first and _representable(me["dust"] - d)]:
            text = _items_text("discard", cards, conc, dust)
            y = state.clone()
            try:
                y.apply(text)
            except GrimoireError:
                continue
            if _without_history(y.to_dict()) == target:
                out["discard"] = {"cards": cards, "concentrated": conc, "dust": dust, "text": text}
                break
    return out


HINTS: dict[str, Callable[[GameState, int, dict], dict[str, Any]]] = {"zavandor": zavandor_hints}


def hints_for(state: GameState, seat: int | None, obs: dict) -> dict[str, Any]:
    fn = HINTS.get(state.game)
    if seat is None or fn is None or state.current_player != seat:
        return {}
    try:
        return fn(state, seat, obs)
    except GrimoireError:
        return {}
