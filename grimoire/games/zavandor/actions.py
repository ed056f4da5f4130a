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
    give 8g / give c40 / give d5 hand one item toward the open purchase (then 'pay' settles it)
    drop 8g / drop c40 / keep d12 at the hand limit: discard one card, or return dust down to 12
                                 (then 'discard' keeps the best of the rest: the whole hand if it fits)
"""

from __future__ import annotations

from ...core.action import Action, ActionTable
from ...core.errors import IllegalAction
from .data import (
    ART_COPIES_BY_PLAYERS,
    ART_HAND_LIMIT,
    BASE_HAND_LIMIT,
    CARD_VALUES,
    COLOURS,
    CONC_VALUE,
    DUST_DENOMS,
    GEMS,
    HAND_ENTRY,
    ITEMS,
    ONE_PER_PLAYER,
    TOKEN_PRICES,
    TRACKS,
)
from .energy import dust_units

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

# The factored payments and discards: legal but not listed (as explicit payments are), so that the
# agents and playouts choose from the same lists as before; they have ids (codec.py). Arguments:
# (CARD, code), (CONC, colour) or (DUST, amount; for 'keep': the dust kept).
CARD, CONC, DUST = 0, 1, 2
FACTORED: dict[str, Action] = {}


def _factored(text: str, kind: str, what: int, x: int) -> Action:
    a = FACTORED[text] = Action(text, kind, (what, x))
    return a


GIVE_CARD = {v * 4 + c: _factored(f"give {v}{COLOURS[c][0]}", "give", CARD, v * 4 + c)
             for c in range(4) for v in CARD_VALUES[c]}
GIVE_CONC = tuple(_factored(f"give c{CONC_VALUE[c]}", "give", CONC, c) for c in range(4))
GIVE_DUST = {d: _factored(f"give d{d}", "give", DUST, d) for d in sorted(DUST_DENOMS)}
DROP_CARD = {v * 4 + c: _factored(f"drop {v}{COLOURS[c][0]}", "drop", CARD, v * 4 + c)
             for c in range(4) for v in CARD_VALUES[c]}
DROP_CONC = tuple(_factored(f"drop c{CONC_VALUE[c]}", "drop", CONC, c) for c in range(4))
# 'keep d<v>' is legal only within the keeper's hand limit, so v never exceeds what the greatest
# hand limit holds in dust (data/actions.txt lists each such v: tests/zavandor/test_zav_factored.py)
GREATEST_HAND_LIMIT = (BASE_HAND_LIMIT + sum(e for e in HAND_ENTRY if e > 0)
                       + sum(n * (1 if k in ONE_PER_PLAYER else max(ART_COPIES_BY_PLAYERS))
                             for k, n in enumerate(ART_HAND_LIMIT) if n > 0))
KEEP_DUST = {v: _factored(f"keep d{v}", "keep", DUST, v) for v in range(10 * GREATEST_HAND_LIMIT)
             if dust_units(v) >= 0 and dust_units(v) <= GREATEST_HAND_LIMIT}


def keep_dust(v: int) -> Action:
    """The 'keep d<v>' action (interned within the table's range)."""
    a = KEEP_DUST.get(v)
    return a if a is not None else Action(f"keep d{v}", "keep", (DUST, v))


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
    a = FACTORED.get(norm)
    if a is not None:
        return a
    words = norm.split(" ")
    head = words[0] if words else ""
    if head in ("give", "drop", "keep"):
        return _parse_factored(text, head, words)
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


def _parse_factored(text: str, head: str, words: list[str]) -> Action:
    if head == "keep":
        w = words[1] if len(words) == 2 else ""
        if not (w.startswith("d") and w[1:].isdigit() and len(w) <= 8):
            raise _malformed(text, "'keep' names the dust to keep, e.g. 'keep d12'")
        return keep_dust(int(w[1:]))
    if len(words) != 2:
        raise _malformed(text, f"'{head}' takes one item, e.g. '{head} 8g', '{head} c40'"
                               + (" or 'give d5'" if head == "give" else ""))
    cards, conc, dust = parse_energy_items(text, words[1:])
    if cards:
        value, colour = cards[0]
        if colour < 0:
            colours = [c for c in range(4) if value in CARD_VALUES[c]]
            if len(colours) != 1:
                raise _malformed(text, f"name the card's colour (b/g/w/r), e.g. '{head} {value}g'")
            colour = colours[0]
        a = (GIVE_CARD if head == "give" else DROP_CARD).get(value * 4 + colour)
        if a is None:
            raise _malformed(text, f"there is no {value}{'bgwr'[colour]} card")
        return a
    if any(conc):
        return (GIVE_CONC if head == "give" else DROP_CONC)[conc.index(1)]
    if head == "give" and dust in GIVE_DUST:
        return GIVE_DUST[dust]
    raise _malformed(text, "dust is handed over as one token at a time: 'give d2', 'give d5' or 'give d10'"
                     if head == "give" else "dust goes back with 'keep d<the dust you keep>'")


def vocabulary() -> list[str]:
    """Every listed (non-numeric) action text, plus bids that are always too low, for the
    conformance probes. (Bids above one's means are legal but unlisted: they bring the curse.)"""
    return list(TABLE._by_text) + ["bid 0", "bid 1", "bid 19"]
