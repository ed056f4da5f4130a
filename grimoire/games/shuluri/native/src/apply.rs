//! Apply an action to a state, a port of the Python `legal.do` (the decision kinds' `do` in
//! `kinds.py`, then `flow.advance`) for the kinds ported so far: every setup choice, naming, the
//! step's moves, sneaks and disengages with their trap windows, hide / run / aim / coat / drink,
//! gates, zombie orders, `end`, and passing a trap window. The action is trusted to be legal (the
//! listing and its check come from `rules`); its text is read only as far as the port needs.
//! Anything else answers `Err("not ported: ...")` (then the state is not to be used).
//!
//! Events are logged as key and arguments with no text: the Python wrapper words them when shown.

use crate::board::board;
use crate::data::{data, GL};
use crate::flow;
use crate::rules::{has_flag, is_gladiator, mad_enemy};
use crate::state::{Area, Decision, Event, Fig, Kind, Payload, Saved, Scalar, IN_HAND};
use grimoire_rng::Rng;
use serde_json::{json, Value};

pub type Res = Result<(), String>;

pub fn not_ported<T>(what: &str) -> Result<T, String> {
    Err(format!("not ported: {what}"))
}

fn bad(text: &str) -> String {
    format!("cannot read {text:?} as an answer to this decision")
}

// --- helpers every rule module uses --------------------------------------------------------------------
pub fn fig(s: &Saved, id: usize) -> &Fig {
    s.state.figs[id].as_ref().expect("a figure in this slot")
}

pub fn fig_mut(s: &mut Saved, id: usize) -> &mut Fig {
    s.state.figs[id].as_mut().expect("a figure in this slot")
}

/// The figure's name in action texts and events ('agl', 'zbd1').
pub fn name(s: &Saved, id: usize) -> String {
    data().char_name(id, s.players as usize)
}

/// An event (`events.EN[key]` with `args`, a JSON object), public (seat None) or seen only by `seat`.
pub fn log(s: &mut Saved, key: &str, seat: Option<u8>, args: Value) {
    let Value::Object(args) = args else { unreachable!("event arguments are an object") };
    s.state.events.push(Event(seat, None, key.to_string(), args));
    s.state.n_events += 1;
}

/// A d10: the preset dice of the `dice` option first, then the state's RNG.
pub fn d10(s: &mut Saved) -> i64 {
    if let Some(preset) = &s.options.dice {
        if let Some(&v) = preset.get(s.state.dice_i as usize) {
            s.state.dice_i += 1;
            return v;
        }
    }
    let mut r = Rng::from_state(s.rng);
    let v = r.randint(1, 10);
    s.rng = r.state;
    v
}

/// The stack is held top first (as the save writes it).
pub fn push(s: &mut Saved, d: Decision) {
    s.state.stack.insert(0, d);
}

/// Several decisions, the first of `ds` on top (Python `push_many`).
pub fn push_many(s: &mut Saved, ds: Vec<Decision>) {
    s.state.stack.splice(0..0, ds);
}

pub fn pop(s: &mut Saved) {
    s.state.stack.remove(0);
}

/// Python `values.pay`: the step pool first, then the strategist; the gladiator, a zombie and a
/// madman pay from their own MAN.
pub fn pay(s: &mut Saved, id: usize, cost: i64) {
    if cost <= 0 {
        return;
    }
    let from_pool = s.options.madness_from_pool;
    let mad = mad_enemy(s, fig(s, id)) >= 0;
    let st = &mut s.state;
    let f = st.figs[id].as_mut().expect("a figure");
    f.spent += cost;
    if f.zombie {
        f.zman -= cost;
        if !from_pool {
            return;
        }
    } else if mad && !from_pool {
        f.mad_man -= cost;
        return;
    } else if is_gladiator(f) {
        st.gpool -= cost;
        return;
    }
    let seat = f.seat as usize;
    let take = st.pool.min(cost);
    st.pool -= take;
    st.teams[seat].strat -= cost - take;
}

/// Python `values.move_cost`: (MAN for the next field, run credit after it).
pub fn move_cost(s: &Saved, f: &Fig, sneaking: bool) -> (i64, i64) {
    let d = data();
    let mut c = if sneaking { d.skills.sneaking.cost_per_field } else { d.cost.move_ };
    if f.cur_double || (!f.effects.is_empty() && has_flag(s, f, "double_move")) {
        c *= 2;
    }
    if f.running && !sneaking {
        if f.run_credit > 0 {
            return (0, f.run_credit - 1);
        }
        return (c, d.skills.running.fields_per_man - 1);
    }
    (c, f.run_credit)
}

pub fn enemies(s: &Saved, a: u8, b: u8) -> bool {
    s.state.alliance[a as usize] != s.state.alliance[b as usize]
}

fn enemy_on(s: &Saved, f: &Fig, fld: i64) -> bool {
    s.state.figs.iter().flatten().any(|g| g.alive && g.field == fld && g.id != f.id && enemies(s, g.seat, f.seat))
}

// --- reading the action text --------------------------------------------------------------------------
fn role(code: &str) -> Option<usize> {
    data().role_index(code)
}

fn roles(words: &[&str]) -> Option<Vec<usize>> {
    words.iter().map(|w| role(w)).collect()
}

fn dir(word: &str) -> Option<usize> {
    board().dirs.iter().position(|d| d == word)
}

fn gate(id: &str) -> Option<usize> {
    board().gates.iter().position(|g| g.id == id)
}

/// A figure's id from its name in this game (Python `actions.fig_id`).
pub fn fig_id(s: &Saved, text: &str) -> Option<usize> {
    let (zombie, base) = match text.strip_prefix('z') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let seat = crate::data::LETTERS.find(base.get(..1)?)?;
    let r = role(base.get(1..)?)?;
    if seat >= s.players as usize {
        return None;
    }
    let cid = seat * 5 + r;
    let id = if zombie { 5 * s.players as usize + cid } else { cid };
    s.state.figs.get(id)?.as_ref().map(|_| id)
}

// --- apply ---------------------------------------------------------------------------------------------
/// Carry out the legal action `text` in state `s` and let the flow run on; the history records it.
pub fn apply(s: &mut Saved, text: &str) -> Res {
    if s.state.phase == crate::state::Phase::Over {
        return Err("the game is over: no further actions".into());
    }
    let top = s.state.stack.first().cloned().ok_or("no decision is pending")?;
    let words: Vec<&str> = text.split(' ').collect();
    let seat = top.seat as usize;
    match top.kind {
        Kind::Traps | Kind::Amulets | Kind::Resist | Kind::Vials | Kind::Potions => {
            let rs = roles(&words[1..]).ok_or_else(|| bad(text))?;
            pop(s);
            secret_roles(s, top.kind, seat, &rs);
        }
        Kind::Weapon => {
            let i = data().heap_sets.iter().position(|k| words.get(1) == Some(&k.as_str())).ok_or_else(|| bad(text))?;
            pop(s);
            s.state.teams[seat].weapon = i as i64;
            fig_mut(s, seat * 5 + GL).sets[i] = IN_HAND;
            note_secret(s, seat);
            log(s, "starting_weapon", Some(seat as u8), json!({"player": seat, "weapon": data().heap_sets[i]}));
        }
        Kind::Side => side(s, &top, &words).ok_or_else(|| bad(text))?,
        Kind::Deploy => {
            let (r, fld) = match words[..] {
                ["deploy", r, f] => (role(r), board().parse_field(f)),
                _ => (None, None),
            };
            let (r, fld) = (r.ok_or_else(|| bad(text))?, fld.ok_or_else(|| bad(text))?);
            let id = seat * 5 + r;
            fig_mut(s, id).field = fld as i64;
            let (who, at) = (name(s, id), board().field_name(fld));
            log(s, "deployed", None, json!({"fig": who, "field": at}));
            if (0..5).all(|r| fig(s, seat * 5 + r).field >= 0) {
                pop(s);
            }
        }
        Kind::Name => {
            let rs = roles(&words[1..]).ok_or_else(|| bad(text))?;
            pop(s);
            flow::name_figures(s, &rs.iter().map(|&r| r as u8).collect::<Vec<_>>());
        }
        Kind::Act => act(s, seat, text, &words)?,
        Kind::React => match text {
            "pass" => pop(s),
            "pass all" => {
                pop(s);
                s.state.teams[seat].react_off = true;
            }
            _ => {
                let n = match words[..] {
                    ["trap", n] => n.parse::<i64>().map_err(|_| bad(text))?,
                    _ => return Err(bad(text)),
                };
                pop(s);
                crate::traps::do_direct(s, &top, n)?;
            }
        },
        Kind::Dodge => {
            let dodged = match text {
                "dodge" => true,
                "no dodge" => false,
                _ => return Err(bad(text)),
            };
            pop(s);
            crate::combat::answer_dodge(s, &top, dodged)?;
        }
        Kind::Push => {
            let dir = match words[..] {
                ["no", "push"] => None,
                ["push", dn] => Some(dir(dn).ok_or_else(|| bad(text))?),
                _ => return Err(bad(text)),
            };
            pop(s);
            crate::combat::answer_push(s, &top, dir)?;
        }
        Kind::Shove => {
            let d = match words[..] {
                ["shove", dn] => dir(dn).ok_or_else(|| bad(text))?,
                _ => return Err(bad(text)),
            };
            pop(s);
            crate::traps::do_shove(s, &top, d)?;
        }
        Kind::Order => {
            pop(s);
            order_to(s, &top, text, &words)?;
        }
        Kind::Effect | Kind::Enemy | Kind::Chain => crate::magic::answer(s, &top, text, &words)?,
    }
    flow::advance(s)?;
    s.history.push(text.to_string());
    Ok(())
}

/// Python `_note_secret`: the history index of a secret setup action and its seat.
fn note_secret(s: &mut Saved, seat: usize) {
    let i = s.history.len() as i64;
    s.state.secret.push((i, seat as u8));
}

/// The secret setup choices (S5.1, S5.2, S5.4, 20.8): trap holders, amulets, resistances, vials, potions.
fn secret_roles(s: &mut Saved, kind: Kind, seat: usize, rs: &[usize]) {
    let d = data();
    let codes: Vec<&str> = rs.iter().map(|&r| d.roles[r].as_str()).collect();
    let (key, args) = match kind {
        Kind::Traps => {
            let hand = &mut s.state.teams[seat].hand;
            for (h, &r) in hand.iter_mut().zip(rs) {
                h.1 = (seat * 5 + r) as i64;
            }
            let cards: Vec<Value> = hand.iter().zip(&codes).map(|(h, c)| json!([h.0, c])).collect();
            ("assigns_traps", json!({"player": seat, "cards": cards}))
        }
        Kind::Amulets => {
            for (i, &r) in rs.iter().enumerate() {
                fig_mut(s, seat * 5 + r).amulet = i as i64;
            }
            ("assigns_amulets", json!({"player": seat, "amulets": codes}))
        }
        Kind::Resist => {
            for (&v, &r) in d.resist_values.iter().zip(rs) {
                fig_mut(s, seat * 5 + r).me_extra = v;
            }
            ("assigns_resist", json!({"player": seat, "resist": codes}))
        }
        _ => {
            let vials = kind == Kind::Vials;
            for &r in rs {
                let f = fig_mut(s, seat * 5 + r);
                if vials {
                    f.vial = true;
                } else {
                    f.potion = true;
                }
            }
            (if vials { "assigns_vials" } else { "assigns_potions" }, json!({"player": seat, "roles": codes}))
        }
    };
    note_secret(s, seat);
    log(s, key, Some(seat as u8), args);
}

/// S5.5: the side choice, or taking the first step (then the opponent chooses the half).
fn side(s: &mut Saved, top: &Decision, words: &[&str]) -> Option<()> {
    let seat = top.seat;
    let may_first = matches!(top.payload, Some(Payload::Int(v)) if v != 0);
    match words {
        ["first"] => {
            pop(s);
            s.state.first = seat as i64;
            log(s, "takes_first", None, json!({"player": seat, "player2": 1 - seat}));
            push(s, Decision { kind: Kind::Side, seat: 1 - seat, payload: Some(Payload::Int(0)) });
        }
        ["side", k] => {
            let k: usize = k.parse().ok().filter(|&k| k < board().n_halves)?;
            pop(s);
            flow::set_half(s, seat as usize, k);
            if may_first {
                s.state.first = (1 - seat) as i64;
            }
            let first = s.state.first as u8;
            s.state.order = vec![first, 1 - first];
            log(s, "chooses_half", None, json!({"player": seat, "half": k, "player2": first}));
        }
        _ => return None,
    }
    Some(())
}

// --- the acting player's step -----------------------------------------------------------------------
fn act(s: &mut Saved, seat: usize, text: &str, words: &[&str]) -> Res {
    if words == ["end"] {
        pop(s);
        s.state.sub = crate::state::Sub::Zomb;
        log(s, "ends_step", None, json!({"player": seat}));
        return Ok(());
    }
    if let ["trap", n, t] = words {
        let n = n.parse::<i64>().map_err(|_| bad(text))?;
        let t = fig_id(s, t).ok_or_else(|| bad(text))?;
        return crate::traps::do_ranged(s, seat, n, t);
    }
    let Some(r) = role(words[0]) else {
        return not_ported(&format!("'{}' actions", words[0]));
    };
    let id = seat * 5 + r;
    let d = data();
    let verb_log = |s: &mut Saved, key: &str| {
        let who = name(s, id);
        log(s, key, None, json!({"fig": who}));
    };
    match words[1..] {
        ["move" | "sneak" | "disengage", dn] => {
            let dn = dir(dn).ok_or_else(|| bad(text))?;
            do_move(s, id, dn, words[1])?;
        }
        ["hide"] => {
            pay(s, id, d.skills.sneaking.hide_cost);
            fig_mut(s, id).sneak = 2;
            verb_log(s, "hides");
        }
        ["run"] => {
            pay(s, id, d.skills.running.cost);
            let f = fig_mut(s, id);
            f.running = true;
            f.run_credit = 0;
            verb_log(s, "runs");
        }
        ["aim"] => {
            pay(s, id, d.skills.aiming.cost);
            fig_mut(s, id).aim = true;
            verb_log(s, "aims");
        }
        ["coat"] => {
            pay(s, id, d.vial.cost);
            let f = fig_mut(s, id);
            f.vial = false;
            f.vial_shown = true;
            f.coat = true;
            s.state.reveals += 1;
            verb_log(s, "coats");
        }
        ["drink"] => {
            pay(s, id, d.potion.cost);
            let f = fig_mut(s, id);
            f.potion = false;
            f.potion_shown = true;
            if f.alive && d.potion.heal > 0 {
                f.ep = f.max_ep.min(f.ep + d.potion.heal);
            }
            s.state.reveals += 1;
            verb_log(s, "drinks");
        }
        ["open" | "close", g] => {
            let g = gate(g).ok_or_else(|| bad(text))?;
            do_gate(s, id, g, words[1] == "open")?;
        }
        ["order", z] => {
            let z = fig_id(s, z).ok_or_else(|| bad(text))?;
            let give = d.cost.zombie_order;
            if !s.options.madness_from_pool {
                pay(s, id, give);
            }
            fig_mut(s, z).zman += give;
            fig_mut(s, id).ordered = true;
            let (who, target) = (name(s, id), name(s, z));
            log(s, "gives_order", None, json!({"fig": who, "target": target}));
            push(s, Decision { kind: Kind::Order, seat: seat as u8, payload: Some(Payload::Int(z as i64)) });
        }
        ["attack", t] | ["attack", t, _] => {
            let t = fig_id(s, t).ok_or_else(|| bad(text))?;
            crate::combat::declare_melee(s, id, t, words.get(3).copied().unwrap_or(""))?;
        }
        ["shoot", t] => {
            let t = fig_id(s, t).ok_or_else(|| bad(text))?;
            crate::shots::declare_shot(s, id, t)?;
        }
        ["javelin" | "net", t] => {
            let t = fig_id(s, t).ok_or_else(|| bad(text))?;
            crate::combat::declare_throw(s, id, t, words[1])?;
        }
        ["drop"] => crate::arms::do_drop(s, id),
        ["pickup"] => crate::arms::do_pickup(s, id),
        ["stand"] => crate::arms::do_stand(s, id),
        ["bell"] => crate::arms::do_bell(s, id),
        ["wield", key] => {
            let i = d.heap_sets.iter().position(|k| k == key).ok_or_else(|| bad(text))?;
            crate::arms::do_wield(s, id, i);
        }
        ["cast", ..] => crate::magic::cast(s, id, &words[2..])?,
        ["cloud", k, dn] => {
            let k: usize = k.parse().ok().filter(|&k| k >= 1).ok_or_else(|| bad(text))?;
            crate::arms::do_cloud(s, id, k, dir(dn).ok_or_else(|| bad(text))?);
        }
        _ => return not_ported(&format!("'{}'", words[1])),
    }
    Ok(())
}

/// Python `movement.do_move`: one field (disengaging first costs its 2 MAN), then the trap windows.
pub fn do_move(s: &mut Saved, id: usize, d: usize, mode: &str) -> Res {
    let b = board();
    let f = fig(s, id);
    let a = f.field as usize;
    let n = b.neighbours[a][d] as i64;
    let (mut cost, credit) = move_cost(s, f, mode == "sneak");
    let forces = s.options.enter_forces_attack && enemy_on(s, f, n);
    if mode == "disengage" {
        cost += data().cost.disengage;
        fig_mut(s, id).disengaged = true;
    }
    pay(s, id, cost);
    let f = fig_mut(s, id);
    f.run_credit = credit;
    f.moved += 1;
    f.entered = true;
    f.sneak = (mode == "sneak") as i64;
    if forces {
        f.must_attack = true;
    }
    let g = b.gate_at[a][d] as i64;
    let who = name(s, id);
    log(s, &format!("{mode}s"), None, json!({"fig": who, "dir": b.dirs[d], "field": b.field_name(n as usize)}));
    relocate(s, &[(id, n)])?;
    if s.state.phase == crate::state::Phase::Over || !fig(s, id).alive {
        return Ok(());
    }
    open_windows(s, id, "move", g, a as i64);
    Ok(())
}

/// Python `movement.relocate`: crossing a cage wall hurts (`cage.rs`).
pub fn relocate(s: &mut Saved, moves: &[(usize, i64)]) -> Res {
    if s.state.areas.iter().any(|a| a.1 == "prison") {
        return crate::cage::relocate(s, moves);
    }
    for &(id, n) in moves {
        fig_mut(s, id).field = n;
    }
    Ok(())
}

/// Python `traps.open_windows`: after a move or a gate action of the acting side, a trap window for
/// every enemy side, in step order from the active seat, that holds a card and the MAN for one.
fn open_windows(s: &mut Saved, mover: usize, kind: &str, gate: i64, came: i64) {
    if s.state.phase != crate::state::Phase::Play || !fig(s, mover).alive {
        return;
    }
    let d = data();
    let min_cost = d.direct_traps.iter().map(|&n| d.trap(n).expect("a trap").cost).min().unwrap_or(0);
    let n = s.players as i64;
    let mseat = fig(s, mover).seat;
    let mut pending = Vec::new();
    for i in 1..=n {
        let seat = ((s.state.active + i) % n) as u8;
        if !enemies(s, seat, mseat) {
            continue;
        }
        let t = &s.state.teams[seat as usize];
        if t.out || t.react_off || t.hand.is_empty() || t.strat < min_cost {
            continue;
        }
        let payload = vec![Scalar::Int(mover as i64), Scalar::Str(kind.into()), Scalar::Int(gate), Scalar::Int(came)];
        pending.push(Decision { kind: Kind::React, seat, payload: Some(Payload::List(payload)) });
    }
    if !pending.is_empty() {
        push_many(s, pending);
    }
}

/// Python `movement.do_gate` (V9.8): the areas' fields follow the gates; then the trap windows.
pub fn do_gate(s: &mut Saved, id: usize, g: usize, opening: bool) -> Res {
    pay(s, id, data().cost.gate);
    fig_mut(s, id).sneak = 0;
    set_gate(s, g, opening);
    let (who, gid) = (name(s, id), board().gates[g].id.clone());
    log(s, if opening { "opens" } else { "closes" }, None, json!({"fig": who, "gate": gid}));
    let at = fig(s, id).field;
    open_windows(s, id, "gate", g as i64, at);
    Ok(())
}

pub fn set_gate(s: &mut Saved, g: usize, opening: bool) {
    s.state.gate_open[g] = opening;
    let b = board();
    let open = s.state.gate_open.clone();
    for a in s.state.areas.iter_mut() {
        let Area(_, _, _, _, centre, fields, ..) = a;
        *fields = b.area_fields(*centre as usize, &open);
    }
}

/// The zombie's order (spell 15): go to or guard a field, guard a gate, attack a figure.
fn order_to(s: &mut Saved, top: &Decision, text: &str, words: &[&str]) -> Res {
    let b = board();
    let z = match top.payload {
        Some(Payload::Int(z)) => z as usize,
        _ => return Err("corrupt saved game: an order without its zombie".into()),
    };
    let zname = name(s, z);
    match words {
        ["order", kind @ ("goto" | "guard"), arg] => {
            if let Some(g) = gate(arg) {
                let zf = fig(s, z).field as usize;
                let fields = b.gates[g].fields;
                let field = *fields.iter().min_by_key(|&&f| (b.distance(zf, f), f)).expect("two fields");
                fig_mut(s, z).order = Some(vec![Scalar::Str("guard".into()), Scalar::Int(field as i64)]);
                log(s, "ordered_guard_gate", None, json!({"zombie": zname, "gate": arg}));
            } else {
                let f = b.parse_field(arg).ok_or_else(|| bad(text))?;
                fig_mut(s, z).order = Some(vec![Scalar::Str(kind.to_string()), Scalar::Int(f as i64)]);
                log(s, &format!("ordered_{kind}"), None, json!({"zombie": zname, "field": b.field_name(f)}));
            }
        }
        ["order", "attack", t] => {
            let tid = fig_id(s, t).ok_or_else(|| bad(text))?;
            fig_mut(s, z).order = Some(vec![Scalar::Str("attack".into()), Scalar::Int(tid as i64)]);
            log(s, "ordered_attack", None, json!({"zombie": zname, "target": t}));
        }
        _ => return Err(bad(text)),
    }
    Ok(())
}
