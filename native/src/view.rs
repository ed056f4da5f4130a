//! Hidden information (the Python `view.py`): determinizations, and the game part of observations.

use crate::data::*;
use crate::rng::Rng;
use crate::state::*;

impl State {
    /// Energy some players are known to hold, from what they did in public (seat, minimum), in the
    /// order the Python dict holds them.
    fn known_lower_bounds(&self) -> Vec<(usize, i64)> {
        let d = data();
        let mut need: Vec<(usize, i64)> = Vec::new();
        if let Some(a) = self.auc {
            match a.high {
                None => {
                    let seat = self.current_player().unwrap_or(0);
                    need.push((seat, self.price_for(seat, a.item, d.item_min_bid[a.item])));
                }
                Some(h) => {
                    let hs = a.high_seat.max(0) as usize;
                    need.push((hs, self.price_for(hs, a.item, h)));
                }
            }
            for e in need.iter_mut() {
                e.1 -= self.players[e.0].gems_sale_total();
            }
        }
        if self.tab_seat >= 0 {
            let ts = self.tab_seat as usize;
            let sale = if self.pending.is_empty() { 0 } else { self.players[ts].gems_sale_total() };
            let v = self.tab_owed - self.tab_credit - sale;
            match need.iter_mut().find(|e| e.0 == ts) {
                Some(e) => e.1 = e.1.max(v),
                None => need.push((ts, v.max(0).max(v))),
            }
        }
        need
    }

    /// A copy in which every card value `seat` cannot see is redrawn from the cards it has not seen;
    /// `rng` is the caller's generator (advanced as the Python one is), the copy's RNG is fresh.
    pub fn sample_hidden(&self, seat: usize, rng: &mut Rng) -> State {
        let bounds: Vec<(usize, i64)> = self.known_lower_bounds().into_iter().filter(|e| e.0 != seat).collect();
        let mut c = self.redraw(seat, rng, &[]);
        for attempt in 0..12 {
            if attempt > 0 {
                let greedy: Vec<usize> = if attempt == 11 { bounds.iter().map(|e| e.0).collect() } else { vec![] };
                c = self.redraw(seat, rng, &greedy);
            }
            if bounds.iter().all(|&(k, v)| c.players[k].energy() >= v) {
                break;
            }
        }
        c.rng = Rng::new(rng.next64());
        c
    }

    fn redraw(&self, seat: usize, rng: &mut Rng, greedy: &[usize]) -> State {
        let d = data();
        let mut c = self.clone();
        let mut others: Vec<usize> = (0..self.n)
            .filter(|&q| {
                let p = &c.players[q];
                q != seat && (p.ncards > 0 || p.under.iter().any(|&x| x != 0))
            })
            .collect();
        others.sort_by_key(|q| !greedy.contains(q)); // stable: the constrained players first
        for colour in 0..4 {
            let len = d.card_copies[colour].len();
            let base = d.card_min[colour];
            let mut pool = c.deck[colour];
            let code_of = |i: usize| ((base + i as i64) * 4) as usize + colour;
            for &q in &others {
                for i in 0..len {
                    let code = code_of(i);
                    pool[i] += c.players[q].hand[code] as i64 + c.players[q].under[code] as i64;
                }
            }
            for &q in &others {
                let top = greedy.contains(&q);
                for under in [false, true] {
                    let p = &mut c.players[q];
                    let h = if under { &mut p.under } else { &mut p.hand };
                    let count: u32 = (0..len).map(|i| h[code_of(i)] as u32).sum();
                    for i in 0..len {
                        h[code_of(i)] = 0;
                    }
                    for _ in 0..count {
                        let i = if top {
                            (0..len).rev().find(|&j| pool[j] != 0).unwrap()
                        } else {
                            rng.pick_weighted(&pool[..len])
                        };
                        pool[i] -= 1;
                        h[code_of(i)] += 1;
                    }
                }
            }
            c.deck[colour] = pool;
        }
        for &q in &others {
            let p = &mut c.players[q];
            p.cardsum = p.hand.iter().enumerate().map(|(code, &k)| (code >> 2) as i64 * k as i64).sum();
        }
        c
    }
}
