"""Zauberschmiede (roll-and-write, 1-8 players): rules in docs/games/zauberschmiede.md.

    import grimoire
    state = grimoire.new_game("zauberschmiede", players=1, seed=7)
"""

from __future__ import annotations

from ...core.registry import ArenaHooks, BrowserBoard, GameInfo, register
from . import arena, bounds, tensor
from .agents import GreedyAgent
from .codec import CODEC
from .hints import hints
from .planner import PlannerAgent
from .search import SEARCH
from .sheet import CONFIG, SHEET
from .state import ZauberschmiedeOptions, ZauberschmiedeState
from .topics import probe_texts, rules_topics

register(GameInfo(
    name="zauberschmiede",
    titles={"en": "Zauberschmiede", "de": "Zauberschmiede", "hu": "Zauberschmiede (Varázskovácsok)",
            "zh": "魔法鍛造坊"},
    package=__name__,
    new=ZauberschmiedeState.new,
    load=ZauberschmiedeState.load,
    player_counts=tuple(range(CONFIG["min_players"], CONFIG["max_players"] + 1)),
    default_players=1,
    options=ZauberschmiedeOptions,
    probe_texts=probe_texts,
    rules_topics=rules_topics,
    conformance_options={},
    codec=CODEC,                       # one id per text of data/actions.txt (append only)
    tensor=tensor.tensor_spec,
    summary=tensor.summary,
    max_game_length=bounds.max_game_length,     # derivation in bounds.py and the game's doc
    score_bounds=(0, CONFIG["solo_score_bound"]),
    agents={"greedy": GreedyAgent, "expert": PlannerAgent},     # expert: the solo round planner
    search=SEARCH,                     # the hard level: IS-MCTS with greedy-ranked candidates and playouts
    arena=ArenaHooks(stats=arena.stats, seat_stats=arena.seat_stats),
    renderer=f"{__name__}.render",
    hints=hints,
    static_data=lambda: {"sheet": SHEET.public_dict()},
    board=BrowserBoard(module="web/board.js", stylesheet="web/board.css"),
    i18n="i18n",
))

__all__ = ["SHEET", "ZauberschmiedeState"]
