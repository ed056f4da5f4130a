"""The arena (spec 20.1): fields, zones, quarters, regions, walls, gates, blocks and lines of fire.

Everything is derived once from data/board.toml. Fields are numbered 0..N-1 in (r, q) order;
every rule module works with these indices. Lines of fire depend only on the geometry, so their
static part (the fields on the line, block borders, the wall edges crossed) is cached per pair;
the dynamic part (open gates, characters in the way) is applied by ``combat.line_of_fire``.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

_RAW = tomllib.loads((Path(__file__).parent / "data" / "board.toml").read_text(encoding="utf-8"))

DIRS: tuple[str, ...] = tuple(_RAW["grid"]["directions"])
DELTAS: tuple[tuple[int, int], ...] = tuple((d[0], d[1]) for d in _RAW["grid"]["neighbours"])
DIR_INDEX = {d: i for i, d in enumerate(DIRS)}

ZONES: tuple[str, ...] = tuple(_RAW["zones"]["names"])
ZONE_MAX = tuple(_RAW["zones"]["max_rho2"])
C, R1, R2 = 0, 1, 2
QUARTER_OFFSET = _RAW["quarters"]["offset_degrees"]
NQ = _RAW["quarters"]["count"]
CAPACITY = _RAW["capacity"]["per_field"]

# wall kinds of an edge
NO_WALL, QUARTER_WALL, INNER_WALL, MIDDLE_WALL, RIM = 0, 1, 2, 3, 4
WALL_KIND = {"quarter": QUARTER_WALL, "inner": INNER_WALL, "middle": MIDDLE_WALL}


def rho2(q: int, r: int) -> int:
    return q * q + q * r + r * r


def hex_distance(q1: int, r1: int, q2: int, r2: int) -> int:
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def angle(q: int, r: int) -> float:
    x = q + r / 2
    y = math.sqrt(3) / 2 * r
    return math.degrees(math.atan2(y, x)) % 360.0


def zone_of(q: int, r: int) -> int | None:
    p = rho2(q, r)
    for z, bound in enumerate(ZONE_MAX):
        if p <= bound:
            return z
    return None


def quarter_of(q: int, r: int) -> int:
    if q == 0 and r == 0:
        return 0
    return int(((angle(q, r) - QUARTER_OFFSET) % 360.0) // 90)


# --- fields -------------------------------------------------------------------------------------------
_LIMIT = 20
COORDS: tuple[tuple[int, int], ...] = tuple(sorted(
    ((q, r) for q in range(-_LIMIT, _LIMIT + 1) for r in range(-_LIMIT, _LIMIT + 1) if zone_of(q, r) is not None),
    key=lambda c: (c[1], c[0])))
N_FIELDS = len(COORDS)
INDEX: dict[tuple[int, int], int] = {c: i for i, c in enumerate(COORDS)}
ZONE: tuple[int, ...] = tuple(zone_of(q, r) for q, r in COORDS)  # type: ignore[misc]
QUARTER: tuple[int, ...] = tuple(quarter_of(q, r) for q, r in COORDS)
# region: 0 = C, 1 + k = (R1, k), 5 + k = (R2, k)
REGION: tuple[int, ...] = tuple(0 if z == C else (1 if z == R1 else 5) + k for z, k in zip(ZONE, QUARTER, strict=True))
N_REGIONS = 1 + 2 * NQ
IN_C: tuple[bool, ...] = tuple(z == C for z in ZONE)


def region_name(reg: int) -> str:
    if reg == 0:
        return "C"
    return f"R{1 if reg <= NQ else 2} q{(reg - 1) % NQ}"


def field_name(f: int) -> str:
    return _FIELD_NAMES[f]


_FIELD_NAMES = tuple(f"{q},{r}" for q, r in COORDS)     # "q,r" of every field (events name many)


def parse_field(text: str) -> int | None:
    parts = text.split(",")
    if len(parts) != 2:
        return None
    try:
        c = (int(parts[0]), int(parts[1]))
    except ValueError:
        return None
    return INDEX.get(c)


def _edge_kind(a: int, b: int) -> int:
    za, zb = ZONE[a], ZONE[b]
    if za != C and zb != C and QUARTER[a] != QUARTER[b]:
        return QUARTER_WALL
    if {za, zb} == {C, R1}:
        return INNER_WALL
    if {za, zb} == {R1, R2}:
        return MIDDLE_WALL
    return NO_WALL


# NEIGHBOURS[f][d]: the field in direction d, or -1 off the board; EDGE[f][d]: the wall kind of that edge
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX.get((q + dq, r + dr), -1) for dq, dr in DELTAS) for q, r in COORDS)
EDGE: tuple[tuple[int, ...], ...] = tuple(
    tuple(RIM if n < 0 else _edge_kind(f, n) for n in NEIGHBOURS[f]) for f in range(N_FIELDS))


def direction_between(a: int, b: int) -> int:
    """The direction from a to the adjacent field b (-1 if not adjacent)."""
    row = NEIGHBOURS[a]
    for d in range(6):
        if row[d] == b:
            return d
    return -1


def distance(a: int, b: int) -> int:
    qa, ra = COORDS[a]
    qb, rb = COORDS[b]
    return hex_distance(qa, ra, qb, rb)


# --- gates --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Gate:
    index: int
    id: str
    wall: int
    fields: tuple[int, int]
    regions: tuple[int, int]


GATES: tuple[Gate, ...] = tuple(
    Gate(i, g["id"], WALL_KIND[g["wall"]], (INDEX[tuple(g["fields"][0])], INDEX[tuple(g["fields"][1])]),
         (REGION[INDEX[tuple(g["fields"][0])]], REGION[INDEX[tuple(g["fields"][1])]]))
    for i, g in enumerate(_RAW["gates"]))
N_GATES = len(GATES)
GATE_BY_ID = {g.id: g.index for g in GATES}
GATES_START_OPEN: bool = _RAW["gates_start"]["open"]
# GATE_AT[f][d]: the gate on the edge from f in direction d, or -1
_gate_at = [[-1] * 6 for _ in range(N_FIELDS)]
for _g in GATES:
    _a, _b = _g.fields
    _gate_at[_a][direction_between(_a, _b)] = _g.index
    _gate_at[_b][direction_between(_b, _a)] = _g.index
GATE_AT: tuple[tuple[int, ...], ...] = tuple(tuple(row) for row in _gate_at)
# gates whose gate fields include f
GATES_OF_FIELD: tuple[tuple[int, ...], ...] = tuple(
    tuple(g.index for g in GATES if f in g.fields) for f in range(N_FIELDS))

# STEPS[f][in_c]: (direction, neighbour, gate or -1) of every edge out of f that a figure of the zone
# in_c (gladiators: the central circle) may cross, by direction: a neighbour in that zone through no
# wall (gate -1) or through a gate (open or not: the state decides). The movement fast path's table.
STEPS: tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...] = tuple(
    tuple(tuple((d, n, GATE_AT[f][d] if EDGE[f][d] != NO_WALL else -1)
                for d, n in enumerate(NEIGHBOURS[f])
                if n >= 0 and IN_C[n] == in_c and (EDGE[f][d] == NO_WALL or GATE_AT[f][d] >= 0))
          for in_c in (False, True))
    for f in range(N_FIELDS))

def gate_between(a: int, b: int) -> int:
    d = direction_between(a, b)
    return GATE_AT[a][d] if d >= 0 else -1


# --- heaps, trap fields, towers, halves, deployment -----------------------------------------------------
HEAPS: tuple[int, ...] = tuple(INDEX[tuple(c)] for c in _RAW["heaps"]["fields"])
TRAP_FIELDS: tuple[int, ...] = tuple(INDEX[tuple(c)] for c in _RAW["trap_fields"]["fields"])
TRAP_NUMBER_AT: dict[int, int] = {f: i + 1 for i, f in enumerate(TRAP_FIELDS)}
TOWER_ANGLES: tuple[int, ...] = tuple(_RAW["towers"]["angles"])
TOWER_RADIUS: float = _RAW["towers"]["radius"]
N_HALVES = _RAW["halves"]["count"]
HALF_OPPOSITE = _RAW["halves"]["opposite_offset"]
DEPLOY_C: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX[tuple(c)] for c in _RAW["deployment"][f"I{k}"]["c_side"]) for k in range(NQ))
DEPLOY_R1: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX[tuple(c)] for c in _RAW["deployment"][f"I{k}"]["r1_side"]) for k in range(NQ))


def half_quarters(k: int) -> tuple[int, int]:
    return k % NQ, (k + 1) % NQ


def opposite_half(k: int) -> int:
    return (k + HALF_OPPOSITE) % N_HALVES


# --- blocks ---------------------------------------------------------------------------------------------
_BA = tuple(_RAW["blocks"]["basis_a"])
_BB = tuple(_RAW["blocks"]["basis_b"])


def block_of_coords(q: int, r: int) -> tuple[int, int]:
    # fractional block coordinates for the basis (2,1), (-1,3): inverse of [[2,-1],[1,3]] / 7
    det = _BA[0] * _BB[1] - _BB[0] * _BA[1]
    fa = (q * _BB[1] - r * _BB[0]) / det
    fb = (r * _BA[0] - q * _BA[1]) / det
    found = []
    for a in range(math.floor(fa) - 1, math.ceil(fa) + 2):
        for b in range(math.floor(fb) - 1, math.ceil(fb) + 2):
            cq = a * _BA[0] + b * _BB[0]
            cr = a * _BA[1] + b * _BB[1]
            if hex_distance(q, r, cq, cr) <= 1:
                found.append((a, b))
    if len(found) != 1:
        raise AssertionError(f"field {(q, r)} lies in {len(found)} blocks")
    return found[0]


BLOCK: tuple[tuple[int, int], ...] = tuple(block_of_coords(q, r) for q, r in COORDS)
BLOCKS: tuple[tuple[int, int], ...] = tuple(sorted(set(BLOCK), key=lambda b: (b[1], b[0])))
BLOCK_INDEX = {b: i for i, b in enumerate(BLOCKS)}
BLOCK_ID: tuple[int, ...] = tuple(BLOCK_INDEX[b] for b in BLOCK)
_NB = len(BLOCKS)
_bd = [[0] * _NB for _ in range(_NB)]
for _i, (_a1, _b1) in enumerate(BLOCKS):
    for _j, (_a2, _b2) in enumerate(BLOCKS):
        _bd[_i][_j] = hex_distance(_a1, _b1, _a2, _b2)
BLOCK_DIST: tuple[tuple[int, ...], ...] = tuple(tuple(row) for row in _bd)


def block_distance(a: int, b: int) -> int:
    return BLOCK_DIST[BLOCK_ID[a]][BLOCK_ID[b]]


# fields within block distance d of a field's block, for range queries: WITHIN[d][block] -> fields
_MAXD = max(max(r) for r in BLOCK_DIST)
_fields_of_block: list[list[int]] = [[] for _ in range(_NB)]
for _f in range(N_FIELDS):
    _fields_of_block[BLOCK_ID[_f]].append(_f)
FIELDS_OF_BLOCK: tuple[tuple[int, ...], ...] = tuple(tuple(x) for x in _fields_of_block)


def fields_within_blocks(f: int, d: int) -> list[int]:
    """Every field whose block is within block distance d of f's block (ascending)."""
    row = BLOCK_DIST[BLOCK_ID[f]]
    out: list[int] = []
    for bi in range(_NB):
        if row[bi] <= d:
            out.extend(FIELDS_OF_BLOCK[bi])
    out.sort()
    return out


# --- lines of fire (static part) -------------------------------------------------------------------------
_NUDGE = tuple(_RAW["line_of_fire"]["nudge"])
NUDGE: tuple[float, ...] = _NUDGE


def _cube_round(x: float, y: float, z: float) -> tuple[int, int]:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return rx, rz


def hex_line(a: int, b: int) -> list[tuple[int, int]]:
    """The axial coordinates L0 = a .. LN = b of the line between two fields (20.1.10)."""
    qa, ra = COORDS[a]
    qb, rb = COORDS[b]
    n = hex_distance(qa, ra, qb, rb)
    ax, ay, az = qa + _NUDGE[0], -qa - ra + _NUDGE[1], ra + _NUDGE[2]
    bx, by, bz = qb + _NUDGE[0], -qb - rb + _NUDGE[1], rb + _NUDGE[2]
    if n == 0:
        return [(qa, ra)]
    out = []
    for i in range(n + 1):
        t = i / n
        out.append(_cube_round(ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t))
    return out


@dataclass(frozen=True, slots=True)
class Line:
    """The geometry of a line of fire: the intermediate fields, the block borders crossed (B), and
    the wall edges crossed as (wall kind, gate index or -1). ``off_board`` marks a line that leaves
    the arena (it passes over the outer rim), which blocks it."""

    middle: tuple[int, ...]
    borders: int
    walls: tuple[tuple[int, int], ...]
    off_board: bool


_LINES: dict[int, Line] = {}


def line(a: int, b: int) -> Line:
    key = a * N_FIELDS + b
    ln = _LINES.get(key)
    if ln is None:
        ln = _LINES[key] = _make_line(a, b)
    return ln


def _make_line(a: int, b: int) -> Line:
    """``Line`` of hex_line(a, b) (the same arithmetic, inlined: lines are made on first use in play)."""
    qa, ra = COORDS[a]
    qb, rb = COORDS[b]
    n = hex_distance(qa, ra, qb, rb)
    if n == 0:
        return Line((), 0, (), False)
    ax, ay, az = qa + _NUDGE[0], -qa - ra + _NUDGE[1], ra + _NUDGE[2]
    dx, dy, dz = (qb + _NUDGE[0]) - ax, (-qb - rb + _NUDGE[1]) - ay, (rb + _NUDGE[2]) - az
    index = INDEX.get
    off = False
    borders = 0
    walls = []
    middle = []
    prev = a
    prev_block = BLOCK[a]
    for i in range(1, n + 1):
        t = i / n
        x, y, z = ax + dx * t, ay + dy * t, az + dz * t
        rx, ry, rz = round(x), round(y), round(z)       # _cube_round
        ex, ey, ez = abs(rx - x), abs(ry - y), abs(rz - z)
        if ex > ey and ex > ez:
            rx = -ry - rz
        elif ey > ez:
            pass
        else:
            rz = -rx - ry
        c = (rx, rz)
        f = index(c, -1)
        if f < 0:
            off = True
            blk = block_of_coords(rx, rz)
        else:
            blk = BLOCK[f]
            if i < n:
                middle.append(f)
        if blk != prev_block:
            borders += 1
        if prev >= 0 and f >= 0:
            row = NEIGHBOURS[prev]
            d = row.index(f) if f in row else -1        # direction_between
            kind = EDGE[prev][d]
            if kind != NO_WALL:
                walls.append((kind, GATE_AT[prev][d]))
        prev = f
        prev_block = blk
    return Line(tuple(middle), borders, tuple(walls), off)


# --- areas (20.1.13) -------------------------------------------------------------------------------------
def area_fields(c: int, gate_open: list[bool] | tuple[bool, ...]) -> tuple[int, ...]:
    """The fields of a one-block area around centre c: the fields within distance 1 in c's region,
    and gate fields within that distance whose open gate joins c's region."""
    reg = REGION[c]
    out = [c]
    for n in NEIGHBOURS[c]:
        if n < 0:
            continue
        if REGION[n] == reg:
            out.append(n)
            continue
        for g in GATES_OF_FIELD[n]:
            gate = GATES[g]
            if gate_open[g] and reg in gate.regions:
                out.append(n)
                break
    out.sort()
    return tuple(out)


def regions_of(f: int, gate_open: list[bool] | tuple[bool, ...]) -> tuple[int, ...]:
    """Region membership (V9.9): the field's region, plus the far side of every open gate it touches."""
    gs = GATES_OF_FIELD[f]
    if not gs:
        return (REGION[f],)
    out = [REGION[f]]
    for g in gs:
        if gate_open[g]:
            for reg in GATES[g].regions:
                if reg not in out:
                    out.append(reg)
    return tuple(out)


def rotate180(f: int) -> int:
    q, r = COORDS[f]
    return INDEX[(-q, -r)]
