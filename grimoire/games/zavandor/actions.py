"""Zavandor's action texts: the vocabulary, interning and parsing (documented in docs/games/zavandor.md).

    end                          end your turn (an open purchase is paid the default way first)
    pay                          pay what you owe now, the engine choosing the cards (7.6)
    pay 15 8g c40 d12            pay with exactly these: card values (optional colour letter
                                 b/g/w/r), concentrated cards by value, dust amount
    buy <gem> [inactive]         buy a gem onto a free active slot, or onto the pentagon
    sell [active] <gem>          sell an inactive (default) or active gem
    activate <gem> / deactivate <gem>
    token <price>                buy a knowledge token (20 25 30 35 40)
    advance <track>              raise a track one level (paid, or a free advance from an artifact)
    auction <item>               open an auction for an artifact on display or a sentinel
    bid <n> / pass               in an auction
    skip                         decline a free advance
    lose <gem>                   the active gem you give up to a Magic Mirror / Shadow Cloak
    discard / discard 3 4 c20 d5 hand limit: keep the best, or discard exactly these
"""

from __future__ import annotations

from ...core.action import Action, ActionTable
from ...core.errors import IllegalAction
from .data import COLOURS, CONC_VALUE, GEMS, ITEMS, TOKEN_PRICES, TRACKS

TABLE = ActionTable()
_get = TABLE.get

END = _get("end", "end")
PAY = _get("pay", "pay", None)
PASS = _get("pass", "pass")
SKIP = _get("skip", "skip")
DISCARD = _get("discard", "discard", None)
BUY = tuple(_get(f"buy {GEMS[g]}", "buy", (g, True)) for g in range(5))
BUY_INACTIVE = tuple(_get(f"buy {GEMS[g]} inactive", "buy", (g, False)) for g in range(5))
SELL = tuple(_get(f"sell {GEMS[g]}", "sell", (g, False)) for g in range(5))
SELL_ACTIVE = tuple(_get(f"sell active {GEMS[g]}", "sell", (g, True)) for g in range(5))
ACTIVATE = tuple(_get(f"activate {GEMS[g]}", "activate", (g,)) for g in range(5))
DEACTIVATE = tuple(_get(f"deactivate {GEMS[g]}", "deactivate", (g,)) for g in range(5))
LOSE = tuple(_get(f"lose {GEMS[g]}", "lose", (g,)) for g in range(5))
TOKEN = {p: _get(f"token {p}", "token", (p,)) for p in TOKEN_PRICES}
ADVANCE = tuple(_get(f"advance {TRACKS[t]}", "advance", (t,)) for t in range(6))
AUCTION = tuple(_get(f"auction {ITEMS[i]}", "auction", (i,)) for i in range(len(ITEMS)))

_BIDS: list[Action] = []


def bid_actions(upto: int) -> list[Action]:
    """The interned 'bid n' actions for n = 0..upto (a list to slice from)."""
    if upto >= len(_BIDS):
        for n in range(len(_BIDS), upto + 256):
            _BIDS.append(Action(f"bid {n}", "bid", (n,)))
    return _BIDS


bid_actions(1000)
MAX_BID_TEXT = 10**6  # a typed bid above this is rejected as malformed (nobody can pay it anyway)

_COLOUR_LETTER = {c[0]: i for i, c in enumerate(COLOURS)}   # b g w r
_CONC_BY_VALUE = {v: i for i, v in enumerate(CONC_VALUE)}


def _malformed(text: str, why: str) -> IllegalAction:
    return IllegalAction(f"cannot read {text!r}: {why}. Type 'help' for the action texts")


def parse_energy_items(text: str, words: list[str]):
    """'15 8g c40 d12' -> (cards ((value, colour or -1), ...), conc per colour, dust)."""
    cards = []
    conc = [0, 0, 0, 0]
    dust = 0
    for w in words:
        if w.startswith("d") and w[1:].isdigit():
            dust += int(w[1:])
        elif w.startswith("c") and w[1:].isdigit():
            v = int(w[1:])
            if v not in _CONC_BY_VALUE:
                raise _malformed(text, f"there is no concentrated card of value {v}")
            conc[_CONC_BY_VALUE[v]] += 1
        elif w.isdigit():
            cards.append((int(w), -1))
        elif w[:-1].isdigit() and w[-1] in _COLOUR_LETTER:
            cards.append((int(w[:-1]), _COLOUR_LETTER[w[-1]]))
        else:
            raise _malformed(text, f"{w!r} is not a card value (e.g. 8 or 8g), a concentrated card "
                                   f"(c20 c30 c40 c60) or dust (d12)")
        if len(w) > 8:
            raise _malformed(text, f"{w!r} is too long")
    return tuple(cards), tuple(conc), dust


def parse(text: str) -> Action:
    a = TABLE.lookup(text)
    if a is not None:
        return a
    norm = " ".join(text.lower().split())
    a = TABLE.lookup(norm)
    if a is not None:
        return a
    words = norm.split(" ")
    head = words[0] if words else ""
    if head == "bid":
        if len(words) != 2 or not words[1].isdigit():
            raise _malformed(text, "a bid is 'bid <whole number>'")
        n = int(words[1])
        if n > MAX_BID_TEXT:
            raise _malformed(text, "that bid is absurdly high")
        return bid_actions(n)[n]
    if head in ("pay", "discard") and len(words) > 1:
        cards, conc, dust = parse_energy_items(text, words[1:])
        kind = "pay" if head == "pay" else "discard"
        return Action(norm, kind, (cards, conc, dust))
    if head in ("buy", "sell", "activate", "deactivate", "lose", "token", "advance", "auction"):
        raise _malformed(text, f"unknown {head} target; e.g. "
                               + {"buy": "'buy emerald' or 'buy emerald inactive'",
                                  "sell": "'sell opal' (inactive) or 'sell active opal'",
                                  "activate": "'activate opal'", "deactivate": "'deactivate opal'",
                                  "lose": "'lose opal'", "token": "'token 20'",
                                  "advance": "'advance " + "|".join(TRACKS) + "'",
                                  "auction": "'auction belt' or 'auction phoenix'"}[head])
    raise _malformed(text, "unknown action")


def vocabulary() -> list[str]:
    """Every listed (non-numeric) action text, plus bids that are always too low, for the
    conformance probes. (Bids above one's means are legal but unlisted: they bring the curse.)"""
    return list(TABLE._by_text) + ["bid 0", "bid 1", "bid 19"]
