//! Channel-scheduler micro-benchmarks (`obs::scheduler`): the cost of one
//! `reserve()` on an output port with W = 2, 16 and 64 channels, for every
//! scheduler kind, with random residual offsets.
//!
//! Workload (after gurel2008 §4): Poisson burst arrivals at 0.7·W erlangs,
//! exponential burst lengths of mean 200 µs, residual offsets k·50 µs with k
//! uniform in 0..=4 (bursts that have crossed 0 to 4 hops of Δ = 50 µs), full
//! conversion. 2^16 requests are drawn once; the runner cycles through them,
//! shifting time forward on each pass. Reported time is per `reserve()`.
//! Before measuring, the binary checks that `reserve()` does not allocate in
//! the steady state. Rerun with:
//!
//! ```text
//! cargo bench -p obsim-core --bench scheduler -- --measurement-time 2 --warm-up-time 1
//! ```

use std::alloc::System;
use std::hint::black_box;

use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use obsim_core::obs::scheduler::{
    ChannelScheduler, ChannelSet, LaucVf, PortSchedule, Request, SchedulerKind,
};
use obsim_core::rng::{stream, uniform01};
use obsim_core::time::SimTime;
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

/// Counts heap allocations, to check that `reserve()` does not allocate.
#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

const REQUESTS: usize = 1 << 16;

/// Pre-drawn requests `(now, start, end)` in ns, and the span of one pass.
struct Draws {
    reqs: Vec<(u64, u64, u64)>,
    span: u64,
}

fn draws(w: u16) -> Draws {
    let mut rng = stream(1, &format!("bench/scheduler/w{w}"));
    let hold = 200_000.0;
    let gap = hold / (0.7 * f64::from(w));
    let mut clock = 0.0f64;
    let mut reqs = Vec::with_capacity(REQUESTS);
    for _ in 0..REQUESTS {
        clock += -gap * (1.0 - uniform01(&mut rng)).ln();
        let now = clock as u64;
        let off = 50_000 * ((uniform01(&mut rng) * 5.0) as u64);
        let len = 1 + (-hold * (1.0 - uniform01(&mut rng)).ln()) as u64;
        reqs.push((now, now + off, now + off + len));
    }
    let span = reqs.iter().map(|r| r.2).max().unwrap_or(0) + 1;
    Draws { reqs, span }
}

/// One port being fed the pre-drawn requests.
struct Runner<'a, S> {
    d: &'a Draws,
    port: PortSchedule,
    sched: S,
    i: usize,
    shift: u64,
}

impl<'a, S: ChannelScheduler> Runner<'a, S> {
    fn new(d: &'a Draws, port: PortSchedule, sched: S) -> Self {
        Runner {
            d,
            port,
            sched,
            i: 0,
            shift: 0,
        }
    }

    #[inline]
    fn op(&mut self) -> Option<u16> {
        let (now, s, e) = self.d.reqs[self.i];
        let sh = self.shift;
        let got = self.sched.reserve(
            &mut self.port,
            Request::new(
                SimTime(now + sh),
                SimTime(s + sh),
                SimTime(e + sh),
                ChannelSet::All,
            ),
        );
        self.i += 1;
        if self.i == self.d.reqs.len() {
            self.i = 0;
            self.shift += self.d.span;
        }
        got
    }
}

/// Allocations made by `reserve()` over two passes, after two warm-up passes.
fn steady_state_allocations(d: &Draws, kind: SchedulerKind, w: u16) -> (usize, f64) {
    let mut r = Runner::new(d, kind.port(w), kind);
    for _ in 0..2 * REQUESTS {
        black_box(r.op());
    }
    let before = r.port.dropped();
    let region = Region::new(GLOBAL);
    for _ in 0..2 * REQUESTS {
        black_box(r.op());
    }
    let allocs = region.change().allocations;
    let loss = (r.port.dropped() - before) as f64 / (2 * REQUESTS) as f64;
    (allocs, loss)
}

fn scheduler(c: &mut Criterion) {
    let mut g = c.benchmark_group("reserve");
    g.throughput(Throughput::Elements(1));
    for w in [2u16, 16, 64] {
        let d = draws(w);
        for kind in SchedulerKind::ALL {
            let mut r = Runner::new(&d, kind.port(w), kind);
            for _ in 0..REQUESTS {
                r.op();
            }
            g.bench_function(BenchmarkId::new(kind.name(), w), |b| {
                b.iter(|| black_box(r.op()));
            });
        }
        // Dynamic dispatch, to compare with the enum's `match`.
        let boxed: Box<dyn ChannelScheduler> = Box::new(LaucVf);
        let mut r = Runner::new(&d, PortSchedule::new(w, true), boxed);
        g.bench_function(BenchmarkId::new("lauc-vf-dyn", w), |b| {
            b.iter(|| black_box(r.op()));
        });
    }
    g.finish();
}

criterion_group!(benches, scheduler);

fn main() {
    println!("steady-state allocations per 131072 reserve() calls, and burst loss:");
    for w in [2u16, 16, 64] {
        let d = draws(w);
        for kind in SchedulerKind::ALL {
            let (allocs, loss) = steady_state_allocations(&d, kind, w);
            println!(
                "  W = {w:2}  {:<8}  allocations {allocs}  loss {loss:.4}",
                kind.name()
            );
            assert_eq!(allocs, 0, "{} allocates in the steady state", kind.name());
        }
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
