//! SplitMix64, bit for bit the Python `grimoire.core.rng.Rng` (the same seed draws the same cards and
//! dice). The one copy the games' native cores share (a path dependency of each crate); a saved game
//! holds `state`, the whole generator.

const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rng {
    pub state: u64,
}

impl Rng {
    /// `Rng(seed)`: the state is the mixed seed (seeds are taken modulo 2**64).
    pub fn new(seed: u64) -> Rng {
        Rng { state: mix(seed) }
    }

    pub fn from_state(state: u64) -> Rng {
        Rng { state }
    }

    #[inline]
    pub fn next64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix(self.state)
    }

    /// Uniform integer in [0, n) (Lemire's multiply-shift, as the Python `below`); n > 0. With n == 1
    /// the draw is still made (Python skips only the mixing, which changes neither state nor result).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        ((self.next64() as u128 * n as u128) >> 64) as u64
    }

    /// Uniform integer in [lo, hi], both ends included (a d10: `randint(1, 10)`).
    #[inline]
    pub fn randint(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    /// The Python `shuffle` (Fisher-Yates from the end, the same draws).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// Index i with probability counts[i] / sum(counts) (the Python `pick_weighted`).
    pub fn pick_weighted(&mut self, counts: &[i64]) -> usize {
        let total: i64 = counts.iter().sum();
        let mut r = self.below(total as u64) as i64;
        for (i, &c) in counts.iter().enumerate() {
            if r < c {
                return i;
            }
            r -= c;
        }
        unreachable!("pick_weighted on an empty multiset")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_splitmix64_reference_values() {
        // SplitMix64 from state 0 (seeded directly): the published first outputs
        let mut r = Rng::from_state(0);
        assert_eq!(r.next64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = Rng::new(7);
        for n in 1..200u64 {
            assert!(r.below(n) < n);
        }
    }
}
