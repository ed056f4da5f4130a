"""Shuluri Viadal's own agents. ``heuristic`` scores every legal action from the seat's observation
only: focus fire (the enemy gladiator first, then the weakest enemy), protect the own gladiator
(lightning-negator, Lightning Armour and Blade on him, ME on him), close in on the enemy, spring
traps when possible. The stronger AI comes later; this one is a baseline and the playout policy
of the generic search."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.action import Action
from ...core.agent import Agent
from . import board as B
from .data import SPELL_BY_KEY

BENEFICIAL = {"blade", "armour", "denial"}
DAMAGE = {"bolt": 3, "mighty": 4, "terrible": 5, "turning": 6, "chain": 6, "gut": 3, "pain": 4, "agony": 6,
          "fatal": 5, "rending": 3, "sap": 4, "theft": 5, "numb": 2}


class _View:
    """The public picture of the board from one seat's observation."""

    def __init__(self, obs: dict[str, Any], seat: int):
        g = obs["shuluri"]
        self.seat = seat
        self.alliance = g["alliances"]
        self.figs = {f["name"]: f for f in g["figures"]}
        self.field = {n: (B.parse_field(f["field"]) if f["field"] else -1) for n, f in self.figs.items()}
        self.areas = g["areas"]

    def enemy(self, name: str) -> bool:
        f = self.figs.get(name)
        return f is not None and self.alliance[f["seat"]] != self.alliance[self.seat]

    def alive_enemies(self) -> list[str]:
        return [n for n, f in self.figs.items() if f["alive"] and self.field[n] >= 0 and self.enemy(n)]

    def is_gladiator(self, name: str) -> bool:
        f = self.figs.get(name)
        return f is not None and f["role"] == "gl" and not f["zombie"]

    def nearest(self, field: int, names: list[str]) -> int:
        return min((B.distance(field, self.field[n]) for n in names), default=99)


class HeuristicAgent(Agent):
    name = "heuristic"

    def choose(self, state, seat: int) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        view = _View(state.observation(seat), seat)
        me = "abcd"[seat]
        best: list[Action] = []
        best_score = None
        for a in actions:
            sc = self._score(view, me, a)
            if best_score is None or sc > best_score:
                best, best_score = [a], sc
            elif sc == best_score:
                best.append(a)
        return best[self.rng.below(len(best))]

    # --- scoring -------------------------------------------------------------------------------------------
    def _score(self, v: _View, me: str, a: Action) -> float:
        words = a.text.split()
        k = a.kind
        if k == "end":
            return 0.0
        if k in ("attack", "shoot", "javelin", "net"):
            return self._target(v, words[2]) + (5 if k == "attack" else 0) - (20 if k == "net" else 0)
        if k == "cast":
            return self._cast(v, me, words)
        if k == "trap":
            if len(words) == 2:
                return 40.0
            return 20.0 + self._target(v, words[2])
        if k == "move":
            return self._move(v, me, a)
        if k in ("pass", "passall"):
            return 1.0 if k == "passall" else 0.5
        if k == "dodge":
            return 1.0 if a.args[0] else 0.0
        if k == "push":
            return 0.0 if a.args[0] < 0 else -1.0
        if k == "stand":
            return 60.0
        if k == "pickup":
            return 8.0
        if k in ("drop", "wield", "hide", "run", "coat"):
            return -1.0
        if k == "aim":
            return 6.0
        if k == "drink":
            f = v.figs.get(me + words[0])
            return 15.0 if f and f["ep"] < f["max_ep"] // 2 else -1.0
        if k == "gate":
            return 0.5 if a.args[2] else -2.0
        if k in ("traps", "amulets", "resist", "weapon", "vials", "potions"):
            return self._setup(words)
        if k == "effect":
            return {"defence": 2, "strength": 2, "arm": 2}.get(words[1], 1)
        if k in ("chain", "enemy"):
            if len(words) < 2 or words[1] == "stop":
                return 0.0
            return self._target(v, words[1]) if k == "chain" else -v.nearest(
                v.field.get(words[1], 0), [words[1]]) + (10 if v.enemy(words[1]) else -10)
        if k == "orderto":
            return 5.0 if words[1] == "attack" and v.enemy(words[2]) else 0.0
        if k == "order":
            return -2.0
        return 0.0

    def _target(self, v: _View, name: str) -> float:
        f = v.figs.get(name)
        if f is None or not v.enemy(name):
            return -100.0
        return 50.0 + (40.0 if v.is_gladiator(name) else 0.0) + (20 - f["ep"])

    def _cast(self, v: _View, me: str, words: list[str]) -> float:
        key = words[2]
        sp = SPELL_BY_KEY[key]
        target = words[3] if len(words) > 3 else ""
        if sp.target == "area":
            centre = B.parse_field(target)
            foes = sum(1 for n in v.alive_enemies() if B.distance(centre, v.field[n]) <= 1)
            friends = sum(1 for n, f in v.figs.items() if f["alive"] and not v.enemy(n) and v.field[n] >= 0
                          and B.distance(centre, v.field[n]) <= 1)
            return 25.0 * foes - 40.0 * friends - (30.0 if foes == 0 else 0.0)
        if key in ("fireform", "prison"):
            return 5.0
        if key == "undead":
            return 30.0
        if key in BENEFICIAL:
            if target and not v.enemy(target):
                return 35.0 if v.is_gladiator(target) else 10.0
            return -100.0
        if not target or not v.enemy(target):
            return -100.0
        return self._target(v, target) - 10 + DAMAGE.get(key, 2) * 2 + sp.level

    def _move(self, v: _View, me: str, a: Action) -> float:
        name = me + a.text.split()[0]
        frm = v.field.get(name, -1)
        if frm < 0:
            return -5.0
        to = B.NEIGHBOURS[frm][a.args[1]]
        foes = v.alive_enemies()
        if v.is_gladiator(name):
            targets = [n for n in foes if v.is_gladiator(n)] or foes
        else:
            targets = [n for n in foes if not v.is_gladiator(n)] or foes
        gain = v.nearest(frm, targets) - v.nearest(to, targets)
        penalty = {"move": 0.0, "sneak": 1.0, "disengage": 4.0}[a.args[2]]
        return (3.0 * gain if gain > 0 else -1.0) - penalty

    def _setup(self, words: list[str]) -> float:
        head = words[0]
        if head == "amulets":
            # the gladiator's metal armour does not stop lightning: the negator on him
            return (words[2] == "gl") * 3 + (words[1] == "wl") + (words[3] in ("xb", "d1", "d2"))
        if head == "resist":
            return (words[2] == "gl") * 2 + (words[1] in ("xb", "d1", "d2"))
        if head == "weapon":
            return {"sword_shield": 3, "mace_shield": 2, "greatsword": 1}.get(words[1], 0)
        if head == "traps":
            return sum(1 for w in words[1:] if w in ("d1", "d2", "xb"))
        return 0.0


def agent_factories() -> dict[str, Callable[[int], Any]]:
    return {"heuristic": HeuristicAgent}
