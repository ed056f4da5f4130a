"""Game knowledge for the generic search (IS-MCTS in ``grimoire.agents.mcts``), declared by games.

A game never imports the agents package: it subclasses :class:`SearchHooks` here and declares a
:class:`SearchSpec` in its descriptor; the agents package builds the search agent (the ``hard``
level) from that spec.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .action import Action
from .rng import Rng
from .state import GameState


def terminal_rewards(state: GameState, margin_scale: float = 10.0, margin_weight: float = 0.2) -> list[float]:
    """Reward per seat at the end: a win (shared on ties) and, with a small weight, the margin to the
    best other seat (squashed into [0, 1])."""
    scores = state.scores()
    winners = state.winners()
    n = len(scores)
    share = 1.0 / len(winners) if winners else 0.0
    out = []
    for i in range(n):
        best_other = max((scores[j] for j in range(n) if j != i), default=scores[i])
        m = 0.5 + 0.5 * math.tanh((scores[i] - best_other) / margin_scale)
        out.append((1 - margin_weight) * (share if i in winners else 0.0) + margin_weight * m)
    return out


def score_rewards(state: GameState, baseline: list[int] | None = None, margin_scale: float = 10.0) -> list[float]:
    """Rewards from the current scores, as if the game ended now (for playouts cut short). Alone at
    the table, the reward is the score gained since ``baseline`` (squashed into [0, 1])."""
    scores = state.scores()
    n = len(scores)
    if n == 1:
        base = baseline[0] if baseline else 0
        return [0.5 + 0.5 * math.tanh((scores[0] - base) / margin_scale)]
    best = max(scores)
    leaders = [i for i in range(n) if scores[i] == best]
    out = []
    for i in range(n):
        best_other = max(scores[j] for j in range(n) if j != i)
        m = 0.5 + 0.5 * math.tanh((scores[i] - best_other) / margin_scale)
        out.append(0.5 * (1.0 / len(leaders) if i in leaders else 0.0) + 0.5 * m)
    return out


class SearchHooks:
    """Game knowledge for the search. Subclass and override what you need; the defaults are generic."""

    baseline: list[int] | None = None
    normalize = False      # True: rewards are raw values (e.g. a solo score), scaled by the range seen

    def shortcut(self, state: GameState, seat: int, actions: list[Action]) -> Action | None:
        """Decide without searching (a forced or clearly best move), or None to search. ``state`` is the
        real state: a hook may look only at what ``seat`` may see (its observation, or a determinization
        from ``state.sample_hidden(seat, rng)``)."""
        return None

    def begin(self, root: GameState, seat: int) -> None:
        """Called once at the start of each search with a determinization of the root (reset
        per-search caches here)."""
        self.baseline = root.scores()

    def candidates(self, state: GameState, seat: int, actions: list[Action], cache: dict) -> list[Action]:
        """The actions a node considers, most promising first. ``cache`` is private to the tree node
        (whatever is stored there is reused when the node is reached again)."""
        return actions

    def rollout(self, state: GameState, rng: Rng) -> Action:
        actions = state.legal_actions()
        return actions[rng.below(len(actions))]

    def cutoff(self, state: GameState, depth: int) -> bool:
        """Stop here and evaluate (depth = actions since the root)."""
        return False

    def evaluate(self, state: GameState) -> list[float]:
        """Rewards per seat in [0, 1] for a state where the playout stopped (not at the end)."""
        return score_rewards(state, self.baseline)

    def terminal(self, state: GameState) -> list[float]:
        """Rewards per seat at the end of the game."""
        if state.num_players == 1:
            return score_rewards(state, self.baseline)
        return terminal_rewards(state)


class PolicyHooks(SearchHooks):
    """Playouts that follow another agent (e.g. a game's heuristic) instead of random moves."""

    def __init__(self, policy):
        self.policy = policy

    def rollout(self, state: GameState, rng: Rng) -> Action:
        return self.policy.choose(state, state.current_player)


@dataclass(frozen=True)
class SearchSpec:
    """How the agents package builds a game's search agent (the ``hard`` level): the hooks (a factory
    of the seed) and the budget. Keyword arguments of ``grimoire.agents.mcts.ISMCTSAgent``. A game's
    own agent factory may return one too (a level that is another search, e.g. ``expert``); the
    agents package then builds it the same way.

    ``backend_iterations`` caps the iterations per engine (``state.backend``) instead of
    ``iterations`` while there is a time limit: a compiled engine may search as far as the same time
    allows (None: no cap). Without a time limit, ``iterations`` is the budget on every engine."""

    hooks: Callable[[int], SearchHooks]
    iterations: int | None = 200
    time_limit: float | None = 2.0
    backend_iterations: Mapping[str, int | None] = field(default_factory=dict)
    c: float = 0.7
    max_rollout_steps: int | None = None
    widening: tuple[float, float] | None = None
    cpu_clock: bool = False             # the time limit in CPU seconds of the searching thread
