//! The project's reference performance scenario, run once from the command
//! line: `cargo run --release --example reference -- [SCENARIO.toml] [--seconds S]`.
//!
//! Default scenario: `scenarios/dumbbell.toml` (10 bulk Reno flows, 155 Mbit/s
//! 1 ms access links, a 1 Gbit/s 10 ms bottleneck with Bernoulli p = 0.001,
//! 100 s simulated). Prints events/s, delivered segments/s and peak RSS.

use std::alloc::System;
use std::time::Instant;

use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

/// Counts heap allocations, to check that per-packet work does not allocate.
#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

fn peak_rss_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

fn main() {
    let mut path =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/dumbbell.toml").to_string();
    let mut seconds: Option<f64> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--seconds" {
            seconds = args.next().and_then(|s| s.parse().ok());
        } else {
            path = a;
        }
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut sc = match obsim_core::config::parse_toml(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if let Some(s) = seconds {
        sc.duration = obsim_core::time::SimDuration::from_secs_f64(s);
    }
    let region = Region::new(GLOBAL);
    let t = Instant::now();
    let r = obsim_core::engine::run(&sc, &obsim_core::engine::RunOptions::default()).expect("run");
    let wall = t.elapsed().as_secs_f64();
    let st = region.change();
    let allocs = (st.allocations + st.reallocations) as u64;
    let goodput: f64 = r.flows.iter().map(|f| f.goodput_bps).sum();
    println!("scenario            {}", r.meta.scenario);
    println!("simulated           {:.1} s", r.meta.end_time_s);
    println!("wall                {wall:.3} s");
    println!(
        "events              {} ({:.2} M/s)",
        r.meta.events,
        r.meta.events as f64 / wall / 1e6
    );
    println!(
        "segments delivered  {} ({:.3} M/s)",
        r.meta.segments_delivered,
        r.meta.segments_delivered as f64 / wall / 1e6
    );
    println!("total goodput       {:.1} Mbit/s", goodput / 1e6);
    println!(
        "heap allocations    {allocs} during the run ({:.6} per delivered segment)",
        allocs as f64 / r.meta.segments_delivered.max(1) as f64
    );
    if let Some(k) = peak_rss_kib() {
        println!("peak RSS            {:.1} MiB", k as f64 / 1024.0);
    }
}
