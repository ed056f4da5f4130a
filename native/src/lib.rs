//! Grimoire's native Zavandor core: the rules of the Python reference engine
//! (grimoire/games/zavandor), move for move, with the same SplitMix64 RNG streams, legal action
//! lists in the same order and the same saved state. docs/native.md describes how the two are kept
//! identical.

pub mod auction;
pub mod batch;
pub mod data;
pub mod energy;
pub mod evaluate;
pub mod factored;
pub mod heuristic;
pub mod legal;
pub mod mlp;
pub mod rng;
pub mod search;
pub mod serial;
pub mod small;
pub mod state;
pub mod tensor;
pub mod tensor_cache;
pub mod turn;
pub mod view;

#[cfg(feature = "python")]
mod py;
