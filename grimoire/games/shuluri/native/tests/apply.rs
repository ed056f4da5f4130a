//! Apply against the Python reference: random games of tests/data/transitions.json (2 and 4 players,
//! both four-player modes, the optional rules, preset dice; written by
//! scripts/shuluri_native_transitions.py) replayed action by action. Each action the crate has ported
//! must turn the state into the very JSON the Python engine saved after it (the RNG, the history and
//! the events' keys and arguments included); an action it has not ported yet answers `not ported`, and
//! the replay goes on from the Python engine's state. The counts per decision and action kind are
//! printed (`cargo test --release --test apply -- --nocapture`).

mod replay;

use grimoire_rng::Rng;
use replay::fixture;
use serde_json::Value;

/// Kinds the fixture must have (every action of it must be ported and identical).
const PORTED: &[&str] = &[
    "amulets:amulets",
    "deploy:deploy",
    "name:name",
    "potions:potions",
    "resist:resist",
    "side:side",
    "traps:traps",
    "vials:vials",
    "weapon:weapon",
    "act:end",
    "act:hide",
    "act:run",
    "act:aim",
    "act:coat",
    "act:drink",
    "act:gate",
    "act:shoot",
    "act:cast",
    "act:move",
    "dodge:dodge",
    "react:pass",
    "react:passall",
    "react:trap",
];

#[test]
fn ported_actions_write_the_python_engines_state() {
    let r = replay::replay("transitions.json");
    replay::print_counts(&r);
    let (counts, diffs) = (r.counts, r.diffs);
    assert!(diffs.is_empty(), "the crate and the Python engine differ:\n{}", diffs.join("\n"));
    for k in PORTED {
        assert!(counts.get(*k).is_some_and(|c| c.same > 0), "the fixture has no {k}");
    }
    for (k, c) in &counts {
        assert!(c.not_ported == 0, "{k}: not ported: {:?}", c.why);
    }
}

#[test]
fn the_rng_draws_as_python_does() {
    let fix = fixture("rng.json");
    let num = |v: &Value| v.as_str().unwrap().parse::<u64>().unwrap();
    for rec in fix["rng"].as_array().unwrap() {
        let mut r = Rng::new(num(&rec["seed"]));
        assert_eq!(r.state, num(&rec["state"]), "seeding");
        for v in rec["next64"].as_array().unwrap() {
            assert_eq!(r.next64(), num(v));
        }
        for pair in rec["below"].as_array().unwrap() {
            assert_eq!(r.below(pair[0].as_u64().unwrap()), pair[1].as_u64().unwrap());
        }
        for v in rec["d10"].as_array().unwrap() {
            assert_eq!(r.randint(1, 10), v.as_i64().unwrap());
        }
        let mut items: Vec<u64> = (0..12).collect();
        r.shuffle(&mut items);
        let want: Vec<u64> = rec["shuffle12"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
        assert_eq!(items, want, "shuffle");
        assert_eq!(r.state, num(&rec["after"]), "the state after the draws");
    }
}
