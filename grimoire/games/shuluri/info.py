"""What the descriptor needs besides the rules: the game-length bound, the one-line summary, the
conformance probes and the arena's statistics."""

from __future__ import annotations

from typing import Any

from .actions import VOCABULARY
from .data import DISCS_PER_HAND, MAN, N_ROLES, ROUND_CAP


def max_game_length(players: int, options: dict[str, Any]) -> int:
    """A true bound on the number of actions (docs/games/shuluri.md explains the count).

    Per team and round the MAN that can be spent is at most M: two steps' pools, the strategist, the
    gladiator, Assassin's Madness (4 per step for each named victim and the gladiator) and 3 for each
    zombie that may exist. Every action costs MAN except: running moves (at most one free move per
    paid one), naming, ending, dropping a weapon (at most one more than pick-ups), and the answers to
    decisions, which follow attacks (a dodge and a push each), casts (at most three follow-ups),
    ranged traps (a shove) and each single move or gate of the acting side (one trap window per
    other seat).
    """
    rounds = options.get("max_rounds") or ROUND_CAP
    zombies = (N_ROLES - 1) * players
    m = (2 * MAN["step_pool"] + MAN["strategist"] + MAN["gladiator"]
         + MAN["madness_per_step"] * 5 + MAN["zombie_per_round"] * zombies)
    casts = DISCS_PER_HAND
    acting_per_step = 2 + zombies
    per_team = (2 * m * players          # moves (running doubles them) and a window for each other seat
                + 3 * m                  # every other MAN-costing action, a drop for each pick-up, shoves, orders
                + 3 * (4 + 2 * acting_per_step)  # per step: name, end, drop; a dodge and a push per attack
                + 8 * casts)             # spell follow-ups: choices, chain targets and their dodges
    setup = players * (5 + 1 + N_ROLES + 2)
    return setup + rounds * players * per_team


def summary(obs: dict[str, Any]) -> str:
    g = obs["shuluri"]
    parts = []
    st = g["step"]
    if st:
        parts.append(f"step {st['index']}/{st['of']} {st['kind']} seat {st['seat']}")
    else:
        parts.append(g["phase"])
    for t in g["teams"]:
        gl = next(f for f in g["figures"] if f["seat"] == t["seat"] and f["role"] == "gl" and not f["zombie"])
        alive = sum(1 for f in g["figures"] if f["seat"] == t["seat"] and f["alive"])
        parts.append(f"{t['letter']}: gl {gl['ep']}/{gl['max_ep']} figures {alive}")
    return "; ".join(parts)


def probe_texts(state) -> list[str]:
    """A rotating slice of the vocabulary (all of it is checked over a game) plus near misses."""
    n = len(VOCABULARY)
    start = (state._hist_len * 97) % n
    texts = [VOCABULARY[(start + i * 37) % n].text for i in range(40)]
    return texts + ["xb move north", "trap 99", "wl cast nothing", "gl wield spoon", "name gl", "deploy gl 0,0",
                    "side 9", "chain", "enemy", "order goto 0,0", "xb attack zagl", "xb shoot", "effect maybe"]


def arena_stats(state) -> dict[str, float]:
    dead = sum(1 for f in state.figs[:5 * state.num_players] if f is not None and not f.alive)
    zombies = sum(1 for f in state.figs[5 * state.num_players:] if f is not None)
    return {"rounds": float(state.round), "deaths": float(dead), "zombies": float(zombies),
            "decided": float(state.end_reason not in ("round limit", ""))}


def seat_stats(state) -> list[dict[str, float]]:
    out = []
    for t in state.teams:
        figs = state.figs[t.seat * 5:t.seat * 5 + 5]
        out.append({"gladiator_ep": float(max(figs[0].ep, 0)), "survivors": float(sum(f.alive for f in figs)),
                    "spells": float(len(t.cast)), "traps": float(len(t.played))})
    return out
