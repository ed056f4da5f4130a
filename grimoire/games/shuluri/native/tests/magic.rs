//! Spells against the Python reference: the games of tests/data/transitions_magic.json (biased to cast,
//! every spell; `scripts/shuluri_native_transitions.py --magic`) and of transitions.json replayed action
//! by action. Every cast, every follow-up decision (effect, enemy, chain), Kiteres against a touch or
//! lightning, every `end` that lets Firestorm blast or a madman act, every move across a cage must
//! write the very JSON the Python engine saved after it. Per spell the identical casts are printed
//! (`cargo test --release --test magic -- --nocapture`).

use _native::apply::apply;
use _native::patch::patch;
use _native::state::Saved;
use serde_json::Value;
use std::collections::BTreeMap;

fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("the fixture")).expect("it parses")
}

#[derive(Default, Debug)]
struct Count {
    same: usize,
    why: BTreeMap<String, usize>,
}

/// Per kind (and per spell, `cast <key>`): the identical transitions and why others were not ported;
/// and the differences.
fn replay(file: &str, counts: &mut BTreeMap<String, Count>, diffs: &mut Vec<String>) {
    let fix = fixture(file);
    for (gi, g) in fix["games"].as_array().unwrap().iter().enumerate() {
        let mut value = g["start"].clone();
        let mut state = Saved::from_value(value.clone()).unwrap_or_else(|e| panic!("{file} game {gi}: {e}"));
        for (i, step) in g["steps"].as_array().unwrap().iter().enumerate() {
            let text = step["action"].as_str().unwrap();
            patch(&mut value, &step["patch"]);
            let mut keys = vec![step["kind"].as_str().unwrap().to_string()];
            if let ["wl", "cast", key, ..] = text.split(' ').collect::<Vec<_>>()[..] {
                keys.push(format!("cast {key}"));
            }
            let res = apply(&mut state, text);
            let after = res.is_ok().then(|| state.to_value());
            let same = after.as_ref() == Some(&value);
            for k in keys {
                let c = counts.entry(k).or_default();
                match &res {
                    _ if same => c.same += 1,
                    Err(e) if e.starts_with("not ported") => *c.why.entry(e.clone()).or_default() += 1,
                    _ => {}
                }
            }
            if same {
                continue;
            }
            match (res, after) {
                (Ok(()), Some(after)) => {
                    diffs.push(format!("{file} game {gi} step {i} {text:?}: {}", differ(&after, &value, "")))
                }
                (Err(e), _) if !e.starts_with("not ported") => {
                    diffs.push(format!("{file} game {gi} step {i} {text:?}: {e}"))
                }
                _ => {}
            }
            state = Saved::from_value(value.clone()).unwrap_or_else(|e| panic!("{file} game {gi} step {i}: {e}"));
        }
    }
}

fn differ(a: &Value, b: &Value, at: &str) -> String {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in y {
                if x.get(k) != Some(v) {
                    return differ(x.get(k).unwrap_or(&Value::Null), v, &format!("{at}.{k}"));
                }
            }
            format!("{at}: extra keys")
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            let i = (0..x.len()).find(|&i| x[i] != y[i]).unwrap();
            differ(&x[i], &y[i], &format!("{at}[{i}]"))
        }
        _ => format!("{at}: crate {a} python {b}"),
    }
}

#[test]
fn spells_write_the_python_engines_state() {
    let (mut counts, mut diffs) = (BTreeMap::new(), Vec::new());
    for file in ["transitions_magic.json", "transitions.json"] {
        replay(file, &mut counts, &mut diffs);
    }
    println!("{:<22} {:>9}  not ported", "kind", "identical");
    for (k, c) in &counts {
        let why: Vec<String> = c.why.iter().map(|(w, n)| format!("{n}x {}", &w[12..])).collect();
        println!("{k:<22} {:>9}  {}", c.same, why.join("; "));
    }
    assert!(diffs.is_empty(), "the crate and the Python engine differ:\n{}", diffs[..diffs.len().min(8)].join("\n"));
    let spells: Vec<&String> = counts.keys().filter(|k| k.starts_with("cast ")).collect();
    assert!(spells.len() >= 30, "the fixtures cast only {} spells", spells.len());
    for k in spells.iter().map(|k| k.as_str()).chain(["act:cast", "effect:effect", "enemy:enemy", "chain:chain"]) {
        let c = counts.get(k).unwrap_or_else(|| panic!("the fixtures have no {k}"));
        assert!(c.same > 0 && c.why.is_empty(), "{k}: {} identical, not ported: {:?}", c.same, c.why);
    }
    for k in ["act:end", "dodge:dodge", "act:move"] {
        assert!(counts[k].why.is_empty(), "{k}: not ported: {:?}", counts[k].why);
    }
}
