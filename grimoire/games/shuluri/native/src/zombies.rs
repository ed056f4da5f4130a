//! Zombies acting (spell 15, R31), a port of the Python `automata.py`'s zombie half: in its creator's
//! steps a raised zombie follows its order (go to a field, guard one, attack a figure) or else makes
//! for the nearest living person (the weakest among the nearest; ties by the state's RNG), one
//! atomic sub-action per tick through the players' rule functions (`do_move`, `declare_melee`), so
//! trap windows and Kiteres interrupt it like any move. `distances` is the madman's path finder too.

use crate::apply::{do_move, enemies, fig, fig_mut};
use crate::board::board;
use crate::combat::declare_melee;
use crate::data::data;
use crate::flow::zombies_now;
use crate::legal::edge_to;
use crate::rules::{available, has_flag, is_gladiator};
use crate::state::{Fig, Saved, Scalar};
use grimoire_rng::Rng;
use std::collections::VecDeque;

/// Shortest legal paths from f's field (Python `distances`): per field (distance, first direction),
/// distance -1 where unreachable. Full fields are reached as destinations but not passed through
/// (V9.5); gates are crossed while open (or, with `open_gates`, while not jammed).
pub fn distances(s: &Saved, f: &Fig, open_gates: bool) -> Vec<(i32, i8)> {
    let b = board();
    let st = &s.state;
    let mut counts = vec![0usize; b.n_fields()];
    for g in st.figs.iter().flatten().filter(|g| g.alive && g.field >= 0) {
        counts[g.field as usize] += 1;
    }
    let start = f.field as usize;
    let zone = is_gladiator(f) as usize;
    let mut out = vec![(-1i32, -1i8); b.n_fields()];
    out[start] = (0, -1);
    let mut q = VecDeque::from([start]);
    while let Some(a) = q.pop_front() {
        let (dist, first) = out[a];
        if a != start && counts[a] >= b.capacity {
            continue;
        }
        for &(d, n, g) in &b.steps[a][zone] {
            let n = n as usize;
            if out[n].0 >= 0 {
                continue;
            }
            if g >= 0 && !st.gate_open[g as usize] && !(open_gates && st.gate_jam[g as usize] < st.round) {
                continue;
            }
            out[n] = (dist + 1, if a == start { d as i8 } else { first });
            q.push_back(n);
        }
    }
    out
}

/// Python `zombie_tick`: one sub-action of the first zombie that has one; false when all are done.
pub fn zombie_tick(s: &mut Saved) -> Result<bool, String> {
    for z in zombies_now(s) {
        if fig(s, z).zdone {
            continue;
        }
        if zombie_act(s, z)? {
            return Ok(true);
        }
        fig_mut(s, z).zdone = true;
    }
    Ok(false)
}

fn on_field(s: &Saved, field: i64) -> impl Iterator<Item = &Fig> {
    s.state.figs.iter().flatten().filter(move |g| g.alive && g.field == field)
}

/// Python `_zombie_goal`: the destination field (-1: none) and the figures it attacks there. An
/// order reached or whose target is gone is dropped.
fn zombie_goal(s: &mut Saved, z: usize) -> (i64, Vec<usize>) {
    let (zfield, zseat) = (fig(s, z).field, fig(s, z).seat);
    if let Some([Scalar::Str(kind), Scalar::Int(arg)]) = fig(s, z).order.clone().as_deref() {
        match kind.as_str() {
            "goto" if zfield != *arg => return (*arg, vec![]),
            "guard" => {
                let foes = on_field(s, *arg).filter(|g| enemies(s, g.seat, zseat)).map(|g| g.id as usize).collect();
                return (*arg, foes);
            }
            "attack" if fig(s, *arg as usize).alive && fig(s, *arg as usize).field >= 0 => {
                return (fig(s, *arg as usize).field, vec![*arg as usize]);
            }
            _ => fig_mut(s, z).order = None,
        }
    }
    let zf = fig(s, z);
    let dist = distances(s, zf, false);
    let mut best: Option<(i32, i64)> = None;
    let mut ties: Vec<usize> = Vec::new();
    for p in s.state.figs.iter().flatten() {
        if !p.alive || p.field < 0 || p.id == zf.id || p.id as i64 == zf.creator {
            continue;
        }
        let d = dist[p.field as usize].0;
        if d < 0 {
            continue;
        }
        let key = (d, p.ep);
        if best.is_none_or(|b| key < b) {
            best = Some(key);
            ties = vec![p.id as usize];
        } else if best == Some(key) {
            ties.push(p.id as usize);
        }
    }
    let pick = match ties.len() {
        0 => return (-1, vec![]),
        1 => ties[0],
        n => {
            let mut r = Rng::from_state(s.rng);
            let i = r.below(n as u64) as usize;
            s.rng = r.state;
            ties[i]
        }
    };
    (fig(s, pick).field, vec![pick])
}

/// Python `_zombie_act`: attack a foe on its field, else one field towards the goal; false when it
/// has nothing (more) to do this step.
fn zombie_act(s: &mut Saved, z: usize) -> Result<bool, String> {
    let d = data();
    let zf = fig(s, z);
    if zf.cur_no_man || has_flag(s, zf, "no_man") || zf.down {
        return Ok(false);
    }
    let have = available(s, zf);
    let (dest, foes) = zombie_goal(s, z);
    let zf = fig(s, z);
    if !zf.attacked && have >= d.cost.attack {
        let foe = on_field(s, zf.field).map(|g| g.id as usize).find(|id| foes.contains(id));
        if let Some(t) = foe {
            declare_melee(s, z, t, "")?;
            return Ok(true);
        }
    }
    if dest < 0 || dest == zf.field || zf.zfields >= d.zombie_fields || zf.stopped {
        return Ok(false);
    }
    let dist = distances(s, zf, false);
    if dist[dest as usize].0 < 0 {
        return Ok(false);
    }
    let dir = dist[dest as usize].1 as usize;
    let n = board().neighbours[zf.field as usize][dir] as i64;
    let melee = on_field(s, zf.field).any(|g| g.id != zf.id && enemies(s, g.seat, zf.seat));
    // the reference checks one field's MAN (cost.move) before do_move charges the move's real cost
    let cost = d.cost.move_ + if melee { d.cost.disengage } else { 0 };
    let occupied = on_field(s, n).next().is_some();
    if cost > have || (occupied && have - cost < d.cost.attack) || (melee && zf.attacked) {
        return Ok(false);
    }
    if edge_to(s, zf.field, dir).is_none() || on_field(s, n).count() >= board().capacity {
        return Ok(false);
    }
    fig_mut(s, z).zfields += 1;
    do_move(s, z, dir, if melee { "disengage" } else { "move" })?;
    Ok(true)
}
