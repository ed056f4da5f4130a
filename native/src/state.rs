//! The Zavandor state: plain `Copy` data (a clone is one memory copy) and the rules of the flow of a
//! round, of turns and of auctions, each function a port of the Python function of the same name
//! (setup.py, flow.py, turn.py, auction.py, scoring.py, player.py).

use crate::data::*;
use crate::energy::{hand_units, payout, Hand};
use crate::rng::Rng;
use crate::small::Small;

pub const MAXP: usize = 6;

/// A rule violation: the message for a person and the section of the rules (None: a design limit).
pub type Why = Option<(String, Option<&'static str>)>;

pub fn why(msg: String, rule: &'static str) -> Why {
    Some((msg, Some(rule)))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Kind {
    #[default]
    Bid,
    Apay,
    Free,
    Ftoken,
    Lose,
    Discard,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Bid => "bid",
            Kind::Apay => "apay",
            Kind::Free => "free",
            Kind::Ftoken => "ftoken",
            Kind::Lose => "lose",
            Kind::Discard => "discard",
        }
    }

    pub fn from_name(s: &str) -> Option<Kind> {
        Some(match s {
            "bid" => Kind::Bid,
            "apay" => Kind::Apay,
            "free" => Kind::Free,
            "ftoken" => Kind::Ftoken,
            "lose" => Kind::Lose,
            "discard" => Kind::Discard,
            _ => return None,
        })
    }
}

/// One pending decision: kind, seat and payload (apay: the item won; free: advances left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Decision {
    pub kind: Kind,
    pub seat: u8,
    pub payload: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Stage {
    #[default]
    Turn,
    Hand,
    Over,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Turn => "turn",
            Stage::Hand => "hand",
            Stage::Over => "over",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Auction {
    pub item: usize,
    pub high: Option<i64>,
    pub high_seat: i64,
    pub passed: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    pub seat: usize,
    pub ch: usize,
    pub dust: i64,
    pub hand: Hand, // energy cards: count per code (value * 4 + colour)
    pub ncards: i64,
    pub cardsum: i64,
    pub conc: [i64; 4],
    pub active: [i64; 5],
    pub inactive: [i64; 5],
    pub levels: [i64; 6],
    pub tokens: Small<i64, 5>,
    pub pentagon: i64,
    pub arts: [i64; 12],
    pub sents: Small<u8, 9>,
    pub under: Hand,
    pub under_dust: i64,
    pub vp: i64,
    pub advanced: bool,
    pub druid_ruby: bool,
    pub out: bool,
}

impl Default for Player {
    fn default() -> Self {
        Player {
            seat: 0,
            ch: 0,
            dust: 0,
            hand: [0; MAX_CODE],
            ncards: 0,
            cardsum: 0,
            conc: [0; 4],
            active: [0; 5],
            inactive: [0; 5],
            levels: [0; 6],
            tokens: Small::default(),
            pentagon: 0,
            arts: [0; 12],
            sents: Small::default(),
            under: [0; MAX_CODE],
            under_dust: 0,
            vp: 0,
            advanced: false,
            druid_ruby: false,
            out: false,
        }
    }
}

/// The codes of a hand in ascending order (the Python sorted list of codes).
pub fn codes(h: &Hand) -> Vec<usize> {
    let mut out = Vec::new();
    for (c, &n) in h.iter().enumerate() {
        for _ in 0..n {
            out.push(c);
        }
    }
    out
}

impl Player {
    #[inline]
    pub fn energy(&self) -> i64 {
        let v = &data().conc_value;
        self.dust + self.cardsum + self.conc[0] * v[0] + self.conc[1] * v[1] + self.conc[2] * v[2] + self.conc[3] * v[3]
    }

    #[inline]
    pub fn gem_cost(&self, g: usize) -> i64 {
        data().gem_cost[g][self.levels[GEMS_T] as usize]
    }

    #[inline]
    pub fn sale_value(&self, g: usize) -> i64 {
        data().gem_sale[g][self.levels[GEMS_T] as usize]
    }

    pub fn gems_sale_total(&self) -> i64 {
        let d = data();
        let l = self.levels[GEMS_T] as usize;
        (0..5).map(|g| (self.active[g] + self.inactive[g]) * d.gem_sale[g][l]).sum()
    }

    pub fn capacity(&self) -> i64 {
        self.energy() + self.gems_sale_total()
    }

    pub fn slots(&self) -> i64 {
        let d = data();
        let mut n = d.base_slots + d.extra_slots[self.levels[ACCUM] as usize];
        for k in 0..12 {
            n += d.art_slots[k] * self.arts[k];
        }
        n
    }

    pub fn hand_limit(&self) -> i64 {
        let d = data();
        let mut lim = d.base_hand_limit;
        for t in 0..6 {
            if self.levels[t] != 0 {
                lim += d.hand_entry[t];
            }
        }
        for k in 0..12 {
            lim += d.art_hand_limit[k] * self.arts[k];
        }
        lim
    }

    pub fn hand_count(&self) -> i64 {
        hand_units(self.ncards, &self.conc, self.dust)
    }

    #[inline]
    pub fn n_active(&self) -> i64 {
        self.active.iter().sum()
    }

    pub fn add_card(&mut self, code: usize) {
        self.hand[code] += 1;
        self.ncards += 1;
        self.cardsum += (code >> 2) as i64;
    }

    pub fn remove_card(&mut self, code: usize) {
        self.hand[code] -= 1;
        self.ncards -= 1;
        self.cardsum -= (code >> 2) as i64;
    }
}

// --- scoring (8.2, 2.9) ---------------------------------------------------------------------------
pub fn gem_vp(p: &Player) -> i64 {
    let d = data();
    (0..5).map(|g| p.active[g] * d.gem_vp[g]).sum()
}

pub fn sentinel_bonus(p: &Player, sentinel: usize) -> i64 {
    let d = data();
    let (what, which, per, cap) = &d.sent_bonus[sentinel];
    let n: i64 = match what {
        Bonus::Types => p.active.iter().filter(|&&x| x != 0).count() as i64,
        Bonus::Level4 => p.levels.iter().filter(|&&lv| lv >= d.max_level).count() as i64,
        Bonus::Active => which.iter().map(|&g| p.active[g]).sum(),
        Bonus::Arts => which.iter().map(|&k| p.arts[k]).sum(),
    };
    let bonus = per * n;
    if *cap != 0 {
        bonus.min(*cap)
    } else {
        bonus
    }
}

pub fn score(p: &Player) -> i64 {
    if p.out {
        return 0;
    }
    let d = data();
    let mut v = gem_vp(p);
    for &lv in &p.levels {
        if lv >= d.max_level {
            v += d.level4_vp;
        }
    }
    for k in 0..12 {
        v += p.arts[k] * d.art_vp[k];
    }
    for &s in p.sents.iter() {
        v += d.sent_base_vp + sentinel_bonus(p, s as usize);
    }
    v
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Flags {
    pub strict: bool,
    pub combine: bool,
    pub sages_dust: bool,
    pub druid_l3: bool,
    pub free_new_track: bool,
    pub whole_dust: bool,
    pub turn_limit: i64,
    pub max_rounds: Option<i64>,
}

/// The seats' players. Every mutable access (`IndexMut`, `iter_mut`) sets the seat's bit in
/// `touched`, so the compiler routes every write of the rules through it: the batch's tensor cache
/// rewrites the seats touched since its last row instead of comparing every player (`tensor_cache.rs`).
/// A bit can be set without a change (never the reverse). Equality ignores the bits.
#[derive(Clone, Copy, Debug)]
pub struct Players {
    p: [Player; MAXP],
    touched: u8,
}

impl Players {
    /// Every seat touched: a new set of players is a change.
    pub fn new(p: [Player; MAXP]) -> Players {
        Players { p, touched: u8::MAX }
    }

    /// The seats touched since the last `take_touched` (bit j: seat j).
    pub fn touched(&self) -> u8 {
        self.touched
    }

    /// Returns the touched seats and clears them.
    pub fn take_touched(&mut self) -> u8 {
        std::mem::take(&mut self.touched)
    }

    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Player> {
        self.touched = u8::MAX;
        self.p.iter_mut()
    }
}

impl Default for Players {
    fn default() -> Self {
        Players::new([Player::default(); MAXP])
    }
}

impl PartialEq for Players {
    fn eq(&self, other: &Players) -> bool {
        self.p == other.p
    }
}

impl Eq for Players {}

impl std::ops::Deref for Players {
    type Target = [Player; MAXP];
    fn deref(&self) -> &[Player; MAXP] {
        &self.p
    }
}

impl std::ops::Index<usize> for Players {
    type Output = Player;
    #[inline]
    fn index(&self, j: usize) -> &Player {
        &self.p[j]
    }
}

impl std::ops::Index<std::ops::RangeTo<usize>> for Players {
    type Output = [Player];
    #[inline]
    fn index(&self, r: std::ops::RangeTo<usize>) -> &[Player] {
        &self.p[r]
    }
}

impl std::ops::IndexMut<std::ops::RangeTo<usize>> for Players {
    #[inline]
    fn index_mut(&mut self, r: std::ops::RangeTo<usize>) -> &mut [Player] {
        self.touched |= ((1u16 << r.end.min(8)) - 1) as u8;
        &mut self.p[r]
    }
}

impl std::ops::IndexMut<usize> for Players {
    #[inline]
    fn index_mut(&mut self, j: usize) -> &mut Player {
        self.touched |= 1 << j;
        &mut self.p[j]
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub n: usize,
    pub rng: Rng,
    pub flags: Flags,
    pub players: Players,
    pub order: Small<u8, MAXP>,
    pub card_of: [i64; MAXP],
    pub art_mod: [i64; MAXP],
    pub sent_mod: [i64; MAXP],
    pub round: i64,
    pub stage: Stage,
    pub turn_idx: usize,
    pub group: u8, // 0 (none), b'a', b'b', b'c'
    pub groups_done: i64,
    pub turn_actions: i64,
    pub tab_seat: i64,
    pub tab_owed: i64,
    pub tab_credit: i64,
    pub tab_auc: bool,
    pub display: Small<u8, 40>,
    pub art_pile: [i64; 12],
    pub sent_avail: Small<u8, 9>,
    pub sent_sold: i64,
    pub gem_supply: [i64; 5],
    pub deck: [[i64; 6]; 4],
    pub disc: [[i64; 6]; 4],
    pub auc: Option<Auction>,
    pub pending: Small<Decision, 32>,
    pub revealed: i64,
    pub over: bool,
    pub winners: Small<u8, 16>,
    pub end_reason: String,
}

impl State {
    /// One more sentinel sold ends the game (at the end of this round).
    pub fn one_sentinel_from_the_end(&self) -> bool {
        self.sent_sold + 1 >= data().sent_end
    }

    // --- setup (3) --------------------------------------------------------------------------------
    /// A new game. `chars`: the characters option in seat order (None = random), -1 for "random".
    pub fn new(n: usize, seed: u64, chars: Option<&[i64]>, flags: Flags) -> State {
        let d = data();
        let mut rng = Rng::new(seed);
        let wanted: Vec<i64> = match chars {
            Some(c) => c.to_vec(),
            None => vec![-1; n],
        };
        let mut free: Vec<usize> = (0..d.characters.len()).filter(|c| !wanted.contains(&(*c as i64))).collect();
        let mut chs = Vec::with_capacity(n);
        for &w in &wanted {
            if w < 0 {
                let i = rng.below(free.len() as u64) as usize;
                chs.push(free.remove(i));
            } else {
                chs.push(w as usize);
            }
        }
        let mut s = State {
            n,
            rng,
            flags,
            players: Players::default(),
            order: Small::default(),
            card_of: [-1; MAXP],
            art_mod: [0; MAXP],
            sent_mod: [0; MAXP],
            round: 0,
            stage: Stage::Turn,
            turn_idx: 0,
            group: 0,
            groups_done: 0,
            turn_actions: 0,
            tab_seat: -1,
            tab_owed: 0,
            tab_credit: 0,
            tab_auc: false,
            display: Small::default(),
            art_pile: [d.art_copies[n]; 12],
            sent_avail: Small::from_slice(&[0, 1, 2, 3, 4, 5, 6, 7, 8]).unwrap(),
            sent_sold: 0,
            gem_supply: d.gem_supply,
            deck: [[0; 6]; 4],
            disc: [[0; 6]; 4],
            auc: None,
            pending: Small::default(),
            revealed: 0,
            over: false,
            winners: Small::default(),
            end_reason: String::new(),
        };
        for c in 0..4 {
            for (i, &k) in d.card_copies[c].iter().enumerate() {
                s.deck[c][i] = k;
            }
        }
        for (seat, &ch) in chs.iter().enumerate() {
            let p = &mut s.players[seat];
            p.seat = seat;
            p.ch = ch;
            for g in 0..5 {
                p.active[g] = d.starting_gems[g];
                s.gem_supply[g] -= d.starting_gems[g];
            }
            p.dust = d.char_dust[ch];
            p.levels[d.char_track[ch]] = 1;
            p.tokens = Small::from_slice(&d.token_prices).unwrap();
        }
        for seat in 0..n {
            if s.players[seat].ch == FAIRY {
                let got = s.draw(BLUE, d.sages_cards);
                for c in got {
                    s.players[seat].add_card(c);
                }
            }
            s.players[seat].vp = score(&s.players[seat]);
        }
        s.refill_artifacts();
        s.start_round();
        s.run();
        s
    }

    #[inline]
    pub fn alive(&self) -> impl Iterator<Item = &Player> {
        self.players[..self.n].iter().filter(|p| !p.out)
    }

    // --- decks (1) --------------------------------------------------------------------------------
    pub fn draw(&mut self, colour: usize, n: usize) -> Vec<usize> {
        let base = data().card_min[colour];
        let len = data().card_copies[colour].len();
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let mut total: i64 = self.deck[colour][..len].iter().sum();
            if total == 0 {
                if !self.disc[colour][..len].iter().any(|&x| x != 0) {
                    break;
                }
                self.deck[colour] = self.disc[colour];
                self.disc[colour] = [0; 6];
                total = self.deck[colour][..len].iter().sum();
            }
            let mut r = self.rng.below(total as u64) as i64;
            let mut i = 0;
            while r >= self.deck[colour][i] {
                r -= self.deck[colour][i];
                i += 1;
            }
            self.deck[colour][i] -= 1;
            out.push(((base + i as i64) * 4) as usize + colour);
        }
        out
    }

    pub fn discard_cards(&mut self, codes: &[usize]) {
        let d = data();
        for &code in codes {
            let c = code & 3;
            self.disc[c][((code >> 2) as i64 - d.card_min[c]) as usize] += 1;
        }
        if !codes.is_empty() {
            self.revealed += 1;
        }
    }

    // --- phase 1 ----------------------------------------------------------------------------------
    pub fn refill_artifacts(&mut self) {
        let d = data();
        let target = self.alive().count();
        while self.display.len() < target {
            let top = (0..12).filter(|&k| self.art_pile[k] != 0).map(|k| d.art_letter[k]).min();
            let Some(top) = top else { return };
            let kinds: Vec<usize> = (0..12).filter(|&k| self.art_pile[k] != 0 && d.art_letter[k] == top).collect();
            let counts: Vec<i64> = kinds.iter().map(|&k| self.art_pile[k]).collect();
            let k = kinds[self.rng.pick_weighted(&counts)];
            self.art_pile[k] -= 1;
            if !self.display.push(k as u8) {
                return;
            }
            self.revealed += 1;
        }
    }

    pub fn decide_turn_order(&mut self) {
        let d = data();
        let mut keys: Vec<((i64, i64, u64), usize)> = Vec::new();
        for seat in 0..self.n {
            let p = &self.players[seat];
            if !p.out {
                let (vp, gv) = (p.vp, gem_vp(p));
                keys.push(((-vp, -gv, self.rng.next64()), seat));
            }
        }
        keys.sort_by(|a, b| a.0.cmp(&b.0));
        let order: Vec<u8> = keys.iter().map(|k| k.1 as u8).collect();
        let mut card_of = [-1; MAXP];
        let mut art_mod = [0; MAXP];
        let mut sent_mod = [0; MAXP];
        let leader_vp = self.players[order[0] as usize].vp;
        for (i, &seat) in order.iter().enumerate() {
            let seat = seat as usize;
            card_of[seat] = i as i64;
            let (art, sent, cond) = d.order_cards[i];
            let applies = (cond == Cond::Leader && leader_vp >= d.vp_threshold)
                || (cond == Cond::SelfVp && self.players[seat].vp >= d.vp_threshold);
            if applies {
                art_mod[seat] = art;
                sent_mod[seat] = sent;
            }
        }
        self.order = Small::from_slice(&order).unwrap();
        self.card_of = card_of;
        self.art_mod = art_mod;
        self.sent_mod = sent_mod;
    }

    pub fn start_round(&mut self) {
        self.round += 1;
        for j in 0..self.n {
            // only a seat with something to change is touched (the batch's tensor rewrites those)
            let q = &self.players[j];
            if !q.advanced && q.under_dust == 0 && q.under.iter().all(|&x| x == 0) {
                continue;
            }
            let p = &mut self.players[j];
            if p.under.iter().any(|&x| x != 0) {
                for c in 0..MAX_CODE {
                    for _ in 0..p.under[c] {
                        p.hand[c] += 1;
                        p.ncards += 1;
                        p.cardsum += (c >> 2) as i64;
                    }
                }
                p.under = [0; MAX_CODE];
            }
            if p.under_dust != 0 {
                p.dust += p.under_dust;
                p.under_dust = 0;
            }
            p.advanced = false;
        }
        self.decide_turn_order();
        self.refill_artifacts();
        let order = self.order;
        for &seat in order.iter() {
            self.collect_income(seat as usize);
        }
        self.stage = Stage::Turn;
        self.turn_idx = 0;
        self.start_turn();
    }

    // --- phase 2 ----------------------------------------------------------------------------------
    pub fn collect_income(&mut self, seat: usize) {
        let d = data();
        let p = &self.players[seat];
        let k = p.active[OPAL];
        let mut dust = d.opal_per_three * k.div_euclid(3)
            + d.opal_remainder[k.rem_euclid(3) as usize]
            + d.flow_dust[p.levels[FLOW] as usize];
        let mut due = [p.active[SAPPHIRE], p.active[EMERALD], p.active[DIAMOND], p.active[RUBY]];
        for a in 0..12 {
            if d.income_cards[a] >= 0 && p.arts[a] != 0 {
                due[d.income_cards[a] as usize] += p.arts[a];
            }
        }
        let mut new = Vec::new();
        for colour in 0..4 {
            let n = due[colour];
            let groups = n.div_euclid(d.conc_group);
            if groups != 0 {
                self.players[seat].conc[colour] += groups;
                dust += d.conc_dust * groups;
            }
            let rest = n.rem_euclid(d.conc_group);
            if rest != 0 {
                new.extend(self.draw(colour, rest as usize));
            }
        }
        let paid = payout(dust);
        if new.is_empty() && paid == 0 {
            return; // no income: the seat is not touched
        }
        let p = &mut self.players[seat];
        for c in new {
            p.add_card(c);
        }
        p.dust += paid;
    }

    // --- phase 3 turns ----------------------------------------------------------------------------
    pub fn start_turn(&mut self) {
        while self.turn_idx < self.order.len() && self.players[self.order.as_slice()[self.turn_idx] as usize].out {
            self.turn_idx += 1;
        }
        self.group = 0;
        self.groups_done = 0;
        self.turn_actions = 0;
        self.tab_seat = -1;
        self.tab_owed = 0;
        self.tab_credit = 0;
        self.tab_auc = false;
    }

    pub fn end_turn(&mut self) {
        self.turn_idx += 1;
        self.start_turn();
    }

    // --- phase 4 ----------------------------------------------------------------------------------
    pub fn start_phase4(&mut self) {
        self.stage = Stage::Hand;
        let over: Vec<u8> = self
            .order
            .iter()
            .copied()
            .filter(|&seat| {
                let p = &self.players[seat as usize];
                !p.out && p.hand_count() > p.hand_limit()
            })
            .collect();
        for &seat in over.iter().rev() {
            self.pending.push(Decision { kind: Kind::Discard, seat, payload: 0 });
        }
    }

    /// Every seat's victory points now; a seat whose points stay is not touched (the batch's
    /// tensor rewrites touched seats).
    fn update_vp(&mut self) {
        for j in 0..self.n {
            let p = &self.players[j];
            let vp = if p.out { 0 } else { score(p) };
            if vp != p.vp {
                self.players[j].vp = vp;
            }
        }
    }

    pub fn finish_round(&mut self) {
        self.update_vp();
        if self.sent_sold >= data().sent_end {
            self.game_over("sentinels", None);
        } else if self.flags.max_rounds.is_some_and(|m| self.round >= m) {
            self.game_over("max_rounds", None);
        } else {
            self.start_round();
        }
    }

    pub fn game_over(&mut self, reason: &str, sole_winner: Option<usize>) {
        self.over = true;
        self.stage = Stage::Over;
        self.end_reason = reason.to_string();
        self.pending.clear();
        self.auc = None;
        self.update_vp();
        self.winners.clear();
        if let Some(w) = sole_winner {
            self.winners.push(w as u8);
        } else {
            let best = self.alive().map(|p| p.vp).max().unwrap_or(0);
            let ws: Vec<u8> = self.alive().filter(|p| p.vp == best).map(|p| p.seat as u8).collect();
            for w in ws {
                self.winners.push(w);
            }
        }
    }

    // --- the curse (7.5) --------------------------------------------------------------------------
    pub fn eliminate(&mut self, seat: usize) {
        let p = self.players[seat];
        for g in 0..5 {
            self.gem_supply[g] += p.active[g] + p.inactive[g];
        }
        let mut lost = codes(&p.hand);
        lost.extend(codes(&p.under));
        // Python discards hand + under cards in one call (one reveal)
        self.discard_cards(&lost);
        let q = &mut self.players[seat];
        q.out = true;
        q.active = [0; 5];
        q.inactive = [0; 5];
        q.hand = [0; MAX_CODE];
        q.ncards = 0;
        q.cardsum = 0;
        q.under = [0; MAX_CODE];
        q.conc = [0; 4];
        q.dust = 0;
        q.under_dust = 0;
        q.arts = [0; 12];
        q.sents = Small::default();
        q.vp = 0;
        self.auc = None;
        self.pending.retain(|d| d.kind != Kind::Bid && d.seat as usize != seat);
        if self.tab_seat == seat as i64 {
            self.tab_seat = -1;
            self.tab_owed = 0;
            self.tab_credit = 0;
            self.tab_auc = false;
        }
        let alive: Vec<usize> = self.alive().map(|q| q.seat).collect();
        if alive.len() == 1 {
            self.game_over("last_player", Some(alive[0]));
            return;
        }
        if self.stage == Stage::Turn
            && self.turn_idx < self.order.len()
            && self.order.as_slice()[self.turn_idx] as usize == seat
        {
            self.end_turn();
        }
    }

    // --- knowledge (9, 10) -------------------------------------------------------------------------
    pub fn sages_cards_useful(&self, p: &Player, colour: usize) -> bool {
        let d = data();
        match colour {
            BLUE => true,
            GREEN => p.arts[SPELLBOOK] > 0 || p.arts[PROTECTION] > 0,
            WHITE => p.arts[ELIXIR] > 0,
            RED => {
                let fire = p.levels[FIRE];
                fire >= d.ruby_fire_level
                    || p.arts[CHALICE] > 0
                    || (self.flags.druid_l3 && p.ch == DRUID && fire >= d.druid_ruby_fire_level)
            }
            _ => false,
        }
    }

    pub fn raise_level(&mut self, seat: usize, track: usize) {
        let d = data();
        {
            let p = &mut self.players[seat];
            if p.levels[track] == 0 {
                p.pentagon -= 1;
            }
            p.levels[track] += 1;
        }
        if track == SAGES {
            let colour = d.sages_colour[(self.players[seat].levels[track] - 1) as usize];
            let got = self.draw(colour, d.sages_cards);
            let useful = self.sages_cards_useful(&self.players[seat], colour);
            if self.flags.sages_dust && !useful {
                self.discard_cards(&got);
                let v: i64 = got.iter().map(|&c| (c >> 2) as i64).sum();
                self.players[seat].under_dust += payout(v);
            } else {
                for c in got {
                    self.players[seat].under[c] += 1;
                }
            }
        }
    }

    pub fn can_raise(p: &Player, track: usize, new_track: bool) -> bool {
        let lv = p.levels[track];
        lv < data().max_level && (lv > 0 || (new_track && p.pentagon > 0))
    }

    /// One automatic step when nothing is pending; false when the active player must act.
    pub fn step(&mut self) -> bool {
        match self.stage {
            Stage::Turn => {
                if self.turn_idx < self.order.len() {
                    return false;
                }
                self.start_phase4();
            }
            Stage::Hand => self.finish_round(),
            Stage::Over => return false, // (only a loaded state that is over in all but name)
        }
        true
    }

    pub fn victims_after(&self, seat: usize) -> Vec<usize> {
        let order = self.order.as_slice();
        let n = order.len() as i64;
        let i = order.iter().position(|&x| x as usize == seat).map(|i| i as i64).unwrap_or(-1);
        (1..=n).map(|k| order[((i + k).rem_euclid(n)) as usize] as usize).filter(|&x| x != seat).collect()
    }
}

/// Parsed payment or discard items: cards as (value, colour or -1), concentrated cards, dust.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Items {
    pub cards: Vec<(i64, i64)>,
    pub conc: [i64; 4],
    pub dust: i64,
}

/// Items resolved to a player's card codes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub cards: Vec<usize>,
    pub conc: [i64; 4],
    pub dust: i64,
}

impl Resolved {
    pub fn value(&self) -> i64 {
        let d = data();
        self.cards.iter().map(|&c| (c >> 2) as i64).sum::<i64>()
            + (0..4).map(|c| self.conc[c] * d.conc_value[c]).sum::<i64>()
            + self.dust
    }
}
