//! Melee and the gladiator's throws, a port of the Python `combat.py` (spec 10, 11, 20.4): declaring
//! the attack (paid, flags set), the defender's Kiteres decision, the d10s in the reference's order,
//! the hit (weapon breaking, takedowns, nets, the vial's poison, Lightning Armour's discharge) and the
//! push offered to the winner of a melee exchange (C10.10, Akrobatika). Shots' values and hits are in
//! `shots.rs`; touch spells and lightning answer `not ported`.

use crate::apply::{d10, enemies, fig, fig_mut, log, name, not_ported, pay, push, relocate, Res};
use crate::board::{board, NO_WALL};
use crate::damage::{hurt_ep, hurt_sp, reveal_amulet};
use crate::data::{data, Weapon};
use crate::magic::{discharge, lightning_armour};
use crate::rules::{available, has_flag, has_skill, is_gladiator, mad_enemy, spell_mods, wield_key};
use crate::state::{Decision, Fig, Kind, Payload, Saved, Scalar, DESTROYED, IN_HAND};
use serde_json::json;

// --- values (values.py) --------------------------------------------------------------------------------
pub fn combine(s: &Saved, amounts: &[i64]) -> i64 {
    let (Some(&neg), Some(&pos)) = (amounts.iter().min(), amounts.iter().max()) else { return 0 };
    if s.options.modifier_mode == "best_bonus_plus_worst_penalty" {
        neg.min(0) + pos.max(0)
    } else if neg < 0 {
        neg
    } else {
        pos
    }
}

/// The one spell/trap modifier that applies to `value` (K13.1).
pub fn modifier(s: &Saved, f: &Fig, value: &str) -> i64 {
    combine(s, &spell_mods(s, f, value))
}

fn weapon(f: &Fig) -> Option<&'static Weapon> {
    let k = wield_key(f);
    if k.is_empty() {
        None
    } else {
        data().weapon(&k)
    }
}

pub fn te_bonus(s: &Saved, f: &Fig) -> i64 {
    if is_gladiator(f) {
        data().gladiator_type(&s.state.teams[f.seat as usize].gtype).expect("a gladiator type").te_bonus
    } else {
        0
    }
}

pub fn te(s: &Saved, f: &Fig) -> i64 {
    let base = if is_gladiator(f) { weapon(f).map_or(0, |w| w.te) + te_bonus(s, f) } else { f.te };
    base + modifier(s, f, "te")
}

/// Melee VE: weapon or base value, the one modifier, and the knocked-down -4 (it adds).
pub fn ve(s: &Saved, f: &Fig) -> i64 {
    let base = if is_gladiator(f) { weapon(f).map_or(0, |w| w.ve) } else { f.ve };
    base + modifier(s, f, "ve") + if f.down { data().skills.takedown.down_ve } else { 0 }
}

// --- declaring ------------------------------------------------------------------------------------------
/// An attack record (Python `combat.Attack`), as the dodge decision's payload holds it.
pub struct Attack {
    pub kind: String,
    pub attacker: usize,
    pub target: usize,
    pub skill: String,
    pub hop: i64,
    pub origin: i64,
    pub prev: i64,
}

impl Attack {
    fn payload(&self) -> Payload {
        Payload::List(vec![
            Scalar::Str(self.kind.clone()),
            Scalar::Int(self.attacker as i64),
            Scalar::Int(self.target as i64),
            Scalar::Str(self.skill.clone()),
            Scalar::Int(self.hop),
            Scalar::Int(self.origin),
            Scalar::Int(self.prev),
        ])
    }

    fn from_payload(p: &Option<Payload>) -> Option<Attack> {
        let Some(Payload::List(l)) = p else { return None };
        let int = |i: usize| match l.get(i) {
            Some(Scalar::Int(v)) => Some(*v),
            _ => None,
        };
        let text = |i: usize| match l.get(i) {
            Some(Scalar::Str(v)) => Some(v.clone()),
            _ => None,
        };
        Some(Attack {
            kind: text(0)?,
            attacker: int(1)? as usize,
            target: int(2)? as usize,
            skill: text(3)?,
            hop: int(4)?,
            origin: int(5)?,
            prev: int(6)?,
        })
    }
}

pub fn attacking(s: &mut Saved, a: usize) {
    let f = fig_mut(s, a);
    f.attacked = true;
    f.must_attack = false;
    f.sneak = 0;
}

pub fn declare_melee(s: &mut Saved, a: usize, t: usize, skill: &str) -> Res {
    let sk = &data().skills;
    let extra = match skill {
        "break" => sk.weapon_break.cost,
        "takedown" => sk.takedown.cost,
        _ => 0,
    };
    pay(s, a, data().cost.attack + extra);
    attacking(s, a);
    let (who, target) = (name(s, a), name(s, t));
    if skill.is_empty() {
        log(s, "attacks", None, json!({"fig": who, "target": target}));
    } else {
        log(s, "attacks_skill", None, json!({"fig": who, "target": target, "skill": skill}));
    }
    reveal_weapons_on_exchange(s, a, t);
    let atk =
        Attack { kind: "melee".into(), attacker: a, target: t, skill: skill.into(), hop: 0, origin: -1, prev: -1 };
    engage(s, atk)
}

pub fn declare_throw(s: &mut Saved, a: usize, t: usize, what: &str) -> Res {
    pay(s, a, data().cost.attack);
    attacking(s, a);
    let f = fig_mut(s, a);
    if what == "javelin" {
        f.javelins -= 1;
    } else {
        f.nets -= 1;
    }
    let origin = f.field;
    let (who, target) = (name(s, a), name(s, t));
    log(s, &format!("throws_{what}"), None, json!({"fig": who, "target": target}));
    reveal_weapons_on_exchange(s, a, t);
    engage(s, Attack { kind: what.into(), attacker: a, target: t, skill: String::new(), hop: 0, origin, prev: -1 })
}

/// R17, weapon_reveal = first_exchange: a gladiator's weapon shows when he first fights.
fn reveal_weapons_on_exchange(s: &mut Saved, a: usize, t: usize) {
    if s.options.weapon_reveal == "first_step" {
        return;
    }
    for id in [a, t] {
        let f = fig(s, id);
        let seat = f.seat as usize;
        if is_gladiator(f) && !s.state.teams[seat].weapon_shown {
            s.state.teams[seat].weapon_shown = true;
            s.state.reveals += 1;
            let (who, weapon) = (name(s, id), wield_key(fig(s, id)));
            log(s, "fights_with", None, json!({"fig": who, "weapon": weapon}));
        }
    }
}

pub fn engage(s: &mut Saved, atk: Attack) -> Res {
    let t = fig(s, atk.target);
    if t.alive && !t.zombie && has_skill(s, t, "dodge") {
        let seat = t.seat;
        push(s, Decision { kind: Kind::Dodge, seat, payload: Some(atk.payload()) });
        Ok(())
    } else {
        resolve(s, &atk, false)
    }
}

/// The dodge decision's answer: `dodge` or `no dodge`, then the attack is resolved.
pub fn answer_dodge(s: &mut Saved, d: &Decision, dodged: bool) -> Res {
    let atk = Attack::from_payload(&d.payload).ok_or("corrupt saved game: a dodge without its attack")?;
    resolve(s, &atk, dodged)
}

fn damage_of(s: &Saved, att: i64, dfn: i64) -> i64 {
    let diff = att - dfn;
    if s.options.damage_rounding == "up" {
        (diff + 1).div_euclid(2)
    } else {
        diff.div_euclid(2)
    }
}

// --- resolution -----------------------------------------------------------------------------------------
fn resolve(s: &mut Saved, atk: &Attack, dodged: bool) -> Res {
    if matches!(atk.kind.as_str(), "touch" | "lightning") {
        return crate::spell_attacks::resolve(s, atk, dodged);
    }
    if !matches!(atk.kind.as_str(), "melee" | "javelin" | "net" | "ranged") {
        return not_ported(&format!("{} attacks", atk.kind));
    }
    let (a, t) = (atk.attacker, atk.target);
    let Some((roll_a, roll_d, bonus)) = open_attack(s, atk, dodged) else { return Ok(()) };
    let (fa, ft) = (fig(s, a), fig(s, t));
    let (att, dfn) = match atk.kind.as_str() {
        "melee" => (te(s, fa), ve(s, ft)),
        "javelin" => (data().javelin_te + te_bonus(s, fa) + modifier(s, fa, "te"), ve(s, ft)),
        "net" => (data().net_te + te_bonus(s, fa) + modifier(s, fa, "te"), ve(s, ft)),
        _ => crate::shots::shot_values(s, atk),
    };
    let (att, dfn) = (att + roll_a, dfn + roll_d + bonus);
    let hit = log_rolls(s, atk, (att, dfn), (roll_a, roll_d));
    if hit {
        hit_with(s, atk, damage_of(s, att, dfn));
        if s.state.phase == crate::state::Phase::Over || armour_strikes_back(s, a, t, atk.kind == "melee") {
            return Ok(());
        }
    }
    if atk.kind == "melee" {
        offer_push(s, a, t, (att, dfn), (roll_a, roll_d))?;
    }
    Ok(())
}

/// The start every attack's resolution shares (Python `resolve`, melee, throws, shots and spells alike):
/// an attack on a figure that died meanwhile comes to nothing (None); Kiteres costs the target its
/// MAN; then the attacker's and the defender's d10, in the reference's order. Returns the two rolls
/// and Kiteres' bonus to the defence.
pub fn open_attack(s: &mut Saved, atk: &Attack, dodged: bool) -> Option<(i64, i64, i64)> {
    let t = atk.target;
    if !fig(s, t).alive {
        let target = name(s, t);
        log(s, "comes_to_nothing", None, json!({"target": target}));
        return None;
    }
    let dodge = &data().skills.dodge;
    if dodged {
        fig_mut(s, t).debt += dodge.cost;
        let who = name(s, t);
        log(s, "dodges", None, json!({"fig": who}));
    }
    let bonus = if dodged { dodge.bonus } else { 0 };
    let roll_a = d10(s);
    let roll_d = d10(s);
    Some((roll_a, roll_d, bonus))
}

/// Logs an attack's rolls and values; whether it hit (the attack above the defence).
pub fn log_rolls(s: &mut Saved, atk: &Attack, (att, dfn): (i64, i64), (roll_a, roll_d): (i64, i64)) -> bool {
    let hit = att > dfn;
    let (who, target) = (name(s, atk.attacker), name(s, atk.target));
    let args = json!({"fig": who, "roll": roll_a, "att": att, "target": target, "droll": roll_d, "dfn": dfn});
    log(s, if hit { "roll_hit" } else { "roll_miss" }, None, args);
    hit
}

/// Lightning Armour on a target `t` still alive after a hit discharges into the living attacker `a`
/// (an attack other than melee only if `villamvert_melee_only` is off; `melee_like`: answered always).
/// Whether the game ended by it.
pub fn armour_strikes_back(s: &mut Saved, a: usize, t: usize, melee_like: bool) -> bool {
    let (fa, ft) = (fig(s, a), fig(s, t));
    if ft.alive && fa.alive && lightning_armour(s, ft) && (melee_like || !s.options.villamvert_melee_only) {
        discharge(s, a);
        return s.state.phase == crate::state::Phase::Over;
    }
    false
}

fn hit_with(s: &mut Saved, atk: &Attack, raw: i64) {
    let (a, t) = (atk.attacker, atk.target);
    match atk.kind.as_str() {
        "melee" => {
            if atk.skill == "break" {
                let f = fig_mut(s, t);
                if let Some(i) = f.sets.iter().position(|&x| x == IN_HAND) {
                    f.sets[i] = DESTROYED;
                    f.part_at = -1;
                    let who = name(s, t);
                    log(s, "weapon_broken", None, json!({"fig": who}));
                }
                return;
            }
            hurt_sp(s, t, raw, "melee", 0);
            if atk.skill == "takedown" && fig(s, t).alive {
                fig_mut(s, t).down = true;
                let who = name(s, t);
                log(s, "taken_down", None, json!({"fig": who}));
            }
            if fig(s, t).alive && fig(s, a).coat {
                vial_poison(s, a, t);
            }
        }
        "ranged" => crate::shots::shot_hits(s, a, t, raw),
        "javelin" => {
            hurt_sp(s, t, raw, "ranged", 0);
        }
        _ => {
            fig_mut(s, t).netted = true;
            let who = name(s, t);
            log(s, "netted", None, json!({"fig": who}));
        }
    }
}

/// The coated weapon's next successful attack this round also poisons (E 5 against Eg), 20.8.
pub fn vial_poison(s: &mut Saved, a: usize, t: usize) {
    fig_mut(s, a).coat = false;
    let poison = data().amulets.iter().position(|x| x == "poison").expect("the poison amulet") as i64;
    if fig(s, t).amulet == poison {
        reveal_amulet(s, t);
        return;
    }
    let (ra, rr) = (d10(s), d10(s));
    let vial = &data().vial;
    if vial.strength + ra > fig(s, t).eg + rr {
        hurt_ep(s, t, vial.fail_ep, "vial", None);
    } else {
        let who = name(s, t);
        log(s, "resists_poison", None, json!({"fig": who}));
    }
}

// --- pushes (C10.10, Akrobatika) --------------------------------------------------------------------------
fn offer_push(s: &mut Saved, a: usize, t: usize, (att, dfn): (i64, i64), (ra, rd): (i64, i64)) -> Res {
    let (fa, ft) = (fig(s, a), fig(s, t));
    if !(fa.alive && ft.alive) || s.state.phase == crate::state::Phase::Over {
        return Ok(());
    }
    let (x, y) = if s.options.push_compare == "d10" { (ra, rd) } else { (att, dfn) };
    if x == y {
        return Ok(());
    }
    let (w, l) = if x > y { (a, t) } else { (t, a) };
    let (fw, fl) = (fig(s, w), fig(s, l));
    if fw.zombie || mad_enemy(s, fw) >= 0 || fw.down || has_flag(s, fw, "no_push") {
        return Ok(());
    }
    let mode = if is_gladiator(fw) && is_gladiator(fl) {
        "gladiator"
    } else if has_skill(s, fw, "acrobatics") {
        if w == a && available(s, fw) < data().skills.acrobatics.cost {
            return Ok(());
        }
        "acrobatics"
    } else {
        return Ok(());
    };
    if !(0..6).any(|d| push_ok(s, w, l, d)) {
        return Ok(());
    }
    let payload = vec![Scalar::Int(w as i64), Scalar::Int(l as i64), Scalar::Str(mode.into()), Scalar::Bool(w == t)];
    let seat = fw.seat;
    push(s, Decision { kind: Kind::Push, seat, payload: Some(Payload::List(payload)) });
    Ok(())
}

/// Python `push_reason` is None: both figures move one field in direction d to legal fields with room.
fn push_ok(s: &Saved, w: usize, l: usize, d: usize) -> bool {
    let b = board();
    let mut dests = Vec::new();
    for id in [w, l] {
        let f = fig(s, id);
        if !f.alive {
            return false;
        }
        let a = f.field as usize;
        let n = b.neighbours[a][d];
        if n < 0 {
            return false;
        }
        if b.edge[a][d] != NO_WALL {
            let g = b.gate_at[a][d];
            if g < 0 || !s.state.gate_open[g as usize] {
                return false;
            }
        }
        if is_gladiator(f) != b.in_c[n as usize] {
            return false;
        }
        dests.push(n as i64);
    }
    for &n in &dests {
        let arriving = dests.iter().filter(|&&x| x == n).count();
        let here = s.state.figs.iter().flatten().filter(|g| g.alive && g.field == n).count();
        let staying = here - [w, l].iter().filter(|&&id| fig(s, id).field == n).count();
        if staying + arriving > b.capacity {
            return false;
        }
    }
    true
}

/// The push decision's answer: a direction (Akrobatika's MAN: now for the attacker, later for the
/// defender) or `no push`.
pub fn answer_push(s: &mut Saved, d: &Decision, dir: Option<usize>) -> Res {
    let Some(dir) = dir else { return Ok(()) };
    let Some(Payload::List(p)) = &d.payload else { return Err("corrupt saved game: a push without figures".into()) };
    let (w, l) = match (&p[0], &p[1]) {
        (Scalar::Int(w), Scalar::Int(l)) => (*w as usize, *l as usize),
        _ => return Err("corrupt saved game: a push without figures".into()),
    };
    if p[2] == Scalar::Str("acrobatics".into()) {
        let cost = data().skills.acrobatics.cost;
        if p[3] == Scalar::Bool(true) {
            fig_mut(s, w).debt += cost;
        } else {
            pay(s, w, cost);
        }
    }
    let b = board();
    let moves = [
        (w, b.neighbours[fig(s, w).field as usize][dir] as i64),
        (l, b.neighbours[fig(s, l).field as usize][dir] as i64),
    ];
    let (who, target) = (name(s, w), name(s, l));
    log(s, "pushes", None, json!({"fig": who, "target": target, "dir": b.dirs[dir]}));
    relocate(s, &moves)
}

pub fn is_enemy(s: &Saved, a: usize, t: usize) -> bool {
    enemies(s, fig(s, a).seat, fig(s, t).seat)
}
