//! The evaluation of the Zavandor AI (the Python `ai/evaluate.py`): the one-player projection of a
//! position to the end of the game, its value and end value; the same floating-point operations in
//! the same order as the Python, so that its sums round alike. The constants come from the Python
//! `Params` (passed in by the Python glue), not from here.

use crate::data::*;
use crate::energy::{best_payment, hand_units, keep_best, Hand};
use crate::small::Small;
use crate::state::{Player, State};

/// The projection constants of one character's plan (the Python `Params` fields of PLAN_FIELDS).
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub vp_per_energy: f64,
    pub hand_unit: f64,
    pub hand_unit_min: f64,
    pub hand_unit_max: f64,
    pub gem_spend: f64,
    pub sink_rate: f64,
    pub art_rate: f64,
    pub art_budget: f64,
    pub art_share: f64,
    pub sentinel_surcharge: f64,
    pub payback: f64,
    pub advance_first: bool, // round_plan: ("advance", "gems") or ("gems", "advance")
    pub fire_step: f64,
}

#[derive(Clone, Debug)]
pub struct Params {
    pub end_round: [f64; 7],
    pub sentinel_rounds: f64,
    pub sentinel_share: f64,
    pub sentinel_extra: f64,
    pub denial: f64,
    pub tie_income: f64,
    pub tie_energy: f64,
    pub kappa: f64,
    pub plans: [Plan; 6],
}

pub(crate) fn gem_income(g: usize) -> f64 {
    if g == 0 {
        10.0 / 3.0
    } else {
        data().card_avg[g - 1]
    }
}

/// A player as the evaluation sees him (a free Sages advance adds fractional dust under the card).
#[derive(Clone, Copy)]
pub struct AP {
    pub p: Player,
    pub under_dust: f64,
}

impl AP {
    pub fn of(p: &Player) -> AP {
        AP { p: *p, under_dust: p.under_dust as f64 }
    }
}

pub struct Ctx<'a> {
    pub prm: &'a Params,
    pub r: f64,
    pub fin: bool,
    pub druid_l3: bool,
    pub whole_dust: bool,
    pub quota: f64,
    pub avail: Small<u8, 9>,
    pub arts_left: f64,
}

pub(crate) fn rounds_left(s: &State, prm: &Params) -> f64 {
    let d = data();
    if s.sent_sold >= d.sent_end || s.over {
        return 0.0;
    }
    if let Some(m) = s.flags.max_rounds {
        if s.round >= m {
            return 0.0;
        }
    }
    let n = (s.alive().count() as i64).max(2);
    let mut r = (prm.end_round[n.min(6) as usize] - s.round as f64)
        .min(prm.sentinel_rounds * (d.sent_end - s.sent_sold) as f64);
    if let Some(m) = s.flags.max_rounds {
        r = r.min((m - s.round) as f64);
    }
    r.max(1.0)
}

impl<'a> Ctx<'a> {
    pub fn new(s: &State, prm: &'a Params) -> Ctx<'a> {
        let d = data();
        let n = (s.alive().count() as i64).max(1);
        let r = rounds_left(s, prm);
        let left = (d.sent_end - s.sent_sold).max(0);
        Ctx {
            prm,
            r,
            fin: r <= 0.0,
            druid_l3: s.flags.druid_l3,
            whole_dust: s.flags.whole_dust,
            quota: left as f64 * prm.sentinel_share / n as f64,
            avail: s.sent_avail,
            arts_left: (s.art_pile.iter().sum::<i64>() + s.display.len() as i64) as f64 / n as f64,
        }
    }
}

pub(crate) fn opal_dust(n: i64) -> i64 {
    let d = data();
    d.opal_per_three * n.div_euclid(3) + d.opal_remainder[n.rem_euclid(3) as usize]
}

pub(crate) fn income_of(act: &[i64; 5], lv: &[i64; 6], arts: &[i64; 12]) -> f64 {
    let d = data();
    let ca = &d.card_avg;
    let (d0, d1, d2, d3) = (act[1], act[2] + arts[PROTECTION], act[3], act[4] + arts[CHALICE]);
    // left to right, as Python adds them
    (((((opal_dust(act[0]) + d.flow_dust[lv[FLOW] as usize]) as f64 + d0 as f64 * ca[0]) + d1 as f64 * ca[1])
        + d2 as f64 * ca[2])
        + d3 as f64 * ca[3])
        + (2 * (d0 / 4 + d1 / 4 + d2 / 4 + d3 / 4)) as f64
}

pub(crate) fn bonus(sid: usize, act: &[i64; 5], lv: &[i64; 6], arts: &[i64; 12]) -> i64 {
    let d = data();
    let (what, which, per, cap) = &d.sent_bonus[sid];
    let n: i64 = match what {
        Bonus::Types => act.iter().filter(|&&x| x != 0).count() as i64,
        Bonus::Level4 => lv.iter().filter(|&&x| x >= 4).count() as i64,
        Bonus::Active => which.iter().map(|&g| act[g]).sum(),
        Bonus::Arts => which.iter().map(|&k| arts[k]).sum(),
    };
    let b = per * n;
    if *cap != 0 {
        b.min(*cap)
    } else {
        b
    }
}

pub(crate) fn final_vp(act: &[i64; 5], lv: &[i64; 6], arts: &[i64; 12], sents: &[u8]) -> i64 {
    let d = data();
    let mut v = act[0] + act[1] + 2 * (act[2] + act[3]) + 3 * act[4];
    for &x in lv {
        if x >= 4 {
            v += d.level4_vp;
        }
    }
    for k in 0..12 {
        if arts[k] != 0 {
            v += arts[k] * d.art_vp[k];
        }
    }
    for &sid in sents {
        v += d.sent_base_vp + bonus(sid as usize, act, lv, arts);
    }
    v
}

pub(crate) fn unit_value(act: &[i64; 5], lv: &[i64; 6], arts: &[i64; 12], pl: &Plan) -> f64 {
    let d = data();
    let dd = opal_dust(act[0]) + d.flow_dust[lv[FLOW] as usize];
    let mut units = dd as f64 / 3.3;
    let mut total = dd as f64;
    let due = [act[1], act[2] + arts[PROTECTION], act[3], act[4] + arts[CHALICE]];
    for c in 0..4 {
        let n = due[c];
        if n != 0 {
            units += (n % 4 + 3 * (n / 4)) as f64;
            total += n as f64 * d.card_avg[c] + (2 * (n / 4)) as f64;
        }
    }
    if units <= 0.0 {
        return pl.hand_unit_min;
    }
    pl.hand_unit_max.min(pl.hand_unit_min.max(pl.hand_unit * total / units))
}

pub(crate) fn best_income_per_slot(lv: &[i64; 6], arts: &[i64; 12], druid_ruby: bool) -> f64 {
    if lv[FIRE] >= 4 || (druid_ruby && lv[FIRE] >= 3) {
        gem_income(4)
    } else if arts[ELIXIR] != 0 {
        gem_income(3)
    } else if arts[SPELLBOOK] != 0 {
        gem_income(2)
    } else {
        gem_income(1)
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn level_benefit(
    t: usize,
    level: i64,
    left: i64,
    lv: &[i64; 6],
    arts: &[i64; 12],
    n_slots: i64,
    druid_ruby: bool,
    pl: &Plan,
) -> f64 {
    let d = data();
    let per_vp = pl.payback;
    let mut b = if level == 4 { d.level4_vp as f64 * per_vp } else { 0.0 };
    let l = level as usize;
    let leftf = left as f64;
    if t == GEMS_T {
        b += 0.1 * pl.gem_spend * leftf;
    } else if t == FLOW {
        b += ((d.flow_dust[l] - d.flow_dust[l - 1]) * left) as f64;
    } else if t == FIRE {
        let target = if druid_ruby { 3 } else { 4 };
        if level <= target {
            let per_slot = gem_income(4) - best_income_per_slot(lv, arts, false);
            let k = if target == 4 { n_slots.min(5) } else { 1 };
            let access = k as f64 * (per_slot * leftf * 0.5 + per_vp);
            b += access / (target - level + 1) as f64 * (if level == target { 1.0 } else { pl.fire_step });
        }
    } else if t == SAGES {
        b += 2.0 * d.card_avg[d.sages_colour[l - 1]];
    } else if t == ARTS_T {
        b += (d.sent_discount[l] - d.sent_discount[l - 1]) as f64 * 1.0
            + (d.art_discount[l] - d.art_discount[l - 1]) as f64 * 0.25 * leftf;
    } else if t == ACCUM {
        let extra = d.extra_slots[l] - d.extra_slots[l - 1];
        b += extra as f64 * (best_income_per_slot(lv, arts, druid_ruby) * leftf * 0.6 + per_vp);
    }
    if level == 1 {
        b += d.hand_entry[t] as f64 * 0.5 * pl.hand_unit_min * left.min(4) as f64;
    }
    b
}

pub(crate) fn first_max_bonus(avail: &[u8], act: &[i64; 5], lv: &[i64; 6], arts: &[i64; 12]) -> u8 {
    let mut best = avail[0];
    let mut bv = bonus(best as usize, act, lv, arts);
    for &x in &avail[1..] {
        let v = bonus(x as usize, act, lv, arts);
        if v > bv {
            best = x;
            bv = v;
        }
    }
    best
}

/// The player's VP at the end if he follows the simple plan (`evaluate._project`).
pub fn project(q: &AP, ctx: &Ctx, energy: f64) -> f64 {
    let d = data();
    let p = &q.p;
    let r_left = ctx.r;
    let mut act = p.active;
    let mut ina = p.inactive;
    let mut lv = p.levels;
    let arts = p.arts;
    let mut sents: Vec<u8> = p.sents.as_slice().to_vec();
    if r_left <= 0.0 {
        return final_vp(&act, &lv, &arts, &sents) as f64;
    }
    let pl = &ctx.prm.plans[p.ch];
    let mut e = energy;
    let under_cards: i64 = p.under.iter().enumerate().map(|(c, &k)| (c >> 2) as i64 * k as i64).sum();
    let mut under = q.under_dust + under_cards as f64;
    let mut n_slots = p.slots();
    let mut hl = p.hand_limit();
    let spell = arts[SPELLBOOK] > 0;
    let elixir = arts[ELIXIR] > 0;
    let mut druid_ruby = ctx.druid_l3 && p.ch == DRUID && !p.druid_ruby;
    let mut pentagon = p.pentagon;
    let mut quota = ctx.quota;
    let mut arts_left = ctx.arts_left * pl.art_share;
    let mut avail: Vec<u8> = ctx.avail.as_slice().to_vec();
    let sent_disc = d.mask_sent_discount * arts[MASK];
    let payback = pl.payback;
    let mut free = n_slots - act.iter().sum::<i64>();
    for g in [4, 3, 2, 1, 0] {
        while ina[g] != 0 && free > 0 {
            ina[g] -= 1;
            act[g] += 1;
            free -= 1;
        }
    }
    let rounds = (r_left + 0.5) as i64;
    let mut sunk = 0.0;
    let sent_min_bid = d.item_min_bid[N_ART] as f64;
    let sent_price = |lv: &[i64; 6]| {
        sent_min_bid + pl.sentinel_surcharge - d.sent_discount[lv[ARTS_T] as usize] as f64 - sent_disc as f64
    };
    for r in 0..rounds {
        let left = rounds - r - 1;
        e += income_of(&act, &lv, &arts) + under;
        under = 0.0;
        let steps: [bool; 2] = if pl.advance_first { [true, false] } else { [false, true] };
        for advance in steps {
            if advance {
                if left >= 1 {
                    let (mut best_t, mut best_net) = (-1i64, 0.0f64);
                    for t in 0..6 {
                        let x = lv[t];
                        if x >= 4 || (x == 0 && pentagon == 0) {
                            continue;
                        }
                        let c = d.track_cost[t][x as usize];
                        if c as f64 > e {
                            continue;
                        }
                        let net = level_benefit(t, x + 1, left, &lv, &arts, n_slots, druid_ruby, pl) - c as f64;
                        if net > best_net {
                            best_t = t as i64;
                            best_net = net;
                        }
                    }
                    if best_t >= 0 {
                        let bt = best_t as usize;
                        let x = lv[bt];
                        e -= d.track_cost[bt][x as usize] as f64;
                        if x == 0 {
                            pentagon -= 1;
                            hl += d.hand_entry[bt];
                        }
                        lv[bt] = x + 1;
                        if bt == SAGES {
                            under += 2.0 * d.card_avg[d.sages_colour[x as usize]];
                        } else if bt == ACCUM {
                            n_slots += d.extra_slots[(x + 1) as usize] - d.extra_slots[x as usize];
                        }
                    }
                }
            } else {
                let gl = lv[GEMS_T] as usize;
                for _ in 0..12 {
                    let ruby_ok = (act[4] + ina[4] < d.max_rubies) && (lv[FIRE] >= 4 || (druid_ruby && lv[FIRE] >= 3));
                    let mut b: i64 = if ruby_ok {
                        4
                    } else if elixir {
                        3
                    } else if spell {
                        2
                    } else {
                        1
                    };
                    let mut cost = d.gem_cost[b as usize][gl];
                    if act.iter().sum::<i64>() < n_slots {
                        if e < cost as f64 {
                            b = if e >= d.gem_cost[0][gl] as f64 { 0 } else { -1 };
                            if b < 0 {
                                break;
                            }
                            cost = d.gem_cost[0][gl];
                        }
                        let bu = b as usize;
                        if d.gem_vp[bu] as f64 * payback + left as f64 * gem_income(bu) < cost as f64 {
                            break;
                        }
                        e -= cost as f64;
                        act[bu] += 1;
                    } else {
                        let bu = b as usize;
                        let low = (0..bu).find(|&g| act[g] != 0);
                        let Some(low) = low else { break };
                        let net = cost - d.gem_sale[low][gl];
                        let gain = (d.gem_vp[bu] - d.gem_vp[low]) as f64 * payback
                            + left as f64 * (gem_income(bu) - gem_income(low));
                        if e < net as f64 || gain < net as f64 {
                            break;
                        }
                        e -= net as f64;
                        act[low] -= 1;
                        act[bu] += 1;
                    }
                    if b == 4 && lv[FIRE] < 4 {
                        druid_ruby = false;
                    }
                }
            }
        }
        if quota >= 1.0 && !avail.is_empty() {
            let price = sent_price(&lv);
            if e >= price {
                let sid = first_max_bonus(&avail, &act, &lv, &arts);
                let i = avail.iter().position(|&x| x == sid).unwrap();
                avail.remove(i);
                sents.push(sid);
                e -= price;
                quota -= 1.0;
            }
        }
        if arts_left > 0.0 {
            // Python's min(E, art_budget, arts_left * 60.0)
            let mut spend = e;
            if pl.art_budget < spend {
                spend = pl.art_budget;
            }
            if arts_left * 60.0 < spend {
                spend = arts_left * 60.0;
            }
            if quota >= 1.0 && !avail.is_empty() {
                let price = sent_price(&lv);
                let nxt = e + income_of(&act, &lv, &arts);
                if nxt >= price && nxt - spend < price {
                    spend = if nxt - price > 0.0 { nxt - price } else { 0.0 };
                }
            }
            if spend > 0.0 {
                sunk += spend * pl.art_rate;
                e -= spend;
                arts_left -= spend / 60.0;
            }
        }
        if left != 0 {
            let cap = hl as f64 * unit_value(&act, &lv, &arts, pl);
            if e > cap {
                sunk += (e - cap) * pl.sink_rate;
                e = cap;
            }
        }
    }
    let mut v = final_vp(&act, &lv, &arts, &sents) as f64 + e * pl.vp_per_energy + sunk;
    if quota > 0.0 && !avail.is_empty() {
        let price = sent_price(&lv);
        // Python's min(1.0, x): 1.0 unless x is smaller
        let frac = (if quota < 1.0 { quota } else { 1.0 }) * (if e / price < 1.0 { e / price } else { 1.0 }) * 0.5;
        let sid = first_max_bonus(&avail, &act, &lv, &arts) as usize;
        v += frac * ((d.sent_base_vp + bonus(sid, &act, &lv, &arts)) as f64 - price * pl.vp_per_energy);
    }
    v
}

pub fn energy_in_hand(p: &Player) -> i64 {
    p.energy()
}

pub fn income(p: &Player) -> f64 {
    income_of(&p.active, &p.levels, &p.arts)
}

/// Expected final VP of this player's position (`evaluate.value`).
pub fn value(q: &AP, ctx: &Ctx, energy: Option<f64>) -> f64 {
    if q.p.out {
        return -100.0;
    }
    let energy = energy.unwrap_or(energy_in_hand(&q.p) as f64);
    let mut v = project(q, ctx, energy);
    if ctx.r > 0.0 {
        v += ctx.prm.tie_income * income(&q.p) + ctx.prm.tie_energy * energy;
    }
    v
}

/// (hand, conc, dust) after paying `need` the default way (need <= 0: a credit).
pub(crate) fn hand_after_paying(p: &Player, need: i64) -> (Hand, i64, [i64; 4], i64) {
    if need <= 0 {
        let f = p.dust - need;
        return (p.hand, p.ncards, p.conc, if f == 1 || f == 3 { f - 1 } else { f });
    }
    let pay = best_payment(&p.hand, &p.conc, p.dust, need);
    let mut hand = p.hand;
    for &c in &pay.cards {
        hand[c] -= 1;
    }
    let mut conc = p.conc;
    for c in 0..4 {
        conc[c] -= pay.conc[c];
    }
    (hand, p.ncards - pay.cards.len() as i64, conc, pay.final_dust)
}

pub(crate) fn kept_energy(hand: &Hand, ncards: i64, conc: &[i64; 4], dust: i64, limit: i64, whole: bool) -> i64 {
    let d = data();
    let cards_value: i64 = hand.iter().enumerate().map(|(c, &k)| (c >> 2) as i64 * k as i64).sum();
    let conc_value: i64 = (0..4).map(|c| conc[c] * d.conc_value[c]).sum();
    let total = dust + cards_value + conc_value;
    if hand_units(ncards, conc, dust) <= limit {
        return total;
    }
    let k = keep_best(hand, conc, dust, limit, whole);
    let disc: i64 = k.cards.iter().map(|&c| (c >> 2) as i64).sum();
    k.dust_kept + cards_value - disc + (0..4).map(|c| (conc[c] - k.conc[c]) * d.conc_value[c]).sum::<i64>()
}

pub(crate) fn eval_after_paying(q: &AP, need: i64, ctx: &Ctx) -> f64 {
    let (hand, ncards, conc, dust) = hand_after_paying(&q.p, need);
    let e = if ctx.fin { 0 } else { kept_energy(&hand, ncards, &conc, dust, q.p.hand_limit(), ctx.whole_dust) };
    value(q, ctx, Some(e as f64))
}

/// `value` of `seat` as if his open tab (plus `pay`) were paid now and his hand cut to the limit.
pub fn end_value(s: &State, seat: usize, ctx: &Ctx, pay: i64) -> f64 {
    let p = &s.players[seat];
    let mut need = pay;
    if s.tab_seat == seat as i64 {
        need += s.tab_owed - s.tab_credit;
    }
    let have = energy_in_hand(p);
    let mut short = 0;
    if need > have {
        short = need - have;
        need = have;
    }
    eval_after_paying(&AP::of(p), need, ctx) - short as f64
}

pub(crate) fn gem_loss(r: &Player, ctx: &Ctx) -> f64 {
    if !r.active.iter().any(|&x| x != 0) {
        return 0.0;
    }
    let rq = AP::of(r);
    let base = value(&rq, ctx, None);
    let mut best = f64::INFINITY;
    for g in 0..5 {
        if r.active[g] != 0 {
            let mut q = rq;
            q.p.active[g] -= 1;
            best = best.min(base - value(&q, ctx, None));
        }
    }
    best
}

pub(crate) fn raise_copy(q: &mut AP, t: usize) {
    let d = data();
    if q.p.levels[t] == 0 {
        q.p.pentagon -= 1;
    }
    q.p.levels[t] += 1;
    if t == SAGES {
        q.under_dust += 2.0 * d.card_avg[d.sages_colour[(q.p.levels[t] - 1) as usize]];
    }
}

pub(crate) fn best_free_advance(q: &mut AP, ctx: &Ctx, new_track: bool) {
    let mut best_t = -1i64;
    let mut best_v = value(q, ctx, None);
    for t in 0..6 {
        let lv = q.p.levels[t];
        if lv >= 4 || (lv == 0 && !(new_track && q.p.pentagon != 0)) {
            continue;
        }
        let mut r = *q;
        raise_copy(&mut r, t);
        let v = value(&r, ctx, None);
        if v > best_v {
            best_t = t as i64;
            best_v = v;
        }
    }
    if best_t >= 0 {
        raise_copy(q, best_t as usize);
    }
}
