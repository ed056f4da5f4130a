//! The state part of `to_dict()` (everything but game, players, seed, options and history, which the
//! Python wrapper holds) as JSON, and a strict loader: the checks of the Python `serial.load`, so that
//! a damaged save is refused with the same message and nothing the engine reads can be out of range.

use crate::data::*;
use crate::small::Small;
use crate::state::*;
use serde_json::{json, Map, Value};

fn hand_list(h: &[u8]) -> Vec<usize> {
    codes(h.try_into().unwrap())
}

pub fn decision_json(d: &Decision) -> Value {
    let payload = match d.kind {
        Kind::Apay => json!({"item": d.payload}),
        Kind::Free => json!({"left": d.payload}),
        _ => Value::Null,
    };
    json!({"kind": d.kind.name(), "seat": d.seat, "payload": payload})
}

pub fn state_json(s: &State) -> Value {
    let n = s.n;
    let seats: Vec<Value> = s.players[..n]
        .iter()
        .map(|p| {
            json!({
                "char": p.ch, "dust": p.dust, "cards": hand_list(&p.hand), "conc": p.conc,
                "active": p.active, "inactive": p.inactive, "levels": p.levels,
                "tokens": p.tokens.as_slice(), "pentagon": p.pentagon, "arts": p.arts,
                "sents": p.sents.as_slice(), "under_cards": hand_list(&p.under), "under_dust": p.under_dust,
                "vp": p.vp, "advanced": p.advanced, "druid_ruby": p.druid_ruby, "out": p.out,
            })
        })
        .collect();
    let deck_len = |c: usize| data().card_copies[c].len();
    let deck: Vec<&[i64]> = (0..4).map(|c| &s.deck[c][..deck_len(c)]).collect();
    let disc: Vec<&[i64]> = (0..4).map(|c| &s.disc[c][..deck_len(c)]).collect();
    let auc = match s.auc {
        None => Value::Null,
        Some(a) => json!([a.item, a.high, a.high_seat, a.passed]),
    };
    let group = match s.group {
        0 => "".to_string(),
        g => (g as char).to_string(),
    };
    let pending: Vec<Value> = s.pending.iter().rev().map(decision_json).collect();
    let mut m = Map::new();
    m.insert("order".into(), json!(s.order.as_slice()));
    m.insert("card_of".into(), json!(&s.card_of[..n]));
    m.insert("art_mod".into(), json!(&s.art_mod[..n]));
    m.insert("sent_mod".into(), json!(&s.sent_mod[..n]));
    m.insert("round".into(), json!(s.round));
    m.insert("stage".into(), json!(s.stage.name()));
    m.insert("turn_idx".into(), json!(s.turn_idx));
    m.insert("group".into(), json!(group));
    m.insert("groups_done".into(), json!(s.groups_done));
    m.insert("turn_actions".into(), json!(s.turn_actions));
    m.insert("tab_seat".into(), json!(s.tab_seat));
    m.insert("tab_owed".into(), json!(s.tab_owed));
    m.insert("tab_credit".into(), json!(s.tab_credit));
    m.insert("tab_auc".into(), json!(s.tab_auc));
    m.insert("display".into(), json!(s.display.as_slice()));
    m.insert("art_pile".into(), json!(s.art_pile));
    m.insert("sent_avail".into(), json!(s.sent_avail.as_slice()));
    m.insert("sent_sold".into(), json!(s.sent_sold));
    m.insert("gem_supply".into(), json!(s.gem_supply));
    m.insert("deck".into(), json!(deck));
    m.insert("disc".into(), json!(disc));
    m.insert("auc".into(), auc);
    m.insert("revealed".into(), json!(s.revealed));
    m.insert("over".into(), json!(s.over));
    m.insert("winners_".into(), json!(s.winners.as_slice()));
    m.insert("end_reason".into(), json!(s.end_reason));
    m.insert("pending".into(), Value::Array(pending));
    m.insert("seats".into(), Value::Array(seats));
    Value::Object(m)
}

// --- loading --------------------------------------------------------------------------------------
type R<T> = Result<T, String>;

/// Numbers in a saved game beyond this are refused (a real game stays far below it; the Python
/// engine accepts any size).
pub const MAX_LOADED: i64 = 1_000_000;

fn key<'a>(m: &'a Value, k: &str) -> R<&'a Value> {
    match m {
        Value::Object(o) => o.get(k).ok_or_else(|| format!("KeyError: '{k}'")),
        _ => Err("TypeError: expected a mapping".into()),
    }
}

fn int(v: &Value, name: &str, lo: Option<i64>, hi: Option<i64>) -> R<i64> {
    let x = match v {
        Value::Number(num) if num.is_i64() => num.as_i64().unwrap(),
        Value::Number(num) if num.is_u64() => return Err(format!("{name} is too large for the native engine")),
        _ => return Err(format!("{name} must be a whole number")),
    };
    if lo.is_some_and(|l| x < l) || hi.is_some_and(|h| x > h) {
        return Err(format!("{name} = {x} is out of range"));
    }
    if x.abs() > MAX_LOADED {
        return Err(format!("{name} is too large for the native engine"));
    }
    Ok(x)
}

fn list<'a>(v: &'a Value, n: Option<usize>) -> R<&'a Vec<Value>> {
    match v {
        Value::Array(a) if n.is_none_or(|n| a.len() == n) => Ok(a),
        _ => Err("malformed list".into()),
    }
}

fn ints(v: &Value, name: &str, n: Option<usize>, lo: Option<i64>, hi: Option<i64>) -> R<Vec<i64>> {
    let a = match v {
        Value::Array(a) if n.is_none_or(|n| a.len() == n) => a,
        _ => {
            return Err(match n {
                Some(n) => format!("{name} must be a list of {n} numbers"),
                None => format!("{name} must be a list"),
            })
        }
    };
    a.iter().enumerate().map(|(i, x)| int(x, &format!("{name}[{i}]"), lo, hi)).collect()
}

fn boolean(v: &Value, name: &str) -> R<bool> {
    v.as_bool().ok_or_else(|| format!("{name} must be true or false"))
}

fn card(code: i64, name: &str) -> R<usize> {
    let d = data();
    let colour = code.rem_euclid(4) as usize; // Python's & 3 on a non-negative code
    let value = code >> 2;
    if code < 0 || !(d.card_min[colour] <= value && value <= d.card_max[colour]) {
        return Err(format!("{name}: no such energy card"));
    }
    Ok(code as usize)
}

fn fixed<const N: usize>(v: Vec<i64>) -> [i64; N] {
    v.try_into().unwrap()
}

/// A state from the `"state"` part of a saved game (with the RNG state and the rule flags).
pub fn load(n: usize, rng: u64, flags: Flags, st: &Value) -> R<State> {
    let d = data();
    if !(d.min_players..=d.max_players).contains(&n) {
        return Err(format!("players = {n} is out of range"));
    }
    let seats = match key(st, "seats")? {
        Value::Array(a) if a.len() == n => a,
        _ => return Err("one entry per player is needed in 'seats'".into()),
    };
    let mut players = [Player::default(); MAXP];
    for (i, pd) in seats.iter().enumerate() {
        let p = &mut players[i];
        p.seat = i;
        p.ch = int(key(pd, "char")?, "char", Some(0), Some(5))? as usize;
        p.dust = int(key(pd, "dust")?, "dust", Some(0), None)?;
        if p.dust == 1 || p.dust == 3 {
            return Err("dust cannot be 1 or 3".into());
        }
        for x in ints(key(pd, "cards")?, "cards", None, None, None)? {
            let c = card(x, "card")?;
            p.add_card(c);
        }
        p.conc = fixed(ints(key(pd, "conc")?, "conc", Some(4), Some(0), None)?);
        p.active = fixed(ints(key(pd, "active")?, "active", Some(5), Some(0), None)?);
        p.inactive = fixed(ints(key(pd, "inactive")?, "inactive", Some(5), Some(0), None)?);
        p.levels = fixed(ints(key(pd, "levels")?, "levels", Some(6), Some(0), Some(4))?);
        let tokens = ints(key(pd, "tokens")?, "tokens", None, None, None)?;
        let mut distinct = tokens.clone();
        distinct.sort();
        distinct.dedup();
        if tokens.iter().any(|t| !d.token_prices.contains(t)) || distinct.len() != tokens.len() {
            return Err("tokens must be distinct token prices".into());
        }
        p.tokens = Small::from_slice(&tokens).unwrap();
        p.pentagon = int(key(pd, "pentagon")?, "pentagon", Some(0), Some(5))?;
        p.arts = fixed(ints(key(pd, "arts")?, "arts", Some(12), Some(0), None)?);
        let sents: Vec<u8> =
            ints(key(pd, "sents")?, "sents", None, Some(0), Some(8))?.iter().map(|&x| x as u8).collect();
        p.sents = Small::from_slice(&sents).ok_or("a sentinel is in two places")?;
        for x in ints(key(pd, "under_cards")?, "under_cards", None, None, None)? {
            let c = card(x, "under card")?;
            p.under[c] += 1;
        }
        p.under_dust = int(key(pd, "under_dust")?, "under_dust", Some(0), None)?;
        p.vp = int(key(pd, "vp")?, "vp", Some(0), None)?;
        p.advanced = boolean(key(pd, "advanced")?, "advanced")?;
        p.druid_ruby = boolean(key(pd, "druid_ruby")?, "druid_ruby")?;
        p.out = boolean(key(pd, "out")?, "out")?;
        let on_tracks = p.levels.iter().filter(|&&lv| lv != 0).count() as i64;
        if on_tracks + p.pentagon + p.tokens.len() as i64 != 1 + d.token_prices.len() as i64 {
            return Err(format!("seat {i}: knowledge tokens do not add up"));
        }
        if p.arts.iter().any(|&a| a > 1000) {
            return Err("arts = too many is out of range".into());
        }
        if p.n_active() > p.slots() {
            return Err(format!("seat {i}: more active gems than slots"));
        }
    }
    let order = ints(key(st, "order")?, "order", None, Some(0), Some(n as i64 - 1))?;
    let mut o2 = order.clone();
    o2.sort();
    o2.dedup();
    if o2.len() != order.len() {
        return Err("turn order repeats a seat".into());
    }
    let order: Vec<u8> = order.iter().map(|&x| x as u8).collect();
    let mut card_of = [-1; MAXP];
    card_of[..n].copy_from_slice(&ints(key(st, "card_of")?, "card_of", Some(n), Some(-1), Some(5))?);
    let mut art_mod = [0; MAXP];
    art_mod[..n].copy_from_slice(&ints(key(st, "art_mod")?, "art_mod", Some(n), None, None)?);
    let mut sent_mod = [0; MAXP];
    sent_mod[..n].copy_from_slice(&ints(key(st, "sent_mod")?, "sent_mod", Some(n), None, None)?);
    let round = int(key(st, "round")?, "round", Some(0), None)?;
    let stage = match key(st, "stage")?.as_str() {
        Some("turn") => Stage::Turn,
        Some("hand") => Stage::Hand,
        Some("over") => Stage::Over,
        _ => return Err("unknown stage".into()),
    };
    let turn_idx = int(key(st, "turn_idx")?, "turn_idx", Some(0), Some(order.len() as i64))? as usize;
    let group = match key(st, "group")?.as_str() {
        Some("") => 0,
        Some("a") => b'a',
        Some("b") => b'b',
        Some("c") => b'c',
        _ => return Err("unknown sub-phase group".into()),
    };
    let groups_done = int(key(st, "groups_done")?, "groups_done", Some(0), Some(7))?;
    let turn_actions = match st.get("turn_actions") {
        Some(v) => int(v, "turn_actions", Some(0), None)?,
        None => 0,
    };
    let tab_seat = int(key(st, "tab_seat")?, "tab_seat", Some(-1), Some(n as i64 - 1))?;
    let tab_owed = int(key(st, "tab_owed")?, "tab_owed", Some(0), None)?;
    let tab_credit = int(key(st, "tab_credit")?, "tab_credit", Some(0), None)?;
    let tab_auc = boolean(key(st, "tab_auc")?, "tab_auc")?;
    let display: Vec<u8> =
        ints(key(st, "display")?, "display", None, Some(0), Some(11))?.iter().map(|&x| x as u8).collect();
    let art_pile: [i64; 12] = fixed(ints(key(st, "art_pile")?, "art_pile", Some(12), Some(0), None)?);
    let sent_avail: Vec<u8> =
        ints(key(st, "sent_avail")?, "sent_avail", None, Some(0), Some(8))?.iter().map(|&x| x as u8).collect();
    let sent_sold = int(key(st, "sent_sold")?, "sent_sold", Some(0), Some(9))?;
    let gem_supply: [i64; 5] = fixed(ints(key(st, "gem_supply")?, "gem_supply", Some(5), Some(0), None)?);
    let mut deck = [[0i64; 6]; 4];
    let mut disc = [[0i64; 6]; 4];
    for (name, target) in [("deck", &mut deck), ("disc", &mut disc)] {
        let rows = list(key(st, name)?, Some(4))?;
        for c in 0..4 {
            let len = d.card_copies[c].len();
            let row = ints(&rows[c], name, Some(len), Some(0), None)?;
            target[c][..len].copy_from_slice(&row);
        }
    }
    let auc = match key(st, "auc")? {
        Value::Null => None,
        v => {
            let a = list(v, Some(4))?;
            let item = int(&a[0], "auction item", Some(0), Some(20))? as usize;
            let high = match &a[1] {
                Value::Null => None,
                x => Some(int(x, "auction bid", Some(0), None)?),
            };
            let high_seat = int(&a[2], "auction bidder", Some(-1), Some(n as i64 - 1))?;
            let passed = int(&a[3], "auction passes", Some(0), None)?;
            Some(Auction { item, high, high_seat, passed })
        }
    };
    let pending = load_pending(list(key(st, "pending")?, None)?, n, auc.is_some())?;
    let revealed = int(key(st, "revealed")?, "revealed", Some(0), None)?;
    let over = boolean(key(st, "over")?, "over")?;
    let winners: Vec<u8> =
        ints(key(st, "winners_")?, "winners", None, Some(0), Some(n as i64 - 1))?.iter().map(|&x| x as u8).collect();
    let end_reason = key(st, "end_reason")?.as_str().ok_or("end_reason must be text")?.to_string();
    let s = State {
        n,
        rng: crate::rng::Rng::from_state(rng),
        flags,
        players: Players::new(players),
        order: Small::from_slice(&order).unwrap(),
        card_of,
        art_mod,
        sent_mod,
        round,
        stage,
        turn_idx,
        group,
        groups_done,
        turn_actions,
        tab_seat,
        tab_owed,
        tab_credit,
        tab_auc,
        display: Small::from_slice(&display).ok_or("more artifacts than the game has")?,
        art_pile,
        sent_avail: Small::from_slice(&sent_avail).ok_or("a sentinel is in two places")?,
        sent_sold,
        gem_supply,
        deck,
        disc,
        auc,
        pending,
        revealed,
        over,
        winners: Small::from_slice(&winners).ok_or("winners = too many is out of range")?,
        end_reason,
    };
    check_conservation(&s)?;
    check_engine_invariants(&s)?;
    if !s.over && s.pending.is_empty() && s.turn_idx >= s.order.len() {
        return Err("nobody is to move".into());
    }
    Ok(s)
}

fn load_pending(data: &[Value], n: usize, auction: bool) -> R<Small<Decision, 32>> {
    let mut items: Vec<Decision> = Vec::new(); // top first
    let all_dicts = data.iter().all(|e| e.is_object());
    for e in data {
        let (kind, seat, payload) = if all_dicts {
            let kname = key(e, "kind")?.as_str().ok_or("bad pending decision: unknown decision kind")?;
            let kind = Kind::from_name(kname)
                .ok_or_else(|| format!("bad pending decision: unknown decision kind '{kname}'"))?;
            let seat = match key(e, "seat")? {
                Value::Number(x) if x.is_i64() => x.as_i64().unwrap(),
                other => return Err(format!("bad pending decision: bad seat {other} in a decision")),
            };
            let payload = e.get("payload").cloned().unwrap_or(Value::Null);
            (kind, seat, payload)
        } else {
            let a = list(e, None)?;
            let kind =
                a.first().and_then(|k| k.as_str()).and_then(Kind::from_name).ok_or("unknown pending decision")?;
            let extra = matches!(kind, Kind::Apay | Kind::Free) as usize;
            if a.len() != 2 + extra {
                return Err(format!("malformed pending decision '{}'", kind.name()));
            }
            let seat = int(&a[1], "decision seat", Some(0), Some(n as i64 - 1))?;
            let payload = match kind {
                Kind::Apay => json!({"item": a[2]}),
                Kind::Free => json!({"left": a[2]}),
                _ => Value::Null,
            };
            (kind, seat, payload)
        };
        let payload = match kind {
            Kind::Apay => payload_field(&payload, "item", 0, 20)?,
            Kind::Free => payload_field(&payload, "left", 1, 24)?,
            _ => 0,
        };
        let seat = int(&json!(seat), "decision seat", Some(0), Some(n as i64 - 1))?;
        if kind == Kind::Bid && !auction {
            return Err("a bid is pending without an auction".into());
        }
        items.push(Decision { kind, seat: seat as u8, payload });
    }
    items.reverse();
    Small::from_slice(&items).ok_or_else(|| "too many pending decisions for the native engine".to_string())
}

fn payload_field(v: &Value, name: &str, lo: i64, hi: i64) -> R<i64> {
    let bad = || format!("bad pending decision: a decision payload must be {{'{name}': number}}");
    let o = v.as_object().ok_or_else(bad)?;
    if o.len() != 1 || !o.contains_key(name) {
        return Err(bad());
    }
    match &o[name] {
        Value::Number(x) if x.is_i64() && (lo..=hi).contains(&x.as_i64().unwrap()) => Ok(x.as_i64().unwrap()),
        other => Err(format!("bad pending decision: bad {name} {other} in a decision payload")),
    }
}

fn check_conservation(s: &State) -> R<()> {
    let d = data();
    for c in 0..4 {
        for (i, &total) in d.card_copies[c].iter().enumerate() {
            let code = ((d.card_min[c] + i as i64) * 4) as usize + c;
            let held: i64 = s.players[..s.n].iter().map(|p| p.hand[code] as i64 + p.under[code] as i64).sum();
            if s.deck[c][i] + s.disc[c][i] + held != total {
                return Err("energy cards do not add up (some were created or lost)".into());
            }
        }
    }
    for g in 0..5 {
        let held: i64 = s.players[..s.n].iter().map(|p| p.active[g] + p.inactive[g]).sum();
        if s.gem_supply[g] + held != d.gem_supply[g] {
            return Err("gems do not add up".into());
        }
    }
    let copies = d.art_copies[s.n];
    for k in 0..12 {
        let on_display = s.display.iter().filter(|&&x| x as usize == k).count() as i64;
        let owned: i64 = s.players[..s.n].iter().map(|p| p.arts[k]).sum();
        if s.art_pile[k] + on_display + owned > copies {
            return Err("more artifacts than the game has".into());
        }
    }
    let mut seen = [false; 9];
    let mut count = 0;
    for &x in s.players[..s.n].iter().flat_map(|p| p.sents.iter()).chain(s.sent_avail.iter()) {
        if seen[x as usize] {
            return Err("a sentinel is in two places".into());
        }
        seen[x as usize] = true;
        count += 1;
    }
    let _ = count;
    if s.sent_sold != 9 - s.sent_avail.len() as i64 {
        return Err("sentinels sold do not add up".into());
    }
    Ok(())
}

/// What the Python loader does not need to check but the native engine relies on (a state the rules
/// can reach always passes): the native engine never indexes out of range or loops for ever.
fn check_engine_invariants(s: &State) -> R<()> {
    let bad = |what: &str| Err(format!("the native engine cannot load this state: {what}"));
    if s.stage == Stage::Over && !s.over {
        return bad("stage 'over' in a game that goes on");
    }
    for d in s.pending.iter() {
        if d.seat as usize >= s.n {
            return bad("a decision of a seat that does not play");
        }
        if (d.kind == Kind::Bid || d.kind == Kind::Apay) && !s.order.contains(&d.seat) {
            return bad("a bidder who is not in the turn order");
        }
        if d.kind == Kind::Apay && s.tab_seat != d.seat as i64 {
            return bad("a payment for an auction without its tab");
        }
    }
    // the rules open a tab only for what its player can pay (7.6), except an auction's price, which
    // its winner may first raise by selling gems (a pending payment decision)
    let paying = s.pending.iter().any(|d| d.kind == Kind::Apay);
    if s.tab_seat < 0 && (s.tab_owed != 0 || s.tab_credit != 0) {
        return bad("an amount owed or credited without a tab");
    }
    if !paying && s.tab_seat >= 0 && s.tab_owed - s.tab_credit > s.players[s.tab_seat as usize].energy() {
        return bad("a tab larger than its player's energy");
    }
    if let Some(a) = s.auc {
        if s.order.is_empty() || (a.high.is_some() && a.high_seat < 0) {
            return bad("an auction without a bidder");
        }
        if s.pending.last().map(|d| d.kind) != Some(Kind::Bid) && !s.pending.iter().any(|d| d.kind == Kind::Bid) {
            return bad("an auction nobody bids in");
        }
    }
    if !s.over && s.pending.is_empty() && s.stage == Stage::Turn && s.turn_idx >= s.order.len() && s.order.is_empty() {
        return bad("an empty turn order");
    }
    if s.order.len() != s.n && s.round > 0 && s.order.is_empty() {
        return bad("an empty turn order");
    }
    Ok(())
}

// --- the same JSON, written directly (to_dict is called after every action by the differential
// tests and by interfaces): objects with sorted keys, exactly as serde_json writes `state_json`.
use std::fmt::Write;

fn write_list<T: std::fmt::Display>(out: &mut String, xs: impl IntoIterator<Item = T>) {
    out.push('[');
    let mut first = true;
    for x in xs {
        if !first {
            out.push(',');
        }
        first = false;
        let _ = write!(out, "{x}");
    }
    out.push(']');
}

fn hand_codes(out: &mut String, h: &[u8]) {
    out.push('[');
    let mut first = true;
    for (code, &k) in h.iter().enumerate() {
        for _ in 0..k {
            if !first {
                out.push(',');
            }
            first = false;
            let _ = write!(out, "{code}");
        }
    }
    out.push(']');
}

pub fn state_json_string(s: &State) -> String {
    let n = s.n;
    let d = data();
    let mut o = String::with_capacity(2048);
    o.push_str("{\"art_mod\":");
    write_list(&mut o, &s.art_mod[..n]);
    o.push_str(",\"art_pile\":");
    write_list(&mut o, &s.art_pile);
    o.push_str(",\"auc\":");
    match s.auc {
        None => o.push_str("null"),
        Some(a) => {
            let _ = write!(o, "[{},", a.item);
            match a.high {
                None => o.push_str("null"),
                Some(h) => {
                    let _ = write!(o, "{h}");
                }
            }
            let _ = write!(o, ",{},{}]", a.high_seat, a.passed);
        }
    }
    o.push_str(",\"card_of\":");
    write_list(&mut o, &s.card_of[..n]);
    for (name, rows) in [("deck", &s.deck), ("disc", &s.disc)] {
        let _ = write!(o, ",\"{name}\":[");
        for c in 0..4 {
            if c > 0 {
                o.push(',');
            }
            write_list(&mut o, &rows[c][..d.card_copies[c].len()]);
        }
        o.push(']');
    }
    o.push_str(",\"display\":");
    write_list(&mut o, s.display.iter());
    o.push_str(",\"end_reason\":");
    o.push_str(&serde_json::to_string(&s.end_reason).unwrap());
    o.push_str(",\"gem_supply\":");
    write_list(&mut o, &s.gem_supply);
    o.push_str(",\"group\":\"");
    if s.group != 0 {
        o.push(s.group as char);
    }
    let _ = write!(o, "\",\"groups_done\":{},\"order\":", s.groups_done);
    write_list(&mut o, s.order.iter());
    let _ = write!(o, ",\"over\":{},\"pending\":[", s.over);
    for (i, dd) in s.pending.iter().rev().enumerate() {
        if i > 0 {
            o.push(',');
        }
        let _ = write!(o, "{{\"kind\":\"{}\",\"payload\":", dd.kind.name());
        match dd.kind {
            Kind::Apay => {
                let _ = write!(o, "{{\"item\":{}}}", dd.payload);
            }
            Kind::Free => {
                let _ = write!(o, "{{\"left\":{}}}", dd.payload);
            }
            _ => o.push_str("null"),
        }
        let _ = write!(o, ",\"seat\":{}}}", dd.seat);
    }
    let _ = write!(o, "],\"revealed\":{},\"round\":{},\"seats\":[", s.revealed, s.round);
    for (i, p) in s.players[..n].iter().enumerate() {
        if i > 0 {
            o.push(',');
        }
        o.push_str("{\"active\":");
        write_list(&mut o, &p.active);
        let _ = write!(o, ",\"advanced\":{},\"arts\":", p.advanced);
        write_list(&mut o, &p.arts);
        o.push_str(",\"cards\":");
        hand_codes(&mut o, &p.hand);
        let _ = write!(o, ",\"char\":{},\"conc\":", p.ch);
        write_list(&mut o, &p.conc);
        let _ = write!(o, ",\"druid_ruby\":{},\"dust\":{},\"inactive\":", p.druid_ruby, p.dust);
        write_list(&mut o, &p.inactive);
        o.push_str(",\"levels\":");
        write_list(&mut o, &p.levels);
        let _ = write!(o, ",\"out\":{},\"pentagon\":{},\"sents\":", p.out, p.pentagon);
        write_list(&mut o, p.sents.iter());
        o.push_str(",\"tokens\":");
        write_list(&mut o, p.tokens.iter());
        o.push_str(",\"under_cards\":");
        hand_codes(&mut o, &p.under);
        let _ = write!(o, ",\"under_dust\":{},\"vp\":{}}}", p.under_dust, p.vp);
    }
    o.push_str("],\"sent_avail\":");
    write_list(&mut o, s.sent_avail.iter());
    o.push_str(",\"sent_mod\":");
    write_list(&mut o, &s.sent_mod[..n]);
    let _ = write!(
        o,
        ",\"sent_sold\":{},\"stage\":\"{}\",\"tab_auc\":{},\"tab_credit\":{},\"tab_owed\":{},\"tab_seat\":{},\"turn_actions\":{},\"turn_idx\":{},\"winners_\":",
        s.sent_sold,
        s.stage.name(),
        s.tab_auc,
        s.tab_credit,
        s.tab_owed,
        s.tab_seat,
        s.turn_actions,
        s.turn_idx
    );
    write_list(&mut o, s.winners.iter());
    o.push('}');
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Flags;

    fn flags() -> Flags {
        Flags {
            strict: true,
            sages_dust: true,
            druid_l3: true,
            whole_dust: true,
            turn_limit: 100,
            ..Default::default()
        }
    }

    #[test]
    fn the_direct_json_is_serde_json_of_the_value() {
        let mut s = State::new(4, 7, None, flags());
        let mut rng = crate::rng::Rng::new(1);
        for _ in 0..400 {
            if s.over {
                break;
            }
            assert_eq!(state_json_string(&s), state_json(&s).to_string());
            let legal = s.legal();
            let code = legal[rng.below(legal.len() as u64) as usize];
            assert!(s.apply_code(code).is_none());
        }
    }

    #[test]
    fn a_saved_state_loads_back_identical() {
        let mut s = State::new(5, 11, None, flags());
        let mut rng = crate::rng::Rng::new(2);
        for _ in 0..300 {
            if s.over {
                break;
            }
            let v = state_json(&s);
            let back = load(s.n, s.rng.state, s.flags, &v).expect("loads");
            assert_eq!(back, s);
            let legal = s.legal();
            let code = legal[rng.below(legal.len() as u64) as usize];
            assert!(s.apply_code(code).is_none());
        }
    }
}
