//! Actions, legal actions, checks and dispatch: one handler per kind of decision (the Python
//! `legal.py`), and the loop that runs the automatic steps until somebody must decide.
//!
//! A listed action is a code: the fixed actions in the order of the Python action table
//! (`actions.py`), then `BID_BASE + n` for "bid n". Explicit payments and discards carry items.

use crate::data::*;
use crate::energy::{dust_tokens, hand_units, keep_best, keepable_dust};
use crate::factored::{self, Item, XBASE};
use crate::state::*;

pub const END: u32 = 0;
pub const PAY: u32 = 1;
pub const PASS: u32 = 2;
pub const SKIP: u32 = 3;
pub const DISCARD: u32 = 4;
pub const BUY: u32 = 5;
pub const BUY_INACTIVE: u32 = 10;
pub const SELL: u32 = 15;
pub const SELL_ACTIVE: u32 = 20;
pub const ACTIVATE: u32 = 25;
pub const DEACTIVATE: u32 = 30;
pub const LOSE: u32 = 35;
pub const TOKEN: u32 = 40;
pub const ADVANCE: u32 = 45;
pub const AUCTION: u32 = 51;
pub const BID_BASE: u32 = 72;
/// A typed bid above this is malformed (as in the Python parser).
pub const MAX_BID_TEXT: i64 = 1_000_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Act {
    End,
    Pay(Option<Items>),
    Pass,
    Skip,
    Discard(Option<Items>),
    Buy(usize, bool),
    Sell(usize, bool),
    Activate(usize),
    Deactivate(usize),
    Lose(usize),
    Token(i64),
    Advance(usize),
    Auction(usize),
    Bid(i64),
    /// A factored payment step ('give 8g', factored.rs).
    Give(Item),
    /// A factored discard step ('drop 8g'; 'keep d12' with `Item::Dust`).
    Drop(Item),
}

impl Act {
    pub fn from_code(code: u32) -> Option<Act> {
        let d = data();
        let g = |base: u32| (code - base) as usize;
        if code >= XBASE {
            let (give, it) = factored::act_of_id((code - XBASE) as usize)?;
            return Some(if give { Act::Give(it) } else { Act::Drop(it) });
        }
        Some(match code {
            END => Act::End,
            PAY => Act::Pay(None),
            PASS => Act::Pass,
            SKIP => Act::Skip,
            DISCARD => Act::Discard(None),
            5..=9 => Act::Buy(g(BUY), true),
            10..=14 => Act::Buy(g(BUY_INACTIVE), false),
            15..=19 => Act::Sell(g(SELL), false),
            20..=24 => Act::Sell(g(SELL_ACTIVE), true),
            25..=29 => Act::Activate(g(ACTIVATE)),
            30..=34 => Act::Deactivate(g(DEACTIVATE)),
            35..=39 => Act::Lose(g(LOSE)),
            40..=44 => Act::Token(d.token_prices[g(TOKEN)]),
            45..=50 => Act::Advance(g(ADVANCE)),
            51..=71 => Act::Auction(g(AUCTION)),
            _ => {
                let n = (code - BID_BASE) as i64;
                if n > MAX_BID_TEXT {
                    return None;
                }
                Act::Bid(n)
            }
        })
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Act::End => "end",
            Act::Pay(_) => "pay",
            Act::Pass => "pass",
            Act::Skip => "skip",
            Act::Discard(_) => "discard",
            Act::Buy(..) => "buy",
            Act::Sell(..) => "sell",
            Act::Activate(_) => "activate",
            Act::Deactivate(_) => "deactivate",
            Act::Lose(_) => "lose",
            Act::Token(_) => "token",
            Act::Advance(_) => "advance",
            Act::Auction(_) => "auction",
            Act::Bid(_) => "bid",
            Act::Give(_) => "give",
            Act::Drop(Item::Dust(_)) => "keep",
            Act::Drop(_) => "drop",
        }
    }
}

/// The text of a listed action code (as the Python action table spells it).
pub fn code_text(code: u32) -> String {
    let d = data();
    let gem = |base: u32| d.gems[(code - base) as usize].as_str();
    if code >= XBASE {
        return match factored::act_of_id((code - XBASE) as usize) {
            Some((give, it)) => factored::text(give, it),
            None => format!("action code {code}"),
        };
    }
    match code {
        END => "end".into(),
        PAY => "pay".into(),
        PASS => "pass".into(),
        SKIP => "skip".into(),
        DISCARD => "discard".into(),
        5..=9 => format!("buy {}", gem(BUY)),
        10..=14 => format!("buy {} inactive", gem(BUY_INACTIVE)),
        15..=19 => format!("sell {}", gem(SELL)),
        20..=24 => format!("sell active {}", gem(SELL_ACTIVE)),
        25..=29 => format!("activate {}", gem(ACTIVATE)),
        30..=34 => format!("deactivate {}", gem(DEACTIVATE)),
        35..=39 => format!("lose {}", gem(LOSE)),
        40..=44 => format!("token {}", d.token_prices[(code - TOKEN) as usize]),
        45..=50 => format!("advance {}", d.tracks[(code - ADVANCE) as usize]),
        51..=71 => format!("auction {}", d.items[(code - AUCTION) as usize]),
        _ => format!("bid {}", code - BID_BASE),
    }
}

/// The current decision: None for the active player's ordinary turn.
#[inline]
pub fn top(s: &State) -> Option<Decision> {
    s.pending.last().copied()
}

fn answers(d: Option<Decision>) -> &'static [&'static str] {
    match d.map(|d| d.kind) {
        None => &["end", "pay", "buy", "sell", "activate", "deactivate", "token", "advance", "auction", "give"],
        Some(Kind::Bid) => &["bid", "pass"],
        Some(Kind::Apay) => &["pay", "sell", "give"],
        Some(Kind::Free) => &["advance", "skip"],
        Some(Kind::Ftoken) => &["token", "skip"],
        Some(Kind::Lose) => &["lose"],
        Some(Kind::Discard) => &["discard", "drop", "keep"],
    }
}

fn prompt(d: Option<Decision>) -> &'static str {
    match d.map(|d| d.kind) {
        None => "buy, sell, (de)activate, take tokens, advance, auction, pay or end",
        Some(Kind::Bid) => "bid in the auction ('bid <n>' or 'pass')",
        Some(Kind::Apay) => "pay for what they won ('pay', 'pay <items>' or sell gems)",
        Some(Kind::Free) => "use a free knowledge advance ('advance <track>' or 'skip')",
        Some(Kind::Ftoken) => "take a free knowledge token ('token <price>') or decline it ('skip')",
        Some(Kind::Lose) => "give up one active gem ('lose <gem>')",
        Some(Kind::Discard) => "discard down to the hand limit ('discard' or 'discard <items>')",
    }
}

impl State {
    #[inline]
    pub fn active_seat(&self) -> usize {
        self.order.as_slice()[self.turn_idx] as usize
    }

    pub fn current_player(&self) -> Option<usize> {
        if self.over {
            return None;
        }
        if let Some(d) = self.pending.last() {
            return Some(d.seat as usize);
        }
        Some(self.active_seat())
    }

    // --- legal actions --------------------------------------------------------------------------
    pub fn legal_codes(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.over {
            return;
        }
        let Some(d) = top(self) else {
            self.turn_actions_list(out);
            return;
        };
        let seat = d.seat as usize;
        let p = &self.players[seat];
        match d.kind {
            Kind::Bid => {
                let a = self.auc.unwrap();
                let lo = match a.high {
                    None => data().item_min_bid[a.item],
                    Some(h) => h + 1,
                };
                let hi = self.max_bid(seat, a.item);
                if a.high.is_none() {
                    for b in lo..=hi.max(lo) {
                        out.push(BID_BASE + b as u32);
                    }
                } else {
                    out.push(PASS);
                    if hi >= lo {
                        for b in lo..=hi {
                            out.push(BID_BASE + b as u32);
                        }
                    }
                }
            }
            Kind::Apay => {
                if self.why_not_pay(seat, None, true).is_none() {
                    out.push(PAY);
                }
                for g in 0..5 {
                    if p.inactive[g] != 0 {
                        out.push(SELL + g as u32);
                    }
                    if p.active[g] != 0 {
                        out.push(SELL_ACTIVE + g as u32);
                    }
                }
            }
            Kind::Free => {
                for t in 0..6 {
                    if State::can_raise(p, t, self.flags.free_new_track) {
                        out.push(ADVANCE + t as u32);
                    }
                }
                out.push(SKIP);
            }
            Kind::Ftoken => {
                for &price in p.tokens.iter() {
                    out.push(TOKEN + token_index(price) as u32);
                }
                out.push(SKIP);
            }
            Kind::Lose => {
                for g in 0..5 {
                    if p.active[g] != 0 {
                        out.push(LOSE + g as u32);
                    }
                }
            }
            Kind::Discard => out.push(DISCARD),
        }
    }

    pub fn legal(&self) -> Vec<u32> {
        let mut v = Vec::with_capacity(32);
        self.legal_codes(&mut v);
        v
    }

    fn turn_actions_list(&self, out: &mut Vec<u32>) {
        let d = data();
        let seat = self.active_seat();
        let p = &self.players[seat];
        let mine = self.tab_seat == seat as i64;
        if self.turn_actions >= self.flags.turn_limit {
            out.push(END);
            if mine {
                out.push(PAY);
            }
            return;
        }
        let strict = self.flags.strict;
        let group = self.group;
        let done = self.groups_done;
        let ok_a = !strict || group == b'a' || done & 1 == 0;
        let ok_b = !strict || group == b'b' || done & 2 == 0;
        let ok_c = !strict || group == b'c' || done & 4 == 0;
        let energy = p.energy();
        out.push(END);
        if mine {
            out.push(PAY);
        }
        let (same, other) = if mine {
            let same = energy + self.tab_credit - self.tab_owed;
            let other = if strict { self.settled_energy(seat) } else { same };
            (same, other)
        } else {
            (energy, energy)
        };
        let (active, inactive) = (&p.active, &p.inactive);
        let free_slot = p.n_active() < p.slots();
        if ok_a {
            let have = if group == b'a' { same } else { other };
            let row = p.levels[GEMS_T] as usize;
            for g in 0..5 {
                if self.gem_supply[g] <= 0 || d.gem_cost[g][row] > have {
                    continue;
                }
                if g >= 2 && self.may_buy_kind(p, g).is_some() {
                    continue;
                }
                if free_slot {
                    out.push(BUY + g as u32);
                }
                out.push(BUY_INACTIVE + g as u32);
            }
            for g in 0..5 {
                if inactive[g] != 0 {
                    out.push(SELL + g as u32);
                }
                if active[g] != 0 {
                    out.push(SELL_ACTIVE + g as u32);
                }
            }
        }
        for g in 0..5 {
            if inactive[g] != 0 && free_slot {
                out.push(ACTIVATE + g as u32);
            }
            if active[g] != 0 {
                out.push(DEACTIVATE + g as u32);
            }
        }
        if ok_b {
            let have = if group == b'b' { same } else { other };
            for &price in p.tokens.iter() {
                if price <= have {
                    out.push(TOKEN + token_index(price) as u32);
                }
            }
            if !p.advanced {
                for t in 0..6 {
                    let lv = p.levels[t];
                    if lv < d.max_level && (lv != 0 || p.pentagon != 0) && d.track_cost[t][lv as usize] <= have {
                        out.push(ADVANCE + t as u32);
                    }
                }
            }
        }
        if ok_c {
            let cap = self.opening_capacity(seat);
            let any_active = active.iter().any(|&x| x != 0);
            let mut seen = 0u32;
            for &k in self.display.iter() {
                let k = k as usize;
                if seen >> k & 1 != 0 {
                    continue;
                }
                seen |= 1 << k;
                if d.one_per_player[k] && p.arts[k] != 0 {
                    continue;
                }
                if d.gem_loss[k] && !any_active {
                    continue;
                }
                if self.price_for(seat, k, d.item_min_bid[k]) <= cap {
                    out.push(AUCTION + k as u32);
                }
            }
            if !self.sent_avail.is_empty() && self.price_for(seat, N_ART, d.item_min_bid[N_ART]) <= cap {
                for &sid in self.sent_avail.iter() {
                    out.push(AUCTION + (N_ART + sid as usize) as u32);
                }
            }
        }
    }

    // --- checks -----------------------------------------------------------------------------------
    /// None when the action is legal now, else the message and the rule (the Python `check`).
    pub fn check(&self, a: &Act, text: &str) -> Why {
        self.check_lazy(a, || text.to_string())
    }

    /// As `check`; the action's text (for the message) is made only when it is needed.
    pub fn check_lazy(&self, a: &Act, text: impl Fn() -> String) -> Why {
        if self.over {
            return why("the game is over".into(), "8.3");
        }
        let d = top(self);
        if !answers(d).contains(&a.kind()) {
            let text = text();
            let msg = match d {
                // seats counted from 1: the message is for people (as the Python reference's)
                None => format!(
                    "'{text}' is not possible now: it is seat {}'s turn (phase 3): {}",
                    self.active_seat() + 1,
                    prompt(d)
                ),
                Some(dd) => format!("'{text}' is not possible now: seat {} must {}", dd.seat as usize + 1, prompt(d)),
            };
            return Some((msg, None));
        }
        let Some(dd) = d else { return self.check_turn(a) };
        let seat = dd.seat as usize;
        let p = &self.players[seat];
        match (dd.kind, a) {
            (Kind::Bid, Act::Bid(n)) => self.why_not_bid(*n),
            (Kind::Bid, _) => self.why_not_pass(),
            (Kind::Apay, Act::Pay(items)) => self.why_not_pay(seat, items.as_ref(), true),
            (Kind::Apay, Act::Sell(g, act)) => self.why_not_sell(seat, *g, *act, true),
            (Kind::Apay, Act::Give(it)) => self.why_not_give(seat, *it),
            (Kind::Free, Act::Advance(t)) => self.why_not_free_level(seat, *t),
            (Kind::Ftoken, Act::Token(price)) => {
                if p.tokens.contains(price) {
                    None
                } else {
                    let left = p.tokens.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ");
                    why(format!("no unbought token of price {price}; left: {left}"), "11")
                }
            }
            (Kind::Lose, Act::Lose(g)) => {
                if p.active[*g] != 0 {
                    None
                } else {
                    why(format!("you have no active {}", data().gems[*g]), "11")
                }
            }
            (Kind::Discard, Act::Discard(items)) => self.why_not_discard(seat, items.as_ref()),
            (Kind::Discard, Act::Drop(it)) => self.why_not_drop(seat, *it),
            _ => None, // skip
        }
    }

    fn check_turn(&self, a: &Act) -> Why {
        let seat = self.active_seat();
        match a {
            Act::End => return None,
            Act::Pay(items) => return self.why_not_pay(seat, items.as_ref(), false),
            Act::Give(it) => return self.why_not_give(seat, *it),
            _ => {}
        }
        if self.turn_actions >= self.flags.turn_limit {
            return Some((
                format!(
                    "this turn has had its {} actions (option turn_action_limit): only 'pay' and 'end' remain",
                    self.flags.turn_limit
                ),
                None,
            ));
        }
        match *a {
            Act::Buy(g, act) => self.why_not_buy(seat, g, act),
            Act::Sell(g, act) => self.why_not_sell(seat, g, act, false),
            Act::Activate(g) => self.why_not_activate(seat, g),
            Act::Deactivate(g) => self.why_not_deactivate(seat, g),
            Act::Token(price) => self.why_not_token(seat, price),
            Act::Advance(t) => self.why_not_advance(seat, t),
            Act::Auction(item) => self.why_not_open(seat, item),
            _ => None,
        }
    }

    fn why_not_discard(&self, seat: usize, items: Option<&Items>) -> Why {
        let p = &self.players[seat];
        let limit = p.hand_limit();
        let Some(items) = items else { return None };
        let r = match self.resolve_items(seat, items, true) {
            Ok(r) => r,
            Err(e) => return why(e, "8.1"),
        };
        if self.flags.whole_dust && r.dust != 0 {
            let keep = keepable_dust(p.dust);
            if !keep.contains(&(p.dust - r.dust)) {
                let toks = dust_tokens(p.dust).iter().map(|t| t.to_string()).collect::<Vec<_>>().join(" ");
                let head = keep[..keep.len() - 1].iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ");
                return why(
                    format!(
                        "your dust is tokens {toks}: whole tokens go back (they may only be exchanged upwards), so you can keep {head} or {} dust, not {}",
                        keep[keep.len() - 1],
                        p.dust - r.dust
                    ),
                    "8.1",
                );
            }
        }
        let mut left_conc = p.conc;
        for c in 0..4 {
            left_conc[c] -= r.conc[c];
        }
        let units = hand_units(p.ncards - r.cards.len() as i64, &left_conc, p.dust - r.dust);
        if units > limit {
            return why(format!("that leaves a hand of {units} and your hand limit is {limit}"), "8.1");
        }
        None
    }

    // --- carrying out -----------------------------------------------------------------------------
    /// Carry out a checked action, then run the automatic steps (the Python `do`).
    pub fn act(&mut self, a: &Act) {
        match top(self) {
            None => self.do_turn(a),
            Some(d) => {
                let seat = d.seat as usize;
                match (d.kind, a) {
                    (Kind::Bid, Act::Bid(n)) => self.do_bid(seat, *n),
                    (Kind::Bid, _) => self.do_pass(seat),
                    (Kind::Apay, Act::Pay(items)) => {
                        let r = items.as_ref().map(|it| self.resolve_items(seat, it, false).unwrap());
                        self.do_auction_payment(seat, d.payload as usize, r.as_ref());
                    }
                    (Kind::Apay, Act::Sell(g, act)) => self.do_sell(seat, *g, *act, true),
                    (Kind::Apay, Act::Give(it)) => self.do_give(seat, *it),
                    (Kind::Free, Act::Advance(t)) => {
                        self.raise_level(seat, *t);
                        let left = d.payload - 1;
                        if left != 0 {
                            self.pending.set_last(Decision { kind: Kind::Free, seat: d.seat, payload: left });
                        } else {
                            self.pending.pop();
                        }
                    }
                    (Kind::Free, _) => {
                        self.pending.pop();
                    }
                    (Kind::Ftoken, Act::Token(price)) => {
                        let p = &mut self.players[seat];
                        p.tokens.remove_first(price);
                        p.pentagon += 1;
                        self.pending.pop();
                    }
                    (Kind::Ftoken, _) => {
                        self.pending.pop();
                    }
                    (Kind::Lose, Act::Lose(g)) => {
                        self.players[seat].active[*g] -= 1;
                        self.gem_supply[*g] += 1;
                        self.pending.pop();
                    }
                    (Kind::Discard, Act::Discard(items)) => {
                        self.do_discard(seat, items.as_ref());
                        self.pending.pop();
                    }
                    // the discard stays pending until 'discard'
                    (Kind::Discard, Act::Drop(it)) => self.do_drop(seat, *it),
                    _ => {}
                }
            }
        }
        self.run();
    }

    fn do_turn(&mut self, a: &Act) {
        let seat = self.active_seat();
        if let Act::Give(it) = *a {
            self.do_give(seat, it); // part of a payment: not a turn action of its own
            return;
        }
        self.turn_actions += 1;
        match *a {
            Act::End => {
                if self.tab_seat >= 0 {
                    self.settle(None);
                }
                self.end_turn();
            }
            Act::Pay(ref items) => {
                let r = items.as_ref().map(|it| self.resolve_items(seat, it, false).unwrap());
                self.settle(r.as_ref());
            }
            Act::Buy(g, act) => self.do_buy(seat, g, act),
            Act::Sell(g, act) => self.do_sell(seat, g, act, false),
            Act::Activate(g) => {
                self.players[seat].inactive[g] -= 1;
                self.players[seat].active[g] += 1;
            }
            Act::Deactivate(g) => {
                self.players[seat].active[g] -= 1;
                self.players[seat].inactive[g] += 1;
            }
            Act::Token(price) => self.do_token(seat, price),
            Act::Advance(t) => self.do_advance(seat, t),
            Act::Auction(item) => self.do_open(seat, item),
            _ => {}
        }
    }

    fn do_discard(&mut self, seat: usize, items: Option<&Items>) {
        let (cards, conc, kept) = match items {
            None => {
                let p = &self.players[seat];
                let k = keep_best(&p.hand, &p.conc, p.dust, p.hand_limit(), self.flags.whole_dust);
                (k.cards, k.conc, k.dust_kept)
            }
            Some(it) => {
                let r = self.resolve_items(seat, it, true).unwrap();
                let kept = self.players[seat].dust - r.dust;
                (r.cards, r.conc, kept)
            }
        };
        self.hand_over(seat, &cards, &conc, kept);
    }

    /// Does the decision lapse without an answer?
    fn void(&self, d: Decision) -> bool {
        let p = &self.players[d.seat as usize];
        match d.kind {
            Kind::Free => p.out || !(0..6).any(|t| State::can_raise(p, t, self.flags.free_new_track)),
            Kind::Ftoken => p.out || p.tokens.is_empty(),
            Kind::Lose => p.out || !p.active.iter().any(|&x| x != 0),
            _ => p.out,
        }
    }

    /// Advance automatic steps until a player must decide or the game is over.
    pub fn run(&mut self) {
        while !self.over {
            if let Some(&d) = self.pending.last() {
                if self.void(d) {
                    self.pending.pop();
                    continue;
                }
                return;
            }
            if !self.step() {
                return;
            }
        }
    }

    /// Check and carry out (the contract's apply without the history); the state is unchanged on error.
    pub fn apply(&mut self, a: &Act, text: &str) -> Why {
        let r = self.check(a, text);
        if r.is_none() {
            self.act(a);
        }
        r
    }

    pub fn apply_code(&mut self, code: u32) -> Why {
        match Act::from_code(code) {
            Some(a) => {
                let r = self.check_lazy(&a, || code_text(code));
                if r.is_none() {
                    self.act(&a);
                }
                r
            }
            None => Some(("cannot read that action: that bid is absurdly high".into(), None)),
        }
    }

    pub fn scores(&self) -> Vec<i64> {
        self.players[..self.n].iter().map(|p| p.vp).collect()
    }

    pub fn winners(&self) -> Vec<usize> {
        if self.over {
            self.winners.iter().map(|&w| w as usize).collect()
        } else {
            vec![]
        }
    }
}

pub fn token_index(price: i64) -> usize {
    data().token_prices.iter().position(|&p| p == price).unwrap_or(0)
}
