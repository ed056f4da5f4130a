"""Information-set Monte Carlo tree search (single-observer IS-MCTS, Cowling, Powley & Whitehouse 2012).

At each decision the agent searches a tree of action texts from the current position. Every
iteration starts from a new determinization ``state.sample_hidden(seat, rng)``: a full state
consistent with what ``seat`` can see (others' hands, deck order and future dice resampled), so the
search never looks at the hidden parts of the real state. Each iteration walks down the tree with
UCB1 among the children whose action is legal in that determinization (counting how often each
child was *available*, as IS-MCTS requires), adds one node, plays out with a rollout policy until
the game ends or a cutoff, evaluates, and backs up a reward vector: every node keeps the rewards of
the seat that chose its action, so each seat maximizes its own return (multi-player, not zero-sum).

Budget: ``iterations`` and/or ``time_limit`` (seconds); the search stops at whichever comes first.
With a time limit, ``backend_iterations`` may cap the iterations per engine instead (a compiled
engine searches as far as the same time allows); without one, ``iterations`` is a fixed budget on
every engine (the same decisions on each). ``cpu_clock`` measures the time limit in this thread's
CPU seconds (``time.thread_time``) instead of wall seconds: a budget other work on the machine does
not shrink (for measurements). The move played is the most visited child of the root.

Everything game-specific is pluggable through a ``SearchHooks`` object (``grimoire.core.search``:
games declare them in their descriptor and never import this package):
``candidates`` (which actions a node considers, best first: pruning, abstraction of huge action
sets, priors for progressive widening), ``rollout`` (the playout policy), ``cutoff`` (stop early
and evaluate: truncated rollouts) and ``evaluate`` (rewards per seat, in [0, 1]). The defaults play
uniformly random rollouts to the end and reward a win (shared on ties) plus a little score margin.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

from ..core.action import Action
from ..core.agent import Agent
from ..core.rng import Rng
from ..core.search import PolicyHooks, SearchHooks, score_rewards, terminal_rewards
from ..core.state import GameState

__all__ = ["ISMCTSAgent", "PolicyHooks", "SearchHooks", "score_rewards", "terminal_rewards"]


class _Node:
    __slots__ = ("children", "n", "avail", "w", "mover", "cache")

    def __init__(self, mover: int):
        self.children: dict[str, _Node] = {}
        self.n = 0
        self.avail = 0
        self.w = 0.0
        self.mover = mover
        self.cache: dict = {}


class ISMCTSAgent(Agent):
    """IS-MCTS over any game of the contract (see the module text)."""

    name = "mcts"
    clock = staticmethod(time.perf_counter)   # the time budget's clock (tests replace it with a counter)

    def __init__(self, seed: int = 0, iterations: int | None = 1000, time_limit: float | None = None,
                 c: float = 0.7, hooks: SearchHooks | None = None, max_rollout_steps: int | None = None,
                 widening: tuple[float, float] | None = None,
                 backend_iterations: Mapping[str, int | None] | None = None, cpu_clock: bool = False):
        super().__init__(seed)
        if iterations is None and time_limit is None:
            raise ValueError("IS-MCTS needs a budget: iterations, time_limit or both")
        self.iterations = iterations
        self.time_limit = time_limit
        self.c = c
        self.hooks = hooks or SearchHooks()
        self.max_rollout_steps = max_rollout_steps
        self.widening = widening          # (k, alpha): consider the first ceil(k * n**alpha) candidates
        self.backend_iterations = dict(backend_iterations or {})
        self.cpu_clock = cpu_clock
        self.last_stats: dict[str, Any] = {}

    def iteration_cap(self, backend: str) -> int | None:
        """The iteration budget on the engine ``backend``: its own cap while there is a time limit,
        else ``iterations`` (a fixed budget, the same on every engine)."""
        if self.time_limit is None:
            return self.iterations
        return self.backend_iterations.get(backend, self.iterations)

    def fast_on(self, engine: str) -> bool:
        # the game's compiled engine runs the whole search when its hooks offer it
        return engine == "python" or (getattr(self.hooks, "native_choose", None) is not None
                                      and self.widening is None and self.max_rollout_steps is None)

    def choose(self, state: GameState, seat: int) -> Action:
        native = getattr(self.hooks, "native_choose", None)
        if native is not None and state.backend != "python" and self.widening is None \
                and self.max_rollout_steps is None:
            return native(self, state, seat)     # the same search, run by the game's compiled engine
        actions = state.legal_actions()
        if len(actions) == 1:
            self.last_stats = {"iterations": 0, "seconds": 0.0}
            return actions[0]
        quick = self.hooks.shortcut(state, seat, actions)
        if quick is not None:
            self.last_stats = {"iterations": 0, "seconds": 0.0, "shortcut": True}
            return quick
        return self.search(state, seat, actions)

    # --- the search -------------------------------------------------------------------------------
    def search(self, state: GameState, seat: int, actions: list[Action]) -> Action:
        clock = time.thread_time if self.cpu_clock else self.clock
        t0 = clock()
        deadline = t0 + self.time_limit if self.time_limit is not None else math.inf
        cap = self.iteration_cap(state.backend)
        hooks = self.hooks
        rng = self.rng
        det = state.sample_hidden(seat, rng)
        hooks.begin(det.clone(), seat)       # the hooks see a determinization, never the real state
        root = _Node(-1)
        self._lo, self._hi = math.inf, -math.inf
        it = 0
        legal_texts = {a.text for a in actions}
        while True:
            if cap is not None and it >= cap:
                break
            if it and clock() >= deadline:
                break
            if it:
                det = state.sample_hidden(seat, rng)
            self._iterate(det, root, rng)
            it += 1
        best = None
        best_key = None
        for text, child in root.children.items():
            if text not in legal_texts:
                continue
            key = (child.n, child.w / child.n if child.n else 0.0)
            if best_key is None or key > best_key:
                best, best_key = text, key
        self.last_stats = {"iterations": it, "seconds": clock() - t0,
                           "children": {t: (ch.n, round(ch.w / ch.n, 4) if ch.n else None)
                                        for t, ch in root.children.items()}}
        if best is None:
            return actions[0]
        for a in actions:
            if a.text == best:
                return a
        return actions[0]  # pragma: no cover - best is always legal

    def _iterate(self, det: GameState, root: _Node, rng: Rng) -> None:
        hooks = self.hooks
        node = root
        path = [root]
        depth = 0
        c = self.c
        expanded = False
        # a state is terminal exactly when no seat is to move (the contract: grimoire.core.conformance)
        while (cp := det.current_player) is not None and not (depth and hooks.cutoff(det, depth)):
            cands = hooks.candidates(det, cp, det.legal_actions(), node.cache)
            if self.widening is not None and len(cands) > 1:
                k, alpha = self.widening
                cands = cands[:max(1, math.ceil(k * (node.n + 1) ** alpha))]
            children = node.children
            untried = None
            for a in cands:
                ch = children.get(a.text)
                if ch is None:
                    if untried is None:
                        untried = a
                else:
                    ch.avail += 1
            if untried is not None:
                child = _Node(cp)
                child.avail = 1
                children[untried.text] = child
                det.apply(untried)
                path.append(child)
                depth += 1
                expanded = True
                break
            best_a, best_u = cands[0], -math.inf     # (replaced at the first candidate: its u is finite)
            lo, span = 0.0, 1.0
            if hooks.normalize and self._hi > self._lo:
                lo, span = self._lo, self._hi - self._lo
            for a in cands:
                ch = children[a.text]
                u = (ch.w / ch.n - lo) / span + c * math.sqrt(math.log(ch.avail) / ch.n)
                if u > best_u:
                    best_a, best_u = a, u
            node = children[best_a.text]
            det.apply(best_a)
            path.append(node)
            depth += 1
        if expanded:
            steps = 0
            limit = self.max_rollout_steps
            while not det.is_terminal() and not hooks.cutoff(det, depth):
                if limit is not None and steps >= limit:
                    break
                det.apply(hooks.rollout(det, rng))
                steps += 1
                depth += 1
        rewards = hooks.terminal(det) if det.is_terminal() else hooks.evaluate(det)
        if hooks.normalize:
            self._lo = min(self._lo, *rewards)
            self._hi = max(self._hi, *rewards)
        for nd in path[1:]:
            nd.n += 1
            nd.w += rewards[nd.mover]
        root.n += 1
