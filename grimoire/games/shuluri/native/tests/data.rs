//! The data tables against the Python reference: every table of data.py as tests/data/data.json holds
//! it (written by scripts/shuluri_native_fixtures.py), compared key by key with the crate's `data`.

use _native::data::data;
use serde_json::{json, Value};
use std::sync::LazyLock;

static FIX: LazyLock<Value> =
    LazyLock::new(|| serde_json::from_str(include_str!("data/data.json")).expect("data.json parses"));

fn same(key: &str, got: Value) {
    assert_eq!(got, FIX[key], "data.json: {key}");
}

#[test]
fn characters_and_weapons() {
    let d = data();
    same("roles", json!(d.roles));
    same("role_stats", json!(d.role_stats));
    same("gladiator_types", json!(d.gladiator_types));
    same("ranged_range", json!(d.ranged_range));
    same("armour_vs_lightning", json!(d.armour_vs_lightning));
    same("stp_ring", json!(d.stp_ring));
    same("stp_gladiator", json!(d.stp_gladiator));
    same("gladiator_keeps_sfe", json!(d.gladiator_keeps_sfe));
    same("zombie", json!([d.zombie_ep_divisor, d.zombie_sfe, d.zombie_man, d.zombie_fields]));
    same("heap_sets", json!(d.heap_sets));
    same("weapons", json!(d.weapons));
    same("thrown", json!([d.javelin_te, d.javelin_range, d.net_te, d.net_range]));
    same("skills", json!(d.skills));
}

#[test]
fn spells_and_traps() {
    let d = data();
    same("spells", json!(d.spells));
    same("max_level", json!(d.max_level));
    same("traps", json!(d.traps));
    same("n_trap_cards", json!(d.n_trap_cards));
    same("ranged_traps", json!(d.ranged_traps));
    same("direct_traps", json!(d.direct_traps));
    same("kitoro", json!(d.kitoro));
    assert_eq!(d.spell("bolt").unwrap().index, d.spells.iter().position(|s| s.key == "bolt").unwrap());
    assert!(d.trap(d.kitoro).unwrap().params["works_in_c"].as_bool().unwrap());
}

#[test]
fn setup_modes_and_optional_rules() {
    let d = data();
    same("hands", json!([d.traps_per_hand, d.discs_per_hand]));
    same("disc_pool", json!(d.disc_pool));
    same("amulets", json!(d.amulets));
    same("resist_values", json!(d.resist_values));
    same("man", json!(d.man));
    same("cost", json!(d.cost));
    same("names_per_step", json!(d.names_per_step));
    same("round_cap", json!(d.round_cap));
    same("modes", json!(d.modes));
    same("vial", json!(d.vial));
    same("potion", json!(d.potion));
}

#[test]
fn character_names() {
    let d = data();
    for (i, players) in [2usize, 4].into_iter().enumerate() {
        // the fighters, then the zombie slots of every role but the gladiator (data.all_char_names)
        let mut names: Vec<String> = (0..5 * players).map(|c| d.char_name(c, players)).collect();
        names.extend((0..5 * players).filter(|c| c % 5 != 0).map(|c| d.char_name(5 * players + c, players)));
        assert_eq!(json!(names), FIX["char_names"][i], "{players} players");
    }
}

#[test]
fn every_key_of_the_fixture_is_compared() {
    let compared = [
        "roles",
        "role_stats",
        "gladiator_types",
        "ranged_range",
        "armour_vs_lightning",
        "stp_ring",
        "stp_gladiator",
        "gladiator_keeps_sfe",
        "zombie",
        "heap_sets",
        "weapons",
        "thrown",
        "skills",
        "spells",
        "max_level",
        "traps",
        "n_trap_cards",
        "ranged_traps",
        "direct_traps",
        "kitoro",
        "hands",
        "disc_pool",
        "amulets",
        "resist_values",
        "man",
        "cost",
        "names_per_step",
        "round_cap",
        "modes",
        "vial",
        "potion",
        "char_names",
    ];
    let keys: Vec<&String> = FIX.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), compared.len());
    for k in keys {
        assert!(compared.contains(&k.as_str()), "{k} is not compared");
    }
}
