//! The action ids: the package's table `data/actions.txt` (one action text per line, id = position
//! among the texts, '#' comments ignored: Python `core.codec.load_action_table`), compiled in. The
//! listing picks ids out of tables indexed by numbers (role, direction, figure, field), built once
//! per player count from the texts as the Python `acttab.py` builds its tables of actions, so no
//! text is formatted while listing.

use crate::board::board;
use crate::data::{data, GL, WL};
use std::collections::HashMap;
use std::sync::LazyLock;

const RAW: &str = include_str!("../../data/actions.txt");

/// No such action (e.g. a gladiator's zombie, which cannot exist).
pub const NONE: u32 = u32::MAX;

pub struct Table {
    pub texts: Vec<String>,
    pub ids: HashMap<String, u32>,
}

impl Table {
    pub fn len(&self) -> usize {
        self.texts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }

    /// The id of a text, or NONE.
    pub fn id(&self, text: &str) -> u32 {
        self.ids.get(text).copied().unwrap_or(NONE)
    }

    /// The id of a text that must be in the table.
    pub fn get(&self, text: &str) -> u32 {
        match self.ids.get(text) {
            Some(&i) => i,
            None => panic!("{text:?} is not in data/actions.txt"),
        }
    }

    pub fn text(&self, id: u32) -> &str {
        &self.texts[id as usize]
    }
}

fn load() -> Table {
    let mut texts = Vec::new();
    for line in RAW.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if !line.is_empty() {
            texts.push(line.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
    let ids = texts.iter().enumerate().map(|(i, t)| (t.clone(), i as u32)).collect();
    Table { texts, ids }
}

pub static TABLE: LazyLock<Table> = LazyLock::new(load);

pub fn table() -> &'static Table {
    &TABLE
}

pub const MODES: [&str; 3] = ["move", "sneak", "disengage"];
pub const VERBS: [&str; 5] = ["hide", "run", "aim", "coat", "drink"];
pub const GL_VERBS: [&str; 4] = ["drop", "pickup", "stand", "bell"];
pub const SKILLS: [&str; 2] = ["break", "takedown"];
pub const THROWS: [&str; 2] = ["javelin", "net"];

/// The ids that do not depend on the player count (Python `acttab`'s MOVE, VERB, GATE, GL_VERB,
/// WIELD, CAST_SELF, CLOUD, `area_casts`, and the fixed answers of the other decisions).
pub struct Fixed {
    /// [role][mode][direction]
    pub moves: Vec<[[u32; 6]; 3]>,
    /// [role][verb]
    pub verbs: Vec<[u32; 5]>,
    /// [role][gate] -> (open, close)
    pub gates: Vec<Vec<(u32, u32)>>,
    pub gl_verbs: [u32; 4],
    /// by heap set
    pub wield: Vec<u32>,
    /// by spell index: `wl cast <key>` (NONE unless the spell targets the warlock himself)
    pub cast_self: Vec<u32>,
    /// by spell index, then field: `wl cast <key> <q,r>` (empty unless an area spell)
    pub cast_area: Vec<Vec<u32>>,
    /// [k - 1][direction]
    pub cloud: Vec<[u32; 6]>,
    pub end: u32,
    pub pass: u32,
    pub pass_all: u32,
    pub dodge: u32,
    pub no_dodge: u32,
    pub no_push: u32,
    pub chain_stop: u32,
    pub first: u32,
    pub side: Vec<u32>,
    pub push: [u32; 6],
    pub shove: [u32; 6],
    /// by trap number (direct traps: `trap <n>`; NONE for the others)
    pub direct_trap: Vec<u32>,
    /// by field: `order goto <q,r>`, `order guard <q,r>`
    pub order_goto: Vec<u32>,
    pub order_guard: Vec<u32>,
    /// by gate: `order guard <gate>`
    pub order_gate: Vec<u32>,
    /// by heap set: `weapon <key>`
    pub weapon: Vec<u32>,
    /// [role][field]: `deploy <role> <q,r>` (NONE where no such text)
    pub deploy: Vec<Vec<u32>>,
    /// the ids of the secret setup choices, by kind (traps amulets resist vials potions), in id order
    pub setup: [Vec<u32>; 5],
}

pub const SETUP_HEADS: [&str; 5] = ["traps", "amulets", "resist", "vials", "potions"];

fn build_fixed() -> Fixed {
    let (t, b, d) = (table(), board(), data());
    let dirs = &b.dirs;
    let roles = &d.roles;
    let nf = b.n_fields();
    let moves = roles
        .iter()
        .map(|r| {
            let mut m = [[NONE; 6]; 3];
            for (mi, mode) in MODES.iter().enumerate() {
                for (di, dn) in dirs.iter().enumerate() {
                    m[mi][di] = t.get(&format!("{r} {mode} {dn}"));
                }
            }
            m
        })
        .collect();
    let verbs = roles.iter().map(|r| VERBS.map(|v| t.get(&format!("{r} {v}")))).collect();
    let gates = roles
        .iter()
        .map(|r| {
            b.gates
                .iter()
                .map(|g| (t.get(&format!("{r} open {}", g.id)), t.get(&format!("{r} close {}", g.id))))
                .collect()
        })
        .collect();
    let cast_self = d
        .spells
        .iter()
        .map(|sp| if sp.target == "self" { t.get(&format!("wl cast {}", sp.key)) } else { NONE })
        .collect();
    let cast_area = d
        .spells
        .iter()
        .map(|sp| {
            if sp.target == "area" {
                (0..nf).map(|f| t.get(&format!("wl cast {} {}", sp.key, b.field_name(f)))).collect()
            } else {
                Vec::new()
            }
        })
        .collect();
    let cloud = (1..=d.discs_per_hand)
        .map(|k| core::array::from_fn(|di| t.get(&format!("wl cloud {k} {}", dirs[di]))))
        .collect();
    let n_traps = d.traps.iter().map(|x| x.number).max().unwrap_or(0) as usize;
    let mut direct_trap = vec![NONE; n_traps + 1];
    for &n in &d.direct_traps {
        direct_trap[n as usize] = t.get(&format!("trap {n}"));
    }
    let deploy =
        roles.iter().map(|r| (0..nf).map(|f| t.id(&format!("deploy {r} {}", b.field_name(f)))).collect()).collect();
    let mut setup: [Vec<u32>; 5] = Default::default();
    for (i, text) in t.texts.iter().enumerate() {
        let head = text.split(' ').next().unwrap_or("");
        if let Some(k) = SETUP_HEADS.iter().position(|h| *h == head) {
            setup[k].push(i as u32);
        }
    }
    Fixed {
        moves,
        verbs,
        gates,
        gl_verbs: GL_VERBS.map(|v| t.get(&format!("{} {v}", roles[GL]))),
        wield: d.heap_sets.iter().map(|k| t.get(&format!("{} wield {k}", roles[GL]))).collect(),
        cast_self,
        cast_area,
        cloud,
        end: t.get("end"),
        pass: t.get("pass"),
        pass_all: t.get("pass all"),
        dodge: t.get("dodge"),
        no_dodge: t.get("no dodge"),
        no_push: t.get("no push"),
        chain_stop: t.get("chain stop"),
        first: t.get("first"),
        side: (0..b.n_halves).map(|k| t.get(&format!("side {k}"))).collect(),
        push: core::array::from_fn(|di| t.get(&format!("push {}", dirs[di]))),
        shove: core::array::from_fn(|di| t.get(&format!("shove {}", dirs[di]))),
        direct_trap,
        order_goto: (0..nf).map(|f| t.get(&format!("order goto {}", b.field_name(f)))).collect(),
        order_guard: (0..nf).map(|f| t.get(&format!("order guard {}", b.field_name(f)))).collect(),
        order_gate: b.gates.iter().map(|g| t.get(&format!("order guard {}", g.id))).collect(),
        weapon: d.heap_sets.iter().map(|k| t.get(&format!("weapon {k}"))).collect(),
        deploy,
        setup,
    }
}

pub static FIXED: LazyLock<Fixed> = LazyLock::new(build_fixed);

pub fn fixed() -> &'static Fixed {
    &FIXED
}

/// The ids that name a figure, by figure id, for one player count (Python `acttab.Targeted`).
pub struct Targeted {
    pub players: usize,
    /// by figure id
    pub names: Vec<String>,
    /// [role][figure]
    pub attack: Vec<Vec<u32>>,
    /// [break, takedown][figure]
    pub skill: [Vec<u32>; 2],
    /// [role][figure] (NONE for the roles without a ranged weapon)
    pub shoot: Vec<Vec<u32>>,
    /// [javelin, net][figure]
    pub throw: [Vec<u32>; 2],
    /// [spell index][figure] (NONE unless the spell targets a figure, a chain or a corpse)
    pub cast: Vec<Vec<u32>>,
    pub order: Vec<u32>,
    /// [trap number][figure] (the ranged traps and Kitoro)
    pub trap: Vec<Vec<u32>>,
    pub chain: Vec<u32>,
    pub enemy: Vec<u32>,
    pub order_attack: Vec<u32>,
}

fn build_targeted(players: usize) -> Targeted {
    let (t, d) = (table(), data());
    let names: Vec<String> = (0..10 * players).map(|i| d.char_name(i, players)).collect();
    let row = |fmt: &dyn Fn(&str) -> String| -> Vec<u32> { names.iter().map(|n| t.id(&fmt(n))).collect() };
    let roles = &d.roles;
    let attack = roles.iter().map(|r| row(&|n| format!("{r} attack {n}"))).collect();
    let skill = SKILLS.map(|k| row(&|n| format!("{} attack {n} {k}", roles[GL])));
    let shoot = roles.iter().map(|r| row(&|n| format!("{r} shoot {n}"))).collect();
    let throw = THROWS.map(|w| row(&|n| format!("{} {w} {n}", roles[GL])));
    let cast = d
        .spells
        .iter()
        .map(|sp| {
            if matches!(sp.target.as_str(), "char" | "chain" | "corpse") {
                row(&|n| format!("{} cast {} {n}", roles[WL], sp.key))
            } else {
                vec![NONE; names.len()]
            }
        })
        .collect();
    let n_traps = d.traps.iter().map(|x| x.number).max().unwrap_or(0) as usize;
    let mut trap = vec![vec![NONE; names.len()]; n_traps + 1];
    for &n in d.ranged_traps.iter().chain(std::iter::once(&d.kitoro)) {
        trap[n as usize] = row(&|x| format!("trap {n} {x}"));
    }
    Targeted {
        players,
        attack,
        skill,
        shoot,
        throw,
        cast,
        order: row(&|n| format!("{} order {n}", roles[WL])),
        trap,
        chain: row(&|n| format!("chain {n}")),
        enemy: row(&|n| format!("enemy {n}")),
        order_attack: row(&|n| format!("order attack {n}")),
        names,
    }
}

pub static TARGETED: LazyLock<[Targeted; 2]> = LazyLock::new(|| [build_targeted(2), build_targeted(4)]);

/// The figure-naming ids for a game of `players` (2 or 4).
pub fn targeted(players: usize) -> &'static Targeted {
    &TARGETED[usize::from(players == 4)]
}
