"""Shuluri Viadal, the gladiator arena (2 or 4 players). Rules: docs/games/shuluri.md.

    import grimoire
    state = grimoire.new_game("shuluri", players=2, seed=7)
"""

from __future__ import annotations

from ...core.registry import GameInfo, register
from .options import ShuluriOptions
from .serial import load
from .setup import new_state
from .state import ShuluriState

register(GameInfo(
    name="shuluri",
    titles={"en": "Shuluri Viadal", "hu": "Shuluri Viadal", "de": "Shuluri Viadal", "zh": "舒鲁里角斗"},
    package=__name__,
    new=new_state,
    load=load,
    player_counts=(2, 4),
    default_players=2,
    options=ShuluriOptions,
    round_cap=30,
    conformance_options={"max_rounds": 6},
))

__all__ = ["ShuluriState", "new_state"]
