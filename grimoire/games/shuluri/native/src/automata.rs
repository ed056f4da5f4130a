//! Figures the rules move by themselves, a port of the Python `automata.py`: zombies (spell 15, R31)
//! and the victims of Assassin's Madness (spell 28, R35). Each tick carries out one sub-action (an attack, a gate, a one-field move)
//! through the same rule functions as the players' actions, so trap windows and Kiteres interrupt
//! them like any action; the flow calls the tick again until it reports nothing left to do.

use crate::apply::{do_gate, do_move, enemies, fig, fig_mut};
use crate::board::board;
use crate::combat::declare_melee;
use crate::data::data;
use crate::legal::{exposed, gate_ok, may_shoot, melee_ok, ranged_kind};
use crate::rules::{available, has_flag, hostile_fields, mad_enemy, move_options, MOVE_MODES};
use crate::sight::line_blocked;
use crate::state::{Fig, Saved, Scalar};
use grimoire_rng::Rng;
use std::collections::VecDeque;

/// Python `distances`: shortest legal paths from f's field, field -> (distance, first direction).
/// Full fields are reached but not passed through (V9.5); gates only while open (or, with
/// `open_gates`, while not jammed).
fn distances(s: &Saved, f: &Fig, open_gates: bool) -> Vec<Option<(i64, i64)>> {
    let b = board();
    let st = &s.state;
    let start = f.field as usize;
    let mut out: Vec<Option<(i64, i64)>> = vec![None; b.n_fields()];
    out[start] = Some((0, -1));
    let mut counts = vec![0usize; b.n_fields()];
    for g in st.figs.iter().flatten() {
        if g.alive && g.field >= 0 {
            counts[g.field as usize] += 1;
        }
    }
    let zone = crate::rules::is_gladiator(f) as usize;
    let mut q = VecDeque::from([start]);
    while let Some(a) = q.pop_front() {
        let (dist, first) = out[a].expect("a reached field");
        if a != start && counts[a] >= b.capacity {
            continue;
        }
        for &(d, n, g) in &b.steps[a][zone] {
            let n = n as usize;
            if out[n].is_some() {
                continue;
            }
            if g >= 0 && !st.gate_open[g as usize] && !(open_gates && st.gate_jam[g as usize] < st.round) {
                continue;
            }
            out[n] = Some((dist + 1, if a == start { d as i64 } else { first }));
            q.push_back(n);
        }
    }
    out
}

fn no_man(s: &Saved, f: &Fig) -> bool {
    f.cur_no_man || has_flag(s, f, "no_man")
}

fn in_melee(s: &Saved, f: &Fig) -> bool {
    s.state.figs.iter().flatten().any(|g| g.alive && g.field == f.field && g.id != f.id && enemies(s, g.seat, f.seat))
}

/// Python `shot_reason` is None.
fn shot_ok(s: &Saved, a: &Fig, t: &Fig) -> bool {
    let d = data();
    let wk = ranged_kind(a);
    if wk.is_empty() || !t.alive || t.field < 0 || t.id == a.id || !may_shoot(s, a) || a.ammo <= 0 {
        return false;
    }
    let mad = mad_enemy(s, a);
    if (mad >= 0 && t.id as i64 != mad) || (mad < 0 && !enemies(s, a.seat, t.seat)) || t.field == a.field {
        return false;
    }
    let range = d.ranged_range.iter().find(|(k, _)| k == wk).map_or(-1, |(_, r)| *r);
    let bd = board().block_distance(a.field as usize, t.field as usize) as i64;
    if bd > range || (t.sneak > 0 && bd > d.skills.sneaking.max_block_distance_to_target) {
        return false;
    }
    if !exposed(s, t, wk) && !s.options.allow_futile_ranged {
        return false;
    }
    d.cost.attack <= available(s, a) && !line_blocked(s, a.field as usize, t.field as usize, a.id, t.id, false)
}

/// Python `move_reason` is None: the move is among those the listing offers.
fn move_ok(s: &Saved, f: &Fig, dir: usize, mode: &str) -> bool {
    let mut counts = vec![0u8; board().n_fields()];
    for g in s.state.figs.iter().flatten() {
        if g.alive && g.field >= 0 {
            counts[g.field as usize] += 1;
        }
    }
    let hostile = hostile_fields(s, s.state.alliance[f.seat as usize]);
    let mut steps = Vec::new();
    move_options(s, f, &counts, false, &hostile, available(s, f), &mut steps);
    steps.iter().any(|m| m.dir as usize == dir && MOVE_MODES[m.mode as usize] == mode)
}

/// Python `madman_tick`: one sub-action of the first named madman with something left to do.
pub fn madman_tick(s: &mut Saved) -> Result<bool, String> {
    let named = s.state.named.clone();
    for cid in named {
        let v = fig(s, cid as usize);
        if !v.alive || mad_enemy(s, v) < 0 || v.zdone {
            continue;
        }
        if madman_act(s, cid as usize)? {
            return Ok(true);
        }
        fig_mut(s, cid as usize).zdone = true;
    }
    Ok(false)
}

fn madman_act(s: &mut Saved, id: usize) -> Result<bool, String> {
    let v = fig(s, id);
    let e = fig(s, mad_enemy(s, v) as usize);
    if !e.alive || e.field < 0 || no_man(s, v) || available(s, v) <= 0 {
        return Ok(false);
    }
    let eid = e.id as usize;
    if melee_ok(s, v, e, 0) {
        declare_melee(s, id, eid, "")?;
        return Ok(true);
    }
    if shot_ok(s, v, e) {
        crate::shots::declare_shot(s, id, eid)?;
        return Ok(true);
    }
    if v.attacked || v.down || v.stopped {
        return Ok(false);
    }
    let dist = distances(s, v, true);
    let Some((_, d)) = dist[e.field as usize] else { return Ok(false) };
    if e.field == v.field {
        return Ok(false);
    }
    let d = d as usize;
    let g = board().gate_at[v.field as usize][d];
    if g >= 0 && !s.state.gate_open[g as usize] {
        if gate_ok(s, v, g as usize, true) {
            do_gate(s, id, g as usize, true)?;
            return Ok(true);
        }
        return Ok(false);
    }
    let mode = if in_melee(s, v) { "disengage" } else { "move" };
    if move_ok(s, v, d, mode) {
        do_move(s, id, d, mode)?;
        return Ok(true);
    }
    Ok(false)
}

// --- zombies --------------------------------------------------------------------------------------------
/// Python `zombie_tick`: one sub-action of the first zombie acting now with something left to do.
pub fn zombie_tick(s: &mut Saved) -> Result<bool, String> {
    for z in crate::flow::zombies_now(s) {
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

/// Python `_zombie_goal`: (destination field or -1, the figures it attacks on its field). An order
/// carried out or void is forgotten; without one the nearest person (then the weakest; a tie drawn).
fn zombie_goal(s: &mut Saved, zid: usize) -> (i64, Vec<usize>) {
    let z = fig(s, zid);
    if let Some([Scalar::Str(kind), Scalar::Int(arg)]) = z.order.as_deref() {
        let arg = *arg;
        match kind.as_str() {
            "goto" if z.field == arg => fig_mut(s, zid).order = None,
            "goto" => return (arg, Vec::new()),
            "guard" => {
                let foes =
                    s.state.figs.iter().flatten().filter(|g| g.alive && g.field == arg && enemies(s, g.seat, z.seat));
                return (arg, foes.map(|g| g.id as usize).collect());
            }
            "attack" => {
                let t = fig(s, arg as usize);
                if t.alive && t.field >= 0 {
                    return (t.field, vec![t.id as usize]);
                }
                fig_mut(s, zid).order = None;
            }
            _ => {}
        }
    }
    let z = fig(s, zid);
    let dist = distances(s, z, false);
    let mut best: Option<(i64, i64)> = None;
    let mut ties: Vec<&Fig> = Vec::new();
    for p in s.state.figs.iter().flatten() {
        if !p.alive || p.field < 0 || p.id == z.id || p.id as i64 == z.creator {
            continue;
        }
        let Some((d, _)) = dist[p.field as usize] else { continue };
        let key = (d, p.ep);
        if best.is_none_or(|b| key < b) {
            best = Some(key);
            ties = vec![p];
        } else if best == Some(key) {
            ties.push(p);
        }
    }
    let ties: Vec<(i64, usize)> = ties.iter().map(|p| (p.field, p.id as usize)).collect();
    let pick = match ties.len() {
        0 => return (-1, Vec::new()),
        1 => ties[0],
        n => {
            let mut r = Rng::from_state(s.rng);
            let i = r.below(n as u64) as usize;
            s.rng = r.state;
            ties[i]
        }
    };
    (pick.0, vec![pick.1])
}

fn zombie_act(s: &mut Saved, zid: usize) -> Result<bool, String> {
    let (b, d) = (board(), data());
    let z = fig(s, zid);
    if no_man(s, z) || z.down {
        return Ok(false);
    }
    let have = available(s, z);
    let (dest, foes) = zombie_goal(s, zid);
    let z = fig(s, zid);
    if !z.attacked && have >= d.cost.attack {
        let on =
            s.state.figs.iter().flatten().find(|g| g.alive && g.field == z.field && foes.contains(&(g.id as usize)));
        if let Some(g) = on {
            declare_melee(s, zid, g.id as usize, "")?;
            return Ok(true);
        }
    }
    if dest < 0 || dest == z.field || z.zfields >= d.zombie_fields || z.stopped {
        return Ok(false);
    }
    let Some((_, dir)) = distances(s, z, false)[dest as usize] else { return Ok(false) };
    let dir = dir as usize;
    let a = z.field as usize;
    let n = b.neighbours[a][dir] as i64;
    let melee = in_melee(s, z);
    let cost = d.cost.move_ + if melee { d.cost.disengage } else { 0 };
    let living = |f: i64| s.state.figs.iter().flatten().filter(|g| g.alive && g.field == f).count();
    let occupied = living(n) > 0;
    if cost > have || (occupied && have - cost < d.cost.attack) || (melee && z.attacked) {
        return Ok(false);
    }
    let edge_ok = n >= 0
        && (b.edge[a][dir] == crate::board::NO_WALL || {
            let g = b.gate_at[a][dir];
            g >= 0 && s.state.gate_open[g as usize]
        });
    if !edge_ok || living(n) >= b.capacity {
        return Ok(false);
    }
    fig_mut(s, zid).zfields += 1;
    do_move(s, zid, dir, if melee { "disengage" } else { "move" })?;
    Ok(true)
}
