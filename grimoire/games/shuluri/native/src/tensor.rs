//! The observation tensor (Python `tensor_into.write`, itself `tensor.fill` of the seat's observation
//! dict): what a seat may know of the state as float32, every value the Python float64 expression
//! rounded to float32. The names below mirror tensor.py's layout; tests/shuluri/test_native_tensor.py
//! compares the two float for float over random games.

use crate::board::board;
use crate::data::data;
use crate::legal::exposed;
use crate::rules::{is_gladiator, wield_key};
use crate::state::{Effect, Fig, Phase, Saved, Scalar, Team};

/// tensor.PHASES, STEP_KINDS and DECISIONS (= kinds.KINDS, the order of `state::Kind`) by their sizes
const N_PHASES: usize = 3;
const N_STEP_KINDS: usize = 3;
const N_DECISIONS: usize = 18;
const MODS: [&str; 7] = ["te", "ve", "ce", "rve", "move", "man_limit", "spell_cost"];
const FLAGS: [&str; 12] = [
    "no_man",
    "madness",
    "fireform",
    "denial",
    "lightning_armour",
    "haemophilia",
    "no_aimed",
    "no_push",
    "double_move",
    "no_running",
    "no_aiming",
    "eg0",
];
const AREAS: [&str; 3] = ["acid", "firestorm", "prison"];
/// tensor.ORDERS after its first entry (no order)
const ORDERS: [&str; 3] = ["goto", "guard", "attack"];
/// a figure's features before the effects' modifiers (tensor.FIG_FEATURES up to "mod_te")
const N_PLAIN: usize = 34;

/// Where each field of the tensor starts for one player count (tensor.spec's offsets).
pub struct Layout {
    players: usize,
    n_feat: usize,
    n_team: usize,
    phase: usize,
    round: usize,
    step: usize,
    step_kind: usize,
    step_seat: usize,
    step_pool: usize,
    first: usize,
    decision: usize,
    decision_seat: usize,
    alliance: usize,
    gates_open: usize,
    gates_jammed: usize,
    teams: usize,
    figures: usize,
    zombie_owner: usize,
    positions: usize,
    corpses: usize,
    areas: usize,
    hand: usize,
    discs: usize,
    starting_weapon: usize,
    terminal: usize,
    pub size: usize,
}

fn n_roles() -> usize {
    data().roles.len()
}

impl Layout {
    pub fn new(players: usize) -> Layout {
        let (b, d) = (board(), data());
        let (p, nf, nr, cards) = (players, b.n_fields(), n_roles(), d.n_trap_cards as usize);
        let n_feat = N_PLAIN + MODS.len() + FLAGS.len() + (2 + d.amulets.len()) + 4 + (1 + d.weapons.len()) + 4;
        let n_team = 7 + b.n_halves + 5 + 2 * cards;
        let sizes = [
            N_PHASES,
            1,
            3 * p,
            N_STEP_KINDS,
            p,
            2,
            p,
            N_DECISIONS,
            p,
            p,
            b.gates.len(),
            b.gates.len(),
            p * n_team,
            (5 * p + (nr - 1) * p) * n_feat,
            (nr - 1) * p * p,
            p * (nr + 1) * nf,
            nf,
            AREAS.len() * nf,
            cards * (1 + nr),
            5,
            d.heap_sets.len(),
            2,
        ];
        let mut at = [0usize; 22];
        let mut size = 0;
        for (a, n) in at.iter_mut().zip(sizes) {
            *a = size;
            size += n;
        }
        Layout {
            players,
            n_feat,
            n_team,
            phase: at[0],
            round: at[1],
            step: at[2],
            step_kind: at[3],
            step_seat: at[4],
            step_pool: at[5],
            first: at[6],
            decision: at[7],
            decision_seat: at[8],
            alliance: at[9],
            gates_open: at[10],
            gates_jammed: at[11],
            teams: at[12],
            figures: at[13],
            zombie_owner: at[14],
            positions: at[15],
            corpses: at[16],
            areas: at[17],
            hand: at[18],
            discs: at[19],
            starting_weapon: at[20],
            terminal: at[21],
            size,
        }
    }

    /// A figure's slot for observer `me`: team t's fighters at 5t..5t+4 (teams relative), then the
    /// zombie raised from team t's role r at 5P + 4t + r - 1.
    fn slot(&self, fid: usize, me: usize) -> usize {
        let (p, n5) = (self.players, 5 * self.players);
        if fid < n5 {
            5 * ((fid / 5 + p - me) % p) + fid % 5
        } else {
            n5 + 4 * (((fid - n5) / 5 + p - me) % p) + (fid - n5) % 5 - 1
        }
    }
}

/// The tensor's size for a player count.
pub fn size(players: usize) -> usize {
    Layout::new(players).size
}

/// Appends float32 values computed in float64, as the Python lists are.
struct Row<'a> {
    out: &'a mut [f32],
    at: usize,
}

impl Row<'_> {
    fn put(&mut self, x: f64) {
        self.out[self.at] = x as f32;
        self.at += 1;
    }

    fn flag(&mut self, x: bool) {
        self.put(if x { 1.0 } else { 0.0 });
    }

    fn ratio(&mut self, x: i64, by: f64) {
        self.put(x as f64 / by);
    }

    /// A one-hot of `n` with `hot` set (none if out of range).
    fn one_hot(&mut self, n: usize, hot: Option<usize>) {
        for i in 0..n {
            self.flag(hot == Some(i));
        }
    }
}

fn rel(of: usize, me: usize, p: usize) -> usize {
    (of + p - me) % p
}

/// Writes `seat`'s observation tensor (None: a spectator, who reads as seat 0) into `out` (the
/// layout's size).
pub fn write(s: &Saved, seat: Option<usize>, out: &mut [f32]) {
    let p = s.players as usize;
    let lay = Layout::new(p);
    let (b, d, st) = (board(), data(), &s.state);
    let nf = b.n_fields();
    out.fill(0.0);
    let me = seat.unwrap_or(0);
    out[lay.phase + st.phase as usize] = 1.0;
    out[lay.round] = (st.round as f64 / 30.0) as f32;
    if st.phase == Phase::Play && st.step_i >= 0 && (st.step_i as usize) < st.sched.len() {
        let i = st.step_i as usize;
        let (step_seat, kind) = st.sched[i];
        out[lay.step + i] = 1.0;
        out[lay.step_kind + kind as usize] = 1.0;
        out[lay.step_seat + rel(step_seat as usize, me, p)] = 1.0;
        out[lay.step_pool] = (st.pool as f64 / 6.0) as f32;
        out[lay.step_pool + 1] = (st.gpool as f64 / 6.0) as f32;
    }
    if st.first >= 0 {
        out[lay.first + rel(st.first as usize, me, p)] = 1.0;
    }
    if let Some(top) = st.stack.first() {
        out[lay.decision + top.kind as usize] = 1.0;
        out[lay.decision_seat + rel(top.seat as usize, me, p)] = 1.0;
    }
    for i in 0..p {
        if st.alliance[(me + i) % p] == st.alliance[me] {
            out[lay.alliance + i] = 1.0;
        }
    }
    for (g, &open) in st.gate_open.iter().enumerate() {
        if open {
            out[lay.gates_open + g] = 1.0;
        }
    }
    for (g, &jam) in st.gate_jam.iter().enumerate() {
        if jam >= st.round && st.round > 0 {
            out[lay.gates_jammed + g] = 1.0;
        }
    }
    for t in &st.teams {
        let at = lay.teams + rel(t.seat as usize, me, p) * lay.n_team;
        team_features(t, &mut Row { out: &mut *out, at });
    }
    figures(s, seat, me, &lay, out);
    for f in st.figs[..5 * p].iter().flatten() {
        if !f.alive && f.field >= 0 && !f.raised {
            out[lay.corpses + f.field as usize] = 1.0;
        }
    }
    for a in &st.areas {
        let k = AREAS.iter().position(|&x| x == a.1).expect("a known area spell") * nf + lay.areas;
        for &x in &a.5 {
            out[k + x as usize] = 1.0;
        }
    }
    if let Some(seat) = seat {
        let t = &st.teams[seat];
        let nr = n_roles();
        for &(c, h) in &t.hand {
            let at = lay.hand + (c as usize - 1) * (1 + nr);
            out[at] = 1.0;
            if h >= 0 {
                out[at + 1 + h as usize % 5] = 1.0;
            }
        }
        for lv in 1..=5u8 {
            out[lay.discs + lv as usize - 1] = (count(&t.discs, lv) as f64 / 6.0) as f32;
        }
        if t.weapon >= 0 {
            out[lay.starting_weapon + t.weapon as usize] = 1.0;
        }
    }
    if st.phase == Phase::Over {
        out[lay.terminal] = 1.0;
        if seat.is_some_and(|x| st.winners_.contains(&(x as u8))) {
            out[lay.terminal + 1] = 1.0;
        }
    }
    debug_assert!(d.heap_sets.len() + lay.starting_weapon + 2 == lay.size);
}

fn count(xs: &[u8], x: u8) -> usize {
    xs.iter().filter(|&&y| y == x).count()
}

fn team_features(t: &Team, w: &mut Row) {
    let d = data();
    w.ratio(t.strat, 4.0);
    w.put(t.hand.len() as f64 / d.traps_per_hand as f64);
    w.put(t.discs.len() as f64 / 6.0);
    w.flag(t.out);
    w.flag(t.react_off);
    w.ratio(t.roll, 10.0);
    w.flag(t.gtype == "sword_artist");
    for k in 0..board().n_halves {
        w.flag(t.half == k as i64);
    }
    for lv in 1..=5u8 {
        w.put(count(&t.cast, lv) as f64 / 4.0);
    }
    for c in 1..=d.n_trap_cards as u8 {
        w.flag(t.played.contains(&c));
    }
    for c in 1..=d.n_trap_cards as u8 {
        w.flag(t.lost.contains(&c));
    }
}

/// The figures' rows, the zombies' owners and the position planes (a third per figure on a field).
fn figures(s: &Saved, seat: Option<usize>, me: usize, lay: &Layout, out: &mut [f32]) {
    let p = lay.players;
    let (nf, nr) = (board().n_fields(), n_roles());
    let mut planes: Vec<(usize, f64)> = Vec::with_capacity(4 * p);
    for f in s.state.figs.iter().flatten() {
        let fs = f.seat as usize;
        let own = seat == Some(fs);
        let slot = lay.slot(f.id as usize, me);
        let at = lay.figures + slot * lay.n_feat;
        let weapon_shown = s.state.teams[fs].weapon_shown;
        fig_features(s, f, own, weapon_shown, &mut Row { out: &mut *out, at });
        let t = rel(fs, me, p);
        if f.alive && f.field >= 0 {
            let role = if f.zombie { nr } else { f.role as usize };
            let k = lay.positions + (t * (nr + 1) + role) * nf + f.field as usize;
            match planes.iter_mut().find(|e| e.0 == k) {
                Some(e) => e.1 += 1.0 / 3.0,
                None => planes.push((k, 1.0 / 3.0)),
            }
        }
        if f.zombie {
            out[lay.zombie_owner + (slot - 5 * p) * p + t] = 1.0;
        }
    }
    for (k, x) in planes {
        out[k] = x as f32;
    }
}

fn fig_features(s: &Saved, f: &Fig, own: bool, weapon_shown: bool, w: &mut Row) {
    let glad = is_gladiator(f);
    let zombie = f.zombie;
    let me = f.me + if own || f.me_shown { f.me_extra } else { 0 };
    w.put(1.0);
    w.flag(f.alive);
    w.ratio(f.ep, 20.0);
    w.ratio(f.max_ep, 20.0);
    w.ratio(f.eg, 5.0);
    w.ratio(me, 8.0);
    w.ratio(f.stp, 6.0);
    w.ratio(f.stp_max, 6.0);
    w.ratio(f.sfe, 3.0);
    w.ratio(f.ammo, 10.0);
    w.ratio(if glad { f.javelins } else { 0 }, 3.0);
    w.ratio(if glad { f.nets } else { 0 }, 2.0);
    w.flag(f.down);
    w.flag(f.sneak == 1);
    w.flag(f.sneak == 2);
    w.flag(f.bell);
    w.flag(f.named);
    w.flag(f.attacked);
    w.flag(f.disengaged);
    w.flag(f.casts > 0);
    w.ratio(f.moved, 8.0);
    w.flag(f.running);
    w.flag(f.aim);
    w.ratio(f.spent, 10.0);
    w.ratio(f.debt, 4.0);
    w.flag(f.stopped);
    w.flag(f.next_no_man || f.netted);
    w.ratio(f.next_limit.max(0), 2.0);
    w.flag(f.next_double);
    w.flag(f.coat);
    w.flag(glad && exposed(s, f, "crossbow"));
    w.flag(glad && exposed(s, f, "daggers"));
    w.ratio(if zombie { f.zman } else { 0 }, 3.0);
    w.ratio(if zombie { f.zfields } else { 0 }, 3.0);
    effects(&f.effects, w);
    let amulet = if !(own || f.amulet_shown) {
        0
    } else if f.amulet >= 0 {
        2 + f.amulet as usize
    } else {
        1
    };
    w.one_hot(2 + data().amulets.len(), Some(amulet));
    let vial_known = own || f.vial_shown;
    w.flag(!vial_known);
    w.flag(vial_known && f.vial);
    let potion_known = own || f.potion_shown;
    w.flag(!potion_known);
    w.flag(potion_known && f.potion);
    let n_weapons = 1 + data().weapons.len();
    if !glad {
        w.one_hot(n_weapons, None);
    } else if !(own || weapon_shown) {
        w.one_hot(n_weapons, Some(0));
    } else {
        let wk = wield_key(f);
        w.one_hot(n_weapons, data().weapons.iter().position(|x| x.key == wk).map(|i| i + 1));
    }
    let order = match f.order.as_deref().and_then(|o| o.first()) {
        Some(Scalar::Str(k)) if zombie => ORDERS.iter().position(|x| x == k).map(|i| i + 1),
        Some(_) if zombie => None,
        _ => Some(0),
    };
    w.one_hot(1 + ORDERS.len(), order);
}

/// The effects' modifiers summed (within an effect a repeated key counts once, its last value: the
/// view's dict) / 10, then their flags.
fn effects(effects: &[Effect], w: &mut Row) {
    for m in MODS {
        let mut total = 0i64;
        for e in effects {
            if let Some((_, x)) = e.5.iter().rev().find(|(k, _)| k == m) {
                total += x;
            }
        }
        w.ratio(total, 10.0);
    }
    for fl in FLAGS {
        w.flag(effects.iter().any(|e| e.6.iter().any(|x| x == fl)));
    }
}
