"""The fast paths against plain reference code, move for move: the legal-action generator (acttab.py
tables, pre-filters) against the plain generator that formats every candidate's text and runs the full
check, over many random games with two and four players and with the optional rules."""

from __future__ import annotations

import numpy as np
import pytest

import grimoire
from grimoire.core.action import Action
from grimoire.core.errors import IllegalAction
from grimoire.core.rng import Rng
from grimoire.games.shuluri import actions as A
from grimoire.games.shuluri import acttab
from grimoire.games.shuluri import board as B
from grimoire.games.shuluri.combat import melee_reason, shot_reason, throw_reason
from grimoire.games.shuluri.data import GL, HEAP_SETS, ROLES, SPELLS, WL
from grimoire.games.shuluri.kinds import act_reason
from grimoire.games.shuluri.legal import act_actions
from grimoire.games.shuluri.magic import cast_cost, cast_reason, may_cast_now
from grimoire.games.shuluri.movement import player_controls
from grimoire.games.shuluri.traps import is_ranged, ranged_reason, trap_actor
from grimoire.games.shuluri.values import available

_VERBS = ("hide", "run", "aim", "coat", "drink")
_GL_VERBS = ("drop", "pickup", "stand", "bell")


# --- the plain generator (as it was before the fast path) ---------------------------------------------
def _get(text: str) -> Action:
    return A.TABLE.lookup(text)  # type: ignore[return-value]


def plain_act_actions(s, seat: int) -> list[Action]:
    out: list[Action] = []
    add = out.append
    figs = s.figs
    counts: dict[int, int] = {}
    for g in figs:
        if g is not None and g.alive and g.field >= 0:
            counts[g.field] = counts.get(g.field, 0) + 1
    for cid in sorted(s.named):
        f = figs[cid]
        if not player_controls(s, f):
            continue
        rc = ROLES[f.role]
        have = available(s, f)
        for d in range(6):          # every step's full check (movement.move_reason through act_reason)
            for mode in ("disengage", "move", "sneak"):
                a = _get(f"{rc} {mode} {B.DIRS[d]}")
                if act_reason(s, seat, a) is None:
                    add(a)
        for verb in _VERBS:
            a = _get(f"{rc} {verb}")
            if act_reason(s, seat, a) is None:
                add(a)
        if have >= 2:
            for g in figs:
                if g is None or not g.alive or g.field < 0 or g.id == f.id:
                    continue
                gn = s.name(g.id)
                if g.field == f.field or (f.is_gladiator and B.distance(f.field, g.field) == 1):
                    if melee_reason(s, f, g) is None:
                        add(_get(f"{rc} attack {gn}"))
                        if f.is_gladiator and g.is_gladiator:
                            for skill in ("break", "takedown"):
                                if melee_reason(s, f, g, skill) is None:
                                    add(_get(f"gl attack {gn} {skill}"))
                if f.ammo > 0 and g.field != f.field and shot_reason(s, f, g) is None:
                    add(_get(f"{rc} shoot {gn}"))
                if f.is_gladiator and B.IN_C[g.field] and g.field != f.field:
                    for what in ("javelin", "net"):
                        if throw_reason(s, f, g, what) is None:
                            add(_get(f"gl {what} {gn}"))
        for g in B.GATES_OF_FIELD[f.field]:
            gid = B.GATES[g].id
            for verb in ("open", "close"):
                a = _get(f"{rc} {verb} {gid}")
                if act_reason(s, seat, a) is None:
                    add(a)
        if f.role == GL:
            for verb in _GL_VERBS:
                a = _get(f"gl {verb}")
                if act_reason(s, seat, a) is None:
                    add(a)
            if f.field in s.teams[seat].heaps:
                for key in HEAP_SETS:
                    a = _get(f"gl wield {key}")
                    if act_reason(s, seat, a) is None:
                        add(a)
        if f.role == WL:
            _plain_warlock(s, seat, f, have, add)
    team = s.teams[seat]
    for n, _h in sorted(team.hand):
        if is_ranged(s, n) and trap_actor(s, seat, n) is not None:
            for g in figs:
                if g is not None and g.alive and g.field >= 0 and s.enemies(seat, g.seat):
                    if ranged_reason(s, seat, n, g.id) is None:
                        add(_get(f"trap {n} {s.name(g.id)}"))
    if act_reason(s, seat, A.END) is None:
        add(A.END)
    return out


def _plain_warlock(s, seat: int, w, have: int, add) -> None:
    figs = s.figs
    if may_cast_now(s, w):
        held = set(s.teams[seat].discs)
        for sp in SPELLS:
            if sp.level not in held or cast_cost(s, w, sp) > have:
                continue
            key = sp.key
            if sp.target == "self":
                if cast_reason(s, w, sp) is None:
                    add(_get(f"wl cast {key}"))
            elif sp.target == "area":
                if cast_reason(s, w, sp, -1, w.field) is None:
                    for fld in B.fields_within_blocks(w.field, sp.blocks):
                        add(_get(f"wl cast {key} {B.field_name(fld)}"))
            elif sp.target == "corpse":
                for g in figs[:5 * s.num_players]:
                    if g is not None and not g.alive and g.field == w.field and cast_reason(s, w, sp, g.id) is None:
                        add(_get(f"wl cast {key} {s.name(g.id)}"))
            else:
                for g in figs:
                    if g is not None and g.alive and g.field >= 0:
                        if sp.is_touch and g.field != w.field:
                            continue
                        if cast_reason(s, w, sp, g.id) is None:
                            add(_get(f"wl cast {key} {s.name(g.id)}"))
    k = 0
    for a in s.areas:
        if a.key == "acid" and a.caster == w.id:
            k += 1
            for d in range(6):
                t = _get(f"wl cloud {k} {B.DIRS[d]}")
                if act_reason(s, seat, t) is None:
                    add(t)
    n5 = 5 * s.num_players
    for z in figs[n5:]:
        if z is not None and z.alive and z.creator == w.id:
            t = _get(f"wl order {s.name(z.id)}")
            if act_reason(s, seat, t) is None:
                add(t)



# --- the comparisons ------------------------------------------------------------------------------------
def _random_games(players: int, games: int, seed: int, **opts):
    """Every state of ``games`` random games (the state is yielded before each action)."""
    for g in range(games):
        s = grimoire.new_game("shuluri", players, seed + g, max_rounds=12, **opts)
        rng = Rng(seed * 7919 + g)
        while not s.is_terminal():
            yield s
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])


_OTHER_RULES = {"optional_poison_vial": True, "optional_magic_potion": True, "traps_assigned_to_character": False,
                "kitoro_forras_kind": "ranged", "spells_per_step": 2, "spells_need_line_of_fire": True}


@pytest.mark.parametrize("players, games, opts", [
    (2, 14, {}), (4, 6, {}), (2, 6, _OTHER_RULES), (4, 3, {"mode": "pairs"})])
def test_act_actions_equal_the_plain_generator(players, games, opts):
    steps = 0
    for s in _random_games(players, games, 100 + players, **opts):
        top = s.stack.top
        if top is not None and top.kind == "act":
            fast = act_actions(s, top.seat)
            assert fast == plain_act_actions(s, top.seat), s.history[-5:]
            assert all(type(a) is Action and A.TABLE.lookup(a.text) is a for a in fast)
            steps += 1
    assert steps > 50 * games


def test_legal_ids_are_the_codecs():
    from grimoire.core.codec import ActionCodec
    from grimoire.core.registry import game_info
    codec = game_info("shuluri").codec
    n = 0
    for i, s in enumerate(_random_games(2, 2, 500)):
        if i % 5 == 0:
            assert s.legal_action_ids() == ActionCodec.legal_ids(codec, s)
            n += 1
    assert n > 50
    s = grimoire.new_game("shuluri", 2, 1)
    for i in range(codec.num_distinct_actions):
        assert s.action_from_id(i) is codec.decode(i, s)
    for bad in (-1, codec.num_distinct_actions, True, 2.0, "3", np.int64(3)):
        with pytest.raises(IllegalAction, match="no action id"):
            s.action_from_id(bad)


def test_step_table_is_the_movement_rule():
    from grimoire.games.shuluri.fig import new_fighter
    from grimoire.games.shuluri.movement import zone_reason
    for in_c, role in ((True, GL), (False, WL)):
        f = new_fighter(0, 0, role)
        for a in range(B.N_FIELDS):
            want = []
            for d, n in enumerate(B.NEIGHBOURS[a]):
                if n < 0 or zone_reason(f, n) is not None:
                    continue
                if B.EDGE[a][d] == B.NO_WALL:
                    want.append((d, n, -1))
                elif B.GATE_AT[a][d] >= 0:
                    want.append((d, n, B.GATE_AT[a][d]))
            assert B.STEPS[a][in_c] == tuple(want)


@pytest.mark.parametrize("players, games, opts", [(2, 3, _OTHER_RULES), (4, 2, {}), (4, 1, {"mode": "pairs"})])
def test_tensor_caches_serve_no_stale_row(players, games, opts):
    """After every step of random games (tensors written as an adapter does: the mover's, sometimes the
    others'), the tensor with every cache as the game left it equals the one computed afresh."""
    from grimoire.games.shuluri import tensor_into as TI
    out = np.zeros(TI.size(players), np.float32)
    n = 0
    for i, s in enumerate(_random_games(players, games, 600, **opts)):
        for seat in (s.current_player, None, i % players) if i % 5 == 0 else (s.current_player,):
            s.observation_tensor_into(seat, out)           # with every cache as the game left it
            warm = out.tobytes()
            fresh = s.clone()                              # plain figures, no row kept
            TI._FEATURE_CACHE.clear()
            TI._TEAM_CACHE.clear()
            fresh.observation_tensor_into(seat, out)
            assert out.tobytes() == warm, (seat, s.history[-3:])
            TI.forget(s)
            s.observation_tensor_into(seat, out)
            assert out.tobytes() == warm
            n += 1
    assert n > 300 * games


def test_tables_hold_the_interned_actions():
    for players in (2, 4):
        t = acttab.targeted(players)
        for row in [*t.attack, *t.shoot, *t.skill.values(), *t.throw.values(), *t.cast.values(), t.order,
                    *t.trap.values()]:
            for a in row:
                assert a is None or A.TABLE.lookup(a.text) is a
    for f in range(B.N_FIELDS):
        for a in acttab.area_casts("acid", f):
            assert a.kind == "cast" and a.args[3] >= 0 and A.TABLE.lookup(a.text) is a


@pytest.mark.parametrize("players, games, opts", [(2, 3, {}), (4, 1, {}), (2, 2, _OTHER_RULES),
                                                  (4, 1, {"mode": "pairs"})])
def test_tensor_into_is_the_observation_tensor_bit_for_bit(players, games, opts):
    from grimoire.core.registry import spec_for_state
    out = np.full(spec_for_state(grimoire.new_game("shuluri", players, 1, **opts)).size, 7.0, np.float32)
    n = 0
    for i, s in enumerate(_random_games(players, games, 300 + players, **opts)):
        if i % 3:
            continue
        spec = spec_for_state(s)
        for seat in [None, *range(players)]:
            want = spec.encode(s.observation(seat))       # the tensor of the observation dict (core default)
            s.observation_tensor_into(seat, out)
            assert out.tobytes() == want.tobytes()
            assert s.observation_tensor(seat).tobytes() == want.tobytes()
            n += 1
    assert n > 100


def test_tensor_into_refuses_a_wrong_buffer():
    s = grimoire.new_game("shuluri", 2, 1)
    n = s.observation_tensor(0).size
    for bad in (np.zeros(n, np.float64), np.zeros(n - 1, np.float32), [0.0] * n):
        with pytest.raises(ValueError, match="float32 array"):
            s.observation_tensor_into(0, bad)
    with pytest.raises(ValueError):
        s.observation_tensor_into(2, np.zeros(n, np.float32))


def test_a_clean_figure_turns_plain_when_set_and_is_never_state():
    """fig.CleanFig: the tensor marks the figures it encoded; any attribute set, a copy or a saved and
    loaded state gives plain figures again, and the mark is not part of the state's record."""
    from grimoire.games.shuluri.fig import CleanFig, Fig
    from grimoire.games.shuluri.serial import load
    s = next(st for i, st in enumerate(_random_games(2, 1, 900)) if i == 80)
    s.observation_tensor(s.current_player)
    figs = [f for f in s.figs if f is not None]
    assert figs and all(type(f) is CleanFig for f in figs)
    f = figs[0]
    assert type(f.copy()) is Fig
    assert all(type(g) is Fig for g in s.clone().figs if g is not None)
    d = s.to_dict()
    assert all("tc" not in fd for fd in d["state"]["figs"] if fd is not None)
    loaded = load(d)
    assert loaded.to_dict() == d and all(type(g) is Fig for g in loaded.figs if g is not None)
    ep = f.ep
    f.ep = ep                        # even a set to the same value: the row is computed afresh
    assert type(f) is Fig and f.ep == ep


def test_a_listed_action_skips_only_its_own_check():
    """check() accepts the very objects legal_actions() just listed without checking them again: each of
    them passes the full check too, anything else is still checked, and the listing ends with the
    position (an action, a copy)."""
    from grimoire.games.shuluri.legal import check
    rng = Rng(77)
    probes = [A.TABLE.lookup(t) for t in ("gl move n", "wl cast acid 0,0", "end", "pass", "gl attack bwl")]
    seen = refused = 0
    for s in _random_games(2, 3, 900):
        legal = s.legal_actions()
        assert s.listed is legal
        c = s.clone()
        assert c.listed is None
        for a in (legal[rng.below(len(legal))], legal[-1]):
            check(c, a)                 # the full check (nothing listed on the copy)
            check(s, a)
            seen += 1
        for p in probes:
            if p is not None and p not in legal:
                with pytest.raises(IllegalAction):
                    check(s, p)
                refused += 1
    assert seen > 500 and refused > 500
    s = grimoire.new_game("shuluri", 2, 5)
    s.legal_actions()
    s.apply(s.legal_actions()[0])
    assert s.listed is None


def _plain_line(a: int, b: int) -> B.Line:
    """board.Line from hex_line, as it was made before the arithmetic was inlined into _make_line."""
    coords = B.hex_line(a, b)
    idx = [B.INDEX.get(c, -1) for c in coords]
    blocks = [B.BLOCK[i] if i >= 0 else B.block_of_coords(*c) for i, c in zip(idx, coords, strict=True)]
    walls = []
    for i in range(len(coords) - 1):
        fu, fv = idx[i], idx[i + 1]
        if fu >= 0 and fv >= 0:
            d = B.direction_between(fu, fv)
            if B.EDGE[fu][d] != B.NO_WALL:
                walls.append((B.EDGE[fu][d], B.GATE_AT[fu][d]))
    return B.Line(tuple(x for x in idx[1:-1] if x >= 0), sum(blocks[i] != blocks[i + 1] for i in range(len(idx) - 1)),
                  tuple(walls), any(i < 0 for i in idx))


def _line_pairs(n: int, seed: int):
    rng = Rng(seed)
    return [(rng.below(B.N_FIELDS), rng.below(B.N_FIELDS)) for _ in range(n)]


def test_lines_are_the_plain_geometry():
    pairs = _line_pairs(8_000, 5) + [(a, a) for a in range(0, B.N_FIELDS, 7)]
    made = [B._make_line(a, b) for a, b in pairs]
    assert any(ln.off_board for ln in made) and sum(bool(ln.walls) for ln in made) > 1000   # rims, walls
    for a, b in pairs:
        assert B._make_line(a, b) == _plain_line(a, b), (a, b)


@pytest.mark.slow
def test_every_line_is_the_plain_geometry():
    for a in range(B.N_FIELDS):
        for b in range(B.N_FIELDS):
            assert B._make_line(a, b) == _plain_line(a, b), (a, b)


@pytest.mark.parametrize("players, games, opts", [(2, 2, _OTHER_RULES), (4, 1, {}), (4, 1, {"mode": "pairs"})])
def test_view_caches_serve_no_stale_figure(players, games, opts):
    """view.py keeps each figure's views in ``f.tc`` and hands them out again while nothing they show changed.
    After every step of random games, played as the server does (each action on a clone of the state
    before) and in place, every seat's observation equals the one built afresh (a copy without caches);
    and an unchanged figure's view is the very object of the state before (``Kept``: its JSON is reused)."""
    from grimoire.core.parts import Kept
    seats: list[int | None] = [None, *range(players)]
    n = same = 0
    before: list = []
    for i, s in enumerate(_random_games(players, games, 500 + players, **opts)):
        live = s.clone() if i % 2 else s               # the server's way, and in place
        got = live.observations(seats)
        fresh = s.clone()
        for f in fresh.figs:
            if f is not None:
                f.tc = None
        assert got == fresh.observations(seats), (i, s.history[-3:])
        figs = got[0]["shuluri"]["figures"]
        assert all(type(x) is Kept for x in figs)
        same += sum(1 for x in figs if any(x is y for y in before))
        before = figs
        n += len(figs)
    assert same > n // 2                                # most figures do not change with an action


def test_view_caches_follow_the_round_and_the_team():
    """A figure's view depends on more than its attributes: the round (an effect's window: the values in
    play now), its team's gladiator type and whether the team's weapon is shown. Changing only one of
    them on a copy (which shares the figures' caches) gives the view built afresh, and a different one."""
    from grimoire.games.shuluri.fig import Effect
    s = next(st for st in _random_games(4, 1, 77) if st.phase == "play" and st.round >= 2)
    glad = next(f for f in s.figs if f is not None and f.is_gladiator and f.alive)
    fighter = next(f for f in s.figs if f is not None and not f.is_gladiator and f.alive and f.seat == glad.seat)
    fighter.effects = (Effect("trap1", "trap", "trap", s.round, s.round, (("te", -3), ("move", -1)), (), -1),)
    s.teams[glad.seat].weapon_shown = False
    seats: list[int | None] = [None, (glad.seat + 1) % 4]

    def next_round(c) -> None:          # the effect is over: the fighter's values in play change
        c.round += 1

    def shown(c) -> None:               # the gladiator's weapon and values in play show
        c.teams[glad.seat].weapon_shown = True

    def gtype(c) -> None:               # the sword artist's TE bonus
        t = c.teams[glad.seat]
        t.gtype = "sword_artist" if t.gtype == "heavy" else "heavy"

    for edit in (next_round, shown, gtype):
        before = s.observations(seats)
        c = s.clone()
        edit(c)
        got = c.observations(seats)
        fresh = c.clone()
        for f in fresh.figs:
            if f is not None:
                f.tc = None
        assert got == fresh.observations(seats), edit.__name__
        assert got != before, edit.__name__
        s = c


def plain_reach(ctx, f) -> dict:
    """planner.reach as it was before the step table: every neighbour's zone, wall and enemies checked."""
    import heapq

    from grimoire.games.shuluri.data import COST
    from grimoire.games.shuluri.movement import in_melee
    from grimoire.games.shuluri.values import move_cost, move_limit
    s = ctx.s
    rc = ROLES[f.role]
    start = f.field
    out = {start: (0, None, False)}
    if f.down or f.stopped:
        return out
    budget = available(s, f)
    steps_left = move_limit(s, f) - f.moved
    if budget <= 0 or steps_left <= 0:
        return out
    step_cost, _ = move_cost(s, f, False)
    melee = in_melee(s, f)
    may_attack = not (f.attacked or f.disengaged or f.cast_other)
    if melee and not may_attack and f.attacked:
        return out
    glad = f.is_gladiator

    def enemy_at(fld: int) -> bool:
        return any(g.field == fld and g.id != f.id and s.enemies(g.seat, f.seat) for g in ctx.live)

    best = {start: (0, 0)}
    queue: list = [(0, 0, 0, start, None)]
    tick = 0
    while queue:
        cost, steps, _t, a, first = heapq.heappop(queue)
        if best.get(a, (99, 99)) < (cost, steps) or (a != start and enemy_at(a)) or steps >= steps_left:
            continue
        for d in range(6):
            n = B.NEIGHBOURS[a][d]
            if n < 0 or B.IN_C[n] != glad or n == start:
                continue
            extra, gate_text = 0, None
            if B.EDGE[a][d] != B.NO_WALL:
                g = B.GATE_AT[a][d]
                if g < 0:
                    continue
                if not s.gate_open[g]:
                    if s.gate_jam[g] >= s.round or melee and a == start:
                        continue
                    extra, gate_text = COST["gate"], f"{rc} open {B.GATES[g].id}"
            if ctx.count.get(n, 0) >= B.CAPACITY:
                continue
            c = cost + extra + step_cost + (COST["disengage"] if melee and a == start else 0)
            if c > budget or enemy_at(n) and (not may_attack or (melee and a == start) or budget - c < COST["attack"]):
                continue
            fa = first if first is not None else gate_text or f"{rc} {'disengage' if melee else 'move'} {B.DIRS[d]}"
            if (c, steps + 1) < best.get(n, (99, 99)):
                best[n] = (c, steps + 1)
                out[n] = (c, fa, melee)
                tick += 1
                heapq.heappush(queue, (c, steps + 1, tick, n, fa))
    return out


@pytest.mark.parametrize("players, games, opts", [(2, 2, _OTHER_RULES), (4, 1, {}), (4, 1, {"mode": "pairs"})])
def test_reach_is_the_plain_search(players, games, opts):
    """planner.reach (the hints' fields and the AI's walks) against the plain search, for every figure of
    every seat in the states of random games."""
    from grimoire.games.shuluri.ai.ctx import Ctx
    from grimoire.games.shuluri.ai.planner import reach
    n = 0
    for i, s in enumerate(_random_games(players, games, 900 + players, **opts)):
        if s.phase != "play" or i % 7:
            continue
        for seat in range(players):
            ctx = Ctx(s, seat)
            for f in ctx.live:
                if f.seat == seat:
                    assert reach(ctx, f) == plain_reach(ctx, f), (seat, f.id, s.history[-3:])
                    n += 1
    assert n > 150 * games
