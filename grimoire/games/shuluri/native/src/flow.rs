//! The flow of the game, a port of the Python `flow.py`: after every action `advance` moves the game
//! on while nobody has to decide (the setup phases, starting a step, naming when there is no choice,
//! ending steps and rounds, the end of the game). Each function carries the Python function's name
//! and does the same steps in the same order (the same d10s). Where the reference would run a part
//! that is not ported yet (madmen and zombies acting, Firestorm's blasts) it answers `not ported`.

use crate::apply::{d10, fig, fig_mut, log, name, not_ported, pop, push, push_many, Res};
use crate::board::board;
use crate::data::{data, GL};
use crate::rules::mad_enemy;
use crate::state::{Decision, Kind, Payload, Phase, Saved, Scalar, StepKind, Sub};
use serde_json::json;

fn decision(kind: Kind, seat: u8, payload: Option<Payload>) -> Decision {
    Decision { kind, seat, payload }
}

pub fn advance(s: &mut Saved) -> Res {
    let mut guard = 0;
    while s.state.phase != Phase::Over {
        guard += 1;
        if guard > 100_000 {
            return Err("the flow does not settle".into());
        }
        if let Some(top) = s.state.stack.first() {
            if stale(s, &top.clone())? {
                pop(s);
                continue;
            }
            return Ok(());
        }
        if s.state.phase == Phase::Setup {
            setup_next(s)?;
        } else {
            play_next(s)?;
        }
    }
    Ok(())
}

fn payload_int(d: &Decision, i: usize) -> i64 {
    match &d.payload {
        Some(Payload::Int(v)) if i == 0 => *v,
        Some(Payload::List(l)) => match l.get(i) {
            Some(Scalar::Int(v)) => *v,
            _ => -1,
        },
        _ => -1,
    }
}

/// The kinds' `stale`: the decision no longer makes sense (a figure it is about died).
fn stale(s: &Saved, d: &Decision) -> Result<bool, String> {
    let alive = |i: usize| payload_int(d, i) >= 0 && fig(s, payload_int(d, i) as usize).alive;
    Ok(match d.kind {
        Kind::React | Kind::Enemy | Kind::Order => !alive(0),
        Kind::Effect => !alive(1),
        Kind::Push => !(alive(0) && alive(1)),
        Kind::Shove => crate::traps::shove_stale(s, d),
        Kind::Chain => return crate::magic::chain_stale(s, d),
        _ => false,
    })
}

// --- setup (5) ------------------------------------------------------------------------------------------
fn setup_next(s: &mut Saved) -> Res {
    match s.state.sub {
        Sub::Start => not_ported("dealing (a new game starts in Python)"),
        Sub::Secret => {
            if s.players == 2 {
                roll_for_side(s);
                s.state.sub = Sub::Side;
            } else {
                place_four(s);
                push_weapons(s);
            }
            Ok(())
        }
        Sub::Side => {
            push_weapons(s);
            Ok(())
        }
        Sub::Weapon => {
            let ds = s.state.order.iter().map(|&seat| decision(Kind::Deploy, seat, None)).collect();
            push_many(s, ds);
            s.state.sub = Sub::Deploy;
            Ok(())
        }
        Sub::Deploy => {
            start_play(s);
            Ok(())
        }
        _ => Err(format!("corrupt saved game: setup at {:?}", s.state.sub)),
    }
}

/// S5.5: both roll a d10, ties roll again; the higher roll chooses side or first step.
fn roll_for_side(s: &mut Saved) {
    let (r0, r1) = loop {
        let (r0, r1) = (d10(s), d10(s));
        log(s, "side_roll", None, json!({"player": 0, "roll": r0, "player2": 1, "roll2": r1}));
        if r0 != r1 {
            break (r0, r1);
        }
    };
    s.state.teams[0].roll = r0;
    s.state.teams[1].roll = r1;
    let chooser = if r0 > r1 { 0 } else { 1 };
    push(s, decision(Kind::Side, chooser, Some(Payload::Int(1))));
}

fn gate_index(id: &str) -> u8 {
    board().gates.iter().position(|g| g.id == id).expect("an inner gate per quarter") as u8
}

/// 20.1.11: the chooser takes half k, the opponent half k+2; inner gates, heaps, tower follow.
pub fn set_half(s: &mut Saved, seat: usize, half: usize) {
    let b = board();
    let heaps2 = s.options.heaps_per_gladiator == 2;
    for (st, h) in [(seat, half), (1 - seat, b.opposite_half(half))] {
        let t = &mut s.state.teams[st];
        let (q0, q1) = b.half_quarters(h);
        t.half = h as i64;
        t.quarters = vec![q0 as u8, q1 as u8];
        t.inner_gates = vec![gate_index(&format!("I{q0}")), gate_index(&format!("I{q1}"))];
        t.heaps =
            if heaps2 { vec![b.heaps[h] as u16, b.heaps[(h + 1) % b.nq] as u16] } else { vec![b.heaps[h] as u16] };
    }
}

fn place_four(s: &mut Saved) {
    let d = data();
    let mode = &d.modes.iter().find(|(k, _)| *k == s.options.mode).expect("a four-player mode").1;
    for (seat, t) in s.state.teams.iter_mut().enumerate() {
        let q = mode.quarter_of_seat[seat];
        t.quarters = vec![q as u8];
        t.inner_gates = vec![gate_index(&format!("I{q}"))];
        t.heaps = vec![board().heaps[q] as u16];
    }
}

fn push_weapons(s: &mut Saved) {
    let ds = (0..s.players).map(|seat| decision(Kind::Weapon, seat, None)).collect();
    push_many(s, ds);
    s.state.sub = Sub::Weapon;
}

/// The fields where a seat deploys a role (Python `deploy_fields`), ascending.
pub fn deploy_fields(s: &Saved, seat: usize, role: usize) -> Vec<usize> {
    let b = board();
    let mut out = Vec::new();
    for &g in &s.state.teams[seat].inner_gates {
        let q: usize = b.gates[g as usize].id[1..].parse().expect("an inner gate's quarter");
        out.extend_from_slice(if role == GL { &b.deploy_c[q] } else { &b.deploy_r1[q] });
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn start_play(s: &mut Saved) {
    let st = &mut s.state;
    st.phase = Phase::Play;
    st.round = 1;
    if s.players == 2 {
        let first = st.first as u8;
        st.order = vec![first, 1 - first];
    }
    let mut sched = Vec::new();
    for kind in [StepKind::Pair1, StepKind::Pair2, StepKind::Glad] {
        sched.extend(st.order.iter().map(|&seat| (seat, kind)));
    }
    st.sched = sched;
    st.step_i = 0;
    st.sub = Sub::Start;
    st.started = true;
    if s.options.weapon_reveal == "first_step" {
        for t in st.teams.iter_mut() {
            t.weapon_shown = true;
        }
        st.reveals += 1;
    }
    log(s, "round", None, json!({"n": 1}));
}

// --- steps (6, 7) -------------------------------------------------------------------------------------------
/// F6.3, F6.4 (Python `naming_options`): two characters (all that remain if fewer), not yet named
/// this round in the player's second step; with allow_single_naming also one.
pub fn naming_options(s: &Saved, seat: usize, kind: StepKind) -> Vec<Vec<u8>> {
    let elig: Vec<u8> = (0..5u8)
        .filter(|&role| {
            let f = fig(s, seat * 5 + role as usize);
            role as usize != GL && f.alive && (kind == StepKind::Pair1 || !f.named)
        })
        .collect();
    let k = (data().names_per_step as usize).min(elig.len());
    let mut opts: Vec<Vec<u8>> = Vec::new();
    match k {
        0 => return opts,
        1 => opts.extend(elig.iter().map(|&r| vec![r])),
        2 => {
            for i in 0..elig.len() {
                for j in i + 1..elig.len() {
                    opts.push(vec![elig[i], elig[j]]);
                }
            }
        }
        _ => unreachable!("two names per step"),
    }
    if s.options.allow_single_naming && k > 1 {
        opts.extend(elig.iter().map(|&r| vec![r]));
    }
    opts
}

fn play_next(s: &mut Saved) -> Res {
    match s.state.sub {
        Sub::Start => begin_step(s),
        Sub::Mad => {
            if madman_tick(s)? {
                return Ok(());
            }
            if !s.state.named.is_empty() {
                let seat = s.state.active as u8;
                push(s, decision(Kind::Act, seat, None));
                s.state.sub = Sub::Act;
            } else {
                s.state.sub = Sub::Zomb;
            }
            Ok(())
        }
        Sub::Act => {
            s.state.sub = Sub::Zomb;
            Ok(())
        }
        Sub::Zomb => {
            if zombie_tick(s)? {
                return Ok(());
            }
            end_step(s);
            Ok(())
        }
        _ => Err(format!("corrupt saved game: play at {:?}", s.state.sub)),
    }
}

fn madman_tick(s: &mut Saved) -> Result<bool, String> {
    crate::automata::madman_tick(s)
}

/// A zombie acts in its creator's steps; with its creator dead, in its owner's first step (R31).
fn zombie_acts_now(s: &Saved, z: &crate::state::Fig) -> bool {
    let st = &s.state;
    if !z.alive || z.seat as i64 != st.active {
        return false;
    }
    let kind = st.sched[st.step_i as usize].1;
    if kind == StepKind::Glad {
        return false;
    }
    let creator = fig(s, z.creator as usize);
    if creator.alive {
        st.named.contains(&creator.id)
    } else {
        kind == StepKind::Pair1
    }
}

pub fn zombies_now(s: &Saved) -> Vec<usize> {
    let n5 = 5 * s.players as usize;
    (n5..s.state.figs.len()).filter(|&i| s.state.figs[i].as_ref().is_some_and(|z| zombie_acts_now(s, z))).collect()
}

fn zombie_tick(s: &mut Saved) -> Result<bool, String> {
    crate::automata::zombie_tick(s)
}

fn begin_step(s: &mut Saved) -> Res {
    if s.state.step_i as usize >= s.state.sched.len() {
        return end_round(s);
    }
    let (seat, kind) = s.state.sched[s.state.step_i as usize];
    let st = &mut s.state;
    st.active = seat as i64;
    st.named = vec![];
    st.pool = 0;
    st.gpool = 0;
    for t in st.teams.iter_mut() {
        t.react_off = false;
    }
    if st.teams[seat as usize].out {
        st.step_i += 1;
        return Ok(());
    }
    if kind == StepKind::Glad {
        let g = seat * 5 + GL as u8;
        st.named = vec![g];
        st.gpool = data().man.gladiator;
        start_acting(s, &[g as usize]);
        s.state.sub = Sub::Mad;
        return Ok(());
    }
    let opts = naming_options(s, seat as usize, kind);
    if opts.len() > 1 {
        push(s, decision(Kind::Name, seat, None));
        s.state.sub = Sub::Name;
        return Ok(());
    }
    let roles = opts.into_iter().next().unwrap_or_default();
    name_figures(s, &roles);
    Ok(())
}

/// F6.3 (Python `name`): the named characters act; the step pool is min(6, 3 x named) (M7.6).
pub fn name_figures(s: &mut Saved, roles: &[u8]) {
    let seat = s.state.active as usize;
    let ids: Vec<usize> = roles.iter().map(|&r| seat * 5 + r as usize).collect();
    for &i in &ids {
        fig_mut(s, i).named = true;
    }
    s.state.named = ids.iter().map(|&i| i as u8).collect();
    let man = &data().man;
    s.state.pool = man.step_pool.min(man.per_character * ids.len() as i64);
    if !ids.is_empty() {
        let figs: Vec<String> = ids.iter().map(|&i| name(s, i)).collect();
        log(s, "names", None, json!({"player": seat, "figs": figs, "n": s.state.pool}));
    }
    start_acting(s, &ids);
    let zs = zombies_now(s);
    for &z in &zs {
        start_figure(s, z);
    }
    if ids.is_empty() && zs.is_empty() {
        s.state.step_i += 1;
        s.state.sub = Sub::Start;
        return;
    }
    s.state.sub = Sub::Mad;
}

fn start_acting(s: &mut Saved, ids: &[usize]) {
    for &i in ids {
        start_figure(s, i);
        let f = fig(s, i);
        if f.debt != 0 {
            let glad = crate::rules::is_gladiator(f);
            let take = f.debt.min(if glad { s.state.gpool } else { s.state.pool });
            if glad {
                s.state.gpool -= take;
            } else {
                s.state.pool -= take;
            }
            let who = name(s, i);
            log(s, "pays_debt", None, json!({"fig": who, "n": take}));
            fig_mut(s, i).debt = 0;
        }
    }
}

/// A figure begins acting: per-step flags reset; 'next step' effects take hold (D7.4); sneaking
/// and the Golden Bell end (20.4, W18.3).
fn start_figure(s: &mut Saved, i: usize) {
    let mad = mad_enemy(s, fig(s, i)) >= 0;
    let f = fig_mut(s, i);
    f.attacked = false;
    f.disengaged = false;
    f.casts = 0;
    f.cast_other = false;
    f.ordered = false;
    f.zdone = false;
    f.moved = 0;
    f.entered = false;
    f.stopped = false;
    f.running = false;
    f.run_credit = 0;
    f.aim = false;
    f.spent = 0;
    f.must_attack = false;
    f.sneak = 0;
    if crate::rules::is_gladiator(f) {
        f.bell = false;
    }
    f.cur_no_man = f.next_no_man || f.netted;
    f.cur_limit = f.next_limit;
    f.cur_double = f.next_double;
    f.next_no_man = false;
    f.next_limit = -1;
    f.next_double = false;
    f.netted = false;
    if mad {
        f.mad_man = data().man.madness_per_step;
    }
}

fn end_step(s: &mut Saved) {
    let named = s.state.named.clone();
    for cid in named {
        let f = fig_mut(s, cid as usize);
        f.cur_no_man = false;
        f.cur_limit = -1;
        f.cur_double = false;
        f.mad_man = 0;
    }
    for z in zombies_now(s) {
        let f = fig_mut(s, z);
        f.cur_no_man = false;
        f.cur_limit = -1;
        f.cur_double = false;
    }
    s.state.pool = 0;
    s.state.gpool = 0;
    s.state.step_i += 1;
    s.state.sub = Sub::Start;
}

// --- the end of the round (F6.7) ---------------------------------------------------------------------------
fn end_round(s: &mut Saved) -> Res {
    let rnd = s.state.round;
    crate::magic::firestorm_blasts(s);
    if s.state.phase == Phase::Over {
        return Ok(());
    }
    for f in s.state.figs.iter_mut().flatten() {
        f.effects.retain(|e| e.4 > rnd);
        f.coat = false;
        f.named = false;
    }
    s.state.areas.retain(|a| a.7 > rnd);
    if let Some(cap) = s.options.max_rounds {
        if rnd >= cap {
            let st = &s.state;
            let sides: Vec<u8> = st.teams.iter().filter(|t| !t.out).map(|t| st.alliance[t.seat as usize]).collect();
            let winners = (0..s.players).filter(|&x| sides.contains(&st.alliance[x as usize])).collect();
            finish(s, winners, "round limit");
            return Ok(());
        }
    }
    s.state.round = rnd + 1;
    let strat = data().man.strategist;
    for t in s.state.teams.iter_mut() {
        t.strat = if t.out { 0 } else { strat };
    }
    let n5 = 5 * s.players as usize;
    for z in s.state.figs[n5..].iter_mut().flatten() {
        if z.alive {
            z.zman = data().zombie_man;
            z.zfields = 0;
        }
    }
    s.state.step_i = 0;
    s.state.sub = Sub::Start;
    let n = s.state.round;
    log(s, "round", None, json!({"n": n}));
    Ok(())
}

// --- the end of the game (19, 20.10) -----------------------------------------------------------------------
pub fn finish(s: &mut Saved, mut winners: Vec<u8>, reason: &str) {
    winners.sort_unstable();
    let st = &mut s.state;
    st.phase = Phase::Over;
    st.winners_ = winners.clone();
    st.end_reason = reason.to_string();
    st.stack.clear();
    let code = reason.replace(' ', "_");
    if winners.len() == s.players as usize {
        log(s, "over_draw", None, json!({"reason": code}));
    } else {
        log(s, "over_won", None, json!({"reason": code, "players": winners}));
    }
}

/// A gladiator died: his side loses (E19.1; simultaneous deaths of the last sides: a draw, E19.2).
/// With four players a team whose gladiator died leaves the board (20.10).
pub fn resolve_deaths(s: &mut Saved) {
    if s.state.deaths.is_empty() || s.state.phase == Phase::Over {
        return;
    }
    let died = std::mem::take(&mut s.state.deaths);
    let st = &s.state;
    let mut living: Vec<u8> = st.teams.iter().filter(|t| !t.out).map(|t| st.alliance[t.seat as usize]).collect();
    living.dedup();
    living.sort_unstable();
    living.dedup();
    let of = |sides: &[u8]| (0..s.players).filter(|&x| sides.contains(&st.alliance[x as usize])).collect::<Vec<u8>>();
    if living.is_empty() {
        let sides: Vec<u8> = died.iter().map(|&x| st.alliance[x as usize]).collect();
        let w = of(&sides);
        finish(s, w, "draw");
        return;
    }
    if living.len() == 1 {
        let w = of(&living);
        finish(s, w, "gladiator killed");
        return;
    }
    for seat in died {
        leave_board(s, seat);
    }
}

fn leave_board(s: &mut Saved, seat: u8) {
    for f in s.state.figs.iter_mut().flatten() {
        if f.seat == seat {
            f.alive = false;
            f.field = -1;
        }
    }
    let t = &mut s.state.teams[seat as usize];
    let cards: Vec<u8> = t.hand.iter().map(|h| h.0).collect();
    t.lost.extend(cards);
    t.hand.clear();
    s.state.stack.retain(|d| d.seat != seat);
    log(s, "leaves", None, json!({"player": seat}));
    if s.state.active == seat as i64 && s.state.phase == Phase::Play {
        s.state.stack.clear();
        s.state.sub = Sub::Zomb;
    }
}
