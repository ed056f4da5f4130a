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

/// Where each field of the tensor starts for `n` players (the order of `tensor._layout`).
pub fn tensor_size(n: usize) -> usize {
    let d = data();
    let (ni, na, ns) = (d.items.len(), N_ART, d.items.len() - N_ART);
    let fixed = 1 + 1 + 3 + 7 + 3 + 3 + ni + 1 + 2 + 1 + ni + 3 + na + d.letters.len() + ns + 1 + 5 + 4 + 21 + 4;
    let seat_vectors = 6; // to_move, scores, tab_seat, auction_high_bidder, auction_passed, auction_price
    let per_seat = 1
        + 1
        + d.characters.len()
        + d.roman.len()
        + 2
        + 4
        + 1
        + 4
        + 3
        + 4
        + 5
        + 5
        + 5
        + 1
        + 6
        + 5
        + 1
        + na
        + ns
        + 2
        + 2;
    fixed + seat_vectors * n + per_seat * n + 21 + 21 + 2
}

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
    /// Leaves `k` zeros (the row is zeroed once before it is written).
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

/// The derived numbers of one seat's block, computed once per seat and step.
#[derive(Clone, Copy, Default)]
struct SeatSums {
    hand: HandSums,
    under: [i64; 4],
    parts: [i64; 4],
    slots: i64,
    count: i64,
    limit: i64,
}

impl State {
    /// The per-seat score breakdown of the observation (`score_now`).
    fn score_parts(&self, p: &Player) -> [i64; 4] {
        let d = data();
        if p.out {
            return [0; 4];
        }
        let l4 = p.levels.iter().filter(|&&lv| lv >= d.max_level).count() as i64;
        let arts: i64 = (0..12).map(|k| p.arts[k] * d.art_vp[k]).sum();
        let sents: i64 = p.sents.iter().map(|&s| d.sent_base_vp + sentinel_bonus(p, s as usize)).sum();
        [gem_vp(p), d.level4_vp * l4, arts, sents]
    }

    fn active_for_view(&self) -> Option<usize> {
        if self.over || self.stage != Stage::Turn || self.turn_idx >= self.order.len() {
            None
        } else {
            Some(self.order.as_slice()[self.turn_idx] as usize)
        }
    }

    /// The observation tensor of `seat` (None: a spectator) into `out` (`tensor_size(n)` floats).
    pub fn write_tensor(&self, seat: Option<usize>, out: &mut [f32]) {
        let d = data();
        let s = &*SCALE;
        let n = self.n;
        let me = seat.unwrap_or(0);
        let rel = |x: usize| (x + n - me) % n;
        let seats: [usize; MAXP] = std::array::from_fn(|k| (me + k) % n.max(1));
        let abs = |k: usize| seats[k];
        let vb = &*VALUE_BASE;
        // one fill of the whole row: the one-hots and empty fields below only set their ones
        out[..tensor_size(n)].fill(0.0);
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
        // the table
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
        // the players, field by field, own seat first; each seat's derived numbers computed once
        let active = self.active_for_view();
        let ps = |k: usize| &self.players[abs(k)];
        let mut sums = [SeatSums::default(); MAXP];
        let mut own = [[0u64; WORDS]; 2];
        for k in 0..n {
            let p = ps(k);
            let (hw, uw) = (words(&p.hand), words(&p.under));
            sums[k] = SeatSums {
                hand: hand_sums(&hw),
                under: colour_counts(&uw),
                parts: self.score_parts(p),
                slots: p.slots(),
                count: p.hand_count(),
                limit: p.hand_limit(),
            };
            if k == 0 {
                own = [hw, uw];
            }
        }
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        for k in 0..n {
            w.put(flag(!ps(k).out));
        }
        for k in 0..n {
            w.put(flag(active == Some(abs(k))));
        }
        for k in 0..n {
            w.one_hot(d.characters.len(), Some(ps(k).ch));
        }
        for k in 0..n {
            let c = self.card_of[abs(k)];
            w.one_hot(d.roman.len(), if c >= 0 { Some(c as usize) } else { None });
        }
        for k in 0..n {
            w.int(self.art_mod[abs(k)], &s.modifier);
            w.int(self.sent_mod[abs(k)], &s.modifier);
        }
        for x in &sums[..n] {
            for v in x.parts {
                w.int(v, &s.score_part);
            }
        }
        for k in 0..n {
            w.int(ps(k).dust, &s.dust);
        }
        for x in &sums[..n] {
            for v in x.hand.by_colour {
                w.int(v, &s.cards);
            }
        }
        for x in &sums[..n] {
            let h = &x.hand;
            let avg = (h.avg * 100.0).round() / 100.0;
            w.int(h.lo, &s.card_bounds);
            w.put(avg / s.card_bounds.scale);
            w.int(h.hi, &s.card_bounds);
        }
        for k in 0..n {
            for c in 0..4 {
                w.int(ps(k).conc[c], &s.copies);
            }
        }
        for k in 0..n {
            for v in sums[k].under {
                w.int(v, &s.cards);
            }
            w.int(ps(k).under_dust, &s.dust);
        }
        for k in 0..n {
            for g in 0..5 {
                w.int(ps(k).active[g], &s.gems);
            }
        }
        for k in 0..n {
            for g in 0..5 {
                w.int(ps(k).inactive[g], &s.gems);
            }
        }
        for x in &sums[..n] {
            w.int(x.slots, &s.gems);
        }
        for k in 0..n {
            for t in 0..6 {
                w.int(ps(k).levels[t], &s.quarter);
            }
        }
        for k in 0..n {
            let at = w.at;
            w.zeros(5);
            for &price in ps(k).tokens.iter() {
                w.out[at + token_index(price)] = 1.0;
            }
        }
        for k in 0..n {
            w.int(ps(k).pentagon, &s.copies);
        }
        for k in 0..n {
            for a in 0..N_ART {
                w.int(ps(k).arts[a], &s.copies);
            }
        }
        for k in 0..n {
            let at = w.at;
            w.zeros(ns);
            for &x in ps(k).sents.iter() {
                w.out[at + x as usize] = 1.0;
            }
        }
        for k in 0..n {
            w.int(sums[k].count, &s.hand);
            w.int(sums[k].limit, &s.hand);
        }
        for k in 0..n {
            w.put(flag(ps(k).advanced));
            w.put(flag(ps(k).druid_ruby));
        }
        // the seat's own cards (a spectator: none)
        for ws in &own {
            let at = w.at;
            w.zeros(21);
            if seat.is_some() {
                // the seat is relative seat 0 (its block came first); each code has its own cell,
                // m cards being m additions of 1 / copies (a table)
                each_code(ws, |code, m| {
                    let c = code & 3;
                    let i = vb[c] + ((code >> 2) as i64 - d.card_min[c]) as usize;
                    w.out[at + i] = s.copies_sum.of(m as usize);
                });
            }
        }
        match seat {
            Some(x) => {
                w.int(self.players[x].energy(), &s.energy);
                w.int(self.capacity(x), &s.capacity);
            }
            None => w.zeros(2),
        }
        debug_assert_eq!(w.at, tensor_size(n));
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
