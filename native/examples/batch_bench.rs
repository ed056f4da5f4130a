//! Self-play of a batch of games with random masked ids, as `rl.selfplay_vector_env` on the native
//! engine steps it (`PyBatch::step` and `random_actions` without Python): a profiling harness.
//! `cargo run --release --example batch_bench -- [envs] [steps] [players]` prints env steps/s (CPU time).

use _native::batch::{prefetch_ahead, Config, Out, Slot};
use _native::rng::Rng;
use _native::state::Flags;
use _native::tensor::{tensor_size, IDS};

fn cpu_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid out-pointer for clock_gettime
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

fn main() {
    let a: Vec<usize> = std::env::args().skip(1).map(|x| x.parse().expect("a number")).collect();
    let (envs, steps, n) =
        (a.first().copied().unwrap_or(1024), a.get(1).copied().unwrap_or(300), a.get(2).copied().unwrap_or(4));
    // the defaults of `rl.selfplay_vector_env("zavandor", players=4)` (round cap 60, the length bound)
    let flags = Flags {
        strict: true,
        combine: false,
        sages_dust: true,
        druid_l3: true,
        free_new_track: false,
        whole_dust: true,
        turn_limit: 100,
        max_rounds: Some(60),
    };
    let cfg = Config {
        n,
        chars: None,
        flags,
        seat: None,
        limit: Some(137_974),
        invalid_reward: -1.0,
        key_episode: 1,
        key_opponent: 2,
    };
    let (size, na) = (tensor_size(n), IDS.num);
    let mut slots: Vec<Slot> = (0..envs).map(|_| Slot::new(&cfg, 0)).collect();
    let mut obs = vec![0f32; envs * size];
    let mut mask = vec![0i8; envs * na];
    let mut rew = vec![0f32; envs * n];
    let (mut te, mut tr, mut tm) = (vec![0u8; envs], vec![0u8; envs], vec![0i64; envs]);
    let mut acts = vec![0i64; envs];
    let mut run = |slots: &mut Vec<Slot>, acts: &[i64], reset: bool| {
        for i in 0..slots.len() {
            prefetch_ahead(slots, i);
            let slot = &mut slots[i];
            let out = Out {
                obs: &mut obs[i * size..(i + 1) * size],
                mask: &mut mask[i * na..(i + 1) * na],
                rewards: &mut rew[i * n..(i + 1) * n],
                terminated: &mut te[i],
                truncated: &mut tr[i],
                to_move: &mut tm[i],
            };
            if reset {
                slot.reset(&cfg, Some(1 + i as u64), out);
            } else {
                slot.step(&cfg, acts[i], out);
            }
        }
    };
    run(&mut slots, &acts, true);
    let t0 = cpu_seconds();
    for k in 0..steps {
        let mut rng = Rng::new(k as u64);
        for (slot, a) in slots.iter().zip(acts.iter_mut()) {
            *a = slot.ids().random(&mut rng);
        }
        run(&mut slots, &acts, false);
    }
    let dt = cpu_seconds() - t0;
    let sum: f64 = obs.iter().map(|&x| x as f64).sum();
    // the tensor alone: one game's state written over and over (in the caches)
    let reps: usize = std::env::var("REPS").map_or(200_000, |v| v.parse().expect("REPS"));
    let mut row = vec![0f32; size];
    let t1 = cpu_seconds();
    for r in 0..reps {
        let s = &slots[r % 16].s;
        s.write_tensor(Some(r % n), std::hint::black_box(&mut row));
    }
    let hot = (cpu_seconds() - t1) / reps as f64;
    println!("write_tensor alone, 16 states in the caches: {:.0} ns", hot * 1e9);
    println!("{envs} envs x {steps} steps, {n} players: {:.0} steps/s (checksum {sum:.3})", (envs * steps) as f64 / dt);
}
