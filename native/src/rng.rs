//! SplitMix64, bit for bit the Python `grimoire.core.rng.Rng`: the shared crate `crates/rng`
//! (one copy for every game's native core; its tests hold the reference values).

pub use grimoire_rng::Rng;
