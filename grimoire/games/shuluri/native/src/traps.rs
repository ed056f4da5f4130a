//! Traps (spec 16, cards 20.5), a port of the Python `traps.py`'s actions: a direct trap played in a
//! reaction window (T16.4, T16.5), a ranged trap sprung by its holder on the numbered field (T16.3),
//! the cards' effects, and the Swinging Beam's shove (card 8). Whether a trap may be played is the
//! listing's (`legal.rs`); here the action is trusted to be legal.

use crate::apply::{d10, fig, fig_mut, log, name, pay, push, relocate, set_gate, Res};
use crate::board::board;
use crate::damage::{hurt_ep, hurt_sp, reveal_amulet};
use crate::data::{data, Trap};
use crate::legal::{shove_ok, trap_actor};
use crate::state::{Decision, Effect, Kind, Payload, Phase, Saved, Scalar};
use serde_json::{json, Value};

/// A direct trap's window (the React decision's payload): the mover, "move" or "gate", the gate
/// crossed or worked (-1 for none) and the field the mover came from.
pub struct Window {
    pub mover: usize,
    pub kind: String,
    pub gate: i64,
    pub came: i64,
}

impl Window {
    pub fn from_payload(p: &Option<Payload>) -> Option<Window> {
        let Some(Payload::List(l)) = p else { return None };
        match &l[..] {
            [Scalar::Int(m), Scalar::Str(k), Scalar::Int(g), Scalar::Int(c)] => {
                Some(Window { mover: *m as usize, kind: k.clone(), gate: *g, came: *c })
            }
            _ => None,
        }
    }
}

fn param_i64(tr: &Trap, key: &str) -> Option<i64> {
    tr.params.get(key).and_then(Value::as_i64)
}

fn param_bool(tr: &Trap, key: &str) -> bool {
    tr.params.get(key).and_then(Value::as_bool).unwrap_or(false)
}

fn card(n: i64) -> &'static Trap {
    data().trap(n).expect("a trap card of traps.toml")
}

/// The card leaves the hand face up (Python `_spend_card`).
fn spend_card(s: &mut Saved, seat: usize, n: i64) {
    let team = &mut s.state.teams[seat];
    team.hand.retain(|h| h.0 as i64 != n);
    team.played.push(n as u8);
    s.state.reveals += 1;
}

/// Python `do_direct`: the strategist pays, the card is played on the figure that moved (the
/// window `d`'s payload).
pub fn do_direct(s: &mut Saved, d: &Decision, n: i64) -> Res {
    let w = &Window::from_payload(&d.payload).ok_or("corrupt saved game: a trap window without its mover")?;
    let seat = d.seat as usize;
    let tr = card(n);
    s.state.teams[seat].strat -= tr.cost;
    spend_card(s, seat, n);
    let who = name(s, w.mover);
    log(s, "trap_springs", None, json!({"trap": n, "fig": who}));
    effect(s, tr, w.mover, Some(w))
}

/// Python `do_ranged`: the holder on the numbered field pays and springs the card on a standing
/// enemy; the Swinging Beam's owner then chooses where it throws the target.
pub fn do_ranged(s: &mut Saved, seat: usize, n: i64, t: usize) -> Res {
    let f = trap_actor(s, seat, n).ok_or("not ported: a ranged trap without its actor (the check refuses it)")?.id;
    let tr = card(n);
    pay(s, f as usize, tr.cost);
    spend_card(s, seat, n);
    let (who, target) = (name(s, f as usize), name(s, t));
    log(s, "springs_trap_on", None, json!({"fig": who, "trap": n, "target": target}));
    effect(s, tr, t, None)?;
    if param_bool(tr, "shove") && fig(s, t).alive && s.state.phase != Phase::Over && shove_possible(s, t) {
        push(s, Decision { kind: Kind::Shove, seat: seat as u8, payload: Some(Payload::Int(t as i64)) });
    }
    Ok(())
}

fn shove_possible(s: &Saved, t: usize) -> bool {
    (0..6).any(|d| shove_ok(s, fig(s, t), d))
}

/// The shove decision is stale once its target died or has nowhere to go (Python `ShoveKind.stale`).
pub fn shove_stale(s: &Saved, d: &Decision) -> bool {
    let Some(Payload::Int(t)) = d.payload else { return true };
    !fig(s, t as usize).alive || !shove_possible(s, t as usize)
}

/// The shove decision's answer (Python `do_shove`): the beam throws the target one field.
pub fn do_shove(s: &mut Saved, d: &Decision, dir: usize) -> Res {
    let Some(Payload::Int(t)) = d.payload else { return Err("corrupt saved game: a shove without its target".into()) };
    let t = t as usize;
    let b = board();
    let n = b.neighbours[fig(s, t).field as usize][dir];
    let who = name(s, t);
    log(s, "beam_throws", None, json!({"fig": who, "dir": b.dirs[dir], "field": b.field_name(n as usize)}));
    relocate(s, &[(t, n as i64)])
}

/// The card's effect on figure t (Python `_effect`; `w`: the direct trap's window).
fn effect(s: &mut Saved, tr: &Trap, t: usize, w: Option<&Window>) -> Res {
    if let Some(strength) = param_i64(tr, "poison_strength") {
        return poison(s, tr, t, strength);
    }
    if let Some(sp) = param_i64(tr, "sp") {
        hurt_sp(s, t, sp, "trap", 0);
    }
    if let Some(ep) = param_i64(tr, "ep") {
        hurt_ep(s, t, ep, "trap", Some(json!(tr.number)));
    }
    if s.state.phase == Phase::Over || !fig(s, t).alive {
        return Ok(());
    }
    if let Some(limit) = param_i64(tr, "next_step_man_limit") {
        fig_mut(s, t).next_limit = limit;
    }
    if param_bool(tr, "next_step_double_move") {
        fig_mut(s, t).next_double = true;
    }
    if param_bool(tr, "next_step_no_man") {
        fig_mut(s, t).next_no_man = true;
    }
    if let Some(Value::Object(mods)) = tr.params.get("mods") {
        let round = s.state.round;
        let end = match tr.params.get("rounds") {
            Some(Value::Number(k)) => round + k.as_i64().expect("a trap's rounds") - 1,
            _ => round,
        };
        let mut mods: Vec<(String, i64)> =
            mods.iter().map(|(k, v)| (k.clone(), v.as_i64().expect("a trap's modifier"))).collect();
        mods.sort();
        let key = format!("trap{}", tr.number);
        let e = Effect(key, "trap".into(), "trap".into(), round, end, mods, vec![], -1, -1);
        fig_mut(s, t).effects.push(e);
    }
    if let (true, Some(w)) = (param_bool(tr, "slams_gate"), w) {
        slam_gate(s, tr, t, w)?;
    }
    if param_bool(tr, "stops") {
        fig_mut(s, t).stopped = true;
    }
    Ok(())
}

/// A poison card: the poison-neutralizer stops it, else strength + d10 against Eg + d10.
fn poison(s: &mut Saved, tr: &Trap, t: usize, strength: i64) -> Res {
    let amulet = data().amulets.iter().position(|a| a == "poison").expect("the poison amulet") as i64;
    let who = name(s, t);
    if fig(s, t).amulet == amulet {
        reveal_amulet(s, t);
        log(s, "amulet_stops_poison", None, json!({"fig": who}));
        return Ok(());
    }
    let (ra, rr) = (d10(s), d10(s));
    let att = strength + ra;
    let dfn = fig(s, t).eg + rr;
    let resisted = att <= dfn;
    let key = if resisted { "poison_resisted" } else { "poison_takes_effect" };
    log(s, key, None, json!({"att": att, "fig": who, "dfn": dfn}));
    if resisted {
        return Ok(());
    }
    if let Some(ep) = param_i64(tr, "fail_ep").filter(|&ep| ep != 0) {
        hurt_ep(s, t, ep, "trap", Some(json!(tr.number)));
    }
    if param_bool(tr, "fail_next_step_no_man") {
        fig_mut(s, t).next_no_man = true;
    }
    Ok(())
}

/// Falling Portcullis (card 12): the gate shuts and jams; a figure that walked through is thrown back.
fn slam_gate(s: &mut Saved, tr: &Trap, t: usize, w: &Window) -> Res {
    if w.gate < 0 {
        return Ok(());
    }
    let g = w.gate as usize;
    set_gate(s, g, false);
    s.state.gate_jam[g] = s.state.round + param_i64(tr, "jam_rounds").expect("the portcullis' jam");
    let (gid, jam) = (board().gates[g].id.clone(), s.state.gate_jam[g]);
    log(s, "gate_slams", None, json!({"gate": gid, "n": jam}));
    if w.kind == "move" && fig(s, t).field != w.came {
        relocate(s, &[(t, w.came)])?;
    }
    Ok(())
}
