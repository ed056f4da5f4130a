//! CPU time of the act listing's moves (`rules::act_moves`) and of loading a saved state, on the act
//! decisions of tests/data/states.json; scripts/shuluri_native_bench.py times the Python engine on the
//! same positions. CPU time from /proc/self/stat (utime + stime, clock ticks), over runs of >= 2 s.
//!
//!     cargo run --release --example bench_moves

use _native::rules::act_moves;
use _native::state::{Kind, Phase, Saved};
use serde_json::Value;

mod cpu;
use cpu::per_call;

fn main() {
    let v: Value = serde_json::from_str(include_str!("../tests/data/states.json")).unwrap();
    let cases: Vec<Value> = v["states"].as_array().unwrap().clone();
    let acts: Vec<Saved> = cases
        .iter()
        .map(|c| Saved::from_value(c["state"].clone()).unwrap())
        .filter(|s| s.state.phase == Phase::Play && s.state.stack.first().is_some_and(|d| d.kind == Kind::Act))
        .collect();
    let mut i = 0;
    let moves = per_call(|| {
        i = (i + 1) % acts.len();
        let s = &acts[i];
        act_moves(s).len()
    });
    let mut j = 0;
    let load = per_call(|| {
        j = (j + 1) % cases.len();
        Saved::from_value(cases[j]["state"].clone()).unwrap().state.figs.len()
    });
    println!("positions: {} act decisions, {} states", acts.len(), cases.len());
    println!("act_moves: {moves:.3} us per position (CPU)");
    println!("load (JSON value -> Saved, checked): {load:.3} us per state (CPU)");
}
