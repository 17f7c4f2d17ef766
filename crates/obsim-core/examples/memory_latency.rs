//! What a cache miss costs on this machine: the time of one dependent load
//! (a pointer chase along one random cycle, Sattolo's shuffle) over a working
//! set of the given size. docs/PERFORMANCE.md ("Session 20") sets it against
//! the engine's misses per delivered segment: the engine's per-packet reads
//! are loads of this kind, each needed before the event can go on.
//!
//! `cargo run --release -p obsim-core --example memory_latency -- [MiB ...]`
//! (default: 1 4 16 64 256).

use std::time::Instant;

/// Nanoseconds per dependent load over `mib` MiB.
fn chase(mib: usize) -> f64 {
    let n = (mib << 20) / std::mem::size_of::<usize>();
    let mut next: Vec<usize> = (0..n).collect();
    // Sattolo's algorithm: a permutation that is one cycle through every slot,
    // so the chase visits the whole working set in a random order.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in (1..n).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        // The remainder is below `i`, a `usize`.
        #[allow(clippy::cast_possible_truncation)]
        next.swap(i, (x % i as u64) as usize);
    }
    let steps = 20_000_000;
    let mut p = 0;
    let t = Instant::now();
    for _ in 0..steps {
        p = next[p];
    }
    let ns = t.elapsed().as_secs_f64() * 1e9 / f64::from(steps);
    std::hint::black_box(p);
    ns
}

fn main() {
    let mut sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if sizes.is_empty() {
        sizes = vec![1, 4, 16, 64, 256];
    }
    for mib in sizes {
        println!("{mib:>5} MiB  {:6.1} ns per dependent load", chase(mib));
    }
}
