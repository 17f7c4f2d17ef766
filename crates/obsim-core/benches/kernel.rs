//! Kernel micro-benchmarks.
//!
//! `event_queue/*`: the classic *hold* model on every future-event-list
//! design. A steady population of N pending events (1k, 10k, 100k) is
//! maintained; one hold operation pops the earliest event and pushes it back
//! at `now + Exp(mean 100 ns x N)` (so pending events are ~100 ns apart). The `hold+cancel` variant adds the
//! retransmission-timer pattern: every 4th operation also cancels a random
//! pending event and reschedules it (`now + Exp`). Payloads are 96 bytes, as
//! the simulator's packet-carrying events. Reported time is per hold
//! operation. The alternative designs exist only with the cargo feature
//! `bench-queues`, which this benchmark requires. Rerun with:
//!
//! ```text
//! cargo bench -p obsim-core --features bench-queues --bench kernel -- event_queue --measurement-time 3 --warm-up-time 1
//! ```
//!
//! On a shared machine, the interleaved duel (all designs round-robin in
//! chunks of max(4000, N) operations; prints min / lower quartile / median ns per op) is
//! the fairer comparison:
//!
//! ```text
//! OBSIM_QUEUE_DUEL=1 cargo bench -p obsim-core --features bench-queues --bench kernel
//! ```

use std::hint::black_box;

use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use obsim_core::engine::queue::{
    CalendarQueue, EventKey, EventQueue, FutureEventList, IndexedDaryQueue, LazyDaryQueue,
    RadixQueue, StdHeapQueue,
};
use obsim_core::rng::{stream, uniform01};
use obsim_core::time::{SimDuration, SimTime};

/// A 96-byte payload; word 0 is the event's id in `0..N`.
type Payload = [u64; 12];

/// Pre-drawn random numbers, so that the measurement is the queue's, not the
/// generator's: exponential increments and uniform victim ids.
struct Draws {
    incr: Vec<SimDuration>,
    victim: Vec<u32>,
    i: usize,
}

const TABLE: usize = 1 << 16;

impl Draws {
    fn new(n: usize) -> Self {
        let mut rng = stream(1, "bench/event_queue");
        // Mean increment 100 ns per pending event: consecutive pending events
        // are ~100 ns apart (packet-scale spacing, few exact ties in integer ns).
        let mean_ns = 100.0 * n as f64;
        let incr = (0..TABLE)
            .map(|_| SimDuration((-(1.0 - uniform01(&mut rng)).ln() * mean_ns) as u64))
            .collect();
        let victim = (0..TABLE)
            .map(|_| (uniform01(&mut rng) * n as f64) as u32)
            .collect();
        Draws { incr, victim, i: 0 }
    }
    #[inline]
    fn next(&mut self) -> (SimDuration, usize) {
        self.i = (self.i + 1) & (TABLE - 1);
        (self.incr[self.i], self.victim[self.i] as usize)
    }
}

/// A queue holding `n` events, with the key of event `id` at `keys[id]`.
struct Hold<Q> {
    q: Q,
    keys: Vec<EventKey>,
    draws: Draws,
    step: u64,
    cancel: bool,
}

impl<Q: FutureEventList<Payload>> Hold<Q> {
    fn new(n: usize, cancel: bool) -> Self {
        let mut draws = Draws::new(n);
        let mut q = Q::with_capacity(n);
        let keys = (0..n)
            .map(|id| {
                let (d, _) = draws.next();
                let mut p = [0u64; 12];
                p[0] = id as u64;
                q.push(SimTime::ZERO + d, p)
            })
            .collect();
        let mut h = Hold {
            q,
            keys,
            draws,
            step: 0,
            cancel,
        };
        // Warm up to the steady-state time distribution.
        for _ in 0..2 * n {
            h.op();
        }
        h
    }

    #[inline]
    fn op(&mut self) {
        let (now, ev) = self.q.pop().expect("population is constant");
        let (d, victim) = self.draws.next();
        self.keys[ev[0] as usize] = self.q.push(now + d, black_box(ev));
        self.step += 1;
        if self.cancel && self.step % 4 == 0 {
            let found = self.q.cancel(self.keys[victim]);
            debug_assert!(found);
            let mut p = [0u64; 12];
            p[0] = victim as u64;
            let (d, _) = self.draws.next();
            self.keys[victim] = self.q.push(now + d, p);
        }
    }
}

fn bench_design<Q: FutureEventList<Payload>>(c: &mut Criterion, name: &str) {
    for cancel in [false, true] {
        let mut g = c.benchmark_group(format!(
            "event_queue/{}",
            if cancel { "hold+cancel" } else { "hold" }
        ));
        g.throughput(Throughput::Elements(1));
        for n in [1_000usize, 10_000, 100_000] {
            let mut h = Hold::<Q>::new(n, cancel);
            g.bench_function(BenchmarkId::new(name, n), |b| b.iter(|| h.op()));
            black_box(h.q.len());
        }
        g.finish();
    }
}

fn event_queue(c: &mut Criterion) {
    bench_design::<LazyDaryQueue<Payload, 4>>(c, "lazy-4ary");
    bench_design::<StdHeapQueue<Payload>>(c, "lazy-std-binary");
    bench_design::<IndexedDaryQueue<Payload, 4>>(c, "indexed-4ary");
    bench_design::<IndexedDaryQueue<Payload, 2>>(c, "indexed-2ary");
    bench_design::<RadixQueue<Payload>>(c, "lazy-radix");
    bench_design::<CalendarQueue<Payload>>(c, "lazy-calendar");
    bench_design::<EventQueue<Payload>>(c, "EventQueue");
}

/// One design's hold loop behind a trait object, for the interleaved duel.
type Runner = Box<dyn FnMut(usize)>;

fn runner<Q: FutureEventList<Payload> + 'static>(n: usize, cancel: bool) -> Runner {
    let mut h = Hold::<Q>::new(n, cancel);
    Box::new(move |ops| {
        for _ in 0..ops {
            h.op();
        }
        black_box(h.q.len());
    })
}

/// Interleaved comparison, robust to a shared, noisy machine: every design
/// runs the same hold loop in short chunks, round-robin (rotating the order),
/// so all of them see the same background load; preemption only ever adds
/// time, so the per-design minimum and lower quartile over many chunks
/// estimate the uncontended cost. Enabled by `OBSIM_QUEUE_DUEL=1`.
fn duel() {
    const CHUNK: usize = 4_000;
    let rounds: usize = std::env::var("OBSIM_QUEUE_DUEL_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400);
    println!("pattern      N        design             min ns/op  p25 ns/op  median ns/op");
    for cancel in [false, true] {
        for n in [1_000usize, 10_000, 100_000] {
            let mut designs: Vec<(&str, Runner)> = vec![
                ("lazy-4ary", runner::<LazyDaryQueue<Payload, 4>>(n, cancel)),
                (
                    "lazy-std-binary",
                    runner::<StdHeapQueue<Payload>>(n, cancel),
                ),
                (
                    "indexed-4ary",
                    runner::<IndexedDaryQueue<Payload, 4>>(n, cancel),
                ),
                (
                    "indexed-2ary",
                    runner::<IndexedDaryQueue<Payload, 2>>(n, cancel),
                ),
                ("lazy-radix", runner::<RadixQueue<Payload>>(n, cancel)),
                ("lazy-calendar", runner::<CalendarQueue<Payload>>(n, cancel)),
            ];
            // A chunk touches at least the whole population once, so that
            // switching designs does not turn into a cold-cache benchmark.
            let chunk = CHUNK.max(n);
            let rounds = (rounds * CHUNK / chunk).max(20);
            let mut samples = vec![Vec::with_capacity(rounds); designs.len()];
            for r in 0..rounds {
                for k in 0..designs.len() {
                    let d = (k + r) % designs.len();
                    let t0 = std::time::Instant::now();
                    (designs[d].1)(chunk);
                    samples[d].push(t0.elapsed().as_nanos() as f64 / chunk as f64);
                }
            }
            for (d, s) in samples.iter_mut().enumerate() {
                s.sort_by(f64::total_cmp);
                println!(
                    "{:<12} {n:<8} {:<18} {:>9.1}  {:>9.1}  {:>12.1}",
                    if cancel { "hold+cancel" } else { "hold" },
                    designs[d].0,
                    s[0],
                    s[s.len() / 4],
                    s[s.len() / 2]
                );
            }
        }
    }
}

criterion_group!(benches, event_queue);

fn main() {
    if std::env::var_os("OBSIM_QUEUE_DUEL").is_some() {
        duel();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
