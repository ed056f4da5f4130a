"""The ``expert`` Zauberschmiede player (solo and at a table): a round planner.

Solo, a round is a deterministic puzzle: the six dice are known when it begins and nothing else
changes until ``end``. The only chance is the dice of later rounds. So the expert decides once per
round, at its first decision, and then plays the chosen plan out:

1. **Plans**: a beam search over the round's action sequences on copies of the sheet (at most ``BEAM``
   sheets per step, ranked by the greedy agent's potential, duplicates merged), and from the ``PILOTS``
   best sheets of every step the greedy agent's own finish of the round, collect the sheets at which
   the round can end. Solo, before the last round, no plan acts on an artifact that can score no
   harmony (``FOCUS``: a potion, a spell or the book on the default sheet). Each is valued by the
   potential of the ended sheet (unused dice expired, fresh dust stocked) less ``TRANSMUTE_COST`` per
   transmutation spent. The last round is solved exactly (``EXACT``, lastround.py: every way to use its
   dice, scored by the final score); with ``exact=0`` its plans are those of a wider beam (``LAST_BEAM``,
   ``LAST_PILOTS``), valued by their exact final score. Under the default rules the ``RANK_TOP`` best
   are then ordered by the learned plan ranker (value.py: trained on the outcomes of the plans the
   planner rejects next to the one it takes). With ``value=1``, solo under the default rules, the ended
   sheets are then ranked by the learned value instead (value.py: the planner's expected final score
   from that sheet, fitted to its own games); the beam itself still steers by the potential.
2. **Lookahead** (before the last round; at most ``lookahead`` = 16 rolls, as many as
   ``la_time`` allows): the ``LA_CANDIDATES`` best plans are ranked again by the mean over sampled
   rolls of the next round (the same rolls for every plan) of the best next round a small beam finds
   from the plan's ended sheet -- by the ranker (by the potential with ``rank=0``), or by the exact
   final score when the next round is the last. No roll
   is begun after ``LA_TIME`` CPU seconds of the decision (``la_time=0``: no limit).
3. **Rollouts** (``rollouts`` > 0; off by default): the ``candidates`` best plans are played to the
   game's end by the greedy agent on sampled dice of the later rounds -- the same dice for every
   plan (common random numbers) -- and valued by the mean final score, successive halving spending
   the rollouts on the plans still in contention.
4. The best plan is played; its next action is looked up by the sheet it was made for, so a state
   reached otherwise (another agent played a move, a reload) is planned afresh.

Information use: the planner reads its seat's sheet and the round's dice from
``state.sample_hidden(seat, rng)`` and draws the later rounds' dice from its own RNG. With other
seats it plans the same way (``table=1``): the potential counts the dust creator against the other
sheets, and the ranker, trained solo, has its solo dust-creator term replaced by that race. The
others' dust is what the seat predicts they will have produced when the round ends (``predict=1``:
their round-start sheets, which it sees, played with the shared dice by the greedy agent); with
``predict=0``, their dust as the round began. Rollouts are solo only.
"""

from __future__ import annotations

import copy
import time
from typing import Any

import numpy as np

from ...core.action import Action
from ...core.agent import Agent
from ...core.episode import derive_seed
from ...core.state import GameState
from . import lastround, rules
from . import value as learned
from .actions import KIND_AMPLIFY, KIND_CHARGE, KIND_END, KIND_PAY, SIDES
from .agents import DIE_COST, TRANSMUTE_COST, GreedyAgent, _Ctx, _die_value, _harmony_groups, potential, potential_key
from .player import Player
from .scoring import breakdown, breakdowns, dust_metric
from .sheet import SHEET
from .value import _Solo

BEAM = 24              # sheets kept per step of the beam search
PILOTS = 4             # of which the best are finished by the greedy agent as plans of their own
LAST_BEAM = 96         # the same in the last round, where the plans' final scores are exact and no
LAST_PILOTS = 8        # lookahead follows: a wider beam finds better scores there (docs/ai.md)
CANDIDATES = 8         # plans valued by rollouts
ROLLOUTS = 0           # rollouts per round decision at most (spread by successive halving); 0: the
                       # best plan by the potential (measured: docs/ai.md, "The Zauberschmiede solo expert")
TIME = 1.5             # ... or CPU seconds of rollouts per round decision, whichever ends first
LOOKAHEAD = 16         # sampled rolls of the next round per round decision at most (0: off): the LA_CANDIDATES
LA_CANDIDATES = 4      # best plans are valued by the mean of the best next round each roll allows, planned by a
LA_BEAM = 4            # beam this wide (LA_PILOTS pilots): the potential of its end, or in the last round its score
LA_PILOTS = 1
LA_TIME = 1.2          # CPU seconds of the round decision after which no further roll is begun (0: no limit,
                       # the same choices on any machine); most decisions reach it before 16 rolls (3-15)
RANK = 1               # 1: the RANK_TOP best plans by the potential (and the lookahead's next rounds) ranked
RANK_TOP = 24          # by the learned plan ranker (value.py, trained on the plans the planner rejects); 0: by
                       # the potential (measured: docs/ai.md, "A plan ranker learned from the plans rejected";
                       # 16, then 24 with rankers trained on so many plans a position: "The plan ranker
                       # chooses among 16", "... among 24")
TABLE = 1              # 1: with other seats too, the ranker (plus the dust-creator race, below) and the
                       # lookahead; 0: by the potential alone there (measured: docs/ai.md, "The planner at a table")
PREDICT = 1            # 1: with other seats, their dust after this round predicted (``predict_metrics``) for the
                       # race instead of their dust at the round's start (docs/ai.md, "The planner at a table")
SOLO_UPG_FUTURE = 0.15  # solo, the potential's credit for colour levels still to score (agents.UPG_FUTURE, 0.3, for
                       # the greedy agent and at a table) in every sheet the planner values: its beam, pilots and
                       # ranker (docs/ai.md, "The solo planner values future colour levels at half")
FOCUS = 1              # 1: solo under the default rules, in every round before the last, the plans leave alone the
                       # artifacts that can score no harmony (``idle_artifacts``): no die, dust or amplifier on them;
                       # 0: every artifact (measured: docs/ai.md, "The solo planner leaves alone the artifacts
                       # without harmony")
EXACT = 1              # 1: the last round solved exactly (lastround.py: every way to use its dice, no beam; past
                       # ``exact_time`` CPU seconds, lastround.SECONDS, the better of its best so far and the beam's);
                       # 0: by the beam LAST_BEAM / LAST_PILOTS (measured: docs/ai.md, "The last round solved exactly")
VALUE = 0              # 1: the ended sheets of rounds before the last valued by the learned value (value.py,
                       # solo under the default rules); 0: by the potential


def sheet_key(p: Player) -> tuple:
    """Everything of a sheet that matters for the rest of the game (within a round: with the dice)."""
    return (tuple(p.fields), p.paid, p.amped, tuple(p.boxes), p.fresh, tuple(p.stock), p.spent, p.amp_level,
            p.amp_paid, p.upg, p.trans_left, tuple(p.vals), tuple(p.used))


def ended(p: Player, rnd: int) -> Player:
    """The sheet after ``end`` in round ``rnd``: unused dice expire, fresh dust becomes a stock."""
    q = p.copy()
    rules.end_of_round(q, rnd)
    q.used = ["-"] * len(q.used)
    return q


_ON_ARTIFACT = (KIND_CHARGE, KIND_PAY, KIND_AMPLIFY)     # the action kinds whose first argument is an artifact


def idle_artifacts(var: rules.Variant) -> frozenset[int]:
    """The artifacts that can never score harmony under ``var``: with harmony per artifact, those without a
    colour group of ``hmin`` fields (on the default sheet the potions, the spells and the book). They score
    their base and colour levels only, while harmony can pay the others' base a second time."""
    if var.hmode != "per_artifact":
        return frozenset()
    done, _open = _harmony_groups(var.hmin)
    return frozenset(a for a, groups in enumerate(done) if not groups)


def beam_plans(var: rules.Variant, p: Player, rnd: int, beam: int = BEAM, pilots: int = PILOTS,
               ctx: _Ctx | None = None, skip: frozenset[int] = frozenset()) -> list[tuple[float, list[Action], Player]]:
    """(potential of the ended sheet, actions, ended sheet) of every distinct way found to play the
    round from ``p`` and end it, best first. Besides the beam's own ends, the greedy agent finishes
    the round from the ``pilots`` best sheets of every step (the pilot method): a line whose first
    steps look poor to the potential (a transmutation that pays two steps later) is not lost. ``ctx``:
    the potential's view of the table (default: the sheet alone, solo). ``skip``: artifacts no plan acts on."""
    upg = None                                 # at a table, the potential's own UPG_FUTURE
    if ctx is None:
        upg = SOLO_UPG_FUTURE
        ctx = _Ctx(_Solo(var, p, rnd, upg), 0)
    greedy = GreedyAgent(0)                    # its decide() draws nothing from its RNG
    level: list[tuple[float, list[Action], Player]] = [(0.0, [], p)]
    seen: set = {sheet_key(p)}
    ends: dict[tuple, tuple[float, list[Action], Player]] = {}
    memo: dict[tuple, float] = {}              # potential_key -> potential: half the sheets of a search
                                               # differ from one seen only in the die used (measured)

    def pot(q: Player) -> float:
        k = potential_key(q)
        v = memo.get(k)
        if v is None:
            v = memo[k] = potential(ctx, q)
        return v

    def add_end(q: Player, seq: list[Action]) -> None:
        e = ended(q, rnd)
        k = sheet_key(e)
        v = pot(e) - TRANSMUTE_COST * (p.trans_left - e.trans_left)
        if k not in ends or ends[k][0] < v:
            ends[k] = (v, seq, e)

    choice: dict[tuple, Action] = {}           # sheet key -> greedy's choice: pilot lines of successive
                                               # steps mostly follow one line, decided once
    while level:
        for _s, seq, q in level[:pilots]:
            c, line = q.copy(), list(seq)
            view = _Solo(var, c, rnd, upg)
            while True:
                k = sheet_key(c)
                a = choice.get(k)
                if a is None:
                    a = choice[k] = greedy.decide(view, 0, _allowed(var, c, skip))
                if a.kind == KIND_END:
                    break
                rules.do(var, c, a, rnd)
                line.append(a)
            add_end(c, line)
        nxt: list[tuple[float, list[Action], Player]] = []
        for _s, seq, q in level:
            for a in _allowed(var, q, skip):
                if a.kind == KIND_END:
                    add_end(q, seq)
                    continue
                c = q.copy()
                rules.do(var, c, a, rnd)
                k = sheet_key(c)
                if k in seen:
                    continue
                seen.add(k)
                die = _die_value(a)
                score = pot(c) - DIE_COST * die - TRANSMUTE_COST * (p.trans_left - c.trans_left)
                nxt.append((score, seq + [a], c))
        nxt.sort(key=lambda t: -t[0])
        level = nxt[:beam]
    return sorted(ends.values(), key=lambda t: -t[0])


def _allowed(var: rules.Variant, p: Player, skip: frozenset[int]) -> list[Action]:
    """The legal actions of sheet ``p`` but those acting on an artifact in ``skip`` (never ``end`` or ``dust``)."""
    legal = rules.legal_actions(var, p)
    if not skip:
        return legal
    return [a for a in legal if not (a.kind in _ON_ARTIFACT and a.args[0] in skip)]


def final_score(var: rules.Variant, p: Player, ctx: _Ctx | None = None) -> int:
    """The sheet's score if the game ended now (with others: the dust creator against the sheets
    ``ctx`` sees)."""
    if ctx is None or ctx.solo:
        return breakdowns(var, [p])[0]["total"]
    metrics = list(ctx.metrics)
    metrics[ctx.seat] = dust_metric(var, p)
    return breakdown(var, p, metrics, ctx.seat)["total"]


def rollout(var: rules.Variant, greedy: GreedyAgent, p: Player, rnd: int, rolls: list[tuple[int, ...]]) -> int:
    """The final score of the ended sheet ``p`` of round ``rnd`` when the greedy agent plays the later
    rounds on ``rolls`` (one roll per later round)."""
    q = p.copy()
    last = var.last_round
    for r in range(rnd + 1, last + 1):
        rules.start_round(q, rolls[r - rnd - 1])
        greedy_round(var, greedy, q, r)
    return final_score(var, q)


def greedy_round(var: rules.Variant, greedy: GreedyAgent, q: Player, rnd: int, view: Any = None,
                 seat: int = 0) -> None:
    """The greedy agent plays round ``rnd`` of sheet ``q`` (in place) to its end, as ended
    (``end_of_round`` done); ``view``: the table as seat ``seat`` sees it (default: the sheet alone)."""
    if view is None:
        view = _Solo(var, q, rnd)
    while True:
        a = greedy.decide(view, seat, rules.legal_actions(var, q))
        rules.do(var, q, a, rnd)
        if a.kind == KIND_END:
            break
    rules.end_of_round(q, rnd)


class _Table:
    """The table as a seat sees it mid-round: its own sheet live, the others' as the round began."""

    __slots__ = ("var", "round", "players", "num_players")

    def __init__(self, var: rules.Variant, rnd: int, players: list[Player]):
        self.var, self.round, self.players, self.num_players = var, rnd, players, len(players)

    def visible_player(self, i: int, seat: int | None) -> Player:
        return self.players[i]


def predict_metrics(det: Any, seat: int, ctx: _Ctx, greedy: GreedyAgent) -> None:
    """The others' dust-creator metrics in ``ctx`` as they will be after this round: each other seat's
    round-start sheet (what ``seat`` sees of it) played to the round's end by the greedy agent with the
    round's dice, which every seat shares, as it would play at this table (the others' sheets as the
    round began)."""
    own = det.players[seat]
    starts = [own.snap or own if i == seat else det.visible_player(i, seat) for i in range(det.num_players)]
    for i in range(det.num_players):
        if i != seat:
            q = starts[i].copy()
            view = _Table(det.var, det.round, starts[:i] + [q] + starts[i + 1:])
            greedy_round(det.var, greedy, q, det.round, view, i)
            ctx.metrics[i] = dust_metric(det.var, q)


def solo_ctx(var: rules.Variant, p: Player, rnd: int) -> _Ctx:
    """The potential's view of sheet ``p`` alone at the end of round ``rnd``."""
    return _Ctx(_Solo(var, p, rnd), 0)


def round_ctx(ctx: _Ctx | None, rnd: int) -> _Ctx | None:
    """``ctx`` (the table as the seat sees it) as the view of round ``rnd``: the others' dust as in
    ``ctx``, the rounds left counted from ``rnd``."""
    if ctx is None:
        return None
    c = copy.copy(ctx)
    c.metrics = list(ctx.metrics)
    c.rem_rounds = ctx.var.last_round - rnd
    c.future_dice = c.rem_rounds * SHEET.dice_per_round
    return c


def rank_values(var: rules.Variant, sheets: list[Player], rnd: int, ctx: _Ctx | None = None) -> np.ndarray:
    """The learned ranker's values of ended sheets of round ``rnd``. The ranker was trained solo, where
    the dust creator (S8) is a bar (more than 10 produced); with other seats (``ctx`` of round ``rnd``)
    it is a race, so the potential's S8 term at the table (against the others' dust in ``ctx``)
    replaces its solo one."""
    vals = learned.ranks(var, sheets, rnd, SOLO_UPG_FUTURE if ctx is None else None)
    if ctx is None:
        return vals
    return vals + np.array([potential(ctx, e) - potential(solo_ctx(var, e, rnd), e) for e in sheets])


class PlannerAgent(Agent):
    name = "expert"

    def __init__(self, seed: int = 0, candidates: int = CANDIDATES, rollouts: int = ROLLOUTS,
                 time: float = TIME, beam: int = BEAM, pilots: int = PILOTS, value: int = VALUE,
                 lookahead: int = LOOKAHEAD, la_candidates: int = LA_CANDIDATES, la_beam: int = LA_BEAM,
                 la_time: float = LA_TIME, la_pilots: int = LA_PILOTS, last_beam: int = LAST_BEAM,
                 last_pilots: int = LAST_PILOTS, rank: int = RANK, rank_top: int = RANK_TOP,
                 table: int = TABLE, predict: int = PREDICT, focus: int = FOCUS, exact: int = EXACT,
                 exact_time: float = lastround.SECONDS):
        super().__init__(seed)
        self.candidates = candidates
        self.rollouts = rollouts
        self.time = time
        self.beam = beam
        self.pilots = pilots
        self.value = value
        self.lookahead, self.la_candidates, self.la_beam = lookahead, la_candidates, la_beam
        self.la_time, self.la_pilots = la_time, la_pilots
        self.last_beam, self.last_pilots = last_beam, last_pilots
        self.rank, self.rank_top = rank, rank_top
        self.table, self.predict, self.focus, self.exact = table, predict, focus, exact
        self.exact_time = exact_time
        self.la_rolls: int | None = None       # rolls the last lookahead finished for every plan
        self.greedy = GreedyAgent(derive_seed(seed, "rollout"))
        self.plans: dict[tuple, str] = {}       # (round, sheet key) -> the plan's next action text
        self.last_stats: dict[str, Any] = {}

    def choose(self, state: GameState, seat: int) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        det: Any = state.sample_hidden(seat, self.rng)      # a ZauberschmiedeState
        p, rnd = det.players[seat], det.round
        ctx = _Ctx(det, seat) if det.num_players > 1 else None
        text = self.plans.get((rnd, sheet_key(p)))
        if text is None:
            self.plans.clear()
            if ctx is not None and self.predict:
                predict_metrics(det, seat, ctx, self.greedy)
            seq = self.plan(det.var, p, rnd, ctx)
            q = p.copy()
            for a in seq:
                self.plans[(rnd, sheet_key(q))] = a.text
                rules.do(det.var, q, a, rnd)
            self.plans[(rnd, sheet_key(q))] = "end"
            text = self.plans[(rnd, sheet_key(p))]
        for a in actions:
            if a.text == text:
                return a
        return actions[-1]          # pragma: no cover - a plan's action is legal on its sheet

    def skip(self, var: rules.Variant, rnd: int, ctx: _Ctx | None) -> frozenset[int]:
        """The artifacts the plans of round ``rnd`` leave alone (``FOCUS``): solo under the default rules, in every
        round before the last (the last round's plans are valued by their exact final score, and stay free)."""
        if not self.focus or ctx is not None or rnd >= var.last_round or not learned.applies(var):
            return frozenset()
        return idle_artifacts(var)

    def next_rolls(self, rnd: int) -> list[tuple[int, ...]]:
        """The lookahead's rolls of round ``rnd + 1``: ``lookahead`` rolls sampled from the agent's own RNG
        (a diagnostic may override this with the true roll: scripts/zs_foresight.py)."""
        return [tuple(self.rng.randint(1, SIDES) for _ in range(SHEET.dice_per_round)) for _ in range(self.lookahead)]

    def look_ahead(self, var: rules.Variant, p: Player, rnd: int, plans: list, t0: float | None = None,
                   ctx: _Ctx | None = None) -> list:
        """The ``la_candidates`` best plans re-ranked by the next round: for each of ``lookahead``
        rolls (the same for every plan) the best plan of round ``rnd + 1`` from the plan's ended sheet,
        by the potential (less the transmutations spent in both rounds), in the last round by the
        exact final score; the mean over the rolls. With other seats (``ctx``) the others' sheets stay
        as the seat saw them. Past ``la_time`` CPU seconds since
        ``t0`` no further roll is begun, and a roll not finished for every plan is dropped, so that the
        plans are always compared on the same rolls (the first roll is always finished)."""
        cands = plans[:self.la_candidates]
        rolls = self.next_rolls(rnd)
        last = rnd + 1 >= var.last_round
        nctx = round_ctx(ctx, rnd + 1)
        nskip = self.skip(var, rnd + 1, ctx)     # once, not per roll and plan
        totals = [0.0] * len(cands)
        start = time.thread_time() if t0 is None else t0
        for k, roll in enumerate(rolls):
            got: list[float] = []
            for _v, _seq, e in cands:
                if k and self.la_time and time.thread_time() - start > self.la_time:
                    break                   # out of time: this roll is not counted for any plan
                q = e.copy()
                rules.start_round(q, roll)
                nxt = beam_plans(var, q, rnd + 1, self.la_beam, self.la_pilots, nctx, nskip)
                if last:
                    got.append(max(final_score(var, t[2], nctx) for t in nxt))
                elif self.rank and learned.applies(var):
                    top = nxt[:self.rank_top]
                    got.append(float(max(rank_values(var, [t[2] for t in top], rnd + 1, nctx))))
                else:
                    got.append(nxt[0][0] - TRANSMUTE_COST * (p.trans_left - e.trans_left))
            if len(got) < len(cands):
                break
            for i, v in enumerate(got):
                totals[i] += v
        self.la_rolls = k + 1 if len(got) == len(cands) else k
        order = sorted(range(len(cands)), key=lambda i: (-totals[i], i))
        return [cands[i] for i in order] + plans[len(cands):]

    def plan(self, var: rules.Variant, p: Player, rnd: int, ctx: _Ctx | None = None) -> list[Action]:
        """The round's plan from sheet ``p``; ``ctx`` the table with other seats (None: solo)."""
        t0 = time.thread_time()
        last = rnd >= var.last_round       # the last round: every ended sheet's final score is exact
        if last and self.exact:
            value, seq, proven = lastround.solve(var, p, lambda q: final_score(var, q, ctx), self.exact_time)
            if not proven:                 # out of time: the beam's best, if better than the best found
                for e_value, e_seq in ((final_score(var, t[2], ctx), t[1] + [rules.END])
                                       for t in beam_plans(var, p, rnd, self.last_beam, self.last_pilots, ctx)):
                    if e_value > value:
                        value, seq = e_value, e_seq
            self.last_stats = {"plans": 1, "rollouts": 0, "seconds": time.thread_time() - t0, "proven": proven}
            return seq[:-1]                # without its ``end``
        beam, pilots = (self.last_beam, self.last_pilots) if last else (self.beam, self.pilots)
        plans = beam_plans(var, p, rnd, beam, pilots, ctx, self.skip(var, rnd, ctx))
        if last:
            plans.sort(key=lambda t: -final_score(var, t[2], ctx))
        elif self.value and ctx is None and learned.applies(var):
            vals = learned.values(var, [t[2] for t in plans], rnd)
            order = sorted(range(len(plans)), key=lambda i: (-vals[i], i))
            plans = [plans[i] for i in order]
        elif self.rank and (ctx is None or self.table) and learned.applies(var):
            top = plans[:self.rank_top]
            vals = rank_values(var, [t[2] for t in top], rnd, ctx)
            order = sorted(range(len(top)), key=lambda i: (-vals[i], i))
            plans = [top[i] for i in order] + plans[len(top):]
        if self.lookahead and (ctx is None or self.table) and not last and len(plans) > 1:
            plans = self.look_ahead(var, p, rnd, plans, t0, ctx)
        plans = plans[:self.candidates]
        if len(plans) == 1 or last or self.rollouts == 0 or ctx is not None:
            self.last_stats = {"plans": len(plans), "rollouts": 0, "seconds": time.thread_time() - t0}
            return plans[0][1]
        alive = list(range(len(plans)))
        totals = [0.0] * len(plans)
        counts = [0] * len(plans)
        rolls: list[list[tuple[int, ...]]] = []
        done = 0
        per = max(1, self.rollouts // (2 * len(plans)))
        while len(alive) > 1 and done < self.rollouts and (not self.time or time.thread_time() - t0 < self.time):
            while len(rolls) < counts[alive[0]] + per:
                rolls.append([tuple(self.rng.randint(1, SIDES) for _ in range(SHEET.dice_per_round))
                              for _ in range(var.last_round - rnd)])
            for i in alive:
                for k in range(counts[i], counts[i] + per):
                    totals[i] += rollout(var, self.greedy, plans[i][2], rnd, rolls[k])
                    done += 1
                counts[i] += per
            alive.sort(key=lambda i: -totals[i] / counts[i])
            alive = alive[:max(1, (len(alive) + 1) // 2)]
            per *= 2
        best = max(alive, key=lambda i: (totals[i] / counts[i] if counts[i] else float("-inf"), -i))
        self.last_stats = {"plans": len(plans), "rollouts": done, "seconds": time.thread_time() - t0}
        return plans[best][1]
