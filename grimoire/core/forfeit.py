"""A game that ends because one seat forfeits (a slow game's move deadline ran out, with "the seat loses").

The engine's rules know no forfeit, so the result is made here for every game alike, from the descriptor's
teams: the forfeiting seat's team loses and ranks last; the other seats are ranked by their public scores
so far, and the best of them win."""

from __future__ import annotations

from collections.abc import Sequence

from .state import GameState


def forfeit_result(state: GameState, seat: int, teams: Sequence[Sequence[int]] | None = None
                   ) -> tuple[list[float], list[int]]:
    """(scores, winners) of ``state`` ended by ``seat``'s forfeit. ``teams``: the seats that win or lose
    together (``GameInfo.teams``); None: everyone for himself. The losers' scores are put below every
    other seat's, so that a ranking by (winner, score) puts them last."""
    scores = [float(x) for x in state.visible_scores(None)]
    n = len(scores)
    groups = [list(t) for t in teams] if teams else [[s] for s in range(n)]
    losers = next((t for t in groups if seat in t), [seat])
    others = [s for s in range(n) if s not in losers]
    if not others:
        return scores, []
    low = min(scores) - 1
    for s in losers:
        scores[s] = low
    best = max(scores[s] for s in others)
    # a team wins together: every seat of a team whose best seat has the best score
    return scores, sorted(s for t in groups if t is not losers and max(scores[x] for x in t) == best for s in t)
