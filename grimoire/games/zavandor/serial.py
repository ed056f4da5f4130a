"""to_dict / load: the full state as JSON-safe data, and a strict loader for saved games.

The loader checks types, ranges and conservation (cards, gems, artifacts, sentinels), so a damaged
or hand-edited save is refused with a clear message instead of producing a corrupt game.

Pending decisions are saved as ``DecisionStack.to_list`` (top first: kind, seat, payload). Saves
written before the decision stack (the web database keeps ``to_dict`` snapshots) hold them as lists
``[kind, seat, extra...]``, the current one first; the loader reads both.
"""

from __future__ import annotations

from typing import Any

from ...core.decisions import Decision, DecisionStack
from ...core.errors import GameConfigError
from ...core.rng import Rng
from . import decisions as D
from .data import ART_COPIES_BY_PLAYERS, CARD_COPIES, CARD_MAX, CARD_MIN, GEM_SUPPLY, TOKEN_PRICES
from .player import Player
from .setup import normalize_options

PLAYER_FIELDS = ("char", "dust", "cards", "conc", "active", "inactive", "levels", "tokens", "pentagon",
                 "arts", "sents", "under_cards", "under_dust", "vp", "advanced", "druid_ruby", "out")
STATE_FIELDS = ("order", "card_of", "art_mod", "sent_mod", "round", "stage", "turn_idx", "group",
                "groups_done", "turn_actions", "tab_seat", "tab_owed", "tab_credit", "tab_auc", "display",
                "art_pile", "sent_avail", "sent_sold", "gem_supply", "deck", "disc", "auc", "revealed", "over",
                "winners_", "end_reason")


def to_dict(s) -> dict[str, Any]:
    return {
        "game": "zavandor",
        "players": s.num_players,
        "seed": s.seed,
        "options": dict(s.options),
        "rng": s.rng.state,
        "history": s.history,
        "state": {
            **{f: _jsonable(getattr(s, f)) for f in STATE_FIELDS},
            "pending": s.pending.to_list(_kinds()),
            "seats": [{f: _jsonable(getattr(p, f)) for f in PLAYER_FIELDS} for p in s.players],
        },
    }


def _jsonable(v):
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    if isinstance(v, list):
        return [_jsonable(x) for x in v]
    return v


class _Bad(GameConfigError):
    pass


def _int(v, name, lo=None, hi=None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise _Bad(f"{name} must be a whole number")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise _Bad(f"{name} = {v} is out of range")
    return v


def _ints(v, name, n=None, lo=None, hi=None) -> list[int]:
    if not isinstance(v, list) or (n is not None and len(v) != n):
        raise _Bad(f"{name} must be a list" + (f" of {n} numbers" if n is not None else ""))
    return [_int(x, f"{name}[{i}]", lo, hi) for i, x in enumerate(v)]


def _bool(v, name) -> bool:
    if not isinstance(v, bool):
        raise _Bad(f"{name} must be true or false")
    return v


def _card(code, name) -> int:
    _int(code, name)
    colour, value = code & 3, code >> 2
    if not CARD_MIN[colour] <= value <= CARD_MAX[colour]:
        raise _Bad(f"{name}: no such energy card")
    return code


def load(d: dict[str, Any]):
    from .state import ZavandorState

    n = _int(d["players"], "players", 2, 6)
    from ...core.registry import game_info
    opts = normalize_options(n, game_info("zavandor").restore_options(d["options"]))
    st = d["state"]
    s = ZavandorState.__new__(ZavandorState)
    s.num_players = n
    s.seed = _int(d["seed"], "seed", 0)
    s.options = opts
    s.rng = Rng.from_state(_int(d["rng"], "rng", 0, (1 << 64) - 1))
    hist = d["history"]
    if not isinstance(hist, list) or not all(isinstance(h, str) for h in hist):
        raise _Bad("history must be a list of action texts")
    s._set_history(hist)
    s.listed = None
    s.set_flags()

    seats = st["seats"]
    if not isinstance(seats, list) or len(seats) != n:
        raise _Bad("one entry per player is needed in 'seats'")
    s.players = []
    for i, pd in enumerate(seats):
        p = Player(i, _int(pd["char"], "char", 0, 5))
        p.dust = _int(pd["dust"], "dust", 0)
        if p.dust in (1, 3):
            raise _Bad("dust cannot be 1 or 3")
        p.cards = sorted(_card(c, "card") for c in _ints(pd["cards"], "cards"))
        p.cardsum = sum(c >> 2 for c in p.cards)
        p.conc = _ints(pd["conc"], "conc", 4, 0)
        p.active = _ints(pd["active"], "active", 5, 0)
        p.inactive = _ints(pd["inactive"], "inactive", 5, 0)
        p.levels = _ints(pd["levels"], "levels", 6, 0, 4)
        p.tokens = _ints(pd["tokens"], "tokens")
        if any(t not in TOKEN_PRICES for t in p.tokens) or len(set(p.tokens)) != len(p.tokens):
            raise _Bad("tokens must be distinct token prices")
        p.pentagon = _int(pd["pentagon"], "pentagon", 0, 5)
        p.arts = _ints(pd["arts"], "arts", 12, 0)
        p.sents = _ints(pd["sents"], "sents", None, 0, 8)
        p.under_cards = sorted(_card(c, "under card") for c in _ints(pd["under_cards"], "under_cards"))
        p.under_dust = _int(pd["under_dust"], "under_dust", 0)
        p.vp = _int(pd["vp"], "vp", 0)
        p.advanced = _bool(pd["advanced"], "advanced")
        p.druid_ruby = _bool(pd["druid_ruby"], "druid_ruby")
        p.out = _bool(pd["out"], "out")
        if sum(1 for lv in p.levels if lv) + p.pentagon + len(p.tokens) != 1 + len(TOKEN_PRICES):
            raise _Bad(f"seat {i}: knowledge tokens do not add up")
        if sum(p.active) > p.slots():
            raise _Bad(f"seat {i}: more active gems than slots")
        s.players.append(p)

    s.order = tuple(_ints(st["order"], "order", None, 0, n - 1))
    if sorted(s.order) != sorted(set(s.order)):
        raise _Bad("turn order repeats a seat")
    s.card_of = tuple(_ints(st["card_of"], "card_of", n, -1, 5))
    s.art_mod = tuple(_ints(st["art_mod"], "art_mod", n))
    s.sent_mod = tuple(_ints(st["sent_mod"], "sent_mod", n))
    s.round = _int(st["round"], "round", 0)
    s.stage = st["stage"]
    if s.stage not in ("turn", "hand", "over"):
        raise _Bad("unknown stage")
    s.turn_idx = _int(st["turn_idx"], "turn_idx", 0, len(s.order))
    s.group = st["group"]
    if s.group not in ("", "a", "b", "c"):
        raise _Bad("unknown sub-phase group")
    s.groups_done = _int(st["groups_done"], "groups_done", 0, 7)
    s.turn_actions = _int(st.get("turn_actions", 0), "turn_actions", 0)     # (absent in older saves)
    s.tab_seat = _int(st["tab_seat"], "tab_seat", -1, n - 1)
    s.tab_owed = _int(st["tab_owed"], "tab_owed", 0)
    s.tab_credit = _int(st["tab_credit"], "tab_credit", 0)
    s.tab_auc = _bool(st["tab_auc"], "tab_auc")
    s.display = _ints(st["display"], "display", None, 0, 11)
    s.art_pile = _ints(st["art_pile"], "art_pile", 12, 0)
    s.sent_avail = _ints(st["sent_avail"], "sent_avail", None, 0, 8)
    s.sent_sold = _int(st["sent_sold"], "sent_sold", 0, 9)
    s.gem_supply = _ints(st["gem_supply"], "gem_supply", 5, 0)
    s.deck = [_ints(x, "deck", len(CARD_COPIES[c]), 0) for c, x in enumerate(_list(st["deck"], 4))]
    s.disc = [_ints(x, "disc", len(CARD_COPIES[c]), 0) for c, x in enumerate(_list(st["disc"], 4))]
    auc = st["auc"]
    if auc is not None:
        auc = _list(auc, 4)
        _int(auc[0], "auction item", 0, 20)
        if auc[1] is not None:
            _int(auc[1], "auction bid", 0)
        _int(auc[2], "auction bidder", -1, n - 1)
        _int(auc[3], "auction passes", 0)
    s.auc = auc
    s.pending = _load_pending(_list(st["pending"], None), n, auc is not None)
    s.revealed = _int(st["revealed"], "revealed", 0)
    s.over = _bool(st["over"], "over")
    s.winners_ = tuple(_ints(st["winners_"], "winners", None, 0, n - 1))
    s.end_reason = st["end_reason"]
    if not isinstance(s.end_reason, str):
        raise _Bad("end_reason must be text")
    _check_conservation(s)
    _check_tab(s)
    if not s.over and not s.pending and s.turn_idx >= len(s.order):
        raise _Bad("nobody is to move")
    return s


def _kinds():
    from .legal import KINDS
    return KINDS


# the extra entries of each kind in the old list form, and the payload they make
_OLD_PAYLOAD = {D.BID: (0, None), D.APAY: (1, D.Won), D.FREE: (1, D.FreeAdvances), D.FTOKEN: (0, None),
                D.LOSE: (0, None), D.DISCARD: (0, None)}


def _load_pending(data: list, n: int, auction: bool) -> DecisionStack:
    kinds = _kinds()
    if all(isinstance(e, dict) for e in data):
        try:
            stack = DecisionStack.from_list(data, kinds)
        except (KeyError, TypeError, ValueError) as err:
            raise _Bad(f"bad pending decision: {err}") from None
    else:
        items = []
        for raw in data:                     # the old form: [kind, seat, extra...], current first
            e = _list(raw, None)
            if not e or e[0] not in _OLD_PAYLOAD:
                raise _Bad("unknown pending decision")
            extra, record = _OLD_PAYLOAD[e[0]]
            if len(e) != 2 + extra:
                raise _Bad(f"malformed pending decision {e[0]!r}")
            payload = None
            if record is not None:
                try:
                    payload = kinds[e[0]].load_payload(dict(zip(record._fields, e[2:], strict=True)))
                except ValueError as err:
                    raise _Bad(f"bad pending decision: {err}") from None
            items.append(Decision(e[0], e[1], payload))
        stack = DecisionStack(items[::-1])
    out = []
    for d in stack.items:
        _int(d.seat, "decision seat", 0, n - 1)
        if d.kind == D.BID and not auction:
            raise _Bad("a bid is pending without an auction")
        out.append(D.make(d.kind, d.seat, d.payload))      # the interned record
    return DecisionStack(out)


def _list(v, n):
    if not isinstance(v, list) or (n is not None and len(v) != n):
        raise _Bad("malformed list")
    return v


def _check_tab(s) -> None:
    """The open tab as the rules leave it (7.6): nothing owed or credited without one, and never more
    owed than its player can pay — except an auction's price, which the winner may first raise by
    selling gems (a pending payment decision). Paying such a tab could not find the energy."""
    if s.tab_seat < 0:
        if s.tab_owed or s.tab_credit:
            raise _Bad("an amount owed or credited without a tab")
        return
    paying = any(d.kind == D.APAY for d in s.pending)
    if not paying and s.tab_owed - s.tab_credit > s.players[s.tab_seat].energy():
        raise _Bad("a tab larger than its player's energy")


def _check_conservation(s) -> None:
    for c in range(4):
        held = [0] * len(CARD_COPIES[c])
        for p in s.players:
            for code in p.cards + p.under_cards:
                if code & 3 == c:
                    held[(code >> 2) - CARD_MIN[c]] += 1
        for i, total in enumerate(CARD_COPIES[c]):
            if s.deck[c][i] + s.disc[c][i] + held[i] != total:
                raise _Bad("energy cards do not add up (some were created or lost)")
    for g in range(5):
        if s.gem_supply[g] + sum(p.active[g] + p.inactive[g] for p in s.players) != GEM_SUPPLY[g]:
            raise _Bad("gems do not add up")
    copies = ART_COPIES_BY_PLAYERS[s.num_players]
    for k in range(12):
        if s.art_pile[k] + s.display.count(k) + sum(p.arts[k] for p in s.players) > copies:
            raise _Bad("more artifacts than the game has")
    owned = [x for p in s.players for x in p.sents]
    if len(set(owned + s.sent_avail)) != len(owned) + len(s.sent_avail):
        raise _Bad("a sentinel is in two places")
    if s.sent_sold != 9 - len(s.sent_avail):
        raise _Bad("sentinels sold do not add up")
