//! The three transition fixtures (transitions.json: random and pressing games; transitions_shots.json:
//! shots, traps, cages, zombies; transitions_magic.json: every spell, Firestorm, madmen) replayed
//! through the crate's `apply` with nothing left to the Python engine: every action is ported and
//! writes the very JSON the Python engine saved after it. `cargo test --release --test whole --
//! --nocapture` prints the counts per decision and action kind over the three files.

#[allow(dead_code)] // (print_counts: the one-file tests print with it)
mod replay;

use std::collections::BTreeMap;

const FILES: &[&str] = &["transitions.json", "transitions_shots.json", "transitions_magic.json"];

#[test]
fn every_action_of_every_fixture_is_ported_and_identical() {
    let mut total: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for file in FILES {
        let r = replay::replay(file);
        assert!(r.diffs.is_empty(), "{file}: the crate and the Python engine differ:\n{}", r.diffs.join("\n"));
        for (k, c) in &r.counts {
            assert!(c.not_ported == 0 && c.differs == 0, "{file} {k}: not ported {:?}", c.why);
            let t = total.entry(k.clone()).or_default();
            t.0 += c.same;
            t.1 += c.same + c.not_ported + c.differs;
        }
    }
    println!("{:<18} {:>9} {:>6}", "kind", "identical", "of");
    for (k, (same, all)) in &total {
        println!("{k:<18} {same:>9} {all:>6}");
    }
    // the three files reach every kind of action the Python engine has (the slices' own tests say how)
    for k in ["act:cast", "act:shoot", "act:trap", "shove:shove", "chain:chain", "order:orderto", "act:end"] {
        assert!(total.get(k).is_some_and(|t| t.0 > 0), "no {k} in the fixtures");
    }
}
