//! Energy arithmetic (7.6, 8.1), as the Python `energy.py`: dust, hand counts, the default payment
//! (least waste, then the smallest hand) and the default hand-limit discard.
//!
//! A hand is a count per card code (code = value * 4 + colour), so "the cards sorted by code" is a
//! walk over the codes; the choices below take cards in exactly the order the Python lists do.

use crate::data::{data, MAX_CODE};
use std::sync::LazyLock;

pub type Hand = [u8; MAX_CODE];

pub const OVERPAY_WINDOW: i64 = 10;

#[inline]
pub fn representable(v: i64) -> bool {
    v == 0 || (v >= 2 && v != 3)
}

#[inline]
pub fn payout(v: i64) -> i64 {
    match v {
        1 => 0,
        3 => 2,
        _ => v,
    }
}

/// Canonical tokens with the fewest hand-limit units (largest first).
pub fn dust_tokens(v: i64) -> Vec<i64> {
    let d = data();
    let v = if v == 1 || v == 3 { payout(v) } else { v };
    let mut tens = v.div_euclid(10);
    if matches!(v.rem_euclid(10), 1 | 3) && tens != 0 {
        tens -= 1;
    }
    let mut r = v - 10 * tens;
    let mut out = vec![d.dust_denoms[0]; tens.max(0) as usize];
    if r % 2 != 0 {
        out.push(d.dust_denoms[1]);
        r -= d.dust_denoms[1];
    }
    out.extend(std::iter::repeat(d.dust_denoms[2]).take((r / 2).max(0) as usize));
    out
}

fn dust_units_of(v: i64) -> i64 {
    if !representable(v) {
        return -1;
    }
    let d = data();
    dust_tokens(v).iter().map(|t| d.dust_units[d.dust_denoms.iter().position(|x| x == t).unwrap()]).sum()
}

static DUST_UNITS: LazyLock<Vec<i64>> = LazyLock::new(|| (0..4096).map(dust_units_of).collect());

/// Hand-limit count of v dust (-1 if v cannot be made of tokens).
#[inline]
pub fn dust_units(v: i64) -> i64 {
    if (0..4096).contains(&v) {
        DUST_UNITS[v as usize]
    } else {
        dust_units_of(v)
    }
}

pub fn hand_units(ncards: i64, conc: &[i64; 4], dust: i64) -> i64 {
    let d = data();
    ncards * d.card_units + conc.iter().sum::<i64>() * d.conc_units + dust_units(dust)
}

pub struct Payment {
    pub cards: Vec<usize>, // codes handed over (ascending within a value)
    pub conc: [i64; 4],
    pub final_dust: i64,
    pub lost: i64,
}

/// The default payment of `need` energy (the Python `_best_payment`, tie for tie).
pub fn best_payment(hand: &Hand, conc: &[i64; 4], dust: i64, need: i64) -> Payment {
    let d = data();
    if need <= 0 {
        let f = dust - need;
        let lost = if f == 1 || f == 3 { 1 } else { 0 };
        return Payment { cards: vec![], conc: [0; 4], final_dust: f - lost, lost };
    }
    // groups: (value, units, idents) — cards by value ascending (codes ascending), then conc by colour
    let mut groups: Vec<(i64, i64, Vec<i64>)> = Vec::new();
    let mut code = 0;
    while code < MAX_CODE {
        let v = (code >> 2) as i64;
        let mut idents = Vec::new();
        for c in code..code + 4 {
            for _ in 0..hand[c] {
                idents.push(c as i64);
            }
        }
        if !idents.is_empty() {
            groups.push((v, d.card_units, idents));
        }
        code += 4;
    }
    for c in 0..4 {
        if conc[c] > 0 {
            groups.push((d.conc_value[c], d.conc_units, vec![-1 - c as i64; conc[c] as usize]));
        }
    }
    let lo = need - dust;
    let hi = if groups.is_empty() {
        lo.max(0)
    } else {
        lo.max(0) + groups.iter().map(|g| g.0).max().unwrap() + OVERPAY_WINDOW
    };
    // dp: an insertion-ordered map total -> max units (the order decides ties, as Python's dict)
    // only totals up to the whole hand's value are reachable (the Python dict holds only those)
    let reachable: i64 = groups.iter().map(|g| g.0 * g.2.len() as i64).sum();
    let size = (hi.min(reachable).max(0) + 1) as usize;
    let mut pos: Vec<i32> = vec![-1; size];
    let mut dp: Vec<(i64, i64)> = vec![(0, 0)];
    pos[0] = 0;
    let mut parents: Vec<Vec<(i64, i64, i64)>> = Vec::with_capacity(groups.len()); // (nt, t, take), last wins
    for (v, u, idents) in &groups {
        let mut new = dp.clone();
        let mut npos = pos.clone();
        let mut par: Vec<(i64, i64, i64)> = Vec::new();
        for &(t, units) in &dp {
            let (mut nt, mut nu) = (t, units);
            for take in 1..=idents.len() as i64 {
                nt += v;
                nu += u;
                if nt > hi {
                    break;
                }
                let p = npos[nt as usize];
                if p < 0 {
                    npos[nt as usize] = new.len() as i32;
                    new.push((nt, nu));
                    par.push((nt, t, take));
                } else if nu > new[p as usize].1 {
                    new[p as usize].1 = nu;
                    par.push((nt, t, take));
                }
            }
        }
        parents.push(par);
        dp = new;
        pos = npos;
    }
    let mut best: Option<(i64, i64, i64)> = None;
    let mut best_t = -1;
    for &(t, units) in &dp {
        if t < lo {
            continue;
        }
        let f = dust + t - need;
        let lost = if f == 1 || f == 3 { 1 } else { 0 };
        let key = (lost, dust_units(f - lost) - units, t);
        if best.is_none() || key < best.unwrap() {
            best = Some(key);
            best_t = t;
        }
    }
    assert!(best_t >= 0, "best_payment: not enough energy");
    let mut cards = Vec::new();
    let mut used_conc = [0i64; 4];
    let mut t = best_t;
    for gi in (0..groups.len()).rev() {
        // the last record for this total in the group's parents (a dict's final value)
        let p = parents[gi].iter().rev().find(|x| x.0 == t);
        let Some(&(_, prev_t, take)) = p else { continue };
        let (v, _u, idents) = &groups[gi];
        if t - take * v != prev_t {
            continue;
        }
        for &ident in &idents[..take as usize] {
            if ident < 0 {
                used_conc[(-1 - ident) as usize] += 1;
            } else {
                cards.push(ident as usize);
            }
        }
        t = prev_t;
    }
    let f = dust + best_t - need;
    let lost = if f == 1 || f == 3 { 1 } else { 0 };
    Payment { cards, conc: used_conc, final_dust: f - lost, lost }
}

/// Values that small tokens (counts per denomination after the largest) can become by returning
/// tokens and exchanging upwards (several smaller tokens for one larger worth at most their total).
fn small_keepable(counts: [i64; 2]) -> Vec<i64> {
    let denoms = data().dust_denoms;
    let start = [0i64, counts[0], counts[1]];
    let mut seen = vec![start];
    let mut todo = vec![start];
    while let Some(ms) = todo.pop() {
        let mut nxt = Vec::new();
        for i in 0..3 {
            if ms[i] > 0 {
                let mut x = ms;
                x[i] -= 1;
                nxt.push(x);
            }
        }
        for t in 0..2 {
            let target = denoms[t];
            // every way of taking tokens of the smaller denominations (itertools.product)
            let smaller: Vec<usize> = (t + 1..3).collect();
            let first_max = ms[smaller[0]];
            let second_max = if smaller.len() > 1 { ms[smaller[1]] } else { 0 };
            for a in 0..=first_max {
                for b in 0..=second_max {
                    let n = a + b;
                    let val = a * denoms[smaller[0]] + if smaller.len() > 1 { b * denoms[smaller[1]] } else { 0 };
                    if n >= 2 && val >= target {
                        let mut x = ms;
                        x[t] += 1;
                        x[smaller[0]] -= a;
                        if smaller.len() > 1 {
                            x[smaller[1]] -= b;
                        }
                        nxt.push(x);
                    }
                }
            }
        }
        for x in nxt {
            if !seen.contains(&x) {
                seen.push(x);
                todo.push(x);
            }
        }
    }
    let mut vals: Vec<i64> = seen.iter().map(|ms| ms[0] * denoms[0] + ms[1] * denoms[1] + ms[2] * denoms[2]).collect();
    vals.sort();
    vals.dedup();
    vals
}

static SMALL: LazyLock<Vec<Vec<Vec<i64>>>> =
    LazyLock::new(|| (0..3).map(|a| (0..10).map(|b| small_keepable([a, b])).collect()).collect());

/// The dust values a player holding `dust` can keep at the hand-limit discard with whole tokens.
pub fn keepable_dust(dust: i64) -> Vec<i64> {
    let d = data();
    let tokens = dust_tokens(dust);
    let top = d.dust_denoms[0];
    let c5 = tokens.iter().filter(|&&t| t == d.dust_denoms[1]).count();
    let c2 = tokens.iter().filter(|&&t| t == d.dust_denoms[2]).count();
    let owned;
    let small: &Vec<i64> = if c5 < 3 && c2 < 10 {
        &SMALL[c5][c2]
    } else {
        owned = small_keepable([c5 as i64, c2 as i64]);
        &owned
    };
    let big = tokens.iter().filter(|&&t| t == top).count() as i64;
    let mut out: Vec<i64> = Vec::with_capacity(small.len() * (big as usize + 1));
    for k in 0..=big {
        for v in small {
            out.push(top * k + v);
        }
    }
    out.sort();
    out.dedup();
    out
}

fn max_dust_within(dust: i64, units: i64, whole: bool) -> i64 {
    if units <= 0 {
        return 0;
    }
    if whole {
        return keepable_dust(dust).into_iter().filter(|&v| dust_units(v) <= units).max().unwrap();
    }
    let cap = 10 * units.div_euclid(3) + [0, 2, 5][units.rem_euclid(3) as usize];
    let mut v = dust.min(cap);
    while v > 0 && (!representable(v) || dust_units(v) > units) {
        v -= 1;
    }
    v
}

pub struct Keep {
    pub cards: Vec<usize>, // codes discarded
    pub conc: [i64; 4],
    pub dust_kept: i64,
}

/// The default hand-limit discard: keep the most energy within `limit` units (8.1).
pub fn keep_best(hand: &Hand, conc: &[i64; 4], dust: i64, limit: i64, whole: bool) -> Keep {
    let d = data();
    let mut sorted_cards: Vec<usize> = Vec::new(); // descending codes
    for code in (0..MAX_CODE).rev() {
        for _ in 0..hand[code] {
            sorted_cards.push(code);
        }
    }
    let mut conc_list: Vec<(i64, usize)> = Vec::new();
    for c in 0..4 {
        for _ in 0..conc[c] {
            conc_list.push((d.conc_value[c], c));
        }
    }
    conc_list.sort_by(|a, b| b.cmp(a));
    let mut best: Option<((i64, i64, i64), usize, usize, i64)> = None;
    for k in 0..=conc_list.len() {
        let budget = limit - d.conc_units * k as i64;
        if budget < 0 {
            break;
        }
        let conc_value: i64 = conc_list[..k].iter().map(|x| x.0).sum();
        let mut card_value = 0;
        let jmax = (sorted_cards.len() as i64).min(budget.div_euclid(d.card_units)).max(0) as usize;
        for j in 0..=jmax {
            if j > 0 {
                card_value += (sorted_cards[j - 1] >> 2) as i64;
            }
            let dk = max_dust_within(dust, budget - j as i64 * d.card_units, whole);
            let kept = conc_value + card_value + dk;
            let units = k as i64 * d.conc_units + j as i64 * d.card_units + dust_units(dk);
            let key = (-kept, units, -(j as i64));
            if best.is_none() || key < best.as_ref().unwrap().0 {
                best = Some((key, k, j, dk));
            }
        }
    }
    let (_, k, j, dk) = best.unwrap();
    let mut conc_disc = [0i64; 4];
    for &(_, c) in &conc_list[k..] {
        conc_disc[c] += 1;
    }
    Keep { cards: sorted_cards[j..].to_vec(), conc: conc_disc, dust_kept: dk }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dust_rules_of_7_6() {
        // no 1-dust token: 1 and 3 cannot be held, and the bank pays 1 -> 0, 3 -> 2
        assert!(!representable(1) && !representable(3) && representable(0) && representable(4));
        assert_eq!(payout(1), 0);
        assert_eq!(payout(3), 2);
        // tokens 10/5/2 count 3/2/1 units (2.5): 12 = 10 + 2 -> 4 units; 7 = 5 + 2 -> 3 units
        assert_eq!(dust_tokens(12), vec![10, 2]);
        assert_eq!(dust_units(12), 4);
        assert_eq!(dust_units(7), 3);
        // 11 cannot use a ten (10 + 1): 5 + 2 + 2 + 2
        assert_eq!(dust_tokens(11), vec![5, 2, 2, 2]);
    }

    #[test]
    fn whole_tokens_from_ten_and_ten_keep_0_10_or_20() {
        assert_eq!(keepable_dust(20), vec![0, 10, 20]);
    }

    #[test]
    fn paying_exactly_with_a_card_wastes_nothing() {
        let mut hand = [0u8; MAX_CODE];
        hand[5 * 4] = 1; // a blue 5
        hand[8 * 4 + 2] = 1; // a white 8
        let p = best_payment(&hand, &[0; 4], 0, 5);
        assert_eq!(p.cards, vec![20]);
        assert_eq!(p.lost, 0);
        assert_eq!(p.final_dust, 0);
    }
}
