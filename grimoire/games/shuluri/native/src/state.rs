//! The game state and its saved form: `to_dict()` of the Python `ShuluriState` (serial.py), read into
//! typed structs and written back to the same JSON value. Field names are the Python slots', so a
//! saved game maps one to one; unknown keys are refused, so nothing of a save is dropped unseen.
//! `Saved::check` repeats the loader's structural checks that the rules will rely on.

use crate::board::board;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Fig.sets: a heap weapon set in the heap, in hand, destroyed (a value >= 0: the field where it lies)
pub const IN_HEAP: i64 = -1;
pub const IN_HAND: i64 = -2;
pub const DESTROYED: i64 = -3;

/// A JSON scalar in a decision's payload or a zombie's order (Python tuples of ints, strings, bools).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Str(String),
}

/// A decision's payload: none, a figure or a flag (an int), or a record (a list).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Payload {
    Int(i64),
    List(Vec<Scalar>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Name,
    Act,
    React,
    Dodge,
    Push,
    Shove,
    Effect,
    Enemy,
    Chain,
    Order,
    Traps,
    Amulets,
    Resist,
    Vials,
    Potions,
    Side,
    Weapon,
    Deploy,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decision {
    pub kind: Kind,
    pub seat: u8,
    pub payload: Option<Payload>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Setup,
    Play,
    Over,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Duel,
    Ffa,
    Pairs,
}

/// Where the flow stands inside the phase (flow.py).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sub {
    Start,
    Secret,
    Side,
    Weapon,
    Deploy,
    Name,
    Act,
    Zomb,
    Mad,
}

/// A step of the round: the first or second naming step, or the gladiator's step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StepKind {
    Pair1,
    Pair2,
    Glad,
}

/// An effect on a figure (fig.Effect): key, src, type, start, end, mods, flags, caster, data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect(
    pub String,
    pub String,
    pub String,
    pub i64,
    pub i64,
    pub Vec<(String, i64)>,
    pub Vec<String>,
    pub i64,
    pub i64,
);

/// A figure (fig.Fig's slots but `tc`, which is not game state).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fig {
    pub id: u8,
    pub seat: u8,
    pub role: u8,
    pub zombie: bool,
    pub creator: i64,
    pub field: i64,
    pub alive: bool,
    pub ep: i64,
    pub max_ep: i64,
    pub eg: i64,
    pub me: i64,
    pub te: i64,
    pub ve: i64,
    pub ce: i64,
    #[serde(rename = "move")]
    pub move_: i64,
    pub armour: String,
    pub sfe: i64,
    pub stp: i64,
    pub stp_max: i64,
    pub ammo: i64,
    pub javelins: i64,
    pub nets: i64,
    /// per heap set: -1 in the heap, -2 in hand, -3 destroyed, a field where it lies
    pub sets: Vec<i64>,
    pub part_at: i64,
    pub down: bool,
    pub sneak: i64,
    pub bell: bool,
    pub effects: Vec<Effect>,
    pub named: bool,
    pub attacked: bool,
    pub disengaged: bool,
    pub casts: i64,
    pub moved: i64,
    pub entered: bool,
    pub stopped: bool,
    pub running: bool,
    pub run_credit: i64,
    pub aim: bool,
    pub spent: i64,
    pub debt: i64,
    pub coat: bool,
    pub next_no_man: bool,
    pub next_limit: i64,
    pub next_double: bool,
    pub cur_no_man: bool,
    pub cur_limit: i64,
    pub cur_double: bool,
    pub zman: i64,
    pub zfields: i64,
    pub order: Option<Vec<Scalar>>,
    pub mad_man: i64,
    pub amulet: i64,
    pub amulet_shown: bool,
    pub me_extra: i64,
    pub me_shown: bool,
    pub vial: bool,
    pub vial_shown: bool,
    pub potion: bool,
    pub potion_shown: bool,
    pub raised: bool,
    pub must_attack: bool,
    pub netted: bool,
    pub cast_other: bool,
    pub ordered: bool,
    pub zdone: bool,
}

/// A team (team.Team).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Team {
    pub seat: u8,
    pub half: i64,
    pub quarters: Vec<u8>,
    pub inner_gates: Vec<u8>,
    pub heaps: Vec<u16>,
    pub gtype: String,
    pub strat: i64,
    /// [card, holder figure id or -1]
    pub hand: Vec<(u8, i64)>,
    pub played: Vec<u8>,
    pub lost: Vec<u8>,
    pub discs: Vec<u8>,
    pub cast: Vec<u8>,
    pub weapon: i64,
    pub weapon_shown: bool,
    pub out: bool,
    pub react_off: bool,
    pub roll: i64,
}

/// An area effect (team.Area): id, key, caster, seat, centre, fields, start, end, follows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Area(pub i64, pub String, pub u8, pub u8, pub u16, pub Vec<u16>, pub i64, pub i64, pub bool);

/// An event line: the seat that may see it (none: public), its English text (none until formatted:
/// the Python wrapper formats it, as view.py does), its key and its arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event(pub Option<u8>, pub Option<String>, pub String, pub Map<String, Value>);

/// The game options after `normalize_options` (every key present).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    pub max_rounds: Option<i64>,
    pub damage_rounding: String,
    pub stp_threshold_after_sfe: bool,
    pub modifier_mode: String,
    pub spells_need_line_of_fire: bool,
    pub allow_single_naming: bool,
    pub allow_futile_ranged: bool,
    pub spells_per_step: Option<i64>,
    pub self_spell_allows_attack: bool,
    pub enter_forces_attack: bool,
    pub ranged_trap_requires_entry: bool,
    pub zsibbaszto_rounds: i64,
    pub halaltanc_full_rounds: bool,
    pub madness_from_pool: bool,
    pub weapon_reveal: String,
    pub traps_assigned_to_character: bool,
    pub push_compare: String,
    pub villamvert_melee_only: bool,
    pub cage_follows_caster: bool,
    pub cage_exempts_caster: bool,
    pub heaps_per_gladiator: i64,
    pub kitoro_forras_kind: String,
    pub gladiator_type: String,
    pub gladiator_types: Option<Vec<String>>,
    pub optional_poison_vial: bool,
    pub optional_magic_potion: bool,
    pub mode: String,
    pub dice: Option<Vec<i64>>,
}

/// The rules' state (serial.STATE_FIELDS and the records).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub mode: Mode,
    pub alliance: Vec<u8>,
    pub order: Vec<u8>,
    pub phase: Phase,
    pub sub: Sub,
    pub round: i64,
    pub sched: Vec<(u8, StepKind)>,
    pub step_i: i64,
    pub active: i64,
    pub named: Vec<u8>,
    pub pool: i64,
    pub gpool: i64,
    pub gate_open: Vec<bool>,
    pub gate_jam: Vec<i64>,
    pub area_seq: i64,
    pub n_events: i64,
    pub winners_: Vec<u8>,
    pub end_reason: String,
    pub first: i64,
    pub dice_i: i64,
    pub reveals: i64,
    /// (history index, seat) of the secret setup actions
    pub secret: Vec<(i64, u8)>,
    pub started: bool,
    pub deaths: Vec<u8>,
    pub batch: bool,
    /// the decisions, top first
    pub stack: Vec<Decision>,
    /// by figure id: the fighters (seat * 5 + role), then the zombie slots (None until raised)
    pub figs: Vec<Option<Fig>>,
    pub teams: Vec<Team>,
    pub areas: Vec<Area>,
    /// the event log, oldest first
    pub events: Vec<Event>,
}

/// A saved game: `ShuluriState.to_dict()`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Saved {
    pub game: String,
    pub players: u8,
    pub seed: i64,
    pub options: Options,
    pub rng: u64,
    pub history: Vec<String>,
    pub state: State,
}

impl Saved {
    /// Read a saved game (a JSON value as `to_dict` writes it); a one-line error for anything else.
    pub fn from_value(v: Value) -> Result<Saved, String> {
        let s: Saved = serde_json::from_value(v).map_err(|e| format!("corrupt saved game: {e}"))?;
        s.check()?;
        Ok(s)
    }

    pub fn from_json(text: &str) -> Result<Saved, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("corrupt saved game: {e}"))?;
        Saved::from_value(v)
    }

    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("a state always serializes")
    }

    /// The structure the rules rely on (indices in range, one record per slot), as serial.load and
    /// the spec's numbers require.
    pub fn check(&self) -> Result<(), String> {
        let bad = |what: &str| Err(format!("corrupt saved game: {what}"));
        if self.game != "shuluri" {
            return bad("not a Shuluri Viadal game");
        }
        let p = self.players as usize;
        if p != 2 && p != 4 {
            return bad("Shuluri Viadal is played by 2 or 4 players");
        }
        let st = &self.state;
        let b = board();
        let n_fields = b.n_fields() as i64;
        if st.figs.len() != 10 * p {
            return bad("wrong number of figures");
        }
        if st.teams.len() != p {
            return bad("wrong number of teams");
        }
        if st.gate_open.len() != b.gates.len() || st.gate_jam.len() != b.gates.len() {
            return bad("one entry per gate");
        }
        if st.alliance.len() != p || st.order.len() != p {
            return bad("one alliance and one place in the order per seat");
        }
        for (i, f) in st.figs.iter().enumerate() {
            let Some(f) = f else {
                if i < 5 * p {
                    return bad("a fighter is missing");
                }
                continue;
            };
            let zombie_slot = i >= 5 * p;
            if f.id as usize != i || f.zombie != zombie_slot || f.seat as usize >= p || f.role >= 5 {
                return bad(&format!("figure {i} has the wrong id, seat, role or kind"));
            }
            if f.field < -1 || f.field >= n_fields {
                return bad(&format!("figure {i} stands on no field"));
            }
        }
        for (i, t) in st.teams.iter().enumerate() {
            if t.seat as usize != i {
                return bad("teams out of seat order");
            }
            if t.heaps.iter().any(|&h| h as i64 >= n_fields) {
                return bad("a heap off the board");
            }
        }
        for d in &st.stack {
            if d.seat as usize >= p {
                return bad("a decision of no seat");
            }
        }
        for a in &st.areas {
            if a.4 as i64 >= n_fields || a.5.iter().any(|&f| f as i64 >= n_fields) || a.2 as usize >= st.figs.len() {
                return bad("an area off the board");
            }
        }
        if st.named.iter().any(|&c| c as usize >= st.figs.len() || st.figs[c as usize].is_none()) {
            return bad("a named figure that does not exist");
        }
        Ok(())
    }
}
