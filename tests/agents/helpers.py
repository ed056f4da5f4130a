"""Helpers for the agent tests: a state guard that lets an agent see only what the contract allows,
and positions collected from real games (turns, auctions, payments, gem losses)."""

from __future__ import annotations

import grimoire
from grimoire.agents import make_agent
from grimoire.core.rng import Rng

ALLOWED = frozenset({"legal_actions", "sample_hidden", "observation", "current_player", "num_players", "game",
                     "is_terminal",
                     "backend"})     # which engine runs the game (no game information): agents may run natively


class Guarded:
    """Wraps the real state: an agent may call legal_actions, sample_hidden, observation (and read
    current_player, num_players, game); touching anything else fails the test."""

    def __init__(self, state):
        object.__setattr__(self, "_state", state)

    def __getattr__(self, name):
        if name not in ALLOWED:
            raise AssertionError(f"the agent read state.{name}, which the contract does not give it")
        return getattr(object.__getattribute__(self, "_state"), name)

    def __setattr__(self, name, value):
        raise AssertionError(f"the agent wrote state.{name}")


def zavandor_positions(players: int, seed: int, every: int = 9, limit: int = 40, max_rounds: int = 10):
    """Decision points with more than one choice from a game of medium players, of every kind."""
    state = grimoire.new_game("zavandor", players, seed, max_rounds=max_rounds)
    agents = [make_agent("zavandor", "medium", seed * 10 + i) for i in range(players)]
    out = []
    kinds_seen = set()
    n = 0
    while not state.is_terminal() and len(out) < limit:
        cp = state.current_player
        acts = state.legal_actions()
        kind = state.pending.top.kind if state.pending else "turn"
        if len(acts) > 1 and (n % every == 0 or kind not in kinds_seen):
            kinds_seen.add(kind)
            out.append(state.clone())
        state.apply(agents[cp].choose(state, cp))
        n += 1
    return out


def differs_in_hidden(a, b) -> bool:
    """Whether two Zavandor states hold different hidden card values or decks."""
    return any(pa.cards != pb.cards or pa.under_cards != pb.under_cards for pa, pb in zip(a.players, b.players,
                                                                                         strict=True)) \
        or a.deck != b.deck or a.rng.state != b.rng.state


def other_determinization(state, seat: int, k: int):
    return state.sample_hidden(seat, Rng(1000 + k))
