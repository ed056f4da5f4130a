//! The board against the Python reference: every table of tests/data/board.json (written by
//! scripts/shuluri_native_fixtures.py from grimoire/games/shuluri/board.py), and every ordered pair's
//! line of fire through the fixture's CRC-32 of all of them.

use _native::board::{board, Line, LINES};
use _native::crc::crc32_update;
use serde_json::Value;
use std::sync::LazyLock;

static FIX: LazyLock<Value> =
    LazyLock::new(|| serde_json::from_str(include_str!("data/board.json")).expect("board.json parses"));

fn fix(key: &str) -> &'static Value {
    FIX.get(key).unwrap_or_else(|| panic!("board.json has no {key}"))
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect()
}

fn rows(key: &str) -> Vec<Vec<i64>> {
    fix(key).as_array().unwrap().iter().map(ints).collect()
}

fn line_text(a: usize, b: usize, ln: &Line) -> String {
    let mid: Vec<String> = ln.middle.iter().map(|f| f.to_string()).collect();
    let walls: Vec<String> = ln.walls.iter().map(|(k, g)| format!("{k}:{g}")).collect();
    format!("{a} {b}|{}|{}|{}|{}\n", mid.join(","), ln.borders, walls.join(","), ln.off_board as u8)
}

fn to64<T: Copy + Into<i64>>(v: &[T]) -> Vec<i64> {
    v.iter().map(|&x| x.into()).collect()
}

#[test]
fn fields_zones_quarters_regions() {
    let b = board();
    assert_eq!(b.n_fields() as i64, fix("n_fields").as_i64().unwrap());
    let coords: Vec<Vec<i64>> = b.coords.iter().map(|&(q, r)| vec![q as i64, r as i64]).collect();
    assert_eq!(coords, rows("coords"));
    assert_eq!(to64(&b.zone), ints(fix("zone")));
    assert_eq!(to64(&b.quarter), ints(fix("quarter")));
    assert_eq!(to64(&b.region), ints(fix("region")));
    let rot: Vec<i64> = (0..b.n_fields()).map(|f| b.rotate180(f) as i64).collect();
    assert_eq!(rot, ints(fix("rotate180")));
    for (f, &(q, r)) in b.coords.iter().enumerate() {
        assert_eq!(b.parse_field(&format!("{q},{r}")), Some(f));
        assert_eq!(b.field_name(f), format!("{q},{r}"));
    }
    assert_eq!(b.parse_field("0,99"), None);
    assert_eq!(b.parse_field("0,1,2"), None);
}

#[test]
fn neighbours_walls_gates_steps() {
    let b = board();
    let nb: Vec<Vec<i64>> = b.neighbours.iter().map(|r| to64(r)).collect();
    assert_eq!(nb, rows("neighbours"));
    let edge: Vec<Vec<i64>> = b.edge.iter().map(|r| to64(r)).collect();
    assert_eq!(edge, rows("edge"));
    let gate_at: Vec<Vec<i64>> = b.gate_at.iter().map(|r| to64(r)).collect();
    assert_eq!(gate_at, rows("gate_at"));
    let gof: Vec<Vec<i64>> = b.gates_of_field.iter().map(|r| to64(r)).collect();
    assert_eq!(gof, rows("gates_of_field"));
    let gates = fix("gates").as_array().unwrap();
    assert_eq!(gates.len(), b.gates.len());
    for (g, want) in b.gates.iter().zip(gates) {
        assert_eq!(g.id, want[0].as_str().unwrap());
        assert_eq!(g.wall as i64, want[1].as_i64().unwrap());
        assert_eq!(vec![g.fields[0] as i64, g.fields[1] as i64], ints(&want[2]));
        assert_eq!(to64(&g.regions), ints(&want[3]));
    }
    let steps = fix("steps").as_array().unwrap();
    for (f, want) in steps.iter().enumerate() {
        for zone in 0..2 {
            let got: Vec<Vec<i64>> =
                b.steps[f][zone].iter().map(|&(d, n, g)| vec![d as i64, n as i64, g as i64]).collect();
            let w: Vec<Vec<i64>> = want[zone].as_array().unwrap().iter().map(ints).collect();
            assert_eq!(got, w, "steps of field {f}, zone {zone}");
        }
    }
}

#[test]
fn heaps_traps_deployment() {
    let b = board();
    let us = |v: &[usize]| v.iter().map(|&x| x as i64).collect::<Vec<_>>();
    assert_eq!(us(&b.heaps), ints(fix("heaps")));
    assert_eq!(us(&b.trap_fields), ints(fix("trap_fields")));
    let dc: Vec<Vec<i64>> = b.deploy_c.iter().map(|v| us(v)).collect();
    let dr: Vec<Vec<i64>> = b.deploy_r1.iter().map(|v| us(v)).collect();
    assert_eq!(dc, rows("deploy_c"));
    assert_eq!(dr, rows("deploy_r1"));
    for (i, &f) in b.trap_fields.iter().enumerate() {
        assert_eq!(b.trap_number_at(f) as usize, i + 1);
    }
}

#[test]
fn blocks_and_ranges() {
    let b = board();
    let blk: Vec<Vec<i64>> = b.block.iter().map(|&(x, y)| vec![x as i64, y as i64]).collect();
    assert_eq!(blk, rows("block"));
    let blocks: Vec<Vec<i64>> = b.blocks.iter().map(|&(x, y)| vec![x as i64, y as i64]).collect();
    assert_eq!(blocks, rows("blocks"));
    assert_eq!(to64(&b.block_id), ints(fix("block_id")));
    let bd: Vec<Vec<i64>> = b.block_dist.iter().map(|r| to64(r)).collect();
    assert_eq!(bd, rows("block_dist"));
    for w in fix("within").as_array().unwrap() {
        let (f, k) = (w[0].as_u64().unwrap() as usize, w[1].as_u64().unwrap() as u8);
        assert_eq!(to64(&b.fields_within_blocks(f, k)), ints(&w[2]), "fields within {k} blocks of {f}");
    }
}

#[test]
fn areas_and_regions_under_gate_patterns() {
    let b = board();
    let patterns: Vec<Vec<bool>> = fix("gate_patterns")
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_array().unwrap().iter().map(|x| x.as_bool().unwrap()).collect())
        .collect();
    let areas = fix("area_fields").as_array().unwrap();
    let regions = fix("regions_of").as_array().unwrap();
    for (pi, gate_open) in patterns.iter().enumerate() {
        for f in 0..b.n_fields() {
            assert_eq!(to64(&b.area_fields(f, gate_open)), ints(&areas[pi][f]), "area at {f}, gates {pi}");
            assert_eq!(to64(&b.regions_of(f, gate_open)), ints(&regions[pi][f]), "regions of {f}, gates {pi}");
        }
    }
}

#[test]
fn hex_lines_and_sampled_lines_of_fire() {
    let b = board();
    for h in fix("hex_lines").as_array().unwrap() {
        let (a, c) = (h[0].as_u64().unwrap() as usize, h[1].as_u64().unwrap() as usize);
        let got: Vec<Vec<i64>> = b.hex_line(a, c).iter().map(|&(q, r)| vec![q as i64, r as i64]).collect();
        let want: Vec<Vec<i64>> = h[2].as_array().unwrap().iter().map(ints).collect();
        assert_eq!(got, want, "hex line {a} -> {c}");
    }
    for want in fix("lines").as_array().unwrap() {
        let want = want.as_str().unwrap();
        let mut it = want.split('|').next().unwrap().split(' ');
        let a: usize = it.next().unwrap().parse().unwrap();
        let c: usize = it.next().unwrap().parse().unwrap();
        assert_eq!(line_text(a, c, &b.make_line(a, c)), want);
    }
}

#[test]
fn every_line_of_fire() {
    let b = board();
    let n = b.n_fields();
    let mut crc = 0u32;
    let mut row = String::new();
    for a in 0..n {
        row.clear();
        for c in 0..n {
            row.push_str(&line_text(a, c, LINES.get(a, c)));
        }
        crc = crc32_update(crc, row.as_bytes());
    }
    assert_eq!(crc as i64, fix("lines_digest").as_i64().unwrap(), "the CRC-32 of all {} lines", n * n);
}
