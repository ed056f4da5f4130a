"""Shuluri Viadal, the gladiator arena (2 or 4 players). Rules: docs/games/shuluri.md.

    import grimoire
    state = grimoire.new_game("shuluri", players=2, seed=7)
"""

from __future__ import annotations

from ...core.registry import ArenaHooks, Backend, BrowserBoard, GameInfo, register
from ...core.search import SearchSpec
from .codec import make_codec
from .info import ROUND_CAP, arena_stats, max_game_length, probe_texts, seat_stats, summary
from .options import ShuluriOptions
from .serial import load
from .setup import new_state
from .state import ShuluriState
from .static import static_data
from .tensor import spec as tensor_spec

SEARCH_ITERATIONS = 120
SEARCH_SECONDS = 1.5


def _rules_topics() -> dict[str, str]:
    from .topics import rules_topics
    return rules_topics()


def _agents():
    from .ai import agent_factories
    return agent_factories()


def _hints(state, seat: int):
    from .hints import hints
    return hints(state, seat)


def _search_hooks(seed: int):
    from .ai.search import search_hooks
    return search_hooks(seed)


def _reason(message: str):
    from .reasons import reason
    return reason(message)


def _arena_roles(state) -> list[str]:
    from .ai import arena_roles
    return arena_roles(state)


def _teams(players: int, options) -> list[list[int]]:
    from .data import MODES
    mode = options.get("mode", "ffa") if players == 4 else "ffa"
    if mode in MODES and players == 4:
        return [list(a) for a in MODES[mode]["alliances"]]
    return [[seat] for seat in range(players)]


def _native_new(players: int, seed: int, **options):
    from .native import new_native
    return new_native(players, seed, **options)


def _native_load(d: dict):
    from .native import load_native
    return load_native(d)


def _native_available() -> bool:
    from .native import AVAILABLE
    return AVAILABLE


def _native_build() -> str:
    from .native import build_id
    return build_id()


register(GameInfo(
    name="shuluri",
    titles={"en": "Shuluri Viadal", "hu": "Shuluri Viadal", "de": "Shuluri Viadal", "zh": "舒魯里角鬥場"},
    package=__name__,
    new=new_state,
    load=load,
    player_counts=(2, 4),
    default_players=2,
    options=ShuluriOptions,
    information="imperfect",
    chance="sampled",
    codec=make_codec(),
    tensor=tensor_spec,
    max_game_length=max_game_length,
    round_cap=ROUND_CAP,
    score_bounds=(0, 1),
    outcome="win",                      # scores are 1 for the winners, 0 otherwise (reviews show win chances)
    summary=summary,
    agents=_agents(),
    # the hard level: IS-MCTS with the hooks of ai/search.py (SEARCH_ITERATIONS or SEARCH_SECONDS per decision)
    search=SearchSpec(hooks=_search_hooks, iterations=SEARCH_ITERATIONS, time_limit=SEARCH_SECONDS, c=0.5),
    arena=ArenaHooks(roles_of=_arena_roles, stats=arena_stats, seat_stats=seat_stats),
    rules_topics=_rules_topics,
    renderer=f"{__name__}.render",
    hints=_hints,
    board=BrowserBoard(module="web/board.js", stylesheet="web/board.css"),
    i18n="i18n",
    static_data=static_data,
    chance_options=("dice",),           # preset d10 results: known to whoever sets them
    teams=_teams,                       # pair play: the alliances of modes.toml win and lose together
    probe_texts=probe_texts,
    reason=_reason,
    conformance_options={"max_rounds": 5},
    # the crate where it is built (backend="auto" chooses it): rules, legal ids, mask and tensor in
    # Rust, checked action for action against this package's engine (native.py)
    backends={"native": Backend(new=_native_new, load=_native_load, available=_native_available,
                                build_id=_native_build)},
))

__all__ = ["ShuluriState", "new_state"]
