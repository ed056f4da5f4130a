"""The ``expert`` level: a search guided by a learned network (``core/net.py``), for any game that
declares an observation tensor and action ids.

Determinized PUCT (AlphaZero's selection rule over single-observer IS-MCTS): each simulation starts
from a new determinization ``state.sample_hidden(seat, rng)`` (the real state's hidden parts are never
read), walks the tree of action texts choosing ``Q + c * P * sqrt(N) / (1 + n)`` among the children
legal in that determinization, and at the first unexpanded node asks the network: its value for every
seat (each seat's own observation, one batched forward pass) is backed up, its policy over the legal
action ids becomes the node's priors. Every node keeps the value of the seat that chose its action,
so each seat maximizes its own return. Q is the raw value in [0, 1] (``normalize=True``: min-max
normalized over the values seen in the tree, as MuZero does; measured worse with the first networks,
whose values are noisy: the normalization turns their noise into full-scale differences). With
``simulations=0`` the agent plays the policy's most probable legal action (no search).

Budget: ``simulations`` and/or ``time`` seconds per decision (0 = no time limit: the same decisions on
any machine, as the training pipeline needs). The visit distribution of the last search is kept in
``last_policy`` (action id -> share), the policy target of self-play.
"""

from __future__ import annotations

import math
import time as _time
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.action import Action
from ..core.agent import Agent
from ..core.registry import game_info
from ..core.state import GameState
from .net import Network, masked_softmax


class _Node:
    __slots__ = ("children", "n", "w", "mover", "priors", "values")

    def __init__(self, mover: int):
        self.children: dict[str, _Node] = {}
        self.n = 0
        self.w = 0.0
        self.mover = mover
        self.priors: dict[str, float] | None = None     # set when the network has looked at this node
        self.values: list[float] = []


class Evaluator:
    """The network applied to a game's states: values for every seat and the policy of the seat to move."""

    def __init__(self, net: Network, game: str, players: int):
        info = game_info(game)
        if info.codec is None or info.tensor is None:
            raise ValueError(f"{info.title} declares no action ids or observation tensor")
        self.net = net
        self.codec = info.codec
        self.players = players
        self.lo, self.hi = info.utility_bounds(players)
        self.obs = np.zeros((players, net.obs_size), np.float32)
        self.mask = np.zeros(info.num_distinct_actions, np.int8)
        if net.num_actions != info.num_distinct_actions:
            raise ValueError(f"the network has {net.num_actions} action ids, {info.title} {info.num_distinct_actions}")

    def terminal(self, state: GameState) -> list[float]:
        span = (self.hi - self.lo) or 1.0
        return [(r - self.lo) / span for r in state.returns()]

    def evaluate(self, state: GameState, actions: list[Action]) -> tuple[list[float], dict[str, float]]:
        """(value per seat, prior per legal action text) of a non-terminal state."""
        cp = state.current_player
        assert cp is not None
        for s in range(self.players):
            state.observation_tensor_into(s, self.obs[s])
        h = self.net.trunk(self.obs)
        v = h @ self.net.value[0] + self.net.value[1]
        values = (1.0 / (1.0 + np.exp(-v[:, 0]))).tolist()
        logits = h[cp] @ self.net.policy[0] + self.net.policy[1]
        return values, self.priors(state, actions, logits)

    def priors(self, state: GameState, actions: list[Action], logits: np.ndarray) -> dict[str, float]:
        ids = [self.codec.encode(a, state) for a in actions]
        known = [i for i in ids if i is not None]
        mask = self.mask
        mask[:] = 0
        mask[known] = 1
        p = masked_softmax(logits, mask) if known else None
        floor = 1.0 / (len(actions) * 10)        # an action without an id still gets tried
        return {a.text: (float(p[i]) if p is not None and i is not None else floor) for a, i in zip(actions, ids,
                                                                                                   strict=True)}

    def policy_of(self, state: GameState, seat: int, actions: list[Action]) -> dict[str, float]:
        state.observation_tensor_into(seat, self.obs[0])
        _, logits = self.net.forward(self.obs[0])
        return self.priors(state, actions, logits)


class ExpertAgent(Agent):
    """Network-guided determinized PUCT (see the module text). ``nets(players)`` gives the network for a
    player count, or None: then ``fallback(seed)`` plays (the game's hard level when built by the agents
    package)."""

    name = "expert"
    clock = staticmethod(_time.perf_counter)

    def __init__(self, seed: int = 0, nets: Callable[[int], Network | None] | Network | None = None,
                 simulations: int = 64, time: float = 0.5, c: float = 1.5,
                 fallback: Callable[[int], Agent] | None = None, noise: float = 0.0, explore: int = 0,
                 normalize: bool = False):
        super().__init__(seed)
        self._nets = nets if callable(nets) or nets is None else (lambda _p, n=nets: n)
        self.simulations = simulations
        self.time_limit = time or None
        self.c = c
        self.fallback = fallback
        self.noise = noise            # Dirichlet noise on the root's priors (self-play exploration)
        self.explore = explore        # this many own decisions are sampled from the visits (self-play)
        self.normalize = normalize    # Q min-max normalized over the tree (else raw values in [0, 1])
        self._decisions = 0
        self._eval: dict[tuple[str, int], Evaluator | None] = {}
        self._fallback_agent: Agent | None = None
        self.last_policy: dict[int, float] = {}
        self.last_stats: dict[str, Any] = {}

    def _evaluator(self, state: GameState) -> Evaluator | None:
        key = (state.game, state.num_players)
        if key not in self._eval:
            net = self._nets(state.num_players) if self._nets is not None else None
            self._eval[key] = Evaluator(net, state.game, state.num_players) if net is not None else None
        return self._eval[key]

    def choose(self, state: GameState, seat: int) -> Action:
        ev = self._evaluator(state)
        if ev is None:
            if self.fallback is None:
                raise ValueError(f"no network for {state.game} at {state.num_players} players")
            if self._fallback_agent is None:
                self._fallback_agent = self.fallback(self.rng.below(2**31))
            return self._fallback_agent.choose(state, seat)
        actions = state.legal_actions()
        self._decisions += 1
        det = state.sample_hidden(seat, self.rng)
        if len(actions) == 1:
            self.last_policy = self._ids({actions[0].text: 1.0}, det, actions)
            self.last_stats = {"simulations": 0}
            return actions[0]
        if self.simulations <= 0:
            pri = ev.policy_of(det, seat, actions)
            self.last_policy = self._ids(pri, det, actions)
            best = max(actions, key=lambda a: pri[a.text])
            return best
        return self._search(state, seat, actions, det, ev)

    @staticmethod
    def _ids(shares: dict[str, float], det: GameState, actions: list[Action]) -> dict[int, float]:
        codec = game_info(det.game).codec
        assert codec is not None
        out: dict[int, float] = {}
        for a in actions:
            i = codec.encode(a, det)
            if i is not None and shares.get(a.text, 0.0) > 0:
                out[i] = out.get(i, 0.0) + shares[a.text]
        total = sum(out.values())
        return {i: p / total for i, p in out.items()} if total > 0 else {}

    # --- the search -------------------------------------------------------------------------------
    def _search(self, state: GameState, seat: int, actions: list[Action], det: GameState, ev: Evaluator) -> Action:
        t0 = self.clock()
        deadline = t0 + self.time_limit if self.time_limit else math.inf
        root = _Node(-1)
        root.values, root.priors = ev.evaluate(det, actions)
        if self.noise > 0:
            g = np.random.default_rng(self.rng.below(2**31))
            eta = g.dirichlet([0.3] * len(actions))
            root.priors = {a.text: (1 - self.noise) * root.priors[a.text] + self.noise * float(e)
                           for a, e in zip(actions, eta, strict=True)}
        self._lo, self._hi = math.inf, -math.inf
        sims = 0
        root_det = det
        while sims < self.simulations and (sims == 0 or self.clock() < deadline):
            d = root_det.clone() if sims == 0 else state.sample_hidden(seat, self.rng)
            self._simulate(d, root, ev)
            sims += 1
        legal = {a.text for a in actions}
        visits = {t: ch.n for t, ch in root.children.items() if t in legal and ch.n > 0}
        if not visits:
            visits = {max(actions, key=lambda a: root.priors[a.text]).text: 1}   # type: ignore[index]
        total = sum(visits.values())
        self.last_policy = self._ids({t: n / total for t, n in visits.items()}, root_det, actions)
        self.last_stats = {"simulations": sims, "seconds": self.clock() - t0,
                           "children": {t: (ch.n, round(ch.w / ch.n, 4) if ch.n else None)
                                        for t, ch in root.children.items()}}
        if self._decisions <= self.explore:
            texts = sorted(visits)
            r = self.rng.random() * total
            for t in texts:
                r -= visits[t]
                if r < 0:
                    return next(a for a in actions if a.text == t)
        best = max(visits, key=lambda t: (visits[t], root.children[t].w / root.children[t].n))
        return next(a for a in actions if a.text == best)

    def _simulate(self, det: GameState, root: _Node, ev: Evaluator) -> None:
        node = root
        path = [root]
        c = self.c
        while True:
            if det.is_terminal():
                values = ev.terminal(det)
                break
            actions = det.legal_actions()
            if node.priors is None:
                node.values, node.priors = ev.evaluate(det, actions)
                values = node.values
                break
            cp = det.current_player
            assert cp is not None
            sqrt_n = math.sqrt(max(node.n, 1))
            lo, span = (self._lo, self._hi - self._lo) if self.normalize and self._hi > self._lo else (0.0, 1.0)
            fpu = (node.values[cp] - lo) / span if node.values else 0.0
            priors = node.priors
            floor = 1.0 / len(actions)
            best_a, best_u = actions[0], -math.inf
            for a in actions:
                ch = node.children.get(a.text)
                p = priors.get(a.text, floor)
                if ch is None or ch.n == 0:
                    u = fpu + c * p * sqrt_n
                else:
                    u = (ch.w / ch.n - lo) / span + c * p * sqrt_n / (1 + ch.n)
                if u > best_u:
                    best_a, best_u = a, u
            child = node.children.get(best_a.text)
            if child is None:
                child = node.children[best_a.text] = _Node(cp)
            det.apply(best_a)
            node = child
            path.append(node)
        self._lo = min(self._lo, *values)
        self._hi = max(self._hi, *values)
        for nd in path[1:]:
            nd.n += 1
            nd.w += values[nd.mover]
        root.n += 1
