//! Helpers shared by the integration tests (a `mod common;` in each).

use _native::state::Flags;

/// The rule options from the low six bits of `bits` (strict, combine, sages' dust, druid level 3,
/// free new track, whole dust), a turn limit and a round cap.
pub fn flags(bits: u64, limit: i64, rounds: i64) -> Flags {
    Flags {
        strict: bits & 1 != 0,
        combine: bits & 2 != 0,
        sages_dust: bits & 4 != 0,
        druid_l3: bits & 8 != 0,
        free_new_track: bits & 16 != 0,
        whole_dust: bits & 32 != 0,
        turn_limit: limit,
        max_rounds: Some(rounds),
    }
}
