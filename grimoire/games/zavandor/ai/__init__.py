"""AI players for The Scepter of Zavandor, registered as the game's agents.

- ``heuristic`` / ``medium``: economy valued by a one-player projection, greedy turns with a short
  lookahead, item-by-item auction valuation (``heuristic.py``, ``evaluate.py``).
- ``easy``: the same with noise (Gumbel perturbations of its choices, random ones of its auction
  limits): a coherent player that wins about one game in five against medium at 2 players.
- ``hard``: IS-MCTS with this package's search hooks (``search.py``), declared as the game's
  ``SearchSpec``; ``grimoire.agents`` builds the agent from it.
- ``expert``: the hard level's search in the native core with its leaves valued by a network trained
  on self-play (``expert.py``; ``data/expert-<players>p.npz``); hard where no network is shipped.
- ``naive``: a fixed-priority player modelled on the other implementation's AI (a yardstick).

Also the arena hooks (declared as the game's ``ArenaHooks``): characters rotate per seat; per game
it records rounds, sentinels sold and the winner's score, per seat what a balance study compares.
"""

from __future__ import annotations

from ..data import ARTIFACTS, CHAR_TRACK, CHARACTERS, MAX_LEVEL, SENTINELS, TRACKS
from ..scoring import gem_vp
from .bid_watch import SAMPLES, STRIKES

EASY_NOISE = 0.25
EASY_BID_NOISE = 0.2


def heuristic_agent(seed: int = 0):
    from .heuristic import HeuristicAgent
    return HeuristicAgent(seed)


def medium_agent(seed: int = 0):
    a = heuristic_agent(seed)
    a.name = "medium"
    return a


def easy_agent(seed: int = 0, noise: float = EASY_NOISE, bid_noise: float = EASY_BID_NOISE):
    """The noisy level; ``noise`` and ``bid_noise`` are its parameters (``easy:noise=0.1``)."""
    from .heuristic import HeuristicAgent
    a = HeuristicAgent(seed, noise=noise, bid_noise=bid_noise)
    a.name = "easy"
    return a


def naive_agent(seed: int = 0):
    from .naive import NaiveAgent
    return NaiveAgent(seed)


def expert_agent(seed: int = 0, time: float = 0.5, iterations: int = 0, c: float = 0.5, weight: float = 0.5,
                 cpu: bool = False, top_k: int = 4, gap: float = 1.5, band: float = 0.15, search: str = "all",
                 horizon: str = "auto", blend: str = "raw", hard_leaf: str = "auto", enemy_bids: bool = False,
                 read_bids: str = "auto", watch_samples: int = SAMPLES, watch_strikes: int = STRIKES):
    """The learned level (``expert:time=1``; ``time=0,iterations=N`` for a fixed budget; ``cpu=true``
    counts the time in CPU seconds of the searching thread, for measurements on a busy machine; ``weight``
    the network's share of a leaf's value, ``expert.WEIGHT`` by default). The search's reach, as the hard
    level's: ``top_k`` turn candidates, ``gap`` (a turn action this far ahead is played unsearched),
    ``band`` (bids this share of the limit inside or outside it are not searched), ``horizon`` (turn, round,
    endgame: the round where one more sentinel sold ends the game, else the turn; endgame_all: that and
    everything searched in that round; auto, the default: endgame_all at 2 and 4 players, turn otherwise);
    ``search=bids`` or ``turns`` leaves the other decisions to medium (a diagnostic); ``blend=scaled`` moves
    the network's value onto the spread of the heuristic's rewards before blending (``expert.BLENDS``);
    ``hard_leaf=fairy/kobold``: a seat playing one of these characters values its leaves as hard does
    (``auto``, the default: the kobold at 4 players, ``expert.HARD_LEAF_AUTO``; ``none``);
    ``enemy_bids=true``: the other seats' bids branch in the search too (a research option);
    ``read_bids``: only those of the rivals seen bidding unlike the heuristic (``bid_watch``; ``auto``, the
    default: at 4 players, ``expert.READ_BIDS_AUTO``; ``true``, ``false``), with ``watch_samples`` determinizations
    per rival bid and ``watch_strikes`` unlike bids to flag a seat (``bid_watch.SAMPLES``, ``STRIKES``)."""
    from .expert import ExpertAgent
    a = ExpertAgent(seed, time=time, iterations=iterations, c=c, weight=weight, top_k=top_k, gap=gap, band=band,
                    search=search, horizon=horizon, blend=blend, hard_leaf=hard_leaf,
                    enemy_bids=enemy_bids, read_bids=read_bids, watch_samples=watch_samples,
                    watch_strikes=watch_strikes)
    a.cpu_clock = cpu
    return a


def agent_factories() -> dict:
    return {"easy": easy_agent, "medium": medium_agent, "heuristic": heuristic_agent, "naive": naive_agent,
            "expert": expert_agent}


def arena_stats(state) -> dict:
    """Pacing of one finished game: rounds, sentinels sold, the winner's score."""
    scores = state.scores()
    return {"rounds": state.round, "sentinels": state.sent_sold, "winner_score": max(scores) if scores else 0,
            "eliminated": sum(1 for p in state.players if p.out)}


def arena_roles(state) -> list[str]:
    return [CHARACTERS[p.char] for p in state.players]


def arena_seat_stats(state) -> list[dict]:
    """Per seat, what a balance study compares: VP, artifacts and sentinels won, knowledge, gems."""
    out = []
    for p in state.players:
        out.append({
            "vp": p.vp,
            "artifacts": sum(p.arts),
            "sentinels": len(p.sents),
            "knowledge_levels": sum(p.levels),
            "tracks": sum(1 for lv in p.levels if lv),
            "tracks_at_4": sum(1 for lv in p.levels if lv == MAX_LEVEL),
            "gems_active": sum(p.active),
            "gems_inactive": sum(p.inactive),
            "gems_vp": gem_vp(p),
            "energy": p.energy(),
            "eliminated": int(p.out),
            # per item, for the balance reports: artifacts owned, sentinels held, levels bought per track
            **{f"artifact_{a}": p.arts[i] for i, a in enumerate(ARTIFACTS)},
            **{f"sentinel_{x}": int(i in p.sents) for i, x in enumerate(SENTINELS)},
            **{f"track_{t}": p.levels[i] - (CHAR_TRACK[p.char] == i) for i, t in enumerate(TRACKS)},
        })
    return out
