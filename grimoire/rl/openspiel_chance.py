"""Explicit chance nodes for OpenSpiel (``chance="explicit"``) while the core keeps chance inside ``apply``.

A Grimoire game draws its dice and cards with ``state.rng.below(n)`` (``randint``, ``choice``, ``shuffle``
and ``pick_weighted`` go through it). To show a draw to OpenSpiel, the bridge applies an action on a
clone whose RNG is a ``ScriptedRng``: every draw of at most ``MAX_OUTCOMES`` outcomes takes the next
outcome of a list chosen at chance nodes, and when the list is used up the draw stops the action
(``NeedChance``): the OpenSpiel state becomes a chance node with ``n`` equally likely outcomes. When an
outcome is chosen the action is applied again, on a fresh clone, with one more outcome in the list,
until it completes. (Draws of more outcomes, and ``next64``/``random``, stay inside the RNG: hidden, as
before.)

The scripted RNG still advances the real one at every draw, so the state's RNG after an action is the
same whatever outcomes were chosen, and choosing at each chance node the outcome that the internal RNG
would have drawn (``NeedChance.natural``; ``GrimoireSpielState.natural_outcome()``) plays exactly the
game that ``grimoire.new_game`` with the same seed plays with the same actions.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.action import Action
from ..core.rng import Rng
from ..core.state import GameState

MAX_OUTCOMES = 64          # draws of up to this many outcomes become chance nodes


class NeedChance(Exception):
    """An action reached a draw with no chosen outcome: ``n`` outcomes; ``natural`` is the internal RNG's."""

    def __init__(self, n: int, natural: int):
        super().__init__(n, natural)
        self.n = n
        self.natural = natural


class ScriptedRng(Rng):
    __slots__ = ("forced", "used")

    def __init__(self, state: int, forced: Sequence[int]):
        super().__init__(0)
        self.state = state
        self.forced = forced
        self.used = 0

    def below(self, n: int) -> int:
        natural = Rng.below(self, n)
        if n > MAX_OUTCOMES:
            return natural
        if self.used < len(self.forced):
            k = self.forced[self.used]
            self.used += 1
            if not 0 <= k < n:
                raise ValueError(f"chance outcome {k} outside 0..{n - 1}")
            return k
        raise NeedChance(n, natural)

    def clone(self) -> Rng:
        return Rng.from_state(self.state)


def apply_with_outcomes(state: GameState, action: Action, forced: Sequence[int]) -> GameState | NeedChance:
    """``action`` applied to a clone of ``state`` with these outcomes for its draws: the new state, or
    the draw that still needs an outcome. ``state`` is left as it was; IllegalAction as ``apply``."""
    c = state.clone()
    script = ScriptedRng(c.rng.state, forced)
    c.rng = script
    try:
        c.apply(action)
    except NeedChance as e:
        return e
    if script.used != len(forced):
        raise ValueError(f"{len(forced)} outcomes for an action that drew {script.used}")
    c.rng = Rng.from_state(script.state)
    return c
