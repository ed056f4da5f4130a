//! Shots, traps, cages and zombies against the Python reference: the games of
//! tests/data/transitions_shots.json (scripts/shuluri_native_transitions.py's SHOTS_GAMES: crafted
//! positions with a cage, zombies, an Acid Cloud or a Firestorm, played by a policy that shoots,
//! springs traps and orders zombies) replayed action by action (`cargo test --release --test shots
//! -- --nocapture` prints the counts). tests/whole.rs checks that nothing answers `not ported`.

mod replay;

/// Kinds that must be identical wherever the fixture has them (all of them occur).
const PORTED: &[&str] =
    &["act:shoot", "act:trap", "act:aim", "react:trap", "shove:shove", "act:order", "order:orderto"];

/// Rules the identical actions must have reached (event keys): the armour stopping a bolt, a cage
/// wall crossed, ranged and direct traps, the beam's throw, poison against Eg, a zombie's moves.
const REACHED: &[&str] = &[
    "shoots",
    "armour_stops",
    "crosses_cage",
    "springs_trap_on",
    "trap_springs",
    "beam_throws",
    "gate_slams",
    "poison_takes_effect",
    "dodges",
    "zombie moves",
    "zombie attacks",
];

#[test]
fn shots_traps_cages_and_zombies_write_the_python_engines_state() {
    let r = replay::replay("transitions_shots.json");
    replay::print_counts(&r);
    println!("events: {:?}", r.events);
    assert!(r.diffs.is_empty(), "the crate and the Python engine differ:\n{}", r.diffs.join("\n"));
    for k in PORTED {
        let c = r.counts.get(*k).unwrap_or_else(|| panic!("the fixture has no {k}"));
        assert!(c.same > 0 && c.not_ported == 0, "{k}: {} identical, not ported: {:?}", c.same, c.why);
    }
    for e in REACHED {
        assert!(r.events.get(*e).copied().unwrap_or(0) > 0, "no identical action logged {e}");
    }
}

/// Many more such games (`scripts/shuluri_native_transitions.py --wide N --out FILE`, new seeds; not
/// committed): `SHULURI_SHOTS_WIDE=FILE cargo test --release --test shots -- --ignored`.
#[test]
#[ignore]
fn wide_shots_games_write_the_python_engines_state() {
    let path = std::env::var("SHULURI_SHOTS_WIDE").expect("SHULURI_SHOTS_WIDE=<file of --wide>");
    let r = replay::replay_path(&path);
    replay::print_counts(&r);
    assert!(r.diffs.is_empty(), "the crate and the Python engine differ:\n{}", r.diffs.join("\n"));
    for (k, c) in &r.counts {
        assert!(c.not_ported == 0, "{k}: not ported: {:?}", c.why);
    }
}
