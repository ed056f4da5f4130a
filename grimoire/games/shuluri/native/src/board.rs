//! The arena (spec 20.1), a port of the Python `board.py`: fields, zones, quarters, regions, walls,
//! gates, blocks and the static part of lines of fire, all derived from the package's own
//! data/board.toml (compiled in). Fields are numbered 0..N-1 in (r, q) order, as in Python.

use std::collections::HashMap;
use std::sync::LazyLock;
use toml::{Table, Value};

const RAW: &str = include_str!("../../data/board.toml");

pub const C: u8 = 0;
pub const R1: u8 = 1;
pub const R2: u8 = 2;
pub const NO_WALL: u8 = 0;
pub const QUARTER_WALL: u8 = 1;
pub const INNER_WALL: u8 = 2;
pub const MIDDLE_WALL: u8 = 3;
pub const RIM: u8 = 4;
/// the coordinate bound of the search for fields (Python `_LIMIT`)
const LIMIT: i32 = 20;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gate {
    pub id: String,
    pub wall: u8,
    pub fields: [usize; 2],
    pub regions: [u8; 2],
}

/// The geometry of a line of fire: the intermediate fields, the block borders crossed (B), the wall
/// edges crossed as (wall kind, gate index or -1), and whether it leaves the arena.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Line {
    pub middle: Vec<u16>,
    pub borders: u8,
    pub walls: Vec<(u8, i8)>,
    pub off_board: bool,
}

pub struct Board {
    pub dirs: Vec<String>,
    pub deltas: [(i32, i32); 6],
    pub zone_max: Vec<i32>,
    pub quarter_offset: f64,
    pub nq: usize,
    pub capacity: usize,
    pub coords: Vec<(i32, i32)>,
    pub index: HashMap<(i32, i32), usize>,
    pub zone: Vec<u8>,
    pub quarter: Vec<u8>,
    /// 0 = C, 1 + k = (R1, k), 1 + nq + k = (R2, k)
    pub region: Vec<u8>,
    pub in_c: Vec<bool>,
    /// the field in direction d, or -1 off the board
    pub neighbours: Vec<[i32; 6]>,
    pub edge: Vec<[u8; 6]>,
    pub gates: Vec<Gate>,
    pub gates_start_open: bool,
    pub gate_at: Vec<[i8; 6]>,
    pub gates_of_field: Vec<Vec<u8>>,
    /// steps[f][in_c]: (direction, neighbour, gate or -1) a figure of that zone may cross
    pub steps: Vec<[Vec<(u8, u16, i8)>; 2]>,
    pub heaps: Vec<usize>,
    pub trap_fields: Vec<usize>,
    pub tower_angles: Vec<i64>,
    pub tower_radius: f64,
    pub n_halves: usize,
    pub half_opposite: usize,
    pub deploy_c: Vec<Vec<usize>>,
    pub deploy_r1: Vec<Vec<usize>>,
    basis_a: (i32, i32),
    basis_b: (i32, i32),
    pub block: Vec<(i32, i32)>,
    pub blocks: Vec<(i32, i32)>,
    pub block_id: Vec<u16>,
    pub block_dist: Vec<Vec<u8>>,
    pub fields_of_block: Vec<Vec<u16>>,
    pub nudge: [f64; 3],
}

pub static BOARD: LazyLock<Board> = LazyLock::new(load);

pub fn board() -> &'static Board {
    &BOARD
}

pub fn rho2(q: i32, r: i32) -> i32 {
    q * q + q * r + r * r
}

pub fn hex_distance(q1: i32, r1: i32, q2: i32, r2: i32) -> i32 {
    let (dq, dr) = (q1 - q2, r1 - r2);
    (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
}

/// Python's `math.degrees(math.atan2(y, x)) % 360.0` of the field's centre.
pub fn angle(q: i32, r: i32) -> f64 {
    let x = q as f64 + r as f64 / 2.0;
    let y = 3f64.sqrt() / 2.0 * r as f64;
    py_mod(y.atan2(x) * (180.0 / std::f64::consts::PI), 360.0)
}

/// Python's float `%` (the sign of the divisor).
pub fn py_mod(a: f64, b: f64) -> f64 {
    let m = a % b;
    if m != 0.0 && ((b < 0.0) != (m < 0.0)) {
        m + b
    } else {
        m
    }
}

/// Python's float `//` (CPython's float_floor_div, step for step).
pub fn py_floordiv(vx: f64, wx: f64) -> f64 {
    let mut m = vx % wx;
    let mut div = (vx - m) / wx;
    if m != 0.0 && ((wx < 0.0) != (m < 0.0)) {
        m += wx;
        div -= 1.0;
    }
    let _ = m;
    if div != 0.0 {
        let fl = div.floor();
        if div - fl > 0.5 {
            fl + 1.0
        } else {
            fl
        }
    } else {
        0.0f64.copysign(vx / wx)
    }
}

fn zone_of(zone_max: &[i32], q: i32, r: i32) -> Option<u8> {
    let p = rho2(q, r);
    zone_max.iter().position(|&b| p <= b).map(|z| z as u8)
}

fn quarter_of(offset: f64, q: i32, r: i32) -> u8 {
    if q == 0 && r == 0 {
        return 0;
    }
    py_floordiv(py_mod(angle(q, r) - offset, 360.0), 90.0) as u8
}

fn edge_kind(zone: &[u8], quarter: &[u8], a: usize, b: usize) -> u8 {
    let (za, zb) = (zone[a], zone[b]);
    if za != C && zb != C && quarter[a] != quarter[b] {
        QUARTER_WALL
    } else if (za == C && zb == R1) || (za == R1 && zb == C) {
        INNER_WALL
    } else if (za == R1 && zb == R2) || (za == R2 && zb == R1) {
        MIDDLE_WALL
    } else {
        NO_WALL
    }
}

fn get<'a>(t: &'a Table, path: &str) -> &'a Value {
    let mut parts = path.split('.');
    let mut cur: &Value = t.get(parts.next().unwrap()).unwrap_or_else(|| panic!("board.toml: {path}"));
    for part in parts {
        cur = cur.get(part).unwrap_or_else(|| panic!("board.toml: {path}"));
    }
    cur
}

fn int(v: &Value) -> i64 {
    v.as_integer().expect("board.toml: an integer")
}

fn float(v: &Value) -> f64 {
    v.as_float().or_else(|| v.as_integer().map(|i| i as f64)).expect("board.toml: a number")
}

fn pair(v: &Value) -> (i32, i32) {
    let a = v.as_array().expect("board.toml: a pair");
    (int(&a[0]) as i32, int(&a[1]) as i32)
}

fn pairs(v: &Value) -> Vec<(i32, i32)> {
    v.as_array().expect("board.toml: a list").iter().map(pair).collect()
}

fn load() -> Board {
    let t: Table = RAW.parse().expect("board.toml parses");
    let dirs: Vec<String> =
        get(&t, "grid.directions").as_array().unwrap().iter().map(|x| x.as_str().unwrap().to_string()).collect();
    let deltas: [(i32, i32); 6] = pairs(get(&t, "grid.neighbours")).try_into().expect("six directions");
    let zone_max: Vec<i32> = get(&t, "zones.max_rho2").as_array().unwrap().iter().map(|v| int(v) as i32).collect();
    let quarter_offset = float(get(&t, "quarters.offset_degrees"));
    let nq = int(get(&t, "quarters.count")) as usize;
    let capacity = int(get(&t, "capacity.per_field")) as usize;

    let mut coords: Vec<(i32, i32)> = Vec::new();
    for q in -LIMIT..=LIMIT {
        for r in -LIMIT..=LIMIT {
            if zone_of(&zone_max, q, r).is_some() {
                coords.push((q, r));
            }
        }
    }
    coords.sort_by_key(|&(q, r)| (r, q));
    let n = coords.len();
    let index: HashMap<(i32, i32), usize> = coords.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let zone: Vec<u8> = coords.iter().map(|&(q, r)| zone_of(&zone_max, q, r).unwrap()).collect();
    let quarter: Vec<u8> = coords.iter().map(|&(q, r)| quarter_of(quarter_offset, q, r)).collect();
    let region: Vec<u8> = (0..n)
        .map(|f| match zone[f] {
            C => 0,
            R1 => 1 + quarter[f],
            _ => 1 + nq as u8 + quarter[f],
        })
        .collect();
    let in_c: Vec<bool> = zone.iter().map(|&z| z == C).collect();
    let neighbours: Vec<[i32; 6]> = coords
        .iter()
        .map(|&(q, r)| {
            let mut row = [-1; 6];
            for (d, &(dq, dr)) in deltas.iter().enumerate() {
                row[d] = index.get(&(q + dq, r + dr)).map_or(-1, |&i| i as i32);
            }
            row
        })
        .collect();
    let edge: Vec<[u8; 6]> = (0..n)
        .map(|f| {
            let mut row = [RIM; 6];
            for d in 0..6 {
                let nb = neighbours[f][d];
                if nb >= 0 {
                    row[d] = edge_kind(&zone, &quarter, f, nb as usize);
                }
            }
            row
        })
        .collect();
    let direction_between = |a: usize, b: usize| neighbours[a].iter().position(|&x| x == b as i32);

    let mut gates = Vec::new();
    for g in get(&t, "gates").as_array().unwrap() {
        let wall = match g.get("wall").unwrap().as_str().unwrap() {
            "quarter" => QUARTER_WALL,
            "inner" => INNER_WALL,
            "middle" => MIDDLE_WALL,
            other => panic!("board.toml: wall kind {other}"),
        };
        let fs = pairs(g.get("fields").unwrap());
        let fields = [index[&fs[0]], index[&fs[1]]];
        gates.push(Gate {
            id: g.get("id").unwrap().as_str().unwrap().to_string(),
            wall,
            fields,
            regions: [region[fields[0]], region[fields[1]]],
        });
    }
    let gates_start_open = get(&t, "gates_start.open").as_bool().unwrap();
    let mut gate_at = vec![[-1i8; 6]; n];
    for (gi, g) in gates.iter().enumerate() {
        let [a, b] = g.fields;
        gate_at[a][direction_between(a, b).expect("gate fields are adjacent")] = gi as i8;
        gate_at[b][direction_between(b, a).expect("gate fields are adjacent")] = gi as i8;
    }
    let gates_of_field: Vec<Vec<u8>> = (0..n)
        .map(|f| gates.iter().enumerate().filter(|(_, g)| g.fields.contains(&f)).map(|(i, _)| i as u8).collect())
        .collect();
    let steps: Vec<[Vec<(u8, u16, i8)>; 2]> = (0..n)
        .map(|f| {
            let mk = |zone_c: bool| -> Vec<(u8, u16, i8)> {
                let mut out = Vec::new();
                for d in 0..6 {
                    let nb = neighbours[f][d];
                    if nb >= 0 && in_c[nb as usize] == zone_c && (edge[f][d] == NO_WALL || gate_at[f][d] >= 0) {
                        let g = if edge[f][d] != NO_WALL { gate_at[f][d] } else { -1 };
                        out.push((d as u8, nb as u16, g));
                    }
                }
                out
            };
            [mk(false), mk(true)]
        })
        .collect();
    let fields_at = |path: &str| -> Vec<usize> { pairs(get(&t, path)).iter().map(|c| index[c]).collect() };
    let heaps = fields_at("heaps.fields");
    let trap_fields = fields_at("trap_fields.fields");
    let tower_angles: Vec<i64> = get(&t, "towers.angles").as_array().unwrap().iter().map(int).collect();
    let tower_radius = float(get(&t, "towers.radius"));
    let n_halves = int(get(&t, "halves.count")) as usize;
    let half_opposite = int(get(&t, "halves.opposite_offset")) as usize;
    let deploy_c: Vec<Vec<usize>> = (0..nq).map(|k| fields_at(&format!("deployment.I{k}.c_side"))).collect();
    let deploy_r1: Vec<Vec<usize>> = (0..nq).map(|k| fields_at(&format!("deployment.I{k}.r1_side"))).collect();

    let basis_a = pair(get(&t, "blocks.basis_a"));
    let basis_b = pair(get(&t, "blocks.basis_b"));
    let block: Vec<(i32, i32)> = coords.iter().map(|&(q, r)| block_of_coords_with(basis_a, basis_b, q, r)).collect();
    let mut blocks: Vec<(i32, i32)> = block.clone();
    blocks.sort_by_key(|&(a, b)| (b, a));
    blocks.dedup();
    let block_index: HashMap<(i32, i32), usize> = blocks.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let block_id: Vec<u16> = block.iter().map(|b| block_index[b] as u16).collect();
    let block_dist: Vec<Vec<u8>> = blocks
        .iter()
        .map(|&(a1, b1)| blocks.iter().map(|&(a2, b2)| hex_distance(a1, b1, a2, b2) as u8).collect())
        .collect();
    let mut fields_of_block: Vec<Vec<u16>> = vec![Vec::new(); blocks.len()];
    for f in 0..n {
        fields_of_block[block_id[f] as usize].push(f as u16);
    }
    let nudge_v: Vec<f64> = get(&t, "line_of_fire.nudge").as_array().unwrap().iter().map(float).collect();
    let nudge: [f64; 3] = nudge_v.try_into().expect("a nudge of three numbers");
    Board {
        dirs,
        deltas,
        zone_max,
        quarter_offset,
        nq,
        capacity,
        coords,
        index,
        zone,
        quarter,
        region,
        in_c,
        neighbours,
        edge,
        gates,
        gates_start_open,
        gate_at,
        gates_of_field,
        steps,
        heaps,
        trap_fields,
        tower_angles,
        tower_radius,
        n_halves,
        half_opposite,
        deploy_c,
        deploy_r1,
        basis_a,
        basis_b,
        block,
        blocks,
        block_id,
        block_dist,
        fields_of_block,
        nudge,
    }
}

/// The block (a, b) of a field (Python `block_of_coords`): the one flower whose centre
/// a * basis_a + b * basis_b is within distance 1.
fn block_of_coords_with(ba: (i32, i32), bb: (i32, i32), q: i32, r: i32) -> (i32, i32) {
    let det = (ba.0 * bb.1 - bb.0 * ba.1) as f64;
    let fa = (q * bb.1 - r * bb.0) as f64 / det;
    let fb = (r * ba.0 - q * ba.1) as f64 / det;
    let mut found = Vec::new();
    for a in (fa.floor() as i32 - 1)..(fa.ceil() as i32 + 2) {
        for b in (fb.floor() as i32 - 1)..(fb.ceil() as i32 + 2) {
            let (cq, cr) = (a * ba.0 + b * bb.0, a * ba.1 + b * bb.1);
            if hex_distance(q, r, cq, cr) <= 1 {
                found.push((a, b));
            }
        }
    }
    assert!(found.len() == 1, "field ({q}, {r}) lies in {} blocks", found.len());
    found[0]
}

impl Board {
    pub fn n_fields(&self) -> usize {
        self.coords.len()
    }

    pub fn n_regions(&self) -> usize {
        1 + 2 * self.nq
    }

    pub fn field_name(&self, f: usize) -> String {
        let (q, r) = self.coords[f];
        format!("{q},{r}")
    }

    /// `q,r` to a field (Python `parse_field`: int() forgives surrounding spaces and a sign).
    pub fn parse_field(&self, text: &str) -> Option<usize> {
        let mut parts = text.split(',');
        let (a, b) = (parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        let q: i32 = a.trim().parse().ok()?;
        let r: i32 = b.trim().parse().ok()?;
        self.index.get(&(q, r)).copied()
    }

    pub fn block_of_coords(&self, q: i32, r: i32) -> (i32, i32) {
        block_of_coords_with(self.basis_a, self.basis_b, q, r)
    }

    pub fn direction_between(&self, a: usize, b: usize) -> i32 {
        self.neighbours[a].iter().position(|&x| x == b as i32).map_or(-1, |d| d as i32)
    }

    pub fn distance(&self, a: usize, b: usize) -> i32 {
        let (qa, ra) = self.coords[a];
        let (qb, rb) = self.coords[b];
        hex_distance(qa, ra, qb, rb)
    }

    pub fn gate_between(&self, a: usize, b: usize) -> i32 {
        let d = self.direction_between(a, b);
        if d >= 0 {
            self.gate_at[a][d as usize] as i32
        } else {
            -1
        }
    }

    /// the trap number (1-8) whose activation field f is, or 0
    pub fn trap_number_at(&self, f: usize) -> u8 {
        self.trap_fields.iter().position(|&x| x == f).map_or(0, |i| i as u8 + 1)
    }

    pub fn half_quarters(&self, k: usize) -> (usize, usize) {
        (k % self.nq, (k + 1) % self.nq)
    }

    pub fn opposite_half(&self, k: usize) -> usize {
        (k + self.half_opposite) % self.n_halves
    }

    pub fn block_distance(&self, a: usize, b: usize) -> u8 {
        self.block_dist[self.block_id[a] as usize][self.block_id[b] as usize]
    }

    /// Every field whose block is within block distance d of f's block, ascending.
    pub fn fields_within_blocks(&self, f: usize, d: u8) -> Vec<u16> {
        let row = &self.block_dist[self.block_id[f] as usize];
        let mut out: Vec<u16> = Vec::new();
        for (bi, &bd) in row.iter().enumerate() {
            if bd <= d {
                out.extend_from_slice(&self.fields_of_block[bi]);
            }
        }
        out.sort_unstable();
        out
    }

    pub fn rotate180(&self, f: usize) -> usize {
        let (q, r) = self.coords[f];
        self.index[&(-q, -r)]
    }

    /// The fields of a one-block area around centre c (20.1.13): the fields within distance 1 in
    /// c's region, and gate fields within that distance whose open gate joins c's region.
    pub fn area_fields(&self, c: usize, gate_open: &[bool]) -> Vec<u16> {
        let reg = self.region[c];
        let mut out = vec![c as u16];
        for &nb in &self.neighbours[c] {
            if nb < 0 {
                continue;
            }
            let nb = nb as usize;
            if self.region[nb] == reg {
                out.push(nb as u16);
                continue;
            }
            if self.gates_of_field[nb]
                .iter()
                .any(|&g| gate_open[g as usize] && self.gates[g as usize].regions.contains(&reg))
            {
                out.push(nb as u16);
            }
        }
        out.sort_unstable();
        out
    }

    /// Region membership (V9.9): the field's region, plus the far side of every open gate it touches.
    pub fn regions_of(&self, f: usize, gate_open: &[bool]) -> Vec<u8> {
        let mut out = vec![self.region[f]];
        for &g in &self.gates_of_field[f] {
            if gate_open[g as usize] {
                for &reg in &self.gates[g as usize].regions {
                    if !out.contains(&reg) {
                        out.push(reg);
                    }
                }
            }
        }
        out
    }

    /// The axial coordinates L0 = a .. LN = b of the line between two fields (20.1.10), as
    /// Python's `hex_line` (round half to even, as Python's `round`).
    pub fn hex_line(&self, a: usize, b: usize) -> Vec<(i32, i32)> {
        let (qa, ra) = self.coords[a];
        let (qb, rb) = self.coords[b];
        let n = hex_distance(qa, ra, qb, rb);
        if n == 0 {
            return vec![(qa, ra)];
        }
        let nu = self.nudge;
        let (ax, ay, az) = (qa as f64 + nu[0], (-qa - ra) as f64 + nu[1], ra as f64 + nu[2]);
        let (bx, by, bz) = (qb as f64 + nu[0], (-qb - rb) as f64 + nu[1], rb as f64 + nu[2]);
        (0..=n)
            .map(|i| {
                let t = i as f64 / n as f64;
                cube_round(ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t)
            })
            .collect()
    }

    /// The static part of the line of fire from a to b (Python `_make_line`, the same arithmetic).
    pub fn make_line(&self, a: usize, b: usize) -> Line {
        let (qa, ra) = self.coords[a];
        let (qb, rb) = self.coords[b];
        let n = hex_distance(qa, ra, qb, rb);
        if n == 0 {
            return Line::default();
        }
        let nu = self.nudge;
        let (ax, ay, az) = (qa as f64 + nu[0], (-qa - ra) as f64 + nu[1], ra as f64 + nu[2]);
        let (dx, dy, dz) = ((qb as f64 + nu[0]) - ax, ((-qb - rb) as f64 + nu[1]) - ay, (rb as f64 + nu[2]) - az);
        let mut ln = Line::default();
        let mut prev: i32 = a as i32;
        let mut prev_block = self.block[a];
        for i in 1..=n {
            let t = i as f64 / n as f64;
            let (rx, rz) = cube_round(ax + dx * t, ay + dy * t, az + dz * t);
            let f: i32 = self.index.get(&(rx, rz)).map_or(-1, |&x| x as i32);
            let blk = if f < 0 {
                ln.off_board = true;
                self.block_of_coords(rx, rz)
            } else {
                if i < n {
                    ln.middle.push(f as u16);
                }
                self.block[f as usize]
            };
            if blk != prev_block {
                ln.borders += 1;
            }
            if prev >= 0 && f >= 0 {
                let p = prev as usize;
                // Python indexes with -1 (the last direction) when not adjacent; never on a line
                let d = self.neighbours[p].iter().position(|&x| x == f).unwrap_or(5);
                let kind = self.edge[p][d];
                if kind != NO_WALL {
                    ln.walls.push((kind, self.gate_at[p][d]));
                }
            }
            prev = f;
            prev_block = blk;
        }
        ln
    }
}

/// Python `_cube_round`: (q, r) of the hex containing the cube point.
fn cube_round(x: f64, y: f64, z: f64) -> (i32, i32) {
    let (mut rx, ry, mut rz) = (x.round_ties_even(), y.round_ties_even(), z.round_ties_even());
    let (dx, dy, dz) = ((rx - x).abs(), (ry - y).abs(), (rz - z).abs());
    if dx > dy && dx > dz {
        rx = -ry - rz;
    } else if dy > dz {
        // ry would change; only q = x and r = z are kept
    } else {
        rz = -rx - ry;
    }
    (rx as i32, rz as i32)
}

/// Every pair's line, made once (326,041 at 571 fields; about 10 MB).
pub struct Lines {
    n: usize,
    lines: Vec<Line>,
}

impl Lines {
    pub fn new(b: &Board) -> Lines {
        let n = b.n_fields();
        let mut lines = Vec::with_capacity(n * n);
        for a in 0..n {
            for c in 0..n {
                lines.push(b.make_line(a, c));
            }
        }
        Lines { n, lines }
    }

    pub fn get(&self, a: usize, b: usize) -> &Line {
        &self.lines[a * self.n + b]
    }
}

pub static LINES: LazyLock<Lines> = LazyLock::new(|| Lines::new(&BOARD));
