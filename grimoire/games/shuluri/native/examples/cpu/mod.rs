//! The process's CPU time for the examples' benches (proc(5): utime + stime, in clock ticks), and the
//! microseconds of CPU a call of `work` takes, over runs of at least 2 s.

pub fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    // fields 14 and 15 of proc(5) are utime and stime; `rest` starts at field 3
    let ticks: f64 = f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap();
    ticks / 100.0
}

#[allow(dead_code)] // (bench_apply times its own loop over its transitions)
pub fn per_call<F: FnMut() -> usize>(mut work: F) -> f64 {
    let start = cpu_seconds();
    let mut calls = 0usize;
    let mut sink = 0usize;
    while cpu_seconds() - start < 2.0 {
        for _ in 0..1000 {
            sink = sink.wrapping_add(work());
        }
        calls += 1000;
    }
    std::hint::black_box(sink);
    (cpu_seconds() - start) / calls as f64 * 1e6
}
