//! Shuluri Viadal's data tables, a port of the Python `data.py`: read once from the game package's
//! own data/*.toml (compiled in), so every number exists once. Indices as in Python: roles 0..4 (gl
//! wl xb d1 d2), spells 0..30 in spec order, trap cards by their printed numbers 1..16, heap weapon
//! sets 0..4. Keyed tables keep the files' order (as Python's dicts do). A spell's or trap's own
//! effect numbers stay in `params` (by name) until the rule that reads them is ported.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::sync::LazyLock;
use toml::Table;

const CHARACTERS: &str = include_str!("../../data/characters.toml");
const WEAPONS: &str = include_str!("../../data/weapons.toml");
const SKILLS: &str = include_str!("../../data/skills.toml");
const SPELLS: &str = include_str!("../../data/spells.toml");
const TRAPS: &str = include_str!("../../data/traps.toml");
const SETUP: &str = include_str!("../../data/setup.toml");
const MODES: &str = include_str!("../../data/modes.toml");
const OPTIONAL: &str = include_str!("../../data/optional.toml");

pub const GL: usize = 0;
pub const WL: usize = 1;
pub const XB: usize = 2;
pub const D1: usize = 3;
pub const D2: usize = 4;
pub const LETTERS: &str = "abcd";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoleStats {
    #[serde(default)]
    pub code: String,
    pub name: String,
    pub title: String,
    pub te: i64,
    pub ve: i64,
    pub ce: i64,
    pub ep: i64,
    pub eg: i64,
    pub me: i64,
    #[serde(rename = "move")]
    pub move_: i64,
    pub armour: String,
    pub sfe: i64,
    pub stp: i64,
    pub ammo: i64,
    pub javelins: i64,
    pub nets: i64,
    pub skills: Vec<String>,
    pub ranged_weapon: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GladiatorType {
    #[serde(default)]
    pub key: String,
    pub ep: i64,
    pub sfe: i64,
    pub stp: i64,
    pub te_bonus: i64,
    pub extra_skills: Vec<String>,
    pub armour: String,
    #[serde(rename(deserialize = "crossbow_after_stp_lost"))]
    pub crossbow_after: i64,
    #[serde(rename(deserialize = "daggers_after_stp_lost"))]
    pub daggers_after: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    #[serde(default)]
    pub key: String,
    pub name: String,
    pub te: i64,
    pub ve: i64,
    pub skills: Vec<String>,
    pub hand_free: bool,
    pub drop_to: String,
    pub two_handed: bool,
    #[serde(default)]
    pub reach: i64,
    #[serde(default)]
    pub no_takedown: bool,
    #[serde(default)]
    pub unbreakable: bool,
}

/// A number of blocks or a word ("touch", "self", "area_self"; "instant", "permanent", ...).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum IntOrWord {
    Int(i64),
    Word(String),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spell {
    pub index: usize,
    pub key: String,
    pub number: i64,
    pub en: String,
    pub hu: String,
    pub level: i64,
    #[serde(rename = "type")]
    pub type_: String,
    pub range: IntOrWord,
    pub target: String,
    pub strength: i64,
    pub resistance: String,
    pub duration: IntOrWord,
    pub harmful: bool,
    pub params: Map<String, Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Trap {
    pub number: i64,
    pub en: String,
    pub hu: String,
    pub kind: String,
    pub cost: i64,
    pub params: Map<String, Value>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Man {
    pub step_pool: i64,
    pub per_character: i64,
    pub gladiator: i64,
    pub strategist: i64,
    pub zombie_per_round: i64,
    pub madness_per_step: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Costs {
    #[serde(rename = "move")]
    pub move_: i64,
    pub gate: i64,
    pub attack: i64,
    pub weapon_change: i64,
    pub disengage: i64,
    pub pick_up: i64,
    pub drop: i64,
    pub zombie_order: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mode {
    pub quarter_of_seat: Vec<usize>,
    pub step_order: Vec<usize>,
    pub alliances: Vec<Vec<usize>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vial {
    pub count: i64,
    pub per_character: i64,
    pub cost: i64,
    pub strength: i64,
    pub fail_ep: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Potion {
    pub count: i64,
    pub per_character: i64,
    pub cost: i64,
    pub heal: i64,
}

/// The skills' numbers (skills.toml), by skill.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skills {
    pub running: Running,
    pub sneaking: Sneaking,
    pub aiming: Aiming,
    pub dodge: Dodge,
    pub acrobatics: Plain,
    pub weapon_break: Plain,
    pub takedown: Takedown,
    pub golden_bell: Bell,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Running {
    pub name: String,
    pub cost: i64,
    pub fields_per_man: i64,
    pub move_bonus: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sneaking {
    pub name: String,
    pub cost_per_field: i64,
    pub hide_cost: i64,
    pub max_block_distance_to_target: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Aiming {
    pub name: String,
    pub cost: i64,
    pub ce_bonus: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dodge {
    pub name: String,
    pub cost: i64,
    pub deferred: bool,
    pub bonus: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plain {
    pub name: String,
    pub cost: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Takedown {
    pub name: String,
    pub cost: i64,
    pub down_ve: i64,
    pub stand_up_cost: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bell {
    pub name: String,
    pub cost: i64,
    pub sfe_bonus: i64,
}

pub struct Data {
    pub roles: Vec<String>,
    pub role_stats: Vec<RoleStats>,
    /// in the file's order (heavy, sword_artist)
    pub gladiator_types: Vec<GladiatorType>,
    pub ranged_range: Vec<(String, i64)>,
    pub armour_vs_lightning: Vec<(String, bool)>,
    pub stp_ring: i64,
    pub stp_gladiator: i64,
    pub gladiator_keeps_sfe: bool,
    pub zombie_ep_divisor: i64,
    pub zombie_sfe: i64,
    pub zombie_man: i64,
    pub zombie_fields: i64,
    pub heap_sets: Vec<String>,
    /// in the file's order: the heap sets first, then what they drop to
    pub weapons: Vec<Weapon>,
    pub javelin_te: i64,
    pub javelin_range: i64,
    pub net_te: i64,
    pub net_range: i64,
    pub skills: Skills,
    pub spells: Vec<Spell>,
    pub max_level: i64,
    /// by number, ascending
    pub traps: Vec<Trap>,
    pub n_trap_cards: i64,
    pub ranged_traps: Vec<i64>,
    pub direct_traps: Vec<i64>,
    pub kitoro: i64,
    pub traps_per_hand: i64,
    pub discs_per_hand: i64,
    pub disc_pool: Vec<i64>,
    pub amulets: Vec<String>,
    pub resist_values: Vec<i64>,
    pub man: Man,
    pub cost: Costs,
    pub names_per_step: i64,
    pub round_cap: i64,
    /// ffa, pairs
    pub modes: Vec<(String, Mode)>,
    pub vial: Vial,
    pub potion: Potion,
}

pub static DATA: LazyLock<Data> = LazyLock::new(load);

pub fn data() -> &'static Data {
    &DATA
}

fn parse(name: &str, text: &str) -> Table {
    text.parse().unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn at<'a>(t: &'a Table, name: &str, path: &str) -> &'a toml::Value {
    let mut parts = path.split('.');
    let mut cur = t.get(parts.next().unwrap()).unwrap_or_else(|| panic!("{name}: no {path}"));
    for p in parts {
        cur = cur.get(p).unwrap_or_else(|| panic!("{name}: no {path}"));
    }
    cur
}

fn typed<T: DeserializeOwned>(t: &Table, name: &str, path: &str) -> T {
    at(t, name, path).clone().try_into().unwrap_or_else(|e| panic!("{name}: {path}: {e}"))
}

/// A table's entries in the file's order, each read as T.
fn entries<T: DeserializeOwned>(t: &Table, name: &str, path: &str) -> Vec<(String, T)> {
    let table = at(t, name, path).as_table().unwrap_or_else(|| panic!("{name}: {path} is not a table"));
    table
        .iter()
        .map(|(k, v)| (k.clone(), v.clone().try_into().unwrap_or_else(|e| panic!("{name}: {path}.{k}: {e}"))))
        .collect()
}

fn json(v: &toml::Value) -> Value {
    serde_json::to_value(v).expect("TOML values are JSON values")
}

/// The record's own numbers: every key but the base ones.
fn params(rec: &toml::Table, base: &[&str]) -> Map<String, Value> {
    rec.iter().filter(|(k, _)| !base.contains(&k.as_str())).map(|(k, v)| (k.clone(), json(v))).collect()
}

fn load() -> Data {
    let ch = parse("characters.toml", CHARACTERS);
    let wp = parse("weapons.toml", WEAPONS);
    let sk = parse("skills.toml", SKILLS);
    let sp = parse("spells.toml", SPELLS);
    let tr = parse("traps.toml", TRAPS);
    let su = parse("setup.toml", SETUP);
    let mo = parse("modes.toml", MODES);
    let op = parse("optional.toml", OPTIONAL);
    let c = "characters.toml";
    let roles: Vec<String> = typed(&ch, c, "roles");
    let role_stats: Vec<RoleStats> = roles
        .iter()
        .map(|r| {
            let mut s: RoleStats = typed(&ch, c, &format!("role.{r}"));
            s.code = r.clone();
            s
        })
        .collect();
    let gladiator_types = entries::<GladiatorType>(&ch, c, "gladiator")
        .into_iter()
        .map(|(k, mut g)| {
            g.key = k;
            g
        })
        .collect();
    let ranged_range = entries::<Table>(&ch, c, "ranged")
        .into_iter()
        .map(|(k, v)| (k, v["range"].as_integer().expect("characters.toml: a range")))
        .collect();
    let armour_vs_lightning = entries::<Table>(&ch, c, "armour")
        .into_iter()
        .map(|(k, v)| (k, v["lightning"].as_bool().expect("characters.toml: lightning")))
        .collect();
    let w = "weapons.toml";
    let weapons = entries::<Weapon>(&wp, w, "weapon")
        .into_iter()
        .map(|(k, mut x)| {
            x.key = k;
            x
        })
        .collect();
    const SPELL_BASE: [&str; 12] = [
        "key",
        "number",
        "en",
        "hu",
        "level",
        "type",
        "range",
        "target",
        "strength",
        "resistance",
        "duration",
        "harmful",
    ];
    let spells: Vec<Spell> = at(&sp, "spells.toml", "spell")
        .as_array()
        .expect("spells.toml: [[spell]]")
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let t = v.as_table().expect("spells.toml: a spell is a table");
            let base: SpellBase = v.clone().try_into().unwrap_or_else(|e| panic!("spells.toml: spell {i}: {e}"));
            Spell {
                index: i,
                key: base.key,
                number: base.number,
                en: base.en,
                hu: base.hu,
                level: base.level,
                type_: base.type_,
                range: base.range,
                target: base.target,
                strength: base.strength,
                resistance: base.resistance,
                duration: base.duration,
                harmful: base.harmful,
                params: params(t, &SPELL_BASE),
            }
        })
        .collect();
    let max_level = spells.iter().map(|s| s.level).max().unwrap_or(0);
    let mut traps: Vec<Trap> = at(&tr, "traps.toml", "trap")
        .as_array()
        .expect("traps.toml: [[trap]]")
        .iter()
        .map(|v| {
            let t = v.as_table().expect("traps.toml: a trap is a table");
            let s = |k: &str| t[k].as_str().unwrap_or_else(|| panic!("traps.toml: {k}")).to_string();
            let n = |k: &str| t[k].as_integer().unwrap_or_else(|| panic!("traps.toml: {k}"));
            Trap {
                number: n("number"),
                en: s("en"),
                hu: s("hu"),
                kind: s("kind"),
                cost: n("cost"),
                params: params(t, &["number", "en", "hu", "kind", "cost"]),
            }
        })
        .collect();
    traps.sort_by_key(|t| t.number);
    let ranged_traps = traps.iter().filter(|t| t.kind == "ranged").map(|t| t.number).collect();
    let direct_traps = traps.iter().filter(|t| t.kind == "direct").map(|t| t.number).collect();
    let kitoro = traps
        .iter()
        .find(|t| t.params.get("works_in_c").and_then(Value::as_bool).unwrap_or(false))
        .expect("traps.toml: the trap that works in C")
        .number;
    let s = "setup.toml";
    Data {
        roles,
        role_stats,
        gladiator_types,
        ranged_range,
        armour_vs_lightning,
        stp_ring: typed(&ch, c, "stp.ring_threshold"),
        stp_gladiator: typed(&ch, c, "stp.gladiator_threshold"),
        gladiator_keeps_sfe: typed(&ch, c, "stp.gladiator_keeps_sfe"),
        zombie_ep_divisor: typed(&ch, c, "zombie.ep_divisor"),
        zombie_sfe: typed(&ch, c, "zombie.sfe"),
        zombie_man: typed(&ch, c, "zombie.man_per_round"),
        zombie_fields: typed(&ch, c, "zombie.fields_per_round"),
        heap_sets: typed(&wp, w, "heap_sets"),
        weapons,
        javelin_te: typed(&wp, w, "thrown.javelin.te"),
        javelin_range: typed(&wp, w, "thrown.javelin.range"),
        net_te: typed(&wp, w, "thrown.net.te"),
        net_range: typed(&wp, w, "thrown.net.range"),
        skills: toml::Value::Table(sk).try_into().unwrap_or_else(|e| panic!("skills.toml: {e}")),
        spells,
        max_level,
        traps,
        n_trap_cards: typed(&su, s, "hands.trap_cards"),
        ranged_traps,
        direct_traps,
        kitoro,
        traps_per_hand: typed(&su, s, "hands.traps"),
        discs_per_hand: typed(&su, s, "hands.discs"),
        disc_pool: typed(&su, s, "discs.per_level"),
        amulets: typed(&su, s, "amulets.kinds"),
        resist_values: typed(&su, s, "resistance.values"),
        man: typed(&su, s, "man"),
        cost: typed(&su, s, "costs"),
        names_per_step: typed(&su, s, "names.per_step"),
        round_cap: typed(&su, s, "game.round_cap"),
        modes: mo
            .iter()
            .map(|(k, v)| (k.clone(), v.clone().try_into().unwrap_or_else(|e| panic!("modes.toml: {k}: {e}"))))
            .collect(),
        vial: typed(&op, "optional.toml", "poison_vial"),
        potion: typed(&op, "optional.toml", "magic_potion"),
    }
}

#[derive(Deserialize)]
struct SpellBase {
    key: String,
    number: i64,
    en: String,
    hu: String,
    level: i64,
    #[serde(rename = "type")]
    type_: String,
    range: IntOrWord,
    target: String,
    strength: i64,
    resistance: String,
    duration: IntOrWord,
    harmful: bool,
}

impl Data {
    pub fn role_index(&self, code: &str) -> Option<usize> {
        self.roles.iter().position(|r| r == code)
    }

    pub fn spell(&self, key: &str) -> Option<&Spell> {
        self.spells.iter().find(|s| s.key == key)
    }

    pub fn trap(&self, number: i64) -> Option<&Trap> {
        self.traps.iter().find(|t| t.number == number)
    }

    pub fn weapon(&self, key: &str) -> Option<&Weapon> {
        self.weapons.iter().find(|w| w.key == key)
    }

    pub fn gladiator_type(&self, key: &str) -> Option<&GladiatorType> {
        self.gladiator_types.iter().find(|g| g.key == key)
    }

    /// 'agl', 'bxb', ... for fighters; 'z' + the body's name for a zombie (Python `char_name`).
    pub fn char_name(&self, cid: usize, players: usize) -> String {
        let zombie = cid >= 5 * players;
        let base = if zombie { cid - 5 * players } else { cid };
        let letter = LETTERS.as_bytes()[base / 5] as char;
        let name = format!("{letter}{}", self.roles[base % 5]);
        if zombie {
            format!("z{name}")
        } else {
            name
        }
    }
}
