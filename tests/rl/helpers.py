"""Shared by the RL adapter tests: the cases of the real games, quiet checkers, a masked random step."""

from __future__ import annotations

import numpy as np
import pytest

import grimoire
from grimoire.core.registry import game_info

# The checkers' general advice, which our deliberate choices trigger: a Dict observation with an
# action mask (as PettingZoo's classic games), float tensors without declared bounds.
QUIET_CHECKERS = [pytest.mark.filterwarnings(f"ignore:{m}") for m in (
    "Observation is not a NumPy array", "Observation space for each agent probably should be",
    ".*observation space (minimum|maximum) value is", ".*Not able to test alternative render modes",
    ".*No render fps was declared",
    "Action mask numpy array is all zeros")]

SHORT = {"max_rounds": 2}      # the default test run plays short games; full ones are marked slow


def real_game_cases(max_players: int = 4) -> list:
    """(game, players) for every real game and player count in 1..max_players; skipped with the
    reason when the game declares no codec or tensor (yet)."""
    out = []
    for g in grimoire.games():
        info = game_info(g)
        missing = [x for x, v in (("action codec", info.codec), ("observation tensor", info.tensor)) if v is None]
        for n in info.player_counts:
            if n > max_players:
                continue
            marks = [pytest.mark.skip(reason=f"{g} declares no {' and no '.join(missing)}")] if missing else []
            out.append(pytest.param(g, n, id=f"{g}-{n}p", marks=marks))
    return out


def masked_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    legal = np.flatnonzero(mask)
    assert legal.size, "no legal id in the mask"
    return int(rng.choice(legal))
