"""Determinizations (``sample_hidden``): the other seats' undisclosed choices of the round, redrawn so
that the information state of the seat they are made for stays exactly what it is.

What a seat knows of the round still being decided (its information state: its observation and its
visible history) is: its own sheet and choices; every other sheet as it was when the round began;
which seats have ended the round (those before the deciding seat); and, in its visible history, one
entry without text for each action another seat took this round. It does not know what those actions
were, nor — within a run of such entries — how many of them each seat took: the seats decide one after
another, so the entries of the seats before it form one run and, once it has ended its round, those of
the seats after it up to the deciding seat another.

A determinization keeps everything the seat sees and redraws each run: legal action sequences from
the round-start sheets of the run's seats — every seat that has ended the round ending with ``end``,
the deciding seat (last in a run, still deciding) without it — whose lengths add up to the run's
length. They are drawn as a random walk that, at each step, picks uniformly among the legal actions
after which the run can still be completed with exactly its length (``_Counts`` answers that exactly),
so it never has to back up. Nothing else is read: the result depends only on the seat's information
state and the random draws.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ...core.action import Action
from ...core.rng import Rng
from . import rules
from .player import Player
from .sheet import SHEET

if TYPE_CHECKING:
    from .state import ZauberschmiedeState


def sample_hidden(s: ZauberschmiedeState, seat: int, rng: Rng) -> ZauberschmiedeState:
    det = s.clone()
    det.rng = Rng(rng.next64())          # the future dice are drawn from a new seed
    if s.over:
        return det
    visible = s.visible_history(seat)
    start = round_start(visible, s.num_players, s.round)
    entries = visible[start:]
    own = [t for t in entries if t is not None]
    lead = next((i for i, t in enumerate(entries) if t is not None), len(entries))   # hidden, before its own
    trail = len(entries) - lead - len(own)                                          # hidden, after them
    cur = s.cur
    if seat < cur:      # it has ended the round: the seats before it, then those after it up to the mover
        runs = [(list(range(seat)), lead, False), (list(range(seat + 1, cur + 1)), trail, True)]
    elif seat == cur:
        runs = [(list(range(cur)), lead, False)]
    else:               # it has not acted yet: every seat up to the mover
        runs = [(list(range(cur + 1)), lead, True)]
    counts = _Counts(s.var, s.round)
    redrawn: list[list[str]] = []
    for seats, length, open_end in runs:
        sheets, texts = _redraw(counts, [_round_start_sheet(s.players[i]) for i in seats], length, open_end, rng)
        for i, q in zip(seats, sheets, strict=True):
            det.players[i] = q
        redrawn.append(texts)
    public = [t for t in visible[:start] if t is not None]            # (earlier rounds: all public)
    det._set_history(public + redrawn[0] + own + (redrawn[1] if len(redrawn) > 1 else []))
    return det


def round_start(visible: list[str | None], players: int, rnd: int) -> int:
    """The index of the round's first entry in a visible history: after every seat's ``end`` of every
    earlier round (the earlier rounds are public)."""
    ends = (rnd - 1) * players
    if ends == 0:
        return 0
    for i, t in enumerate(visible):
        if t == "end":
            ends -= 1
            if ends == 0:
                return i + 1
    raise AssertionError("a visible history shorter than its round")  # pragma: no cover


def _round_start_sheet(p: Player) -> Player:
    assert p.snap is not None                 # every seat has a round-start sheet mid-round
    q = p.snap.copy()
    q.snap = p.snap
    return q


def _after(counts: _Counts, p: Player, a: Action) -> Player:
    q = p.copy()
    q.snap = p.snap
    rules.do(counts.var, q, a, counts.rnd)
    return q


def _random_order(items: list[Action], rng: Rng) -> Iterator[Action]:
    """The items in a uniformly random order, drawn lazily (the first one costs one draw): the first
    that passes a test is a uniform draw among those that pass it."""
    items = items[:]
    for i in range(len(items) - 1, -1, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]
        yield items[i]


def _redraw(counts: _Counts, starts: list[Player], length: int, open_end: bool,
            rng: Rng) -> tuple[list[Player], list[str]]:
    """Legal action sequences from the round-start sheets ``starts``, one after the other, ``length``
    actions in all, each ended with ``end`` but (``open_end``) the last one: the sheets after them and
    the action texts."""
    n = len(starts)
    fits: dict[tuple[int, int], bool] = {}
    spans: list[list[int]] = [[] for _ in starts]      # counts.can's bounds of each start, once

    def rest_fits(k: int, left: int) -> bool:
        """Can seats k.. (from their round-start sheets) take exactly ``left`` actions?"""
        if k == n:
            return left == 0
        key = (k, left)
        hit = fits.get(key)
        if hit is None:
            if open_end and k == n - 1:
                hit = counts.can(starts[k], left, False, spans[k])
            else:
                hit = any(counts.can(starts[k], c, True, spans[k]) and rest_fits(k + 1, left - c - 1)
                          for c in range(left))
            fits[key] = hit
        return hit

    if not rest_fits(0, length):
        raise AssertionError("no sequences fill the run: the information state is inconsistent")
    sheets: list[Player] = []
    texts: list[str] = []
    left = length
    for k in range(n):
        p = starts[k]
        is_open = open_end and k == n - 1
        while True:
            if is_open and left == 0:
                break
            for a in _random_order(rules.legal_actions(counts.var, p), rng):
                if a.kind == rules.KIND_END:
                    if not is_open and rest_fits(k + 1, left - 1):
                        break
                    continue
                q = _after(counts, p, a)
                span: list[int] = []
                if (counts.can(q, left - 1, False) if is_open else
                        any(counts.can(q, c, True, span) and rest_fits(k + 1, left - 2 - c)
                            for c in range(left - 1))):
                    break
            else:  # pragma: no cover - rest_fits said it could be done
                raise AssertionError("the walk found no way on")
            texts.append(a.text)
            left -= 1
            if a.kind == rules.KIND_END:
                p = _after(counts, p, a)
                break
            p = q
        sheets.append(p)
    return sheets, texts


# --- how many actions a sheet can still take this round ------------------------------------------------
_MEMO: dict[tuple, bool] = {}


class _Counts:
    """Exact answers to "can this sheet take exactly ``need`` more actions other than ``end`` this round
    (and then end it)?", memoized across calls (searches ask about the same sheets again and again).

    Without paying dust, every count from the dice a started amplifier level still needs up to one per
    die left plus the transmutations left is possible (transmute while a die is left, then put dice in
    the cauldron, R6.1, R9). More needs payments (R6.4): an upper bound on how many the dice left could
    still bring (each artifact finished and its dust made) rules out what cannot be; what remains is
    settled by a search over the legal actions."""

    __slots__ = ("var", "rnd", "_vkey")

    def __init__(self, var: rules.Variant, rnd: int):
        self.var = var
        self.rnd = rnd
        self._vkey = (var.mins is SHEET.field_min, var.divisible, var.partial)

    def free_span(self, p: Player) -> tuple[int, int]:
        left = sum(1 for u in p.used if not u)
        due = rules.AMP_COSTS[p.amp_level] - p.amp_paid if rules.paying_amplifier(self.var, p) else 0
        return due, left + (p.trans_left if left > due else 0)

    def payments_bound(self, p: Player, dice: int) -> int:
        """At most this many artifacts can still be paid with ``dice`` dice left for charging and dust:
        the ones missing the fewest fields and the cheapest, with all the dust there is."""
        unpaid = [a for a in range(rules.NA) if not p.paid >> a & 1]
        missing = sorted(SHEET.art_nfields[a] - p.nfill[a] for a in unpaid)
        costs = sorted(SHEET.dust[a] for a in unpaid)
        dust = p.fresh + sum(amount for _r, amount in p.unspent_stocks())
        y = used = cost = 0
        while y < len(unpaid):
            used += missing[y]
            cost += costs[y]
            if used + max(0, cost - dust) > dice:
                break
            y += 1
        return y

    def can(self, p: Player, need: int, closing: bool, span: list[int] | None = None) -> bool:
        """``span``: an empty list the first time for a sheet asked about several counts, then the
        same list: its free span and payments bound are computed once, and only when needed."""
        if need < 0:
            return False
        if span is None:
            span = []
        if not span:
            span.extend(self.free_span(p))
        due, top = span[0], span[1]
        if need <= top:
            return need >= due or not closing     # (an open seat may stop in the middle of a level)
        if len(span) == 2:
            span.append(top + self.payments_bound(p, sum(1 for u in p.used if not u) - due))
        if need > span[2]:
            return False
        key = (self._vkey, _sheet_key(p), need, closing)
        hit = _MEMO.get(key)
        if hit is None:
            if len(_MEMO) > 200_000:
                _MEMO.clear()
            hit = any(self.can(_after(self, p, a), need - 1, closing) for a in _towards_payment(self.var, p))
            _MEMO[key] = hit
        return hit


def _towards_payment(var: rules.Variant, p: Player) -> list[Action]:
    """The moves worth trying when only payments can make up the count, payments first.

    A colour box, an amplifier gem or a new amplifier level in a sequence could be a die in the
    cauldron instead: the same count, more dust, every later action still legal. Of the charges of
    one field group, the one with the lowest die that fits (the higher dice stay for what they fit);
    of the dice into the cauldron, the lowest; of the transmutations of a value, the one to the top
    value (it fits every field; from the top value, the next one down). What is left can do whatever
    the others could, with the same number of actions."""
    acts = rules.legal_actions(var, p)
    if rules.paying_amplifier(var, p):
        return acts                                   # only the dice the level still needs
    pays: list[Action] = []
    charges: dict[tuple[int, int], Action] = {}
    dust: Action | None = None
    trans: dict[int, Action] = {}
    for a in acts:
        kind = a.kind
        if kind == rules.KIND_PAY:
            pays.append(a)
        elif kind == rules.KIND_CHARGE:
            group = a.args[:2]
            if group not in charges or a.args[2] < charges[group].args[2]:
                charges[group] = a
        elif kind == rules.KIND_DUST:
            if dust is None or a.args[0] < dust.args[0]:
                dust = a
        elif kind == rules.KIND_TRANSMUTE:
            v, w = a.args
            if v not in trans or w > trans[v].args[1]:
                trans[v] = a
    return pays + list(charges.values()) + ([dust] if dust is not None else []) + list(trans.values())


def _sheet_key(p: Player) -> tuple:
    """Everything of a sheet that decides what it can still do this round: the values of the dice left
    (not which die), which fields are charged (not with what), payments, dust, amplifier, boxes."""
    dice = tuple(sorted(v for v, u in zip(p.vals, p.used, strict=True) if not u))
    charged = sum(1 << f for f, v in enumerate(p.fields) if v)
    return (dice, charged, p.paid, p.amped, p.fresh, tuple(p.stock), p.spent, p.trans_left, p.amp_level,
            p.amp_paid, p.upg)
