//! CPU time of the whole legal listing (`legal::legal_actions`: ids in the Python order), of the
//! sorted legal ids and of the mask, on the positions of tests/data/states.json and legal.json;
//! scripts/shuluri_native_bench.py times the Python engine on the same positions. CPU time from
//! /proc/self/stat (utime + stime, clock ticks), over runs of >= 2 s.
//!
//!     cargo run --release --example bench_legal

use _native::actions::table;
use _native::legal::{legal_actions, legal_ids, mask_into};
use _native::state::{Kind, Saved};
use serde_json::Value;

mod cpu;
use cpu::per_call;

fn load(text: &str) -> Vec<Saved> {
    let v: Value = serde_json::from_str(text).unwrap();
    v["states"].as_array().unwrap().iter().map(|c| Saved::from_value(c["state"].clone()).unwrap()).collect()
}

fn main() {
    let mut all = load(include_str!("../tests/data/states.json"));
    all.extend(load(include_str!("../tests/data/legal.json")));
    let acts: Vec<Saved> =
        all.iter().filter(|s| s.state.stack.first().is_some_and(|d| d.kind == Kind::Act)).cloned().collect();
    let mut ids = Vec::new();
    legal_actions(&acts[0], &mut ids); // the tables and lines of fire are made once, before timing
    let mut mask = vec![0u8; table().len()];
    let mut i = 0;
    let act = per_call(|| {
        i = (i + 1) % acts.len();
        legal_actions(&acts[i], &mut ids);
        ids.len()
    });
    let mut j = 0;
    let every = per_call(|| {
        j = (j + 1) % all.len();
        legal_actions(&all[j], &mut ids);
        ids.len()
    });
    let mut k = 0;
    let sorted = per_call(|| {
        k = (k + 1) % acts.len();
        legal_ids(&acts[k]).len()
    });
    let mut m = 0;
    let masked = per_call(|| {
        m = (m + 1) % acts.len();
        mask_into(&acts[m], &mut ids, &mut mask);
        ids.len()
    });
    println!("positions: {} act decisions, {} in all", acts.len(), all.len());
    println!("crate legal_actions (act decisions): {act:.3} us per position (CPU)");
    println!("crate legal_actions (every position): {every:.3} us per position (CPU)");
    println!("crate legal_ids (act decisions): {sorted:.3} us per position (CPU)");
    println!("crate mask_into (act decisions): {masked:.3} us per position (CPU)");
}
