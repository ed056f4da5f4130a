"""Spec 3 and 20.1: the arena model — counts, regions, walls, gates, heaps, trap fields, blocks, lines
of fire, halves, deployment fields and areas. Expected values are the spec's."""

from __future__ import annotations

from collections import Counter

import pytest

from grimoire.games.shuluri import board as B

from .helpers import F, arena


def test_zone_counts():
    assert B.N_FIELDS == 571
    assert Counter(B.ZONE) == {B.C: 73, B.R1: 180, B.R2: 318}


def test_arc_slice_sizes_and_connected():
    sizes = Counter(B.REGION)
    assert [sizes[1 + k] for k in range(4)] == [44, 46, 44, 46]
    assert [sizes[5 + k] for k in range(4)] == [82, 77, 82, 77]
    for reg in range(B.N_REGIONS):
        fields = [f for f in range(B.N_FIELDS) if B.REGION[f] == reg]
        seen = {fields[0]}
        todo = [fields[0]]
        while todo:
            a = todo.pop()
            for n in B.NEIGHBOURS[a]:
                if n >= 0 and B.REGION[n] == reg and n not in seen:
                    seen.add(n)
                    todo.append(n)
        assert len(seen) == len(fields), B.region_name(reg)


def test_wall_edge_counts():
    kinds = Counter()
    ring_quarter = 0
    for f in range(B.N_FIELDS):
        for d in range(6):
            n = B.NEIGHBOURS[f][d]
            if n > f:
                kinds[B.EDGE[f][d]] += 1
                if B.EDGE[f][d] == B.QUARTER_WALL and B.ZONE[f] != B.ZONE[n]:
                    ring_quarter += 1
    assert kinds[B.QUARTER_WALL] == 68
    assert ring_quarter == 4
    assert kinds[B.INNER_WALL] == 66
    assert kinds[B.MIDDLE_WALL] == 110


@pytest.mark.parametrize("gid,a,b,kind", [
    ("I0", (0, 4), (0, 5), B.INNER_WALL), ("I1", (-5, 3), (-6, 3), B.INNER_WALL),
    ("I2", (0, -4), (0, -5), B.INNER_WALL), ("I3", (5, -3), (6, -3), B.INNER_WALL),
    ("M0", (0, 8), (0, 9), B.MIDDLE_WALL), ("M1", (-9, 5), (-10, 5), B.MIDDLE_WALL),
    ("M2", (0, -8), (0, -9), B.MIDDLE_WALL), ("M3", (9, -5), (10, -5), B.MIDDLE_WALL),
    ("W0", (5, 2), (6, 1), B.QUARTER_WALL), ("W1", (-8, 11), (-9, 12), B.QUARTER_WALL),
    ("W2", (-6, -1), (-5, -2), B.QUARTER_WALL), ("W3", (8, -11), (9, -12), B.QUARTER_WALL),
])
def test_gates_lie_on_walls_of_their_kind(gid, a, b, kind):
    g = B.GATES[B.GATE_BY_ID[gid]]
    assert g.fields == (F(*a), F(*b))
    d = B.direction_between(F(*a), F(*b))
    assert d >= 0 and B.EDGE[F(*a)][d] == kind
    assert B.GATE_AT[F(*a)][d] == g.index


def test_twelve_gates_all_closed_at_start():
    assert B.N_GATES == 12
    s = arena({})
    assert not any(s.gate_open)


def test_all_gates_open_connect_every_ring_field():
    start = F(0, 5)
    seen = {start}
    todo = [start]
    while todo:
        a = todo.pop()
        for d in range(6):
            n = B.NEIGHBOURS[a][d]
            if n < 0 or B.IN_C[n] or n in seen:
                continue
            if B.EDGE[a][d] != B.NO_WALL and B.GATE_AT[a][d] < 0:
                continue
            seen.add(n)
            todo.append(n)
    assert len(seen) == 180 + 318


def test_heaps_and_trap_fields():
    assert [B.COORDS[f] for f in B.HEAPS] == [(0, 2), (-3, 2), (0, -2), (3, -2)]
    assert all(B.IN_C[f] for f in B.HEAPS)
    assert [B.QUARTER[f] for f in B.HEAPS] == [0, 1, 2, 3]
    expected = [((1, 6), 1), ((0, 11), 5), ((-8, 3), 2), ((-12, 6), 6), ((-1, -6), 3), ((0, -11), 7),
                ((8, -3), 4), ((12, -6), 8)]
    for f, (c, reg) in zip(B.TRAP_FIELDS, expected, strict=True):
        assert B.COORDS[f] == c
        assert B.REGION[f] == reg


@pytest.mark.parametrize("field,block", [((0, 0), (0, 0)), ((1, 0), (0, 0)), ((2, 1), (1, 0)), ((2, 0), (1, 0)),
                                         ((3, -2), (1, -1)), ((0, 3), (0, 1)), ((0, 11), (2, 3))])
def test_block_check_values(field, block):
    assert B.BLOCK[F(*field)] == block


def test_block_counts_and_distances():
    assert len(B.BLOCKS) == 91
    assert sum(1 for b in B.FIELDS_OF_BLOCK if len(b) == 7) == 67
    assert B.block_distance(F(0, 0), F(2, 1)) == 1
    assert B.block_distance(F(0, 0), F(3, -2)) == 1
    assert B.block_distance(F(0, 3), F(0, 11)) == 4
    assert B.block_distance(F(0, 4), F(0, -4)) == 4
    assert max(max(row) for row in B.BLOCK_DIST) == 10


def test_line_of_fire_check_value_geometry():
    ln = B.line(F(0, 11), F(0, 3))
    assert [B.COORDS[x] for x in ln.middle] == [(0, r) for r in range(10, 3, -1)]
    assert ln.borders == 4
    gates = sorted(B.GATES[g].id for _k, g in ln.walls)
    assert gates == ["I0", "M0"]


def test_line_of_fire_walls_closed_and_open():
    from grimoire.games.shuluri.sight import line_of_fire
    s = arena({"axb": (0, 11), "bxb": (0, 3)})
    shot = line_of_fire(s, F(0, 11), F(0, 3), -1, -1)
    assert shot.blocked is None and shot.walls == 2 and shot.borders == 4
    for gid in ("M0", "I0"):
        s.gate_open[B.GATE_BY_ID[gid]] = True
    shot = line_of_fire(s, F(0, 11), F(0, 3), -1, -1)
    assert shot.blocked is None and shot.walls == 0


def test_quarter_wall_blocks_line_of_fire():
    from grimoire.games.shuluri.sight import line_of_fire
    s = arena({})
    # (5,2) is in quarter 0 and (6,1) in quarter 3: neighbours across quarter wall W0
    assert line_of_fire(s, F(4, 3), F(7, 0), -1, -1).blocked
    s.gate_open[B.GATE_BY_ID["W0"]] = True
    shot = line_of_fire(s, F(5, 2), F(6, 1), -1, -1)
    assert shot.blocked is None


def test_halves_and_towers():
    assert B.half_quarters(0) == (0, 1)
    assert B.half_quarters(3) == (3, 0)
    assert B.opposite_half(1) == 3
    assert B.TOWER_ANGLES == (15, 105, 195, 285)


@pytest.mark.parametrize("gate,c_side,r1_side", [
    (0, [(0, 4)], [(0, 5), (1, 4), (-1, 5)]), (1, [(-5, 3), (-5, 2)], [(-6, 3), (-6, 4)]),
    (2, [(0, -4)], [(0, -5), (1, -5), (-1, -4)]), (3, [(5, -3), (5, -2)], [(6, -3), (6, -4)])])
def test_deployment_fields_touch_their_gate(gate, c_side, r1_side):
    assert [B.COORDS[f] for f in B.DEPLOY_C[gate]] == c_side
    assert [B.COORDS[f] for f in B.DEPLOY_R1[gate]] == r1_side
    g = B.GATES[B.GATE_BY_ID[f"I{gate}"]]
    for f in B.DEPLOY_C[gate] + B.DEPLOY_R1[gate]:
        assert f in g.fields or all(B.distance(f, x) == 1 for x in g.fields)


def test_area_follows_region_and_open_gates():
    closed = [False] * B.N_GATES
    area = B.area_fields(F(0, 4), closed)
    assert all(B.IN_C[f] for f in area) and len(area) < 7
    opened = closed[:]
    opened[B.GATE_BY_ID["I0"]] = True
    area2 = B.area_fields(F(0, 4), opened)
    assert set(area2) - set(area) == {F(0, 5)}


def test_region_membership_on_open_gate():
    gates = [False] * B.N_GATES
    assert B.regions_of(F(0, 8), gates) == (1,)
    gates[B.GATE_BY_ID["M0"]] = True
    assert set(B.regions_of(F(0, 8), gates)) == {1, 5}


def test_board_has_180_degree_symmetry():
    for f in range(B.N_FIELDS):
        g = B.rotate180(f)
        assert B.ZONE[f] == B.ZONE[g]
        assert B.QUARTER[g] == (B.QUARTER[f] + 2) % 4 or f == B.INDEX[(0, 0)]
    assert {B.rotate180(x) for x in B.HEAPS} == set(B.HEAPS)
    assert {B.rotate180(x) for x in B.TRAP_FIELDS} == set(B.TRAP_FIELDS)
