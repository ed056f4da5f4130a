"""The ``expert`` level: the hard level's search in the native core, its leaves valued by a learned network.

The hard level (``search.py``) values the end of the deciding seat's turn with the heuristic's
one-player projection. The expert keeps the same shortcut, candidates and playouts, and values each
leaf with a network (``data/expert-<players>p.npz``, the format of ``grimoire/core/net.py``)
trained on self-play games of the medium level: the deciding seat's chance of winning, read from its
own observation tensor (so the search sees nothing the seat does not). ``weight`` blends it with the
heuristic's evaluation (1: the network alone). At 2 and 4 players, where one more sentinel sold ends the
game, it searches to the round's end — the game's — and searches every turn and bid (``HORIZON_AUTO``).
Everything runs inside the Rust core, with no Python per node; on the Python engine the position is
loaded into the core for the decision. Where no network is shipped for the table's player count (or the
core is not built) it plays as hard.
"""

from __future__ import annotations

import time
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ....core.action import Action
from ....core.agent import Agent
from ....core.errors import agent_budget_error, agent_value_error
from ....core.net import load as load_network
from .bid_watch import SAMPLES, STRIKES, BidWatch

DATA = Path(__file__).resolve().parent.parent / "data"
# the shipped networks: players -> file in data/ (a count without one plays as hard)
NETWORKS: dict[int, str] = {4: "expert-4p.npz", 2: "expert-2p.npz"}
TIME = 0.5          # seconds per searched decision (the typical budget; at most 2 s)
# the network's share of a leaf's value, the rest the hard level's evaluation: the network alone (1)
# won 4.2% of 48 4-player games against three medium and 30% of 60 2-player games, half of each 38.2%
# and 75.8% on the same games; hard alone (0) 46.9% and 62.5% (docs/ai.md, "The Zavandor expert level")
WEIGHT = 0.5
# which decisions the search takes ("bids": only bids, the rest as medium; "turns": the other way round)
SEARCHED = ("all", "bids", "turns")
# how the network's value enters the blend: as it is ("raw"), or moved onto the spread of the
# heuristic's rewards among the decision's leaves ("scaled"), so a network's scale does not set its share
BLENDS = ("raw", "scaled")
# where the search stops: the end of the deciding seat's turn, of the round, or of the round only where
# one more sentinel sold ends the game ("endgame": the round's end is then the game's) and of the turn
# before; "endgame_all" also searches, in that round, the turns and bids the shortcut would decide;
# "auto" (the default) is the measured choice per player count in HORIZON_AUTO, the turn elsewhere
HORIZONS = ("auto", "turn", "round", "endgame", "endgame_all")
# at 2 players endgame_all won +4.2 points [-1.1, +9.4] over the turn horizon on the development seed's
# 120 games (margin +1.45 VP [+0.62, +2.28]) and +6.7 [+2.7, +10.7] on the fresh seed 2210 (docs/ai.md,
# "fifth round"); at 4 players +9.0 [+3.1, +14.9] on the development seed's 72 games (margin +1.44 VP
# [+0.78, +2.10]), +9.0 [-0.3, +18.4] on the fresh seed 4501's 72 (margin +1.35 VP [+0.43, +2.26]; docs/ai.md,
# "The endgame horizon at 4 players"); 3 players not measured
HORIZON_AUTO: dict[int, str] = {2: "endgame_all", 4: "endgame_all"}
# the characters whose seat values its leaves as hard does (the network's share 0) when ``hard_leaf`` is "auto"
# (the default), per player count: at 4 players the kobold won +9.9 points [+5.3, +14.4] against three hard
# on its own 620 games of the fresh seed 4625 (margin +2.94 VP) and +10.7 [+2.5, +18.9] against three medium
# on 257 of 4626, after two screens had pointed to it (docs/ai.md, "The kobold with hard's leaf")
HARD_LEAF_AUTO: dict[int, frozenset[str]] = {4: frozenset({"kobold"})}
# the player counts where ``read_bids`` is on when it is "auto" (the default): at 4 players, on fresh seeds,
# +15.1 points [+11.2, +18.9] against three hard on 784 paired games of the fresh seed 4630 (38.8% against
# 23.7%) and -0.0 [-1.5, +1.4] against three medium on 644 of 4631 (docs/ai.md, "Reading the rivals' bids")
READ_BIDS_AUTO: frozenset[int] = frozenset({4})
READ_BIDS = ("auto", "true", "false")
EVERY_SEAT = (1 << 64) - 1      # the core's seat mask with ``enemy_bids``: every rival's bids branch


def read_network(path: Path) -> tuple[list[int], int, list[np.ndarray], dict[str, Any]]:
    """(dims, number of action ids, float32 arrays in file order, meta) of a network file, as the core's
    ``Net`` takes them; ValueError when it is not one or its weights do not match their recorded hash
    (a shipped network must carry one)."""
    net = load_network(path)
    if not net.meta.get("sha256"):
        raise ValueError(f"{path.name}: the weights have no recorded hash")
    dims = [net.obs_size] + [int(w.shape[1]) for w, _ in net.layers]
    return dims, net.num_actions, list(net.arrays().values()), net.meta


@cache
def shipped_net(players: int):
    """The core's network for ``players`` (a ``_native.Net``), or None (none shipped, or no core)."""
    from ..native import _native
    name = NETWORKS.get(players)
    if _native is None or name is None or not (DATA / name).exists():
        return None
    dims, num_actions, arrays, _meta = read_network(DATA / name)
    net = _native.Net(dims, num_actions, arrays)
    size = _native.tensor_size(players)
    if net.obs_size != size:
        raise ValueError(f"{name}: {net.obs_size} inputs, the {players}-player tensor has {size}")
    return net


class ExpertAgent(Agent):
    """The expert level (see the module text): ``time`` seconds per searched decision (0: no time
    limit, ``iterations`` then fixes the budget), ``c`` the search's exploration, ``weight`` the
    network's share of a leaf's value, ``blend`` how the network's value enters it (``BLENDS``),
    ``hard_leaf`` the characters (``elf/fairy``) whose seat values its leaves as hard does (share 0; ``auto``,
    the default: ``HARD_LEAF_AUTO`` at the table's player count; ``none``),
    ``enemy_bids`` the other seats' bids branch in the search (each seat its own best) instead of following
    the heuristic's price limit; ``read_bids`` only those of the rivals seen bidding unlike the heuristic
    (``bid_watch``; ``auto``, the default: at the player counts of ``READ_BIDS_AUTO``)."""

    name = "expert"

    def __init__(self, seed: int = 0, time: float = TIME, iterations: int = 0, c: float = 0.5,
                 weight: float = WEIGHT, top_k: int = 4, gap: float = 1.5, band: float = 0.15,
                 search: str = "all", horizon: str = "auto", blend: str = "raw", hard_leaf: str = "auto",
                 enemy_bids: bool = False, read_bids: str = "auto", watch_samples: int = SAMPLES,
                 watch_strikes: int = STRIKES):
        super().__init__(seed)
        from ..data import CHARACTERS
        from .search import ZavandorSearch
        self.hard_leaf_auto = hard_leaf == "auto"
        named = "" if hard_leaf in ("auto", "none") else hard_leaf
        self.hard_leaf = frozenset(c.strip() for c in named.split("/") if c.strip())
        if not self.hard_leaf <= set(CHARACTERS):
            raise agent_value_error("expert", "hard_leaf", hard_leaf, "auto, none, " + "/".join(CHARACTERS))
        if not 0.0 <= weight <= 1.0:
            raise agent_value_error("expert", "weight", weight, "0-1")
        if search not in SEARCHED:
            raise agent_value_error("expert", "search", search, ", ".join(SEARCHED))
        if horizon not in HORIZONS:
            raise agent_value_error("expert", "horizon", horizon, ", ".join(HORIZONS))
        if read_bids not in READ_BIDS:
            raise agent_value_error("expert", "read_bids", read_bids, ", ".join(READ_BIDS))
        if watch_samples < 1:
            raise agent_value_error("expert", "watch_samples", watch_samples, "1+")
        if watch_strikes < 1:
            raise agent_value_error("expert", "watch_strikes", watch_strikes, "1+")
        if blend not in BLENDS:
            raise agent_value_error("expert", "blend", blend, ", ".join(BLENDS))
        self.blend = blend
        self.enemy_bids = enemy_bids
        self.horizon = horizon
        self.hooks = ZavandorSearch(seed, top_k=top_k, clear_gap=gap, bid_band=band,
                                    horizon="round" if horizon == "round" else "turn")
        self.search = search
        self.time_limit = time or None
        self.iterations = iterations or None
        if self.time_limit is None and self.iterations is None:
            raise agent_budget_error("expert")
        self.c = c
        self.weight = weight
        self.cpu_clock = False
        self.last_stats: dict[str, Any] = {}
        self._leaf: tuple[int, float] | None = None        # (players, share) the core's search is set for
        self.read_bids = read_bids
        self.watch = (BidWatch(seed, self.hooks.params, watch_samples, watch_strikes)
                      if read_bids != "false" else None)
        self._medium: Agent | None = None

    def fast_on(self, engine: str) -> bool:
        return True             # it decides inside the core on either engine

    def iteration_cap(self, backend: str) -> int | None:
        return self.iterations

    def choose(self, state, seat: int) -> Action:
        from ..native import AVAILABLE, from_python, search_choose
        if not AVAILABLE:
            return self._fallback(state, seat)
        bid = bool(state.pending) and state.pending.top.kind == "bid"
        if self.search != "all" and bid != (self.search == "bids"):
            return self._heuristic(state, seat)
        native = state if state.backend == "native" else from_python(state)
        self._set_leaf(native, seat)
        mask = EVERY_SEAT if self.enemy_bids else 0
        if self.watch is not None and (self.read_bids == "true" or state.num_players in READ_BIDS_AUTO):
            self.watch.update(state, native, seat)
            mask |= self.watch.mask()
            self.watch.remember(state, native)
        self.hooks._native.enemy_seats = mask  # type: ignore[attr-defined]
        action = search_choose(self.hooks, self, native, seat)
        if native is not state:           # the same action, as the Python engine spells it
            return next(a for a in state.legal_actions() if a.text == action.text)
        return action

    def leaf_weight(self, state, seat: int) -> float:
        """The network's share of the leaves in ``seat``'s search (``state`` on the core): 0 where its
        character is in ``hard_leaf``."""
        from ..data import CHARACTERS
        named = HARD_LEAF_AUTO.get(state.num_players, frozenset()) if self.hard_leaf_auto else self.hard_leaf
        if named and CHARACTERS[state.characters[seat]] in named:
            return 0.0
        return self.weight

    def _set_leaf(self, state, seat: int) -> None:
        from ..native import _native
        n = state.num_players
        weight = self.leaf_weight(state, seat)
        if self._leaf == (n, weight):
            return
        nat = getattr(self.hooks, "_native", None)
        if nat is None:
            from ..native import _params_args
            h: Any = self.hooks          # (the core's twin lives on the hooks, as search_choose keeps it)
            nat = h._native = _native.Search(_params_args(h.params), h.top_k, float(h.scale), float(h.clear_gap),
                                             float(h.bid_band), h.h.rng.state, h.rng.state)
        nat.set_leaf(shipped_net(n), weight, self.blend == "scaled")
        horizon = HORIZON_AUTO.get(n, "turn") if self.horizon == "auto" else self.horizon
        nat.endgame_round = horizon.startswith("endgame")
        nat.endgame_search_all = horizon == "endgame_all"
        self._leaf = (n, weight)

    def _fallback(self, state, seat: int) -> Action:
        """No core: the heuristic decides (the search without the core is the hard level's business)."""
        return self._heuristic(state, seat)

    def _heuristic(self, state, seat: int) -> Action:
        if self._medium is None:
            from .heuristic import HeuristicAgent
            self._medium = HeuristicAgent(self.rng.below(2**31))
        t0 = time.perf_counter()
        a = self._medium.choose(state, seat)
        self.last_stats = {"iterations": 0, "seconds": time.perf_counter() - t0}
        return a
