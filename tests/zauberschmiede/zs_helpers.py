"""Helpers for the Zauberschmiede tests: games with injected rolls and direct sheet set-ups."""

from __future__ import annotations

import grimoire
from grimoire.games.zauberschmiede.player import Player
from grimoire.games.zauberschmiede.sheet import SHEET

ART = {a.id: a for a in SHEET.artifacts}
COLOUR = {c: i for i, c in enumerate(SHEET.colours)}


def game(players: int = 1, rolls=None, seed: int = 1, **opts):
    return grimoire.new_game("zauberschmiede", players=players, seed=seed, rolls=rolls, **opts)


def play(state, *texts: str) -> None:
    for t in texts:
        state.apply(t)


def texts(state) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def set_fields(p: Player, art_id: str, values) -> None:
    """Write values into an artifact's fields directly (set-up; None = empty)."""
    a = ART[art_id]
    for f, v in zip(a.fields, values, strict=True):
        p.fields[f] = v or 0
    p.nfill[a.index] = sum(1 for f in a.fields if p.fields[f])


def complete(p: Player, art_id: str, values=None, amplified: bool = False) -> None:
    """Make an artifact complete (charged with ``values``, default 6s, and paid)."""
    a = ART[art_id]
    set_fields(p, art_id, values if values is not None else [6] * len(a.fields))
    p.paid |= 1 << a.index
    if amplified:
        p.amped |= 1 << a.index


def mark(p: Player, colour: str, *values: int) -> None:
    k = len(SHEET.upgrade_values)
    for v in values:
        p.upg |= 1 << (COLOUR[colour] * k + SHEET.upgrade_values.index(v))


def end_all(state) -> None:
    """Every seat still deciding ends the round."""
    rnd = state.round
    while not state.is_terminal() and state.round == rnd:
        state.apply("end")
