//! Saved states against the Python reference: every position of tests/data/states.json (random games
//! of 2 and 4 players, both four-player modes, the optional rules; written by
//! scripts/shuluri_native_fixtures.py) loads and writes back to the very same JSON value, and what the
//! state alone says (who decides, who won) is what the Python engine said.

use _native::state::{Phase, Saved};
use serde_json::Value;
use std::sync::LazyLock;

static FIX: LazyLock<Vec<Value>> = LazyLock::new(|| {
    let v: Value = serde_json::from_str(include_str!("data/states.json")).expect("states.json parses");
    v["states"].as_array().expect("a list of states").clone()
});

#[test]
fn every_state_round_trips() {
    assert!(FIX.len() >= 30);
    for (i, case) in FIX.iter().enumerate() {
        let saved = Saved::from_value(case["state"].clone()).unwrap_or_else(|e| panic!("state {i}: {e}"));
        assert_eq!(saved.to_value(), case["state"], "state {i} written back differs");
        // and through text, as a save file travels
        let text = serde_json::to_string(&saved).unwrap();
        assert_eq!(Saved::from_json(&text).unwrap(), saved, "state {i} through text");
    }
}

#[test]
fn who_decides_and_who_won() {
    let mut phases = [0; 3];
    for (i, case) in FIX.iter().enumerate() {
        let s = Saved::from_value(case["state"].clone()).unwrap();
        let st = &s.state;
        let current = if st.phase == Phase::Over { None } else { st.stack.first().map(|d| d.seat as i64) };
        assert_eq!(current, case["current_player"].as_i64(), "state {i}: the player to move");
        let winners: Vec<i64> =
            if st.phase == Phase::Over { st.winners_.iter().map(|&w| w as i64).collect() } else { vec![] };
        let want: Vec<i64> = case["winners"].as_array().unwrap().iter().map(|w| w.as_i64().unwrap()).collect();
        assert_eq!(winners, want, "state {i}: the winners");
        phases[st.phase as usize] += 1;
        assert_eq!(case["legal"].as_array().unwrap().is_empty(), st.phase == Phase::Over, "state {i}: listing");
    }
    assert!(phases.iter().all(|&n| n > 0), "the fixture holds setup, play and finished games: {phases:?}");
}

#[test]
fn the_fixture_covers_what_the_loader_types() {
    let all: Vec<Saved> = FIX.iter().map(|c| Saved::from_value(c["state"].clone()).unwrap()).collect();
    let figs = || all.iter().flat_map(|s| s.state.figs.iter().flatten());
    assert!(figs().any(|f| !f.effects.is_empty()), "effects");
    assert!(figs().any(|f| f.zombie), "a zombie");
    assert!(all.iter().any(|s| !s.state.areas.is_empty()), "an area");
    assert!(all.iter().any(|s| s.state.stack.iter().any(|d| d.payload.is_some())), "a decision with a payload");
    assert!(all.iter().any(|s| s.players == 4) && all.iter().any(|s| s.players == 2));
}

fn first_state() -> Value {
    FIX.iter().find(|c| c["state"]["state"]["phase"] == "play").unwrap()["state"].clone()
}

#[test]
fn corrupt_states_are_refused_with_one_line() {
    let mut cases: Vec<(Value, &str)> = Vec::new();
    let mut v = first_state();
    v["state"]["figs"][0]["extra"] = Value::from(1);
    cases.push((v, "unknown field"));
    let mut v = first_state();
    v["state"]["figs"][0]["ep"] = Value::from("many");
    cases.push((v, "invalid type"));
    let mut v = first_state();
    v["state"]["figs"].as_array_mut().unwrap().pop();
    cases.push((v, "wrong number of figures"));
    let mut v = first_state();
    v["state"]["figs"][1]["field"] = Value::from(100_000);
    cases.push((v, "stands on no field"));
    let mut v = first_state();
    v["state"]["phase"] = Value::from("halftime");
    cases.push((v, "unknown variant"));
    let mut v = first_state();
    v["state"]["gate_open"].as_array_mut().unwrap().push(Value::from(true));
    cases.push((v, "one entry per gate"));
    let mut v = first_state();
    v["players"] = Value::from(3);
    cases.push((v, "2 or 4 players"));
    let mut v = first_state();
    v["state"].as_object_mut().unwrap().remove("round");
    cases.push((v, "missing field"));
    for (v, want) in cases {
        let err = Saved::from_value(v).expect_err(want);
        assert!(err.starts_with("corrupt saved game: ") && err.contains(want), "{err:?} should say {want:?}");
        assert!(!err.contains('\n'), "one line: {err:?}");
    }
}
