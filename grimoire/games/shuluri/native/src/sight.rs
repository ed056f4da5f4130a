//! Lines of fire with the state applied (C11.3, C11.4, 20.1.10), a port of the Python `sight.py`:
//! gates open or closed, bodies in an open gate, quarter walls; the geometry is `board::LINES`.

use crate::board::{board, Line, LINES, QUARTER_WALL};
use crate::state::Saved;

/// Why a line of fire is blocked (Python `_blocked`'s three messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocked {
    /// the line leaves the arena
    OffBoard,
    /// figure `.0` stands in open gate `.1` with its body
    Body(u8, u8),
    /// a quarter wall (a closed gate in it: `.0`)
    QuarterWall(bool),
}

/// Python `sight.Shot`: the blocking reason, or the counts B, W, L and the intermediate fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shot<'a> {
    pub blocked: Option<Blocked>,
    pub borders: u8,
    pub walls: u8,
    pub in_line: u8,
    pub middle: &'a [u16],
}

/// Python `_blocked` on the line from field a to field b.
pub fn blocked(s: &Saved, ln: &Line, shooter: u8, target: u8, ignore_walls: bool) -> Option<Blocked> {
    if ln.off_board {
        return Some(Blocked::OffBoard);
    }
    if ignore_walls || ln.walls.is_empty() {
        return None;
    }
    let st = &s.state;
    for &(kind, gate) in &ln.walls {
        if gate >= 0 && st.gate_open[gate as usize] {
            let g = &board().gates[gate as usize];
            for f in st.figs.iter().flatten() {
                if f.alive
                    && f.field >= 0
                    && g.fields.contains(&(f.field as usize))
                    && f.sneak == 0
                    && f.id != shooter
                    && f.id != target
                {
                    return Some(Blocked::Body(f.id, gate as u8));
                }
            }
            continue;
        }
        if kind == QUARTER_WALL {
            return Some(Blocked::QuarterWall(gate >= 0));
        }
    }
    None
}

/// Python `line_blocked`: whether the line of fire from a to b is blocked.
pub fn line_blocked(s: &Saved, a: usize, b: usize, shooter: u8, target: u8, ignore_walls: bool) -> bool {
    blocked(s, LINES.get(a, b), shooter, target, ignore_walls).is_some()
}

/// Python `line_of_fire`.
pub fn line_of_fire(s: &Saved, a: usize, b: usize, shooter: u8, target: u8, ignore_walls: bool) -> Shot<'static> {
    let ln = LINES.get(a, b);
    let why = blocked(s, ln, shooter, target, ignore_walls);
    if why.is_some() {
        return Shot { blocked: why, borders: 0, walls: 0, in_line: 0, middle: &ln.middle };
    }
    let st = &s.state;
    let mut walls = 0;
    if !ignore_walls {
        for &(_kind, gate) in &ln.walls {
            if gate < 0 || !st.gate_open[gate as usize] {
                walls += 1;
            }
        }
    }
    let mut in_line = 0;
    if !ln.middle.is_empty() {
        for f in st.figs.iter().flatten() {
            if f.alive && f.sneak == 0 && f.field >= 0 && ln.middle.contains(&(f.field as u16)) {
                in_line += 1;
            }
        }
    }
    Shot { blocked: None, borders: ln.borders, walls, in_line, middle: &ln.middle }
}
