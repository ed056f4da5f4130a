//! The batch's incremental observation tensor (`batch.rs`). Most of a tensor depends on a few
//! state fields each: a seat's chunks on its player alone, the turn-order fields on the order, the
//! table on the table. Each game keeps, per observing seat, the part of its last tensor that does not
//! depend on the decision (table, seats, own cards) together with the fields it was computed from,
//! and rewrites only the pieces whose fields changed. Comparing the fields finds exactly what an
//! action changed without the rules having to report it, so the row is bit for bit
//! `write_tensor`'s (the same functions write both; `tests/tensor_cache.rs` compares them).

use crate::data::{MAX_CODE, N_ART};
use crate::energy::Hand;
use crate::small::Small;
use crate::state::{Flags, Player, State, MAXP};
use crate::tensor::{parts, tensor_size, write_own_cells, write_player, Parts};

/// The turn order's inputs to the seats' ORDER_FIELDS but the active flag.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Ranks {
    card_of: [i64; MAXP],
    art_mod: [i64; MAXP],
    sent_mod: [i64; MAXP],
}

/// The table part's inputs.
#[derive(Clone, Copy)]
struct TableKey {
    display: Small<u8, 40>,
    art_pile: [i64; N_ART],
    sent_avail: Small<u8, 9>,
    sent_sold: i64,
    gem_supply: [i64; 5],
    deck: [[i64; 6]; 4],
    disc: [[i64; 6]; 4],
    flags: Flags,
}

impl TableKey {
    fn of(s: &State) -> TableKey {
        TableKey {
            display: s.display,
            art_pile: s.art_pile,
            sent_avail: s.sent_avail,
            sent_sold: s.sent_sold,
            gem_supply: s.gem_supply,
            deck: s.deck,
            disc: s.disc,
            flags: s.flags,
        }
    }

    fn matches(&self, s: &State) -> bool {
        self.sent_sold == s.sent_sold
            && self.gem_supply == s.gem_supply
            && self.display == s.display
            && self.deck == s.deck
            && self.disc == s.disc
            && self.art_pile == s.art_pile
            && self.sent_avail == s.sent_avail
            && self.flags == s.flags
    }
}

/// Bits that differ between two arrays (0: equal), without a call to memcmp.
#[inline]
fn diff<const K: usize>(a: &[i64; K], b: &[i64; K]) -> i64 {
    a.iter().zip(b).fold(0, |acc, (x, y)| acc | (x ^ y))
}

#[inline]
fn diff_hand(a: &Hand, b: &Hand) -> u64 {
    const W: usize = MAX_CODE / 8;
    let w = |h: &Hand, i: usize| u64::from_ne_bytes(h[8 * i..8 * i + 8].try_into().expect("8 bytes"));
    (0..W).fold(0, |acc, i| acc | (w(a, i) ^ w(b, i)))
}

/// Every field of two players equal (Small's dead slots too: stricter, never looser).
fn same_player(a: &Player, b: &Player) -> bool {
    let (ta, tb) = (a.tokens.raw(), b.tokens.raw());
    let (sa, sb) = (a.sents.raw(), b.sents.raw());
    let scalars = [a.seat as i64, a.ch as i64, a.dust, a.ncards, a.cardsum, a.pentagon, a.under_dust, a.vp];
    let scalars_b = [b.seat as i64, b.ch as i64, b.dust, b.ncards, b.cardsum, b.pentagon, b.under_dust, b.vp];
    let flags = |p: &Player, t: u8, s: u8| {
        p.advanced as i64 | (p.druid_ruby as i64) << 1 | (p.out as i64) << 2 | (t as i64) << 8 | (s as i64) << 16
    };
    let d = diff(&scalars, &scalars_b)
        | (flags(a, ta.0, sa.0) ^ flags(b, tb.0, sb.0))
        | diff(&a.conc, &b.conc)
        | diff(&a.active, &b.active)
        | diff(&a.inactive, &b.inactive)
        | diff(&a.levels, &b.levels)
        | diff(&a.arts, &b.arts)
        | diff(ta.1, tb.1);
    d == 0 && diff_hand(&a.hand, &b.hand) | diff_hand(&a.under, &b.under) == 0 && sa.1 == sb.1
}

/// A row's pieces to rewrite: bit j < MAXP seat j's player fields (and own cells in row j), then
/// the table and the seats' ORDER_FIELDS.
const TABLE: u16 = 1 << MAXP;
const ORDER: u16 = 1 << (MAXP + 1);
const ALL: u16 = (1 << (MAXP + 2)) - 1;

/// One game's remembered tensor pieces: row r is the body (table, seats, own cells) as seat r last
/// saw it, `stale[r]` what changed since; the keys are the state fields the pieces were written from.
/// A row is brought up to date only when its seat observes (the learner's row alone, in a batch
/// with one learning seat).
pub struct TensorCache {
    n: usize,
    pt: Parts,
    body: usize,
    rows: Vec<f32>,
    stale: [u16; MAXP],
    players: Vec<Player>,
    known: u8, // bit j: players[j] holds seat j's player
    ranks: Option<Ranks>,
    active: Option<usize>,
    table: Option<Box<TableKey>>,
}

impl TensorCache {
    pub fn new(n: usize) -> TensorCache {
        let pt = parts(n);
        let body = pt.table + pt.seats + pt.own - 2;
        TensorCache {
            n,
            pt,
            body,
            rows: vec![0.0; n * body],
            stale: [ALL; MAXP],
            players: vec![Player::default(); n],
            known: 0,
            ranks: None,
            active: None,
            table: None,
        }
    }

    fn touch(&mut self, bits: u16) {
        for x in &mut self.stale[..self.n] {
            *x |= bits;
        }
    }
}

impl State {
    /// `write_tensor(Some(seat), out)`, bit for bit, rewriting only what changed since `cache` was
    /// last used (with any state of the same player count: a new game is just another change).
    pub fn write_tensor_cached(&self, seat: usize, out: &mut [f32], c: &mut TensorCache) {
        let n = self.n;
        if c.n != n {
            *c = TensorCache::new(n);
        }
        let (pt, body) = (c.pt, c.body);
        let (head, rest) = out[..tensor_size(n)].split_at_mut(pt.head);
        self.write_head(Some(seat), head);
        // what changed since the last call
        if !c.table.as_ref().is_some_and(|k| k.matches(self)) {
            c.table = Some(Box::new(TableKey::of(self)));
            c.touch(TABLE);
        }
        let ranks = Ranks { card_of: self.card_of, art_mod: self.art_mod, sent_mod: self.sent_mod };
        let active = self.active_for_view();
        if c.ranks != Some(ranks) || c.active != active {
            (c.ranks, c.active) = (Some(ranks), active);
            c.touch(ORDER);
        }
        for j in 0..n {
            let p = &self.players[j];
            if (c.known >> j) & 1 == 0 || !same_player(&c.players[j], p) {
                c.players[j] = *p;
                c.known |= 1 << j;
                c.touch(1 << j);
            }
        }
        // the seat's row brought up to date
        let stale = std::mem::take(&mut c.stale[seat]);
        let row = &mut c.rows[seat * body..(seat + 1) * body];
        let (table, rest_row) = row.split_at_mut(pt.table);
        let (seats, own) = rest_row.split_at_mut(pt.seats);
        if stale & TABLE != 0 {
            self.write_table(table);
        }
        if stale & ORDER != 0 {
            for j in 0..n {
                self.write_order(j, seats, (j + n - seat) % n, n, active);
            }
        }
        for j in (0..n).filter(|j| (stale >> j) & 1 != 0) {
            write_player(&self.players[j], seats, (j + n - seat) % n, n);
            if j == seat {
                write_own_cells(Some(&self.players[j]), own);
            }
        }
        rest[..body].copy_from_slice(row);
        self.write_own_energy(Some(seat), &mut rest[body..]);
    }
}
