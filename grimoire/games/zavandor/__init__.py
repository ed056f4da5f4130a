"""The Scepter of Zavandor (2nd edition), 2-6 players. Rules: docs/games/zavandor.md."""

from ...core.registry import ArenaHooks, Backend, BrowserBoard, GameInfo, register
from ...core.search import SearchSpec
from .actions import vocabulary
from .bounds import max_game_length
from .codec import CODEC, LEARNING
from .data import CHARACTERS, MAX_PLAYERS, MIN_PLAYERS
from .serial import load
from .setup import ZavandorOptions, new_state
from .state import ZavandorState
from .static import static_data
from .summary import summary
from .tensor import tensor_spec


def _probe_texts(state) -> list[str]:
    """The listed vocabulary, minus the openings that are legal but unlisted because the opener could
    not pay the minimum bid (typed, they are accepted: the opening bid then brings the curse, 7.5)."""
    texts = vocabulary()
    if state.over or state.pending:
        return texts
    from .auction import why_not_open
    from .data import ITEMS

    p = state.players[state.order[state.turn_idx]]
    typed_ok = {f"auction {ITEMS[i]}" for i in range(len(ITEMS)) if why_not_open(state, p, i) is None}
    return [t for t in texts if t not in typed_ok]


def _rules_topics() -> dict[str, str]:
    from .help import rules_topics
    return rules_topics()


def _hints(state, seat: int):
    from .hints import hints
    return hints(state, seat)


def _agents():
    from .ai import agent_factories
    return agent_factories()


def _search_hooks(seed: int):
    from .ai.search import search_hooks
    return search_hooks(seed)


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


def _arena():
    from .ai import arena_roles, arena_seat_stats, arena_stats
    return ArenaHooks(role_option="characters", roles=tuple(CHARACTERS), roles_of=arena_roles, stats=arena_stats,
                      seat_stats=arena_seat_stats)


register(GameInfo(
    name="zavandor",
    titles={"en": "The Scepter of Zavandor", "hu": "Zavandor jogara", "zh": "Zavandor權杖",
            "de": "Das Zepter von Zavandor"},
    package=__name__,
    new=new_state,
    load=load,
    player_counts=tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
    default_players=4,
    options=ZavandorOptions,
    # games stored before these options existed were played under the earlier readings
    legacy_options={"free_advance_new_track": True, "whole_dust_tokens": False, "turn_action_limit": 1_000_000},
    probe_texts=_probe_texts,
    rules_topics=_rules_topics,
    conformance_options={"max_rounds": 12},
    agents=_agents(),
    # the hard level: IS-MCTS with the hooks of ai/search.py (300 iterations or 2 s per decision; on
    # the native engine as many iterations as the 2 s allow — the same 300 when the budget is fixed)
    search=SearchSpec(hooks=_search_hooks, iterations=300, time_limit=2.0, c=0.5,
                      backend_iterations={"native": None}),
    arena=_arena(),
    static_data=static_data,
    hints=_hints,
    codec=CODEC,
    tensor=tensor_spec,
    summary=summary,
    max_game_length=max_game_length,
    round_cap=LEARNING["episodes"]["round_cap"],
    renderer=f"{__name__}.render",
    board=BrowserBoard(module="web/board.js", stylesheet="web/board.css"),
    i18n="i18n",
    backends={"native": Backend(new=_native_new, load=_native_load, available=_native_available,
                                build_id=_native_build)},
))

__all__ = ["ZavandorState", "new_state"]
