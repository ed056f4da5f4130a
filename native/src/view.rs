//! Hidden information (the Python `view.py`): determinizations, and the game part of observations.

use crate::data::*;
use crate::rng::Rng;
use crate::state::*;

impl State {
    /// Energy some players are known to hold, from what they did in public (seat, minimum), in the
    /// order the Python dict holds them.
    fn known_lower_bounds(&self) -> Vec<(usize, i64)> {
        let d = data();
        let mut need: Vec<(usize, i64)> = Vec::new();
        if let Some(a) = self.auc {
            match a.high {
                None => {
                    let seat = self.current_player().unwrap_or(0);
                    need.push((seat, self.price_for(seat, a.item, d.item_min_bid[a.item])));
                }
                Some(h) => {
                    let hs = a.high_seat.max(0) as usize;
                    need.push((hs, self.price_for(hs, a.item, h)));
                }
            }
            for e in need.iter_mut() {
                e.1 -= self.players[e.0].gems_sale_total();
            }
        }
        if self.tab_seat >= 0 {
            let ts = self.tab_seat as usize;
            let sale = if self.pending.is_empty() { 0 } else { self.players[ts].gems_sale_total() };
            let v = self.tab_owed - self.tab_credit - sale;
            match need.iter_mut().find(|e| e.0 == ts) {
                Some(e) => e.1 = e.1.max(v),
                None => need.push((ts, v.max(0).max(v))),
            }
        }
        need
    }

    /// A copy in which every card value `seat` cannot see is redrawn from the cards it has not seen;
    /// `rng` is the caller's generator (advanced as the Python one is), the copy's RNG is fresh.
    pub fn sample_hidden(&self, seat: usize, rng: &mut Rng) -> State {
        let bounds: Vec<(usize, i64)> = self.known_lower_bounds().into_iter().filter(|e| e.0 != seat).collect();
        let mut c = self.redraw(seat, rng, &[]);
        for attempt in 0..12 {
            if attempt > 0 {
                let greedy: Vec<usize> = if attempt == 11 { bounds.iter().map(|e| e.0).collect() } else { vec![] };
                c = self.redraw(seat, rng, &greedy);
            }
            if bounds.iter().all(|&(k, v)| c.players[k].energy() >= v) {
                break;
            }
        }
        c.rng = Rng::new(rng.next64());
        c
    }

    fn redraw(&self, seat: usize, rng: &mut Rng, greedy: &[usize]) -> State {
        let d = data();
        let mut c = self.clone();
        let mut others: Vec<usize> = (0..self.n)
            .filter(|&q| {
                let p = &c.players[q];
                q != seat && (p.ncards > 0 || p.under.iter().any(|&x| x != 0))
            })
            .collect();
        others.sort_by_key(|q| !greedy.contains(q)); // stable: the constrained players first
        for colour in 0..4 {
            let len = d.card_copies[colour].len();
            let base = d.card_min[colour];
            let mut pool = c.deck[colour];
            let code_of = |i: usize| ((base + i as i64) * 4) as usize + colour;
            for &q in &others {
                for i in 0..len {
                    let code = code_of(i);
                    pool[i] += c.players[q].hand[code] as i64 + c.players[q].under[code] as i64;
                }
            }
            for &q in &others {
                let top = greedy.contains(&q);
                for under in [false, true] {
                    let p = &mut c.players[q];
                    let h = if under { &mut p.under } else { &mut p.hand };
                    let count: u32 = (0..len).map(|i| h[code_of(i)] as u32).sum();
                    for i in 0..len {
                        h[code_of(i)] = 0;
                    }
                    for _ in 0..count {
                        let i = if top {
                            (0..len).rev().find(|&j| pool[j] != 0).unwrap()
                        } else {
                            rng.pick_weighted(&pool[..len])
                        };
                        pool[i] -= 1;
                        h[code_of(i)] += 1;
                    }
                }
            }
            c.deck[colour] = pool;
        }
        for &q in &others {
            let p = &mut c.players[q];
            p.cardsum = p.hand.iter().enumerate().map(|(code, &k)| (code >> 2) as i64 * k as i64).sum();
        }
        c
    }
}

// --- observations: the game part, as the Python `view.observe` builds it ---------------------------
use serde_json::{json, Map, Value};

fn by_colour(h: &[u8; MAX_CODE]) -> Value {
    let d = data();
    let mut n = [0i64; 4];
    for (code, &k) in h.iter().enumerate() {
        n[code & 3] += k as i64;
    }
    let mut m = Map::new();
    for c in 0..4 {
        m.insert(d.colours[c].clone(), json!(n[c]));
    }
    Value::Object(m)
}

fn named<T: serde::Serialize + Copy>(names: &[String], xs: &[T]) -> Value {
    Value::Object(names.iter().zip(xs).map(|(k, v)| (k.clone(), json!(v))).collect())
}

fn breakdown(p: &Player) -> Value {
    let d = data();
    if p.out {
        return json!({"gems": 0, "knowledge": 0, "artifacts": 0, "sentinels": 0});
    }
    let l4 = p.levels.iter().filter(|&&lv| lv >= d.max_level).count() as i64;
    let arts: i64 = (0..12).map(|k| p.arts[k] * d.art_vp[k]).sum();
    let sents: i64 = p.sents.iter().map(|&s| d.sent_base_vp + sentinel_bonus(p, s as usize)).sum();
    json!({"gems": gem_vp(p), "knowledge": d.level4_vp * l4, "artifacts": arts, "sentinels": sents})
}

impl State {
    fn player_view(&self, p: &Player) -> Value {
        let d = data();
        let seat = p.seat;
        let gl = p.levels[GEMS_T] as usize;
        let mut items: Vec<u8> = self.display.as_slice().to_vec();
        items.sort();
        items.dedup();
        let mut prices = Map::new();
        for &i in &items {
            let i = i as usize;
            prices.insert(d.items[i].clone(), json!(self.price_for(seat, i, d.item_min_bid[i])));
        }
        prices.insert("sentinel".into(), json!(self.price_for(seat, N_ART, d.item_min_bid[N_ART])));
        let (mut lo, mut hi, mut avg) = (0i64, 0i64, 0.0f64);
        for (code, &k) in p.hand.iter().enumerate() {
            for _ in 0..k {
                let c = code & 3;
                lo += d.card_min[c];
                hi += d.card_max[c];
                avg += d.card_avg[c];
            }
        }
        let avg = (avg * 100.0).round() / 100.0; // round(avg, 2): the averages are multiples of 0.5
        let arts: Map<String, Value> =
            (0..12).filter(|&k| p.arts[k] != 0).map(|k| (d.items[k].clone(), json!(p.arts[k]))).collect();
        let costs: Vec<i64> = (0..5).map(|g| d.gem_cost[g][gl]).collect();
        let sales: Vec<i64> = (0..5).map(|g| d.gem_sale[g][gl]).collect();
        let card = if self.card_of[seat] >= 0 { json!(d.roman[self.card_of[seat] as usize]) } else { Value::Null };
        json!({
            "seat": seat,
            "character": d.characters[p.ch],
            "eliminated": p.out,
            "vp": p.vp,
            "score_now": breakdown(p),
            "turn_order_card": card,
            "dust": p.dust,
            "concentrated": named(&d.colours, &p.conc),
            "cards": by_colour(&p.hand),
            "card_value_bounds": {"min": lo, "avg": avg, "max": hi},
            "under_card": {"cards": by_colour(&p.under), "dust": p.under_dust},
            "gems_active": named(&d.gems, &p.active),
            "gems_inactive": named(&d.gems, &p.inactive),
            "slots": p.slots(),
            "knowledge": named(&d.tracks, &p.levels),
            "tokens_left": p.tokens.as_slice(),
            "pentagon_tokens": p.pentagon,
            "artifacts": Value::Object(arts),
            "sentinels": p.sents.iter().map(|&x| d.items[N_ART + x as usize].clone()).collect::<Vec<_>>(),
            "hand_limit": p.hand_limit(),
            "hand_count": p.hand_count(),
            "paid_advance_used": p.advanced,
            "druid_ruby_used": p.druid_ruby,
            "gem_costs": named(&d.gems, &costs),
            "prices_at_min": Value::Object(prices),
            "sale_values": named(&d.gems, &sales),
        })
    }

    fn private_view(&self, p: &Player) -> Value {
        let d = data();
        let vals = |h: &[u8; MAX_CODE]| -> Vec<Value> {
            codes(h).iter().map(|&c| json!([c >> 2, d.colours[c & 3]])).collect()
        };
        json!({
            "card_values": vals(&p.hand),
            "under_card_values": vals(&p.under),
            "energy": p.energy(),
            "capacity": self.capacity(p.seat),
        })
    }

    fn decision_view(&self) -> Value {
        let d = data();
        if self.over {
            return Value::Null;
        }
        match self.pending.last() {
            None => {
                let group = if self.group == 0 { String::new() } else { (self.group as char).to_string() };
                json!({"kind": "turn", "seat": self.order.as_slice()[self.turn_idx], "group": group,
                       "groups_done": self.groups_done,
                       "actions_left": (self.flags.turn_limit - self.turn_actions).max(0)})
            }
            Some(dd) => {
                let mut m = Map::new();
                m.insert("kind".into(), json!(dd.kind.name()));
                m.insert("seat".into(), json!(dd.seat));
                if dd.kind == Kind::Apay {
                    m.insert("item".into(), json!(d.items[dd.payload as usize]));
                }
                if dd.kind == Kind::Free {
                    m.insert("advances".into(), json!(dd.payload));
                }
                Value::Object(m)
            }
        }
    }

    fn public_view(&self) -> Value {
        let d = data();
        let n = self.n;
        let auction = match self.auc {
            None => Value::Null,
            Some(a) => {
                let min = d.item_min_bid[a.item];
                let price_for: Map<String, Value> = self
                    .order
                    .iter()
                    .map(|&x| (x.to_string(), json!(self.price_for(x as usize, a.item, a.high.unwrap_or(min)))))
                    .collect();
                json!({
                    "item": d.items[a.item], "min_bid": min, "high_bid": a.high,
                    "high_bidder": if a.high_seat >= 0 { json!(a.high_seat) } else { Value::Null },
                    "passed": (0..n).filter(|&x| (a.passed >> x) & 1 != 0).collect::<Vec<_>>(),
                    "price_for": Value::Object(price_for),
                })
            }
        };
        let active = if self.over || self.stage != Stage::Turn || self.turn_idx >= self.order.len() {
            Value::Null
        } else {
            json!(self.order.as_slice()[self.turn_idx])
        };
        let mut stack = Map::new();
        for (l, letter) in d.letters.iter().enumerate() {
            let v: i64 = (0..12).filter(|&k| d.art_letter[k] == l).map(|k| self.art_pile[k]).sum();
            stack.insert(letter.clone(), json!(v));
        }
        let mut decks = Map::new();
        for c in 0..4 {
            let len = d.card_copies[c].len();
            let discards: Map<String, Value> = (0..len)
                .filter(|&i| self.disc[c][i] != 0)
                .map(|i| ((d.card_min[c] + i as i64).to_string(), json!(self.disc[c][i])))
                .collect();
            decks.insert(
                d.colours[c].clone(),
                json!({"cards": self.deck[c][..len].iter().sum::<i64>(), "discards": Value::Object(discards)}),
            );
        }
        let tab = if self.tab_seat >= 0 {
            json!({"seat": self.tab_seat, "owed": self.tab_owed, "credit": self.tab_credit})
        } else {
            Value::Null
        };
        json!({
            "stage": self.stage.name(),
            "active_player": active,
            "turn_order": self.order.as_slice(),
            "modifiers": (0..n).map(|x| json!({"artifact": self.art_mod[x], "sentinel": self.sent_mod[x]})).collect::<Vec<_>>(),
            "display": self.display.iter().map(|&k| d.items[k as usize].clone()).collect::<Vec<_>>(),
            "artifact_stack": Value::Object(stack),
            "sentinels_available": self.sent_avail.iter().map(|&x| d.items[N_ART + x as usize].clone()).collect::<Vec<_>>(),
            "sentinels_sold": self.sent_sold,
            "gem_supply": named(&d.gems, &self.gem_supply),
            "decks": Value::Object(decks),
            "auction": auction,
            "decision": self.decision_view(),
            "tab": tab,
            "players": Value::Null,
            "end_reason": if self.end_reason.is_empty() { Value::Null } else { json!(self.end_reason) },
        })
    }

    /// The game part of the observations of `seats`, in pieces: the public part (without the options,
    /// the stage's text and the history length, which the Python wrapper adds), every player's public
    /// view, and each listed seat's private view.
    pub fn observe_json(&self, seats: &[usize]) -> String {
        let players: Vec<Value> = self.players[..self.n].iter().map(|p| self.player_view(p)).collect();
        let private: Map<String, Value> = seats
            .iter()
            .filter(|&&s| s < self.n)
            .map(|&s| (s.to_string(), self.private_view(&self.players[s])))
            .collect();
        json!([self.public_view(), players, Value::Object(private)]).to_string()
    }
}
