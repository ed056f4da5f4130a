//! The batch's incremental observation tensor (`batch.rs`). Most of a tensor depends on a few
//! state fields each: a seat's chunks on its player alone, the turn-order fields on the order, the
//! table on the table. Each game keeps those pieces (as seat 0 sees them) together with the fields
//! they were computed from, and rewrites only the pieces whose fields changed; an observer's tensor
//! is the head (rewritten every step) and the pieces rotated to its view. Comparing the fields finds
//! exactly what an action changed without the rules having to report it, so the row is bit for bit
//! `write_tensor`'s (the same functions write both; `tests/tensor_cache.rs` compares them). One row
//! per game rather than one per observer: a batch of 1,024 games must stay small in the caches.

use crate::data::{MAX_CODE, N_ART};
use crate::energy::Hand;
use crate::small::Small;
use crate::state::{Flags, Player, State, MAXP};
use crate::tensor::{parts, tensor_size, write_own_cells, write_player, Parts, NF, SEAT};
use std::sync::LazyLock;

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
        let rows = |a: &[[i64; 6]; 4], b: &[[i64; 6]; 4]| (0..4).fold(0, |acc, c| acc | diff(&a[c], &b[c]));
        (self.sent_sold ^ s.sent_sold)
            | diff(&self.gem_supply, &s.gem_supply)
            | rows(&self.deck, &s.deck)
            | rows(&self.disc, &s.disc)
            | diff(&self.art_pile, &s.art_pile)
            == 0
            && self.display == s.display
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
    let sents = |x: &[u8; 9]| u64::from_ne_bytes(x[..8].try_into().expect("8 bytes"));
    d == 0
        && diff_hand(&a.hand, &b.hand) | diff_hand(&a.under, &b.under) | (sents(sa.1) ^ sents(sb.1)) == 0
        && sa.1[8] == sb.1[8]
}

/// One game's remembered tensor pieces, as seat 0 sees them: the table, the seats (seat j's chunks
/// in place j) and every seat's own cells; the keys are the state fields they were written from.
/// An observer's body is the row with each per-seat field rotated to start at its own chunk
/// (`runs`: the copies that make it, adjacent ones merged).
pub struct TensorCache {
    n: usize,
    pt: Parts,
    row: Vec<f32>,
    players: Vec<Player>,
    known: u8, // bit j: players[j] holds seat j's player
    ranks: Option<Ranks>,
    active: Option<usize>,
    // inline, not boxed: fetched with the slot (a box was a cache miss per game and step)
    table: Option<TableKey>,
}

/// Per player count and observer, the copies that make an observer's body: (from in the row, to
/// in the body, length). One table for every game (not one per game: fewer lines to fetch).
type Runs = Vec<(u16, u16, u16)>;
static RUNS: LazyLock<Vec<Vec<Runs>>> =
    LazyLock::new(|| (0..=MAXP).map(|n| (0..n).map(|me| runs(n, &parts(n), me)).collect()).collect());

fn runs(n: usize, pt: &Parts, me: usize) -> Vec<(u16, u16, u16)> {
    let cells = pt.own - 2;
    let mut v = vec![(0, 0, pt.table)];
    for f in 0..NF {
        let (base, w) = (pt.table + SEAT.at(f, 0, n), SEAT.w[f]);
        v.push((base + me * w, base, (n - me) * w));
        v.push((base, base + (n - me) * w, me * w));
    }
    v.push((pt.table + pt.seats + me * cells, pt.table + pt.seats, cells));
    let mut out: Vec<(u16, u16, u16)> = Vec::new();
    for (src, dst, len) in v.into_iter().filter(|r| r.2 > 0) {
        match out.last_mut() {
            Some(l) if (l.0 + l.2) as usize == src && (l.1 + l.2) as usize == dst => l.2 += len as u16,
            _ => out.push((src as u16, dst as u16, len as u16)),
        }
    }
    out
}

impl TensorCache {
    pub fn new(n: usize) -> TensorCache {
        let pt = parts(n);
        TensorCache {
            n,
            pt,
            row: vec![0.0; pt.table + pt.seats + n * (pt.own - 2)],
            players: Vec::new(), // the compare form's keys (write_tensor_cached), made at its first use
            known: 0,
            ranks: None,
            active: None,
            table: None,
        }
    }

    /// Fetches the row into the caches (`batch::prefetch_ahead`; the batch compares no players).
    pub fn prefetch(&self) {
        crate::batch::prefetch(self.row.as_ptr() as *const u8, std::mem::size_of_val(&self.row[..]));
    }
}

impl State {
    /// `write_tensor(Some(seat), out)`, bit for bit, rewriting only what changed since `cache` was
    /// last used (with any state of the same player count: a new game is just another change).
    pub fn write_tensor_cached(&self, seat: usize, out: &mut [f32], c: &mut TensorCache) {
        if c.n != self.n || c.players.len() != self.n {
            *c = TensorCache::new(self.n);
            c.players = vec![Player::default(); self.n];
        }
        self.write_cached(seat, out, c, |c, j, p| {
            let same = (c.known >> j) & 1 != 0 && same_player(&c.players[j], p);
            if !same {
                c.players[j] = *p;
            }
            !same
        });
    }

    /// The batch's form of `write_tensor_cached`: the seats whose players were touched since the
    /// last call (`Players::take_touched`: the rules' every write) are rewritten, the others are
    /// not compared. For a cache used with this state alone (a new state has every seat touched,
    /// so a slot's state replaced at a reset is safe); `tests/tensor_cache.rs` checks it too.
    pub fn write_tensor_touched(&mut self, seat: usize, out: &mut [f32], c: &mut TensorCache) {
        if c.n != self.n {
            *c = TensorCache::new(self.n);
        }
        let touched = self.players.take_touched();
        self.write_cached(seat, out, c, |c, j, _| (c.known >> j) & 1 == 0 || (touched >> j) & 1 != 0);
    }

    fn write_cached(
        &self,
        seat: usize,
        out: &mut [f32],
        c: &mut TensorCache,
        changed: impl Fn(&mut TensorCache, usize, &Player) -> bool,
    ) {
        let n = self.n;
        let pt = c.pt;
        let (head, rest) = out[..tensor_size(n)].split_at_mut(pt.head);
        self.write_head(Some(seat), head);
        if !c.table.as_ref().is_some_and(|k| k.matches(self)) {
            self.write_table(&mut c.row[..pt.table]);
            c.table = Some(TableKey::of(self));
        }
        let ranks = Ranks { card_of: self.card_of, art_mod: self.art_mod, sent_mod: self.sent_mod };
        let active = self.active_for_view();
        if c.ranks != Some(ranks) || c.active != active {
            let seats = &mut c.row[pt.table..pt.table + pt.seats];
            for j in 0..n {
                self.write_order(j, seats, j, n, active);
            }
            (c.ranks, c.active) = (Some(ranks), active);
        }
        let cells = pt.own - 2;
        for j in 0..n {
            let p = &self.players[j];
            if changed(c, j, p) {
                let (seats, own) = c.row[pt.table..].split_at_mut(pt.seats);
                write_player(p, seats, j, n);
                write_own_cells(Some(p), &mut own[j * cells..(j + 1) * cells]);
                c.known |= 1 << j;
            }
        }
        for &(src, dst, len) in &RUNS[n][seat] {
            let (src, dst, len) = (src as usize, dst as usize, len as usize);
            rest[dst..dst + len].copy_from_slice(&c.row[src..src + len]);
        }
        self.write_own_energy(Some(seat), &mut rest[pt.table + pt.seats + cells..]);
    }
}
