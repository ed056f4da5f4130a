//! What learning needs, written straight into caller-owned buffers: the observation tensor (bit for bit
//! the Python `tensor.fill` of the seat's observation dict, `grimoire/games/zavandor/tensor.py`), the
//! legal-id mask of the action table (`codec.py`) and the decoding of an id to an action code.
//!
//! Every number is computed in f64 exactly as the Python code computes it and rounded to f32 once,
//! as `numpy.asarray(..., float32)` does, so that both tensors are equal bit for bit.

use crate::data::*;
use crate::energy::Hand;
use crate::factored::{self, XBASE};
use crate::legal::{code_text, token_index, top, BID_BASE};
use crate::state::*;
use std::sync::LazyLock;

const LEARNING_TOML: &str = include_str!("../../grimoire/games/zavandor/data/learning.toml");

/// `value / scale` rounded to f32 (as numpy rounds the f64 quotient) for the small whole numbers
/// the tensor mostly holds, read from a table: the same bits as the division, without its cost
/// (the divisions and conversions were most of `write_tensor`).
pub struct Div {
    pub scale: f64,
    t: [f32; DIV_TABLE],
}

const DIV_TABLE: usize = 128;

impl Div {
    fn new(scale: f64) -> Div {
        Div { scale, t: std::array::from_fn(|v| (v as f64 / scale) as f32) }
    }

    #[inline]
    fn of(&self, v: i64) -> f32 {
        if (v as u64) < DIV_TABLE as u64 {
            self.t[v as usize]
        } else {
            (v as f64 / self.scale) as f32
        }
    }
}

/// `m` times `1 / copies` added up in f64 from 0 (as the Python histograms count), rounded to f32.
pub struct Sums {
    t: [f32; SUM_TABLE],
    step: f64,
}

const SUM_TABLE: usize = 32;

impl Sums {
    fn new(step: f64) -> Sums {
        let mut t = [0f32; SUM_TABLE];
        let mut acc = 0.0f64;
        for x in t.iter_mut() {
            *x = acc as f32;
            acc += step;
        }
        Sums { t, step }
    }

    #[inline]
    fn of(&self, m: usize) -> f32 {
        if m < SUM_TABLE {
            self.t[m]
        } else {
            let mut acc = 0.0f64;
            for _ in 0..m {
                acc += self.step;
            }
            acc as f32
        }
    }
}

/// The tensor scales (`[tensor.scale]` of data/learning.toml), each with its table.
pub struct Scale {
    round: Div,
    vp: Div,
    score_part: Div,
    modifier: Div,
    bid: Div,
    money: Div,
    dust: Div,
    cards: Div,
    card_bounds: Div,
    copies: Div,
    gems: Div,
    hand: Div,
    deck: Div,
    supply: Div,
    stack: Div,
    advances: Div,
    energy: Div,
    capacity: Div,
    quarter: Div,     // track levels / 4
    copies_sum: Sums, // a histogram's cell: m cards of 1 / copies each
}

fn load_scale() -> Scale {
    let t: toml::Table = LEARNING_TOML.parse().expect("learning.toml");
    let s = t["tensor"]["scale"].as_table().expect("[tensor.scale]");
    let f = |k: &str| -> f64 {
        let v = &s[k];
        v.as_float().or_else(|| v.as_integer().map(|i| i as f64)).unwrap_or_else(|| panic!("scale {k}"))
    };
    Scale {
        round: Div::new(f("round")),
        vp: Div::new(f("vp")),
        score_part: Div::new(f("score_part")),
        modifier: Div::new(f("modifier")),
        bid: Div::new(f("bid")),
        money: Div::new(f("money")),
        dust: Div::new(f("dust")),
        cards: Div::new(f("cards")),
        card_bounds: Div::new(f("card_bounds")),
        copies: Div::new(f("copies")),
        gems: Div::new(f("gems")),
        hand: Div::new(f("hand")),
        deck: Div::new(f("deck")),
        supply: Div::new(f("supply")),
        stack: Div::new(f("stack")),
        advances: Div::new(f("advances")),
        energy: Div::new(f("energy")),
        capacity: Div::new(f("capacity")),
        quarter: Div::new(4.0),
        copies_sum: Sums::new(1.0 / f("copies")),
    }
}

pub static SCALE: LazyLock<Scale> = LazyLock::new(load_scale);

/// The id of each fixed action code (codes below BID_BASE), and per relative-bid id its offset.
pub struct Ids {
    pub of_code: Vec<usize>,
    pub code_of: Vec<Option<u32>>, // per id: the fixed code (None: a relative bid)
    pub bids: Vec<(usize, i64)>,
    pub num: usize,
}

fn load_ids() -> Ids {
    let d = data();
    let num = d.action_texts.len();
    let mut code_of = vec![None; num];
    let of_code: Vec<usize> = (0..BID_BASE)
        .map(|c| {
            let t = code_text(c);
            let i = d.action_texts.iter().position(|x| x.as_deref() == Some(t.as_str()));
            let i = i.unwrap_or_else(|| panic!("actions.txt lacks {t:?}"));
            code_of[i] = Some(c);
            i
        })
        .collect();
    Ids { of_code, code_of, bids: d.bid_offsets.clone(), num }
}

pub static IDS: LazyLock<Ids> = LazyLock::new(load_ids);

/// The tensor in four parts for `n` players, in layout order: the head (round .. auction_price: the
/// decision and the auction, its seat fields relative to the observer), the table (display ..
/// options), the seats (p_in_game .. p_flags: per field one chunk per seat, own seat first) and the
/// own part (own_card_values, own_under_values, then own_energy's two numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parts {
    pub head: usize,
    pub table: usize,
    pub seats: usize,
    pub own: usize,
}

/// The number of card values over the four colours (21).
fn n_values() -> usize {
    data().card_copies.iter().map(|v| v.len()).sum()
}

pub fn parts(n: usize) -> Parts {
    let d = data();
    let ni = d.items.len();
    let nv = n_values();
    Parts {
        head: 25 + 2 * ni + 6 * n,
        table: N_ART + d.letters.len() + (ni - N_ART) + 1 + 5 + 4 + nv + 4,
        seats: SEAT.per_seat() * n,
        own: 2 * nv + 2,
    }
}

/// The length of the tensor for `n` players (the order of `tensor._layout`).
pub fn tensor_size(n: usize) -> usize {
    let p = parts(n);
    p.head + p.table + p.seats + p.own
}

/// The per-seat fields (p_in_game .. p_flags) in layout order.
pub const NF: usize = 21;
const F_IN: usize = 0;
const F_ACTIVE: usize = 1;
const F_CHAR: usize = 2;
const F_ORDER: usize = 3;
const F_MOD: usize = 4;
const F_SCORE: usize = 5;
const F_DUST: usize = 6;
const F_CARDS: usize = 7;
const F_BOUNDS: usize = 8;
const F_CONC: usize = 9;
const F_UNDER: usize = 10;
const F_GA: usize = 11;
const F_GI: usize = 12;
const F_SLOTS: usize = 13;
const F_KNOW: usize = 14;
const F_TOK: usize = 15;
const F_PENT: usize = 16;
const F_ARTS: usize = 17;
const F_SENTS: usize = 18;
const F_HAND: usize = 19;
const F_FLAGS: usize = 20;
/// The fields that depend on the turn order rather than on the player.
pub const ORDER_FIELDS: [usize; 3] = [F_ACTIVE, F_ORDER, F_MOD];

/// Each per-seat field has one chunk of `w[f]` numbers per seat, a field's chunks side by side.
pub struct SeatLayout {
    pub w: [usize; NF],
    cum: [usize; NF + 1],
}

impl SeatLayout {
    pub fn per_seat(&self) -> usize {
        self.cum[NF]
    }

    /// Where field `f`'s chunk of relative seat `k` starts within the seats part (`n` seats). With
    /// n = 1 and k = 0 it is the field's place in one seat's block (fields one after another).
    #[inline]
    pub fn at(&self, f: usize, k: usize, n: usize) -> usize {
        n * self.cum[f] + k * self.w[f]
    }
}

fn seat_layout() -> SeatLayout {
    let d = data();
    let ns = d.items.len() - N_ART;
    let w = [1, 1, d.characters.len(), d.roman.len(), 2, 4, 1, 4, 3, 4, 5, 5, 5, 1, 6, 5, 1, N_ART, ns, 2, 2];
    let mut cum = [0; NF + 1];
    for f in 0..NF {
        cum[f + 1] = cum[f] + w[f];
    }
    SeatLayout { w, cum }
}

pub static SEAT: LazyLock<SeatLayout> = LazyLock::new(seat_layout);

/// A cursor over the output that writes fields in layout order.
struct W<'a> {
    out: &'a mut [f32],
    at: usize,
}

impl W<'_> {
    #[inline]
    fn put(&mut self, v: f64) {
        self.out[self.at] = v as f32;
        self.at += 1;
    }
    #[inline]
    fn int(&mut self, v: i64, d: &Div) {
        self.out[self.at] = d.of(v);
        self.at += 1;
    }
    /// Leaves `k` zeros (each part is zeroed before it is written).
    #[inline]
    fn zeros(&mut self, k: usize) {
        self.at += k;
    }
    #[inline]
    fn one_hot(&mut self, k: usize, i: Option<usize>) {
        if let Some(i) = i {
            self.out[self.at + i] = 1.0;
        }
        self.at += k;
    }
}

#[inline]
fn flag(b: bool) -> f32 {
    if b {
        1.0
    } else {
        0.0
    }
}

/// `k` cells from `at` all 0 but cell `i` (if any) 1.
#[inline]
fn one_hot(r: &mut [f32], at: usize, k: usize, i: Option<usize>) {
    r[at..at + k].fill(0.0);
    if let Some(i) = i {
        r[at + i] = 1.0;
    }
}

fn value_base() -> [usize; 4] {
    let d = data();
    let mut b = [0usize; 4];
    for c in 1..4 {
        b[c] = b[c - 1] + d.card_copies[c - 1].len();
    }
    b
}

static VALUE_BASE: LazyLock<[usize; 4]> = LazyLock::new(value_base);

const WORDS: usize = MAX_CODE / 8;
const _: () = assert!(MAX_CODE % 8 == 0, "a hand is read as whole words");

/// A hand as little-endian words of 8 codes: byte j of a word is code 8w + j (colour j % 4).
#[inline]
fn words(h: &Hand) -> [u64; WORDS] {
    std::array::from_fn(|w| u64::from_le_bytes(h[8 * w..8 * w + 8].try_into().expect("8 bytes")))
}

/// Cards per colour of a hand: the bytes summed as 16-bit lanes (even and odd bytes apart; a lane
/// holds at most WORDS * 255), then the lanes of a colour added.
#[inline]
fn colour_counts(ws: &[u64; WORDS]) -> [i64; 4] {
    const LO: u64 = 0x00FF_00FF_00FF_00FF;
    let (mut even, mut odd) = (0u64, 0u64);
    for &x in ws {
        even += x & LO;
        odd += (x >> 8) & LO;
    }
    let lane = |v: u64, i: u32| ((v >> (16 * i)) & 0xFFFF) as i64;
    // even bytes 0, 2, 4, 6 are colours 0, 2, 0, 2; odd bytes 1, 3, 5, 7 colours 1, 3, 1, 3
    [
        lane(even, 0) + lane(even, 2),
        lane(odd, 0) + lane(odd, 2),
        lane(even, 1) + lane(even, 3),
        lane(odd, 1) + lane(odd, 3),
    ]
}

/// Each code held (code, count), in code order, skipping the empty words.
#[inline]
fn each_code(ws: &[u64; WORDS], mut f: impl FnMut(usize, u8)) {
    for (w, &x) in ws.iter().enumerate() {
        let mut x = x;
        while x != 0 {
            let j = x.trailing_zeros() as usize / 8;
            f(8 * w + j, (x >> (8 * j)) as u8);
            x &= !(0xFFu64 << (8 * j));
        }
    }
}

/// What the tensor shows of one hand, from one pass: cards per colour, and the least, average and
/// greatest total they can be worth (the average summed card by card in code order, as Python does).
#[derive(Clone, Copy, Default)]
struct HandSums {
    by_colour: [i64; 4],
    lo: i64,
    hi: i64,
    avg: f64,
}

#[inline]
fn hand_sums(ws: &[u64; WORDS]) -> HandSums {
    let d = data();
    let by_colour = colour_counts(ws);
    let mut avg = 0.0f64;
    each_code(ws, |code, m| {
        let a = d.card_avg[code & 3];
        for _ in 0..m {
            avg += a;
        }
    });
    let (mut lo, mut hi) = (0i64, 0i64);
    for c in 0..4 {
        lo += by_colour[c] * d.card_min[c];
        hi += by_colour[c] * d.card_max[c];
    }
    HandSums { by_colour, lo, hi, avg }
}

/// The per-seat score breakdown of the observation (`score_now`).
fn score_parts(p: &Player) -> [i64; 4] {
    let d = data();
    if p.out {
        return [0; 4];
    }
    let l4 = p.levels.iter().filter(|&&lv| lv >= d.max_level).count() as i64;
    let arts: i64 = (0..12).map(|k| p.arts[k] * d.art_vp[k]).sum();
    let sents: i64 = p.sents.iter().map(|&s| d.sent_base_vp + sentinel_bonus(p, s as usize)).sum();
    [gem_vp(p), d.level4_vp * l4, arts, sents]
}

/// A player's fields of the seats part (all but ORDER_FIELDS) as chunk `k` of `r` (`n` seats):
/// every number of those chunks is written, from the player alone.
pub fn write_player(p: &Player, r: &mut [f32], k: usize, n: usize) {
    let s = &*SCALE;
    let l = &*SEAT;
    let at = |f: usize| l.at(f, k, n);
    let hs = hand_sums(&words(&p.hand));
    let under = colour_counts(&words(&p.under));
    r[at(F_IN)] = flag(!p.out);
    one_hot(r, at(F_CHAR), l.w[F_CHAR], Some(p.ch));
    let b = at(F_SCORE);
    for (i, v) in score_parts(p).into_iter().enumerate() {
        r[b + i] = s.score_part.of(v);
    }
    r[at(F_DUST)] = s.dust.of(p.dust);
    let b = at(F_CARDS);
    for c in 0..4 {
        r[b + c] = s.cards.of(hs.by_colour[c]);
    }
    let b = at(F_BOUNDS);
    let avg = (hs.avg * 100.0).round() / 100.0;
    r[b] = s.card_bounds.of(hs.lo);
    r[b + 1] = (avg / s.card_bounds.scale) as f32;
    r[b + 2] = s.card_bounds.of(hs.hi);
    let b = at(F_CONC);
    for c in 0..4 {
        r[b + c] = s.copies.of(p.conc[c]);
    }
    let b = at(F_UNDER);
    for c in 0..4 {
        r[b + c] = s.cards.of(under[c]);
    }
    r[b + 4] = s.dust.of(p.under_dust);
    let (ba, bi) = (at(F_GA), at(F_GI));
    for g in 0..5 {
        r[ba + g] = s.gems.of(p.active[g]);
        r[bi + g] = s.gems.of(p.inactive[g]);
    }
    r[at(F_SLOTS)] = s.gems.of(p.slots());
    let b = at(F_KNOW);
    for t in 0..6 {
        r[b + t] = s.quarter.of(p.levels[t]);
    }
    let b = at(F_TOK);
    r[b..b + l.w[F_TOK]].fill(0.0);
    for &price in p.tokens.iter() {
        r[b + token_index(price)] = 1.0;
    }
    r[at(F_PENT)] = s.copies.of(p.pentagon);
    let b = at(F_ARTS);
    for a in 0..N_ART {
        r[b + a] = s.copies.of(p.arts[a]);
    }
    let b = at(F_SENTS);
    r[b..b + l.w[F_SENTS]].fill(0.0);
    for &x in p.sents.iter() {
        r[b + x as usize] = 1.0;
    }
    let b = at(F_HAND);
    r[b] = s.hand.of(p.hand_count());
    r[b + 1] = s.hand.of(p.hand_limit());
    let b = at(F_FLAGS);
    r[b] = flag(p.advanced);
    r[b + 1] = flag(p.druid_ruby);
}

/// The own part but energy (2 * 21 cells): the seat's cards in hand and under its turn-order card,
/// each code in its own cell, m cards being m additions of 1 / copies (a table). None: all 0.
pub fn write_own_cells(p: Option<&Player>, r: &mut [f32]) {
    let d = data();
    let s = &*SCALE;
    let vb = &*VALUE_BASE;
    r.fill(0.0);
    let Some(p) = p else { return };
    let nv = r.len() / 2;
    for (h, at) in [(&p.hand, 0), (&p.under, nv)] {
        each_code(&words(h), |code, m| {
            let c = code & 3;
            let i = vb[c] + ((code >> 2) as i64 - d.card_min[c]) as usize;
            r[at + i] = s.copies_sum.of(m as usize);
        });
    }
}

impl State {
    pub(crate) fn active_for_view(&self) -> Option<usize> {
        if self.over || self.stage != Stage::Turn || self.turn_idx >= self.order.len() {
            None
        } else {
            Some(self.order.as_slice()[self.turn_idx] as usize)
        }
    }

    /// Seat `j`'s ORDER_FIELDS as chunk `k` of the seats part `r` (`n` seats); `active`: the seat
    /// whose turn it is (`active_for_view`).
    pub(crate) fn write_order(&self, j: usize, r: &mut [f32], k: usize, n: usize, active: Option<usize>) {
        let s = &*SCALE;
        let l = &*SEAT;
        r[l.at(F_ACTIVE, k, n)] = flag(active == Some(j));
        let c = self.card_of[j];
        one_hot(r, l.at(F_ORDER, k, n), l.w[F_ORDER], if c >= 0 { Some(c as usize) } else { None });
        let b = l.at(F_MOD, k, n);
        r[b] = s.modifier.of(self.art_mod[j]);
        r[b + 1] = s.modifier.of(self.sent_mod[j]);
    }

    /// The head part (`parts(n).head` numbers) as `seat` sees it (None: a spectator, as seat 0).
    pub(crate) fn write_head(&self, seat: Option<usize>, out: &mut [f32]) {
        let d = data();
        let s = &*SCALE;
        let n = self.n;
        let me = seat.unwrap_or(0);
        let rel = |x: usize| (x + n - me) % n;
        let abs = |k: usize| (me + k) % n;
        out.fill(0.0);
        let mut w = W { out, at: 0 };
        w.int(self.round, &s.round);
        w.put(if self.over { 1.0 } else { 0.0 });
        w.one_hot(n, self.current_player().map(rel));
        for k in 0..n {
            w.int(self.players[abs(k)].vp, &s.vp);
        }
        let stage = match self.stage {
            Stage::Turn => 0,
            Stage::Hand => 1,
            Stage::Over => 2,
        };
        w.one_hot(3, Some(stage));
        // the decision (none at the end)
        let dec = if self.over { None } else { Some(top(self)) };
        let kind = dec.map(|t| t.map_or(0, |x| x.kind as usize + 1));
        w.one_hot(7, kind);
        let turn = kind == Some(0);
        let group = if turn && self.group != 0 { Some((self.group - b'a') as usize) } else { None };
        w.one_hot(3, group);
        for i in 0..3 {
            w.put(if turn && (self.groups_done >> i) & 1 != 0 { 1.0 } else { 0.0 });
        }
        let pend = dec.flatten();
        let item = pend.filter(|x| x.kind == Kind::Apay).map(|x| x.payload as usize);
        w.one_hot(d.items.len(), item);
        let adv = pend.filter(|x| x.kind == Kind::Free).map_or(0, |x| x.payload);
        w.int(adv, &s.advances);
        // the open purchase
        let tab = self.tab_seat >= 0;
        w.one_hot(n, if tab { Some(rel(self.tab_seat as usize)) } else { None });
        if tab {
            w.int(self.tab_owed, &s.money);
            w.int(self.tab_credit, &s.money);
        } else {
            w.zeros(2);
        }
        // the auction
        w.put(if self.auc.is_some() { 1.0 } else { 0.0 });
        w.one_hot(d.items.len(), self.auc.map(|a| a.item));
        match self.auc {
            Some(a) => {
                let min = d.item_min_bid[a.item];
                w.int(min, &s.bid);
                w.int(a.high.unwrap_or(0), &s.bid);
                w.put(if a.high.is_some() { 1.0 } else { 0.0 });
                w.one_hot(n, if a.high_seat >= 0 { Some(rel(a.high_seat as usize)) } else { None });
                for k in 0..n {
                    w.put(if (a.passed >> abs(k)) & 1 != 0 { 1.0 } else { 0.0 });
                }
                for k in 0..n {
                    let x = abs(k);
                    let v = if self.order.iter().any(|&o| o as usize == x) {
                        self.price_for(x, a.item, a.high.unwrap_or(min))
                    } else {
                        0
                    };
                    w.int(v, &s.bid);
                }
            }
            None => w.zeros(3 + 3 * n),
        }
        debug_assert_eq!(w.at, w.out.len());
    }

    /// The table part (`parts(n).table` numbers): the same for every seat.
    pub(crate) fn write_table(&self, out: &mut [f32]) {
        let d = data();
        let s = &*SCALE;
        out.fill(0.0);
        let mut w = W { out, at: 0 };
        let mut display = [0usize; N_ART];
        for &k in self.display.iter() {
            display[k as usize] += 1;
        }
        for m in display {
            w.out[w.at] = s.copies_sum.of(m);
            w.at += 1;
        }
        for l in 0..d.letters.len() {
            let v: i64 = (0..12).filter(|&k| d.art_letter[k] == l).map(|k| self.art_pile[k]).sum();
            w.int(v, &s.stack);
        }
        let ns = d.items.len() - N_ART;
        let at = w.at;
        w.zeros(ns);
        for &x in self.sent_avail.iter() {
            w.out[at + x as usize] = 1.0;
        }
        w.int(self.sent_sold, &s.copies);
        for g in 0..5 {
            w.int(self.gem_supply[g], &s.supply);
        }
        for c in 0..4 {
            let len = d.card_copies[c].len();
            w.int(self.deck[c][..len].iter().sum::<i64>(), &s.deck);
        }
        for c in 0..4 {
            for i in 0..d.card_copies[c].len() {
                w.int(self.disc[c][i], &s.copies);
            }
        }
        let f = &self.flags;
        for b in [f.strict, f.combine, f.sages_dust, f.druid_l3] {
            w.put(if b { 1.0 } else { 0.0 });
        }
        debug_assert_eq!(w.at, w.out.len());
    }

    /// own_energy: the seat's energy in hand and payment capacity (a spectator: 0, 0).
    pub(crate) fn write_own_energy(&self, seat: Option<usize>, out: &mut [f32]) {
        let s = &*SCALE;
        match seat {
            Some(x) => {
                out[0] = s.energy.of(self.players[x].energy());
                out[1] = s.capacity.of(self.capacity(x));
            }
            None => out[..2].fill(0.0),
        }
    }

    /// The observation tensor of `seat` (None: a spectator) into `out` (`tensor_size(n)` floats).
    pub fn write_tensor(&self, seat: Option<usize>, out: &mut [f32]) {
        let n = self.n;
        let pt = parts(n);
        let me = seat.unwrap_or(0);
        let (head, rest) = out[..tensor_size(n)].split_at_mut(pt.head);
        let (table, rest) = rest.split_at_mut(pt.table);
        let (seats, own) = rest.split_at_mut(pt.seats);
        self.write_head(seat, head);
        self.write_table(table);
        let active = self.active_for_view();
        for k in 0..n {
            let j = (me + k) % n;
            write_player(&self.players[j], seats, k, n);
            self.write_order(j, seats, k, n, active);
        }
        let (cells, energy) = own.split_at_mut(pt.own - 2);
        write_own_cells(seat.map(|x| &self.players[x]), cells);
        self.write_own_energy(seat, energy);
    }

    /// The bids that are legal now: (lowest, highest), None without a bid decision.
    fn bid_range(&self) -> Option<(i64, i64)> {
        let t = top(self)?;
        if t.kind != Kind::Bid || self.over {
            return None;
        }
        let a = self.auc?;
        let lo = match a.high {
            None => data().item_min_bid[a.item],
            Some(h) => h + 1,
        };
        let hi = self.max_bid(t.seat as usize, a.item);
        Some((lo, if a.high.is_none() { hi.max(lo) } else { hi }))
    }

    /// The legal-id mask (0/1 per id of the action table), from `legal` (the legal codes).
    pub fn write_mask(&self, legal: &[u32], out: &mut [i8]) {
        let ids = &*IDS;
        out.fill(0);
        for &c in legal {
            if c < BID_BASE {
                out[ids.of_code[c as usize]] = 1;
            }
        }
        if let Some((lo, hi)) = self.bid_range() {
            for &(id, off) in &ids.bids {
                if lo + off <= hi {
                    out[id] = 1;
                }
            }
        }
        self.factored_ids(|id| out[id] = 1);
    }

    /// The action code of id `i` here (None: no such id, or a relative bid without an auction).
    pub fn code_of_id(&self, i: usize) -> Option<u32> {
        let ids = &*IDS;
        match ids.code_of.get(i)? {
            Some(c) => Some(*c),
            None if factored::act_of_id(i).is_some() => Some(XBASE + i as u32),
            None => {
                let off = ids.bids.iter().find(|b| b.0 == i)?.1;
                let a = self.auc?;
                let lo = match a.high {
                    None => data().item_min_bid[a.item],
                    Some(h) => h + 1,
                };
                Some(BID_BASE + (lo + off) as u32)
            }
        }
    }
}
