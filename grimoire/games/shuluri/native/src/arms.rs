//! The gladiator's weapons, a port of the Python `arms.py`'s `do_*` (spec 18, 20.3): dropping to free
//! a hand, picking up, changing at his heap (C10.11), standing up after a takedown, the sword-artist's
//! Golden Bell (W18.3); and moving an acid cloud (`magic.do_cloud`, spell 7). The checks are the
//! listing's (`rules`); these carry a legal action out.

use crate::apply::{fig, fig_mut, log, name, pay};
use crate::board::board;
use crate::data::data;
use crate::rules::wield_key;
use crate::state::{Saved, IN_HAND, IN_HEAP};
use serde_json::json;

fn hand_set(s: &Saved, id: usize) -> Option<usize> {
    fig(s, id).sets.iter().position(|&x| x == IN_HAND)
}

/// C10.11 (R): a change of weapons is recorded and public.
fn public(s: &mut Saved, id: usize) {
    let seat = fig(s, id).seat as usize;
    let t = &mut s.state.teams[seat];
    if !t.weapon_shown {
        t.weapon_shown = true;
        s.state.reveals += 1;
    }
}

pub fn do_drop(s: &mut Saved, id: usize) {
    let d = data();
    let i = hand_set(s, id).expect("a gladiator who may drop holds a heap set");
    let key = &d.heap_sets[i];
    let two = d.weapon(key).expect("a heap set is a weapon").two_handed;
    let f = fig_mut(s, id);
    if two {
        f.sets[i] = f.field;
    } else {
        f.part_at = f.field;
    }
    public(s, id);
    let (who, wield) = (name(s, id), wield_key(fig(s, id)));
    if two {
        log(s, "drops_two_handed", None, json!({"fig": who, "weapon": key, "wield": wield}));
    } else {
        log(s, "drops", None, json!({"fig": who, "wield": wield}));
    }
}

pub fn do_pickup(s: &mut Saved, id: usize) {
    pay(s, id, data().cost.pick_up);
    let f = fig_mut(s, id);
    if f.part_at == f.field {
        f.part_at = -1;
    } else {
        let at = f.field;
        let i = f.sets.iter().position(|&x| x == at).expect("a set lies here");
        f.sets[i] = IN_HAND;
    }
    public(s, id);
    let (who, weapon) = (name(s, id), wield_key(fig(s, id)));
    log(s, "picks_up", None, json!({"fig": who, "weapon": weapon}));
}

pub fn do_wield(s: &mut Saved, id: usize, i: usize) {
    pay(s, id, data().cost.weapon_change);
    let h = hand_set(s, id);
    let f = fig_mut(s, id);
    if let Some(h) = h {
        f.sets[h] = IN_HEAP;
    }
    f.sets[i] = IN_HAND;
    public(s, id);
    let who = name(s, id);
    log(s, "changes_weapons", None, json!({"fig": who, "weapon": data().heap_sets[i]}));
}

pub fn do_stand(s: &mut Saved, id: usize) {
    pay(s, id, data().skills.takedown.stand_up_cost);
    fig_mut(s, id).down = false;
    let who = name(s, id);
    log(s, "stands", None, json!({"fig": who}));
}

pub fn do_bell(s: &mut Saved, id: usize) {
    pay(s, id, data().skills.golden_bell.cost);
    fig_mut(s, id).bell = true;
    let who = name(s, id);
    log(s, "bell", None, json!({"fig": who}));
}

/// Spell 7: the warlock moves his k-th acid cloud (in the order of the areas) one field.
pub fn do_cloud(s: &mut Saved, id: usize, k: usize, dir: usize) {
    let b = board();
    let cost = data().spell("acid").and_then(|sp| sp.params["move_cost"].as_i64()).expect("acid's move cost");
    let ai = s.state.areas.iter().enumerate().filter(|(_, a)| a.1 == "acid" && a.2 as usize == id).nth(k - 1);
    let ai = ai.expect("the listing offers only his clouds").0;
    pay(s, id, cost);
    let n = b.neighbours[s.state.areas[ai].4 as usize][dir] as usize;
    let open = s.state.gate_open.clone();
    let a = &mut s.state.areas[ai];
    a.4 = n as u16;
    a.5 = b.area_fields(n, &open);
    let who = name(s, id);
    log(s, "cloud_moves", None, json!({"fig": who, "dir": b.dirs[dir], "field": b.field_name(n)}));
}
