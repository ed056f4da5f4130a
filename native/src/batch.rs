//! Many games stepped in one call (`grimoire.rl.vector_env` on the native engine): each game is
//! exactly the single-env adapter's (`grimoire/rl/gymnasium_seat.py`) — the same episode seeds, the
//! same random opponents drawing from the same generators, the same invalid-action and truncation
//! rules — and the results are written into caller-owned arrays.
//!
//! Two forms: one learning seat with random opponents (Gymnasium's `VectorEnv`), or self-play
//! (`seat` None: every decision is the caller's, the observation is the deciding seat's).
//! Autoreset is Gymnasium's NEXT_STEP: the step after an episode ended only resets that game.

use crate::rng::Rng;
use crate::state::{Flags, State, MAXP};
use crate::tensor::IDS;
use crate::tensor_cache::TensorCache;

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// `grimoire.core.episode.derive_seed` with the keys already as integers (texts: the caller hashes).
pub fn derive_seed(seed: u64, keys: &[u64]) -> u64 {
    let mut r = Rng::new(0);
    r = Rng::new(r.next64() ^ seed.wrapping_mul(GOLDEN));
    for &k in keys {
        r = Rng::new(r.next64() ^ k.wrapping_mul(GOLDEN));
    }
    r.next64() & 0x7FFF_FFFF
}

pub struct Config {
    pub n: usize,
    pub chars: Option<Vec<i64>>,
    pub flags: Flags,
    pub seat: Option<usize>,
    pub limit: Option<i64>,
    pub invalid_reward: f64,
    pub key_episode: u64,
    pub key_opponent: u64,
}

pub struct Slot {
    pub s: State,
    base: u64,
    episode: u64,
    opp: [Rng; MAXP],
    steps: i64,
    actions: i64,
    pub done: bool,
    legal: Vec<u32>,
    ids: IdSet,
    tensor: TensorCache,
}

/// The learner's legal ids as bits (all clear when it is not to act): the mask's ones, for the
/// validity check and a random choice without scanning the mask.
#[derive(Clone, Copy, Default)]
pub struct IdSet([u64; ID_WORDS]);

const ID_WORDS: usize = 8;

impl IdSet {
    #[inline]
    fn insert(&mut self, id: usize) {
        self.0[id >> 6] |= 1 << (id & 63);
    }

    #[inline]
    pub fn contains(&self, id: usize) -> bool {
        id < 64 * ID_WORDS && (self.0[id >> 6] >> (id & 63)) & 1 != 0
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The `r`-th id in ascending order (r < len).
    pub fn nth(&self, mut r: usize) -> usize {
        for (i, &w) in self.0.iter().enumerate() {
            let c = w.count_ones() as usize;
            if r < c {
                let mut w = w;
                for _ in 0..r {
                    w &= w - 1;
                }
                return 64 * i + w.trailing_zeros() as usize;
            }
            r -= c;
        }
        unreachable!("r < len")
    }

    /// A uniformly random id (0 where none, drawing nothing): the masked ids in ascending order
    /// indexed by `rng.below(count)`, as a scan of the mask picks.
    pub fn random(&self, rng: &mut Rng) -> i64 {
        let n = self.len();
        if n == 0 {
            0
        } else {
            self.nth(rng.below(n as u64) as usize) as i64
        }
    }
}

/// One step's outputs for one game (rows of the caller's arrays).
pub struct Out<'a> {
    pub obs: &'a mut [f32],
    pub mask: &'a mut [i8],
    pub rewards: &'a mut [f32], // one (learning seat) or one per seat (self-play)
    pub terminated: &'a mut u8,
    pub truncated: &'a mut u8,
    pub to_move: &'a mut i64,
}

/// Asks the CPU to fetch `len` bytes from `start` into the caches (a hint: never a read, never a fault).
#[inline]
pub fn prefetch(start: *const u8, len: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let mut off = 0;
        while off < len {
            // SAFETY: prefetching never faults
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(off) as *const i8) };
            off += 64;
        }
    }
}

/// Before game `i` steps: fetch game i + 2's state and game i + 1's remembered tensor pieces, so
/// that neither waits for memory when its turn comes (a batch of 1,024 games does not fit the caches).
#[inline]
pub fn prefetch_ahead(slots: &[Slot], i: usize) {
    if let Some(s) = slots.get(i + 2) {
        prefetch(s as *const Slot as *const u8, std::mem::size_of::<Slot>());
    }
    if let Some(s) = slots.get(i + 1) {
        s.tensor.prefetch();
    }
}

impl Slot {
    pub fn new(cfg: &Config, base: u64) -> Slot {
        assert!(IDS.num <= 64 * ID_WORDS, "IdSet holds {} ids, the table has {}", 64 * ID_WORDS, IDS.num);
        let s = State::new(cfg.n, 0, cfg.chars.as_deref(), cfg.flags);
        Slot {
            s,
            base,
            episode: 0,
            opp: [Rng::new(0); MAXP],
            steps: 0,
            actions: 0,
            done: true,
            legal: Vec::with_capacity(64),
            ids: IdSet::default(),
            tensor: TensorCache::new(cfg.n),
        }
    }

    /// The ids the last step's mask holds (the learner's legal ids; none when it is not to act).
    pub fn ids(&self) -> &IdSet {
        &self.ids
    }

    /// The game seed of the current episode (`grimoire.rl.common.episode_seed`).
    pub fn game_seed(&self, cfg: &Config) -> u64 {
        if self.episode == 0 {
            self.base
        } else {
            derive_seed(self.base, &[cfg.key_episode, self.episode])
        }
    }

    /// Starts episode `episode` of seed `base` (`base` None: the next episode of the sequence).
    pub fn reset(&mut self, cfg: &Config, base: Option<u64>, out: Out) {
        match base {
            Some(b) => (self.base, self.episode) = (b, 0),
            None => self.episode += 1,
        }
        let seed = self.game_seed(cfg);
        self.s = State::new(cfg.n, seed, cfg.chars.as_deref(), cfg.flags);
        if let Some(me) = cfg.seat {
            for q in 0..cfg.n {
                if q != me {
                    self.opp[q] = Rng::new(derive_seed(seed, &[cfg.key_opponent, q as u64]));
                }
            }
        }
        self.steps = 0;
        self.actions = 0;
        self.done = false;
        self.play_opponents(cfg);
        out.rewards.fill(0.0);
        *out.terminated = 0;
        *out.truncated = 0;
        let mut out = out;
        self.observe(cfg, &mut out);
    }

    fn play_opponents(&mut self, cfg: &Config) {
        let Some(me) = cfg.seat else { return };
        while let Some(q) = self.s.current_player() {
            if q == me || cfg.limit.is_some_and(|l| self.actions >= l) {
                return;
            }
            self.s.legal_codes(&mut self.legal);
            let code = self.legal[self.opp[q].below(self.legal.len() as u64) as usize];
            self.s.apply_code(code);
            self.actions += 1;
        }
    }

    /// The observation and mask of the learner (self-play: of the seat to decide; seat 0 at the end),
    /// and whether the episode is over (the game ended, or the length bound was reached).
    fn observe(&mut self, cfg: &Config, out: &mut Out) {
        let cp = self.s.current_player();
        let seat = cfg.seat.unwrap_or(cp.unwrap_or(0));
        self.s.write_tensor_touched(seat, out.obs, &mut self.tensor);
        out.mask.fill(0);
        self.ids = IdSet::default();
        if cp == Some(seat) {
            self.s.legal_codes(&mut self.legal);
            let (ids, mask) = (&mut self.ids, &mut *out.mask);
            self.s.each_legal_id(&self.legal, |id| {
                mask[id] = 1;
                ids.insert(id);
            });
        }
        *out.to_move = cp.map_or(-1, |x| x as i64);
        if self.s.over || cfg.limit.is_some_and(|l| self.actions >= l || self.steps >= l) {
            self.done = true;
        }
    }

    /// One step: the id `action` for the learner (self-play: for the seat to decide). After the end
    /// of an episode the step only starts the next one (NEXT_STEP autoreset).
    pub fn step(&mut self, cfg: &Config, action: i64, mut out: Out) {
        if self.done {
            self.reset(cfg, None, out);
            return;
        }
        self.steps += 1;
        out.rewards.fill(0.0);
        let valid = action >= 0 && self.ids.contains(action as usize);
        if !valid {
            // the game is left as it was (Gymnasium's toy-text convention), with the penalty
            match (cfg.seat, self.s.current_player()) {
                (Some(_), _) => out.rewards[0] = cfg.invalid_reward as f32,
                (None, Some(cp)) => out.rewards[cp] = cfg.invalid_reward as f32,
                _ => {}
            }
            self.observe(cfg, &mut out);
            *out.terminated = 0;
            *out.truncated = self.done as u8;
            return;
        }
        let code = self.s.code_of_id(action as usize).expect("a masked id decodes");
        self.s.apply_code(code);
        self.actions += 1;
        if cfg.seat.is_some_and(|me| self.s.current_player() != Some(me)) {
            self.play_opponents(cfg);
        }
        let term = self.s.over;
        if term {
            let w = self.s.winners();
            let share = if w.is_empty() { 0.0 } else { 1.0 / w.len() as f64 };
            let solo = self.s.scores()[0] as f64;
            let ret = |q: usize| {
                if cfg.n == 1 {
                    solo
                } else if w.contains(&q) {
                    share
                } else {
                    0.0
                }
            };
            match cfg.seat {
                Some(me) => out.rewards[0] = ret(me) as f32,
                None => {
                    for q in 0..cfg.n {
                        out.rewards[q] = ret(q) as f32;
                    }
                }
            }
        }
        self.observe(cfg, &mut out);
        *out.terminated = term as u8;
        *out.truncated = (self.done && !term) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_random_id_is_the_one_a_scan_of_the_mask_picks() {
        let mut r = Rng::new(3);
        for _ in 0..500 {
            let mut set = IdSet::default();
            let mut mask = [0i8; 64 * ID_WORDS];
            for _ in 0..r.below(40) {
                let id = r.below(442) as usize;
                set.insert(id);
                mask[id] = 1;
            }
            let listed: Vec<i64> = (0..mask.len()).filter(|&i| mask[i] != 0).map(|i| i as i64).collect();
            let seed = r.next64();
            let (mut a, mut b) = (Rng::new(seed), Rng::new(seed));
            let want = if listed.is_empty() { 0 } else { listed[a.below(listed.len() as u64) as usize] };
            assert_eq!(set.random(&mut b), want);
            assert_eq!(a.next64(), b.next64(), "the same draws");
            assert!(listed.iter().all(|&i| set.contains(i as usize)) && set.len() == listed.len());
        }
    }
}
