"""Zauberschmiede (roll-and-write, 1-8 players): rules in docs/games/zauberschmiede.md.

    import grimoire
    state = grimoire.new_game("zauberschmiede", players=1, seed=7)
"""

from __future__ import annotations

from ...core.codec import ActionCodec, load_action_table
from ...core.registry import GameInfo, register
from .actions import parse
from .hints import hints
from .sheet import CONFIG, DATA_DIR, SHEET
from .state import ZauberschmiedeOptions, ZauberschmiedeState
from .topics import probe_texts, rules_topics


def _greedy(seed: int = 0):
    from .agents import GreedyAgent

    return GreedyAgent(seed)


def _hard(seed: int = 0):
    from .search import hard_agent

    return hard_agent(seed)


register(GameInfo(
    name="zauberschmiede",
    titles={"en": "Zauberschmiede", "de": "Zauberschmiede", "hu": "Zauberschmiede", "zh": "Zauberschmiede"},
    package=__name__,
    new=ZauberschmiedeState.new,
    load=ZauberschmiedeState.load,
    player_counts=tuple(range(CONFIG["min_players"], CONFIG["max_players"] + 1)),
    default_players=1,
    options=ZauberschmiedeOptions,
    probe_texts=probe_texts,
    rules_topics=rules_topics,
    conformance_options={},
    # integer ids: one per text of data/actions.txt (append only), decoded without a state by the parser
    codec=ActionCodec(load_action_table(DATA_DIR / "actions.txt"), parse=parse),
    agents={"greedy": _greedy, "hard": _hard},
    renderer=f"{__name__}.render",
    hints=hints,
    static_data=lambda: {"sheet": SHEET.public_dict()},
))

__all__ = ["SHEET", "ZauberschmiedeState"]
