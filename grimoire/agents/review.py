"""The post-game review: the hard AI looks at every decision of one seat and says what it would
have played and how many points the played move gave away; plus every seat's projected score over
the game. Game-agnostic: it uses only the contract (records, ``sample_hidden``, scores) and the
agents by name (``make_agent(game, "hard")`` — built from the game's ``SearchSpec`` —, and the
``medium`` level for playouts).

How a decision is valued. At a decision of the reviewed seat (one with more than one legal action),
the hard agent searches the position as that seat saw it (its determinizations come from
``sample_hidden(seat)``, so it never sees what the seat could not). When it prefers another move,
both moves are played out ``playouts`` times from the same determinizations of the position (again
from the seat's view: hidden cards and future dice resampled), every seat then following the
``medium`` agent with the same seeds for both moves (common random numbers), for at most
``max_steps`` actions or to the end. The seat's mean score after them is the move's *projected
score*; the difference is the *loss* (their total is bounded by what was at stake: ``bounded_total_loss``).
In a won-or-lost game (the descriptor's ``outcome="win"``) the score is 1 for a win and 0 otherwise, and a
playout that stops before the end is valued by the game's search evaluation: the projection is a win
chance. The projected scores of every seat after the played move, at evenly spaced decisions and at every
disagreement, make the chart.

Used by ``grimoire review RECORD`` and the web app's ``/review/{id}``; never during a rated game
(the interfaces check that the game is over). ``hint`` is the hard agent's advice for one decision,
for practice games.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..core.episode import derive_seed
from ..core.errors import GameConfigError
from ..core.record import replay
from ..core.registry import game_info
from ..core.rng import Rng
from ..core.state import GameState
from . import make_agent


@dataclass(frozen=True)
class ReviewSettings:
    """The budget of a review: seconds of hard search per decision (None: the game's own budget),
    playouts per compared move, the length of a playout and the number of chart points."""

    think: float | None = 1.0
    iterations: int | None = None
    playouts: int = 6
    max_steps: int = 150
    chart_points: int = 40
    seed: int = 0


@dataclass
class Decision:
    index: int                      # position of the action in the record (0-based)
    round: int | None
    played: str
    best: str
    legal: int                      # how many legal actions there were
    loss: float = 0.0               # projected points the played move gave away (>= 0 means worse)
    played_score: float | None = None
    best_score: float | None = None
    projected: list[float] | None = None     # every seat's projected score after the played move
    candidates: list[dict[str, Any]] = field(default_factory=list)   # the search's top moves

    @property
    def agree(self) -> bool:
        return self.played == self.best


def _hard_agent(game: str, seed: int, settings: ReviewSettings):
    agent = make_agent(game, "hard", seed)
    # a review looks at every decision: a smaller budget than a game move, if asked for
    if settings.think is not None and hasattr(agent, "time_limit"):
        agent.time_limit = settings.think if agent.time_limit is None else min(agent.time_limit, settings.think)
    if settings.iterations is not None and hasattr(agent, "iterations"):
        agent.iterations = settings.iterations
    return agent


def _candidates(agent, limit: int = 5) -> list[dict[str, Any]]:
    """The search's most visited root moves with their share of the visits."""
    children = (getattr(agent, "last_stats", None) or {}).get("children") or {}
    total = sum(n for n, _v in children.values()) or 1
    ranked = sorted(children.items(), key=lambda kv: (-kv[1][0], kv[0]))[:limit]
    return [{"action": text, "share": n / total} for text, (n, _v) in ranked]


def hint(state: GameState, seat: int, settings: ReviewSettings | None = None) -> dict[str, Any]:
    """The hard agent's choice for ``seat``'s decision now, and its runners-up (for practice games).
    The agent sees only what the seat may know (determinizations from ``sample_hidden``)."""
    settings = settings or ReviewSettings()
    if state.is_terminal() or state.current_player != seat:
        raise GameConfigError("a hint is only for the seat that decides now", key="term.err.review.hint")
    agent = _hard_agent(state.game, derive_seed(settings.seed, "hint", len(state.history)), settings)
    best = str(agent.choose(state.clone(), seat))
    cands = _candidates(agent) or [{"action": best, "share": 1.0}]
    return {"action": best, "candidates": cands}


def _playout_scores(state: GameState, seat: int, action: str, k: int, seed: int,
                    settings: ReviewSettings) -> list[float]:
    """Every seat's score after ``action`` and a playout by the medium agents from the ``k``-th
    determinization of ``state`` as ``seat`` sees it."""
    det = state.sample_hidden(seat, Rng(derive_seed(seed, "det", k)))
    det.apply(action)
    agents = [make_agent(det.game, "medium", derive_seed(seed, "policy", k, i)) for i in range(det.num_players)]
    steps = 0
    while not det.is_terminal() and steps < settings.max_steps:
        cp = det.current_player
        assert cp is not None        # a state that goes on has a seat to move
        det.apply(agents[cp].choose(det, cp))
        steps += 1
    if not det.is_terminal() and game_info(det.game).outcome == "win":
        # a won-or-lost game scores 0 for everyone until it ends: a playout stopped early is valued by the
        # game's own search evaluation (win chances in [0, 1]), not as a loss for every seat
        chances = _win_chances(det, seat, derive_seed(seed, "evaluate", k))
        if chances is not None:
            return chances
    return [float(x) for x in det.scores()]


def _win_chances(state: GameState, seat: int, seed: int) -> list[float] | None:
    """Every seat's chance to win from a position, by the evaluation of the game's search hooks (None
    without a search spec)."""
    spec = game_info(state.game).search
    if spec is None:
        return None
    hooks = spec.hooks(seed)
    hooks.begin(state, seat)
    return [min(1.0, max(0.0, float(x))) for x in hooks.evaluate(state)]


def _project(state: GameState, seat: int, action: str, seed: int, settings: ReviewSettings) -> list[float]:
    runs = [_playout_scores(state, seat, action, k, seed, settings) for k in range(settings.playouts)]
    return [sum(r[i] for r in runs) / len(runs) for i in range(state.num_players)]


def decision_points(record: dict[str, Any], seat: int) -> list[int]:
    """Indexes of the record's actions that were decisions of ``seat`` with a choice."""
    return [i for i, _state, _text in _points(record, seat)]


def _points(record: dict[str, Any], seat: int):
    """(index, state before the action, action text) of every decision of ``seat`` with a choice; the
    state is shared and moves on: copy it to keep it."""
    state = replay(record, upto=0)
    for i, text in enumerate(record["actions"]):
        if state.current_player == seat and len(state.legal_actions()) > 1:
            yield i, state, text
        state.apply(text)


def chart_indexes(points: list[int], settings: ReviewSettings) -> set[int]:
    """The decisions whose projected scores make the chart: evenly spaced, the last included."""
    every = max(1, len(points) // max(1, settings.chart_points))
    return set(points[::every]) | ({points[-1]} if points else set())


def judge(state: GameState, seat: int, index: int, played: str, settings: ReviewSettings,
          chart: bool) -> Decision:
    """One decision: the hard agent's move, and (when it differs, or for the chart) projected scores."""
    seed = derive_seed(settings.seed, "review", seat, index)
    agent = _hard_agent(state.game, seed, settings)
    best = str(agent.choose(state.clone(), seat))
    d = Decision(index, state.round_number(), played, best, len(state.legal_actions()), candidates=_candidates(agent))
    if not d.agree or chart:
        d.projected = _project(state, seat, played, seed, settings)
        d.played_score = played_score = d.projected[seat]
        if not d.agree:
            d.best_score = best_score = _project(state, seat, best, seed, settings)[seat]
            d.loss = best_score - played_score
    return d


def check_reviewable(record: dict[str, Any], seat: Any) -> GameState:
    """The final state of a finished game whose ``seat`` exists (GameConfigError otherwise)."""
    final = replay(record)
    if not final.is_terminal():
        raise GameConfigError("a game is reviewed once it is over", key="term.err.review.not_over")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < final.num_players:
        raise GameConfigError(f"seat must be 0-{final.num_players - 1}")
    return final


def summarize(final: GameState, seat: int, decisions: list[Decision], settings: ReviewSettings,
              total: int | None = None, seconds: float = 0.0) -> dict[str, Any]:
    """The review as JSON: every decision in order, the disagreements biggest loss first, the chart
    (the final scores as its last point) and the totals. ``total``: decisions to review in all (a
    review in progress has fewer ``decisions``)."""
    mistakes = sorted((d for d in decisions if not d.agree), key=lambda d: (-d.loss, d.index))
    chart = [{"index": d.index, "round": d.round, "scores": [round(x, 2) for x in d.projected]}
             for d in decisions if d.projected]
    if total is None or len(decisions) == total:
        chart.append({"index": len(final.history), "round": final.round_number(),
                      "scores": [float(x) for x in final.scores()], "final": True})
    return {
        "game": final.game, "seat": seat, "players": final.num_players,
        # "points", or "win": the scores are 1/0 and projected scores are win chances
        "measure": game_info(final.game).outcome,
        "scores": final.scores(), "winners": final.winners(), "actions": len(final.history),
        "done": len(decisions), "total": len(decisions) if total is None else total,
        "decisions": [_dict(d) for d in decisions],
        "mistakes": [_dict(d) for d in mistakes],
        "agreement": round(sum(d.agree for d in decisions) / len(decisions), 4) if decisions else 1.0,
        "total_loss": round(bounded_total_loss(mistakes, final.scores()[seat]), 2),
        "chart": chart,
        "settings": asdict(settings), "seconds": round(seconds, 2),
    }


def bounded_total_loss(mistakes: list[Decision], final_score: float) -> float:
    """The points the seat gave away over the game, in the game's points. Each loss is a noisy estimate
    from a few playouts of the whole rest of the game, so their plain sum grows with every decision (a
    120-point game could "give away" 420); the total is capped by what was at stake: how far the best
    score the AI ever projected for the seat lies above the score it ended with — and it is never less
    than the biggest single loss."""
    losses = [max(0.0, d.loss) for d in mistakes]
    if not losses:
        return 0.0
    best = max((d.best_score for d in mistakes if d.best_score is not None), default=final_score)
    stake = max(best - final_score, max(losses))
    return min(sum(losses), stake)


def review(record: dict[str, Any], seat: int, settings: ReviewSettings | None = None,
           progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Review ``seat``'s decisions in a finished game (its record). ``progress(done, total)`` is
    called after each decision. Returns a JSON-safe dict (``summarize``)."""
    settings = settings or ReviewSettings()
    game_info(record.get("game"))  # type: ignore[arg-type]
    final = check_reviewable(record, seat)
    points = decision_points(record, seat)
    chart = chart_indexes(points, settings)
    t0 = time.perf_counter()
    decisions: list[Decision] = []
    for i, state, text in _points(record, seat):
        decisions.append(judge(state, seat, i, text, settings, i in chart))
        if progress:
            progress(len(decisions), len(points))
    return summarize(final, seat, decisions, settings, seconds=time.perf_counter() - t0)


def _dict(d: Decision) -> dict[str, Any]:
    out = asdict(d)
    out["agree"] = d.agree
    out["seq"] = d.index + 1
    for k in ("loss", "played_score", "best_score"):
        if out[k] is not None:
            out[k] = round(out[k], 2)
    if out["projected"] is not None:
        out["projected"] = [round(x, 2) for x in out["projected"]]
    return out
