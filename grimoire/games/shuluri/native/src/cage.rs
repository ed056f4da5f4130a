//! Imprisonment's energy cage on a move (spell 27, R33), the Python `movement.relocate` with cages:
//! whoever crosses a cage's wall takes its Sp of lightning; with cage_follows_caster the cage moves
//! with its caster (its fields then follow its new centre).

use crate::apply::{fig, fig_mut, log, name, Res};
use crate::board::board;
use crate::damage::hurt_sp;
use crate::magic::{param, spell};
use crate::state::{Phase, Saved};
use serde_json::json;

pub fn relocate(s: &mut Saved, moves: &[(usize, i64)]) -> Res {
    let old: Vec<i64> = moves.iter().map(|&(id, _)| fig(s, id).field).collect();
    for &(id, n) in moves {
        fig_mut(s, id).field = n;
    }
    let cages: Vec<usize> = (0..s.state.areas.len()).filter(|&i| s.state.areas[i].1 == "prison").collect();
    // the cages after the move: those that follow a caster who moved are centred on his new field
    let mut after: Vec<(u16, Vec<u16>)> = Vec::new();
    for &i in &cages {
        let a = &s.state.areas[i];
        let moved = moves.iter().any(|&(id, _)| id == a.2 as usize);
        if a.8 && moved {
            let c = fig(s, a.2 as usize).field as usize;
            after.push((c as u16, board().area_fields(c, &s.state.gate_open)));
        } else {
            after.push((a.4, a.5.clone()));
        }
    }
    let (sp, exempt) = (spell("prison"), s.options.cage_exempts_caster);
    for (k, &i) in cages.iter().enumerate() {
        for (j, &(id, _)) in moves.iter().enumerate() {
            let f = fig(s, id);
            if !f.alive {
                continue;
            }
            let was_in = old[j] >= 0 && s.state.areas[i].5.contains(&(old[j] as u16));
            let is_in = f.field >= 0 && after[k].1.contains(&(f.field as u16));
            if was_in != is_in {
                if id == s.state.areas[i].2 as usize && exempt {
                    continue;
                }
                let who = name(s, id);
                log(s, "crosses_cage", None, json!({"fig": who}));
                hurt_sp(s, id, param(sp, "cross_sp"), "lightning", sp.level);
                if s.state.phase == Phase::Over {
                    return Ok(());
                }
            }
        }
    }
    for (k, &i) in cages.iter().enumerate() {
        let (c, fields) = after[k].clone();
        let a = &mut s.state.areas[i];
        a.4 = c;
        a.5 = fields;
    }
    Ok(())
}
