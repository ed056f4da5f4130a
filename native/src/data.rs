//! Zavandor's data tables, read once from the game package's data/zavandor.toml (the same file the
//! Python engine reads), into flat index-based tables. Indices as in the Python `data.py`: gems 0..4,
//! card colours 0..3, tracks 0..5, characters 0..5, artifacts 0..11, sentinels 0..8 (items 12..20).

use std::sync::LazyLock;
use toml::{Table, Value};

const RAW: &str = include_str!("../../grimoire/games/zavandor/data/zavandor.toml");
const ACTIONS_TXT: &str = include_str!("../../grimoire/games/zavandor/data/actions.txt");

pub const OPAL: usize = 0;
pub const SAPPHIRE: usize = 1;
pub const EMERALD: usize = 2;
pub const DIAMOND: usize = 3;
pub const RUBY: usize = 4;
pub const BLUE: usize = 0;
pub const GREEN: usize = 1;
pub const WHITE: usize = 2;
pub const RED: usize = 3;
pub const GEMS_T: usize = 0;
pub const FLOW: usize = 1;
pub const FIRE: usize = 2;
pub const SAGES: usize = 3;
pub const ARTS_T: usize = 4;
pub const ACCUM: usize = 5;
pub const DRUID: usize = 2;
pub const FAIRY: usize = 3;
pub const SPELLBOOK: usize = 0;
pub const PROTECTION: usize = 5;
pub const ELIXIR: usize = 6;
pub const MASK: usize = 7;
pub const CHALICE: usize = 9;
pub const N_ART: usize = 12;
pub const N_ITEMS: usize = 21;
/// Card codes are value * 4 + colour; the largest value is below this.
pub const MAX_CODE: usize = 80;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bonus {
    Types,
    Level4,
    Active,
    Arts,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    Leader,
    SelfVp,
    Never,
}

pub struct Data {
    pub min_players: usize,
    pub max_players: usize,
    pub turn_action_limit: i64,
    pub gems: Vec<String>,
    pub gem_supply: [i64; 5],
    pub gem_vp: [i64; 5],
    pub gem_cost: [[i64; 5]; 5], // [gem][gems level]
    pub gem_sale: [[i64; 5]; 5],
    pub max_rubies: i64,
    pub ruby_fire_level: i64,
    pub druid_ruby_fire_level: i64,
    pub colours: Vec<String>,
    pub card_min: [i64; 4],
    pub card_max: [i64; 4],
    pub card_copies: [Vec<i64>; 4],
    pub card_avg: [f64; 4],
    pub conc_value: [i64; 4],
    pub conc_units: i64,
    pub conc_group: i64,
    pub conc_dust: i64,
    pub dust_denoms: [i64; 3],
    pub dust_units: [i64; 3],
    pub card_units: i64,
    pub opal_per_three: i64,
    pub opal_remainder: [i64; 3],
    pub tracks: Vec<String>,
    pub track_names: Vec<String>,
    pub track_cost: [[i64; 4]; 6],
    pub hand_entry: [i64; 6],
    pub level4_vp: i64,
    pub max_level: i64,
    pub flow_dust: [i64; 5],
    pub art_discount: [i64; 5],
    pub sent_discount: [i64; 5],
    pub extra_slots: [i64; 5],
    pub sages_colour: [usize; 4],
    pub sages_cards: usize,
    pub token_prices: [i64; 5],
    pub base_hand_limit: i64,
    pub base_slots: i64,
    pub characters: Vec<String>,
    pub char_track: [usize; 6],
    pub char_dust: [i64; 6],
    pub starting_gems: [i64; 5],
    pub items: Vec<String>,
    pub item_names: Vec<String>,
    pub art_letter: [usize; 12],
    pub letters: Vec<String>,
    pub item_min_bid: [i64; N_ITEMS],
    pub art_vp: [i64; 12],
    pub art_copies: [i64; 7],
    pub free_advances: [i64; 12],
    pub one_per_player: [bool; 12],
    pub art_slots: [i64; 12],
    pub art_hand_limit: [i64; 12],
    pub gem_loss: [bool; 12],
    pub free_gem: [i64; 12],
    pub income_cards: [i64; 12],
    pub art_discounts: [Vec<(usize, i64)>; 12],
    pub mask_sent_discount: i64,
    pub sent_base_vp: i64,
    pub sent_end: i64,
    pub sent_bonus: Vec<(Bonus, Vec<usize>, i64, i64)>,
    pub vp_threshold: i64,
    pub order_cards: Vec<(i64, i64, Cond)>,
    pub roman: Vec<String>,
    /// the action table (data/actions.txt): the fixed texts and, per relative bid line, (id, offset)
    pub action_texts: Vec<Option<String>>,
    pub bid_offsets: Vec<(usize, i64)>,
}

fn get<'a>(t: &'a Table, path: &str) -> &'a Value {
    let mut cur: &Value = t.get(path.split('.').next().unwrap()).unwrap_or_else(|| panic!("zavandor.toml: {path}"));
    for part in path.split('.').skip(1) {
        cur = cur.get(part).unwrap_or_else(|| panic!("zavandor.toml: {path}"));
    }
    cur
}

fn int(v: &Value) -> i64 {
    v.as_integer().expect("zavandor.toml: a number")
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array().expect("zavandor.toml: a list").iter().map(int).collect()
}

fn strs(v: &Value) -> Vec<String> {
    v.as_array().expect("zavandor.toml: a list").iter().map(|x| x.as_str().unwrap().to_string()).collect()
}

fn arr<const N: usize>(v: Vec<i64>) -> [i64; N] {
    v.try_into().expect("zavandor.toml: a list of the wrong length")
}

fn per_kind(t: &Table, path: &str, arts: &[String]) -> [i64; 12] {
    let m = get(t, path).as_table().unwrap();
    let mut out = [0; 12];
    for (k, v) in m {
        out[arts.iter().position(|a| a == k).unwrap()] = int(v);
    }
    out
}

fn load() -> Data {
    let t: Table = RAW.parse().expect("zavandor.toml parses");
    let gems = strs(get(&t, "gems.order"));
    let cost_rows: Vec<[i64; 5]> = get(&t, "gems.cost").as_array().unwrap().iter().map(|r| arr(ints(r))).collect();
    let gem_cost: [[i64; 5]; 5] = cost_rows.try_into().unwrap();
    let mut gem_sale = [[0; 5]; 5];
    for g in 0..5 {
        for l in 0..5 {
            gem_sale[g][l] = gem_cost[g][l].div_euclid(2);
        }
    }
    let colours = strs(get(&t, "cards.colours"));
    let mut card_min = [0; 4];
    let mut card_max = [0; 4];
    let mut card_avg = [0.0; 4];
    let mut card_copies: [Vec<i64>; 4] = Default::default();
    for (c, name) in colours.iter().enumerate() {
        let rows = get(&t, &format!("cards.{name}")).as_array().unwrap();
        let vals: Vec<(i64, i64)> = rows.iter().map(|r| (int(&r[0]), int(&r[1]))).collect();
        card_min[c] = vals[0].0;
        card_max[c] = vals[vals.len() - 1].0;
        for (i, (v, _)) in vals.iter().enumerate() {
            assert_eq!(*v, card_min[c] + i as i64, "card values must be contiguous");
        }
        card_copies[c] = vals.iter().map(|x| x.1).collect();
        let total: i64 = card_copies[c].iter().sum();
        // the same floating-point sum as the Python data module (value * copies, in order)
        let mut s = 0i64;
        for (v, n) in &vals {
            s += v * n;
        }
        card_avg[c] = s as f64 / total as f64;
    }
    let tracks = strs(get(&t, "tracks.order"));
    let tc: Vec<[i64; 4]> = get(&t, "tracks.cost").as_array().unwrap().iter().map(|r| arr(ints(r))).collect();
    let sages_colour: Vec<usize> =
        strs(get(&t, "tracks.sages_colour")).iter().map(|c| colours.iter().position(|x| x == c).unwrap()).collect();
    let characters = strs(get(&t, "characters.order"));
    let char_track: Vec<usize> =
        strs(get(&t, "characters.track")).iter().map(|x| tracks.iter().position(|y| y == x).unwrap()).collect();
    let arts = strs(get(&t, "artifacts.order"));
    let letters = strs(get(&t, "artifacts.letters"));
    let art_letter: Vec<usize> =
        strs(get(&t, "artifacts.deck")).iter().map(|x| letters.iter().position(|y| y == x).unwrap()).collect();
    let art_min: Vec<i64> = ints(get(&t, "artifacts.min_bid"));
    let sents = strs(get(&t, "sentinels.order"));
    let sent_min = int(get(&t, "sentinels.min_bid"));
    let mut item_min_bid = [0; N_ITEMS];
    for i in 0..N_ITEMS {
        item_min_bid[i] = if i < N_ART { art_min[i] } else { sent_min };
    }
    let mut items = arts.clone();
    items.extend(sents.iter().cloned());
    let mut item_names = strs(get(&t, "artifacts.names"));
    item_names.extend(strs(get(&t, "sentinels.names")));
    let idx = |name: &str| arts.iter().position(|a| a == name).unwrap();
    let mut one_per_player = [false; 12];
    for k in strs(get(&t, "artifacts.one_per_player")) {
        one_per_player[idx(&k)] = true;
    }
    let mut gem_loss = [false; 12];
    for k in strs(get(&t, "artifacts.gem_loss")) {
        gem_loss[idx(&k)] = true;
    }
    let mut free_gem = [-1; 12];
    for (k, v) in get(&t, "artifacts.free_gem").as_table().unwrap() {
        free_gem[idx(k)] = gems.iter().position(|g| g == v.as_str().unwrap()).unwrap() as i64;
    }
    let mut income_cards = [-1; 12];
    for (k, v) in get(&t, "artifacts.income_cards").as_table().unwrap() {
        income_cards[idx(k)] = colours.iter().position(|g| g == v.as_str().unwrap()).unwrap() as i64;
    }
    let mut art_discounts: [Vec<(usize, i64)>; 12] = Default::default();
    for d in get(&t, "artifacts.discounts").as_array().unwrap() {
        let d = d.as_array().unwrap();
        art_discounts[idx(d[1].as_str().unwrap())].push((idx(d[0].as_str().unwrap()), int(&d[2])));
    }
    let mut sent_bonus = Vec::new();
    for name in &sents {
        let spec = get(&t, &format!("sentinels.{name}")).as_array().unwrap();
        let what = spec[0].as_str().unwrap();
        let (per, cap) = (int(&spec[1]), int(&spec[2]));
        let b = if what == "gem_types" {
            (Bonus::Types, vec![], per, cap)
        } else if what == "level4_tracks" {
            (Bonus::Level4, vec![], per, cap)
        } else {
            let (kind, names) = what.split_once(':').unwrap();
            let list: Vec<&str> = names.split(',').collect();
            if kind == "active" {
                (Bonus::Active, list.iter().map(|n| gems.iter().position(|g| g == n).unwrap()).collect(), per, cap)
            } else {
                assert_eq!(kind, "artifacts");
                (Bonus::Arts, list.iter().map(|n| idx(n)).collect(), per, cap)
            }
        };
        sent_bonus.push(b);
    }
    let order_cards = get(&t, "turn_order.cards")
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let cond = match c[2].as_str().unwrap() {
                "leader" => Cond::Leader,
                "self" => Cond::SelfVp,
                _ => Cond::Never,
            };
            (int(&c[0]), int(&c[1]), cond)
        })
        .collect();
    // the action table: one text per line, '#' comments and blank lines ignored
    let mut action_texts = Vec::new();
    let mut bid_offsets = Vec::new();
    for line in ACTIONS_TXT.lines() {
        let line = line.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let norm = line.split_whitespace().collect::<Vec<_>>().join(" ");
        if let Some(d) = norm.strip_prefix("bid lowest+") {
            bid_offsets.push((action_texts.len(), d.parse::<i64>().unwrap()));
            action_texts.push(None);
        } else {
            action_texts.push(Some(norm));
        }
    }
    Data {
        min_players: int(get(&t, "players.min")) as usize,
        max_players: int(get(&t, "players.max")) as usize,
        turn_action_limit: int(get(&t, "limits.turn_action_limit")),
        gem_supply: arr(ints(get(&t, "gems.supply"))),
        gem_vp: arr(ints(get(&t, "gems.vp"))),
        gem_cost,
        gem_sale,
        max_rubies: int(get(&t, "gems.max_rubies")),
        ruby_fire_level: int(get(&t, "gems.ruby_needs_fire_level")),
        druid_ruby_fire_level: int(get(&t, "gems.druid_ruby_fire_level")),
        gems,
        card_min,
        card_max,
        card_copies,
        card_avg,
        conc_value: arr(ints(get(&t, "concentrated.value"))),
        conc_units: int(get(&t, "concentrated.units")),
        conc_group: int(get(&t, "concentrated.group")),
        conc_dust: int(get(&t, "concentrated.bonus_dust")),
        dust_denoms: arr(ints(get(&t, "dust.denominations"))),
        dust_units: arr(ints(get(&t, "dust.units"))),
        card_units: int(get(&t, "dust.card_units")),
        opal_per_three: int(get(&t, "dust.opal_per_three")),
        opal_remainder: arr(ints(get(&t, "dust.opal_remainder"))),
        track_names: strs(get(&t, "tracks.names")),
        track_cost: tc.try_into().unwrap(),
        hand_entry: arr(ints(get(&t, "tracks.hand_limit_entry"))),
        level4_vp: int(get(&t, "tracks.level4_vp")),
        max_level: int(get(&t, "tracks.max_level")),
        flow_dust: arr(ints(get(&t, "tracks.flow_dust"))),
        art_discount: arr(ints(get(&t, "tracks.artifact_discount"))),
        sent_discount: arr(ints(get(&t, "tracks.sentinel_discount"))),
        extra_slots: arr(ints(get(&t, "tracks.extra_slots"))),
        sages_colour: sages_colour.try_into().unwrap(),
        sages_cards: int(get(&t, "tracks.sages_cards")) as usize,
        tracks,
        colours,
        token_prices: arr(ints(get(&t, "tokens.prices"))),
        base_hand_limit: int(get(&t, "base.hand_limit")),
        base_slots: int(get(&t, "base.slots")),
        characters,
        char_track: char_track.try_into().unwrap(),
        char_dust: arr(ints(get(&t, "characters.dust"))),
        starting_gems: arr(ints(get(&t, "characters.starting_gems"))),
        items,
        item_names,
        art_letter: art_letter.try_into().unwrap(),
        letters,
        item_min_bid,
        art_vp: arr(ints(get(&t, "artifacts.vp"))),
        art_copies: arr(ints(get(&t, "artifacts.copies"))),
        free_advances: per_kind(&t, "artifacts.free_advances", &arts),
        one_per_player,
        art_slots: per_kind(&t, "artifacts.slots", &arts),
        art_hand_limit: per_kind(&t, "artifacts.hand_limit", &arts),
        gem_loss,
        free_gem,
        income_cards,
        art_discounts,
        mask_sent_discount: int(get(&t, "artifacts.mask_sentinel_discount")),
        sent_base_vp: int(get(&t, "sentinels.base_vp")),
        sent_end: int(get(&t, "sentinels.end_after_sold")),
        sent_bonus,
        vp_threshold: int(get(&t, "turn_order.threshold")),
        order_cards,
        roman: strs(get(&t, "turn_order.roman")),
        action_texts,
        bid_offsets,
    }
}

pub static DATA: LazyLock<Data> = LazyLock::new(load);

#[inline]
pub fn data() -> &'static Data {
    &DATA
}
