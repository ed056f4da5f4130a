"""Which actions a seat may take back: one policy for every interface (the terminal, the browser).

A seat may take back its own last action while it still decides, and never across chance or hidden
information: the game's ``undo_barrier()`` (a draw, a reveal, a die roll) must be the same before and
after it. Another seat's move in between makes the action no longer the last one, so it cannot be
taken back either. A finished game is final.
"""

from __future__ import annotations

from collections.abc import Callable

from .registry import new_game
from .state import GameState

# why an undo is refused (the interfaces translate them: ``undo.refused.<code>``)
NOTHING = "nothing"          # no action yet, or the last one is another seat's
TURN_PASSED = "turn_passed"  # another seat decides since the action
CHANCE = "chance"            # the action drew, revealed or rolled
OVER = "over"                # the game is over


def refusal(before: GameState, after: GameState, seat: int) -> str | None:
    """None if ``seat`` may take back the one action that led from ``before`` to ``after``, else why not."""
    if after.is_terminal():
        return OVER
    if before.current_player != seat:
        return NOTHING
    if after.current_player != seat:
        return TURN_PASSED
    if after.undo_barrier() != before.undo_barrier():
        return CHANCE
    return None


def rebuild_without_last(state: GameState, start: Callable[[], GameState] | None = None) -> GameState:
    """The state before the last action, replayed from the seed (so exactly a game in which it was never
    played). ``start``: the game's first state as its owner builds it (default: from the state's record)."""
    actions = state.history
    if not actions:
        raise ValueError("no action to take back")
    before = start() if start is not None else new_game(state.game, state.num_players, state.seed,
                                                          **dict(state.options))
    for text in actions[:-1]:
        before.apply(text)
    return before


def last_action_refusal(state: GameState, seat: int, last_seat: int | None,
                        start: Callable[[], GameState] | None = None) -> tuple[str | None, GameState | None]:
    """Whether ``seat`` may take back the last action of ``state`` (played by ``last_seat``): (None, the
    state before it) or (why not, None). Replays the game, so it is for an explicit request."""
    if state.is_terminal():
        return OVER, None
    if last_seat != seat or not state.history:
        return NOTHING, None
    if state.current_player != seat:          # the actor decided before it: another seat decides now
        return TURN_PASSED, None
    before = rebuild_without_last(state, start)
    why = refusal(before, state, seat)
    return (why, None) if why else (None, before)
