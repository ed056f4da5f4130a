"""One episode loop and one seed scheme for everything that plays games: the arena, bench, the
terminal, the web server's AI seats, simulations, the conformance suite and the scripts.

``derive_seed(seed, *keys)`` gives independent, reproducible seeds for the parts of a run (the game
of block 3, the agent of seat 2 in game 17, the AI decision at sequence 40): the same keys always
give the same seed, on every machine. ``run_episode`` plays a state to its end with one agent per
seat and reports what the callers measure.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .action import Action
from .errors import GrimoireError
from .rng import Rng
from .state import GameState

_GOLDEN = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1

MAX_ACTIONS = 20_000       # a game that runs longer is a bug somewhere (typical: under 1000)


def _key_int(k: int | str) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, str)):
        raise TypeError(f"seed keys are whole numbers or text, not {k!r}")
    if isinstance(k, str):
        return int.from_bytes(hashlib.sha256(k.encode()).digest()[:8], "little")
    return k


def derive_seed(seed: int, *keys: int | str) -> int:
    """A seed in [0, 2**31) derived from ``seed`` and the keys (ints or texts) by SplitMix64 mixing."""
    r = Rng(0)
    for x in (seed, *keys):
        r = Rng((r.next64() ^ (_key_int(x) * _GOLDEN)) & _MASK64)
    return r.next64() & 0x7FFFFFFF


class Chooser(Protocol):
    def choose(self, state: GameState, seat: int) -> Action: ...


@dataclass
class Episode:
    """What ``run_episode`` measured: the final state, the number of actions, and per seat the
    decisions taken, their total and longest time (seconds)."""

    state: GameState
    actions: int = 0
    decisions: list[int] = field(default_factory=list)
    think_seconds: list[float] = field(default_factory=list)
    max_decision_seconds: list[float] = field(default_factory=list)
    seconds: float = 0.0


def run_episode(state: GameState, agents: Sequence[Chooser], *, max_actions: int = MAX_ACTIONS,
                on_step: Callable[[GameState, int, Action], None] | None = None,
                stop: Callable[[GameState], bool] | None = None, timed: bool = True) -> Episode:
    """Play ``state`` (in place) until it ends, ``stop(state)`` is true, or ``max_actions`` (an error).

    ``agents[seat].choose(state, seat)`` picks each move; ``on_step(state, seat, action)`` is called
    before the action is applied (for logs and samples)."""
    n = state.num_players
    if len(agents) != n:
        raise GrimoireError(f"{len(agents)} agents for {n} seats")
    ep = Episode(state, 0, [0] * n, [0.0] * n, [0.0] * n)
    clock = time.perf_counter
    t_start = clock()
    decisions, think, longest = ep.decisions, ep.think_seconds, ep.max_decision_seconds
    choosers = [a.choose for a in agents]
    n_actions = 0                   # (a local: random self-play spends a good part of its time here)
    while not state.is_terminal():
        if stop is not None and stop(state):
            break
        seat = state.current_player
        assert seat is not None
        if timed:
            t0 = clock()
            action = choosers[seat](state, seat)
            dt = clock() - t0
            think[seat] += dt
            if dt > longest[seat]:
                longest[seat] = dt
        else:
            action = choosers[seat](state, seat)
        decisions[seat] += 1
        if on_step is not None:
            on_step(state, seat, action)
        state.apply(action)
        n_actions += 1
        if n_actions >= max_actions:
            raise GrimoireError(f"{state.game} (seed {state.seed}) did not end after {max_actions} actions")
    ep.actions = n_actions
    ep.seconds = clock() - t_start
    return ep


def episode_result(ep: Episode) -> dict[str, Any]:
    """Scores, winners and each seat's share of the win (ties share), JSON-safe."""
    s = ep.state
    winners = s.winners()
    share = 1.0 / len(winners) if winners else 0.0
    return {"scores": s.scores(), "winners": winners,
            "win_share": [share if i in winners else 0.0 for i in range(s.num_players)],
            "actions": ep.actions}
