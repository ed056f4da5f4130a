//! CPU time of apply (`apply::apply` on a copy of the state) on every 4th transition of
//! tests/data/transitions.json that the crate has ported; scripts/shuluri_native_apply_bench.py times
//! the Python engine on the very transitions this prints (their game and step). CPU time from
//! /proc/self/stat (utime + stime, clock ticks), over runs of >= 2 s.
//!
//!     cargo run --release --example bench_apply
//!     cargo run --release --example bench_apply -- transitions_magic.json act:cast   # a fixture, one kind: all

use _native::apply::apply;
use _native::patch::patch;
use _native::state::Saved;
use serde_json::Value;

mod cpu;
use cpu::cpu_seconds;

fn per_call<F: FnMut(usize) -> usize>(n: usize, mut work: F) -> f64 {
    let start = cpu_seconds();
    let mut calls = 0usize;
    let mut sink = 0usize;
    while cpu_seconds() - start < 2.0 {
        for i in 0..n {
            sink = sink.wrapping_add(work(i));
        }
        calls += n;
    }
    std::hint::black_box(sink);
    (cpu_seconds() - start) / calls as f64 * 1e6
}

/// The history and the event log cut to their newest 6 entries (in play: the setup's secret choices
/// count the history), as the Python side loads them: the copy then costs what the rules' state does.
fn trim(s: &mut Saved) {
    let cut = |n: usize| n.saturating_sub(6);
    if s.state.phase != _native::state::Phase::Setup {
        s.history.drain(..cut(s.history.len()));
    }
    s.state.events.drain(..cut(s.state.events.len()));
}

fn main() {
    let file = std::env::args().nth(1).unwrap_or_else(|| "transitions.json".into());
    let kind = std::env::args().nth(2);
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let fix: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut cases: Vec<(Saved, String)> = Vec::new();
    let mut picked: Vec<(usize, usize)> = Vec::new();
    for (gi, g) in fix["games"].as_array().unwrap().iter().enumerate() {
        let mut value = g["start"].clone();
        for (i, step) in g["steps"].as_array().unwrap().iter().enumerate() {
            let text = step["action"].as_str().unwrap().to_string();
            let pick = match &kind {
                Some(k) => step["kind"].as_str() == Some(k.as_str()),
                None => i % 4 == 0,
            };
            if pick {
                let mut before = Saved::from_value(value.clone()).unwrap();
                trim(&mut before);
                if apply(&mut before.clone(), &text).is_ok() {
                    cases.push((before, text));
                    picked.push((gi, i));
                }
            }
            patch(&mut value, &step["patch"]);
        }
    }
    let copy = per_call(cases.len(), |i| cases[i].0.clone().state.figs.len());
    let applied = per_call(cases.len(), |i| {
        let mut s = cases[i].0.clone();
        apply(&mut s, &cases[i].1).unwrap();
        s.state.events.len()
    });
    let out = serde_json::json!({"transitions": picked, "copy_us": copy, "copy_apply_us": applied});
    println!("{out}");
}
