//! Property-based fuzzing of apply and load (proptest): random action codes and texts on random
//! games, random bytes and mutated saves for the loader. Nothing may panic; a rejected action leaves
//! the state exactly as it was; whatever loads can be played on.

use _native::legal::{Act, BID_BASE};
use _native::rng::Rng;
use _native::serial::{load, state_json, state_json_string};
use _native::state::{Items, State};
use proptest::prelude::*;
use serde_json::Value;

mod common;
use common::flags;

/// Plays `steps` random legal actions (fewer if the game ends).
fn play(s: &mut State, rng: &mut Rng, steps: usize) {
    for _ in 0..steps {
        if s.over {
            return;
        }
        let legal = s.legal();
        assert!(!legal.is_empty(), "no legal action in a game that goes on");
        let code = legal[rng.below(legal.len() as u64) as usize];
        assert!(s.apply_code(code).is_none(), "a listed action was refused");
    }
}

fn game() -> impl Strategy<Value = (usize, u64, u8, i64, i64, usize)> {
    (2usize..=6, any::<u64>(), any::<u8>(), 10i64..40, 1i64..6, 0usize..300)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_codes_never_panic_and_refusals_change_nothing(
        (n, seed, bits, limit, rounds, steps) in game(),
        codes in prop::collection::vec(0u32..(BID_BASE + 600), 1..40),
    ) {
        let mut s = State::new(n, seed, None, flags(bits as u64, limit, rounds));
        let mut rng = Rng::new(seed ^ 1);
        play(&mut s, &mut rng, steps);
        for code in codes {
            let before = s.clone();
            if s.apply_code(code).is_some() {
                prop_assert_eq!(&s, &before);
            }
        }
    }

    #[test]
    fn random_items_never_panic_and_refusals_change_nothing(
        (n, seed, bits, limit, rounds, steps) in game(),
        cards in prop::collection::vec((-3i64..30, -1i64..4), 0..6),
        conc in prop::array::uniform4(0i64..3),
        dust in -5i64..80,
        discard in any::<bool>(),
    ) {
        let mut s = State::new(n, seed, None, flags(bits as u64, limit, rounds));
        let mut rng = Rng::new(seed ^ 2);
        play(&mut s, &mut rng, steps);
        let items = Items { cards, conc, dust };
        let a = if discard { Act::Discard(Some(items)) } else { Act::Pay(Some(items)) };
        let before = s.clone();
        if s.apply(&a, "typed").is_some() {
            prop_assert_eq!(&s, &before);
        } else {
            play(&mut s, &mut rng, 20);
        }
    }

    #[test]
    fn random_bytes_never_load(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(v) = serde_json::from_slice::<Value>(&bytes) {
            let _ = load(4, 1, flags(0, 100, 3), &v);
        }
    }

    #[test]
    fn mutated_saves_load_or_are_refused_and_what_loads_plays_on(
        (n, seed, bits, limit, rounds, steps) in game(),
        path_pick in any::<u64>(),
        value in prop_oneof![Just(Value::Null), (-3i64..60).prop_map(Value::from), Just(Value::Bool(true)),
                             Just(Value::from("x")), Just(Value::Array(vec![]))],
    ) {
        let mut s = State::new(n, seed, None, flags(bits as u64, limit, rounds));
        let mut rng = Rng::new(seed ^ 3);
        play(&mut s, &mut rng, steps);
        let mut v = state_json(&s);
        // the JSON of the save is also what the direct writer produces
        prop_assert_eq!(state_json_string(&s), v.to_string());
        // replace one randomly chosen leaf (a number, text, flag or null) somewhere in the save
        let mut leaves = Vec::new();
        collect_leaves(&v, String::new(), &mut leaves);
        let target = leaves[(path_pick % leaves.len() as u64) as usize].clone();
        if let Some(slot) = v.pointer_mut(&target) {
            *slot = value;
        }
        if let Ok(mut t) = load(s.n, s.rng.state, s.flags, &v) {
            let mut rng2 = Rng::new(seed ^ 4);
            for _ in 0..60 {
                if t.over {
                    break;
                }
                let legal = t.legal();
                if legal.is_empty() {
                    break;
                }
                let code = legal[rng2.below(legal.len() as u64) as usize];
                let _ = t.apply_code(code);
            }
        }
    }
}

fn collect_leaves(v: &Value, path: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                collect_leaves(x, format!("{path}/{k}"), out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                collect_leaves(x, format!("{path}/{i}"), out);
            }
            if a.is_empty() {
                out.push(path);
            }
        }
        _ => out.push(path),
    }
}

#[test]
fn games_end_with_winners() {
    for seed in 0..30u64 {
        let mut s = State::new(2 + (seed % 5) as usize, seed, None, flags(seed as u8 as u64, 100, 8));
        let mut rng = Rng::new(seed);
        play(&mut s, &mut rng, 1_000_000);
        assert!(s.over);
        assert!(!s.winners().is_empty());
        assert!(s.current_player().is_none() && s.legal().is_empty());
    }
}
