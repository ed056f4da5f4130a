"""Invariants over random games (hypothesis): MAN is never overspent, at most three figures per field,
the zones hold, dead figures never act, walls are never crossed, nothing is created or lost."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import grimoire
from grimoire.core.rng import Rng
from grimoire.games.shuluri import board as B
from grimoire.games.shuluri.actions import fig_id

OPTIONS = st.sampled_from([{}, {"spells_per_step": "unlimited"}, {"traps_assigned_to_character": False},
                           {"gladiator_type": "sword_artist", "weapon_reveal": "first_exchange"},
                           {"optional_poison_vial": True, "optional_magic_potion": True},
                           {"cage_follows_caster": False, "modifier_mode": "best_bonus_plus_worst_penalty"}])


def _invariants(s, before_fields, passable_before, action, moved=True):
    counts: dict[int, int] = {}
    for f in s.figs:
        if f is None:
            continue
        assert f.ep <= f.max_ep
        if f.alive and f.field >= 0:
            counts[f.field] = counts.get(f.field, 0) + 1
            assert B.IN_C[f.field] == f.is_gladiator, f"{s.name(f.id)} in the wrong zone"
        old = before_fields.get(f.id, -1)
        # one step of a move action never crosses a wall or a closed gate (an automaton's "pass" may walk
        # several steps, opening gates on the way: a net step of 1 need not be the edge it crossed)
        if (moved and f.alive and old >= 0 and f.field >= 0 and B.distance(old, f.field) == 1):
            d = B.direction_between(old, f.field)
            assert passable_before[old][d], f"{s.name(f.id)} crossed a wall with {action}"
    assert all(n <= B.CAPACITY for n in counts.values())
    assert s.pool >= 0 and s.gpool >= 0
    for t in s.teams:
        assert t.strat >= 0
        assert len(t.hand) + len(t.played) + len(t.lost) == 3
        assert len(t.discs) + len(t.cast) == 6
    cards = [c for t in s.teams for c, _h in t.hand] + [c for t in s.teams for c in t.played + t.lost]
    assert len(cards) == len(set(cards))
    n5 = 5 * s.num_players
    for i, z in enumerate(s.figs[n5:]):
        if z is not None:
            assert s.figs[i].raised and not s.figs[i].alive
            assert z.zman >= 0
        assert s.figs[i] is not None


def _passable(s):
    out = {}
    for f in s.figs:
        if f is not None and f.alive and f.field >= 0:
            a = f.field
            out[a] = [B.NEIGHBOURS[a][d] >= 0 and (B.EDGE[a][d] == B.NO_WALL or (
                B.GATE_AT[a][d] >= 0 and s.gate_open[B.GATE_AT[a][d]])) for d in range(6)]
    return out


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 2, 4]), options=OPTIONS)
def test_random_games_keep_the_invariants(seed, players, options):
    s = grimoire.new_game("shuluri", players, seed, max_rounds=4, **options)
    r = Rng(seed)
    while not s.is_terminal():
        acts = s.legal_actions()
        a = acts[r.below(len(acts))]
        top = s.stack.top
        if top.kind == "act" and a.kind not in ("end", "trap"):
            f = s.figs[top.seat * 5 + a.args[0]]
            assert f.alive and f.id in s.named, f"dead or unnamed {s.name(f.id)} offered {a.text}"
        if a.kind in ("attack", "shoot", "javelin", "net", "enemy", "chain") and a.args[-1 if a.kind in (
                "enemy", "chain") else 1]:
            name = a.args[0] if a.kind in ("enemy", "chain") else a.args[1]
            if name:
                assert s.figs[fig_id(s, name)].alive
        fields = {f.id: f.field for f in s.figs if f is not None and f.alive}
        passable = _passable(s)
        s.apply(a)
        _invariants(s, fields, passable, a.text, a.kind == "move")


def test_block_distance_is_symmetric_and_lines_reverse():
    r = Rng(4)
    asym = 0
    for _ in range(2000):
        a, b = r.below(B.N_FIELDS), r.below(B.N_FIELDS)
        assert B.block_distance(a, b) == B.block_distance(b, a)
        fwd, back = B.hex_line(a, b), B.hex_line(b, a)
        if fwd == back[::-1]:
            la, lb = B.line(a, b), B.line(b, a)
            assert la.borders == lb.borders and sorted(la.walls) == sorted(lb.walls)
        else:
            asym += 1
    assert asym < 2000
