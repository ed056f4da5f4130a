//! The medium and easy Zavandor AI (the Python `ai/heuristic.py`): greedy turns with a lookahead,
//! auction valuations, payments, decision for decision the same as the Python (the same tie-breaking:
//! stable sorts, the first of equals).

use crate::data::*;
use crate::evaluate::*;
use crate::legal::{Act, ACTIVATE, DEACTIVATE, END, PASS, PAY};
use crate::rng::Rng;
use crate::state::{score, Kind, Player, State};

const WIN_VALUE: f64 = 12.0; // VP-equivalent of winning when a purchase ends the game
const MAX_TURN_STEPS: i64 = 40; // own decisions in one turn before the agent ends it regardless

/// The decision procedure with its memory (the bid-limit cache and the turn guard) and its RNG.
pub struct Policy {
    pub prm: Params,
    pub noise: f64,
    pub bid_noise: f64,
    pub lookahead: bool,
    pub rng: Rng,
    cache: Vec<((i64, usize, i64, usize, usize, i64, usize), i64)>,
    guard_key: Option<(i64, usize, usize)>,
    guard_steps: i64,
}

pub fn inverse(last: i64) -> i64 {
    if last >= ACTIVATE as i64 && last < ACTIVATE as i64 + 5 {
        return last - ACTIVATE as i64 + DEACTIVATE as i64;
    }
    if last >= DEACTIVATE as i64 && last < DEACTIVATE as i64 + 5 {
        return last - DEACTIVATE as i64 + ACTIVATE as i64;
    }
    -1
}

pub fn applied(s: &State, code: u32) -> State {
    let mut c = s.clone();
    c.apply_code(code);
    c
}

fn sort_desc<T>(v: &mut [(f64, T)]) {
    // Python's list.sort(key=lambda x: -x[0]): stable
    v.sort_by(|a, b| (-a.0).partial_cmp(&-b.0).unwrap_or(std::cmp::Ordering::Equal));
}

impl Policy {
    pub fn new(prm: Params, noise: f64, bid_noise: f64, lookahead: bool) -> Policy {
        Policy {
            prm,
            noise,
            bid_noise,
            lookahead,
            rng: Rng::new(0),
            cache: Vec::new(),
            guard_key: None,
            guard_steps: 0,
        }
    }

    /// Forget the memory (the bid-limit cache and the turn guard): decide afresh, as a new policy would.
    pub fn forget(&mut self) {
        self.cache.clear();
        self.guard_key = None;
        self.guard_steps = 0;
    }

    fn random(&mut self) -> f64 {
        (self.rng.next64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    fn jitter(&mut self) -> f64 {
        if self.noise == 0.0 {
            return 0.0;
        }
        let u = self.random();
        // -noise * log(-log(min(max(u, 1e-12), 1 - 1e-12))): a Gumbel perturbation
        let c = if u > 1e-12 { u } else { 1e-12 };
        let c = if c < 1.0 - 1e-12 { c } else { 1.0 - 1e-12 };
        -self.noise * (-c.ln()).ln()
    }

    /// The decision on a determinization `s`; `actions`: the legal codes, `last`: the last action's code.
    pub fn decide(&mut self, s: &State, seat: usize, actions: &[u32], last: i64) -> u32 {
        if actions.len() == 1 {
            return actions[0];
        }
        match s.pending.last().map(|d| d.kind) {
            Some(Kind::Bid) => self.bid(s, seat, actions),
            Some(Kind::Apay) => {
                if actions.contains(&PAY) {
                    PAY
                } else {
                    self.pay_auction(s, seat, actions)
                }
            }
            Some(Kind::Ftoken) => {
                let mut best: Option<(i64, u32)> = None;
                for &a in actions {
                    if let Some(Act::Token(p)) = Act::from_code(a) {
                        if best.is_none_or(|b| p > b.0) {
                            best = Some((p, a));
                        }
                    }
                }
                best.unwrap().1
            }
            Some(Kind::Free) | Some(Kind::Lose) => self.best_by_value(s, seat, actions),
            Some(Kind::Discard) => actions[0],
            None => self.turn(s, seat, actions, last),
        }
    }

    fn best_by_value(&mut self, s: &State, seat: usize, actions: &[u32]) -> u32 {
        let prm = self.prm.clone();
        let ctx = Ctx::new(s, &prm);
        let (mut best, mut best_v) = (actions[0], f64::NEG_INFINITY);
        for &a in actions {
            let c = applied(s, a);
            let v = end_value(&c, seat, &ctx, 0) + self.jitter();
            if v > best_v {
                best = a;
                best_v = v;
            }
        }
        best
    }

    pub fn exhausted(&mut self, s: &State, seat: usize) -> bool {
        let key = (s.round, s.turn_idx, seat);
        if self.guard_key != Some(key) {
            self.guard_key = Some(key);
            self.guard_steps = 0;
        }
        self.guard_steps += 1;
        self.guard_steps > MAX_TURN_STEPS
    }

    fn turn(&mut self, s: &State, seat: usize, actions: &[u32], last: i64) -> u32 {
        if self.exhausted(s, seat) && actions.contains(&END) {
            return END;
        }
        let ranked = self.rank_turn(s, seat, actions, last, None, true);
        if self.noise != 0.0 {
            let mut best = ranked[0].1;
            let mut bv = f64::NEG_INFINITY;
            for &(v, a) in &ranked {
                let x = v + self.jitter();
                if x > bv {
                    bv = x;
                    best = a;
                }
            }
            return best;
        }
        ranked[0].1
    }

    /// Every turn action worth considering with its value, best first (`lookahead`: None = the
    /// policy's own setting; `auctions`: whether opening auctions is considered).
    pub fn rank_turn(
        &mut self,
        s: &State,
        seat: usize,
        actions: &[u32],
        last: i64,
        lookahead: Option<bool>,
        auctions: bool,
    ) -> Vec<(f64, u32)> {
        let lookahead = lookahead.unwrap_or(self.lookahead);
        let prm = self.prm.clone();
        let ctx = Ctx::new(s, &prm);
        let base = end_value(s, seat, &ctx, 0);
        let mut out: Vec<(f64, u32)> = vec![(base + 0.05, END)];
        let mut scored: Vec<(f64, (u32, State))> = Vec::new();
        let undo = inverse(last);
        for &a in actions {
            let act = Act::from_code(a).unwrap();
            if matches!(act, Act::End | Act::Pay(_)) || a as i64 == undo {
                continue;
            }
            if let Act::Auction(item) = act {
                if !auctions {
                    continue;
                }
                let surplus = self.opening_surplus(s, seat, item, &ctx, base);
                if surplus > 0.3 {
                    out.push((base + 0.8 * surplus, a));
                }
                continue;
            }
            if let Act::Sell(_, true) = act {
                continue;
            }
            let c = applied(s, a);
            scored.push((end_value(&c, seat, &ctx, 0), (a, c)));
        }
        if lookahead && !scored.is_empty() {
            sort_desc(&mut scored);
            for i in 0..scored.len() {
                let a = scored[i].1 .0;
                let kind = Act::from_code(a).unwrap().kind();
                if i < 4 || kind == "token" || kind == "deactivate" || kind == "sell" {
                    let f = follow_up(&scored[i].1 .1, seat, &ctx, a as i64);
                    if f > scored[i].0 {
                        scored[i].0 = f;
                    }
                }
            }
        }
        out.extend(scored.iter().map(|(v, (a, _))| (*v, *a)));
        sort_desc(&mut out);
        out
    }

    fn owner_copy(&self, s: &State, seat: usize, item: usize, ctx: &Ctx) -> AP {
        let d = data();
        let mut q = AP::of(&s.players[seat]);
        if item < N_ART {
            q.p.arts[item] += 1;
            let gem = d.free_gem[item];
            if gem >= 0 && s.gem_supply[gem as usize] > 0 {
                q.p.inactive[gem as usize] += 1;
            }
            if d.gem_loss[item] && !q.p.tokens.is_empty() {
                let top = *q.p.tokens.iter().max().unwrap();
                q.p.tokens.remove_first(&top);
                q.p.pentagon += 1;
            }
            for _ in 0..d.free_advances[item] {
                best_free_advance(&mut q, ctx, s.flags.free_new_track);
            }
        } else {
            q.p.sents.push((item - N_ART) as u8);
        }
        q
    }

    fn side_value(&self, s: &State, seat: usize, item: usize, ctx: &Ctx) -> f64 {
        let d = data();
        let mut v = 0.0;
        if item < N_ART {
            if d.gem_loss[item] {
                let rivals: Vec<&Player> = s.players[..s.n].iter().filter(|r| r.seat != seat && !r.out).collect();
                let mut sum = 0.0;
                for r in &rivals {
                    sum += gem_loss(r, ctx);
                }
                v += sum / rivals.len().max(1) as f64;
            }
        } else {
            v += ctx.prm.sentinel_extra;
            if !ctx.fin && s.one_sentinel_from_the_end() {
                v += race(s, seat, item);
            }
        }
        v
    }

    /// Evaluation of `seat` after winning `item` at `price` and paying it; -inf if he cannot pay.
    fn outcome(&self, s: &State, seat: usize, price: i64, ctx: &Ctx, q0: &AP) -> f64 {
        let d = data();
        let mut q = *q0;
        let mut need = price;
        if s.tab_seat == seat as i64 {
            need += s.tab_owed - s.tab_credit;
        }
        let have = energy_in_hand(&q.p);
        if need > have {
            let mut credit = 0;
            let lvl = q.p.levels[GEMS_T] as usize;
            while have + credit < need {
                let (mut best_g, mut best_loss, mut best_active) = (-1i64, f64::INFINITY, false);
                for g in 0..5 {
                    let sale = d.gem_sale[g][lvl];
                    for active in [false, true] {
                        let n = if active { q.p.active[g] } else { q.p.inactive[g] };
                        if n == 0 {
                            continue;
                        }
                        let mut r = q;
                        if active {
                            r.p.active[g] -= 1;
                        } else {
                            r.p.inactive[g] -= 1;
                        }
                        let loss = (value(&q, ctx, None) - value(&r, ctx, None)) / sale.max(1) as f64;
                        if loss < best_loss {
                            best_g = g as i64;
                            best_loss = loss;
                            best_active = active;
                        }
                    }
                }
                if best_g < 0 {
                    return f64::NEG_INFINITY;
                }
                let g = best_g as usize;
                if best_active {
                    q.p.active[g] -= 1;
                } else {
                    q.p.inactive[g] -= 1;
                }
                credit += d.gem_sale[g][lvl];
            }
            need -= credit;
        }
        eval_after_paying(&q, need, ctx)
    }

    fn max_price(&mut self, s: &State, seat: usize, item: usize, ctx: &Ctx, extra: f64) -> i64 {
        let d = data();
        let base = end_value(s, seat, ctx, 0);
        let mut side = self.side_value(s, seat, item, ctx) + extra;
        let q = self.owner_copy(s, seat, item, ctx);
        if self.bid_noise != 0.0 {
            let u = self.random();
            let gain = value(&q, ctx, None) - value(&AP::of(&s.players[seat]), ctx, None);
            side += self.bid_noise * (2.0 * u - 1.0) * if 1.0 >= gain { 1.0 } else { gain };
        }
        let worth = |price: i64| self.outcome(s, seat, price, ctx, &q) + side - base;
        let p = &s.players[seat];
        let tab = if s.tab_seat == seat as i64 { s.tab_credit - s.tab_owed } else { 0 };
        let mut hi = if ctx.r > 1.0 {
            let lvl = p.levels[GEMS_T] as usize;
            energy_in_hand(p) + tab + (0..5).map(|g| p.inactive[g] * d.gem_sale[g][lvl]).sum::<i64>()
        } else {
            p.capacity() + tab
        };
        hi = hi.max(0);
        if worth(0) < 0.0 {
            return -1;
        }
        if worth(hi) >= 0.0 {
            return hi;
        }
        let mut lo = 0;
        while hi - lo > 1 {
            let mid = (lo + hi).div_euclid(2);
            if worth(mid) >= 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    fn opening_surplus(&self, s: &State, seat: usize, item: usize, ctx: &Ctx, base: f64) -> f64 {
        let price = s.price_for(seat, item, data().item_min_bid[item]);
        let q = self.owner_copy(s, seat, item, ctx);
        self.outcome(s, seat, price, ctx, &q) + self.side_value(s, seat, item, ctx) - base
    }

    pub fn bid_limit(&mut self, s: &State, seat: usize) -> i64 {
        let a = s.auc.unwrap();
        let prm = self.prm.clone();
        let ctx = Ctx::new(s, &prm);
        let mut extra = 0.0;
        let hs = a.high_seat;
        if hs >= 0 && hs as usize != seat && ctx.prm.denial != 0.0 {
            let hs = hs as usize;
            let rq = self.owner_copy(s, hs, a.item, &ctx);
            let gain = value(&rq, &ctx, None) - value(&AP::of(&s.players[hs]), &ctx, None);
            extra = ctx.prm.denial * if 0.0 >= gain { 0.0 } else { gain };
        }
        self.max_price(s, seat, a.item, &ctx, extra)
    }

    fn bid(&mut self, s: &State, seat: usize, actions: &[u32]) -> u32 {
        let a = s.auc.unwrap();
        if a.high.is_none() {
            return actions[0];
        }
        let bids: Vec<i64> = actions
            .iter()
            .filter_map(|&c| match Act::from_code(c) {
                Some(Act::Bid(n)) => Some(n),
                _ => None,
            })
            .collect();
        if bids.is_empty() {
            return PASS;
        }
        let key = (s.round, s.turn_idx, s.sent_sold, a.item, seat, a.high_seat, s.display.len());
        let pmax = match self.cache.iter().find(|e| e.0 == key) {
            Some(e) => e.1,
            None => {
                let v = self.bid_limit(s, seat);
                if self.cache.len() > 64 {
                    self.cache.clear();
                }
                self.cache.push((key, v));
                v
            }
        };
        let nxt = bids[0];
        if pmax >= 0 && s.price_for(seat, a.item, nxt) <= pmax {
            return crate::legal::BID_BASE + nxt as u32;
        }
        PASS
    }

    fn pay_auction(&mut self, s: &State, seat: usize, actions: &[u32]) -> u32 {
        let d = data();
        let item = s.pending.last().unwrap().payload as usize;
        let prm = self.prm.clone();
        let ctx = Ctx::new(s, &prm);
        let q = self.owner_copy(s, seat, item, &ctx);
        let (mut best, mut best_v) = (actions[0], f64::NEG_INFINITY);
        for &a in actions {
            let Some(Act::Sell(g, active)) = Act::from_code(a) else { continue };
            let mut r = q;
            if active {
                r.p.active[g] -= 1;
            } else {
                r.p.inactive[g] -= 1;
            }
            let v = value(&r, &ctx, None) + ctx.prm.kappa * d.gem_sale[g][r.p.levels[GEMS_T] as usize] as f64;
            if v > best_v {
                best = a;
                best_v = v;
            }
        }
        best
    }
}

fn follow_up(c: &State, seat: usize, ctx: &Ctx, last: i64) -> f64 {
    if c.current_player() != Some(seat) || !c.pending.is_empty() {
        return f64::NEG_INFINITY;
    }
    let mut best = f64::NEG_INFINITY;
    let undo = inverse(last);
    for a in c.legal() {
        let act = Act::from_code(a).unwrap();
        if matches!(act, Act::End | Act::Pay(_) | Act::Auction(_) | Act::Sell(_, true)) || a as i64 == undo {
            continue;
        }
        let c2 = applied(c, a);
        let v = end_value(&c2, seat, ctx, 0);
        if v > best {
            best = v;
        }
    }
    best
}

fn race(s: &State, seat: usize, item: usize) -> f64 {
    let mut q = s.players[seat];
    q.sents.push((item - N_ART) as u8);
    let mine = score(&q) as f64;
    let done = &s.order.as_slice()[..s.turn_idx.min(s.order.len())];
    let mut best_other = 0.0f64;
    for r in &s.players[..s.n] {
        if r.seat == seat || r.out {
            continue;
        }
        let mut est = score(r) as f64;
        if !done.contains(&(r.seat as u8)) {
            est += energy_in_hand(r) as f64 / 12.0;
        }
        if est > best_other {
            best_other = est;
        }
    }
    WIN_VALUE * ((mine - best_other) / 4.0).tanh()
}
