//! Touch spells and lightning as attacks (G14.5, G14.6, 20.4), the `touch` and `lightning` halves of
//! the Python `combat.resolve` and `_hit`: the d10s in the reference's order, Kiteres' bonus, the ranged
//! defence of C11.3 for lightning (the shots' `shots::ranged_defence`: Firestorm, the caster's own cage,
//! Acid Cloud), the hit, Lightning Armour's discharge, and Chain Lightning's next leap.

use crate::apply::{enemies, fig, Res};
use crate::combat::{armour_strikes_back, log_rolls, open_attack, te, ve, Attack};
use crate::damage::{heal, hurt_ep, hurt_sp};
use crate::magic::{continue_chain, param, spell, touch_effect};
use crate::shots::{cloud_hinders, modifier_with, ranged_defence};
use crate::state::{Phase, Saved};
use serde_json::{json, Value};

/// Python `resolve` for a touch spell or lightning (the target may have chosen Kiteres).
pub fn resolve(s: &mut Saved, atk: &Attack, dodged: bool) -> Res {
    let (a, t) = (atk.attacker, atk.target);
    let Some((roll_a, roll_d, bonus)) = open_attack(s, atk, dodged) else { return Ok(()) };
    let sp = spell(&atk.skill);
    let touch = atk.kind == "touch";
    let (fa, ft) = (fig(s, a), fig(s, t));
    let (att, dfn) = if touch {
        let mut extra = sp.params.get("touch_te").and_then(Value::as_i64).unwrap_or(0);
        if !enemies(s, fa.seat, ft.seat) {
            extra = extra.max(5);
        }
        (te(s, fa) + roll_a + extra, ve(s, ft) + roll_d + bonus)
    } else {
        let hop_ce = lightning_hop(sp, atk.hop).0;
        let ignore = sp.params.get("ignores_walls").and_then(Value::as_bool).unwrap_or(false);
        let (rd, middle) = ranged_defence(s, atk, ignore);
        let cloud: &[i64] =
            if cloud_hinders(s, atk.origin, middle) { &[param(spell("acid"), "ce_through")] } else { &[] };
        (hop_ce + modifier_with(s, fa, "ce", cloud) + roll_a, rd + roll_d + bonus)
    };
    let hit = log_rolls(s, atk, (att, dfn), (roll_a, roll_d));
    if hit {
        if touch {
            match sp.key.as_str() {
                "sap" => {
                    hurt_ep(s, t, param(sp, "hit_ep"), "spell", Some(json!("sap")));
                }
                "theft" => {
                    hurt_ep(s, t, param(sp, "hit_ep"), "spell", Some(json!("theft")));
                    heal(s, a, param(sp, "hit_ep"));
                }
                _ => touch_effect(s, a, t, sp),
            }
        } else {
            hurt_sp(s, t, lightning_hop(sp, atk.hop).1, "lightning", sp.level);
        }
        if s.state.phase == Phase::Over {
            return Ok(());
        }
        if (!touch || sp.harmful) && armour_strikes_back(s, a, t, touch) {
            return Ok(());
        }
    }
    if !touch && atk.skill == "chain" {
        continue_chain(s, atk, hit);
    }
    Ok(())
}

/// A lightning spell's (CE, Sp) of a hop (Chain Lightning: 0, 1, 2; the others: 0).
fn lightning_hop(sp: &crate::data::Spell, hop: i64) -> (i64, i64) {
    let pair = &sp.params["lightning"][hop as usize];
    (pair[0].as_i64().expect("a CE"), pair[1].as_i64().expect("an Sp"))
}
