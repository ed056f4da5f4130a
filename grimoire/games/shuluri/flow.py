"""The flow of the game: setup (5), rounds of steps (6), MAN pools (7), the end of a round (F6.7,
G14.4, spell 18) and of the game (19, 20.10).

``advance`` runs after every action: while nobody has to decide, it moves the game on (setup
phases, starting a step, the figures that act by themselves, ending steps and rounds). Where the
flow stands is ``s.sub``: in setup "start", "secret", "side", "weapon", "deploy"; in play "start"
(a step begins), "mad" (Assassin's Madness victims act first, spell 28), "act" (the player acts),
"zomb" (zombies act, then the step ends).
"""

from __future__ import annotations

from itertools import combinations

from ...core.decisions import Decision
from . import board as B
from .automata import madman_tick, zombie_tick, zombies_now
from .damage import hurt_sp
from .data import GL, MAN, MODES, NAMES_PER_STEP, SPELL_BY_KEY, ZOMBIE_MAN
from .fig import Fig
from .values import mad_enemy

FIRE_TICK = SPELL_BY_KEY["firestorm"].params["blast_sp"]


_KINDS: dict = {}


def _kinds() -> dict:
    """kinds.py imports this module: its handler table is bound on first use (no import per call)."""
    from .kinds import KINDS
    _KINDS.update(KINDS)
    return _KINDS


def advance(s) -> None:
    guard = 0
    while s.phase != "over":
        guard += 1
        if guard > 100_000:
            raise RuntimeError("the flow does not settle")
        top = s.stack.top
        if top is not None:
            if (_KINDS or _kinds())[top.kind].stale(s, top):
                s.stack.pop()
                continue
            return
        if s.phase == "setup":
            _setup_next(s)
        else:
            _play_next(s)


# --- setup (5) ------------------------------------------------------------------------------------------
def _setup_next(s) -> None:
    sub = s.sub
    if sub == "start":
        todo = []
        for seat in range(s.num_players):
            if s.flags.traps_assigned:
                todo.append(Decision("traps", seat))
            todo.append(Decision("amulets", seat))
            todo.append(Decision("resist", seat))
            if s.flags.vials:
                todo.append(Decision("vials", seat))
            if s.flags.potions:
                todo.append(Decision("potions", seat))
        s.stack.push_many(todo)
        s.sub = "secret"
    elif sub == "secret":
        if s.num_players == 2:
            _roll_for_side(s)
            s.sub = "side"
        else:
            _place_four(s)
            _push_weapons(s)
    elif sub == "side":
        _push_weapons(s)
    elif sub == "weapon":
        s.stack.push_many([Decision("deploy", seat) for seat in s.order])
        s.sub = "deploy"
    elif sub == "deploy":
        _start_play(s)


def _roll_for_side(s) -> None:
    """S5.5: both roll a d10, ties roll again; the higher roll chooses side or first step."""
    while True:
        r0, r1 = s.d10(), s.d10()
        s.log("side_roll", player=0, roll=r0, player2=1, roll2=r1)
        if r0 != r1:
            break
    s.teams[0].roll, s.teams[1].roll = r0, r1
    chooser = 0 if r0 > r1 else 1
    s.stack.push(Decision("side", chooser, 1))


def set_half(s, seat: int, half: int) -> None:
    """20.1.11: the chooser takes half k, the opponent half k+2; inner gates, heaps, tower follow."""
    other = 1 - seat
    for st, h in ((seat, half), (other, B.opposite_half(half))):
        t = s.teams[st]
        t.half = h
        t.quarters = B.half_quarters(h)
        t.inner_gates = tuple(B.GATE_BY_ID[f"I{q}"] for q in t.quarters)
        t.heaps = (B.HEAPS[h], B.HEAPS[(h + 1) % B.NQ]) if s.flags.heaps2 else (B.HEAPS[h],)


def _place_four(s) -> None:
    mode = MODES[s.mode]
    for seat, t in enumerate(s.teams):
        q = mode["quarter_of_seat"][seat]
        t.quarters = (q,)
        t.inner_gates = (B.GATE_BY_ID[f"I{q}"],)
        t.heaps = (B.HEAPS[q],)


def _push_weapons(s) -> None:
    s.stack.push_many([Decision("weapon", seat) for seat in range(s.num_players)])
    s.sub = "weapon"


def deploy_fields(s, seat: int, role: int) -> list[int]:
    t = s.teams[seat]
    out: list[int] = []
    for g in t.inner_gates:
        q = int(B.GATES[g].id[1:])
        out.extend(B.DEPLOY_C[q] if role == GL else B.DEPLOY_R1[q])
    return sorted(set(out))


def _start_play(s) -> None:
    s.phase = "play"
    s.round = 1
    n = s.num_players
    if n == 2:
        s.order = (s.first, 1 - s.first)
    s.sched = tuple([(seat, "pair1") for seat in s.order] + [(seat, "pair2") for seat in s.order]
                    + [(seat, "glad") for seat in s.order])
    s.step_i = 0
    s.sub = "start"
    s.started = True
    if s.flags.reveal_first_step:
        for t in s.teams:
            t.weapon_shown = True
        s.reveals += 1
    s.log("round", n=1)


# --- steps (6, 7) -------------------------------------------------------------------------------------------
def naming_options(s, seat: int, kind: str) -> list[tuple[int, ...]]:
    """F6.3, F6.4: two characters (all that remain if fewer), not yet named this round in the
    player's second step; with allow_single_naming also one."""
    elig = eligible(s, seat, kind)
    k = min(NAMES_PER_STEP, len(elig))
    if k == 0:
        return []
    opts = list(combinations(elig, k))
    if s.flags.single_naming and k > 1:
        opts += [(r,) for r in elig]
    return opts


def eligible(s, seat: int, kind: str) -> list[int]:
    out = []
    for role in range(5):
        f = s.figs[seat * 5 + role]
        if role != GL and f.alive and (kind == "pair1" or not f.named):
            out.append(role)
    return out


def _play_next(s) -> None:
    sub = s.sub
    if sub == "start":
        _begin_step(s)
    elif sub == "mad":
        if madman_tick(s):
            return
        if s.named:
            s.stack.push(Decision("act", s.active))
            s.sub = "act"
        else:
            s.sub = "zomb"
    elif sub == "act":
        s.sub = "zomb"
    elif sub == "zomb":
        if zombie_tick(s):
            return
        _end_step(s)


def _begin_step(s) -> None:
    if s.step_i >= len(s.sched):
        end_round(s)
        return
    seat, kind = s.sched[s.step_i]
    team = s.teams[seat]
    s.active = seat
    s.named = ()
    s.pool = 0
    s.gpool = 0
    for t in s.teams:
        t.react_off = False
    if team.out:
        s.step_i += 1
        return
    if kind == "glad":
        g = s.figs[seat * 5 + GL]
        s.named = (g.id,)
        s.gpool = MAN["gladiator"]
        start_acting(s, [g])
        s.sub = "mad"
        return
    opts = naming_options(s, seat, kind)
    if len(opts) > 1:
        s.stack.push(Decision("name", seat))
        s.sub = "name"
        return
    name(s, opts[0] if opts else ())


def name(s, roles: tuple[int, ...]) -> None:
    """F6.3: the named characters act; the step pool is min(6, 3 x named) (M7.6)."""
    seat = s.active
    figs = [s.figs[seat * 5 + r] for r in roles]
    for f in figs:
        f.named = True
    s.named = tuple(f.id for f in figs)
    s.pool = min(MAN["step_pool"], MAN["per_character"] * len(figs))
    if figs:
        s.log("names", player=seat, figs=[s.name(f.id) for f in figs], n=s.pool)
    start_acting(s, figs)
    zs = zombies_now(s)
    for z in zs:
        _start_figure(s, z)
    if not figs and not zs:
        s.step_i += 1
        s.sub = "start"
        return
    s.sub = "mad"


def start_acting(s, figs: list[Fig]) -> None:
    for f in figs:
        _start_figure(s, f)
        if f.debt:
            take = min(f.debt, s.gpool if f.is_gladiator else s.pool)
            if f.is_gladiator:
                s.gpool -= take
            else:
                s.pool -= take
            s.log("pays_debt", fig=s.name(f.id), n=take)
            f.debt = 0


def _start_figure(s, f: Fig) -> None:
    """A figure begins acting: per-step flags reset; 'next step' effects take hold (D7.4); sneaking
    and the Golden Bell end (20.4, W18.3)."""
    f.reset_step()
    f.sneak = 0
    if f.is_gladiator:
        f.bell = False
    f.cur_no_man = f.next_no_man or f.netted
    f.cur_limit = f.next_limit
    f.cur_double = f.next_double
    f.next_no_man = False
    f.next_limit = -1
    f.next_double = False
    f.netted = False
    if mad_enemy(s, f) >= 0:
        f.mad_man = MAN["madness_per_step"]


def _end_step(s) -> None:
    for cid in s.named:
        f = s.figs[cid]
        f.cur_no_man = False
        f.cur_limit = -1
        f.cur_double = False
        f.mad_man = 0
    for z in zombies_now(s):
        z.cur_no_man = False
        z.cur_limit = -1
        z.cur_double = False
    s.pool = 0
    s.gpool = 0
    s.step_i += 1
    s.sub = "start"


# --- end of the round (F6.7) -----------------------------------------------------------------------------------
def end_round(s) -> None:
    rnd = s.round
    # 1. Firestorm's blasts at the end of the two rounds after the casting round (spell 18, D7.6)
    storms = [a for a in s.areas if a.key == "firestorm" and a.start < rnd <= a.end]
    if storms:
        s.batch = True
        for a in storms:
            for f in [f for f in s.figs if f is not None and f.alive and f.field in a.fields]:
                s.log("firestorm_burns", fig=s.name(f.id))
                hurt_sp(s, f, FIRE_TICK, "spell")
        s.batch = False
        resolve_deaths(s)
        if s.phase == "over":
            return
    # 2. effects, areas and jammed gates whose last round this was expire (G14.4)
    for f in s.figs:
        if f is None:
            continue
        if f.effects:
            keep = tuple(e for e in f.effects if e.end > rnd)
            if len(keep) != len(f.effects):
                f.effects = keep
        f.coat = False
        f.named = False
    s.areas = [a for a in s.areas if a.end > rnd]
    if s.flags.max_rounds is not None and rnd >= s.flags.max_rounds:
        living = [t.seat for t in s.teams if not t.out]
        sides = {s.alliance[x] for x in living}
        finish(s, [x for x in range(s.num_players) if s.alliance[x] in sides], "round limit")
        return
    # 3. the next round
    s.round = rnd + 1
    for t in s.teams:
        t.strat = MAN["strategist"] if not t.out else 0
    n5 = 5 * s.num_players
    for z in s.figs[n5:]:
        if z is not None and z.alive:
            z.zman = ZOMBIE_MAN
            z.zfields = 0
    s.step_i = 0
    s.sub = "start"
    s.log("round", n=s.round)


# --- the end of the game (19, 20.10) -----------------------------------------------------------------------------
def resolve_deaths(s) -> None:
    """A gladiator died: his side loses (E19.1; simultaneous deaths of the last sides: a draw, E19.2).
    With four players a team whose gladiator died leaves the board (20.10)."""
    if not s.deaths or s.phase == "over":
        return
    died = s.deaths[:]
    s.deaths = []
    living_sides = {s.alliance[t.seat] for t in s.teams if not t.out}
    if not living_sides:
        sides = {s.alliance[x] for x in died}
        finish(s, [x for x in range(s.num_players) if s.alliance[x] in sides], "draw")
        return
    if len(living_sides) == 1:
        side = next(iter(living_sides))
        finish(s, [x for x in range(s.num_players) if s.alliance[x] == side], "gladiator killed")
        return
    for seat in died:
        _leave_board(s, seat)


def _leave_board(s, seat: int) -> None:
    for f in s.figs:
        if f is not None and f.seat == seat:
            f.alive = False
            f.field = -1
    t = s.teams[seat]
    t.lost.extend(c for c, _h in t.hand)       # its cards leave with it (and are shown)
    t.hand = []
    s.stack.items = [d for d in s.stack.items if d.seat != seat]
    s.log("leaves", player=seat)
    if s.active == seat and s.phase == "play":
        s.stack.items = []
        s.sub = "zomb"


def finish(s, winners: list[int], reason: str) -> None:
    s.phase = "over"
    s.winners_ = sorted(winners)
    s.end_reason = reason
    s.stack.clear()
    code = reason.replace(" ", "_")
    if len(winners) == s.num_players:
        s.log("over_draw", reason=code)
    else:
        s.log("over_won", reason=code, players=list(s.winners_))

