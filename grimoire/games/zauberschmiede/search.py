"""The ``hard`` Zauberschmiede player: this game's knowledge for the generic IS-MCTS, declared as a
``SearchSpec`` in the descriptor (the agents package builds the search from it; games never import it).

- Candidates: the greedy agent's own choice, then the other actions ranked by how much they raise
  the greedy potential (the sheet's score now plus credit for open work), at most ``TOP_K`` of
  them, and ``end``. Actions that differ only in an equivalent die are one candidate.
- Playouts follow the greedy agent to the end of the current round; the position is then valued by
  the potential of every sheet. Within a round the six dice are known; the other seats' choices of
  the round are sampled by ``sample_hidden``, and so are the dice of later rounds when a search
  reaches them.
- The greedy choices of the playouts are memoized by everything ``GreedyAgent.decide`` reads (the
  round, the seat, the dust-creator metrics of the sheets as the seat sees them, its own sheet and
  the legal actions): the same choices, computed once. At a table most playout steps are the other
  seats' rounds, which are the same in every iteration (their round-start sheets and the shared dice
  are known, and they see the others' round-start sheets), so without the memo four seats cost
  about ten times one seat's search.
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
from .scoring import dust_metric

TOP_K = 5              # candidate actions per decision besides the greedy one and ``end``
ITERATIONS = 150       # search budget per decision ...
TIME_LIMIT = 1.5       # ... or seconds, whichever comes first
MEMO_SIZE = 50_000     # greedy choices remembered (then forgotten all at once; they are only a cache)


class ZauberschmiedeHooks(SearchHooks):
    def __init__(self, seed: int = 0):
        self.greedy = GreedyAgent(seed)
        self.root_round = 0
        self._memo: dict[tuple, int] = {}
        self._memo_var: object = None

    def begin(self, root: GameState, seat: int) -> None:
        rnd = root.round_number() or 0
        if rnd != self.root_round:
            self._memo.clear()             # the round is in every key: the old ones never hit again
        self.root_round = rnd

    def candidates(self, state, seat: int, actions: list[Action], cache: dict) -> list[Action]:
        out = cache.get("c")
        if out is None:
            out = cache["c"] = self._rank(state, seat, actions)
        return out

    def _rank(self, state, seat: int, actions: list[Action]) -> list[Action]:
        if len(actions) <= 2:
            return actions
        first = self._greedy(state, seat, actions)
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
        return self._greedy(state, cp, state.legal_actions())

    def _greedy(self, state, seat: int, actions: list[Action]) -> Action:
        """``self.greedy.decide(state, seat, actions)``, memoized (it draws nothing from its RNG)."""
        var = state.var
        if var is not self._memo_var or len(self._memo) >= MEMO_SIZE:
            self._memo.clear()
            self._memo_var = var
        p = state.players[seat]
        key = (state.round, seat, tuple(dust_metric(var, state.visible_player(i, seat))
                                        for i in range(state.num_players)),
               tuple(p.fields), tuple(p.nfill), tuple(p.boxes), tuple(p.stock), tuple(p.vals), tuple(p.used), p.paid,
               p.amped, p.fresh, p.spent, p.amp_level, p.amp_paid, p.upg, p.trans_left, p.tmask, p.done,
               tuple(a.text for a in actions))
        i = self._memo.get(key)
        if i is None:
            choice = self.greedy.decide(state, seat, actions)
            i = self._memo[key] = next(j for j, a in enumerate(actions) if a is choice)
        return actions[i]

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
