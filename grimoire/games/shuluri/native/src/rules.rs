//! The first rules: a port of the Python `values.py` (active effects, the MAN a figure may spend,
//! movement limits and costs, weapons in hand and skills) and of `movement.py`'s listing of moves
//! (`move_options`, the fast path of `legal.act_actions`, which the Python tests compare with
//! `move_reason`). Each function carries the Python function's name and does the same steps.

use crate::board::board;
use crate::data::{data, IntOrWord, GL, WL};
use crate::state::{Fig, Saved};

/// Python `values.active` on one effect: it applies in this round.
fn applies(s: &Saved, e: &crate::state::Effect) -> bool {
    e.3 <= s.state.round && s.state.round <= e.4
}

pub fn has_flag(s: &Saved, f: &Fig, flag: &str) -> bool {
    f.effects.iter().any(|e| applies(s, e) && e.6.iter().any(|x| x == flag))
}

/// Python `spell_mods`: the amounts of every applying effect's modifier of `value`.
pub fn spell_mods(s: &Saved, f: &Fig, value: &str) -> Vec<i64> {
    let mut out = Vec::new();
    for e in f.effects.iter().filter(|e| applies(s, e)) {
        for (name, amount) in &e.5 {
            if name == value {
                out.push(*amount);
            }
        }
    }
    out
}

/// The Assassin's Madness victim's mortal enemy, or -1.
pub fn mad_enemy(s: &Saved, f: &Fig) -> i64 {
    f.effects.iter().find(|e| applies(s, e) && e.6.iter().any(|x| x == "madness")).map_or(-1, |e| e.8)
}

pub fn is_gladiator(f: &Fig) -> bool {
    f.role as usize == GL && !f.zombie
}

/// M7.9 (Python `available`): what this figure may still spend in the current step.
pub fn available(s: &Saved, f: &Fig) -> i64 {
    let st = &s.state;
    let from_pool = s.options.madness_from_pool;
    let have = if f.effects.is_empty() && !f.zombie {
        if f.cur_no_man {
            return 0;
        }
        let have = if f.role as usize == GL { st.gpool } else { st.pool + st.teams[f.seat as usize].strat };
        let lim = f.cur_limit;
        return if lim >= 0 { have.min((lim - f.spent).max(0)) } else { have };
    } else if f.cur_no_man || has_flag(s, f, "no_man") {
        return 0;
    } else if f.zombie {
        if from_pool {
            f.zman.min(st.pool + st.teams[f.seat as usize].strat)
        } else {
            f.zman
        }
    } else if mad_enemy(s, f) >= 0 && !from_pool {
        f.mad_man
    } else if is_gladiator(f) {
        st.gpool
    } else {
        st.pool + st.teams[f.seat as usize].strat
    };
    let mut lim = f.cur_limit;
    for amount in spell_mods(s, f, "man_limit") {
        lim = if lim < 0 { amount } else { lim.min(amount) };
    }
    if lim >= 0 {
        have.min((lim - f.spent).max(0))
    } else {
        have
    }
}

/// Python `move_limit`.
pub fn move_limit(s: &Saved, f: &Fig) -> i64 {
    let d = data();
    if f.zombie {
        return d.zombie_fields;
    }
    let mut lim = f.move_ + if f.running { d.skills.running.move_bonus } else { 0 };
    lim += spell_mods(s, f, "move").iter().sum::<i64>();
    lim.max(0)
}

/// Python `wield_key`: the weapon a gladiator holds ("" for the others).
pub fn wield_key(f: &Fig) -> String {
    let d = data();
    if f.sets.is_empty() {
        return String::new();
    }
    match f.sets.iter().position(|&x| x == crate::state::IN_HAND) {
        None => "dagger".to_string(),
        Some(i) => {
            let key = &d.heap_sets[i];
            if f.part_at >= 0 {
                d.weapon(key).expect("a heap set is a weapon").drop_to.clone()
            } else {
                key.clone()
            }
        }
    }
}

/// Python `has_skill`: skills by role (20.2); a gladiator's by weapon (20.3) and variant.
pub fn has_skill(s: &Saved, f: &Fig, skill: &str) -> bool {
    let d = data();
    if f.zombie {
        return false;
    }
    if is_gladiator(f) {
        let g = d.gladiator_type(&s.state.teams[f.seat as usize].gtype).expect("a known gladiator type");
        if g.extra_skills.iter().any(|x| x == skill) {
            return true;
        }
        let wk = wield_key(f);
        return !wk.is_empty() && d.weapon(&wk).expect("a known weapon").skills.iter().any(|x| x == skill);
    }
    d.role_stats[f.role as usize].skills.iter().any(|x| x == skill)
}

/// Python `magic.may_cast_now`.
pub fn may_cast_now(s: &Saved, w: &Fig) -> bool {
    w.role as usize == WL
        && !w.zombie
        && !has_flag(s, w, "fireform")
        && !w.ordered
        && !s.options.spells_per_step.is_some_and(|lim| w.casts >= lim)
}

/// V9.6 for the warlock (R21, Python `touch_threshold`): the cheapest weapon attack or touch spell
/// with a target on `fld`.
pub fn touch_threshold(s: &Saved, f: &Fig, fld: i64) -> i64 {
    let d = data();
    let mut best = d.cost.attack;
    if !may_cast_now(s, f) {
        return best;
    }
    let held = &s.state.teams[f.seat as usize].discs;
    let others = s.state.figs.iter().flatten().any(|g| g.alive && g.field == fld && g.id != f.id);
    if !others {
        return best;
    }
    let cost_mod: i64 = spell_mods(s, f, "spell_cost").iter().sum();
    for sp in &d.spells {
        let touch = matches!(&sp.range, IntOrWord::Word(w) if w == "touch");
        if touch && sp.target == "char" && held.iter().any(|&l| l as i64 == sp.level) {
            best = best.min(sp.level + cost_mod);
        }
    }
    best
}

/// A set of fields (a bit per field).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fields(Vec<u64>);

impl Fields {
    pub fn new(n: usize) -> Fields {
        Fields(vec![0; n.div_ceil(64)])
    }

    pub fn insert(&mut self, f: i64) {
        if f >= 0 {
            self.0[f as usize / 64] |= 1 << (f % 64);
        }
    }

    /// (off-board fields, -1, are never in a set: the callers ask only about fields on the board)
    pub fn contains(&self, f: i64) -> bool {
        f >= 0 && self.0[f as usize / 64] & (1 << (f % 64)) != 0
    }
}

/// The fields where a living figure of another side than `side` stands (Python `hostile_fields`).
pub fn hostile_fields(s: &Saved, side: u8) -> Fields {
    let st = &s.state;
    let mut out = Fields::new(board().n_fields());
    for g in st.figs.iter().flatten() {
        if g.alive && st.alliance[g.seat as usize] != side {
            out.insert(g.field);
        }
    }
    out
}

pub const MOVE: u8 = 0;
pub const SNEAK: u8 = 1;
pub const DISENGAGE: u8 = 2;
pub const MOVE_MODES: [&str; 3] = ["move", "sneak", "disengage"];

/// A one-field move of a figure: its mode (MOVE, SNEAK, DISENGAGE) and direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub mode: u8,
    pub dir: u8,
}

/// The action text of a figure's move (`xb move ne`).
pub fn step_text(role: u8, m: Step) -> String {
    format!("{} {} {}", data().roles[role as usize], MOVE_MODES[m.mode as usize], board().dirs[m.dir as usize])
}

/// Python `move_options`: every one-field move `move_reason` allows, in the reference's order (by
/// direction; move before sneak). `counts`: the living figures per field; `hostile`: hostile_fields
/// of f's side; `have`: available(s, f).
pub fn move_options(
    s: &Saved,
    f: &Fig,
    counts: &[u8],
    sneak_ok: bool,
    hostile: &Fields,
    have: i64,
    out: &mut Vec<Step>,
) {
    let (b, d) = (board(), data());
    if f.down || f.stopped {
        return;
    }
    if f.moved >= move_limit(s, f) {
        return;
    }
    let double = f.cur_double || (!f.effects.is_empty() && has_flag(s, f, "double_move"));
    let step = d.cost.move_;
    let mut c = if f.running && f.run_credit > 0 {
        0
    } else if double {
        2 * step
    } else {
        step
    };
    // the modes open on a free field, their costs, and whether they may enter an enemy's field
    let mut free = [(MOVE, 0i64); 2];
    let n_free;
    let enemy_ok;
    if hostile.contains(f.field) {
        // in melee: only a disengaging step, which never enters an enemy's field
        if f.attacked || f.cast_other {
            return;
        }
        c += d.cost.disengage;
        if c > have {
            return;
        }
        free[0] = (DISENGAGE, c);
        n_free = 1;
        enemy_ok = false;
    } else {
        let sneak = d.skills.sneaking.cost_per_field;
        let c2 = if double { 2 * sneak } else { sneak };
        if c <= have {
            free[0] = (MOVE, c);
            free[1] = (SNEAK, c2);
            n_free = if sneak_ok && c2 <= have { 2 } else { 1 };
        } else if sneak_ok && c2 <= have {
            free[0] = (SNEAK, c2);
            n_free = 1;
        } else {
            return;
        }
        enemy_ok = !(f.disengaged || f.attacked || f.cast_other);
    }
    let free = &free[..n_free];
    let mut need = -1;
    for &(dir, n, g) in &b.steps[f.field as usize][is_gladiator(f) as usize] {
        if g >= 0 && !s.state.gate_open[g as usize] {
            continue;
        }
        if counts[n as usize] as usize >= b.capacity {
            continue;
        }
        if hostile.contains(n as i64) {
            if enemy_ok {
                if need < 0 {
                    need = if f.role as usize == WL && !f.zombie {
                        touch_threshold(s, f, n as i64)
                    } else {
                        d.cost.attack
                    };
                }
                for &(mode, cost) in free {
                    if have - cost >= need {
                        out.push(Step { mode, dir });
                    }
                }
            }
        } else {
            for &(mode, _) in free {
                out.push(Step { mode, dir });
            }
        }
    }
}

/// The named figures the acting player commands in this step, in figure order (Python
/// `player_controls`: alive, not a zombie, not a madman).
pub fn commanded(s: &Saved) -> Vec<&Fig> {
    let st = &s.state;
    let mut named = st.named.clone();
    named.sort_unstable();
    named
        .into_iter()
        .map(|cid| st.figs[cid as usize].as_ref().expect("a named figure exists"))
        .filter(|f| f.alive && !f.zombie && (f.effects.is_empty() || mad_enemy(s, f) < 0))
        .collect()
}

/// The verbs of the act listing, in the reference's order (`acttab.VERBS`).
pub const VERBS: [&str; 5] = ["hide", "run", "aim", "coat", "drink"];

/// The verbs a figure may use now (`legal.act_actions`' verb loop, i.e. `kinds.verb_reason`): its
/// skill (running and aiming blocked by their effects), not hiding, running or aiming already (nor
/// aiming after its attack or without ammunition), the vial or the potion carried, and the MAN.
pub fn verb_options(s: &Saved, f: &Fig, have: i64, out: &mut Vec<u8>) {
    let d = data();
    let costs = [d.skills.sneaking.hide_cost, d.skills.running.cost, d.skills.aiming.cost, d.vial.cost, d.potion.cost];
    for (v, &cost) in costs.iter().enumerate() {
        let ok = match v {
            0 => has_skill(s, f, "sneaking") && f.sneak != 2,
            1 => has_skill(s, f, "running") && !f.running && !has_flag(s, f, "no_running"),
            2 => has_skill(s, f, "aiming") && !f.aim && !f.attacked && f.ammo > 0 && !has_flag(s, f, "no_aiming"),
            3 => s.options.optional_poison_vial && f.vial,
            _ => s.options.optional_magic_potion && f.potion,
        };
        if ok && have >= cost {
            out.push(v as u8);
        }
    }
}

/// The verbs of the act decision's listing: per commanded figure, its `verb_options`.
pub fn act_verbs(s: &Saved) -> Vec<(u8, Vec<u8>)> {
    commanded(s)
        .into_iter()
        .map(|f| {
            let mut verbs = Vec::new();
            verb_options(s, f, available(s, f), &mut verbs);
            (f.id, verbs)
        })
        .collect()
}

/// The moves of the act decision's listing (Python `act_actions`' first part per figure): for each
/// named figure the player commands, in figure order, its `move_options`.
pub fn act_moves(s: &Saved) -> Vec<(u8, Vec<Step>)> {
    let st = &s.state;
    let mut counts = vec![0u8; board().n_fields()];
    for g in st.figs.iter().flatten() {
        if g.alive && g.field >= 0 {
            counts[g.field as usize] += 1;
        }
    }
    let figs = commanded(s);
    let mut out = Vec::with_capacity(figs.len());
    for f in figs {
        let cid = f.id;
        let hostile = hostile_fields(s, st.alliance[f.seat as usize]);
        let mut steps = Vec::new();
        move_options(s, f, &counts, has_skill(s, f, "sneaking"), &hostile, available(s, f), &mut steps);
        out.push((cid, steps));
    }
    out
}
