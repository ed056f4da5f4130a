//! Replaying a transitions fixture (scripts/shuluri_native_transitions.py) through the crate's
//! `apply`: each action from its game's state, which must become the JSON the Python engine saved
//! after it; an action the crate has not ported answers `not ported` and the replay goes on from the
//! Python engine's state. Shared by the tests that replay a fixture file (apply.rs, shots.rs, whole.rs).

use _native::apply::apply;
use _native::patch::patch;
use _native::state::Saved;
use serde_json::Value;
use std::collections::BTreeMap;

pub fn fixture(name: &str) -> Value {
    read(&format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR")))
}

fn read(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("the fixture")).expect("it parses")
}

/// Per decision and action kind: identical, not ported (by reason), different.
#[derive(Default)]
pub struct Count {
    pub same: usize,
    pub not_ported: usize,
    pub differs: usize,
    pub why: BTreeMap<String, usize>,
}

/// What a replay saw: the counts per kind, the first differences in words, and the events the
/// identical actions logged (key -> how many; "zombie <key>" again for a zombie's own), to tell which
/// rules the fixture reached.
#[derive(Default)]
pub struct Replay {
    pub counts: BTreeMap<String, Count>,
    pub diffs: Vec<String>,
    pub events: BTreeMap<String, usize>,
}

/// A fixture of tests/data.
pub fn replay(file: &str) -> Replay {
    let mut out = Replay::default();
    replay_into(&mut out, &fixture(file), "");
    out
}

/// Several fixtures of tests/data counted together (their differences named by file).
#[allow(dead_code)]
pub fn replay_files(files: &[&str]) -> Replay {
    let mut out = Replay::default();
    for file in files {
        replay_into(&mut out, &fixture(file), &format!("{file} "));
    }
    out
}

/// A file written elsewhere (a --wide run; not every test binary replays one).
#[allow(dead_code)]
pub fn replay_path(path: &str) -> Replay {
    let mut out = Replay::default();
    replay_into(&mut out, &read(path), "");
    out
}

enum Outcome {
    Same,
    NotPorted(String),
    Differs,
}

/// Counted per decision and action kind, and a cast also per spell (`cast <key>`).
fn replay_into(out: &mut Replay, fix: &Value, file: &str) {
    for (gi, g) in fix["games"].as_array().unwrap().iter().enumerate() {
        let mut value = g["start"].clone();
        let mut state = Saved::from_value(value.clone()).unwrap_or_else(|e| panic!("{file}game {gi}: {e}"));
        for (i, step) in g["steps"].as_array().unwrap().iter().enumerate() {
            let text = step["action"].as_str().unwrap();
            patch(&mut value, &step["patch"]);
            let mut keys = vec![step["kind"].as_str().unwrap().to_string()];
            if let ["wl", "cast", key, ..] = text.split(' ').collect::<Vec<_>>()[..] {
                keys.push(format!("cast {key}"));
            }
            let before = state.state.events.len();
            let outcome = match apply(&mut state, text) {
                Ok(()) if state.to_value() == value => {
                    for e in &state.state.events[before..] {
                        *out.events.entry(e.2.clone()).or_default() += 1;
                        if e.3.get("fig").and_then(Value::as_str).is_some_and(|f| f.starts_with('z')) {
                            *out.events.entry(format!("zombie {}", e.2)).or_default() += 1;
                        }
                    }
                    Outcome::Same
                }
                Ok(()) => {
                    if out.diffs.len() < 5 {
                        let at = first_difference(&state.to_value(), &value, "");
                        out.diffs.push(format!("{file}game {gi} step {i} {text:?}: {at}"));
                    }
                    Outcome::Differs
                }
                Err(e) if e.starts_with("not ported") => Outcome::NotPorted(e),
                Err(e) => {
                    out.diffs.push(format!("{file}game {gi} step {i} {text:?}: {e}"));
                    Outcome::Differs
                }
            };
            for k in keys {
                let c = out.counts.entry(k).or_default();
                match &outcome {
                    Outcome::Same => c.same += 1,
                    Outcome::NotPorted(e) => {
                        c.not_ported += 1;
                        *c.why.entry(e.clone()).or_default() += 1;
                    }
                    Outcome::Differs => c.differs += 1,
                }
            }
            if !matches!(outcome, Outcome::Same) {
                state = Saved::from_value(value.clone()).unwrap_or_else(|e| panic!("{file}game {gi} step {i}: {e}"));
            }
        }
    }
}

pub fn first_difference(a: &Value, b: &Value, at: &str) -> String {
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

pub fn print_counts(r: &Replay) {
    println!("{:<18} {:>9} {:>11}", "kind", "identical", "not ported");
    for (k, c) in &r.counts {
        let why: Vec<String> = c.why.iter().map(|(w, n)| format!("{n}x {}", &w[12..])).collect();
        println!("{k:<18} {:>9} {:>11}  {}", c.same, c.not_ported, why.join("; "));
    }
}
