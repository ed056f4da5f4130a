//! Phase 3a and 3b (the Python `turn.py`): the sub-phase blocks (7.1), the tab and paying (7.6),
//! gems (7.2) and knowledge (7.3). Each `why_not_*` returns None when the action is legal, else the
//! message and the rule.

use crate::data::*;
use crate::energy::{best_payment, payout};
use crate::state::*;

fn group_bit(g: u8) -> i64 {
    match g {
        b'a' => 1,
        b'b' => 2,
        _ => 4,
    }
}

fn group_name(g: u8) -> &'static str {
    match g {
        b'a' => "3a (gems)",
        b'b' => "3b (knowledge)",
        _ => "3c (auctions)",
    }
}

impl State {
    // --- sub-phase blocks (7.1) ---------------------------------------------------------------------
    pub fn why_not_group(&self, g: u8) -> Why {
        if !self.flags.strict || self.group == g {
            return None;
        }
        if self.groups_done & group_bit(g) != 0 {
            return why(
                format!(
                    "you already finished {} this turn, and a group may not be split (a-b-a is not allowed)",
                    group_name(g)
                ),
                "7.1",
            );
        }
        None
    }

    pub fn enter_group(&mut self, g: u8) {
        if self.flags.strict && self.group != g {
            if self.group != 0 {
                self.groups_done |= group_bit(self.group);
                if self.tab_seat >= 0 {
                    self.settle(None);
                }
            }
            self.group = g;
        }
    }

    // --- the tab ------------------------------------------------------------------------------------
    #[inline]
    pub fn tab_credit(&self, seat: usize) -> i64 {
        if self.tab_seat == seat as i64 {
            self.tab_credit
        } else {
            0
        }
    }

    #[inline]
    pub fn tab_owed(&self, seat: usize) -> i64 {
        if self.tab_seat == seat as i64 {
            self.tab_owed
        } else {
            0
        }
    }

    pub fn settled_energy(&self, seat: usize) -> i64 {
        let p = &self.players[seat];
        let e = p.energy();
        if self.tab_seat != seat as i64 {
            return e;
        }
        let (owed, credit) = (self.tab_owed, self.tab_credit);
        if owed == 0 {
            return e + payout(credit);
        }
        e + credit - owed - best_payment(&p.hand, &p.conc, p.dust, owed - credit).lost
    }

    pub fn spendable(&self, seat: usize, group: u8) -> i64 {
        if self.tab_seat == seat as i64 && self.flags.strict && self.group != group {
            return self.settled_energy(seat);
        }
        self.players[seat].energy() + self.tab_credit(seat) - self.tab_owed(seat)
    }

    pub fn why_not_afford(&self, seat: usize, cost: i64, group: u8) -> Why {
        let have = self.spendable(seat, group);
        if have < cost {
            let owed = self.tab_owed(seat);
            let extra = if owed != 0 { format!(" after paying the {owed} you owe") } else { String::new() };
            return why(format!("that costs {cost} and you have {have} energy{extra}; sell gems first"), "7.6");
        }
        None
    }

    pub fn add_to_tab(&mut self, seat: usize, cost: i64) {
        self.tab_seat = seat as i64;
        self.tab_owed += cost;
    }

    /// Pay the tab: the default payment, or exactly the items given (already checked).
    pub fn settle(&mut self, explicit: Option<&Resolved>) {
        let seat = self.tab_seat as usize;
        let (owed, credit) = (self.tab_owed, self.tab_credit);
        self.tab_seat = -1;
        self.tab_owed = 0;
        self.tab_credit = 0;
        self.tab_auc = false;
        let (cards, conc, new_dust) = match explicit {
            None => {
                if owed == 0 {
                    // nothing owed (an end of turn with an empty tab, mostly): the player is touched
                    // only if the credit pays out (the batch's tensor rewrites touched seats)
                    let paid = payout(credit);
                    if paid != 0 {
                        self.players[seat].dust += paid;
                    }
                    return;
                }
                let p = &self.players[seat];
                let pay = best_payment(&p.hand, &p.conc, p.dust, owed - credit);
                (pay.cards, pay.conc, pay.final_dust)
            }
            Some(r) => {
                let d = data();
                let p = &self.players[seat];
                let total: i64 = r.cards.iter().map(|&c| (c >> 2) as i64).sum::<i64>()
                    + (0..4).map(|c| r.conc[c] * d.conc_value[c]).sum::<i64>()
                    + r.dust;
                (r.cards.clone(), r.conc, p.dust - r.dust + payout(total + credit - owed))
            }
        };
        self.hand_over(seat, &cards, &conc, new_dust);
    }

    /// A payment or a discard: the cards go to their discard piles, the concentrated energy back,
    /// and the seat keeps ``dust``.
    pub fn hand_over(&mut self, seat: usize, cards: &[usize], conc: &[i64; 4], dust: i64) {
        for &c in cards {
            self.players[seat].remove_card(c);
        }
        self.discard_cards(cards);
        let p = &mut self.players[seat];
        for c in 0..4 {
            p.conc[c] -= conc[c];
        }
        p.dust = dust;
    }

    /// Parsed items (cards as (value, colour or -1), conc per colour, dust) as this player's codes.
    pub fn resolve_items(&self, seat: usize, items: &Items, discarding: bool) -> Result<Resolved, String> {
        let d = data();
        let p = &self.players[seat];
        let mut pool = p.hand;
        let mut cards = Vec::with_capacity(items.cards.len());
        for &(value, colour) in &items.cards {
            let mut found = None;
            if value >= 0 && value < (MAX_CODE / 4) as i64 {
                for c in 0..4usize {
                    let code = value as usize * 4 + c;
                    if pool[code] > 0 && (colour < 0 || colour as usize == c) {
                        found = Some(code);
                        break;
                    }
                }
            }
            let Some(code) = found else {
                let letter = if colour >= 0 { ["b", "g", "w", "r"][colour as usize] } else { "" };
                return Err(format!("you have no {value}{letter} card"));
            };
            pool[code] -= 1;
            cards.push(code);
        }
        for c in 0..4 {
            if items.conc[c] > p.conc[c] {
                return Err(format!("you have only {} concentrated card(s) of value {}", p.conc[c], d.conc_value[c]));
            }
        }
        if items.dust > p.dust {
            return Err(format!("you have only {} dust", p.dust));
        }
        use crate::energy::representable;
        if !representable(p.dust - items.dust) || !(discarding || representable(items.dust)) {
            return Err(format!(
                "{} dust cannot be handed over from {} (there is no 1-dust: hand over an amount that leaves 0 or at least 2, never 1 or 3)",
                items.dust, p.dust
            ));
        }
        Ok(Resolved { cards, conc: items.conc, dust: items.dust })
    }

    pub fn why_not_pay(&self, seat: usize, items: Option<&Items>, auction: bool) -> Why {
        if self.tab_seat != seat as i64 || (!auction && self.tab_owed == 0 && self.tab_credit == 0) {
            return why("there is nothing to pay now".into(), "7.6");
        }
        let p = &self.players[seat];
        let (owed, credit) = (self.tab_owed, self.tab_credit);
        let Some(items) = items else {
            if p.energy() + credit < owed {
                return why(
                    format!("you owe {} and have only {} energy; sell gems first", owed - credit, p.energy()),
                    "7.6",
                );
            }
            return None;
        };
        let r = match self.resolve_items(seat, items, false) {
            Ok(r) => r,
            Err(e) => return why(e, "7.6"),
        };
        if owed <= credit {
            return why("nothing more is owed (your gem sales cover it, or the price is 0); type 'pay'".into(), "7.6");
        }
        let total = r.value();
        if total + credit < owed {
            return why(format!("that is {total} and you owe {}", owed - credit), "7.6");
        }
        None
    }

    // --- 3a gems (7.2) --------------------------------------------------------------------------------
    pub fn druid_privilege(&self, p: &Player) -> bool {
        let d = data();
        self.flags.druid_l3 && p.ch == DRUID && !p.druid_ruby && p.levels[FIRE] >= d.druid_ruby_fire_level
    }

    pub fn may_buy_kind(&self, p: &Player, gem: usize) -> Why {
        let d = data();
        if gem == EMERALD && p.arts[SPELLBOOK] == 0 {
            return why("emeralds can be bought only by the owner of a Spellbook".into(), "2.1");
        }
        if gem == DIAMOND && p.arts[ELIXIR] == 0 {
            return why("diamonds can be bought only by the owner of an Elixir".into(), "2.1");
        }
        if gem == RUBY {
            if p.active[RUBY] + p.inactive[RUBY] >= d.max_rubies {
                return why(format!("a player may own at most {} rubies", d.max_rubies), "2.1");
            }
            if p.levels[FIRE] < d.ruby_fire_level && !self.druid_privilege(p) {
                return why(format!("rubies need Knowledge of Fire level {}", d.ruby_fire_level), "9.3");
            }
        }
        None
    }

    pub fn why_not_buy(&self, seat: usize, gem: usize, active: bool) -> Why {
        let p = &self.players[seat];
        if let Some(r) = self.why_not_group(b'a').or_else(|| self.may_buy_kind(p, gem)) {
            return Some(r);
        }
        if self.gem_supply[gem] <= 0 {
            return why(format!("no {} is left in the supply", data().gems[gem]), "1");
        }
        if active && p.n_active() >= p.slots() {
            return why("no free active slot: buy it inactive, or deactivate a gem first".into(), "7.2");
        }
        self.why_not_afford(seat, p.gem_cost(gem), b'a')
    }

    pub fn do_buy(&mut self, seat: usize, gem: usize, active: bool) {
        self.enter_group(b'a');
        let cost = self.players[seat].gem_cost(gem);
        let fire_lvl = data().ruby_fire_level;
        let p = &mut self.players[seat];
        if gem == RUBY && p.levels[FIRE] < fire_lvl {
            p.druid_ruby = true;
        }
        self.gem_supply[gem] -= 1;
        if active {
            p.active[gem] += 1;
        } else {
            p.inactive[gem] += 1;
        }
        self.add_to_tab(seat, cost);
    }

    pub fn why_not_sell(&self, seat: usize, gem: usize, active: bool, paying_auction: bool) -> Why {
        if !paying_auction {
            if let Some(r) = self.why_not_group(b'a') {
                return Some(r);
            }
        }
        let p = &self.players[seat];
        let have = if active { p.active[gem] } else { p.inactive[gem] };
        if have <= 0 {
            let gname = &data().gems[gem];
            let place = if active { "active" } else { "inactive (on your pentagon)" };
            let hint = if active || p.active[gem] == 0 {
                String::new()
            } else {
                format!("; to sell an active one: 'sell active {gname}'")
            };
            return why(format!("you have no {place} {gname}{hint}"), "7.2");
        }
        None
    }

    pub fn do_sell(&mut self, seat: usize, gem: usize, active: bool, paying_auction: bool) {
        if !paying_auction {
            self.enter_group(b'a');
        }
        let sale = self.players[seat].sale_value(gem);
        let p = &mut self.players[seat];
        if active {
            p.active[gem] -= 1;
        } else {
            p.inactive[gem] -= 1;
        }
        self.gem_supply[gem] += 1;
        self.tab_seat = seat as i64;
        self.tab_credit += sale;
    }

    pub fn why_not_activate(&self, seat: usize, gem: usize) -> Why {
        let p = &self.players[seat];
        if p.inactive[gem] == 0 {
            return why(format!("you have no inactive {}", data().gems[gem]), "7.2");
        }
        if p.n_active() >= p.slots() {
            return why(format!("all {} active slots are full", p.slots()), "7.2");
        }
        None
    }

    pub fn why_not_deactivate(&self, seat: usize, gem: usize) -> Why {
        if self.players[seat].active[gem] == 0 {
            return why(format!("you have no active {}", data().gems[gem]), "7.2");
        }
        None
    }

    // --- 3b knowledge (7.3) -----------------------------------------------------------------------------
    pub fn why_not_token(&self, seat: usize, price: i64) -> Why {
        if let Some(r) = self.why_not_group(b'b') {
            return Some(r);
        }
        let p = &self.players[seat];
        if !p.tokens.contains(&price) {
            let left = if p.tokens.is_empty() {
                String::new()
            } else {
                format!("; left: {}", p.tokens.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", "))
            };
            return why(format!("you have no unbought knowledge token of price {price}{left}"), "7.3");
        }
        self.why_not_afford(seat, price, b'b')
    }

    pub fn do_token(&mut self, seat: usize, price: i64) {
        self.enter_group(b'b');
        let p = &mut self.players[seat];
        p.tokens.remove_first(&price);
        p.pentagon += 1;
        self.add_to_tab(seat, price);
    }

    pub fn why_not_level(p: &Player, track: usize) -> Why {
        let d = data();
        let lv = p.levels[track];
        if lv >= d.max_level {
            return why(format!("{} is already at level {}", d.track_names[track], d.max_level), "2.6");
        }
        if lv == 0 && p.pentagon == 0 {
            return why(
                format!(
                    "to enter {} you need a knowledge token on your pentagon (buy one: 'token <price>')",
                    d.track_names[track]
                ),
                "7.3",
            );
        }
        None
    }

    pub fn why_not_free_level(&self, seat: usize, track: usize) -> Why {
        let p = &self.players[seat];
        if p.levels[track] == 0 && !self.flags.free_new_track {
            return why(
                format!(
                    "a free advance moves a token already on a track one level up; you have none on {}",
                    data().track_names[track]
                ),
                "11",
            );
        }
        Self::why_not_level(p, track)
    }

    pub fn why_not_advance(&self, seat: usize, track: usize) -> Why {
        if let Some(r) = self.why_not_group(b'b') {
            return Some(r);
        }
        let p = &self.players[seat];
        if p.advanced {
            return why("you have already made your paid knowledge advance this round".into(), "7.3");
        }
        if let Some(r) = Self::why_not_level(p, track) {
            return Some(r);
        }
        self.why_not_afford(seat, data().track_cost[track][p.levels[track] as usize], b'b')
    }

    pub fn do_advance(&mut self, seat: usize, track: usize) {
        self.enter_group(b'b');
        self.players[seat].advanced = true;
        let cost = data().track_cost[track][self.players[seat].levels[track] as usize];
        self.add_to_tab(seat, cost);
        self.raise_level(seat, track);
    }
}
