//! Phase 3c (the Python `auction.py`): auctions (7.4), the curse of the 9 Sages (7.5) and the
//! effects of what is won (11, 12).

use crate::data::*;
use crate::state::*;

impl State {
    // --- 3c auctions (7.4), the curse (7.5), what is won (11, 12) ---------------------------------------
    pub fn price_for(&self, seat: usize, item: usize, bid: i64) -> i64 {
        let d = data();
        let p = &self.players[seat];
        if item < N_ART {
            let mut disc = d.art_discount[p.levels[ARTS_T] as usize];
            for &(owned, amount) in &d.art_discounts[item] {
                disc += p.arts[owned] * amount;
            }
            return (bid + self.art_mod[seat] - disc).max(0);
        }
        let disc = d.sent_discount[p.levels[ARTS_T] as usize] + d.mask_sent_discount * p.arts[MASK];
        (bid + self.sent_mod[seat] - disc).max(0)
    }

    pub fn capacity(&self, seat: usize) -> i64 {
        self.players[seat].capacity() + self.tab_credit(seat) - self.tab_owed(seat)
    }

    pub fn max_bid(&self, seat: usize, item: usize) -> i64 {
        let cap = self.capacity(seat);
        if self.price_for(seat, item, 0) > cap {
            return -1;
        }
        let offset = self.price_for(seat, item, 1_000_000) - 1_000_000;
        cap - offset
    }

    pub fn may_own(p: &Player, item: usize) -> bool {
        !(item < N_ART && data().one_per_player[item] && p.arts[item] != 0)
    }

    pub fn item_on_offer(&self, item: usize) -> bool {
        if item < N_ART {
            self.display.contains(&(item as u8))
        } else {
            self.sent_avail.contains(&((item - N_ART) as u8))
        }
    }

    pub fn why_not_open(&self, seat: usize, item: usize) -> Why {
        let d = data();
        if let Some(r) = self.why_not_group(b'c') {
            return Some(r);
        }
        let p = &self.players[seat];
        if !self.item_on_offer(item) {
            let what = if item < N_ART { "on display" } else { "still unsold" };
            return why(format!("{} is not {what}", d.item_names[item]), "7.4");
        }
        if !Self::may_own(p, item) {
            return why(format!("you already own a {} (at most one per player)", d.item_names[item]), "7.4");
        }
        if item < N_ART && d.gem_loss[item] && !p.active.iter().any(|&x| x != 0) {
            return why(format!("opening a {} auction needs at least one active gem", d.item_names[item]), "11");
        }
        None
    }

    pub fn tab_settles_at_open(&self) -> bool {
        self.tab_seat >= 0 && (!self.flags.combine || self.tab_auc)
    }

    pub fn opening_capacity(&self, seat: usize) -> i64 {
        if self.tab_seat == seat as i64 && self.tab_settles_at_open() {
            return self.settled_energy(seat) + self.players[seat].gems_sale_total();
        }
        self.capacity(seat)
    }

    pub fn do_open(&mut self, seat: usize, item: usize) {
        self.enter_group(b'c');
        if self.tab_settles_at_open() {
            self.settle(None);
        }
        self.auc = Some(Auction { item, high: None, high_seat: -1, passed: 0 });
        self.pending.push(Decision { kind: Kind::Bid, seat: seat as u8, payload: 0 });
    }

    pub fn why_not_bid(&self, amount: i64) -> Why {
        let a = self.auc.unwrap();
        match a.high {
            None => {
                let min = data().item_min_bid[a.item];
                if amount < min {
                    return why(format!("the opening bid must be at least the minimum bid {min}"), "7.4");
                }
            }
            Some(high) => {
                if amount <= high {
                    return why(format!("a bid must be higher than the current bid {high}"), "7.4");
                }
            }
        }
        None
    }

    pub fn do_bid(&mut self, seat: usize, amount: i64) {
        let item = self.auc.unwrap().item;
        if self.price_for(seat, item, amount) > self.capacity(seat) {
            self.eliminate(seat);
            return;
        }
        let a = self.auc.as_mut().unwrap();
        a.high = Some(amount);
        a.high_seat = seat as i64;
        self.next_bidder(seat);
    }

    pub fn why_not_pass(&self) -> Why {
        if self.auc.unwrap().high.is_none() {
            return why("the player who opens an auction must make the opening bid".into(), "7.4");
        }
        None
    }

    pub fn do_pass(&mut self, seat: usize) {
        self.auc.as_mut().unwrap().passed |= 1 << seat;
        self.next_bidder(seat);
    }

    fn next_bidder(&mut self, seat: usize) {
        let a = self.auc.unwrap();
        let order = self.order.as_slice();
        let n = order.len();
        let i = order.iter().position(|&x| x as usize == seat).unwrap_or(n - 1);
        for k in 1..=n {
            let cand = order[(i + k) % n] as usize;
            if cand as i64 == a.high_seat || (a.passed >> cand) & 1 != 0 {
                continue;
            }
            let q = &self.players[cand];
            if q.out || !Self::may_own(q, a.item) {
                continue;
            }
            self.pending.set_last(Decision { kind: Kind::Bid, seat: cand as u8, payload: 0 });
            return;
        }
        self.won();
    }

    fn won(&mut self) {
        let a = self.auc.take().unwrap();
        let (item, high, seat) = (a.item, a.high.unwrap_or(0), a.high_seat as usize);
        self.pending.pop();
        let price = self.price_for(seat, item, high);
        let active = if self.turn_idx < self.order.len() { self.order.as_slice()[self.turn_idx] as i64 } else { -1 };
        let p = &self.players[seat];
        if self.flags.combine
            && seat as i64 == active
            && p.energy() + self.tab_credit(seat) >= self.tab_owed(seat) + price
        {
            self.tab_seat = seat as i64;
            self.tab_owed += price;
            self.tab_auc = true;
            self.acquire(seat, item);
        } else if self.tab_seat == seat as i64 {
            self.tab_owed += price;
            self.tab_auc = false;
            self.pending.push(Decision { kind: Kind::Apay, seat: seat as u8, payload: item as i64 });
        } else {
            self.tab_seat = seat as i64;
            self.tab_owed = price;
            self.tab_credit = 0;
            self.tab_auc = false;
            self.pending.push(Decision { kind: Kind::Apay, seat: seat as u8, payload: item as i64 });
        }
    }

    pub fn do_auction_payment(&mut self, seat: usize, item: usize, items: Option<&Resolved>) {
        self.pending.pop();
        self.settle(items);
        self.acquire(seat, item);
    }

    pub fn acquire(&mut self, seat: usize, item: usize) {
        let d = data();
        let mut effects: Vec<Decision> = Vec::new();
        if item < N_ART {
            self.players[seat].arts[item] += 1;
            self.display.remove_first(&(item as u8));
            if d.free_advances[item] != 0 {
                effects.push(Decision { kind: Kind::Free, seat: seat as u8, payload: d.free_advances[item] });
            }
            if d.gem_loss[item] {
                effects.push(Decision { kind: Kind::Ftoken, seat: seat as u8, payload: 0 });
                for v in self.victims_after(seat) {
                    if !self.players[v].out {
                        effects.push(Decision { kind: Kind::Lose, seat: v as u8, payload: 0 });
                    }
                }
            }
            let gem = d.free_gem[item];
            if gem >= 0 && self.gem_supply[gem as usize] > 0 {
                self.gem_supply[gem as usize] -= 1;
                self.players[seat].inactive[gem as usize] += 1;
            }
        } else {
            self.players[seat].sents.push((item - N_ART) as u8);
            self.sent_avail.remove_first(&((item - N_ART) as u8));
            self.sent_sold += 1;
        }
        for e in effects.iter().rev() {
            self.pending.push(*e);
        }
    }
}
