//! Spells against the Python reference: the games of tests/data/transitions_magic.json (biased to cast,
//! every spell; `scripts/shuluri_native_transitions.py --magic`) and of transitions.json replayed action
//! by action. Every cast, every follow-up decision (effect, enemy, chain), Kiteres against a touch or
//! lightning, every `end` that lets Firestorm blast or a madman act, every move across a cage must
//! write the very JSON the Python engine saved after it. Per spell the identical casts are printed
//! (`cargo test --release --test magic -- --nocapture`).

#[allow(dead_code)] // (replay of one file: the other tests')
mod replay;

#[test]
fn spells_write_the_python_engines_state() {
    let r = replay::replay_files(&["transitions_magic.json", "transitions.json"]);
    replay::print_counts(&r);
    assert!(r.diffs.is_empty(), "the crate and the Python engine differ:\n{}", r.diffs.join("\n"));
    let spells: Vec<&String> = r.counts.keys().filter(|k| k.starts_with("cast ")).collect();
    assert!(spells.len() >= 30, "the fixtures cast only {} spells", spells.len());
    for k in spells.iter().map(|k| k.as_str()).chain(["act:cast", "effect:effect", "enemy:enemy", "chain:chain"]) {
        let c = r.counts.get(k).unwrap_or_else(|| panic!("the fixtures have no {k}"));
        assert!(c.same > 0 && c.not_ported == 0, "{k}: {} identical, not ported: {:?}", c.same, c.why);
    }
    for k in ["act:end", "dodge:dodge", "act:move"] {
        assert!(r.counts[k].not_ported == 0, "{k}: not ported: {:?}", r.counts[k].why);
    }
}
