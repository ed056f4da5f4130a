//! Grimoire's native Shuluri Viadal core (work in progress): a port of the Python reference engine
//! (grimoire/games/shuluri), checked against it slice by slice with fixtures generated from the
//! Python engine (scripts/shuluri_native_fixtures.py). docs/games/shuluri.md, "Native engine: status
//! and plan", says what is ported and what remains.

#[cfg(feature = "python")]
mod py; // the Python module grimoire.games.shuluri._native

pub mod actions;
pub mod apply;
pub mod arms;
pub mod automata;
pub mod board;
pub mod cage;
pub mod combat;
pub mod crc;
pub mod damage;
pub mod data;
pub mod flow;
pub mod legal;
pub mod magic;
pub mod patch;
pub mod rules;
pub mod shots;
pub mod sight;
pub mod spell_attacks;
pub mod state;
pub mod tensor;
pub mod traps;
