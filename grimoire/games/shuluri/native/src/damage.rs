//! Damage, armour and death, a port of the Python `damage.py` (spec 12, G14.3, spells 12 and 24, 19):
//! Sp reduced by the applicable SFE, the armour's STP, Haemophilia's extra Ep, death with its
//! revelations, and the end of the game when a gladiator dies (`flow.resolve_deaths`).

use crate::apply::{fig, fig_mut, log, name};
use crate::data::data;
use crate::flow;
use crate::rules::{has_flag, is_gladiator};
use crate::state::Saved;
use serde_json::{json, Map, Value};

fn spell_param(key: &str, param: &str) -> i64 {
    data().spell(key).and_then(|sp| sp.params.get(param)).and_then(Value::as_i64).expect("a spell's number")
}

fn has_effect(s: &Saved, id: usize, flag: &str) -> bool {
    let f = fig(s, id);
    !f.effects.is_empty() && has_flag(s, f, flag)
}

/// D12.3, D12.5, W18.3: the SFE that counts against this damage.
fn effective_sfe(s: &Saved, id: usize, lightning: bool) -> i64 {
    let d = data();
    let t = fig(s, id);
    let bell = if t.bell { d.skills.golden_bell.sfe_bonus } else { 0 };
    if t.zombie {
        return 0;
    }
    let mut armour = if t.stp > 0 || (is_gladiator(t) && d.gladiator_keeps_sfe) { t.sfe } else { 0 };
    if lightning && !d.armour_vs_lightning.iter().any(|(k, v)| *k == t.armour && *v) {
        armour = 0;
    }
    armour + bell
}

/// The lightning-negator (G14.3) or Lightning Denial against levels 1-3 (spell 12).
fn lightning_blocked(s: &mut Saved, id: usize, level: i64) -> bool {
    let lightning = data().amulets.iter().position(|a| a == "lightning").expect("the lightning amulet") as i64;
    if fig(s, id).amulet == lightning {
        reveal_amulet(s, id);
        return true;
    }
    level <= spell_param("denial", "protects_up_to_level") && has_effect(s, id, "denial")
}

pub fn reveal_amulet(s: &mut Saved, id: usize) {
    let t = fig_mut(s, id);
    if !t.amulet_shown {
        t.amulet_shown = true;
        let amulet = data().amulets[t.amulet as usize].clone();
        s.state.reveals += 1;
        let who = name(s, id);
        log(s, "wears_amulet", None, json!({"fig": who, "amulet": amulet}));
    }
}

/// Deal `raw` Sp of a kind (melee, trap, ranged, spell, lightning, blast); returns the Ep lost.
pub fn hurt_sp(s: &mut Saved, id: usize, raw: i64, kind: &str, level: i64) -> i64 {
    if !fig(s, id).alive || raw <= 0 {
        return 0;
    }
    let who = name(s, id);
    if kind == "lightning" && lightning_blocked(s, id, level) {
        log(s, "lightning_no_harm", None, json!({"fig": who}));
        return 0;
    }
    if (kind == "melee" || kind == "ranged") && has_effect(s, id, "fireform") {
        log(s, "fireform_no_wound", None, json!({"fig": who}));
        return 0;
    }
    let sfe = if kind == "blast" { 0 } else { effective_sfe(s, id, kind == "lightning") };
    let loss = (raw - sfe).max(0);
    let t = fig(s, id);
    if (kind == "melee" || kind == "trap") && t.stp > 0 {
        let d = data();
        let threshold = if is_gladiator(t) { d.stp_gladiator } else { d.stp_ring };
        if (if s.options.stp_threshold_after_sfe { loss } else { raw }) >= threshold {
            let t = fig_mut(s, id);
            t.stp -= 1;
            let n = t.stp;
            log(s, "stp", None, json!({"fig": who, "n": n}));
        }
    }
    hurt_ep(s, id, loss, "sp", Some(json!(raw)))
}

/// `id` loses `n` Ep; `why` and its value name the cause (the event `loses_<why>`; "" for plain `loses`).
pub fn hurt_ep(s: &mut Saved, id: usize, mut n: i64, why: &str, value: Option<Value>) -> i64 {
    if !fig(s, id).alive || n <= 0 {
        return 0;
    }
    if has_effect(s, id, "haemophilia") {
        n += spell_param("haemophilia", "extra_ep");
    }
    fig_mut(s, id).ep -= n;
    let mut args = Map::new();
    args.insert("fig".into(), json!(name(s, id)));
    args.insert("n".into(), json!(n));
    if let Some(v) = value {
        args.insert(why.into(), v);
    }
    log(s, &if why.is_empty() { "loses".to_string() } else { format!("loses_{why}") }, None, Value::Object(args));
    if fig(s, id).ep <= 0 {
        kill(s, id);
    }
    n
}

pub fn heal(s: &mut Saved, id: usize, n: i64) {
    let t = fig_mut(s, id);
    if t.alive && n > 0 {
        t.ep = t.max_ep.min(t.ep + n);
    }
}

/// D12.6: the figure dies; its secrets are revealed and its trap cards lost; a gladiator's death ends
/// the game (19) or takes his team out (20.10).
pub fn kill(s: &mut Saved, id: usize) {
    let t = fig_mut(s, id);
    t.alive = false;
    if t.zombie {
        t.field = -1;
    }
    let who = name(s, id);
    log(s, "dies", None, json!({"fig": who}));
    reveal_dead(s, id);
    let t = fig(s, id);
    if is_gladiator(t) {
        let seat = t.seat;
        s.state.teams[seat as usize].out = true;
        s.state.deaths.push(seat);
        if !s.state.batch {
            flow::resolve_deaths(s);
        }
    }
}

/// Everything secret about a dead figure becomes known, including that it had nothing (R).
fn reveal_dead(s: &mut Saved, id: usize) {
    let t = fig_mut(s, id);
    if !(t.amulet_shown && t.me_shown && t.vial_shown && t.potion_shown) {
        (t.amulet_shown, t.me_shown, t.vial_shown, t.potion_shown) = (true, true, true, true);
        s.state.reveals += 1;
    }
    let t = fig(s, id);
    if t.zombie || !s.options.traps_assigned_to_character {
        return;
    }
    let seat = t.seat as usize;
    let hand = std::mem::take(&mut s.state.teams[seat].hand);
    let mut keep = Vec::new();
    for (card, holder) in hand {
        if holder == id as i64 {
            s.state.teams[seat].lost.push(card);
            s.state.reveals += 1;
            let who = name(s, id);
            log(s, "card_lost", None, json!({"fig": who, "trap": card}));
        } else {
            keep.push((card, holder));
        }
    }
    s.state.teams[seat].hand = keep;
}
