//! Movement against the Python reference: in every act decision of tests/data/states.json, the moves
//! the crate lists for the named figures (`<role> move|sneak|disengage <dir>`) are, in order, the
//! moves among the Python engine's legal actions there.

use _native::data::data;
use _native::rules::{act_moves, act_verbs, step_text, VERBS};
use _native::state::{Kind, Phase, Saved};
use serde_json::Value;

const MODES: [&str; 3] = ["move", "sneak", "disengage"];

/// Every act decision of the fixture: its index, the state, and the Python engine's legal actions of
/// the words (`<role> <word> ...`, `len` words in all) the test compares.
fn act_cases(len: usize, words: &[&str]) -> Vec<(usize, Saved, Vec<String>)> {
    let v: Value = serde_json::from_str(include_str!("data/states.json")).unwrap();
    let mut out = Vec::new();
    for (i, case) in v["states"].as_array().unwrap().iter().enumerate() {
        let s = Saved::from_value(case["state"].clone()).unwrap();
        let Some(top) = s.state.stack.first() else { continue };
        if s.state.phase != Phase::Play || top.kind != Kind::Act {
            continue;
        }
        let want: Vec<String> = case["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .filter(|t| {
                let w: Vec<&str> = t.split(' ').collect();
                w.len() == len && words.contains(&w[1])
            })
            .map(String::from)
            .collect();
        out.push((i, s, want));
    }
    out
}

#[test]
fn moves_of_every_act_decision() {
    let (mut positions, mut moves) = (0, 0);
    let mut modes_seen = [false; 3];
    for (i, s, want) in act_cases(3, &MODES) {
        let got: Vec<String> = act_moves(&s)
            .into_iter()
            .flat_map(|(cid, steps)| {
                let role = s.state.figs[cid as usize].as_ref().unwrap().role;
                steps.into_iter().map(move |m| step_text(role, m))
            })
            .collect();
        assert_eq!(got, want, "state {i}: the moves");
        for t in &got {
            modes_seen[MODES.iter().position(|m| t.split(' ').nth(1) == Some(m)).unwrap()] = true;
        }
        positions += 1;
        moves += got.len();
    }
    assert!(positions >= 25 && moves >= 200, "{positions} positions, {moves} moves compared");
    assert!(modes_seen[0] && modes_seen[1], "moves and sneaks compared: {modes_seen:?}");
}

/// In every act decision, the verbs (`<role> hide|run|aim|coat|drink`) the crate lists are, in order,
/// those among the Python engine's legal actions.
#[test]
fn verbs_of_every_act_decision() {
    let mut seen = [0usize; 5];
    for (i, s, want) in act_cases(2, &VERBS) {
        let mut got = Vec::new();
        for (cid, verbs) in act_verbs(&s) {
            let role = s.state.figs[cid as usize].as_ref().unwrap().role as usize;
            for v in verbs {
                got.push(format!("{} {}", data().roles[role], VERBS[v as usize]));
                seen[v as usize] += 1;
            }
        }
        assert_eq!(got, want, "state {i}: the verbs");
    }
    assert!(seen[0] > 0 && seen[1] > 0 && seen[2] > 0, "hide, run and aim compared: {seen:?}");
}
