//! Shots (C11): crossbow bolts and thrown daggers, a port of the Python `combat.declare_shot`, the
//! "ranged" branch of `resolve` and `_hit`, and `ranged_defence` with the situational modifiers of
//! `sight.py` (Acid Cloud, Firestorm, the warlock in his own cage). The Kiteres decision in between
//! is `combat::engage`'s, as for every attack.
//!
//! `ranged_defence`, `cloud_hinders` and `modifier_with` are what lightning (spells 3, 4, 20) needs
//! as well: its resolution reads the same line of fire, from a chain hop's previous target too.

use crate::apply::{fig, fig_mut, log, name, pay, Res};
use crate::combat::{attacking, combine, engage, vial_poison, Attack};
use crate::damage::hurt_sp;
use crate::data::data;
use crate::legal::{exposed, ranged_kind};
use crate::rules::{is_gladiator, spell_mods};
use crate::sight::line_of_fire;
use crate::state::{Fig, Saved};
use serde_json::json;

fn spell_param(key: &str, param: &str) -> i64 {
    let sp = data().spell(key).expect("a spell of spells.toml");
    sp.params.get(param).and_then(serde_json::Value::as_i64).expect("a spell's number")
}

/// Python `values.modifier` with situational amounts (`extra`: a cloud, a storm, a cage) joining
/// the effects' ones: still one modifier per value (K13.1).
pub fn modifier_with(s: &Saved, f: &Fig, value: &str, extra: &[i64]) -> i64 {
    let mut amounts = spell_mods(s, f, value);
    amounts.extend_from_slice(extra);
    combine(s, &amounts)
}

fn areas_with<'a>(s: &'a Saved, key: &'a str) -> impl Iterator<Item = &'a crate::state::Area> + 'a {
    s.state.areas.iter().filter(move |a| a.1 == key)
}

/// Acid Cloud (spell 7): a ranged attack from the cloud's fields or through them.
pub fn cloud_hinders(s: &Saved, shooter_field: i64, middle: &[u16]) -> bool {
    areas_with(s, "acid")
        .any(|a| a.5.iter().any(|&f| f as i64 == shooter_field) || middle.iter().any(|m| a.5.contains(m)))
}

/// Firestorm (spell 18): shooting into the storm or through it.
fn storm_shields(s: &Saved, target_field: i64, middle: &[u16]) -> bool {
    areas_with(s, "firestorm")
        .any(|a| a.5.iter().any(|&f| f as i64 == target_field) || middle.iter().any(|m| a.5.contains(m)))
}

/// Imprisonment (spell 27): the warlock inside his own cage.
fn in_own_cage(s: &Saved, t: &Fig) -> bool {
    areas_with(s, "prison").any(|a| a.2 == t.id && a.5.iter().any(|&f| f as i64 == t.field))
}

/// C11.3 (Python `ranged_defence`): 2 x (B + W + N + L) and the one spell modifier to the ranged
/// defence, and the line's intermediate fields. The line starts at `atk.origin`; the shooter whose
/// body does not block it is the attacker there, else a chain's previous target.
pub fn ranged_defence(s: &Saved, atk: &Attack, ignore_walls: bool) -> (i64, &'static [u16]) {
    let a = fig(s, atk.attacker);
    let t = fig(s, atk.target);
    let shooter = if atk.origin == a.field || atk.prev < 0 { a.id } else { atk.prev as u8 };
    let shot = line_of_fire(s, atk.origin as usize, t.field as usize, shooter, t.id, ignore_walls);
    let others = s.state.figs.iter().flatten().filter(|g| g.alive && g.field == t.field && g.id != t.id).count();
    let n = others.min(2) as i64;
    let base = 2 * (shot.borders as i64 + shot.walls as i64 + n + shot.in_line as i64);
    let mut extra = Vec::new();
    if storm_shields(s, t.field, shot.middle) {
        extra.push(spell_param("firestorm", "rve_into"));
    }
    if in_own_cage(s, t) {
        extra.push(spell_param("prison", "caster_rve"));
    }
    (base + modifier_with(s, t, "rve", &extra), shot.middle)
}

/// Python `declare_shot`: paid, the attacker's flags, one bolt or dagger less; then Kiteres or the roll.
pub fn declare_shot(s: &mut Saved, a: usize, t: usize) -> Res {
    pay(s, a, data().cost.attack);
    attacking(s, a);
    let f = fig_mut(s, a);
    f.ammo -= 1;
    let origin = f.field;
    let (who, target) = (name(s, a), name(s, t));
    log(s, "shoots", None, json!({"fig": who, "target": target}));
    engage(s, Attack { kind: "ranged".into(), attacker: a, target: t, skill: String::new(), hop: 0, origin, prev: -1 })
}

/// The shot's attack and defence before the dice (C11.2, C11.3): CE (with the cloud's modifier and
/// Célzás) against the ranged defence; aiming is used up by the shot.
pub fn shot_values(s: &mut Saved, atk: &Attack) -> (i64, i64) {
    let (rd, middle) = ranged_defence(s, atk, false);
    let cloud = if cloud_hinders(s, atk.origin, middle) { vec![spell_param("acid", "ce_through")] } else { vec![] };
    let a = fig(s, atk.attacker);
    let aim = if a.aim { data().skills.aiming.ce_bonus } else { 0 };
    let att = a.ce + modifier_with(s, a, "ce", &cloud) + aim;
    fig_mut(s, atk.attacker).aim = false;
    (att, rd)
}

/// A shot that hit (Python `_hit`, "ranged"): a gladiator's armour may still stop it (C11.6), else
/// ranged Sp, and a coated dagger's poison.
pub fn shot_hits(s: &mut Saved, a: usize, t: usize, raw: i64) {
    let (fa, ft) = (fig(s, a), fig(s, t));
    if is_gladiator(ft) && !exposed(s, ft, ranged_kind(fa)) {
        log(s, "armour_stops", None, json!({}));
        return;
    }
    hurt_sp(s, t, raw, "ranged", 0);
    if fig(s, t).alive && fig(s, a).coat {
        vial_poison(s, a, t);
    }
}
