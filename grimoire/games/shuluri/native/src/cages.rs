//! The Imprisonment cage's wall (spell 27, R33), a port of the Python `movement.relocate`: figures
//! are put on their new fields; whoever crossed a cage wall (in or out) takes its lightning Sp; a cage
//! that follows its caster moves with him first.

use crate::apply::{fig, fig_mut, log, name, Res};
use crate::board::board;
use crate::damage::hurt_sp;
use crate::data::data;
use crate::state::{Area, Phase, Saved};
use serde_json::json;

fn is_cage(a: &Area) -> bool {
    a.1 == "prison"
}

/// Put each figure of `moves` on its field (Python `relocate`), crossing cage walls as they lie after
/// the move (a following cage already recentred on its caster).
pub fn relocate(s: &mut Saved, moves: &[(usize, i64)]) -> Res {
    let old: Vec<i64> = moves.iter().map(|&(id, _)| fig(s, id).field).collect();
    for &(id, n) in moves {
        fig_mut(s, id).field = n;
    }
    if !s.state.areas.iter().any(is_cage) {
        return Ok(());
    }
    let cages: Vec<Area> = s.state.areas.iter().filter(|a| is_cage(a)).cloned().collect();
    let recentred: Vec<Option<Area>> = cages
        .iter()
        .map(|a| {
            let follows = a.8 && moves.iter().any(|&(id, _)| id == a.2 as usize);
            follows.then(|| {
                let centre = fig(s, a.2 as usize).field as u16;
                let fields = board().area_fields(centre as usize, &s.state.gate_open);
                Area(a.0, a.1.clone(), a.2, a.3, centre, fields, a.6, a.7, a.8)
            })
        })
        .collect();
    let sp = data().spell("prison").expect("Imprisonment");
    let cross_sp = sp.params["cross_sp"].as_i64().expect("the cage wall's Sp");
    for (a, after) in cages.iter().zip(&recentred) {
        let after = after.as_ref().unwrap_or(a);
        for (&(id, _), &was) in moves.iter().zip(&old) {
            let f = fig(s, id);
            if !f.alive {
                continue;
            }
            let inside = |fields: &[u16], at: i64| at >= 0 && fields.contains(&(at as u16));
            if inside(&a.5, was) == inside(&after.5, f.field) {
                continue;
            }
            if id == a.2 as usize && s.options.cage_exempts_caster {
                continue;
            }
            let who = name(s, id);
            log(s, "crosses_cage", None, json!({"fig": who}));
            hurt_sp(s, id, cross_sp, "lightning", sp.level);
            if s.state.phase == Phase::Over {
                return Ok(());
            }
        }
    }
    if recentred.iter().any(Option::is_some) {
        let mut moved = cages.iter().zip(recentred).filter_map(|(a, r)| r.map(|r| (a.0, r))).collect::<Vec<_>>();
        for a in s.state.areas.iter_mut() {
            if let Some(i) = moved.iter().position(|(id, _)| *id == a.0) {
                *a = moved.swap_remove(i).1;
            }
        }
    }
    Ok(())
}
