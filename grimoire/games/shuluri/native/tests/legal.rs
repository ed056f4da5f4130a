//! The whole legal listing against the Python reference: in every position of tests/data/states.json
//! and tests/data/legal.json (scripts/shuluri_native_legal.py), the crate lists the same action texts
//! in the same order as the Python engine, for every decision kind; the ascending ids and the mask
//! are the Python codec's (`codec.legal_ids`).

use _native::actions::table;
use _native::legal::{legal_actions, legal_ids, mask_into};
use _native::state::Saved;
use serde_json::Value;
use std::collections::BTreeMap;

fn cases(text: &str) -> Vec<(Saved, Value)> {
    let v: Value = serde_json::from_str(text).unwrap();
    v["states"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (Saved::from_value(c["state"].clone()).unwrap(), c.clone()))
        .collect()
}

fn texts(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_string()).collect()
}

/// Compares one file's positions; returns the number of positions per decision kind.
fn compare(name: &str, text: &str) -> BTreeMap<String, usize> {
    let t = table();
    let mut kinds = BTreeMap::new();
    let mut ids = Vec::new();
    let mut mask = vec![0u8; t.len()];
    for (i, (s, case)) in cases(text).into_iter().enumerate() {
        legal_actions(&s, &mut ids);
        let got: Vec<String> = ids.iter().map(|&x| t.text(x).to_string()).collect();
        let want = texts(&case["legal"]);
        if got != want {
            let extra: Vec<&String> = got.iter().filter(|x| !want.contains(x)).collect();
            let missing: Vec<&String> = want.iter().filter(|x| !got.contains(x)).collect();
            panic!("{name} state {i}: the legal list differs; extra {extra:?}, missing {missing:?}");
        }
        let sorted = legal_ids(&s);
        if let Some(want_ids) = case.get("ids") {
            let want_ids: Vec<u32> = want_ids.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect();
            assert_eq!(sorted, want_ids, "{name} state {i}: the legal ids");
        }
        mask_into(&s, &mut ids, &mut mask);
        let on: Vec<u32> = (0..mask.len() as u32).filter(|&x| mask[x as usize] == 1).collect();
        assert_eq!(on, sorted, "{name} state {i}: the mask");
        let kind = s.state.stack.first().map_or("none".to_string(), |d| format!("{:?}", d.kind));
        *kinds.entry(kind).or_insert(0) += 1;
    }
    kinds
}

#[test]
fn the_table_is_the_python_codecs() {
    let t = table();
    assert!(t.len() > 4000, "{} action texts", t.len());
    assert_eq!(t.text(0), "end");
    for (i, text) in t.texts.iter().enumerate() {
        assert_eq!(t.id(text), i as u32, "{text} is listed twice");
    }
}

#[test]
fn legal_list_of_every_state_fixture() {
    let kinds = compare("states.json", include_str!("data/states.json"));
    assert!(kinds.get("Act").copied().unwrap_or(0) >= 30, "{kinds:?}");
}

#[test]
fn legal_list_of_every_legal_fixture() {
    let kinds = compare("legal.json", include_str!("data/legal.json"));
    for k in ["Act", "Name", "React", "Dodge", "Push", "Chain", "Traps", "Side", "Weapon", "Deploy"] {
        assert!(kinds.contains_key(k), "no {k} decision compared: {kinds:?}");
    }
}

/// A wider differential check, off by default: `SHULURI_LEGAL_WIDE=FILE cargo test --release --
/// --ignored wide` compares the positions of a file that `scripts/shuluri_native_legal.py --wide N
/// --out FILE` writes (thousands of positions; not committed).
#[test]
#[ignore]
fn wide() {
    let path = std::env::var("SHULURI_LEGAL_WIDE").expect("SHULURI_LEGAL_WIDE=FILE");
    let text = std::fs::read_to_string(&path).unwrap();
    let kinds = compare(&path, &text);
    println!("{kinds:?}");
}

/// A saved game whose decision carries a malformed payload (a corrupt or hand-edited save: the
/// loader does not look inside payloads) never panics; a decision about a figure that is not there
/// lists nothing.
#[test]
fn malformed_payloads_never_panic() {
    use _native::state::{Kind, Payload, Scalar};
    let mut ids = Vec::new();
    let mut checked = 0;
    for (mut s, _case) in cases(include_str!("data/legal.json")) {
        let Some(top) = s.state.stack.first() else { continue };
        if top.payload.is_none() {
            continue;
        }
        let kind = top.kind;
        for bad in [Payload::List(vec![]), Payload::Int(999), Payload::List(vec![Scalar::Str("x".into()); 4])] {
            s.state.stack[0].payload = Some(bad);
            legal_actions(&s, &mut ids);
            if matches!(kind, Kind::Push | Kind::Shove | Kind::Chain | Kind::Order) {
                assert!(ids.is_empty(), "{kind:?} without its figures lists {ids:?}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 15, "{checked} malformed payloads tried");
}
