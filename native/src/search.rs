//! The hard level in Rust: the generic IS-MCTS of `grimoire/agents/mcts.py` with the Zavandor hooks
//! of `ai/search.py` (shortcut, candidates, heuristic playouts, cutoff at the end of the deciding
//! seat's turn, evaluation by projected VP), iteration for iteration the same search. The reach
//! (`SearchConfig`: candidates, widening, horizon, clear gap) is set per decision by the Python
//! hooks (`ZavandorSearch.mode`), so a time-only budget may search wider or deeper than a fixed one.

use crate::data::*;
use crate::evaluate::{end_value, energy_in_hand, value, Ctx, Params, AP};
use crate::heuristic::{inverse, Policy};
use crate::legal::{BID_BASE, END, PASS};
use crate::mlp::{Mlp, Scratch};
use crate::rng::Rng;
use crate::state::{Kind, Stage, State};
use std::collections::HashMap;
use std::sync::Arc;

pub struct SearchConfig {
    pub top_k: usize,
    pub scale: f64,
    pub clear_gap: f64,
    pub bid_band: f64,
    /// Progressive widening of the deciding seat's turn candidates, `(c, alpha)`: on its v-th visit
    /// a node considers the heuristic's best `min(top_k, ceil(c * v^alpha))` (None: always `top_k`).
    pub widen: Option<(f64, f64)>,
    /// Search on to the end of the round (through the other seats' turns, played by the hooks'
    /// policies) instead of stopping at the end of the deciding seat's turn.
    pub round_horizon: bool,
}

/// The expert level's leaf value: a learned network of the deciding seat's observation
/// (`grimoire/agents/net.py`), blended with the heuristic's evaluation by `weight` (1: the network alone).
/// With `scaled`, the network's value enters the blend on the heuristic's scale (`Spread::rescale`),
/// so that its share of a choice is `weight` whatever the spread of a given network's values.
pub struct Leaf {
    pub net: Arc<Mlp>,
    pub weight: f64,
    pub scaled: bool,
    spread: Spread,
    x: Vec<f32>,
    scratch: Scratch,
}

/// Running means and spreads of the network's value and of the heuristic's reward over one search's
/// leaves (Welford), reset at each decision.
#[derive(Default)]
struct Spread {
    n: f64,
    mv: f64,
    mh: f64,
    sv: f64, // sums of squared deviations
    sh: f64,
}

/// Leaves seen before the network's value is rescaled (until then it enters the blend as it is).
const SPREAD_MIN_LEAVES: f64 = 16.0;

impl Spread {
    fn add(&mut self, v: f64, h: f64) {
        self.n += 1.0;
        let (dv, dh) = (v - self.mv, h - self.mh);
        self.mv += dv / self.n;
        self.mh += dh / self.n;
        self.sv += dv * (v - self.mv);
        self.sh += dh * (h - self.mh);
    }

    /// `v` moved onto the heuristic's scale: as many of the heuristic's standard deviations from the
    /// heuristic's mean as `v` is of the network's from the network's mean (clamped to [0, 1]).
    fn rescale(&self, v: f64) -> f64 {
        if self.n < SPREAD_MIN_LEAVES || self.sv <= 1e-12 {
            return v;
        }
        (self.mh + (v - self.mv) * (self.sh / self.sv).sqrt()).clamp(0.0, 1.0)
    }
}

impl Leaf {
    pub fn new(net: Arc<Mlp>, weight: f64, scaled: bool) -> Leaf {
        let x = vec![0.0; net.obs_size()];
        Leaf { net, weight, scaled, spread: Spread::default(), x, scratch: Scratch::default() }
    }

    /// The deciding seat's reward at a leaf: the network's value `v` blended with the heuristic's `h`.
    fn blend(&mut self, v: f64, h: f64) -> f64 {
        let v = if self.scaled {
            self.spread.add(v, h);
            self.spread.rescale(v)
        } else {
            v
        };
        self.weight * v + (1.0 - self.weight) * h
    }

    /// The network's value of `s` for `seat` (its own view: the tensor shows only what the seat sees).
    pub fn value(&mut self, s: &State, seat: usize) -> f64 {
        s.write_tensor(Some(seat), &mut self.x);
        self.net.value(&self.x, &mut self.scratch) as f64
    }
}

struct Node {
    children: Vec<(u32, usize)>, // insertion order, as the Python dict
    n: i64,
    avail: i64,
    w: f64,
    mover: usize,
    ranked: Option<Vec<(f64, u32)>>,
    visits: i64, // how often the candidates of the deciding seat's turn were asked here (widening)
    wv: f64,     // the deciding seat's calibrated values backed up here (`Hooks::root`)
}

impl Node {
    fn new(mover: usize) -> Node {
        Node { children: Vec::new(), n: 0, avail: 0, w: 0.0, mover, ranked: None, visits: 0, wv: 0.0 }
    }
    fn child(&self, code: u32) -> Option<usize> {
        self.children.iter().find(|c| c.0 == code).map(|c| c.1)
    }
}

/// The hooks' memory across decisions and within a search (as the Python `ZavandorSearch`).
pub struct Hooks {
    pub cfg: SearchConfig,
    pub h: Policy,     // inside the search
    pub quick: Policy, // the shortcut's heuristic
    pub rng: Rng,      // the shortcut's determinizations
    guard_key: Option<(i64, usize, usize)>,
    guard_steps: i64,
    seat: i64,
    round: i64,
    root_active: Option<usize>,
    base_values: Vec<f64>,
    turn_cache: HashMap<Vec<i64>, u32>,
    price_cache: HashMap<Vec<i64>, i64>,
    pub decided: i64,
    pub searched: i64,
    pub leaf: Option<Leaf>,
    /// The last search's root: per child (code, visits, summed reward, summed value), the value being
    /// the network's chance of winning at a leaf and the win share at a finished game (expert
    /// training's targets: unlike the reward, a calibrated chance of winning; 0 without a network).
    pub root: Vec<(u32, i64, f64, f64)>,
    leaf_value: f64,
    /// Search to the end of the round (as `SearchConfig::round_horizon`) where one more sentinel sold
    /// ends the game: there the round's end is the game's, and a finished game needs no estimate.
    pub endgame_round: bool,
    round_horizon_now: bool,
    /// In that round also search the turns and bids the shortcut would decide (a clear best turn
    /// action, a bid far from the limit): their leaves are finished games, no estimate to mislead.
    pub endgame_search_all: bool,
    /// The other seats (bit i: seat i) whose bids branch too (raise by the least or pass, each seat
    /// taking its own best reward) instead of following the heuristic's limit: a model of rivals who
    /// search their bids (all bits: every rival; the expert's watcher: those seen bid unlike the heuristic).
    pub enemy_seats: u64,
    /// Remembered turn choices found illegal where they were asked for again (then chosen anew).
    pub stale_choices: i64,
}

fn active_seat(s: &State) -> Option<usize> {
    if s.over || s.stage != Stage::Turn || s.turn_idx >= s.order.len() {
        None
    } else {
        Some(s.order.as_slice()[s.turn_idx] as usize)
    }
}

fn bid_codes(actions: &[u32]) -> Vec<u32> {
    actions.iter().copied().filter(|&a| a >= BID_BASE).collect()
}

fn bid_of(code: u32) -> i64 {
    (code - BID_BASE) as i64
}

/// How many of the ranked turn actions a node considers on its `visits`-th visit (`SearchConfig::widen`).
fn widened(top_k: usize, widen: Option<(f64, f64)>, visits: i64) -> usize {
    match widen {
        None => top_k,
        Some((c, alpha)) => {
            let k = (c * (visits as f64).powf(alpha)).ceil();
            let k = if k > 1.0 { k as usize } else { 1 };
            k.min(top_k)
        }
    }
}

fn softmax_win(values: &[f64], temperature: f64) -> Vec<f64> {
    let m = values.iter().copied().fold(f64::NEG_INFINITY, |a, b| if b > a { b } else { a });
    let ex: Vec<f64> = values.iter().map(|&v| if v > -1e8 { ((v - m) / temperature).exp() } else { 0.0 }).collect();
    let mut tot = 0.0;
    for &x in &ex {
        tot += x;
    }
    ex.iter().map(|x| x / tot).collect()
}

fn terminal_rewards(s: &State) -> Vec<f64> {
    let scores = s.scores();
    let winners = s.winners();
    let n = scores.len();
    let share = if winners.is_empty() { 0.0 } else { 1.0 / winners.len() as f64 };
    (0..n)
        .map(|i| {
            let best_other = (0..n).filter(|&j| j != i).map(|j| scores[j]).max().unwrap_or(scores[i]);
            let m = 0.5 + 0.5 * ((scores[i] - best_other) as f64 / 10.0).tanh();
            (1.0 - 0.2) * (if winners.contains(&i) { share } else { 0.0 }) + 0.2 * m
        })
        .collect()
}

impl Hooks {
    /// `h_rng`, `rng`: the states of the Python hooks' generators (the search heuristic's, the shortcut's).
    pub fn new(cfg: SearchConfig, prm: Params, h_rng: u64, rng: u64) -> Hooks {
        let mut h = Policy::new(prm.clone(), 0.0, 0.0, true);
        h.rng = Rng::from_state(h_rng);
        let quick = Policy::new(prm, 0.0, 0.0, true);
        Hooks {
            cfg,
            h,
            quick,
            rng: Rng::from_state(rng),
            guard_key: None,
            guard_steps: 0,
            seat: -1,
            round: -1,
            root_active: None,
            base_values: vec![],
            turn_cache: HashMap::new(),
            price_cache: HashMap::new(),
            decided: 0,
            searched: 0,
            leaf: None,
            root: Vec::new(),
            leaf_value: 0.0,
            endgame_round: false,
            round_horizon_now: false,
            endgame_search_all: false,
            enemy_seats: 0,
            stale_choices: 0,
        }
    }

    fn exhausted(&mut self, s: &State, seat: usize) -> bool {
        let key = (s.round, s.turn_idx, seat);
        if self.guard_key != Some(key) {
            self.guard_key = Some(key);
            self.guard_steps = 0;
        }
        self.guard_steps += 1;
        self.guard_steps > 40
    }

    fn values(&self, s: &State) -> Vec<f64> {
        let ctx = Ctx::new(s, &self.h.prm);
        let order = s.order.as_slice();
        let done: &[u8] = if s.stage == Stage::Turn { &order[..s.turn_idx.min(order.len())] } else { order };
        s.players[..s.n]
            .iter()
            .map(|p| {
                if p.out {
                    -1e9
                } else if done.contains(&(p.seat as u8)) || ctx.fin {
                    end_value(s, p.seat, &ctx, 0)
                } else {
                    value(&AP::of(p), &ctx, Some(energy_in_hand(p) as f64))
                }
            })
            .collect()
    }

    fn begin(&mut self, root: &State, seat: usize) {
        self.seat = seat as i64;
        self.round = root.round;
        self.root_active = active_seat(root);
        self.base_values = self.values(root);
        self.turn_cache.clear();
        self.round_horizon_now = self.cfg.round_horizon || (self.endgame_round && root.one_sentinel_from_the_end());
        if let Some(leaf) = self.leaf.as_mut() {
            leaf.spread = Spread::default();
        }
    }

    fn bid_limit(&mut self, s: &State, cp: usize) -> i64 {
        let a = s.auc.unwrap();
        let mut key = vec![
            cp as i64,
            a.item as i64,
            a.high_seat,
            s.round,
            s.turn_idx as i64,
            s.sent_sold,
            s.display.len() as i64,
        ];
        if cp as i64 != self.seat {
            let q = &s.players[cp];
            key.extend([q.cardsum, q.dust, q.ncards]);
        }
        if let Some(&v) = self.price_cache.get(&key) {
            return v;
        }
        let v = self.h.bid_limit(s, cp);
        if self.price_cache.len() > 256 {
            self.price_cache.clear();
        }
        self.price_cache.insert(key, v);
        v
    }

    fn bid(&mut self, s: &State, cp: usize, actions: &[u32]) -> u32 {
        let a = s.auc.unwrap();
        if a.high.is_none() {
            return actions[0];
        }
        let bids = bid_codes(actions);
        if bids.is_empty() {
            return PASS;
        }
        let pmax = self.bid_limit(s, cp);
        if pmax >= 0 && s.price_for(cp, a.item, bid_of(bids[0])) <= pmax {
            bids[0]
        } else {
            PASS
        }
    }

    fn turn_key(s: &State, cp: usize) -> Vec<i64> {
        let p = &s.players[cp];
        let mut k = vec![cp as i64, s.round];
        k.extend(p.active);
        k.extend(p.inactive);
        k.extend(p.levels);
        k.extend(p.arts);
        k.extend([p.sents.len() as i64, p.pentagon, p.advanced as i64, p.dust]);
        k.push(-1);
        for (code, &n) in p.hand.iter().enumerate() {
            for _ in 0..n {
                k.push(code as i64);
            }
        }
        k.push(-1);
        k.extend(p.conc);
        k.extend([s.group as i64, s.groups_done, s.tab_owed, s.tab_credit, -1]);
        k.extend(s.display.iter().map(|&x| x as i64));
        k.push(-1);
        k.extend(s.sent_avail.iter().map(|&x| x as i64));
        k.push(s.sent_sold);
        k
    }

    fn turn_choice(&mut self, s: &State, cp: usize, actions: &[u32], last: i64) -> u32 {
        let key = Self::turn_key(s, cp);
        if let Some(&a) = self.turn_cache.get(&key) {
            if actions.contains(&a) {
                return a;
            }
            // the key is the seat's holdings, not all that decides what is legal: the remembered choice
            // can be illegal here, and played it would be refused and a playout would repeat it forever
            self.stale_choices += 1;
        }
        let a = self.h.rank_turn(s, cp, actions, last, Some(false), false)[0].1;
        self.turn_cache.insert(key, a);
        a
    }

    fn candidates(
        &mut self,
        s: &State,
        cp: usize,
        actions: &[u32],
        node: &mut Node,
        depth: usize,
        last: i64,
    ) -> Vec<u32> {
        if actions.len() == 1 {
            return actions.to_vec();
        }
        if let Some(d) = s.pending.last() {
            if d.kind == Kind::Bid {
                let searcher = cp as i64 == self.seat || (cp < 64 && self.enemy_seats >> cp & 1 == 1);
                if searcher && s.auc.unwrap().high.is_some() {
                    let bids = bid_codes(actions);
                    return if bids.is_empty() { vec![PASS] } else { vec![bids[0], PASS] };
                }
                return vec![self.bid(s, cp, actions)];
            }
            return vec![self.h.decide(s, cp, actions, last)];
        }
        if cp as i64 != self.seat {
            return vec![self.turn_choice(s, cp, actions, last)];
        }
        if node.ranked.is_none() {
            node.ranked = Some(self.h.rank_turn(s, cp, actions, last, Some(depth == 0), true));
        }
        node.visits += 1;
        let k = widened(self.cfg.top_k, self.cfg.widen, node.visits);
        let undo = inverse(last);
        let ranked = node.ranked.as_ref().unwrap();
        let mut out: Vec<u32> = ranked.iter().take(k).map(|x| x.1).filter(|&a| a as i64 != undo).collect();
        if !out.contains(&END) {
            out.push(END);
        }
        out
    }

    fn rollout(&mut self, s: &State, last: i64) -> u32 {
        let actions = s.legal();
        if actions.len() == 1 {
            return actions[0];
        }
        let cp = s.current_player().unwrap();
        if let Some(d) = s.pending.last() {
            if d.kind == Kind::Bid {
                return self.bid(s, cp, &actions);
            }
            return self.h.decide(s, cp, &actions, last);
        }
        self.turn_choice(s, cp, &actions, last)
    }

    fn cutoff(&self, s: &State) -> bool {
        if s.over || s.round != self.round {
            return true;
        }
        if !s.pending.is_empty() || self.round_horizon_now {
            return false;
        }
        active_seat(s) != self.root_active
    }

    /// The leaves' rewards: the heuristic's (`heuristic_rewards`), the deciding seat's blended with the
    /// network's value where the expert level gives one. (Only the deciding seat's nodes branch, and
    /// the bids of the seats in `enemy_seats`: their heuristic rewards steer those.)
    fn evaluate(&mut self, s: &State) -> Vec<f64> {
        let mut r = self.heuristic_rewards(s);
        let seat = self.seat as usize;
        if let Some(leaf) = self.leaf.as_mut() {
            if seat < r.len() {
                let v = leaf.value(s, seat);
                self.leaf_value = v;
                r[seat] = leaf.blend(v, r[seat]);
            }
        }
        r
    }

    fn heuristic_rewards(&self, s: &State) -> Vec<f64> {
        let d = data();
        let vals = self.values(s);
        if s.sent_sold >= d.sent_end || s.flags.max_rounds.is_some_and(|m| s.round >= m) {
            return softmax_win(&vals, 1.0);
        }
        let n = vals.len();
        let gains: Vec<f64> =
            (0..n).map(|i| if vals[i] > -1e8 { vals[i] - self.base_values[i] } else { -30.0 }).collect();
        (0..n)
            .map(|i| {
                let others: Vec<f64> = (0..n).filter(|&j| j != i).map(|j| gains[j]).collect();
                let mut sum = 0.0;
                for &x in &others {
                    sum += x;
                }
                let rel = gains[i] - if others.is_empty() { 0.0 } else { sum / others.len() as f64 };
                let x = 0.5 + rel / self.cfg.scale;
                let x = if x > 0.0 { x } else { 0.0 }; // max(0.0, x)
                if x < 1.0 {
                    x
                } else {
                    1.0
                } // min(1.0, x)
            })
            .collect()
    }

    /// Decide without searching where the decision is not close, or None (`ZavandorSearch.shortcut`).
    pub fn shortcut(&mut self, state: &State, seat: usize, actions: &[u32], last: i64) -> Option<u32> {
        let det = state.sample_hidden(seat, &mut self.rng);
        self.decided += 1;
        // (everything below is still computed in that round: the same draws as without it)
        let search_all = self.endgame_search_all && det.one_sentinel_from_the_end();
        if let Some(d) = det.pending.last() {
            let a = det.auc;
            if d.kind != Kind::Bid || a.unwrap().high.is_none() {
                self.quick.rng = self.rng;
                let r = self.quick.decide(&det, seat, actions, last);
                self.rng = self.quick.rng;
                return Some(r);
            }
            let bids = bid_codes(actions);
            if bids.is_empty() {
                return Some(PASS);
            }
            let item = a.unwrap().item;
            let pmax = self.bid_limit(&det, seat);
            let nxt = det.price_for(seat, item, bid_of(bids[0]));
            let x = self.cfg.bid_band * pmax.max(0) as f64;
            let band = if x > 4.0 { x } else { 4.0 };
            if !search_all && (pmax < 0 || nxt as f64 > pmax as f64 + band) {
                return Some(PASS);
            }
            if !search_all && nxt as f64 <= pmax as f64 - band {
                return Some(bids[0]);
            }
        } else {
            if self.exhausted(&det, seat) && actions.contains(&END) {
                return Some(END);
            }
            self.quick.rng = self.rng;
            let ranked = self.quick.rank_turn(&det, seat, actions, last, None, true);
            self.rng = self.quick.rng;
            if ranked.len() == 1 || (!search_all && ranked[0].0 - ranked[1].0 >= self.cfg.clear_gap) {
                return Some(ranked[0].1);
            }
        }
        self.searched += 1;
        None
    }
}

/// CPU seconds this thread has used (the budget's clock when the agent measures CPU time, as
/// `time.thread_time` does in Python); wall seconds where the platform has no such clock.
pub fn thread_cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: clock_gettime only writes the timespec it is given.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9;
        }
    }
    use std::sync::OnceLock;
    static START: OnceLock<std::time::Instant> = OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64()
}

/// One IS-MCTS decision (`ISMCTSAgent.search`) with the agent's generator `rng`; the action and the
/// number of iterations. `time_limit` is in wall seconds, or in this thread's CPU seconds with
/// `cpu_clock` (a budget that other work on the machine does not shrink).
pub fn search(
    hooks: &mut Hooks,
    state: &State,
    seat: usize,
    actions: &[u32],
    last: i64,
    rng: &mut Rng,
    iterations: Option<i64>,
    time_limit: Option<f64>,
    c: f64,
    cpu_clock: bool,
) -> (u32, i64) {
    let wall0 = std::time::Instant::now();
    let cpu0 = if cpu_clock { thread_cpu_seconds() } else { 0.0 };
    let elapsed = || if cpu_clock { thread_cpu_seconds() - cpu0 } else { wall0.elapsed().as_secs_f64() };
    let first = state.sample_hidden(seat, rng);
    hooks.begin(&first, seat); // (the hooks see a determinization, never the real state)
    let mut first = Some(first);
    let mut nodes: Vec<Node> = vec![Node::new(usize::MAX)];
    let mut it: i64 = 0;
    loop {
        if iterations.is_some_and(|n| it >= n) {
            break;
        }
        if it > 0 && time_limit.is_some_and(|t| elapsed() >= t) {
            break;
        }
        let det = match first.take() {
            Some(d) => d,
            None => state.sample_hidden(seat, rng),
        };
        iterate(hooks, det, &mut nodes, last, c);
        it += 1;
    }
    let mut best: Option<(u32, (i64, f64))> = None;
    for &(code, idx) in &nodes[0].children {
        if !actions.contains(&code) {
            continue;
        }
        let ch = &nodes[idx];
        let key = (ch.n, if ch.n != 0 { ch.w / ch.n as f64 } else { 0.0 });
        let better = match best {
            None => true,
            Some((_, k)) => key.0 > k.0 || (key.0 == k.0 && key.1 > k.1),
        };
        if better {
            best = Some((code, key));
        }
    }
    hooks.root = nodes[0].children.iter().map(|&(code, i)| (code, nodes[i].n, nodes[i].w, nodes[i].wv)).collect();
    (best.map(|b| b.0).unwrap_or(actions[0]), it)
}

fn iterate(hooks: &mut Hooks, mut det: State, nodes: &mut Vec<Node>, mut last: i64, c: f64) {
    let mut node = 0usize;
    let mut path = vec![0usize];
    let mut depth = 0usize;
    let mut expanded = false;
    while !det.over && !(depth > 0 && hooks.cutoff(&det)) {
        let cp = det.current_player().unwrap();
        let legal = det.legal();
        let mut nd = std::mem::replace(&mut nodes[node], Node::new(0));
        let cands = hooks.candidates(&det, cp, &legal, &mut nd, depth, last);
        nodes[node] = nd;
        let mut untried = None;
        for &a in &cands {
            match nodes[node].child(a) {
                None => {
                    if untried.is_none() {
                        untried = Some(a);
                    }
                }
                Some(ci) => nodes[ci].avail += 1,
            }
        }
        if let Some(a) = untried {
            let mut child = Node::new(cp);
            child.avail = 1;
            nodes.push(child);
            let ci = nodes.len() - 1;
            nodes[node].children.push((a, ci));
            det.apply_code(a);
            last = a as i64;
            path.push(ci);
            expanded = true;
            break;
        }
        let (mut best_a, mut best_u, mut best_i) = (cands[0], f64::NEG_INFINITY, 0usize);
        for &a in &cands {
            let ci = nodes[node].child(a).unwrap();
            let ch = &nodes[ci];
            let u = (ch.w / ch.n as f64 - 0.0) / 1.0 + c * ((ch.avail as f64).ln() / ch.n as f64).sqrt();
            if u > best_u {
                best_a = a;
                best_u = u;
                best_i = ci;
            }
        }
        node = best_i;
        det.apply_code(best_a);
        last = best_a as i64;
        path.push(node);
        depth += 1;
    }
    if expanded {
        while !det.over && !hooks.cutoff(&det) {
            let a = hooks.rollout(&det, last);
            det.apply_code(a);
            last = a as i64;
        }
    }
    let rewards = if det.over { terminal_rewards(&det) } else { hooks.evaluate(&det) };
    if path.len() > 1 {
        let seat = hooks.seat as usize;
        let winners = det.winners();
        let value = if !det.over {
            hooks.leaf_value
        } else if winners.contains(&seat) {
            1.0 / winners.len() as f64
        } else {
            0.0
        };
        nodes[path[1]].wv += value;
    }
    for &ni in &path[1..] {
        let nd = &mut nodes[ni];
        nd.n += 1;
        nd.w += rewards[nd.mover];
    }
    nodes[0].n += 1;
}

#[cfg(test)]
mod tests {
    use super::{thread_cpu_seconds, widened, Hooks, SearchConfig, Spread, SPREAD_MIN_LEAVES};
    use crate::evaluate::{Params, Plan};
    use crate::state::{Flags, State};

    fn hooks() -> Hooks {
        let plan = Plan {
            vp_per_energy: 0.1,
            hand_unit: 0.1,
            hand_unit_min: 0.05,
            hand_unit_max: 0.2,
            gem_spend: 1.0,
            sink_rate: 0.5,
            art_rate: 0.5,
            art_budget: 20.0,
            art_share: 0.5,
            sentinel_surcharge: 5.0,
            payback: 3.0,
            advance_first: true,
            fire_step: 1.0,
        };
        let prm = Params {
            end_round: [8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0],
            sentinel_rounds: 3.0,
            sentinel_share: 0.5,
            sentinel_extra: 1.0,
            denial: 0.5,
            tie_income: 0.1,
            tie_energy: 0.01,
            kappa: 0.1,
            plans: [plan; 6],
        };
        let cfg =
            SearchConfig { top_k: 4, scale: 1.0, clear_gap: 1.5, bid_band: 0.15, widen: None, round_horizon: false };
        Hooks::new(cfg, prm, 1, 2)
    }

    #[test]
    fn a_remembered_turn_choice_that_is_not_legal_here_is_chosen_anew() {
        // the turn cache's key is a seat's holdings: where its remembered choice is not among the legal
        // actions, playing it would be refused and a playout would repeat it forever
        let mut s = State::new(4, 7, None, Flags { strict: true, turn_limit: 100, ..Default::default() });
        let mut rng = crate::rng::Rng::new(3);
        while !(s.pending.is_empty() && s.legal().len() > 2) {
            let legal = s.legal();
            assert!(s.apply_code(legal[rng.below(legal.len() as u64) as usize]).is_none());
        }
        let cp = s.current_player().unwrap();
        let legal = s.legal();
        let mut h = hooks();
        let first = h.turn_choice(&s, cp, &legal, -1);
        assert!(legal.contains(&first));
        assert_eq!(h.turn_choice(&s, cp, &legal, -1), first); // remembered
        assert_eq!(h.stale_choices, 0);
        let fewer: Vec<u32> = legal.iter().copied().filter(|&a| a != first).collect();
        let again = h.turn_choice(&s, cp, &fewer, -1);
        assert!(fewer.contains(&again));
        assert_eq!(h.stale_choices, 1);
    }

    #[test]
    fn a_rescaled_value_lands_where_the_heuristic_puts_the_same_rank() {
        // the network's values 0.50..0.69 move by 0.01 where the heuristic's 0.05..1.00 move by 0.05:
        // once enough leaves are seen, a network value maps to the heuristic's value at the same place
        let mut sp = Spread::default();
        assert_eq!(sp.rescale(0.55), 0.55); // no leaves yet: unchanged
        for k in 0..20 {
            sp.add(0.5 + 0.01 * k as f64, 0.05 + 0.05 * k as f64);
        }
        assert!(20.0 >= SPREAD_MIN_LEAVES);
        for k in [0, 7, 19] {
            let got = sp.rescale(0.5 + 0.01 * k as f64);
            assert!((got - (0.05 + 0.05 * k as f64)).abs() < 1e-9, "{k}: {got}");
        }
        assert_eq!(sp.rescale(0.9), 1.0); // beyond the heuristic's range: clamped
        assert_eq!(sp.rescale(0.0), 0.0);
    }

    #[test]
    fn widening_grows_with_the_square_root_of_the_visits_up_to_top_k() {
        // (c, alpha) = (2, 0.5): ceil(2 * sqrt(v)) candidates on the v-th visit, never more than top_k
        let k: Vec<usize> = [1, 2, 3, 4, 9, 16, 25, 1000].iter().map(|&v| widened(8, Some((2.0, 0.5)), v)).collect();
        assert_eq!(k, vec![2, 3, 4, 4, 6, 8, 8, 8]);
        assert_eq!(widened(8, Some((0.1, 0.5)), 1), 1); // at least one
        assert_eq!(widened(5, None, 1), 5); // no widening: top_k from the first visit
        assert_eq!(widened(5, None, 10_000), 5);
    }

    #[test]
    fn the_thread_cpu_clock_never_goes_back() {
        let mut last = thread_cpu_seconds();
        assert!(last.is_finite() && last >= 0.0);
        let mut x: u64 = 1;
        for i in 0..200_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(i); // some work between readings
            if i % 1000 == 0 {
                let now = thread_cpu_seconds();
                assert!(now >= last, "{now} < {last}");
                last = now;
            }
        }
        assert!(x != 0 || last >= 0.0);
    }
}
