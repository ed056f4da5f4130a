"""The ``hard`` Zauberschmiede player: this game's knowledge for the generic IS-MCTS, declared as a
``SearchSpec`` in the descriptor (the agents package builds the search from it; games never import it).

- Candidates: the greedy agent's own choice, then the other actions ranked by how much they raise
  the greedy potential (the sheet's score now plus credit for open work), at most ``TOP_K`` of
  them, and ``end``. Actions that differ only in an equivalent die are one candidate.
- Playouts follow the greedy agent to the end of the current round; the position is then valued by
  the potential of every sheet. Within a round the six dice are known; the other seats' choices of
  the round are sampled by ``sample_hidden``, and so are the dice of later rounds when a search
  reaches them.
- Rewards: each seat's own potential, normalized by the search over the range it has seen. The
  sheets do not interact except through the dust-creator comparison, which the potential already
  counts against the other sheets; a margin over the others would only add the noise of their
  sampled choices (and a squashed margin goes flat when the sheets are far apart).
"""

from __future__ import annotations

from ...core.action import Action
from ...core.episode import derive_seed
from ...core.rng import Rng
from ...core.search import SearchHooks, SearchSpec
from ...core.state import GameState
from . import rules
from .actions import KIND_END, KIND_TRANSMUTE
from .agents import GreedyAgent, _Ctx, potential

TOP_K = 5              # candidate actions per decision besides the greedy one and ``end``
ITERATIONS = 150       # search budget per decision ...
TIME_LIMIT = 1.5       # ... or seconds, whichever comes first


class ZauberschmiedeHooks(SearchHooks):
    def __init__(self, seed: int = 0):
        self.greedy = GreedyAgent(seed)
        self.root_round = 0

    def begin(self, root: GameState, seat: int) -> None:
        self.root_round = root.round_number() or 0

    def candidates(self, state, seat: int, actions: list[Action], cache: dict) -> list[Action]:
        out = cache.get("c")
        if out is None:
            out = cache["c"] = self._rank(state, seat, actions)
        return out

    def _rank(self, state, seat: int, actions: list[Action]) -> list[Action]:
        if len(actions) <= 2:
            return actions
        first = self.greedy.decide(state, seat, actions)
        ctx = _Ctx(state, seat)
        p = state.players[seat]
        base = potential(ctx, p)
        scored: dict[float, Action] = {}
        for a in actions:
            if a is first or a.kind in (KIND_END, KIND_TRANSMUTE):
                continue
            q = p.copy()
            rules.do(state.var, q, a, state.round)
            gain = round(potential(ctx, q) - base, 6)
            if gain not in scored:           # the same gain: an equivalent die or field, keep one
                scored[gain] = a
        ranked = [first] + [scored[g] for g in sorted(scored, reverse=True)[:TOP_K]]
        end = next((a for a in actions if a.kind == KIND_END), None)
        if end is not None and end not in ranked:
            ranked.append(end)
        return ranked

    def rollout(self, state, rng: Rng) -> Action:
        cp = state.current_player
        return self.greedy.decide(state, cp, state.legal_actions())

    def cutoff(self, state, depth: int) -> bool:
        return state.round != self.root_round

    def evaluate(self, state) -> list[float]:
        pots = [potential(_Ctx(state, i), state.players[i]) for i in range(state.num_players)]
        return self._rewards(pots)

    def terminal(self, state) -> list[float]:
        return self._rewards([float(x) for x in state.scores()])

    def _rewards(self, values: list[float]) -> list[float]:
        return values                          # normalized by the search (SearchHooks.normalize)

    normalize = True


def hard_hooks(seed: int = 0) -> ZauberschmiedeHooks:
    """The hooks of the hard agent of ``seed`` (its greedy playouts draw from their own seed)."""
    return ZauberschmiedeHooks(derive_seed(seed, "playout"))


SEARCH = SearchSpec(hooks=hard_hooks, iterations=ITERATIONS, time_limit=TIME_LIMIT)
