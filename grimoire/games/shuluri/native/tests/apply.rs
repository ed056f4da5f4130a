//! Apply against the Python reference: random games of tests/data/transitions.json (2 and 4 players,
//! both four-player modes, the optional rules, preset dice; written by
//! scripts/shuluri_native_transitions.py) replayed action by action. Each action the crate has ported
//! must turn the state into the very JSON the Python engine saved after it (the RNG, the history and
//! the events' keys and arguments included); an action it has not ported yet answers `not ported`, and
//! the replay goes on from the Python engine's state. The counts per decision and action kind are
//! printed (`cargo test --release --test apply -- --nocapture`).

use _native::apply::apply;
use _native::patch::patch;
use _native::state::Saved;
use grimoire_rng::Rng;
use serde_json::Value;
use std::collections::BTreeMap;

fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("the fixture")).expect("it parses")
}

#[derive(Default)]
struct Count {
    same: usize,
    not_ported: usize,
    differs: usize,
    why: BTreeMap<String, usize>,
}

/// Per kind: (identical, not ported, different), and the first differences in words.
fn replay() -> (BTreeMap<String, Count>, Vec<String>) {
    let fix = fixture("transitions.json");
    let mut counts: BTreeMap<String, Count> = BTreeMap::new();
    let mut diffs = Vec::new();
    for (gi, g) in fix["games"].as_array().unwrap().iter().enumerate() {
        let mut value = g["start"].clone();
        let mut state = Saved::from_value(value.clone()).unwrap_or_else(|e| panic!("game {gi}: {e}"));
        for (i, step) in g["steps"].as_array().unwrap().iter().enumerate() {
            let text = step["action"].as_str().unwrap();
            patch(&mut value, &step["patch"]);
            let c = counts.entry(step["kind"].as_str().unwrap().to_string()).or_default();
            match apply(&mut state, text) {
                Ok(()) if state.to_value() == value => {
                    c.same += 1;
                    continue;
                }
                Ok(()) => {
                    c.differs += 1;
                    if diffs.len() < 5 {
                        diffs.push(format!(
                            "game {gi} step {i} {text:?}: {}",
                            first_difference(&state.to_value(), &value, "")
                        ));
                    }
                }
                Err(e) if e.starts_with("not ported") => {
                    c.not_ported += 1;
                    *c.why.entry(e).or_default() += 1;
                }
                Err(e) => {
                    c.differs += 1;
                    diffs.push(format!("game {gi} step {i} {text:?}: {e}"));
                }
            }
            state = Saved::from_value(value.clone()).unwrap_or_else(|e| panic!("game {gi} step {i}: {e}"));
        }
    }
    (counts, diffs)
}

fn first_difference(a: &Value, b: &Value, at: &str) -> String {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in y {
                if x.get(k) != Some(v) {
                    return first_difference(x.get(k).unwrap_or(&Value::Null), v, &format!("{at}.{k}"));
                }
            }
            format!("{at}: extra keys")
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            let i = (0..x.len()).find(|&i| x[i] != y[i]).unwrap();
            first_difference(&x[i], &y[i], &format!("{at}[{i}]"))
        }
        _ => format!("{at}: crate {a} python {b}"),
    }
}

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
    let (counts, diffs) = replay();
    println!("{:<18} {:>9} {:>11}", "kind", "identical", "not ported");
    for (k, c) in &counts {
        let why: Vec<String> = c.why.iter().map(|(w, n)| format!("{n}x {}", &w[12..])).collect();
        println!("{k:<18} {:>9} {:>11}  {}", c.same, c.not_ported, why.join("; "));
    }
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
