//! Factored payments and discards, one item at a time (the Python `factored.py`): 'give <item>'
//! hands one card, concentrated card or dust amount toward the open purchase (its value joins the
//! tab's credit), 'drop <item>' discards one card at the hand limit and 'keep d<v>' returns dust
//! down to v. Legal but not listed (the agents' lists stay as they are); their ids join the mask.
//! Their action code is `XBASE + id` (the id of their line in `actions.txt`).

use std::sync::LazyLock;

use crate::data::*;
use crate::energy::{dust_units, keepable_dust, representable};
use crate::legal::top;
use crate::state::*;

/// One item handed over or discarded: a card code, a concentrated card's colour, or dust (for
/// 'give' the amount handed over, for 'keep' the dust kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    Card(usize),
    Conc(usize),
    Dust(i64),
}

/// The first action code of the factored actions (above every bid code).
pub const XBASE: u32 = 1 << 30;

const LETTERS: &[u8; 4] = b"bgwr";

/// The factored lines of the action table: per id its action, and the ids per item.
pub struct Table {
    pub by_id: Vec<Option<(bool, Item)>>, // (give?, item); false: drop or keep
    pub give_card: [usize; MAX_CODE],
    pub drop_card: [usize; MAX_CODE],
    pub give_conc: [usize; 4],
    pub drop_conc: [usize; 4],
    pub give_dust: Vec<(i64, usize)>,
    pub keep: Vec<usize>, // per dust value kept (usize::MAX: no id)
}

fn parse_item(w: &str) -> Option<Item> {
    if let Some(v) = w.strip_prefix('c') {
        let v: i64 = v.parse().ok()?;
        return data().conc_value.iter().position(|&x| x == v).map(Item::Conc);
    }
    if let Some(v) = w.strip_prefix('d') {
        return v.parse().ok().map(Item::Dust);
    }
    let (digits, letter) = w.split_at(w.len() - 1);
    let colour = LETTERS.iter().position(|&l| l == letter.as_bytes()[0])?;
    Some(Item::Card(digits.parse::<usize>().ok()? * 4 + colour))
}

fn load() -> Table {
    let texts = &data().action_texts;
    let mut t = Table {
        by_id: vec![None; texts.len()],
        give_card: [usize::MAX; MAX_CODE],
        drop_card: [usize::MAX; MAX_CODE],
        give_conc: [usize::MAX; 4],
        drop_conc: [usize::MAX; 4],
        give_dust: Vec::new(),
        keep: Vec::new(),
    };
    for (id, text) in texts.iter().enumerate() {
        let Some(text) = text else { continue };
        let Some((verb, w)) = text.split_once(' ') else { continue };
        if !matches!(verb, "give" | "drop" | "keep") {
            continue;
        }
        let item = parse_item(w).unwrap_or_else(|| panic!("actions.txt: cannot read {text:?}"));
        let give = verb == "give";
        t.by_id[id] = Some((give, item));
        match (give, item) {
            (true, Item::Card(c)) => t.give_card[c] = id,
            (false, Item::Card(c)) => t.drop_card[c] = id,
            (true, Item::Conc(c)) => t.give_conc[c] = id,
            (false, Item::Conc(c)) => t.drop_conc[c] = id,
            (true, Item::Dust(k)) => t.give_dust.push((k, id)),
            (false, Item::Dust(v)) => {
                let v = v as usize;
                if t.keep.len() <= v {
                    t.keep.resize(v + 1, usize::MAX);
                }
                t.keep[v] = id;
            }
        }
    }
    t
}

pub static TABLE: LazyLock<Table> = LazyLock::new(load);

/// The text of a factored item after its verb ("8g", "c40", "d5").
fn item_text(it: Item) -> String {
    match it {
        Item::Card(c) => format!("{}{}", c >> 2, LETTERS[c & 3] as char),
        Item::Conc(c) => format!("c{}", data().conc_value[c]),
        Item::Dust(v) => format!("d{v}"),
    }
}

fn no_card(code: usize, rule: &'static str) -> Why {
    why(format!("you have no {}{} card", code >> 2, LETTERS[code & 3] as char), rule)
}

fn no_conc(c: usize, rule: &'static str) -> Why {
    why(format!("you have no concentrated card of value {}", data().conc_value[c]), rule)
}

impl State {
    pub fn why_not_give(&self, seat: usize, it: Item) -> Why {
        if self.tab_seat != seat as i64 || self.tab_owed == 0 {
            return why("there is nothing to pay now: 'give' hands one item toward an open purchase".into(), "7.6");
        }
        let p = &self.players[seat];
        match it {
            Item::Card(code) if code >= MAX_CODE || p.hand[code] == 0 => no_card(code, "7.6"),
            Item::Conc(c) if p.conc[c] == 0 => no_conc(c, "7.6"),
            Item::Dust(k) if !representable(p.dust - k) => why(
                format!(
                    "{k} dust cannot be handed over from {} (there is no 1-dust: what is left must be 0 or at least 2, never 1 or 3)",
                    p.dust
                ),
                "7.6",
            ),
            _ => None,
        }
    }

    pub fn do_give(&mut self, seat: usize, it: Item) {
        match it {
            Item::Card(code) => {
                self.players[seat].remove_card(code);
                self.discard_cards(&[code]);
                self.tab_credit += (code >> 2) as i64;
            }
            Item::Conc(c) => {
                self.players[seat].conc[c] -= 1;
                self.tab_credit += data().conc_value[c];
            }
            Item::Dust(k) => {
                self.players[seat].dust -= k;
                self.tab_credit += k;
            }
        }
    }

    pub fn why_not_drop(&self, seat: usize, it: Item) -> Why {
        let p = &self.players[seat];
        match it {
            Item::Card(code) if code >= MAX_CODE || p.hand[code] == 0 => no_card(code, "8.1"),
            Item::Conc(c) if p.conc[c] == 0 => no_conc(c, "8.1"),
            Item::Dust(v) => {
                if v >= p.dust {
                    return why(format!("you have {} dust: 'keep' returns some of it", p.dust), "8.1");
                }
                if !representable(v) {
                    return why("there is no 1-dust: keep 0 or at least 2 dust, never 1 or 3".into(), "8.1");
                }
                if self.flags.whole_dust {
                    let keep = keepable_dust(p.dust);
                    if !keep.contains(&v) {
                        let head = keep[..keep.len() - 1].iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ");
                        return why(
                            format!(
                                "your dust is whole tokens: you can keep {head} or {} dust, not {v}",
                                keep[keep.len() - 1]
                            ),
                            "8.1",
                        );
                    }
                }
                let limit = p.hand_limit();
                if dust_units(v) > limit {
                    return why(format!("{v} dust is more than your hand limit of {limit} holds"), "8.1");
                }
                None
            }
            _ => None,
        }
    }

    pub fn do_drop(&mut self, seat: usize, it: Item) {
        match it {
            Item::Card(code) => {
                self.players[seat].remove_card(code);
                self.discard_cards(&[code]);
            }
            Item::Conc(c) => self.players[seat].conc[c] -= 1,
            Item::Dust(v) => self.players[seat].dust = v,
        }
    }

    /// Call `f` with the id of every factored action legal now (in no particular order).
    pub fn factored_ids(&self, mut f: impl FnMut(usize)) {
        if self.over {
            return;
        }
        let (seat, pay) = match top(self) {
            None => (self.active_seat(), true),
            Some(d) if d.kind == Kind::Apay => (d.seat as usize, true),
            Some(d) if d.kind == Kind::Discard && !self.players[d.seat as usize].out => (d.seat as usize, false),
            _ => return,
        };
        let t = &*TABLE;
        let p = &self.players[seat];
        if pay && (self.tab_seat != seat as i64 || self.tab_owed == 0) {
            return;
        }
        let (cards, conc) = if pay { (&t.give_card, &t.give_conc) } else { (&t.drop_card, &t.drop_conc) };
        if p.ncards != 0 {
            for (code, &k) in p.hand.iter().enumerate() {
                if k != 0 {
                    f(cards[code]);
                }
            }
        }
        for c in 0..4 {
            if p.conc[c] != 0 {
                f(conc[c]);
            }
        }
        let d = p.dust;
        if pay {
            for &(k, id) in &t.give_dust {
                if representable(d - k) {
                    f(id);
                }
            }
        } else if d != 0 {
            let limit = p.hand_limit();
            let mut put = |v: i64| {
                if v < d && representable(v) && dust_units(v) <= limit {
                    if let Some(&id) = t.keep.get(v as usize) {
                        if id != usize::MAX {
                            f(id);
                        }
                    }
                }
            };
            if self.flags.whole_dust {
                keepable_dust(d).into_iter().for_each(&mut put);
            } else {
                (0..d.min(t.keep.len() as i64)).for_each(&mut put);
            }
        }
    }
}

/// The factored action of an id (None: not a factored line).
pub fn act_of_id(id: usize) -> Option<(bool, Item)> {
    TABLE.by_id.get(id).copied().flatten()
}

/// The text of a factored action ('give 8g', 'drop c20', 'keep d12').
pub fn text(give: bool, it: Item) -> String {
    let verb = match (give, it) {
        (true, _) => "give",
        (false, Item::Dust(_)) => "keep",
        (false, _) => "drop",
    };
    format!("{verb} {}", item_text(it))
}
