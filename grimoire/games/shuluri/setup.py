"""A new game (spec 5): teams, the deal of trap cards and spell discs, then the setup decisions."""

from __future__ import annotations

from typing import Any

from ...core.decisions import DecisionStack
from ...core.options import validate_options
from ...core.rng import Rng
from . import board as B
from .data import DISC_POOL, DISCS_PER_HAND, GLADIATOR_TYPES, MAN, MODES, N_ROLES, N_TRAP_CARDS, TRAPS_PER_HAND
from .fig import new_fighter
from .flow import advance
from .options import ShuluriOptions
from .rules_flags import Flags
from .state import ShuluriState
from .team import new_team


def normalize_options(options: dict[str, Any], players: int) -> dict[str, Any]:
    return validate_options("shuluri", ShuluriOptions, players, options)


def new_state(players: int, seed: int, **options: Any) -> ShuluriState:
    opts = normalize_options(options, players)
    s = ShuluriState.__new__(ShuluriState)
    s.num_players = players
    s.seed = seed
    s.options = opts
    s.rng = Rng(seed)
    s._set_history([])
    init_state(s)
    deal(s)
    advance(s)
    return s


def init_state(s) -> None:
    players = s.num_players
    s.flags = Flags(s.options, players)
    if players == 2:
        s.mode = "duel"
        s.alliance = (0, 1)
        s.order = (0, 1)
    else:
        s.mode = s.options["mode"]
        m = MODES[s.mode]
        s.alliance = tuple(next(i for i, a in enumerate(m["alliances"]) if seat in a) for seat in range(players))
        s.order = tuple(m["step_order"])
    s.listed = None
    s.phase = "setup"
    s.sub = "start"
    s.round = 0
    s.sched = ()
    s.step_i = 0
    s.active = -1
    s.named = ()
    s.pool = 0
    s.gpool = 0
    s.stack = DecisionStack()
    s.teams = [new_team(seat, s.flags.gtypes[seat], MAN["strategist"]) for seat in range(players)]
    figs: list = [None] * (10 * players)
    for seat in range(players):
        for role in range(N_ROLES):
            cid = seat * 5 + role
            figs[cid] = new_fighter(cid, seat, role, GLADIATOR_TYPES[s.flags.gtypes[seat]])
    s.figs = figs
    s.gate_open = [B.GATES_START_OPEN] * B.N_GATES
    s.gate_jam = [0] * B.N_GATES
    s.areas = []
    s.area_seq = 0
    s.events = None
    s.n_events = 0
    s.winners_ = []
    s.end_reason = ""
    s.first = -1 if players == 2 else s.order[0]
    s.dice_i = 0
    s.reveals = 0
    s.secret = ()
    s.started = False
    s.deaths = []
    s.batch = False


def deal(s) -> None:
    """S5.1, S5.3 (20.6): three trap cards and six spell-level discs per player, secretly."""
    cards = list(range(1, N_TRAP_CARDS + 1))
    s.rng.shuffle(cards)
    for seat, t in enumerate(s.teams):
        hand = sorted(cards[seat * TRAPS_PER_HAND:(seat + 1) * TRAPS_PER_HAND])
        t.hand = [[c, -1] for c in hand]
    pool = [lv + 1 for lv, n in enumerate(DISC_POOL) for _ in range(n)]
    s.rng.shuffle(pool)
    for seat, t in enumerate(s.teams):
        t.discs = sorted(pool[seat * DISCS_PER_HAND:(seat + 1) * DISCS_PER_HAND])
    s.log("dealt")
