"""A greedy heuristic agent for Zauberschmiede.

It looks one action ahead: every legal action is tried on a copy of its own sheet and scored by
how much it raises a potential = the score the sheet would get now (S1-S8) + discounted credit for
unfinished work (partly charged artifacts, dust held for them, colour levels and amplifier levels
that will pay off later, sets and colours in reach), minus a small cost for spending a high die.
Transmutations are considered when a changed die would be worth clearly more than the die as it is.

Information use: the agent reads only ``state.legal_actions()`` and a determinization from
``state.sample_hidden(seat, rng)``, and in it only its own sheet and the other sheets as the seat
sees them (``visible_player``) -- never hidden parts of the real state.
"""

from __future__ import annotations

from ...core.action import Action
from ...core.agent import Agent
from ...core.state import GameState
from . import rules
from .actions import KIND_CHARGE, KIND_END, KIND_TRANSMUTE, KIND_UPGRADE
from .player import Player
from .scoring import dust_creator, dust_metric
from .sheet import SHEET

NA = len(SHEET.artifacts)
NC = len(SHEET.colours)
CC = tuple(a.colour_count for a in SHEET.artifacts)
GROUPS = tuple(tuple(fs for _c, fs in a.groups) for a in SHEET.artifacts)
SET_CATS = tuple((SHEET.category_artifacts[c], sum(SHEET.base[a] for a in SHEET.category_artifacts[c]))
                 for c in SHEET.set_categories)

# tuning constants of the potential (chosen by simulation, see scripts/zauberschmiede_solo_scores.py)
PARTIAL = 0.85        # credit for an unfinished artifact, times its value and progress**GAMMA
GAMMA = 1.0
SET_W = 0.7           # credit for a set in progress, times bonus * progress**3
COLOUR_W = 0.4        # credit for "all artifacts of a colour", times bonus * progress**4
UPG_FUTURE = 0.3      # colour fields per colour and remaining round a level is expected to still score on
AMP_W = 0.2           # credit per amplifier level for expected future amplifications
AMP_PER_ROUND = 0.8   # expected completions per remaining round
DIE_COST = 0.08       # cost per pip of spending a die (keeps high dice for high fields)
TRANSMUTE_COST = 5.0  # value of keeping a transmutation for later
DUST_SHAPE = 0.4      # solo: share of the dust-creator bonus credited per dust on the way to 11


class _Ctx:
    __slots__ = ("var", "seat", "metrics", "solo", "future_dice", "rem_rounds", "last", "upg_future")

    def __init__(self, det, seat: int):
        # the view may carry its own UPG_FUTURE (the solo planner's, planner.SOLO_UPG_FUTURE)
        upg = getattr(det, "upg_future", None)
        self.upg_future = UPG_FUTURE if upg is None else upg
        self.var = det.var
        self.seat = seat
        self.metrics = [dust_metric(det.var, det.visible_player(i, seat)) for i in range(det.num_players)]
        self.solo = det.num_players == 1
        self.rem_rounds = det.var.last_round - det.round
        self.future_dice = self.rem_rounds * SHEET.dice_per_round
        self.last = det.var.last_round


_LEVEL = tuple(bin(m).count("1") for m in range(1 << len(SHEET.upgrade_values)))
_NK = len(SHEET.upgrade_values)
_KMASK = (1 << _NK) - 1
_COLOUR_FIELDS = tuple(tuple(tuple(f for f in a.fields if SHEET.field_colour[f] == c) for c in range(NC))
                       for a in SHEET.artifacts)
# per artifact: (base value, fields, dust cost) and its (colour, fields of that colour) with fields > 0
_NEED = tuple(zip(SHEET.base, SHEET.art_nfields, SHEET.dust, strict=True))
_COLOUR_COUNTS = tuple(tuple((c, n) for c, n in enumerate(cc) if n) for cc in CC)
_COLOURS = tuple((arts, len(arts)) for arts in SHEET.colour_artifacts)
_HARMONY: dict[int, tuple[tuple, tuple]] = {}


def _harmony_groups(hmin: int) -> tuple[tuple, tuple]:
    """Per artifact, the colour groups of at least ``hmin`` fields: of a complete artifact (by colour,
    as scoring counts them) and of an open one (its printed groups, with their sizes)."""
    g = _HARMONY.get(hmin)
    if g is None:
        done = tuple(tuple(fs for fs in _COLOUR_FIELDS[a] if len(fs) >= hmin) for a in range(NA))
        open_ = tuple(tuple((fs, len(fs)) for fs in GROUPS[a] if len(fs) >= hmin) for a in range(NA))
        g = _HARMONY[hmin] = (done, open_)
    return g


def potential_key(p: Player) -> tuple:
    """Everything of sheet ``p`` that ``potential`` reads (for a memo: sheets that differ only in which
    die was used, or in the dice left, share a potential). Keep it in step with ``potential``."""
    return (tuple(p.fields), p.paid, p.amped, tuple(p.boxes), p.fresh, tuple(p.stock), p.spent, p.amp_level,
            p.amp_paid, p.upg, p.used.count(""))


def potential(ctx: _Ctx, p: Player) -> float:
    """Score now (S1-S8, computed inline for speed; equals scoring.breakdown) + credit for open work.
    The hot path of every search here: loops over precomputed tables, no intermediate lists."""
    var = ctx.var
    paid, nfill, fields, upg = p.paid, p.nfill, p.fields, p.upg
    levels = [_LEVEL[upg >> (c * _NK) & _KMASK] for c in range(NC)]
    lvl = p.amp_level
    s2 = sum(p.boxes)
    budget = p.used.count("") + ctx.future_dice          # dice unused this round and still to come
    pool = p.fresh
    spent = p.spent
    for r, amt in enumerate(p.stock):
        if amt and not spent >> r & 1:
            pool += amt
    per_artifact = var.hmode == "per_artifact"
    done_groups, open_groups = _harmony_groups(var.hmin)
    val = 0.0
    partial = 0.0
    prog = [1.0] * NA
    half_lvl = 0.5 * lvl
    for a in range(NA):
        base, n, d = _NEED[a]
        if paid >> a & 1:
            v: float = base
            for c, k in _COLOUR_COUNTS[a]:
                if levels[c]:
                    v += levels[c] * k
            if per_artifact:
                for fs in done_groups[a]:
                    x = fields[fs[0]]
                    for f in fs:
                        if fields[f] != x:
                            break
                    else:
                        v += base
            val += v
            continue
        k = nfill[a]
        alloc = 0
        if k == n and pool:
            alloc = d if pool >= d else pool
            pool -= alloc
        if n - k + d - alloc > budget or (k == 0 and alloc == 0):
            prog[a] = 0.0
            continue
        pr = (k + alloc) / (n + d)
        prog[a] = pr
        v = base + half_lvl
        for c, kc in _COLOUR_COUNTS[a]:
            if levels[c]:
                v += levels[c] * kc
        if per_artifact:
            for fs, nf in open_groups[a]:
                first = filled = 0
                for f in fs:
                    x = fields[f]
                    if x:
                        if not first:
                            first = x
                        elif x != first:
                            break
                        filled += 1
                else:
                    if filled:
                        v += base * (0.35 + 0.55 * filled / nf)
        partial += v * pr ** GAMMA
    if not per_artifact:
        from .scoring import harmony
        val += harmony(var, p)
    val += PARTIAL * partial
    val += s2 + lvl * bin(p.amped & paid).count("1")
    for arts, bonus in SET_CATS:
        m = 0.0
        for a in arts:
            m += prog[a]
        m /= len(arts)
        if m == 1.0:
            val += bonus
        else:
            val += SET_W * bonus * m ** 3
    for arts, na in _COLOURS:
        m = 0.0
        for a in arts:
            m += prog[a]
        m /= na
        if m == 1.0:
            val += SHEET.bonus_all_colour
        else:
            val += COLOUR_W * SHEET.bonus_all_colour * m ** 4
    # S8 dust creator (and, solo, a share of it on the way there)
    if ctx.solo:
        if s2 > SHEET.solo_dust_more_than:
            val += SHEET.bonus_dust_creator
        elif s2 + budget > SHEET.solo_dust_more_than:
            val += SHEET.bonus_dust_creator * s2 / (SHEET.solo_dust_more_than + 1) * DUST_SHAPE
    else:
        metrics = ctx.metrics
        metrics[ctx.seat] = dust_metric(var, p)
        val += dust_creator(var, s2, metrics, ctx.seat)   # S8 alone (breakdown's S2 is s2)
    if ctx.rem_rounds:
        val += ctx.upg_future * ctx.rem_rounds * sum(levels)
    costs = SHEET.amp_costs
    l_eff = lvl + (p.amp_paid / costs[lvl] if lvl < len(costs) else 0.0)
    if l_eff:
        open_amps = bin(paid & ~p.amped).count("1")
        val += AMP_W * l_eff * min(open_amps + AMP_PER_ROUND * ctx.rem_rounds, budget)
    return val


def _die_value(a: Action) -> int:
    args = a.args
    if a.kind in (KIND_CHARGE,):
        return args[2]
    if a.kind in ("amplify", KIND_UPGRADE):
        return args[1]
    if a.kind in ("unlock", "dust"):
        return args[0]
    return 0


def _trivial(actions: list[Action]) -> bool:
    """One choice, or finishing an amplifier level (any die will do: take the lowest, the first)."""
    return len(actions) == 1 or (actions[0].kind == "unlock" and all(a.kind == "unlock" for a in actions))


class GreedyAgent(Agent):
    name = "greedy"

    def choose(self, state: GameState, seat: int) -> Action:
        actions = state.legal_actions()
        if _trivial(actions):
            return actions[0]
        return self.decide(state.sample_hidden(seat, self.rng), seat, actions)

    def decide(self, det, seat: int, actions: list[Action]) -> Action:
        """The choice on a determinization ``det`` (searches call this in their playouts)."""
        if _trivial(actions):
            return actions[0]
        ctx = _Ctx(det, seat)
        p = det.players[seat]
        var, rnd = det.var, det.round
        base = potential(ctx, p)
        best, best_score = None, float("-inf")
        trans = []
        seen: set = set()
        value_free = var.hmode == "per_artifact"
        by_value: dict[int, float] = {}
        any_value = float("-inf")
        for a in actions:
            kind = a.kind
            if kind == KIND_TRANSMUTE:
                trans.append(a)
                continue
            # actions that differ only in the die's value score the same except for DIE_COST, and the
            # legal list is in ascending value: keep the first (lowest die) of each such family
            if kind == KIND_CHARGE:
                art, c, _v = a.args
                if value_free and SHEET.artifacts[art].colour_count[c] < var.hmin:
                    key = (art, c)
                    if key in seen:
                        continue
                    seen.add(key)
            elif kind in ("dust", "unlock"):
                if kind in seen:
                    continue
                seen.add(kind)
            elif kind == "amplify":
                key = ("amplify", a.args[0])
                if key in seen:
                    continue
                seen.add(key)
            if kind == KIND_END:
                score = 0.0
            else:
                q = p.copy()
                rules.do(var, q, a, rnd)
                v = _die_value(a)
                score = potential(ctx, q) - base - DIE_COST * v
                if v:
                    if score > by_value.get(v, float("-inf")):
                        by_value[v] = score
                    if kind in ("dust", "unlock", "amplify"):
                        any_value = max(any_value, score + DIE_COST * v)
            if score > best_score:
                best, best_score = a, score
        if trans:
            use_v = {v: max(sc, any_value - DIE_COST * v) for v, sc in by_value.items()}
            t, t_use, t_gain = self._best_transmute(ctx, p, var, rnd, base, trans, use_v)
            if t is not None and t_gain > TRANSMUTE_COST and t_use > best_score + TRANSMUTE_COST:
                return t
        assert best is not None                  # "end" is always legal and scored
        return best

    def _best_transmute(self, ctx, p, var, rnd, base, trans, use_v):
        """Score a transmutation v->w by the best colour box or charge a die w allows that no die of
        this round allowed before (a new colour box, a field too high for the dice, or a harmony
        value), against ``use_v[v]``, the best use of the die as it is."""
        cnt = rules.available(p)
        top = max((v for v in range(1, len(cnt)) if cnt[v]), default=0)
        best, best_use_w, best_gain = None, 0.0, float("-inf")
        use_w: dict[int, float] = {}
        for a in trans:
            v, w = a.args
            if w not in use_w:
                q = p.copy()
                rules.do(var, q, a, rnd)
                sc = float("-inf")
                for b in rules.legal_actions(var, q):
                    kind = b.kind
                    if kind == KIND_UPGRADE:
                        if b.args[1] != w or cnt[w]:
                            continue
                    elif kind == KIND_CHARGE:
                        art, c, bv = b.args
                        if bv != w:
                            continue
                        if w <= top:
                            # the same field was reachable without the transmutation: only worth it
                            # for harmony, i.e. when the colour's filled fields already show w
                            fs = SHEET.artifacts[art].groups[SHEET.artifacts[art].colours.index(c)][1]
                            vals = [p.fields[f] for f in fs if p.fields[f]]
                            if len(fs) < var.hmin or not vals or any(x != w for x in vals):
                                continue
                    else:
                        continue
                    q2 = q.copy()
                    rules.do(var, q2, b, rnd)
                    sc = max(sc, potential(ctx, q2) - base - DIE_COST * w)
                use_w[w] = sc
            gain = use_w[w] - use_v.get(v, 0.0)
            if gain > best_gain:
                best, best_use_w, best_gain = a, use_w[w], gain
        return best, best_use_w, best_gain
