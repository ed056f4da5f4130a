//! The batch's incremental tensor (`tensor_cache.rs`) equals the full writer bit for bit: random
//! games of every player count and rule set, one cache carried across games (as a batch slot's is
//! across autoresets), every step observed by the seat to decide and by a random other seat.

use _native::rng::Rng;
use _native::state::State;

mod common;
use _native::tensor::tensor_size;
use _native::tensor_cache::TensorCache;
use common::flags;

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// Random games of 2-6 players, one cache per player count carried across games, every step observed
/// by the seat to decide and by a random other seat: `write` (the form under test) must give the full
/// writer's tensor bit for bit. Returns the number of rows compared.
fn compare_at_every_step(
    seed: u64,
    game_base: u64,
    write: impl Fn(&mut State, usize, &mut [f32], &mut TensorCache),
) -> usize {
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    for n in 2..=6 {
        let size = tensor_size(n);
        let (mut full, mut cached) = (vec![0f32; size], vec![0f32; size]);
        let mut cache = TensorCache::new(n);
        for game in 0..24u64 {
            let mut s =
                State::new(n, game_base * n as u64 + game, None, flags(rng.next64(), 40, 1 + (game % 6) as i64));
            loop {
                let seat = s.current_player().unwrap_or(0);
                let other = rng.below(n as u64) as usize;
                for x in [seat, other] {
                    s.write_tensor(Some(x), &mut full);
                    cached.fill(f32::NAN); // nothing of the previous output may be relied on
                    write(&mut s, x, &mut cached, &mut cache);
                    assert_eq!(bits(&cached), bits(&full), "{n} players, game {game}, seat {x}, round {}", s.round);
                    checked += 1;
                }
                if s.over {
                    break;
                }
                let legal = s.legal();
                let code = legal[rng.below(legal.len() as u64) as usize];
                assert!(s.apply_code(code).is_none());
            }
        }
    }
    checked
}

#[test]
fn the_cached_tensor_is_the_full_tensor_at_every_step_across_games() {
    let checked = compare_at_every_step(7, 1000, |s, x, out, cache| s.write_tensor_cached(x, out, cache));
    assert!(checked > 12_000, "{checked} rows");
}

/// The batch's form: only the seats the rules touched are rewritten (`write_tensor_touched`); the
/// rules' writes reach the players only through `Players`' mutable access.
#[test]
fn the_touched_seats_tensor_is_the_full_tensor_at_every_step_across_games() {
    let checked = compare_at_every_step(11, 2000, |s, x, out, cache| {
        s.write_tensor_touched(x, out, cache);
        assert_eq!(s.players.touched(), 0, "the bits are taken");
    });
    assert!(checked > 12_000, "{checked} rows");
}

#[test]
fn every_mutable_access_to_a_player_marks_its_seat() {
    let mut s = State::new(4, 3, None, flags(0, 40, 3));
    assert_eq!(s.players.take_touched() & 0b1111, 0b1111, "a new game: every seat");
    let _ = s.players[2].vp;
    assert_eq!(s.players.touched(), 0, "a read marks nothing");
    s.players[2].vp += 1;
    assert_eq!(s.players.take_touched(), 0b100);
    s.players[..2][1].dust += 1;
    assert_eq!(s.players.take_touched(), 0b11);
    let t = s.clone();
    assert_eq!(t, s, "equality ignores the bits");
}

#[test]
fn a_cache_of_another_player_count_starts_over() {
    let mut cache = TensorCache::new(3);
    for n in [4, 2, 4] {
        let s = State::new(n, 5, None, flags(0, 40, 3));
        let (mut full, mut cached) = (vec![0f32; tensor_size(n)], vec![0f32; tensor_size(n)]);
        s.write_tensor(Some(1), &mut full);
        s.write_tensor_cached(1, &mut cached, &mut cache);
        assert_eq!(bits(&cached), bits(&full));
    }
}
