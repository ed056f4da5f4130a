//! Magic (spec 14) and the 31 spells (15), a port of the Python `magic.py`: casting (paid, the disc
//! returned, the spell made public), resistance rolls, the amulets, effects and their durations, the
//! areas (Acid Cloud, Firestorm, Imprisonment), Raise Undead, and the warlock's follow-up decisions
//! (the effect of Burning Nerves, Muscle Wasting and Limb Withering; the madman's mortal enemy; Chain
//! Lightning's next leap). Touch and lightning attacks are resolved in `spell_attacks.rs`.

use crate::apply::{d10, fig, fig_id, fig_mut, log, name, pay, pop, push, Res};
use crate::board::board;
use crate::combat::{engage, Attack};
use crate::damage::{hurt_ep, hurt_sp, reveal_amulet};
use crate::data::{data, IntOrWord, Spell, WL};
use crate::rules::{has_flag, is_gladiator, spell_mods};
use crate::state::{Area, Decision, Effect, Fig, Kind, Payload, Phase, Saved, Scalar, StepKind};
use serde_json::{json, Value};

/// fig.PERMANENT: the last round of an effect that never ends.
pub const PERMANENT: i64 = 1_000_000;

pub fn spell(key: &str) -> &'static Spell {
    data().spell(key).expect("a spell of spells.toml")
}

/// A spell's own number (`params[key]`).
pub fn param(sp: &Spell, key: &str) -> i64 {
    sp.params.get(key).and_then(Value::as_i64).unwrap_or_else(|| panic!("{}: no number {key}", sp.key))
}

/// Python `Spell.mods(key)`: the modifiers of a table of the spell, sorted by value name.
fn mods(sp: &Spell, key: &str) -> Vec<(String, i64)> {
    let Some(Value::Object(m)) = sp.params.get(key) else { return Vec::new() };
    let mut out: Vec<(String, i64)> = m.iter().map(|(k, v)| (k.clone(), v.as_i64().expect("a modifier"))).collect();
    out.sort();
    out
}

fn over(s: &Saved) -> bool {
    s.state.phase == Phase::Over
}

fn flags(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

// --- casting (G14.1) ------------------------------------------------------------------------------------
/// `wl cast <spell> [<fig>|<field>]` (Python `do_cast`); `args` are the words after `cast`.
pub fn cast(s: &mut Saved, w: usize, args: &[&str]) -> Res {
    let bad = || format!("cannot read the spell of 'cast {}'", args.join(" "));
    let sp = args.first().and_then(|k| data().spell(k)).ok_or_else(bad)?;
    let (mut target, mut field) = (-1i64, -1i64);
    if let Some(arg) = args.get(1) {
        if sp.target == "area" {
            field = board().parse_field(arg).ok_or_else(bad)? as i64;
        } else {
            target = fig_id(s, arg).ok_or_else(bad)? as i64;
        }
    }
    let cost = sp.level + spell_mods(s, fig(s, w), "spell_cost").iter().sum::<i64>();
    pay(s, w, cost);
    let seat = fig(s, w).seat as usize;
    let team = &mut s.state.teams[seat];
    let i = team.discs.iter().position(|&l| l as i64 == sp.level).ok_or("no disc of the spell's level")?;
    team.discs.remove(i);
    team.cast.push(sp.level as u8);
    s.state.reveals += 1;
    let own = sp.target == "self" || target == w as i64;
    let free = s.options.self_spell_allows_attack;
    let f = fig_mut(s, w);
    f.casts += 1;
    if !own || !free {
        f.cast_other = true;
    }
    f.sneak = 0;
    let who = name(s, w);
    if sp.target == "area" {
        let at = board().field_name(field as usize);
        log(s, "casts_at", None, json!({"fig": who, "spell": sp.key, "level": sp.level, "field": at}));
    } else if target >= 0 {
        let t = name(s, target as usize);
        log(s, "casts_on", None, json!({"fig": who, "spell": sp.key, "level": sp.level, "target": t}));
    } else {
        log(s, "casts", None, json!({"fig": who, "spell": sp.key, "level": sp.level}));
    }
    let key = sp.key.as_str();
    let wf = fig(s, w).field;
    let strikes = |hop_key: &str| Attack {
        kind: "lightning".into(),
        attacker: w,
        target: target as usize,
        skill: hop_key.into(),
        hop: 0,
        origin: wf,
        prev: -1,
    };
    if sp.target == "area" {
        area(s, w, sp, field as usize);
    } else if key == "prison" {
        area(s, w, sp, wf as usize);
    } else if key == "fireform" {
        add_effect(s, w, sp, w, mods(sp, "mods"), flags(&["fireform"]), -1, None);
    } else if key == "undead" {
        raise(s, w, target as usize);
    } else if sp.target == "chain" {
        engage(s, strikes("chain"))?;
    } else if sp.params.contains_key("lightning") {
        engage(s, strikes(key))?;
    } else if matches!(sp.range, IntOrWord::Word(ref r) if r == "touch") {
        if target as usize == w {
            touch_effect(s, w, w, sp);
        } else {
            let atk = Attack {
                kind: "touch".into(),
                attacker: w,
                target: target as usize,
                skill: key.into(),
                hop: 0,
                origin: -1,
                prev: -1,
            };
            engage(s, atk)?;
        }
    } else {
        targeted(s, w, sp, target as usize);
    }
    Ok(())
}

// --- effects (G14.4) -------------------------------------------------------------------------------------
/// Python `end_round`: the last round of an effect of `sp` that starts in round `start`.
fn end_round(s: &Saved, sp: &Spell, start: i64) -> i64 {
    let mut rounds = match &sp.duration {
        IntOrWord::Word(w) if w == "permanent" => return PERMANENT,
        IntOrWord::Word(w) if w == "instant" => return start,
        IntOrWord::Int(n) => *n,
        IntOrWord::Word(w) => panic!("{}: a duration of {w} is given explicitly", sp.key),
    };
    if sp.key == "numb" {
        rounds = s.options.zsibbaszto_rounds;
    }
    if sp.key == "dance" && s.options.halaltanc_full_rounds {
        rounds += 1;
    }
    start + rounds - 1
}

/// Python `add_effect`; `span`: (start, end) when not from this round for the spell's duration.
#[allow(clippy::too_many_arguments)]
fn add_effect(
    s: &mut Saved,
    t: usize,
    sp: &Spell,
    caster: usize,
    mods: Vec<(String, i64)>,
    flags: Vec<String>,
    data: i64,
    span: Option<(i64, i64)>,
) {
    let (start, end) = span.unwrap_or_else(|| (s.state.round, end_round(s, sp, s.state.round)));
    let e = Effect(sp.key.clone(), "spell".into(), sp.type_.clone(), start, end, mods, flags, caster as i64, data);
    fig_mut(s, t).effects.push(e);
    let who = name(s, t);
    if end >= PERMANENT {
        log(s, "under_spell_forever", None, json!({"fig": who, "spell": sp.key}));
    } else {
        log(s, "under_spell", None, json!({"fig": who, "spell": sp.key, "n": end}));
    }
}

/// Lightning Blade and Lightning Armour once the touch landed (or cast on himself).
pub fn touch_effect(s: &mut Saved, w: usize, t: usize, sp: &Spell) {
    if sp.key == "blade" {
        add_effect(s, t, sp, w, mods(sp, "mods"), Vec::new(), -1, None);
    } else if sp.key == "armour" {
        add_effect(s, t, sp, w, Vec::new(), flags(&["lightning_armour"]), -1, None);
    }
}

/// G14.3: the poison-neutralizer or the curse-averter against a harmful spell of its group.
fn amulet_blocks(s: &mut Saved, t: usize, sp: &Spell) -> bool {
    if !sp.harmful {
        return false;
    }
    let amulets = &data().amulets;
    let worn = fig(s, t).amulet;
    let of = |k: &str| amulets.iter().position(|a| a == k).expect("an amulet") as i64;
    if (sp.type_ == "poison" && worn == of("poison")) || (sp.type_ == "curse" && worn == of("curse")) {
        reveal_amulet(s, t);
        let who = name(s, t);
        log(s, "amulet_protects", None, json!({"fig": who, "spell": sp.key}));
        return true;
    }
    false
}

/// Lightning Armour (spell 13): the successful attacker takes its Sp of lightning.
pub fn discharge(s: &mut Saved, a: usize) {
    let who = name(s, a);
    log(s, "armour_discharges", None, json!({"fig": who}));
    let sp = spell("armour");
    hurt_sp(s, a, param(sp, "discharge_sp"), "lightning", sp.level);
}

pub fn lightning_armour(s: &Saved, t: &Fig) -> bool {
    !t.effects.is_empty() && has_flag(s, t, "lightning_armour")
}

/// G14.2 (Python `resisted`): strength + d10 against Eg (or ME) + d10, a tie resists; rolling a
/// secret ME reveals it (S5.7).
fn resisted(s: &mut Saved, w: usize, t: usize, sp: &Spell) -> bool {
    let (ra, rr) = (d10(s), d10(s));
    let att = sp.strength + ra;
    let (val, what) = if sp.resistance == "me" {
        let f = fig_mut(s, t);
        let val = f.me + f.me_extra;
        if f.me_extra != 0 && !f.me_shown {
            f.me_shown = true;
            s.state.reveals += 1;
        }
        (val, "ME")
    } else {
        (fig(s, t).eg, "Eg")
    };
    let ok = att <= val + rr;
    let who = name(s, t);
    let args = json!({"spell": sp.key, "roll": ra, "strength": sp.strength, "att": att, "fig": who, "stat": what,
                      "value": val, "droll": rr, "dfn": val + rr});
    log(s, if ok { "spell_resisted" } else { "spell_takes_effect" }, None, args);
    if !ok && fig(s, t).alive && lightning_armour(s, fig(s, t)) && !s.options.villamvert_melee_only && t != w {
        discharge(s, w);
    }
    ok
}

/// Python `_targeted`: the spells at a figure that are neither touch nor lightning.
fn targeted(s: &mut Saved, w: usize, sp: &Spell, t: usize) {
    let key = sp.key.as_str();
    let p = &sp.params;
    if key == "denial" {
        add_effect(s, t, sp, w, Vec::new(), flags(&["denial"]), -1, None);
        return;
    }
    if amulet_blocks(s, t, sp) {
        return;
    }
    // the milder poison effect always happens (G14.7)
    if p.contains_key("always_ep") {
        hurt_ep(s, t, param(sp, "always_ep"), "spell", Some(json!(key)));
    }
    if p.contains_key("always_sp") {
        hurt_sp(s, t, param(sp, "always_sp"), "spell", 0);
    }
    let next = s.state.round + 1;
    if key == "quintarha" {
        add_effect(s, t, sp, w, mods(sp, "mods"), Vec::new(), -1, Some((next, next)));
    }
    if over(s) || !fig(s, t).alive || sp.resistance == "none" {
        return;
    }
    if resisted(s, w, t, sp) || over(s) || !fig(s, t).alive {
        return;
    }
    let seat = fig(s, w).seat;
    let ints = |v: &[i64]| v.iter().map(|&x| Scalar::Int(x)).collect::<Vec<_>>();
    match key {
        _ if p.contains_key("fail_ep") => {
            hurt_ep(s, t, param(sp, "fail_ep"), "spell", Some(json!(key)));
        }
        "malediction" | "dizzy" | "curdle" | "fatal" | "numb" => {
            let fl = match key {
                "curdle" => flags(&["no_aiming", "no_running"]),
                "numb" => flags(&["no_aimed", "no_push"]),
                _ => Vec::new(),
            };
            add_effect(s, t, sp, w, mods(sp, "mods"), fl, -1, None);
        }
        "quintarha" => add_effect(s, t, sp, w, Vec::new(), flags(&["no_man"]), -1, Some((next, next))),
        "rending" => {
            fig_mut(s, t).eg = 0;
            add_effect(s, t, sp, w, Vec::new(), flags(&["eg0"]), -1, None);
        }
        "haemophilia" => add_effect(s, t, sp, w, Vec::new(), flags(&["haemophilia"]), -1, None),
        "dance" => add_effect(s, t, sp, w, Vec::new(), flags(&["no_man"]), -1, None),
        "nerves" | "wasting" | "wither" => {
            let mut payload = vec![Scalar::Str(key.into())];
            payload.extend(ints(&[t as i64, w as i64]));
            push(s, Decision { kind: Kind::Effect, seat, payload: Some(Payload::List(payload)) });
        }
        "madness" => {
            let payload = ints(&[t as i64, w as i64]);
            push(s, Decision { kind: Kind::Enemy, seat, payload: Some(Payload::List(payload)) });
        }
        _ => {}
    }
}

// --- the warlock's follow-up decisions ----------------------------------------------------------------------
fn payload(d: &Decision) -> Result<&[Scalar], String> {
    match &d.payload {
        Some(Payload::List(l)) => Ok(l),
        _ => Err(format!("corrupt saved game: a {:?} decision without its payload", d.kind)),
    }
}

fn int_at(p: &[Scalar], i: usize) -> Result<usize, String> {
    match p.get(i) {
        Some(Scalar::Int(v)) if *v >= 0 => Ok(*v as usize),
        _ => Err("corrupt saved game: a figure missing in a decision's payload".into()),
    }
}

/// The answers `effect <choice>`, `enemy <fig>`, `chain <fig>` / `chain stop` (the decision is on top).
pub fn answer(s: &mut Saved, d: &Decision, text: &str, words: &[&str]) -> Res {
    let p = payload(d)?;
    let bad = || format!("cannot read {text:?} as an answer to this decision");
    pop(s);
    match (d.kind, words) {
        (Kind::Effect, ["effect", choice]) => {
            let Some(Scalar::Str(key)) = p.first() else { return Err(bad()) };
            choice_effect(s, key, int_at(p, 1)?, int_at(p, 2)?, choice);
        }
        (Kind::Enemy, ["enemy", e]) => {
            let (victim, caster) = (int_at(p, 0)?, int_at(p, 1)?);
            let enemy = fig_id(s, e).ok_or_else(bad)?;
            madness(s, victim, caster, enemy);
            let who = name(s, victim);
            log(s, "goes_mad", None, json!({"fig": who, "target": e}));
        }
        (Kind::Chain, ["chain", "stop"]) => {}
        (Kind::Chain, ["chain", t]) => {
            let (w, hop, prev) = (int_at(p, 0)?, int_at(p, 1)?, int_at(p, 2)?);
            let t = fig_id(s, t).ok_or_else(bad)?;
            let (from, to) = (name(s, prev), name(s, t));
            log(s, "chain_leaps", None, json!({"fig": from, "target": to}));
            let origin = fig(s, prev).field;
            let atk = Attack {
                kind: "lightning".into(),
                attacker: w,
                target: t,
                skill: "chain".into(),
                hop: hop as i64,
                origin,
                prev: prev as i64,
            };
            engage(s, atk)?;
        }
        _ => return Err(bad()),
    }
    Ok(())
}

/// G14.8 (Python `choice_effect`): the warlock's choice for Burning Nerves, Muscle Wasting, Limb Withering.
fn choice_effect(s: &mut Saved, key: &str, t: usize, caster: usize, choice: &str) {
    let sp = spell(key);
    let (m, fl) = match (key, choice) {
        ("nerves", "man") => (vec![("man_limit".to_string(), param(sp, "man_limit"))], Vec::new()),
        ("nerves", _) => (mods(sp, "mods_defence"), Vec::new()),
        ("wasting", "legs") => (Vec::new(), flags(&["double_move", "no_running"])),
        ("wasting", _) => (mods(sp, "mods_strength"), Vec::new()),
        (_, "leg") => (vec![("move".to_string(), param(sp, "leg_move"))], Vec::new()),
        _ => {
            let mut m = mods(sp, "mods_arm");
            let f = fig(s, t);
            if f.role as usize == WL && !f.zombie {
                m.push(("spell_cost".to_string(), param(sp, "arm_spell_cost")));
            }
            (m, Vec::new())
        }
    };
    add_effect(s, t, sp, caster, m, fl, -1, None);
}

/// Spell 28: the victim goes mad against `enemy`; acting now, its madness MAN starts with its next step.
fn madness(s: &mut Saved, t: usize, caster: usize, enemy: usize) {
    add_effect(s, t, spell("madness"), caster, Vec::new(), flags(&["madness"]), enemy as i64, None);
    let st = &s.state;
    let f = fig(s, t);
    let glad_step = is_gladiator(f)
        && st.active == f.seat as i64
        && st.sched.get(st.step_i as usize).is_some_and(|x| x.1 == StepKind::Glad);
    if st.named.contains(&(t as u8)) || glad_step {
        fig_mut(s, t).mad_man = 0;
    }
}

/// Python `continue_chain`: after a leap of Chain Lightning, the next one (at most three targets).
pub fn continue_chain(s: &mut Saved, atk: &Attack, hit: bool) {
    if !hit || atk.hop >= 2 || over(s) {
        if !hit && atk.hop < 2 {
            log(s, "chain_breaks", None, json!({}));
        }
        return;
    }
    let (w, prev) = (fig(s, atk.attacker), fig(s, atk.target));
    if !w.alive || prev.field < 0 {
        return;
    }
    let mut targets = Vec::new();
    crate::legal::chain_targets(s, w, prev, &mut targets);
    if !targets.is_empty() {
        let payload = [w.id as i64, atk.hop + 1, prev.id as i64].iter().map(|&x| Scalar::Int(x)).collect();
        let seat = w.seat;
        push(s, Decision { kind: Kind::Chain, seat, payload: Some(Payload::List(payload)) });
    }
}

/// ChainKind.stale: the warlock died, the previous target left the board, or nobody is left to leap to.
pub fn chain_stale(s: &Saved, d: &Decision) -> Result<bool, String> {
    let p = payload(d)?;
    let (w, prev) = (fig(s, int_at(p, 0)?), fig(s, int_at(p, 2)?));
    if !w.alive || prev.field < 0 {
        return Ok(true);
    }
    let mut targets = Vec::new();
    crate::legal::chain_targets(s, w, prev, &mut targets);
    Ok(targets.is_empty())
}

// --- areas (spells 7, 18, 27) ----------------------------------------------------------------------------
fn area(s: &mut Saved, w: usize, sp: &Spell, centre: usize) {
    s.state.area_seq += 1;
    let fields = board().area_fields(centre, &s.state.gate_open);
    let (round, end) = (s.state.round, end_round(s, sp, s.state.round));
    let follows = sp.key == "prison" && s.options.cage_follows_caster;
    let a = Area(s.state.area_seq, sp.key.clone(), w as u8, fig(s, w).seat, centre as u16, fields, round, end, follows);
    let inside: Vec<usize> = s
        .state
        .figs
        .iter()
        .flatten()
        .filter(|f| f.alive && f.field >= 0 && a.5.contains(&(f.field as u16)) && f.id as usize != w)
        .map(|f| f.id as usize)
        .collect();
    s.state.areas.push(a);
    for id in inside {
        match sp.key.as_str() {
            "acid" => {
                hurt_ep(s, id, param(sp, "appear_ep"), "spell", Some(json!("acid")));
            }
            "firestorm" => {
                hurt_sp(s, id, param(sp, "blast_sp"), "blast", 0);
            }
            _ => return,
        }
        if over(s) {
            return;
        }
    }
}

/// Spell 18 at the end of a round (Python `flow.end_round`, step 1): the storms of earlier rounds blast
/// everyone inside; deaths are resolved together.
pub fn firestorm_blasts(s: &mut Saved) {
    let rnd = s.state.round;
    let storms: Vec<Vec<u16>> =
        s.state.areas.iter().filter(|a| a.1 == "firestorm" && a.6 < rnd && rnd <= a.7).map(|a| a.5.clone()).collect();
    if storms.is_empty() {
        return;
    }
    let tick = param(spell("firestorm"), "blast_sp");
    s.state.batch = true;
    for fields in storms {
        let inside: Vec<usize> = s
            .state
            .figs
            .iter()
            .flatten()
            .filter(|f| f.alive && f.field >= 0 && fields.contains(&(f.field as u16)))
            .map(|f| f.id as usize)
            .collect();
        for id in inside {
            let who = name(s, id);
            log(s, "firestorm_burns", None, json!({"fig": who}));
            hurt_sp(s, id, tick, "spell", 0);
        }
    }
    s.state.batch = false;
    crate::flow::resolve_deaths(s);
}

// --- Raise Undead (15) -------------------------------------------------------------------------------------
fn raise(s: &mut Saved, w: usize, body: usize) {
    let d = data();
    let zid = 5 * s.players as usize + body;
    let b = fig(s, body).clone();
    let st = &d.role_stats[b.role as usize];
    let ep = b.max_ep / d.zombie_ep_divisor;
    let z = Fig {
        id: zid as u8,
        seat: fig(s, w).seat,
        role: b.role,
        zombie: true,
        creator: w as i64,
        field: b.field,
        alive: true,
        ep,
        max_ep: ep,
        eg: st.eg,
        me: st.me,
        te: b.te,
        ve: b.ve,
        ce: b.ce,
        move_: st.move_,
        armour: "none".into(),
        sfe: d.zombie_sfe,
        stp: 0,
        stp_max: 0,
        ammo: 0,
        javelins: 0,
        nets: 0,
        sets: Vec::new(),
        part_at: -1,
        down: false,
        sneak: 0,
        bell: false,
        effects: Vec::new(),
        named: false,
        attacked: false,
        disengaged: false,
        casts: 0,
        moved: 0,
        entered: false,
        stopped: false,
        running: false,
        run_credit: 0,
        aim: false,
        spent: 0,
        debt: 0,
        coat: false,
        next_no_man: false,
        next_limit: -1,
        next_double: false,
        cur_no_man: false,
        cur_limit: -1,
        cur_double: false,
        zman: d.zombie_man,
        zfields: 0,
        order: None,
        mad_man: 0,
        amulet: -1,
        amulet_shown: false,
        me_extra: 0,
        me_shown: false,
        vial: false,
        vial_shown: false,
        potion: false,
        potion_shown: false,
        raised: false,
        must_attack: false,
        netted: false,
        cast_other: false,
        ordered: false,
        zdone: false,
    };
    fig_mut(s, body).raised = true;
    s.state.figs[zid] = Some(z);
    let (who, zombie) = (name(s, body), name(s, zid));
    log(s, "rises", None, json!({"fig": who, "zombie": zombie}));
}
