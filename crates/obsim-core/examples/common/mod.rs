//! What the benchmark examples (`reference`, `scaling`) share: the counting
//! allocator, peak RSS, parsing a scenario or exiting, and one timed run
//! with the report lines both print.

use std::alloc::System;
use std::time::Instant;

use obsim_core::config::Scenario;
use obsim_core::results::RunResults;
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

/// Counts heap allocations, to check that per-packet work does not allocate.
#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Peak resident set size of this process (`VmHWM`), KiB.
pub fn peak_rss_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// The scenario of `text`, or its errors on stderr and exit status 2.
pub fn parse_or_exit(text: &str) -> Scenario {
    obsim_core::config::parse_toml(text).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    })
}

/// One run with its wall time and the heap allocations made during it.
pub struct Timed {
    /// The run's results.
    pub r: RunResults,
    /// Wall seconds of the run.
    pub wall: f64,
    /// Allocations and reallocations during the run.
    pub allocs: u64,
}

/// Runs `sc` once, timed, counting allocations.
pub fn timed_run(sc: &Scenario) -> Timed {
    let region = Region::new(GLOBAL);
    let t = Instant::now();
    let r = obsim_core::engine::run(sc, &obsim_core::engine::RunOptions::default()).expect("run");
    let wall = t.elapsed().as_secs_f64();
    let st = region.change();
    let allocs = (st.allocations + st.reallocations) as u64;
    Timed { r, wall, allocs }
}

/// The simulated and wall time, events and delivered-segment lines;
/// `rate` names the unit of the segment rate.
pub fn print_rates(t: &Timed, rate: &str) {
    let m = &t.r.meta;
    println!("simulated           {:.1} s", m.end_time_s);
    println!("wall                {:.3} s", t.wall);
    println!(
        "events              {} ({:.2} M/s)",
        m.events,
        m.events as f64 / t.wall / 1e6
    );
    println!(
        "segments delivered  {} ({:.3} {rate})",
        m.segments_delivered,
        m.segments_delivered as f64 / t.wall / 1e6
    );
}

/// The heap-allocation line.
pub fn print_allocs(t: &Timed) {
    println!(
        "heap allocations    {} during the run ({:.6} per delivered segment)",
        t.allocs,
        t.allocs as f64 / t.r.meta.segments_delivered.max(1) as f64
    );
    // Generated flows (issue 12): the whole run's allocations over the
    // flows created, an upper bound on the per-flow cost (it includes the
    // setup and each flow's record, whose names are `String`s).
    let created = t.r.flowgen.created;
    if created > 0 {
        println!(
            "generated flows     {created} ({:.2} allocations per flow created)",
            t.allocs as f64 / created as f64
        );
    }
}
