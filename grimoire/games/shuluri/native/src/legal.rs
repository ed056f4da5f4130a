//! The legal actions of the current decision as action ids (`data/actions.txt`), in the Python
//! engine's order: a port of `legal.legal_actions`, `legal.act_actions` (with `_warlock`) and the
//! `legal` of every decision kind of `kinds.py`. The checks are the Python `*_reason` functions as
//! the listing spells them out; each helper carries the name of the function it ports.

use crate::actions::{fixed, table, targeted, Targeted, NONE};
use crate::board::board;
use crate::data::{data, IntOrWord, Spell, GL, WL};
use crate::rules::{available, commanded, has_flag, has_skill, is_gladiator, mad_enemy, move_options, Fields};
use crate::sight::line_blocked;
use crate::state::{Fig, Kind, Mode, Payload, Phase, Saved, Scalar, StepKind, IN_HAND, IN_HEAP};
use std::sync::LazyLock;

/// What the listing reads of a spell (Python `_target_facts` and the spell's properties).
pub struct SpellFacts {
    pub touch: bool,
    /// the reach in blocks (-1 for touch spells and those without a range)
    pub blocks: i64,
    /// a lightning attack (or the chain): strikes like a ranged weapon, needs a line of fire
    pub strikes: bool,
    pub ignores_walls: bool,
    /// Sap and Theft: only at another figure
    pub other_only: bool,
}

static FACTS: LazyLock<Vec<SpellFacts>> = LazyLock::new(|| {
    data()
        .spells
        .iter()
        .map(|sp| SpellFacts {
            touch: matches!(&sp.range, IntOrWord::Word(w) if w == "touch"),
            blocks: match sp.range {
                IntOrWord::Int(n) => n,
                IntOrWord::Word(_) => -1,
            },
            strikes: sp.params.contains_key("lightning") || sp.target == "chain",
            ignores_walls: sp.params.get("ignores_walls").and_then(|v| v.as_bool()).unwrap_or(false),
            other_only: sp.key == "sap" || sp.key == "theft",
        })
        .collect()
});

pub fn spell_facts(i: usize) -> &'static SpellFacts {
    &FACTS[i]
}

fn fig(s: &Saved, id: usize) -> Option<&Fig> {
    s.state.figs.get(id).and_then(|f| f.as_ref())
}

fn enemies(s: &Saved, a: u8, b: u8) -> bool {
    s.state.alliance[a as usize] != s.state.alliance[b as usize]
}

fn count_at(s: &Saved, field: i64) -> usize {
    s.state.figs.iter().flatten().filter(|f| f.alive && f.field == field).count()
}

fn in_c(f: i64) -> bool {
    f >= 0 && board().in_c[f as usize]
}

fn block_distance(a: i64, b: i64) -> i64 {
    board().block_distance(a as usize, b as usize) as i64
}

/// Python `values.weapon`: the weapon in a gladiator's hand (None for the others).
pub fn weapon(f: &Fig) -> Option<&'static crate::data::Weapon> {
    let d = data();
    if f.sets.is_empty() {
        return None;
    }
    let key = match f.sets.iter().position(|&x| x == IN_HAND) {
        None => "dagger",
        Some(i) => {
            let key = d.heap_sets[i].as_str();
            if f.part_at >= 0 {
                d.weapon(key).expect("a heap set is a weapon").drop_to.as_str()
            } else {
                key
            }
        }
    };
    d.weapon(key)
}

fn hand_set(f: &Fig) -> i64 {
    f.sets.iter().position(|&x| x == IN_HAND).map_or(-1, |i| i as i64)
}

// --- combat (combat.py) ----------------------------------------------------------------------------------

/// Python `attackable` is None.
fn attackable(s: &Saved, a: &Fig, t: &Fig) -> bool {
    if !t.alive || t.field < 0 || t.id == a.id {
        return false;
    }
    let mad = mad_enemy(s, a);
    if mad >= 0 {
        return t.id as i64 == mad;
    }
    enemies(s, a.seat, t.seat)
}

/// Python `melee_reason` is None (skill: 0 none, 1 break, 2 takedown).
pub fn melee_ok(s: &Saved, a: &Fig, t: &Fig, skill: u8) -> bool {
    let d = data();
    if !attackable(s, a, t) || a.attacked || a.cast_other || a.down {
        return false;
    }
    let mut reach = false;
    if t.field != a.field {
        let w = weapon(a);
        if !(w.is_some_and(|w| w.reach != 0) && board().distance(a.field as usize, t.field as usize) == 1) {
            return false;
        }
        reach = true;
    }
    if a.disengaged && !reach {
        return false;
    }
    if is_gladiator(a) && !in_c(t.field) {
        return false;
    }
    let mut cost = d.cost.attack;
    if skill > 0 {
        if !(is_gladiator(a) && is_gladiator(t)) {
            return false;
        }
        if !has_skill(s, a, if skill == 1 { "weapon_break" } else { "takedown" }) {
            return false;
        }
        let tw = weapon(t);
        if skill == 1 {
            if tw.is_none_or(|w| w.unbreakable) {
                return false;
            }
            cost += d.skills.weapon_break.cost;
        } else {
            if tw.is_some_and(|w| w.no_takedown) {
                return false;
            }
            cost += d.skills.takedown.cost;
        }
    }
    cost <= available(s, a)
}

/// Python `ranged_kind`: the figure's ranged weapon ("" for none).
pub fn ranged_kind(a: &Fig) -> &'static str {
    if a.zombie {
        ""
    } else {
        data().role_stats[a.role as usize].ranged_weapon.as_str()
    }
}

fn ranged_range(wk: &str) -> i64 {
    data().ranged_range.iter().find(|(k, _)| k == wk).map_or(-1, |(_, r)| *r)
}

/// Python `may_shoot_reason` is None.
pub fn may_shoot(s: &Saved, a: &Fig) -> bool {
    !(a.attacked || a.disengaged || a.down || has_flag(s, a, "no_aimed"))
}

/// Python `exposed`: bolts and thrown daggers wound a gladiator only after his armour lost enough STP.
pub fn exposed(s: &Saved, t: &Fig, wk: &str) -> bool {
    if !is_gladiator(t) {
        return true;
    }
    let g = data().gladiator_type(&s.state.teams[t.seat as usize].gtype).expect("a known gladiator type");
    let lost = t.stp_max - t.stp;
    lost >= if wk == "crossbow" { g.crossbow_after } else { g.daggers_after }
}

/// Python `throw_reason` is None (what: 0 javelin, 1 net), for an attacker who may shoot.
fn throw_ok(s: &Saved, a: &Fig, t: &Fig, what: usize) -> bool {
    let d = data();
    if !is_gladiator(a) || !attackable(s, a, t) || !may_shoot(s, a) {
        return false;
    }
    if (if what == 0 { a.javelins } else { a.nets }) <= 0 {
        return false;
    }
    if !weapon(a).is_some_and(|w| w.hand_free) {
        return false;
    }
    if !in_c(t.field) || t.field == a.field {
        return false;
    }
    let rng = if what == 0 { d.javelin_range } else { d.net_range };
    block_distance(a.field, t.field) <= rng && d.cost.attack <= available(s, a)
}

// --- gates and weapons (movement.py, arms.py) ----------------------------------------------------------

/// Python `gate_reason` is None.
pub fn gate_ok(s: &Saved, f: &Fig, g: usize, opening: bool) -> bool {
    let st = &s.state;
    let gate = &board().gates[g];
    if f.field < 0 || !gate.fields.contains(&(f.field as usize)) || f.down {
        return false;
    }
    if opening == st.gate_open[g] {
        return false;
    }
    if opening && st.gate_jam[g] >= st.round {
        return false;
    }
    data().cost.gate <= available(s, f)
}

fn afford(s: &Saved, f: &Fig, cost: i64) -> bool {
    cost <= available(s, f)
}

fn drop_ok(f: &Fig) -> bool {
    is_gladiator(f) && !weapon(f).is_some_and(|w| w.hand_free)
}

fn pickup_ok(s: &Saved, f: &Fig) -> bool {
    if !is_gladiator(f) {
        return false;
    }
    if f.part_at == f.field || (hand_set(f) < 0 && f.sets.contains(&f.field)) {
        return afford(s, f, data().cost.pick_up);
    }
    false
}

fn wield_ok(s: &Saved, f: &Fig, i: usize) -> bool {
    is_gladiator(f)
        && f.field >= 0
        && s.state.teams[f.seat as usize].heaps.contains(&(f.field as u16))
        && f.sets[i] == IN_HEAP
        && f.part_at < 0
        && afford(s, f, data().cost.weapon_change)
}

// --- magic (magic.py) ----------------------------------------------------------------------------------

/// Python `magic.may_cast_now`.
fn may_cast_now(s: &Saved, w: &Fig) -> bool {
    crate::rules::may_cast_now(s, w)
}

/// Python `cast_target_reason` is None for a corpse (`body`) as the target.
fn corpse_ok(s: &Saved, w: &Fig, body: &Fig) -> bool {
    !(body.alive || body.zombie || body.field < 0 || body.raised || is_gladiator(body))
        && body.field == w.field
        && count_at(s, w.field) < board().capacity
}

// --- traps (traps.py) ----------------------------------------------------------------------------------

/// Python `traps.is_ranged`.
pub fn is_ranged(s: &Saved, n: i64) -> bool {
    let d = data();
    d.trap(n).is_some_and(|t| t.kind == "ranged") || (n == d.kitoro && s.options.kitoro_forras_kind == "ranged")
}

fn holder(s: &Saved, seat: usize, n: i64) -> Option<i64> {
    s.state.teams[seat].hand.iter().find(|h| h.0 as i64 == n).map(|h| h.1)
}

/// Python `trap_actor`: the acting figure that may activate ranged trap n.
pub fn trap_actor<'a>(s: &'a Saved, seat: usize, n: i64) -> Option<&'a Fig> {
    let (b, d, st) = (board(), data(), &s.state);
    let h = holder(s, seat, n)?;
    for &cid in &st.named {
        let f = st.figs[cid as usize].as_ref().expect("a named figure exists");
        if f.seat as usize != seat || !f.alive || f.field < 0 {
            continue;
        }
        let on = if n == d.kitoro {
            b.trap_fields.contains(&(f.field as usize))
        } else {
            b.trap_fields[n as usize - 1] == f.field as usize
        };
        if !on {
            continue;
        }
        if s.options.ranged_trap_requires_entry && !f.entered {
            continue;
        }
        if s.options.traps_assigned_to_character && h != f.id as i64 {
            continue;
        }
        if mad_enemy(s, f) >= 0 {
            continue;
        }
        return Some(f);
    }
    None
}

/// Python `_reach` is None: the trap on `trap_field` reaches figure t.
fn trap_reaches(s: &Saved, n: i64, trap_field: i64, t: &Fig) -> bool {
    let (b, d) = (board(), data());
    let tr = d.trap(n).expect("a known trap");
    let works_in_c = tr.params.get("works_in_c").and_then(|v| v.as_bool()).unwrap_or(false);
    if in_c(t.field) && !works_in_c {
        return false;
    }
    match tr.params.get("reach").and_then(|v| v.as_str()) {
        Some("quarter") => {
            let k = b.quarter[trap_field as usize] as usize;
            b.regions_of(t.field as usize, &s.state.gate_open)
                .iter()
                .any(|&reg| reg as usize == 1 + k || reg as usize == 1 + b.nq + k)
        }
        Some("blocks") => {
            let blocks = tr.params.get("blocks").and_then(|v| v.as_i64()).expect("a trap's reach in blocks");
            block_distance(trap_field, t.field) <= blocks
        }
        _ => true,
    }
}

// --- the act decision (legal.act_actions) ----------------------------------------------------------------

/// Python `act_actions`: every legal action of the acting seat's step, in the reference's order.
pub fn act_actions(s: &Saved, seat: usize, out: &mut Vec<u32>) {
    let (b, d, fx) = (board(), data(), fixed());
    let st = &s.state;
    let tg = targeted(s.players as usize);
    let mut counts = vec![0u8; b.n_fields()];
    for g in st.figs.iter().flatten() {
        if g.alive && g.field >= 0 {
            counts[g.field as usize] += 1;
        }
    }
    let mut steps = Vec::new();
    let mut verbs = Vec::new();
    for f in commanded(s) {
        let role = f.role as usize;
        let have = available(s, f);
        let side = st.alliance[f.seat as usize];
        let mut hostile = Fields::new(b.n_fields());
        let mut foes: Vec<&Fig> = Vec::new();
        for g in st.figs.iter().flatten() {
            if g.alive && st.alliance[g.seat as usize] != side {
                hostile.insert(g.field);
                if g.field >= 0 {
                    foes.push(g);
                }
            }
        }
        steps.clear();
        move_options(s, f, &counts, has_skill(s, f, "sneaking"), &hostile, have, &mut steps);
        out.extend(steps.iter().map(|m| fx.moves[role][m.mode as usize][m.dir as usize]));
        verbs.clear();
        crate::rules::verb_options(s, f, have, &mut verbs);
        out.extend(verbs.iter().map(|&v| fx.verbs[role][v as usize]));
        let ff = f.field;
        if have >= d.cost.attack {
            attacks(s, f, &foes, tg, out);
        }
        if ff >= 0 {
            for &g in &b.gates_of_field[ff as usize] {
                let g = g as usize;
                let opened = st.gate_open[g];
                if !opened && gate_ok(s, f, g, true) {
                    out.push(fx.gates[role][g].0);
                }
                if opened && gate_ok(s, f, g, false) {
                    out.push(fx.gates[role][g].1);
                }
            }
        }
        if role == GL {
            if drop_ok(f) {
                out.push(fx.gl_verbs[0]);
            }
            if (f.part_at == ff || f.sets.contains(&ff)) && pickup_ok(s, f) {
                out.push(fx.gl_verbs[1]);
            }
            if f.down && afford(s, f, d.skills.takedown.stand_up_cost) {
                out.push(fx.gl_verbs[2]);
            }
            if has_skill(s, f, "golden_bell") && !f.bell && afford(s, f, d.skills.golden_bell.cost) {
                out.push(fx.gl_verbs[3]);
            }
            if ff >= 0 && st.teams[seat].heaps.contains(&(ff as u16)) {
                for i in 0..d.heap_sets.len() {
                    if f.sets[i] == IN_HEAP && wield_ok(s, f, i) {
                        out.push(fx.wield[i]);
                    }
                }
            }
        }
        if role == WL {
            warlock(s, seat, f, have, tg, out);
        }
    }
    ranged_traps(s, seat, tg, out);
    // act_reason of 'end' looks only at named figures that must attack (the optional rule R10)
    let must = st.named.iter().any(|&c| fig(s, c as usize).is_some_and(|f| f.must_attack));
    if !must || end_ok(s) {
        out.push(fx.end);
    }
}

/// The weapon attacks of a figure with the MAN for one: melee (the halberd's reach), shots, throws.
fn attacks(s: &Saved, f: &Fig, foes: &[&Fig], tg: &Targeted, out: &mut Vec<u32>) {
    let (b, d) = (board(), data());
    let role = f.role as usize;
    let ff = f.field;
    let glad = is_gladiator(f);
    let wk = ranged_kind(f);
    let can_shoot = may_shoot(s, f);
    let futile = s.options.allow_futile_ranged;
    let shot_range = if !wk.is_empty() && f.ammo > 0 && can_shoot { ranged_range(wk) } else { -1 };
    let throws = glad && can_shoot;
    let sneak_max = d.skills.sneaking.max_block_distance_to_target;
    for &g in foes {
        let gf = g.field;
        let gid = g.id as usize;
        let near = gf == ff || (glad && ff >= 0 && b.neighbours[ff as usize].contains(&(gf as i32)));
        if near && melee_ok(s, f, g, 0) {
            out.push(tg.attack[role][gid]);
            if glad && is_gladiator(g) {
                for skill in 0..2 {
                    if melee_ok(s, f, g, skill as u8 + 1) {
                        out.push(tg.skill[skill][gid]);
                    }
                }
            }
        }
        if gf == ff {
            continue;
        }
        let mut bd = -1;
        if shot_range >= 0 {
            bd = block_distance(ff, gf);
            if bd <= shot_range
                && (g.sneak == 0 || bd <= sneak_max)
                && (futile || exposed(s, g, wk))
                && !line_blocked(s, ff as usize, gf as usize, f.id, g.id, false)
            {
                out.push(tg.shoot[role][gid]);
            }
        }
        if throws && in_c(gf) {
            if bd < 0 {
                bd = block_distance(ff, gf);
            }
            if f.javelins > 0 && bd <= d.javelin_range && throw_ok(s, f, g, 0) {
                out.push(tg.throw[0][gid]);
            }
            if f.nets > 0 && bd <= d.net_range && throw_ok(s, f, g, 1) {
                out.push(tg.throw[1][gid]);
            }
        }
    }
}

/// Python `_warlock`: the spells (per disc level held), the acid clouds to move, the zombie orders.
fn warlock(s: &Saved, seat: usize, w: &Fig, have: i64, tg: &Targeted, out: &mut Vec<u32>) {
    let (b, d, fx) = (board(), data(), fixed());
    let st = &s.state;
    let wf = w.field;
    let n5 = 5 * s.players as usize;
    if may_cast_now(s, w) {
        let extra: i64 = crate::rules::spell_mods(s, w, "spell_cost").iter().sum();
        let struck = w.attacked || w.disengaged;
        let self_free = s.options.self_spell_allows_attack;
        let spells_lof = s.options.spells_need_line_of_fire;
        let pairs = st.mode == Mode::Pairs;
        let discs = &st.teams[seat].discs;
        let sneak_max = d.skills.sneaking.max_block_distance_to_target;
        for sp in d.spells.iter().filter(|sp| discs.iter().any(|&l| l as i64 == sp.level)) {
            if sp.level + extra > have {
                continue;
            }
            match sp.target.as_str() {
                "self" => {
                    if !(struck && !self_free) {
                        out.push(fx.cast_self[sp.index]);
                    }
                }
                "area" => {
                    if !struck && wf >= 0 {
                        let area = &fx.cast_area[sp.index];
                        let reach = spell_facts(sp.index).blocks.max(0) as u8;
                        out.extend(b.fields_within_blocks(wf as usize, reach).iter().map(|&x| area[x as usize]));
                    }
                }
                "corpse" => {
                    let row = &tg.cast[sp.index];
                    for g in st.figs[..n5].iter().flatten() {
                        if !g.alive && g.field == wf && !struck && corpse_ok(s, w, g) {
                            out.push(row[g.id as usize]);
                        }
                    }
                }
                _ => cast_at_figures(s, w, sp, struck, self_free, spells_lof, pairs, sneak_max, tg, out),
            }
        }
    }
    let mut k = 0;
    for a in &st.areas {
        if a.1 == "acid" && a.2 == w.id {
            k += 1;
            let cost = d.spell("acid").and_then(|sp| sp.params.get("move_cost")).and_then(|v| v.as_i64()).unwrap_or(0);
            if have >= cost {
                let row = &fx.cloud[k - 1];
                for (dir, &nb) in b.neighbours[a.4 as usize].iter().enumerate() {
                    if nb >= 0 {
                        out.push(row[dir]);
                    }
                }
            }
        }
    }
    for z in st.figs[n5..].iter().flatten() {
        if z.alive && z.creator == w.id as i64 && w.casts == 0 && afford(s, w, d.cost.zombie_order) {
            out.push(tg.order[z.id as usize]);
        }
    }
}

/// The spells at a figure (char, chain): `cast_target_reason` spelled out as `_warlock` does.
#[allow(clippy::too_many_arguments)]
fn cast_at_figures(
    s: &Saved,
    w: &Fig,
    sp: &Spell,
    struck: bool,
    self_free: bool,
    spells_lof: bool,
    pairs: bool,
    sneak_max: i64,
    tg: &Targeted,
    out: &mut Vec<u32>,
) {
    let st = &s.state;
    let row = &tg.cast[sp.index];
    let fa = spell_facts(sp.index);
    let lof = fa.strikes || spells_lof;
    let partners = sp.harmful && pairs;
    let wf = w.field;
    for g in st.figs.iter().flatten() {
        if !g.alive || g.field < 0 {
            continue;
        }
        let gf = g.field;
        let own = g.id == w.id;
        if struck && !(self_free && own) {
            continue;
        }
        if partners && g.seat != w.seat && st.alliance[g.seat as usize] == st.alliance[w.seat as usize] {
            continue;
        }
        if fa.touch {
            if gf != wf || (own && fa.other_only) || (!own && w.down) {
                continue;
            }
        } else {
            if own && sp.target == "chain" {
                continue;
            }
            if fa.strikes && gf == wf {
                continue;
            }
            let bd = block_distance(wf, gf);
            if bd > fa.blocks {
                continue;
            }
            if !own && g.sneak > 0 && bd > sneak_max {
                continue;
            }
            if lof && !own && line_blocked(s, wf as usize, gf as usize, w.id, g.id, fa.ignores_walls) {
                continue;
            }
        }
        out.push(row[g.id as usize]);
    }
}

/// The ranged traps the acting seat may spring now (`trap <n> <fig>`).
fn ranged_traps(s: &Saved, seat: usize, tg: &Targeted, out: &mut Vec<u32>) {
    let (b, d, st) = (board(), data(), &s.state);
    let team = &st.teams[seat];
    if team.hand.is_empty() {
        return;
    }
    // trap_actor finds only a named figure on a numbered field (every card's field is one of them)
    let on_trap = st
        .named
        .iter()
        .any(|&c| fig(s, c as usize).is_some_and(|f| f.field >= 0 && b.trap_fields.contains(&(f.field as usize))));
    if !on_trap {
        return;
    }
    let mut hand = team.hand.clone();
    hand.sort_unstable();
    for (n, _h) in hand {
        let n = n as i64;
        if !is_ranged(s, n) {
            continue;
        }
        let Some(f) = trap_actor(s, seat, n) else { continue };
        let cost = d.trap(n).expect("a known trap").cost;
        if available(s, f) < cost {
            continue;
        }
        let row = &tg.trap[n as usize];
        for g in st.figs.iter().flatten() {
            if g.alive && g.field >= 0 && enemies(s, seat as u8, g.seat) && trap_reaches(s, n, f.field, g) {
                out.push(row[g.id as usize]);
            }
        }
    }
}

/// Python `act_reason` of `end` is None: no figure that entered an enemy's field (R10) still owes
/// an attack it could make.
fn end_ok(s: &Saved) -> bool {
    let st = &s.state;
    for &cid in &st.named {
        let Some(f) = fig(s, cid as usize) else { continue };
        if f.must_attack && f.alive && !f.attacked {
            let owes =
                st.figs.iter().flatten().any(|g| g.alive && g.field == f.field && g.id != f.id && melee_ok(s, f, g, 0));
            if owes {
                return false;
            }
        }
    }
    true
}

// --- the other decisions (kinds.py) ------------------------------------------------------------------------

fn payload_ints(p: &Option<Payload>) -> Vec<i64> {
    match p {
        Some(Payload::Int(i)) => vec![*i],
        Some(Payload::List(v)) => v
            .iter()
            .map(|x| match x {
                Scalar::Int(i) => *i,
                Scalar::Bool(b) => *b as i64,
                Scalar::Str(_) => -1,
            })
            .collect(),
        None => Vec::new(),
    }
}

/// The i-th number of a payload (-1 if there is none: a malformed payload lists nothing, never panics).
fn at(w: &[i64], i: usize) -> i64 {
    w.get(i).copied().unwrap_or(-1)
}

fn fig_at(s: &Saved, id: i64) -> Option<&Fig> {
    usize::try_from(id).ok().and_then(|i| fig(s, i))
}

fn payload_str(p: &Option<Payload>, i: usize) -> &str {
    match p {
        Some(Payload::List(v)) => match v.get(i) {
            Some(Scalar::Str(x)) => x.as_str(),
            _ => "",
        },
        _ => "",
    }
}

/// Python `flow.naming_options` as action ids (`name <r> [<r>]`).
fn name_actions(s: &Saved, seat: usize, out: &mut Vec<u32>) {
    let (d, t, st) = (data(), table(), &s.state);
    let Some(&(_, kind)) = usize::try_from(st.step_i).ok().and_then(|i| st.sched.get(i)) else { return };
    let elig: Vec<usize> = (0..5)
        .filter(|&role| {
            let f = st.figs[seat * 5 + role].as_ref().expect("a fighter");
            role != GL && f.alive && (kind == StepKind::Pair1 || !f.named)
        })
        .collect();
    let k = (d.names_per_step as usize).min(elig.len());
    let name = |roles: &[usize]| {
        let words: Vec<&str> = roles.iter().map(|&r| d.roles[r].as_str()).collect();
        t.get(&format!("name {}", words.join(" ")))
    };
    match k {
        0 => return,
        1 => out.extend(elig.iter().map(|&r| name(&[r]))),
        _ => {
            // itertools.combinations(elig, 2) (NAMES_PER_STEP is 2)
            assert_eq!(k, 2, "naming two characters");
            for i in 0..elig.len() {
                for j in i + 1..elig.len() {
                    out.push(name(&[elig[i], elig[j]]));
                }
            }
        }
    }
    if s.options.allow_single_naming && k > 1 {
        out.extend(elig.iter().map(|&r| name(&[r])));
    }
}

/// Python `movement.edge_reason` is None, and the field it leads to.
pub fn edge_to(s: &Saved, a: i64, dir: usize) -> Option<usize> {
    let b = board();
    if a < 0 {
        return None;
    }
    let n = b.neighbours[a as usize][dir];
    if n < 0 {
        return None;
    }
    if b.edge[a as usize][dir] != crate::board::NO_WALL {
        let g = b.gate_at[a as usize][dir];
        if g < 0 || !s.state.gate_open[g as usize] {
            return None;
        }
    }
    Some(n as usize)
}

/// Python `zone_reason` is None.
fn zone_ok(f: &Fig, n: usize) -> bool {
    is_gladiator(f) == board().in_c[n]
}

/// Python `push_reason` is None.
fn push_ok(s: &Saved, pusher: &Fig, other: &Fig, dir: usize) -> bool {
    let mut dests = [0usize; 2];
    for (i, f) in [pusher, other].into_iter().enumerate() {
        if !f.alive {
            return false;
        }
        let Some(n) = edge_to(s, f.field, dir) else { return false };
        if !zone_ok(f, n) {
            return false;
        }
        dests[i] = n;
    }
    for &n in &dests {
        let arriving = dests.iter().filter(|&&x| x == n).count();
        let here = [pusher, other].iter().filter(|f| f.field == n as i64).count();
        let staying = count_at(s, n as i64) - here;
        if staying + arriving > board().capacity {
            return false;
        }
    }
    true
}

/// Python `shove_reason` is None.
pub fn shove_ok(s: &Saved, t: &Fig, dir: usize) -> bool {
    match edge_to(s, t.field, dir) {
        Some(n) => zone_ok(t, n) && count_at(s, n as i64) < board().capacity,
        None => false,
    }
}

/// Python `direct_reason` is None (window: mover, kind, gate, came from).
fn direct_ok(s: &Saved, seat: usize, n: i64, mover: usize, kind: &str, gate: i64) -> bool {
    let d = data();
    if is_ranged(s, n) || holder(s, seat, n).is_none() {
        return false;
    }
    let Some(tr) = d.trap(n) else { return false };
    if tr.cost > s.state.teams[seat].strat {
        return false;
    }
    let Some(t) = fig(s, mover) else { return false };
    if !t.alive {
        return false;
    }
    let works_in_c = tr.params.get("works_in_c").and_then(|v| v.as_bool()).unwrap_or(false);
    if in_c(t.field) && !works_in_c {
        return false;
    }
    if tr.params.get("gate_bound").and_then(|v| v.as_bool()).unwrap_or(false) {
        gate >= 0
    } else {
        kind == "move"
    }
}

/// Python `magic.chain_targets`.
pub fn chain_targets(s: &Saved, w: &Fig, prev: &Fig, out: &mut Vec<u8>) {
    let d = data();
    let st = &s.state;
    let reach = d.spell("chain").map_or(0, |sp| spell_facts(sp.index).blocks);
    let sneak_max = d.skills.sneaking.max_block_distance_to_target;
    for t in st.figs.iter().flatten() {
        if !t.alive || t.field < 0 || t.id == prev.id || t.id == w.id {
            continue;
        }
        if block_distance(w.field, t.field) > reach {
            continue;
        }
        if st.mode == Mode::Pairs && t.seat != w.seat && !enemies(s, t.seat, w.seat) {
            continue;
        }
        if t.sneak > 0 && block_distance(w.field, t.field) > sneak_max {
            continue;
        }
        if t.field != prev.field && line_blocked(s, prev.field as usize, t.field as usize, prev.id, t.id, false) {
            continue;
        }
        out.push(t.id);
    }
}

/// Python `flow.deploy_fields`.
fn deploy_fields(s: &Saved, seat: usize, role: usize) -> Vec<usize> {
    let b = board();
    let mut out = Vec::new();
    for &g in &s.state.teams[seat].inner_gates {
        let q: usize = b.gates[g as usize].id[1..].parse().expect("an inner gate I<k>");
        out.extend_from_slice(if role == GL { &b.deploy_c[q] } else { &b.deploy_r1[q] });
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Python `legal.legal_actions`: the ids of the current decision's legal actions, in its order.
pub fn legal_actions(s: &Saved, out: &mut Vec<u32>) {
    out.clear();
    let (b, d, fx, st) = (board(), data(), fixed(), &s.state);
    if st.phase == Phase::Over {
        return;
    }
    let Some(top) = st.stack.first() else { return };
    let seat = top.seat as usize;
    let tg = targeted(s.players as usize);
    let p = &top.payload;
    match top.kind {
        Kind::Act => act_actions(s, seat, out),
        Kind::Name => name_actions(s, seat, out),
        Kind::React => {
            out.push(fx.pass);
            out.push(fx.pass_all);
            let w = payload_ints(p);
            let (mover, kind, gate) = (at(&w, 0) as usize, payload_str(p, 1), at(&w, 2));
            let mut hand = st.teams[seat].hand.clone();
            hand.sort_unstable();
            for (n, _h) in hand {
                if direct_ok(s, seat, n as i64, mover, kind, gate) {
                    out.push(fx.direct_trap[n as usize]);
                }
            }
        }
        Kind::Dodge => {
            out.push(fx.dodge);
            out.push(fx.no_dodge);
        }
        Kind::Push => {
            let w = payload_ints(p);
            let (Some(a), Some(o)) = (fig_at(s, at(&w, 0)), fig_at(s, at(&w, 1))) else { return };
            out.extend((0..6).filter(|&dir| push_ok(s, a, o, dir)).map(|dir| fx.push[dir]));
            out.push(fx.no_push);
        }
        Kind::Shove => {
            let Some(t) = fig_at(s, at(&payload_ints(p), 0)) else { return };
            out.extend((0..6).filter(|&dir| shove_ok(s, t, dir)).map(|dir| fx.shove[dir]));
        }
        Kind::Effect => {
            let key = payload_str(p, 0);
            let choices = d.spell(key).and_then(|sp| sp.params.get("choices")).and_then(|v| v.as_array());
            for c in choices.into_iter().flatten() {
                out.push(table().get(&format!("effect {}", c.as_str().unwrap_or(""))));
            }
        }
        Kind::Enemy => {
            let victim = at(&payload_ints(p), 0);
            for f in st.figs.iter().flatten() {
                if f.alive && f.field >= 0 && f.id as i64 != victim {
                    out.push(tg.enemy[f.id as usize]);
                }
            }
        }
        Kind::Chain => {
            let w = payload_ints(p);
            let (Some(wl), hop, Some(prev)) = (fig_at(s, at(&w, 0)), at(&w, 1), fig_at(s, at(&w, 2))) else { return };
            let mut ts = Vec::new();
            chain_targets(s, wl, prev, &mut ts);
            out.extend(ts.iter().map(|&t| tg.chain[t as usize]));
            if hop >= 2 {
                out.push(fx.chain_stop);
            }
        }
        Kind::Order => {
            let Some(z) = fig_at(s, at(&payload_ints(p), 0)) else { return };
            for f in 0..b.n_fields() {
                if !b.in_c[f] {
                    out.push(fx.order_goto[f]);
                    out.push(fx.order_guard[f]);
                }
            }
            out.extend_from_slice(&fx.order_gate);
            for f in st.figs.iter().flatten() {
                if f.alive && f.field >= 0 && f.id != z.id && f.id as i64 != z.creator {
                    out.push(tg.order_attack[f.id as usize]);
                }
            }
        }
        Kind::Traps => out.extend_from_slice(&fx.setup[0]),
        Kind::Amulets => out.extend_from_slice(&fx.setup[1]),
        Kind::Resist => out.extend_from_slice(&fx.setup[2]),
        Kind::Vials => out.extend_from_slice(&fx.setup[3]),
        Kind::Potions => out.extend_from_slice(&fx.setup[4]),
        Kind::Side => {
            out.extend_from_slice(&fx.side);
            if payload_ints(p).first().is_some_and(|&x| x != 0) {
                out.push(fx.first);
            }
        }
        Kind::Weapon => out.extend_from_slice(&fx.weapon),
        Kind::Deploy => {
            for role in 0..5 {
                let f = st.figs[seat * 5 + role].as_ref().expect("a fighter");
                if f.field >= 0 {
                    continue;
                }
                for fld in deploy_fields(s, seat, role) {
                    if count_at(s, fld as i64) < b.capacity {
                        out.push(fx.deploy[role][fld]);
                    }
                }
            }
        }
    }
    debug_assert!(!out.contains(&NONE), "a listed action without an id");
}

/// Python `codec.legal_ids`: the legal ids ascending, each once.
pub fn legal_ids(s: &Saved) -> Vec<u32> {
    let mut out = Vec::new();
    legal_actions(s, &mut out);
    out.sort_unstable();
    out.dedup();
    out
}

/// The legal-action mask over the whole table (1 for a legal id); `out` is at least the table's length.
pub fn mask_into(s: &Saved, ids: &mut Vec<u32>, out: &mut [u8]) {
    out.iter_mut().for_each(|x| *x = 0);
    legal_actions(s, ids);
    for &i in ids.iter() {
        out[i as usize] = 1;
    }
}
