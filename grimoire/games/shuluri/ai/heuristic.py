"""The tactical heuristic (``medium``; with noise ``easy``; the playout policy of ``hard``).

It decides on one determinization of what its seat can see (``state.sample_hidden(seat, rng)``) and
reads the other sides' secrets only as probabilities (``ctx``). The acting player's step goes to the
planner (focus fire on what is worth most and can be hurt most, the enemy gladiator above all;
cover and hiding; gates opened on the way; ranged traps when a holder can reach its field); the
other decisions to ``choices``.
"""

from __future__ import annotations

import math

from ....core.action import Action
from ....core.agent import Agent
from ....core.rng import Rng
from ..data import HEAP_SETS, ROLES
from ..fig import IN_HEAP
from ..movement import player_controls
from ..values import wield_key
from . import choices as C
from .ctx import Ctx
from .planner import MIN_GAIN, Planner, next_action

WEAPON_PREFERENCE = ("greatsword", "two_swords", "mace_shield", "sword_shield", "halberd")
POTION_AT = 4                   # drink when at least this many Ep are missing


def decide(det, seat: int, actions: list[Action], rng: Rng | None = None, noise: float = 0.0,
           shared: dict | None = None, setup: C.Setup = C.SETUP) -> Action:
    """The heuristic's choice on a determinization ``det`` (the real state's legal ``actions``)."""
    by_text = {a.text: a for a in actions}
    top = det.stack.top
    kind = top.kind
    ctx = Ctx(det, seat, shared)
    legal = set(by_text)
    text: str | None
    if kind == "act":
        text = act(ctx, legal, rng, noise)
    elif kind == "name":
        text = name(ctx, actions, rng, noise)
    elif kind == "react":
        text = C.react(ctx, top.payload, legal)
    elif kind == "dodge":
        text = C.dodge(ctx, top.payload)
    elif kind == "push":
        text = C.push(ctx, top.payload, legal)
    elif kind == "shove":
        text = C.shove(ctx, top.payload, legal)
    elif kind == "effect":
        text = C.effect(ctx, top.payload, legal)
    elif kind == "enemy":
        text = C.enemy(ctx, top.payload, legal)
    elif kind == "chain":
        text = C.chain(ctx, top.payload, legal)
    elif kind == "order":
        text = C.order(ctx, top.payload, legal)
    else:
        text = C.setup_choice(ctx, kind, legal, setup)
        if noise and rng is not None and kind in ("weapon", "deploy") and rng.random() < noise:
            text = actions[rng.below(len(actions))].text
    a = by_text.get(text) if text else None
    if a is None:
        a = by_text.get("end") or by_text.get("pass") or by_text.get("no dodge") or by_text.get("no push") \
            or actions[0]
    return a


def act(ctx: Ctx, legal: set[str], rng: Rng | None, noise: float) -> str:
    s = ctx.s
    figs = [s.figs[c] for c in s.named if player_controls(s, s.figs[c])]
    for f in figs:
        quick = _housekeeping(ctx, f, legal)
        if quick:
            return quick
    ranked = Planner(ctx).ranked(figs)
    if noise and rng is not None:
        for p in ranked:
            p.value += noise * _gumbel(rng)
        ranked.sort(key=lambda p: -p.value)
    for p in ranked:
        if p.value <= MIN_GAIN:
            break
        text = next_action(p)
        if text in legal:
            return text
    return "end"


def _housekeeping(ctx: Ctx, f, legal: set[str]) -> str | None:
    """Small things that are always right: stand up, pick the dropped weapon up, re-arm at the heap,
    drink a potion when hurt."""
    rc = ROLES[f.role]
    if f.is_gladiator:
        if "gl stand" in legal:
            return "gl stand"
        if "gl pickup" in legal:
            return "gl pickup"
        if wield_key(f) == "dagger":
            for key in WEAPON_PREFERENCE:
                i = HEAP_SETS.index(key)
                if f.sets[i] == IN_HEAP and f"gl wield {key}" in legal:
                    return f"gl wield {key}"
    if f"{rc} drink" in legal and f.max_ep - f.ep >= POTION_AT:
        return f"{rc} drink"
    return None


def name(ctx: Ctx, actions: list[Action], rng: Rng | None, noise: float) -> str | None:
    """Name the two characters whose best plans are worth most now (each figure's plan does not
    depend on its partner: both share the same pool)."""
    s = ctx.s
    seat = ctx.seat
    gains: dict[str, float] = {}
    for a in actions:
        roles = a.text.split()[1:]
        if all(r in gains for r in roles):
            continue
        trial = s.clone()
        trial.apply(a)
        top = trial.stack.top
        if trial.is_terminal() or top is None or top.kind != "act" or top.seat != seat:
            for r in roles:
                gains.setdefault(r, 0.0)
            continue
        tctx = Ctx(trial, seat, ctx.shared)
        planner = Planner(tctx)
        for r in roles:
            f = trial.figs[seat * 5 + ROLES.index(r)]
            plans = planner.plans(f) if player_controls(trial, f) else []
            gains[r] = max((p.value for p in plans), default=0.0)
    if noise and rng is not None:
        for r in gains:
            gains[r] += noise * _gumbel(rng)
    best = max(actions, key=lambda a: (sum(gains.get(r, 0.0) for r in a.text.split()[1:]), a.text))
    return best.text


def _gumbel(rng: Rng) -> float:
    u = min(max(rng.random(), 1e-12), 1 - 1e-12)
    return -math.log(-math.log(u))


class HeuristicAgent(Agent):
    """The tactical heuristic; ``noise`` > 0 perturbs its choices (the easy level)."""

    name = "heuristic"

    def __init__(self, seed: int = 0, noise: float = 0.0, side_pref: str = "side", safe_deploy: bool = False,
                 weapon: str = C.START_WEAPON):
        super().__init__(seed)
        self.noise = noise
        self.setup = C.Setup(side_pref, safe_deploy, weapon)

    def choose(self, state, seat: int) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        det = state.sample_hidden(seat, self.rng)
        return decide(det, seat, actions, self.rng, self.noise, setup=self.setup)
